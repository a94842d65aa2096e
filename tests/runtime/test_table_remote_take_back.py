"""Take-backs in one game across two tables, at the table (no broker): a move taken back at
the table where it was made is taken back at the other table too, or refused with the reason.

Two :class:`GameTable` objects stand for the two tables; what one journals (and took back) is
handed to the other as a :class:`RemoteRecord`, as :mod:`cogtable.fleet.remote` does over MQTT.
"""

from __future__ import annotations

from pathlib import Path

from cogtable.inputs import ButtonPressed, RemoteRecord, RemoteTakeBack
from cogtable.journal import MoveSource
from cogtable.table import GameTable
from cogtable.tables.kogworks import adapter
from games.kogworks import peg_at
from tests.runtime.test_table import settled
from tests.runtime.test_table_remote import make_table

RED_MOVE = peg_at(8, 0)
BLUE_MOVE = peg_at(5, 2)


def record_of(table: GameTable, here: tuple[int, ...], name: str = "far") -> RemoteRecord:
    """What ``table`` publishes: its actions, and the move of a seat played ``here`` it took
    back last (none came after it)."""
    actions = tuple(action.to_json() for action in table.game.record().actions)
    taken = table.game.taken_back()
    back = None
    if taken is not None and taken.player in here:
        back = RemoteTakeBack(len(actions) + 1, taken.to_json())
    return RemoteRecord(name, "kogworks", actions, taken_back=back)


def red_moved_and_blue_carried_it_out(tmp_path: Path) -> tuple[GameTable, GameTable, dict]:
    """Red (seat 0, table 'red') made a move; Blue's table journaled it and its board shows it."""
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, _ = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, RED_MOVE: "red"}), 1.0)
    blue.handle(record_of(red, (0,)), 2.0)
    blue.handle(settled({**start, RED_MOVE: "red"}), 3.0)
    assert blue.status().in_sync is True and len(blue.state.history) == 1
    return red, blue, start


def test_a_move_taken_back_where_it_was_made_is_taken_back_at_the_other_table(
    tmp_path: Path,
) -> None:
    red, blue, start = red_moved_and_blue_carried_it_out(tmp_path)
    red.handle(ButtonPressed("undo", seat=0, held=True), 4.0)
    assert not red.state.history
    blue.handle(record_of(red, (0,)), 5.0)
    assert not blue.state.history
    shown = blue.status()
    assert shown.in_sync is False and shown.stopped == ""
    assert shown.last.startswith("at table far: the last move") and "taken back" in shown.last
    assert blue.view.verdict.kind == "out-of-sync"
    assert RED_MOVE in blue.view.verdict.places  # the peg to lift is shown
    blue.handle(settled(start), 6.0)
    assert blue.status().in_sync is True
    red.handle(record_of(blue, (1,)), 7.0)  # blue's record now equals red's: nothing to do
    assert not red.state.history and red.status().stopped == ""
    assert blue.game.record().actions == red.game.record().actions == ()


def test_a_move_the_board_never_showed_is_taken_back_at_once(tmp_path: Path) -> None:
    red, _ = make_table(tmp_path / "red.sqlite3", here=0)
    blue, _ = make_table(tmp_path / "blue.sqlite3", here=1)
    start = adapter.pieces_of(red.state)
    red.handle(settled({**start, RED_MOVE: "red"}), 1.0)
    blue.handle(record_of(red, (0,)), 2.0)
    assert blue.view.verdict.kind == "carry-out"
    red.handle(ButtonPressed("undo", seat=0, held=True), 3.0)
    blue.handle(record_of(red, (0,)), 4.0)
    assert not blue.state.history
    assert blue.view.verdict.kind != "carry-out"
    blue.handle(settled(start), 5.0)
    assert blue.status().in_sync is True


def test_a_move_made_at_the_other_table_is_not_taken_back_here(tmp_path: Path) -> None:
    _, blue, _ = red_moved_and_blue_carried_it_out(tmp_path)
    blue.handle(ButtonPressed("undo", seat=1, held=True), 4.0)
    assert len(blue.state.history) == 1
    assert "made at table far: only it can take it back" in blue.status().message
    assert blue.game.journal.sources(blue.game.id) == [MoveSource("remote", "far")]


def test_a_take_back_after_the_other_table_moved_on_is_refused_and_the_move_put_back(
    tmp_path: Path,
) -> None:
    red, blue, start = red_moved_and_blue_carried_it_out(tmp_path)
    both = {**start, RED_MOVE: "red", BLUE_MOVE: "blue"}
    blue.handle(settled(both), 4.0)  # Blue moves before it hears of Red's take-back
    assert len(blue.state.history) == 2
    red.handle(ButtonPressed("undo", seat=0, held=True), 4.5)
    red.handle(settled(start), 4.6)  # and Red's board is put back
    assert not red.state.history
    blue.handle(record_of(red, (0,)), 5.0)
    assert len(blue.state.history) == 2  # refused: Blue's move came after it
    assert "refused" in blue.status().message and blue.status().stopped == ""
    red.handle(record_of(blue, (1,)), 6.0)
    assert red.game.record().actions == blue.game.record().actions
    assert red.status().stopped == ""
    assert "refused the take-back" in red.status().message
    assert red.view.verdict.kind == "carry-out"
    assert red.view.verdict.action == red.state.history[0]  # Red's move, to put back first
    assert red.game.journal.sources(red.game.id) == [MoveSource("remote", "far")] * 2
    red.handle(settled({**start, RED_MOVE: "red"}), 7.0)
    red.handle(settled(both), 8.0)
    assert red.status().in_sync is True


def test_the_other_tables_record_from_before_it_heard_of_the_take_back_changes_nothing(
    tmp_path: Path,
) -> None:
    red, blue, _ = red_moved_and_blue_carried_it_out(tmp_path)
    before = record_of(blue, (1,))  # Blue's record still holds Red's move
    red.handle(ButtonPressed("undo", seat=0, held=True), 4.0)
    red.handle(before, 5.0)
    assert not red.state.history
    assert "refused" not in red.status().message and red.view.verdict.kind != "carry-out"
    blue.handle(record_of(red, (0,)), 6.0)
    red.handle(record_of(blue, (1,)), 7.0)
    assert not red.state.history and not blue.state.history
