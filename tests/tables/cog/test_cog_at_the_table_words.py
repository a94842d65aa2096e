"""C.O.G. refereed at the table from camera readings: words on a mat, take-back, out of sync.

Also: victory points are never shown, and the printed mat's star places. The
positions and readings are :mod:`tests.tables.cog.at_the_table`'s.
"""

from __future__ import annotations

from cogtable.inputs import ConsoleCommand
from cogtable.tables.cog.parts import PIECE_COLOURS, laid_out
from cogtable.tables.cog.parts import mat_name as mat_of
from games.cog.actions import (
    PlaceWord,
    PlaceWordWild,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.state import CogState
from games.core import CHANCE, Action
from tests.tables.cog.at_the_table import (
    LAYOUT,
    Position,
    Table,
    TableAt,
    after,
    blinks_red,
    changed_places,
    collecting,
    edited,
    may_take_letters,
    no_vp_words,
    open_top_slot,
    position_where,
    reading,
    turn_of,
    with_pawns_of,
)

Reading = dict[str, dict[str, str]]

# -- 4. Phase IV: words laid on a mat ---------------------------------------------------------


def constructing(state: CogState) -> bool:
    return state.phase == "construct" and not state.queue and state.to_act() != (CHANCE,)


def plain_word(state: CogState) -> PlaceWord | None:
    """The longest word a player can lay now, the reserve choosing the tiles."""
    words = [a for a in state.legal_actions() if type(a) is PlaceWord]
    return max(words, key=lambda a: (len(a.word), a.notation()), default=None)


def word_position() -> Position:
    return position_where(lambda state: constructing(state) and plain_word(state) is not None)


def test_a_permitted_word_laid_from_the_reserve_is_applied(table_at: TableAt) -> None:
    at = table_at(word_position())
    word = plain_word(at.state)
    assert word is not None
    status = at.see(reading(after(at.state, word)))
    assert at.state.history[-1] == word, status.message
    assert at.sources()[-1] == "camera"
    assert status.verdict == "in-sync" and status.in_sync


def test_a_word_with_wild_tiles_the_player_chose_is_read_as_that_word(table_at: TableAt) -> None:
    def chosen_wild(state: CogState) -> bool:
        return constructing(state) and any(
            isinstance(a, PlaceWordWild) for a in state.legal_actions()
        )

    at = table_at(position_where(chosen_wild))
    wild = next(a for a in at.state.legal_actions() if isinstance(a, PlaceWordWild))
    status = at.see(reading(after(at.state, wild)))
    if status.verdict == "choose":  # the wild tiles may spell other words too
        assert wild in at.table.view.verdict.options
        at.table.handle(ConsoleCommand(wild.notation(), seat=wild.player), 2.0)
    assert at.state.history[-1] == wild, status.message


def refused_word_shown(at: Table, player: int, reason: str, journaled: int) -> None:
    """A refused word: the status names the grid and why, the seat blinks red, nothing journaled."""
    status = at.table.status()
    assert status.verdict == "illegal"
    assert f"{at.state.player_name(player)}'s grid" in status.message
    assert reason in status.message
    assert len(at.sources()) == journaled
    assert blinks_red(at.frame(), "seats", player), at.frame().look("seats", player)


def test_a_word_that_is_not_permitted_is_refused_and_its_seat_blinks_red(table_at: TableAt) -> None:
    at = table_at(word_position())
    word = plain_word(at.state)
    assert word is not None
    laid = reading(after(at.state, word))
    mat = mat_of(word.player)
    new_tiles = changed_places(reading(at.state), laid, mat)
    cells = [place for place in new_tiles if place.startswith("r")]
    odd = next(x for x in "QZXJ" if x not in at.state.mats[word.player].wild)
    journaled = len(at.sources())
    at.see(edited(laid, mat, **dict.fromkeys(cells, odd)))
    refused_word_shown(at, word.player, "is no permitted word", journaled)


def test_tiles_laid_in_no_one_line_are_refused_and_their_seat_blinks_red(table_at: TableAt) -> None:
    at = table_at(word_position())
    word = plain_word(at.state)
    assert word is not None
    player, grid = word.player, at.state.mats[word.player].grid
    empty = [(r, c) for r in range(grid.rows) for c in range(grid.cols) if (r, c) not in grid.tiles]
    first = empty[0]
    second = next(cell for cell in empty if cell[0] > first[0] + 1 and cell[1] > first[1] + 1)
    laid = {f"r{row + 1}c{col + 1}": "E" for row, col in (first, second)}
    journaled = len(at.sources())
    at.see(edited(reading(at.state), mat_of(player), **laid))
    refused_word_shown(at, player, "are not in one row or column", journaled)


def test_a_word_whose_tiles_did_not_come_from_the_reserve_is_refused(table_at: TableAt) -> None:
    at = table_at(word_position())
    word = plain_word(at.state)
    assert word is not None
    mat = mat_of(word.player)
    full = reading(at.state)[mat]
    reserve = {place: label for place, label in full.items() if place.startswith("reserve")}
    journaled = len(at.sources())
    at.see(edited(reading(after(at.state, word)), mat, **reserve))
    refused_word_shown(at, word.player, "the reserve still holds", journaled)


# -- 5. take-back ----------------------------------------------------------------------------


def test_the_table_laid_out_as_before_the_last_placement_takes_it_back(table_at: TableAt) -> None:
    at = table_at(position_where(may_take_letters))
    before, journaled = reading(at.state), len(at.sources())
    history = list(at.state.history)
    slot = open_top_slot(at.state)
    assert slot is not None
    placement = TakeLetters(slot, player=turn_of(at.state))
    laid = reading(after(at.state, placement))
    at.see(laid)
    assert at.state.history[-1] == placement

    status = at.see(before)
    assert at.state.history == history and len(at.sources()) == journaled
    assert status.verdict == "in-sync" and status.in_sync
    assert "taken back" in status.message

    at.see(laid)  # laid again, it counts again
    assert at.state.history[-1] == placement and at.sources()[-1] == "camera"


def test_a_word_lifted_back_into_the_reserve_is_a_take_back_not_a_deconstruction(
    table_at: TableAt,
) -> None:
    at = table_at(word_position())
    word = plain_word(at.state)
    assert word is not None
    before, history = reading(at.state), list(at.state.history)
    at.see(reading(after(at.state, word)))
    assert at.state.history[-1] == word

    status = at.see(before)
    assert at.state.history == history, status.message
    assert status.verdict == "in-sync"


# -- 6. out of sync: a pawn not yet moved ------------------------------------------------------


def quiet_die(state: CogState) -> TakeDie | None:
    """A plain die the current player may take whose pawn move asks nothing more."""
    for action in state.legal_actions():
        if isinstance(action, TakeDie) and not action.reroll:
            twin = after(state, action)
            if collecting(twin) and twin.mats[action.player].pawn != state.mats[action.player].pawn:
                return action
    return None


def quiet_next_placement(state: CogState) -> Action | None:
    """The next player's cog on a top slot or an open turn-order space (no star power)."""
    for action in state.legal_actions():
        if isinstance(action, TakeLetters) or (
            isinstance(action, TakeTurnOrder)
            and state.turn_cogs[action.position] is None
            and not action.protect
        ):
            return action
    return None


def test_a_pawn_not_yet_moved_leaves_the_table_working_and_says_where_it_goes(
    table_at: TableAt,
) -> None:
    def die_then_cog(state: CogState) -> bool:
        if not collecting(state) or state.mats[turn_of(state)].stars:
            return False
        die = quiet_die(state)
        return die is not None and quiet_next_placement(after(state, die)) is not None

    at = table_at(position_where(die_then_cog))
    die = quiet_die(at.state)
    assert die is not None
    before = reading(at.state)
    status = at.see(with_pawns_of(reading(after(at.state, die)), before))
    assert at.state.history[-1] == die and at.sources()[-1] == "camera"
    pawn = at.state.mats[die.player].pawn
    colour = PIECE_COLOURS[die.player]
    where = f"move the {colour} pawn to track space {pawn + 1}"
    assert status.verdict == "out-of-sync" and where in status.message
    assert pawn in dict(at.table.view.verdict.other_places)["track"]
    assert at.frame().look("track", pawn).animation.kind == "blink"

    placement = quiet_next_placement(at.state)
    assert placement is not None
    status = at.see(with_pawns_of(reading(after(at.state, placement)), before))
    assert at.state.history[-1] == placement and at.sources()[-1] == "camera"
    assert status.verdict == "out-of-sync" and where in status.message

    status = at.see(reading(at.state))
    assert status.verdict == "in-sync", status.message


# -- 7. victory points are never shown ------------------------------------------------------------


def test_victory_points_change_neither_the_leds_nor_the_status(table_at: TableAt) -> None:
    def scored(state: CogState) -> bool:
        return collecting(state) and all(mat.vp for mat in state.mats)

    at = table_at(position_where(scored))
    at.table.show(3.0)
    frame, status = at.frame(), at.table.published
    no_vp_words(status)
    for mat in at.state.mats:
        mat.vp += 17  # not a move: only what the table shows is compared, then put back
    try:
        at.table.show(3.0)
        assert at.frame().looks == frame.looks
        assert at.table.published == status
    finally:
        for mat in at.state.mats:
            mat.vp -= 17


# -- the printed mat's star places ------------------------------------------------------------


def test_a_mat_with_more_stars_than_star_places_laid_out_is_in_sync(table_at: TableAt) -> None:
    """laid_out (the mock table's layout) puts every star on the mat, as the reader counts them."""

    def many_stars(state: CogState) -> bool:
        return max(mat.stars for mat in state.mats) > len(LAYOUT.mat.stars)

    at = table_at(position_where(many_stars, games=((3, 0),)))  # stars on the reserve
    journaled = len(at.sources())
    status = at.see(laid_out(at.state, LAYOUT))
    assert status.verdict == "in-sync", status.message
    assert len(at.sources()) == journaled


def test_a_reserve_of_more_letters_than_the_old_twelve_places_laid_out_is_in_sync(
    table_at: TableAt,
) -> None:
    """A reserve holds any number of letters in a round: a 13-letter one lies on the mat, read."""

    def big_reserve(state: CogState) -> bool:
        return max(len(mat.reserve) for mat in state.mats) >= 13

    at = table_at(position_where(big_reserve, games=((4, 16),)))
    journaled = len(at.sources())
    status = at.see(laid_out(at.state, LAYOUT))
    assert status.verdict == "in-sync", status.message
    assert len(at.sources()) == journaled
