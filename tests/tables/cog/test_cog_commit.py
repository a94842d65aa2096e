"""The C.O.G. explanations on hand-built evidence: the game narrows the letters, never reads one.

Each test takes a state of a seeded game, the kit's explanations of it
(:func:`cogtable.tables.cog.explain.explanations`, restricted to one part as the parts
sight does) and a few frames of evidence built by hand over the part's places, and asks
the commit decision (:func:`cogtable.commit_decision.decide`) what it commits; where it
commits a change, the adapter judges the committed table as the table would.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import numpy as np

from cogtable.commit_decision import Decision, DecisionKind, ExplanationKind, Explanations, decide
from cogtable.place_evidence import PlaceEvidence, StillEvidence
from cogtable.sights.part_evidence import PART_CLASSES
from cogtable.sights.parts import part_explanations
from cogtable.tables.cog.adapter import CogAdapter
from cogtable.tables.cog.explain import draw_place, explanations, position_of, read_places
from cogtable.tables.cog.parts import BOARD, mat_name
from games.cog.actions import PlaceWord
from games.cog.players import greedy_player
from games.cog.state import CogState
from games.core import CHANCE, new_game
from vision.layout import EMPTY, LETTERS

FRAMES = 8
"""Still frames in the window (about 0.3 s at 25 frames a second)."""
CLEAR = 6.0
"""Nats a frame by which a clearly read place favours its class over every other."""


def seeded_state(wanted: Callable[[CogState], bool], players: int = 2, seed: int = 21) -> CogState:
    """The first state of a seeded game (greedy players, chance from the seed) that is wanted."""
    state = new_game("cog", {"players": players}, seed)
    assert isinstance(state, CogState)
    rng = random.Random(seed)
    for _ in range(600):
        if wanted(state):
            return state
        if state.to_act() == (CHANCE,):
            state.apply(state.sample_chance())
        else:
            player = state.to_act()[0]
            state.apply(greedy_player(state.clone(), player, rng))
    raise AssertionError("the seeded game never reaches the wanted state")


def places_of(state: CogState, part: str) -> tuple[str, ...]:
    return tuple(place for owner, place in read_places(state.num_players) if owner == part)


def frames(
    state: CogState,
    part: str,
    truth: Mapping[str, str],
    doubt: Mapping[str, Mapping[str, float]] | None = None,
) -> StillEvidence:
    """``FRAMES`` frames showing ``truth`` clearly, but where ``doubt`` gives a place's log
    likelihoods of some classes (a frame; the others clearly unlike)."""
    places = places_of(state, part)
    values = np.full((len(places), len(PART_CLASSES)), -CLEAR)
    for row, place in enumerate(places):
        if doubt and place in doubt:
            for label, value in doubt[place].items():
                values[row, PART_CLASSES.index(label)] = value
        else:
            values[row, PART_CLASSES.index(truth[place])] = 0.0
    still = StillEvidence()
    for _ in range(FRAMES):
        still.add(PlaceEvidence(places, PART_CLASSES, values))
    return still


def part_base(state: CogState, part: str) -> dict[str, str]:
    return {place: label for (owner, place), label in position_of(state).items() if owner == part}


def judged_kind(state: CogState, part: str, decision: Decision) -> str:
    """The adapter's verdict on the table with ``part`` as committed, the rest as the game."""
    observation: dict[str, dict[str, str]] = {}
    for (owner, place), label in position_of(state).items():
        observation.setdefault(owner, {})[place] = label
    observation[part] = {str(place): str(label) for place, label in decision.position.items()}
    asked = (state.chance_request(),) if state.to_act() == (CHANCE,) else ()
    return CogAdapter().judge(state, observation, None, asked).kind


def of_part(state: CogState, part: str) -> Explanations:
    return part_explanations(explanations(state, None), part)


def test_a_doubtful_tile_no_explanation_changes_still_commits() -> None:
    state = seeded_state(lambda s: sum(len(letters) for letters in s.top.values()) >= 2)
    base = part_base(state, BOARD)
    place, letter = next(
        (p, label) for p, label in base.items() if p.startswith("top") and label in LETTERS
    )
    rival = next(x for x in LETTERS if x != letter and state.bag.get(x, 0) > 0)
    doubt = {place: {letter: 0.0, rival: -0.3}}  # read as its letter, barely
    still = frames(state, BOARD, base, doubt)
    decision = decide(still, of_part(state, BOARD))
    assert decision.kind is DecisionKind.COMMIT, decision.message()
    assert decision.position[place] == letter
    assert decide(still, None).kind is DecisionKind.UNSURE, "without the game it is a doubt"


def test_a_letter_not_in_the_bag_is_not_committed_as_drawn() -> None:
    def drawing_with_a_letter_gone(state: CogState) -> bool:
        return draw_place(state) is not None and any(x not in drawable(state) for x in LETTERS)

    state = seeded_state(drawing_with_a_letter_gone)
    place = draw_place(state)
    assert place is not None
    absent = next(x for x in LETTERS if x not in drawable(state))  # the bag has none left
    kept = next(x for x in LETTERS if x in drawable(state))
    base = part_base(state, BOARD)
    game = of_part(state, BOARD)

    leaning = frames(state, BOARD, base, {place: {absent: 0.0, kept: -0.5}})
    decision = decide(leaning, game)
    assert decision.position.get(place) != absent or not decision.committed

    clear = frames(state, BOARD, {**base, place: absent})
    decision = decide(clear, game)
    assert decision.committed and decision.position[place] == absent, "read as it lies"
    assert decision.explanation is not None
    assert decision.explanation.kind is ExplanationKind.OTHER, "as seen (out of sync), no draw"
    assert judged_kind(state, BOARD, decision) == "illegal", "the draw is refused"

    drawn = frames(state, BOARD, {**base, place: kept})
    decision = decide(drawn, game)
    assert decision.committed and decision.position[place] == kept
    assert judged_kind(state, BOARD, decision) == "move"


def drawable(state: CogState) -> set[str]:
    """The letters the bag (with the spares, until they are added) still holds."""
    letters = {x for x, count in state.bag.items() if count > 0}
    if not state.spares_added:
        letters |= {x for x, count in state.ed.spares.items() if count > 0}
    return letters


def constructing(state: CogState) -> bool:
    if state.phase != "construct" or state.queue or state.to_act() == (CHANCE,):
        return False
    return any(type(action) is PlaceWord for action in state.legal_actions())


def test_an_illegal_word_is_not_committed_as_a_legal_one() -> None:
    state = seeded_state(constructing)
    word = max(
        (a for a in state.legal_actions() if type(a) is PlaceWord),
        key=lambda a: (len(a.word), a.notation()),
    )
    after = state.clone()
    after.apply(word)
    mat = mat_name(word.player)
    laid = part_base(after, mat)
    before = part_base(state, mat)
    new_cells = [p for p, label in laid.items() if p.startswith("r") and label != before[p]]
    reserve = {tile.upper() for tile in state.mats[word.player].reserve}
    game = of_part(state, mat)

    legal = decide(frames(state, mat, laid), game)
    assert legal.committed, legal.message()
    assert judged_kind(state, mat, legal) == "move"

    wrong = _illegal_swap(state, mat, laid, new_cells, reserve)
    assert wrong is not None, "some reserve letter spells no permitted word"
    cell, letter = wrong
    doubt = {cell: {laid[cell]: 0.0, letter: -0.2}}  # as likely, nearly, as the legal letter
    unsure = decide(frames(state, mat, laid, doubt), game)
    assert unsure.kind is DecisionKind.UNSURE
    assert cell in unsure.deciding

    illegal = decide(frames(state, mat, {**laid, cell: letter}), game)
    assert illegal.committed and illegal.position[cell] == letter, "read as laid"
    assert judged_kind(state, mat, illegal) == "illegal"


def _illegal_swap(
    state: CogState, mat: str, laid: dict[str, str], cells: list[str], reserve: set[str]
) -> tuple[str, str] | None:
    """A new cell and a reserve letter that, laid there instead, the adapter refuses."""
    observation: dict[str, dict[str, str]] = {}
    for (owner, place), label in position_of(state).items():
        observation.setdefault(owner, {})[place] = label
    for cell in cells:
        for letter in sorted(reserve - {laid[cell], EMPTY}):
            observation[mat] = {**laid, cell: letter}
            if CogAdapter().judge(state, observation, None).kind == "illegal":
                return cell, letter
    return None


def test_a_grid_cell_takes_only_its_players_reserve_letters() -> None:
    state = seeded_state(constructing)
    player = state.to_act()[0]
    mat = mat_name(player)
    free = of_part(state, mat).free
    reserve = {tile.upper() for tile in state.mats[player].reserve}
    empty_cell = next(
        p for p, label in part_base(state, mat).items() if p.startswith("r") and not label
    )
    letters = set(free[empty_cell]) & set(LETTERS)
    assert letters == reserve
