"""Take-backs in one game across two tables, over a real Mosquitto: a move taken back where
it was made is taken back at the other table too, or refused there with the reason (a move
was made there since), and then the table that took it back puts it back."""

from __future__ import annotations

from cogtable.inputs import ButtonPressed
from cogtable.journal import MoveSource
from games.kogworks import peg_at
from tests.fleet.mosquitto import Mosquitto
from tests.fleet.test_fleet_remote import ONE, START, Table, red_moved_first, tables, until

__all__ = ["tables"]  # the fixture, shared with test_fleet_remote

TWO = {**ONE, peg_at(5, 2): "blue"}


def undo(table: Table, seat: int) -> None:
    table.table.handle(ButtonPressed("undo", seat=seat, held=True), 0.0)


def test_a_move_taken_back_at_its_table_is_taken_back_at_the_other(
    broker: Mosquitto, tables: list[Table]
) -> None:
    red, blue = red_moved_first(broker, tables)
    blue.board(ONE)
    assert blue.table.status().in_sync is True
    undo(red, 0)
    assert red.actions() == ()
    until(tables, lambda: blue.actions() == (), "blue takes red's move back")
    assert blue.table.status().in_sync is False
    assert blue.table.status().last.startswith("at table t1: the last move")
    assert peg_at(8, 0) in blue.table.view.verdict.places
    blue.board(START)
    assert blue.table.status().in_sync is True
    red.board(START)
    until(tables, lambda: red.table.status().in_sync is True, "red's board put back")
    assert red.table.status().stopped == blue.table.status().stopped == ""
    red.board({**START, peg_at(8, 1): "red"})  # Red plays another move instead
    until(tables, lambda: len(blue.actions()) == 1, "blue journals red's new move")
    assert blue.actions() == red.actions()
    assert blue.table.game.journal.sources(blue.table.game.id) == [MoveSource("remote", "t1")]


def test_a_take_back_the_other_table_cannot_follow_is_refused_and_the_move_put_back(
    broker: Mosquitto, tables: list[Table]
) -> None:
    red, blue = red_moved_first(broker, tables)
    blue.board(ONE)
    blue.disconnect()  # blue's table is offline a while
    blue.board(TWO)  # and Blue moves
    assert len(blue.actions()) == 2
    undo(red, 0)  # meanwhile Red takes its move back
    red.board(START)
    assert red.actions() == ()
    blue.connect(broker, "t1", 1)
    until(tables, lambda: len(red.actions()) == 2, "red journals its move again, and blue's")
    assert red.actions() == blue.actions()
    assert len(blue.actions()) == 2
    assert "refused the take-back" in red.table.status().message
    assert red.table.view.verdict.kind == "carry-out"
    assert red.table.view.verdict.action == red.actions()[0]
    assert red.table.status().stopped == blue.table.status().stopped == ""
    red.board(ONE)
    red.board(TWO)
    assert red.table.status().in_sync is True
