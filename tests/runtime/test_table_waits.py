"""A table that cannot go on says why within seconds: what it expected, what it sees, what to do.

The table's own clock is injected, so seconds pass at once: the wait is said
on the screen, in the status (``status.json``, ``cogtable status``, the web
view) and, for what the table itself cannot get past, with the status LED amber.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

from cogtable.commands.status import format_status
from cogtable.commit_decision import Decision, DecisionKind
from cogtable.inputs import BoardSettled, BoardUnsettled, ButtonPressed, PartStatus
from cogtable.journal import Journal
from cogtable.table import GameTable
from cogtable.tables.base import AMBER, Verdict
from cogtable.tables.kogworks import adapter
from cogtable.waits import WAIT_SHOWN_S, TableFacts, WaitKind, WaitWatch, waits_of
from cogtable.web.table_view import PUBLIC_STATUS_KEYS
from games.core import new_game
from games.kogworks import peg_at, peg_name
from games.kogworks.board import ROW_COL
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import FrameLog


class Clock:
    """The table's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Screen:
    """The terminal screen: keeps the lines last drawn."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def show(
        self,
        lines: Sequence[str],
        frame: Frame,
        now: float,
        arrangement: Mapping[str, Sequence[Sequence[int]]] | None = None,
    ) -> None:
        self.lines = list(lines)


def make_table(path: Path) -> tuple[GameTable, FrameLog, Screen, Clock]:
    clock, leds, screen = Clock(), FrameLog(), Screen()
    profile = load_profile()
    table = GameTable(
        Journal(path, clock=clock),
        leds,
        Frame.for_profile(profile),
        ((224, 32, 32), (32, 80, 240)),
        game="kogworks",
        clock=clock,
        screen=screen,
    )
    return table, leds, screen, clock


def settled(pieces: dict[int, str]) -> BoardSettled:
    return BoardSettled({ROW_COL[peg]: colour for peg, colour in pieces.items()})


def pass_time(table: GameTable, clock: Clock, seconds: float) -> None:
    """Let ``seconds`` pass with nothing happening (the controller's idle ticks)."""
    end = clock.now + seconds
    while clock.now < end:
        clock.now = min(end, clock.now + 0.5)
        table.tick(clock.now)


def status_led(leds: FrameLog) -> tuple[int, int, int]:
    return leds.frames[-1].look("status", 0).colour


def test_a_board_out_of_sync_is_said_after_a_few_seconds_with_what_to_do(tmp_path: Path) -> None:
    table, leds, screen, clock = make_table(tmp_path / "journal.sqlite3")
    start = adapter.pieces_of(table.state)
    stray = peg_at(8, 0)
    table.handle(settled({**start, stray: "red"}), clock.now)
    assert table.status().wait is None, "not at once: a board is often put right in a moment"
    pass_time(table, clock, WAIT_SHOWN_S - 0.5)
    assert table.status().wait is None
    pass_time(table, clock, 0.5)
    wait = table.status().wait
    assert wait.kind is WaitKind.BOARD
    assert "as the game stands" in wait.expected
    assert peg_name(stray) in wait.seen, wait.seen
    assert wait.remedy.startswith("put the board back as the LEDs show")
    assert wait.seconds == WAIT_SHOWN_S
    assert status_led(leds) == AMBER
    assert any(line.startswith("waiting 3 s: expected the board as") for line in screen.lines)
    assert any(peg_name(stray) in line for line in screen.lines if "sees:" in line)
    printed = "\n".join(format_status({**table.status().to_json(), "updated": 0.0}, 1.0))
    assert "to go on:" in printed and peg_name(stray) in printed
    assert "wait" in PUBLIC_STATUS_KEYS, "the web view shows it too"

    pass_time(table, clock, 2.0)
    assert table.status().wait.seconds == WAIT_SHOWN_S + 2.0, "the count goes on"
    table.handle(settled(start), clock.now)
    wait = table.status().wait
    assert wait.kind is WaitKind.REQUEST, (
        "in sync: now the table waits for Red, as it did all along"
    )
    assert "Red" in wait.expected
    assert "make it on the board" in wait.remedy
    assert status_led(leds) != AMBER, "a player's turn is not the table held up"


def test_a_camera_that_cannot_tell_says_so_with_the_places(tmp_path: Path) -> None:
    table, leds, _, clock = make_table(tmp_path / "journal.sqlite3")
    table.handle(settled(adapter.pieces_of(table.state)), clock.now)
    deciding = Decision(DecisionKind.UNSURE, deciding=((8, 0), (8, 1)))
    unsure = deciding.message("peg")  # what the settling filter says, as PegSight passes it on
    assert "8,0" in unsure
    table.handle(BoardUnsettled(unsure), clock.now)
    pass_time(table, clock, WAIT_SHOWN_S)
    wait = table.status().wait
    assert wait.kind is WaitKind.CAMERA
    assert wait.seen == unsure
    assert "squarely" in wait.remedy
    assert status_led(leds) == AMBER
    table.handle(BoardUnsettled("covered"), clock.now)
    wait = table.status().wait
    assert wait.seen == "covered" and "hands off" in wait.remedy


def test_a_pico_that_is_gone_comes_first_and_goes_when_it_is_back(tmp_path: Path) -> None:
    table, _, screen, clock = make_table(tmp_path / "journal.sqlite3")
    table.handle(settled(adapter.pieces_of(table.state)), clock.now)
    table.handle(PartStatus("link", "reconnecting", "serial port vanished"), clock.now)
    pass_time(table, clock, WAIT_SHOWN_S)
    wait = table.status().wait
    assert wait.kind is WaitKind.PICO
    assert "reconnecting" in wait.seen and "serial port vanished" in wait.seen
    assert "USB cable" in wait.remedy
    assert any("USB cable" in line for line in screen.lines)
    table.handle(PartStatus("link", "connected"), clock.now)
    assert table.status().wait.kind is WaitKind.REQUEST, "the Pico is back: Red's move is next"
    table.handle(PartStatus("link", "version mismatch", "firmware 1.0, host 2.0"), clock.now)
    pass_time(table, clock, WAIT_SHOWN_S)
    assert "cogtable firmware flash" in table.status().wait.remedy, "no cable fixes that"


def test_no_wait_is_said_while_paused(tmp_path: Path) -> None:
    table, _, _, clock = make_table(tmp_path / "journal.sqlite3")
    table.handle(BoardUnsettled("moving"), clock.now)
    table.handle(ButtonPressed("pause", None), clock.now)
    pass_time(table, clock, WAIT_SHOWN_S * 2)
    assert table.status().wait is None
    table.handle(ButtonPressed("pause", None), clock.now)
    pass_time(table, clock, WAIT_SHOWN_S)
    assert table.status().wait.kind is WaitKind.CAMERA, "going on, the wait is counted afresh"


def test_a_choice_between_readings_is_a_players_turn_and_a_new_wait_counts_afresh() -> None:
    state = new_game("kogworks", {}, 0)
    choose = Verdict("choose", reason="was that +9.1 with its star power, or without?")
    facts = TableFacts(state=state, asked=(), verdict=choose, synced=True, reads_camera=True)
    watch = WaitWatch()
    assert watch.update(waits_of(facts), 0.0) is None
    wait = watch.update(waits_of(facts), WAIT_SHOWN_S)
    assert wait is not None and wait.kind is WaitKind.REQUEST and not wait.amber
    assert "confirm" in wait.remedy and wait.seen == choose.reason
    moving = dataclasses.replace(facts, camera="moving")
    assert watch.update(waits_of(moving), WAIT_SHOWN_S + 1) == wait, "the older wait is shown"
    assert watch.update(waits_of(moving), 2 * WAIT_SHOWN_S + 1).kind is WaitKind.CAMERA, (
        "once the camera's wait has lasted, it comes first"
    )
    over = TableFacts(state=state, asked=(), verdict=choose, synced=False, reads_camera=True)
    assert [w.kind for w in waits_of(over)] == [WaitKind.BOARD], "choose needs the board in sync"
