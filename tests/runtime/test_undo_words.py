"""After an undo the status and the terminal say what was taken back and how to put it right.

The words come from the game's adapter (its notation, its ``put_right``), so
the table core says them for any game: "the last move (+9.1) was taken back:
lift the cog" until the board matches the game again.
"""

from __future__ import annotations

from pathlib import Path

from cogtable.game_choice import GameChoice
from cogtable.inputs import BoardSettled, ButtonPressed, ConsoleCommand
from cogtable.tables import adapter_for
from cogtable.tables.kogworks import adapter as kogworks_adapter
from games.core import CHANCE, State
from games.core import new_game as core_new_game
from games.kogworks import Move, Place, new_game, peg_at
from games.kogworks.board import ROW_COL
from tests.runtime.neutral_helpers import make_table

PEG = peg_at(8, 0)
LIFT = "the last move (+9.1) was taken back: lift the cog"


def settled(pieces: dict[int, str]) -> BoardSettled:
    return BoardSettled({ROW_COL[peg]: colour for peg, colour in pieces.items()})


def test_an_undone_cog_still_standing_is_named_with_what_to_do(tmp_path: Path) -> None:
    table, leds = make_table(tmp_path / "journal.sqlite3", GameChoice("kogworks"))
    start = kogworks_adapter.pieces_of(table.state)
    with_cog = {**start, PEG: "red"}
    table.handle(settled(start), 1.0)
    table.handle(settled(with_cog), 2.0)
    table.handle(ButtonPressed("undo", seat=0, held=True), 3.0)
    assert table.status().message == LIFT
    assert table.status().last == LIFT
    assert f"last: {LIFT}" in table.screen_lines()
    assert leds.frames[-1].look("pegs", PEG).animation.kind == "blink", "the cog blinks at once"
    table.handle(settled(with_cog), 4.0)  # the cog still stands: the table says so again
    assert table.status().message == LIFT
    assert table.view.verdict.places == (PEG,)
    table.handle(settled(start), 5.0)
    assert table.status().in_sync is True
    assert table.status().message == "the board matches the game"


def test_a_move_put_back_by_hand_needs_no_instruction(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", GameChoice("kogworks"))
    start = kogworks_adapter.pieces_of(table.state)
    table.handle(settled(start), 1.0)
    table.handle(settled({**start, PEG: "red"}), 2.0)
    table.handle(settled(start), 3.0)  # the player lifted the cog: a take-back
    assert table.state.history == []
    assert table.status().message == "the last move (+9.1) was taken back"


def test_a_moved_cog_taken_back_is_carried_back_in_the_games_words() -> None:
    adapter = adapter_for("kogworks")
    move = Move(peg_at(8, 0), peg_at(8, 1), player=0)
    words = adapter.undo_words(new_game(), move, board=True)
    assert words == "the last move (9.1-9.2) was taken back: move the cog back from 9.2 to 9.1"
    assert adapter.undo_words(new_game(), Place(PEG, player=0), board=False) == (
        "the last move (+9.1) was taken back"
    )


def test_a_console_game_says_what_was_taken_back_with_nothing_to_put_right(
    tmp_path: Path,
) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", GameChoice("commissars"))
    while table.state.to_act() == (CHANCE,):
        table.game.apply(table.state.sample_chance(), "simulation")
    player = table.state.to_act()[0]
    choice = table.state.choice_request(player).options[0].action
    table.game.apply(choice, "simulation")
    table.handle(ConsoleCommand("undo"), 1.0)
    assert table.status().message == f"the last move ({choice.safe_notation()}) was taken back"
    table.handle(ConsoleCommand("undo"), 2.0)
    assert table.status().message == "the last draw or roll was taken back"
    assert table.status().in_sync is True


def test_after_a_restart_right_after_an_undo_the_table_still_says_what_to_lift(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    table, _ = make_table(path, GameChoice("kogworks"))
    start = kogworks_adapter.pieces_of(table.state)
    with_cog = {**start, PEG: "red"}
    table.handle(settled(start), 1.0)
    table.handle(settled(with_cog), 2.0)
    table.handle(ButtonPressed("undo", seat=0, held=True), 3.0)
    table.journal.close()  # the power cut: nothing after the undo's commit
    again, _ = make_table(path, GameChoice("kogworks"))
    assert again.state.history == []
    assert again.status().last == "the last move (+9.1) was taken back"
    again.handle(settled(with_cog), 4.0)  # the undone cog still stands
    assert again.status().message == LIFT
    assert again.status().last == LIFT
    assert f"last: {LIFT}" in again.screen_lines(), "the terminal says what to lift too"
    again.handle(settled(start), 5.0)
    assert again.status().in_sync is True
    assert again.status().message == "the board matches the game"


def test_a_move_after_the_undo_ends_what_a_restart_recalls(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    table, _ = make_table(path, GameChoice("kogworks"))
    start = kogworks_adapter.pieces_of(table.state)
    table.handle(settled(start), 1.0)
    table.handle(settled({**start, PEG: "red"}), 2.0)
    table.handle(ButtonPressed("undo", seat=0, held=True), 3.0)
    table.handle(settled(start), 4.0)
    table.handle(settled({**start, peg_at(8, 1): "red"}), 5.0)
    assert len(table.state.history) == 1
    table.journal.close()
    again, _ = make_table(path, GameChoice("kogworks"))
    assert again.game.taken_back() is None
    assert "taken back" not in again.status().last


def test_a_camera_game_asks_to_put_right_only_what_touched_the_table() -> None:
    adapter = adapter_for("cog")
    state = new_cog_game()
    actions = state.legal_actions(state.to_act()[0])
    placed = next(a for a in actions if adapter.places_of(a))
    untouched = next(a for a in actions if not adapter.places_of(a))
    assert adapter.undo_words(state, placed, board=True).endswith(
        ": put the board back as the LEDs show"
    )
    assert ":" not in adapter.undo_words(state, untouched, board=True)


def new_cog_game() -> State:
    """A two-player C.O.G. game past its opening chance events (a player chooses)."""
    state = core_new_game("cog", {"players": 2}, 1)
    while state.to_act() == (CHANCE,):
        state.apply(state.sample_chance())
    return state
