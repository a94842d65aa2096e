"""The game table: settled readings become journaled moves; nothing else is recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogtable.inputs import BoardSettled, BoardUnsettled, ButtonPressed, ConsoleCommand
from cogtable.journal import Journal
from cogtable.table import GameTable
from cogtable.tables.kogworks import adapter
from games.kogworks import Place, peg_at, peg_name
from games.kogworks.board import ROW_COL
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import FrameLog


def make_table(path: Path) -> tuple[GameTable, FrameLog]:
    profile = load_profile()
    leds = FrameLog()
    table = GameTable(
        Journal(path, clock=lambda: 0.0),
        leds,
        Frame.for_profile(profile),
        ((224, 32, 32), (32, 80, 240)),
        game="kogworks",
        clock=lambda: 0.0,
    )
    return table, leds


def settled(pieces: dict[int, str]) -> BoardSettled:
    return BoardSettled({ROW_COL[peg]: colour for peg, colour in pieces.items()})


def start_pieces(table: GameTable) -> dict[int, str]:
    return adapter.pieces_of(table.state)


def test_a_move_counts_only_once_the_board_is_in_sync(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3")
    start = start_pieces(table)
    with_cog = {**start, peg_at(8, 0): "red"}
    table.handle(settled(with_cog), 1.0)
    assert table.state.history == []
    assert table.status().in_sync is False
    table.handle(settled(start), 2.0)
    assert table.status().in_sync is True
    table.handle(settled(with_cog), 3.0)
    assert table.state.history == [Place(peg_at(8, 0), player=0)]
    assert list(table.game.record().actions) == table.state.history


def test_an_illegal_board_is_shown_and_never_recorded(tmp_path: Path) -> None:
    table, leds = make_table(tmp_path / "journal.sqlite3")
    table.handle(settled(start_pieces(table)), 1.0)
    table.handle(settled({**start_pieces(table), peg_at(8, 0): "red"}), 2.0)
    table.handle(settled({**start_pieces(table), peg_at(5, 2): "blue"}), 3.0)
    illegal = {**start_pieces(table), peg_at(9, 1): "red"}
    table.handle(settled(illegal), 4.0)
    assert len(table.game.record().actions) == 2
    assert table.view.verdict.kind == "illegal"
    assert leds.frames[-1].look("pegs", peg_at(9, 1)).animation.kind == "blink"


def test_holding_undo_takes_back_and_waits_for_the_board(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3")
    start = start_pieces(table)
    with_cog = {**start, peg_at(8, 0): "red"}
    table.handle(settled(start), 1.0)
    table.handle(settled(with_cog), 2.0)
    table.handle(ButtonPressed("undo", seat=0, held=True), 3.0)
    assert table.state.history == []
    table.handle(settled(with_cog), 4.0)
    assert table.state.history == [], "the undone move must not be read again"
    assert table.view.verdict.places == (peg_at(8, 0),)
    table.handle(settled(start), 5.0)
    assert table.status().in_sync is True


def test_putting_the_last_move_back_is_an_undo(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3")
    start = start_pieces(table)
    table.handle(settled(start), 1.0)
    table.handle(settled({**start, peg_at(8, 0): "red"}), 2.0)
    table.handle(settled(start), 3.0)
    assert table.state.history == []
    assert table.game.record().actions == ()


def test_the_game_resumes_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    table, _ = make_table(path)
    table.handle(settled(start_pieces(table)), 1.0)
    table.handle(settled({**start_pieces(table), peg_at(8, 0): "red"}), 2.0)
    table.pause()
    again, _ = make_table(path)
    assert again.state.history == [Place(peg_at(8, 0), player=0)]
    assert again.status().turn == "Blue"
    assert again.status().in_sync is False


def test_console_moves_and_bad_console_text(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3")
    table.handle(ConsoleCommand("+9.1"), 1.0)
    assert table.state.history == [Place(peg_at(8, 0), player=0)]
    table.handle(ConsoleCommand("+99.1"), 2.0)
    assert len(table.state.history) == 1
    assert "no peg" in table.status().message or "row" in table.status().message


def test_waiting_lights_the_status_led_amber(tmp_path: Path) -> None:
    table, leds = make_table(tmp_path / "journal.sqlite3")
    table.handle(BoardUnsettled("covered"), 1.0)
    assert leds.frames[-1].look("status", 0).colour == adapter.AMBER
    assert table.status().waiting == "covered"


@pytest.mark.parametrize("button", ["new_game"])
def test_new_game_waits_for_a_cleared_board(tmp_path: Path, button: str) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3")
    table.handle(ConsoleCommand("+9.1"), 1.0)
    first_id = table.game.id
    table.handle(ButtonPressed(button), 2.0)  # type: ignore[arg-type]
    assert table.game.id == first_id, "one press never abandons a game in progress"
    assert "press new game again" in table.status().message
    table.handle(ButtonPressed(button), 3.0)  # type: ignore[arg-type]
    assert table.game.id != first_id and table.state.history == []
    table.handle(settled({**start_pieces(table), peg_at(8, 0): "red"}), 3.0)
    assert table.state.history == []
    assert table.view.verdict.places == (peg_at(8, 0),)


def test_pause_stops_refereeing_and_unpause_checks_the_board(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3")
    start = start_pieces(table)
    table.handle(settled(start), 1.0)
    table.handle(ButtonPressed("pause"), 2.0)
    with_cog = {**start, peg_at(8, 0): "red"}
    table.handle(settled(with_cog), 3.0)
    assert table.state.history == [], "nothing is played while paused"
    table.handle(ButtonPressed("new_game"), 4.0)
    assert table.view.paused, "a new game keeps the pause"
    table.handle(ButtonPressed("pause"), 5.0)
    table.handle(settled(with_cog), 6.0)
    assert table.state.history == [], "a change made while paused is shown, not played"
    assert table.view.verdict.places == (peg_at(8, 0),)


def test_a_restart_after_a_win_shows_the_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    table, _ = make_table(path)
    column = [peg_at(row, 0) for row in range(8, 0, -1)]
    apart = [(9, 3), (9, 6), (7, 3), (7, 6), (5, 4), (4, 2), (3, 3)]
    for number, peg in enumerate(column):
        table.handle(ConsoleCommand(f"+{peg_name(peg)}"), float(number))
        if number < len(apart):
            row, col = apart[number]
            table.handle(ConsoleCommand(f"+{row + 1}.{col + 1}"), float(number))
    assert table.state.outcome() is not None
    finished_id = table.game.id
    table.pause()
    again, _ = make_table(path)
    assert again.game.id == finished_id and again.state.outcome() is not None
    again.handle(ButtonPressed("new_game"), 1.0)
    assert again.game.id != finished_id and again.state.outcome() is None
