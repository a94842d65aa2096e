"""C.O.G. refereed at the table from camera readings: the table, its journal and its LEDs.

Every reading here is what the camera would report of a table laid out as
the game says (:func:`cogtable.tables.cog.parts.laid_out`), edited where a
test makes a person's mistake. The states come from a few seeded games
(greedy play with some random choices), played once per module by the
engine alone; a test's table resumes a journal holding such a game and is
put in sync with one reading before the test's own reading.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cogtable.game_choice import GameChoice
from cogtable.inputs import BoardSettled, ButtonName, ButtonPressed, ConsoleCommand
from cogtable.journal import Journal
from cogtable.sensing import Asked
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from cogtable.tables.base import RED
from cogtable.tables.cog.adapter import MAT_CHANGES, PLACEMENTS
from cogtable.tables.cog.parts import BOARD, PIECE_COLOURS, cog_led, cog_space, laid_out
from cogtable.tables.cog.parts import mat_name as mat_of
from games.cog.actions import (
    Deconstruct,
    DrawLetter,
    PlaceWord,
    PlaceWordWild,
    RollDie,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.edition import load_edition
from games.cog.effects import SlotLetter
from games.cog.layout import Layout
from games.cog.players import greedy_player, random_player
from games.cog.state import CogState
from games.core import CHANCE, Action, new_game
from hardware.leds import Frame
from tests.runtime.neutral_helpers import FrameLog, make_table, sources
from vision.layout import LETTERS, WILD

Reading = dict[str, dict[str, str]]
"""A settled reading: part -> place -> label (what the camera reports)."""

CAMERA_DICE = Sensors(camera_dice=True)
GAMES = ((2, 21), (3, 22), (4, 23))
"""The seeded games (players, seed) every test takes its states from."""
PLY_CAP = 600
"""The longest seeded game kept (a whole game is 200 to 350 plies)."""
TABLE_PLIES = 170
"""How many plies of each seeded game the property plays through a table (about 5 rounds)."""
RANDOM_SHARE = 0.3
"""How often a seeded player makes a random choice instead of the greedy one."""
CAMERA_KINDS = (*PLACEMENTS, *MAT_CHANGES, TakeCentre, PlaceWord, Deconstruct)
"""Player actions the camera reads (PlaceWordWild is a PlaceWord)."""
VP_WORDS = re.compile(r"\bvps?\b|victory|score|points", re.IGNORECASE)


def _layout() -> Layout:
    layout = load_edition().layout
    assert layout is not None, "the built-in C.O.G. edition has a [layout]"
    return layout


LAYOUT = _layout()


# -- the seeded games ---------------------------------------------------------------


def seeded_choice(state: CogState, rng: random.Random) -> Action:
    """Chance from the seed; a player's choice greedy, now and then random."""
    if state.to_act() == (CHANCE,):
        return state.sample_chance()
    player = state.to_act()[0]
    chooser = random_player if rng.random() < RANDOM_SHARE else greedy_player
    return chooser(state.clone(), player, rng)


@cache
def script(players: int, seed: int) -> tuple[Action, ...]:
    """The actions of one seeded game, to its end (or :data:`PLY_CAP`)."""
    state = new_game("cog", {"players": players}, seed)
    assert isinstance(state, CogState)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not state.is_over() and len(actions) < PLY_CAP:
        action = seeded_choice(state, rng)
        state.apply(action)
        actions.append(action)
    return tuple(actions)


@dataclass(frozen=True)
class Position:
    """A state of a seeded game: how many play, the actions that lead to it, the one played next."""

    players: int
    actions: tuple[Action, ...]
    following: Action | None = None


def position_where(
    wanted: Callable[[CogState], bool],
    players: tuple[int, ...] = (2, 3, 4),
    games: tuple[tuple[int, int], ...] = GAMES,
) -> Position:
    """The first state of the seeded ``games`` (of these player counts) that is ``wanted``."""
    for count, seed in games:
        if count not in players:
            continue
        state = new_game("cog", {"players": count}, 0)
        assert isinstance(state, CogState)
        for ply, action in enumerate(script(count, seed)):
            if wanted(state):
                return Position(count, script(count, seed)[:ply], action)
            state.apply(action)
    raise AssertionError("no seeded C.O.G. game reaches the wanted state")


# -- readings -------------------------------------------------------------------------


def after(state: CogState, action: Action) -> CogState:
    twin = state.clone()
    twin.apply(action)
    return twin


def reading(state: CogState) -> Reading:
    """The table laid out as ``state`` says (stars beyond the star places lie in the reserve)."""
    return laid_out(state, LAYOUT)


def edited(seen: Mapping[str, Mapping[str, str]], part: str, **places: str) -> Reading:
    """A copy of a reading with some places of one part showing other labels."""
    copy = {name: dict(labels) for name, labels in seen.items()}
    copy[part].update(places)
    return copy


def changed_places(before: Reading, now: Reading, part: str) -> dict[str, str]:
    """The places of ``part`` whose label differs between two readings, with the new label."""
    return {place: label for place, label in now[part].items() if before[part][place] != label}


def with_pawns_of(seen: Reading, old: Reading) -> Reading:
    """``seen`` with the pawn track as ``old`` shows it (a pawn nobody moved yet)."""
    track = {place: label for place, label in old[BOARD].items() if place.startswith("track")}
    return edited(seen, BOARD, **track)


# -- the table -------------------------------------------------------------------------


@dataclass
class Table:
    """A game table at a seeded position, its LED frames and the journal's sources."""

    table: GameTable
    leds: FrameLog

    @property
    def state(self) -> CogState:
        state = self.table.state
        assert isinstance(state, CogState)
        return state

    def see(self, seen: Reading, now: float = 1.0) -> dict[str, Any]:
        """The camera settles on ``seen``; the status afterwards."""
        self.table.handle(BoardSettled(seen), now)
        return self.table.status()

    def press(self, seat: int, button: ButtonName = "confirm") -> None:
        self.table.handle(ButtonPressed(button, seat=seat), 2.0)

    def sources(self) -> list[str]:
        return sources(self.table)

    def frame(self) -> Frame:
        return self.leds.frames[-1]

    def asked_of(self, player: int) -> Asked:
        return next(ask for ask in self.table.asking() if ask.request.player == player)


JOURNAL = "journal.sqlite3"
TableAt = Callable[[Position], Table]
"""A table on the mock profile at a seeded position, in sync (the ``table_at`` fixture)."""


class Journals:
    """Journals at seeded positions, each written once per module and copied for each test.

    The journal commits every action to disk: 200 actions take a few tenths of a second.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: dict[Position, Path] = {}

    def table_at(self, tmp_path: Path, position: Position) -> Table:
        """A table resuming a copy of the journal at ``position``, put in sync by one reading."""
        folder = self.written.get(position) or self._write(position)
        for file in folder.iterdir():
            shutil.copy(file, tmp_path / file.name)
        choice = GameChoice("cog", {"players": position.players})
        table, frames = make_table(tmp_path / JOURNAL, choice, CAMERA_DICE)
        at = Table(table, frames)
        assert at.see(reading(at.state), 0.5)["in_sync"], at.table.status()["message"]
        return at

    def _write(self, position: Position) -> Path:
        folder = self.root / f"position{len(self.written)}"
        folder.mkdir()
        journal = Journal(folder / JOURNAL, clock=lambda: 0.0)
        game = journal.new_game("cog", {"players": position.players}, seed=0)
        for action in position.actions:
            game.apply(action, "simulation")
        journal.close()
        self.written[position] = folder
        return folder


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> Journals:
    return Journals(tmp_path_factory.mktemp("cog-positions"))


@pytest.fixture
def table_at(journals: Journals, tmp_path: Path) -> TableAt:
    return lambda position: journals.table_at(tmp_path, position)


def blinks_red(frame: Frame, segment: str, index: int) -> bool:
    look = frame.look(segment, index)
    return look.colour == RED and look.animation.kind == "blink"


def no_vp_words(status: Mapping[str, Any]) -> None:
    text = json.dumps(status)
    assert not VP_WORDS.search(text), f"victory points in the status: {text}"


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
        assert verdict.kind == "choose", f"{action}: {status['verdict']}: {status['message']}"
        assert action in verdict.options, f"{action} not among {verdict.options}"
        assert not pays_a_star(verdict.options[0]), f"confirm would take {verdict.options[0]}"
        if action == verdict.options[0]:
            at.press(action.player)
            assert at.sources()[-1] == "button"
        else:
            at.table.handle(ConsoleCommand(action.notation(), seat=action.player), 2.0)
            assert at.sources()[-1] == "console"
        assert at.state.history[-1] == action, at.table.status()["message"]
        tally.add("choose", action)
    if face_up is not None:
        assert at.table.status()["verdict"] == "out-of-sync"
        tally.add("face-up", action)
        at.see(laid)
    status = at.table.status()
    assert status["in_sync"] and status["verdict"] == "in-sync", status["message"]


def through_the_console(at: Table, ask: Asked, action: Action, tally: Tally) -> None:
    """Type what the camera does not read, then lay the table out as the game now says."""
    label = next((o.label for o in ask.request.options if o.action == action), action.notation())
    seat = None if action.player == CHANCE else action.player
    at.table.handle(ConsoleCommand(label, seat=seat, answers=ask.key), 1.0)
    assert at.state.history[-1] == action, at.table.status()["message"]
    assert at.sources()[-1] == "console"
    laid = reading(at.state)
    status = at.see(laid) if laid != at.table.seen else at.table.status()
    assert status["in_sync"] and status["verdict"] == "in-sync", status["message"]
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
    assert status["verdict"] == "in-sync" and status["in_sync"]


def test_a_letter_the_bag_has_none_left_of_is_refused(table_at: TableAt) -> None:
    def gone(state: CogState) -> bool:
        return drawing_into(state, wild=False) and any(not state.bag.get(x) for x in LETTERS)

    at = table_at(position_where(gone))
    missing = next(letter for letter in LETTERS if not at.state.bag.get(letter))
    plies, journaled = len(at.state.history), len(at.sources())
    laid, place = laid_draw(at.state, next(x for x in LETTERS if at.state.bag.get(x)))
    status = at.see(edited(laid, BOARD, **{place: missing}))
    assert status["verdict"] == "illegal"
    assert f"there is no {missing!r} left in the bag" in status["message"]
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
    assert face_down["verdict"] == "illegal"
    assert "lay the drawn letter face up" in face_down["message"]
    assert len(at.sources()) == journaled

    face_up = at.see(edited(laid, BOARD, **{place: drawn.letter}))
    assert at.state.history[-1] == drawn and at.sources()[-1] == "camera"
    assert face_up["verdict"] == "out-of-sync"
    assert place in face_up["message"] and WILD in face_up["message"]

    turned = at.see(laid)
    assert turned["verdict"] == "in-sync", turned["message"]
    assert len(at.sources()) == journaled + 1


# -- 3. Phase II: cogs on the board's spaces ------------------------------------------------


def collecting(state: CogState) -> bool:
    """A player's turn in Phase II, nothing else waiting."""
    return state.phase == "collect" and not state.queue and state.to_act() != (CHANCE,)


def turn_of(state: CogState) -> int:
    (player,) = state.to_act()
    return player


def open_top_slot(state: CogState) -> int | None:
    return next((slot for slot, cog in sorted(state.top_cogs.items()) if cog is None), None)


def may_take_letters(state: CogState) -> bool:
    return collecting(state) and any(isinstance(a, TakeLetters) for a in state.legal_actions())


def test_a_cog_on_a_legal_space_is_the_placement(table_at: TableAt) -> None:
    at = table_at(position_where(may_take_letters))
    player, slot = turn_of(at.state), open_top_slot(at.state)
    assert slot is not None
    status = at.see(reading(after(at.state, TakeLetters(slot, player=player))))
    assert at.state.history[-1] == TakeLetters(slot, player=player)
    assert at.sources()[-1] == "camera"
    assert status["verdict"] == "in-sync" and status["in_sync"]


def test_a_cog_of_a_player_out_of_turn_is_refused_and_its_space_blinks_red(
    table_at: TableAt,
) -> None:
    at = table_at(position_where(may_take_letters))
    player, slot = turn_of(at.state), open_top_slot(at.state)
    assert slot is not None
    other = (player + 1) % at.state.num_players
    journaled = len(at.sources())
    space = cog_space("top", slot)
    status = at.see(edited(reading(at.state), BOARD, **{space: PIECE_COLOURS[other]}))
    assert status["verdict"] == "illegal"
    assert f"it is {at.state.player_name(player)}'s turn" in status["message"]
    assert len(at.sources()) == journaled
    assert at.table.view.verdict.places == (cog_led("top", slot),)
    assert blinks_red(at.frame(), "cog-spaces", cog_led("top", slot))  # the mock profile has it

    lifted = at.see(reading(at.state))  # the cog taken off again
    assert lifted["verdict"] == "in-sync"
    assert not blinks_red(at.frame(), "cog-spaces", cog_led("top", slot))


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
    space = cog_space("top", slot)
    status = at.see(edited(reading(at.state), BOARD, **{space: PIECE_COLOURS[player]}))
    assert status["verdict"] == "illegal"
    assert "already have a cog on the top edge" in status["message"]
    assert len(at.sources()) == journaled
    assert at.table.view.verdict.places == (cog_led("top", slot),)
    assert blinks_red(at.frame(), "cog-spaces", cog_led("top", slot))
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
    assert status["verdict"] == "choose", status["message"]
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
    assert laid[BOARD][cog_space("turn", bump.position + 1)] == PIECE_COLOURS[bumped]
    status = at.see(laid)
    if status["verdict"] == "choose":  # a protected bump is the other option
        assert at.table.view.verdict.options[0] == bump
        at.press(bump.player)
    assert at.state.history[-1] == bump, status["message"]
    assert at.state.turn_cogs[bump.position : bump.position + 2] == [bump.player, bumped]


def test_a_cog_put_over_another_without_moving_it_down_is_refused(table_at: TableAt) -> None:
    at = table_at(position_where(bump_position))
    bump = bumping(at.state)
    journaled = len(at.sources())
    space = cog_space("turn", bump.position)
    status = at.see(edited(reading(at.state), BOARD, **{space: PIECE_COLOURS[bump.player]}))
    assert status["verdict"] == "illegal"
    assert "move the other cogs back" in status["message"]
    assert len(at.sources()) == journaled


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
    assert at.state.history[-1] == word, status["message"]
    assert at.sources()[-1] == "camera"
    assert status["verdict"] == "in-sync" and status["in_sync"]


def test_a_word_with_wild_tiles_the_player_chose_is_read_as_that_word(table_at: TableAt) -> None:
    def chosen_wild(state: CogState) -> bool:
        return constructing(state) and any(
            isinstance(a, PlaceWordWild) for a in state.legal_actions()
        )

    at = table_at(position_where(chosen_wild))
    wild = next(a for a in at.state.legal_actions() if isinstance(a, PlaceWordWild))
    status = at.see(reading(after(at.state, wild)))
    if status["verdict"] == "choose":  # the wild tiles may spell other words too
        assert wild in at.table.view.verdict.options
        at.table.handle(ConsoleCommand(wild.notation(), seat=wild.player), 2.0)
    assert at.state.history[-1] == wild, status["message"]


def refused_word_shown(at: Table, player: int, reason: str, journaled: int) -> None:
    """A refused word: the status names the grid and why, the seat blinks red, nothing journaled."""
    status = at.table.status()
    assert status["verdict"] == "illegal"
    assert f"{at.state.player_name(player)}'s grid" in status["message"]
    assert reason in status["message"]
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
    assert status["verdict"] == "in-sync" and status["in_sync"]
    assert "taken back" in status["message"]

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
    assert at.state.history == history, status["message"]
    assert status["verdict"] == "in-sync"


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
    assert status["verdict"] == "out-of-sync" and where in status["message"]
    assert pawn in dict(at.table.view.verdict.other_places)["track"]
    assert at.frame().look("track", pawn).animation.kind == "blink"

    placement = quiet_next_placement(at.state)
    assert placement is not None
    status = at.see(with_pawns_of(reading(after(at.state, placement)), before))
    assert at.state.history[-1] == placement and at.sources()[-1] == "camera"
    assert status["verdict"] == "out-of-sync" and where in status["message"]

    status = at.see(reading(at.state))
    assert status["verdict"] == "in-sync", status["message"]


# -- 7. victory points are never shown ------------------------------------------------------------


def test_victory_points_change_neither_the_leds_nor_the_status(table_at: TableAt) -> None:
    def scored(state: CogState) -> bool:
        return collecting(state) and all(mat.vp for mat in state.mats)

    at = table_at(position_where(scored))
    at.table.show(3.0)
    frame, status = at.frame(), dict(at.table.published)
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
    assert status["verdict"] == "in-sync", status["message"]
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
    assert status["verdict"] == "in-sync", status["message"]
    assert len(at.sources()) == journaled
