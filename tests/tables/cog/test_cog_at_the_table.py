"""C.O.G. refereed at the table from camera readings: the table, its journal and its LEDs.

Every reading here is what the camera would report of a table laid out as
the game says (:func:`cogtable.tables.cog.parts.laid_out`), edited where a
test makes a person's mistake. The states come from a few seeded games
(greedy play with some random choices), played once per module by the
engine alone; a test's table resumes a journal holding such a game and is
put in sync with one reading before the test's own reading.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from cogtable.inputs import ConsoleCommand
from cogtable.sensing import Asked
from cogtable.tables.cog.parts import BOARD, PIECE_COLOURS, CogSpace
from games.cog.actions import (
    DrawLetter,
    RollDie,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.effects import SlotLetter
from games.cog.state import CogState
from games.core import CHANCE, Action
from tests.tables.cog.at_the_table import (
    CAMERA_KINDS,
    GAMES,
    TABLE_PLIES,
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
    script,
    turn_of,
)
from vision.layout import LETTERS, WILD

Reading = dict[str, dict[str, str]]

# -- 1. property: what the camera sees after an action is that action ------------------------


@dataclass
class Tally:
    """What the property saw: actions by how they reached the table."""

    counts: Counter[str]

    def add(self, how: str, action: Action) -> None:
        self.counts[f"{how} {type(action).__name__}"] += 1

    def kinds(self, how: str) -> set[str]:
        return {key.split(" ", 1)[1] for key in self.counts if key.startswith(how + " ")}


def camera_reads(ask: Asked, action: Action) -> bool:
    """Whether the action is one the camera reads, asked of the camera now."""
    if ask.route != "camera":
        return False
    return isinstance(action, (DrawLetter, RollDie, *CAMERA_KINDS))


def lay_face_up(before: Reading, laid: Reading, action: Action) -> Reading | None:
    """The far-right top slot's draw laid face up (None: this draw lies face up anyway)."""
    if not isinstance(action, DrawLetter):
        return None
    face_down = {
        place: action.letter
        for place, label in changed_places(before, laid, BOARD).items()
        if label == WILD
    }
    return edited(laid, BOARD, **face_down) if face_down else None


def pays_a_star(action: Action) -> bool:
    """Whether a placement uses a star power (a choice's first option, confirm's, must not)."""
    return any(getattr(action, power, False) for power in ("reroll", "swap", "protect"))


def through_the_camera(at: Table, action: Action, tally: Tally) -> None:
    """Lay the table out as after ``action``: the table takes exactly it, or offers it."""
    state, ply = at.state, len(at.state.history)
    laid = reading(after(state, action))
    face_up = lay_face_up(reading(state), laid, action)
    status = at.see(face_up or laid)
    verdict = at.table.view.verdict
    if len(at.state.history) == ply + 1:
        assert at.state.history[-1] == action, f"{action} read as {at.state.history[-1]}"
        assert at.sources()[-1] == "camera"
        tally.add("move", action)
    else:
        assert verdict.kind == "choose", f"{action}: {status.verdict}: {status.message}"
        assert action in verdict.options, f"{action} not among {verdict.options}"
        assert not pays_a_star(verdict.options[0]), f"confirm would take {verdict.options[0]}"
        if action == verdict.options[0]:
            at.press(action.player)
            assert at.sources()[-1] == "button"
        else:
            at.table.handle(ConsoleCommand(action.notation(), seat=action.player), 2.0)
            assert at.sources()[-1] == "console"
        assert at.state.history[-1] == action, at.table.status().message
        tally.add("choose", action)
    if face_up is not None:
        assert at.table.status().verdict == "out-of-sync"
        tally.add("face-up", action)
        at.see(laid)
    status = at.table.status()
    assert status.in_sync and status.verdict == "in-sync", status.message


def through_the_console(at: Table, ask: Asked, action: Action, tally: Tally) -> None:
    """Type what the camera does not read, then lay the table out as the game now says."""
    label = next((o.label for o in ask.request.options if o.action == action), action.notation())
    seat = None if action.player == CHANCE else action.player
    at.table.handle(ConsoleCommand(label, seat=seat, answers=ask.key), 1.0)
    assert at.state.history[-1] == action, at.table.status().message
    assert at.sources()[-1] == "console"
    laid = reading(at.state)
    status = at.see(laid) if laid != at.table.seen else at.table.status()
    assert status.in_sync and status.verdict == "in-sync", status.message
    tally.add("console", action)


def other_variant_read(at: Table, chosen: Action, rng: random.Random) -> str:
    """Another legal camera action of a random kind, judged by the adapter (not applied).

    Returns the kind ("" if there is none); the choices the seeded players
    make are few, the property holds for every legal action.
    """
    state = at.state
    by_kind: dict[str, list[Action]] = {}
    for action in state.legal_actions(chosen.player):
        if isinstance(action, CAMERA_KINDS) and action != chosen:
            by_kind.setdefault(type(action).__name__, []).append(action)
    camera = [ask.request for ask in at.table.asking() if ask.route == "camera"]
    if not by_kind:
        return ""
    kind = rng.choice(sorted(by_kind))
    action = rng.choice(by_kind[kind])
    verdict = at.table.adapter.judge(state, reading(after(state, action)), at.table.before, camera)
    assert verdict.action == action or action in verdict.options, (
        f"{action} read as {verdict.kind} {verdict.action} {verdict.options}: {verdict.reason}"
    )
    return kind


def played_through(at: Table, seed: int) -> Tally:
    """The first :data:`TABLE_PLIES` plies of a seeded game played through one table."""
    players = at.state.num_players
    tally, rng = Tally(Counter()), random.Random(seed)
    for action in script(players, seed)[:TABLE_PLIES]:
        asks = at.table.asking()
        no_vp_words(at.table.published)
        ask = asks[0] if action.player == CHANCE else at.asked_of(action.player)
        if camera_reads(ask, action):
            if action.player != CHANCE:
                tally.counts[f"variant {other_variant_read(at, action, rng)}"] += 1
            through_the_camera(at, action, tally)
        else:
            through_the_console(at, ask, action, tally)
    assert at.state.history == list(script(players, seed)[:TABLE_PLIES])
    return tally


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_camera_action_laid_out_is_read_as_that_action(
    table_at: TableAt, players: int, seed: int
) -> None:
    tally = played_through(table_at(Position(players, ())), seed)
    moved = tally.kinds("move")
    assert {"DrawLetter", "RollDie", "TakeLetters", "TakeCard", "TakeTurnOrder"} <= moved
    assert {"TakeDie", "TakeCard"} <= tally.kinds("choose") | moved
    assert len(tally.kinds("variant") - {""}) >= 6
    if players == 4:
        assert tally.kinds("face-up") == {"DrawLetter"}


# -- 2. Phase I: letters laid where the bag draw goes -------------------------------------


def drawing_into(state: CogState, wild: bool) -> bool:
    """The table waits for a letter for a top slot (the far-right one of 4 players: ``wild``)."""
    head = state.waiting()
    return isinstance(head, SlotLetter) and head.wild == wild


def laid_draw(state: CogState, letter: str) -> tuple[Reading, str]:
    """The table laid out after the waiting draw of ``letter``, and the place the letter is on.

    (A top slot's stars move along when its letter goes in front of them.)
    """
    laid = reading(after(state, DrawLetter(letter, player=CHANCE)))
    changed = changed_places(reading(state), laid, BOARD)
    (place,) = [place for place, label in changed.items() if label in (letter, WILD)]
    return laid, place


def test_a_letter_laid_in_the_top_slot_of_the_draw_is_that_draw(table_at: TableAt) -> None:
    position = position_where(lambda state: drawing_into(state, wild=False))
    at = table_at(position)
    drawn = position.following
    assert isinstance(drawn, DrawLetter)
    head = at.state.waiting()
    assert isinstance(head, SlotLetter)
    slot = head.slot
    laid, place = laid_draw(at.state, drawn.letter)
    assert place.startswith(f"top{slot + 1}-") and laid[BOARD][place] == drawn.letter
    status = at.see(laid)
    assert at.state.history[-1] == drawn
    assert at.state.top[slot][-1] == drawn.letter
    assert at.sources()[-1] == "camera"
    assert status.verdict == "in-sync" and status.in_sync


def test_a_letter_the_bag_has_none_left_of_is_refused(table_at: TableAt) -> None:
    def gone(state: CogState) -> bool:
        return drawing_into(state, wild=False) and any(not state.bag.get(x) for x in LETTERS)

    at = table_at(position_where(gone))
    missing = next(letter for letter in LETTERS if not at.state.bag.get(letter))
    plies, journaled = len(at.state.history), len(at.sources())
    laid, place = laid_draw(at.state, next(x for x in LETTERS if at.state.bag.get(x)))
    status = at.see(edited(laid, BOARD, **{place: missing}))
    assert status.verdict == "illegal"
    assert f"there is no {missing!r} left in the bag" in status.message
    assert len(at.state.history) == plies and len(at.sources()) == journaled


def test_the_far_right_top_slot_takes_the_letter_face_up_then_waits_for_it_face_down(
    table_at: TableAt,
) -> None:
    position = position_where(lambda state: drawing_into(state, wild=True), players=(4,))
    at = table_at(position)
    drawn = position.following
    assert isinstance(drawn, DrawLetter)
    laid, place = laid_draw(at.state, drawn.letter)
    assert place.startswith("top4-") and laid[BOARD][place] == WILD
    journaled = len(at.sources())

    face_down = at.see(laid)
    assert face_down.verdict == "illegal"
    assert "lay the drawn letter face up" in face_down.message
    assert len(at.sources()) == journaled

    face_up = at.see(edited(laid, BOARD, **{place: drawn.letter}))
    assert at.state.history[-1] == drawn and at.sources()[-1] == "camera"
    assert face_up.verdict == "out-of-sync"
    assert place in face_up.message and WILD in face_up.message

    turned = at.see(laid)
    assert turned.verdict == "in-sync", turned.message
    assert len(at.sources()) == journaled + 1


# -- 3. Phase II: cogs on the board's spaces ------------------------------------------------


def test_a_cog_on_a_legal_space_is_the_placement(table_at: TableAt) -> None:
    at = table_at(position_where(may_take_letters))
    player, slot = turn_of(at.state), open_top_slot(at.state)
    assert slot is not None
    status = at.see(reading(after(at.state, TakeLetters(slot, player=player))))
    assert at.state.history[-1] == TakeLetters(slot, player=player)
    assert at.sources()[-1] == "camera"
    assert status.verdict == "in-sync" and status.in_sync


def test_a_cog_of_a_player_out_of_turn_is_refused_and_its_space_blinks_red(
    table_at: TableAt,
) -> None:
    at = table_at(position_where(may_take_letters))
    player, slot = turn_of(at.state), open_top_slot(at.state)
    assert slot is not None
    other = (player + 1) % at.state.num_players
    journaled = len(at.sources())
    space = CogSpace("top", slot).name
    status = at.see(edited(reading(at.state), BOARD, **{space: PIECE_COLOURS[other]}))
    assert status.verdict == "illegal"
    assert f"it is {at.state.player_name(player)}'s turn" in status.message
    assert len(at.sources()) == journaled
    assert at.table.view.verdict.places == (CogSpace("top", slot).led,)
    # the mock profile has the cog-spaces segment
    assert blinks_red(at.frame(), "cog-spaces", CogSpace("top", slot).led)

    lifted = at.see(reading(at.state))  # the cog taken off again
    assert lifted.verdict == "in-sync"
    assert not blinks_red(at.frame(), "cog-spaces", CogSpace("top", slot).led)


def test_a_cog_on_an_edge_the_player_already_used_is_refused(table_at: TableAt) -> None:
    def used_top(state: CogState) -> bool:
        return (
            collecting(state)
            and "top" in state.mats[turn_of(state)].edges
            and open_top_slot(state) is not None
        )

    at = table_at(position_where(used_top))
    player, slot = turn_of(at.state), open_top_slot(at.state)
    assert slot is not None
    journaled = len(at.sources())
    space = CogSpace("top", slot).name
    status = at.see(edited(reading(at.state), BOARD, **{space: PIECE_COLOURS[player]}))
    assert status.verdict == "illegal"
    assert "already have a cog on the top edge" in status.message
    assert len(at.sources()) == journaled
    assert at.table.view.verdict.places == (CogSpace("top", slot).led,)
    assert blinks_red(at.frame(), "cog-spaces", CogSpace("top", slot).led)
    assert at.frame().look("seats", player).colour == at.table.seat_colours[player]  # still theirs


def test_a_placement_with_a_star_power_is_a_choice_and_confirm_takes_the_plain_one(
    table_at: TableAt,
) -> None:
    def die_with_stars(state: CogState) -> bool:
        return (
            collecting(state)
            and state.mats[turn_of(state)].stars > 0
            and any(isinstance(a, TakeDie) for a in state.legal_actions())
        )

    at = table_at(position_where(die_with_stars))
    player = turn_of(at.state)
    plain = next(a for a in at.state.legal_actions() if isinstance(a, TakeDie))
    assert plain == TakeDie(plain.slot, False, player=player)
    journaled = len(at.sources())
    status = at.see(reading(after(at.state, plain)))
    assert status.verdict == "choose", status.message
    options = at.table.view.verdict.options
    assert options[0] == plain and TakeDie(plain.slot, True, player=player) in options
    assert len(at.sources()) == journaled

    at.press(player)
    assert at.state.history[-1] == plain
    assert at.sources()[-1:] == ["button"] and len(at.sources()) == journaled + 1


def bump_position(state: CogState) -> bool:
    return collecting(state) and any(
        isinstance(a, TakeTurnOrder) and state.turn_cogs[a.position] is not None
        for a in state.legal_actions()
    )


def bumping(state: CogState) -> TakeTurnOrder:
    """The current player's plain placement on a taken turn-order space."""
    return next(
        a
        for a in state.legal_actions()
        if isinstance(a, TakeTurnOrder)
        and state.turn_cogs[a.position] is not None
        and not a.protect
    )


def test_a_bump_is_the_bumped_cog_moved_down(table_at: TableAt) -> None:
    at = table_at(position_where(bump_position))
    bump = bumping(at.state)
    bumped = at.state.turn_cogs[bump.position]
    assert bumped is not None
    laid = reading(after(at.state, bump))
    assert laid[BOARD][CogSpace("turn", bump.position + 1).name] == PIECE_COLOURS[bumped]
    status = at.see(laid)
    if status.verdict == "choose":  # a protected bump is the other option
        assert at.table.view.verdict.options[0] == bump
        at.press(bump.player)
    assert at.state.history[-1] == bump, status.message
    assert at.state.turn_cogs[bump.position : bump.position + 2] == [bump.player, bumped]


def test_a_cog_put_over_another_without_moving_it_down_is_refused(table_at: TableAt) -> None:
    at = table_at(position_where(bump_position))
    bump = bumping(at.state)
    journaled = len(at.sources())
    space = CogSpace("turn", bump.position).name
    status = at.see(edited(reading(at.state), BOARD, **{space: PIECE_COLOURS[bump.player]}))
    assert status.verdict == "illegal"
    assert "move the other cogs back" in status.message
    assert len(at.sources()) == journaled
