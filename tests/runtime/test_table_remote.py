"""One game across two tables, at the table: the other table's record as inputs, no broker.

Two :class:`GameTable` objects stand for the two tables; what one journals is handed to the
other as a :class:`RemoteRecord` (what :mod:`cogtable.fleet.remote` does over MQTT).
"""

from __future__ import annotations

from pathlib import Path

from cogtable.inputs import RemotePartner, RemoteRecord, RemoteStopped
from cogtable.journal import Journal
from cogtable.table import GameTable
from cogtable.tables.base import WHITE, Scene, Verdict
from cogtable.tables.kogworks import adapter
from games.kogworks import Move, Place, new_game, peg_at
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import FrameLog
from tests.runtime.test_table import settled

COLOURS = ((224, 32, 32), (32, 80, 240))


def make_table(
    path: Path, here: int, board: dict[int, str] | None = None
) -> tuple[GameTable, FrameLog]:
    """A Kogworks table whose seat ``here`` plays here, the other at table 'far', and its first
    settled ``board`` (default: as the game stands)."""
    profile = load_profile()
    leds = FrameLog()
    table = GameTable(
        Journal(path, clock=lambda: 0.0),
        leds,
        Frame.for_profile(profile),
        COLOURS,
        game="kogworks",
        clock=lambda: 0.0,
    )
    table.handle(RemotePartner("far", (1 - here,)), 0.0)
    table.handle(settled(adapter.pieces_of(table.state) if board is None else board), 0.5)
    return table, leds


def record_of(table: GameTable, name: str = "far") -> RemoteRecord:
    """What ``table`` publishes: its journal's actions of the game in progress."""
    actions = tuple(action.to_json() for action in table.game.record().actions)
    return RemoteRecord(name, "kogworks", actions)


def test_the_other_tables_move_is_journaled_then_carried_out(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, leds = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, peg_at(8, 0): "red"}), 1.0)
    assert len(red.state.history) == 1
    blue.handle(record_of(red), 2.0)
    assert blue.state.history == red.state.history
    assert blue.status().in_sync is False
    assert blue.view.verdict.kind == "carry-out"
    assert leds.frames[-1].look("pegs", peg_at(8, 0)).colour == WHITE
    blue.handle(settled({**start, peg_at(8, 0): "red"}), 3.0)
    assert blue.status().in_sync is True
    assert blue.game.record().actions == red.game.record().actions


def test_after_a_restart_the_other_tables_move_is_still_to_carry_out(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, _ = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, peg_at(8, 0): "red"}), 1.0)
    blue.handle(record_of(red), 2.0)
    blue.journal.close()  # the table stops before its board shows the move
    again, leds = make_table(tmp_path / "blue.sqlite3", here=1, board=start)
    assert again.state.history == red.state.history
    assert again.view.verdict.kind == "carry-out"
    assert leds.frames[-1].look("pegs", peg_at(8, 0)).colour == WHITE
    again.handle(settled({**start, peg_at(8, 0): "red"}), 3.0)
    assert again.status().in_sync is True


def test_a_different_legal_move_is_not_the_opponents(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, leds = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, peg_at(8, 0): "red"}), 1.0)
    blue.handle(record_of(red), 2.0)
    other = {**start, peg_at(8, 1): "red"}
    assert new_game().why_illegal(Place(peg_at(8, 1), player=0)) == []
    blue.handle(settled(other), 3.0)
    assert blue.status().message.startswith("not your opponent's move")
    assert blue.status().in_sync is False
    assert len(blue.state.history) == 1
    assert leds.frames[-1].look("pegs", peg_at(8, 1)).animation.kind == "blink"


def test_a_move_for_the_other_tables_seat_is_refused(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, peg_at(8, 0): "red"}), 1.0)
    red.handle(settled({**start, peg_at(8, 0): "red", peg_at(5, 2): "blue"}), 2.0)
    assert len(red.state.history) == 1
    assert "plays at table far" in red.status().message


def test_a_board_catches_up_move_by_move(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, _ = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    one = {**start, peg_at(8, 0): "red"}
    red.handle(settled(one), 1.0)
    blue.handle(record_of(red), 2.0)
    two = {**one, peg_at(5, 2): "blue"}
    blue.handle(settled(one), 3.0)
    blue.handle(settled(two), 4.0)
    assert len(blue.state.history) == 2
    three = {**two, peg_at(8, 1): "red"}
    red.handle(record_of(blue), 5.0)
    red.handle(settled(two), 6.0)
    red.handle(settled(three), 7.0)
    late, _ = make_table(tmp_path / "late.sqlite3", here=1)
    late.handle(RemotePartner("far", (0, 1)), 7.5)  # a board that only follows: both seats away
    late.handle(record_of(red), 8.0)
    assert late.game.record().actions == red.game.record().actions
    assert late.view.verdict.kind == "carry-out"
    assert late.view.verdict.action == red.state.history[0]
    late.handle(settled(one), 9.0)
    assert late.view.verdict.action == red.state.history[1]
    late.handle(settled(three), 10.0)
    assert late.status().in_sync is True


def test_a_disagreement_stops_the_game_with_the_reason(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, _ = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, peg_at(8, 0): "red"}), 1.0)
    wrong = (Place(peg_at(8, 1), player=0).to_json(),)
    blue.handle(RemoteRecord("far", "kogworks", wrong), 2.0)
    blue.handle(record_of(red), 3.0)
    stopped = blue.status().stopped
    assert stopped.startswith("the tables disagree at move 1")
    before = len(blue.state.history)
    blue.handle(settled({**start, peg_at(8, 1): "red", peg_at(5, 2): "blue"}), 4.0)
    assert len(blue.state.history) == before, "a stopped game takes no move"
    red.handle(RemoteStopped("blue", stopped), 5.0)
    assert "blue stopped the game" in red.status().stopped


def test_the_leds_show_a_move_to_carry_out() -> None:
    profile = load_profile()
    state = new_game()
    move = Move(peg_at(8, 0), peg_at(7, 0), player=0)
    verdict = Verdict("carry-out", action=move, places=(move.source, move.target))
    leds = adapter.frame(state, verdict, COLOURS, Frame.for_profile(profile))
    source, target = leds.look("pegs", move.source), leds.look("pegs", move.target)
    assert (source.colour, source.animation.kind) == (WHITE, "blink")
    assert (target.colour, target.animation.kind) == (WHITE, "solid")
    assert Scene(verdict, COLOURS).verdict.kind == "carry-out"
