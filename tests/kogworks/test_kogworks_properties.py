"""Hypothesis properties of the Kogworks engine on random reachable positions."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import IllegalAction, replay
from games.kogworks import Move, Place, new_game
from games.kogworks.board import NUM_PEGS
from games.kogworks.state import KogworksState
from tests.kogworks.positions import engine_moves, position

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def states(draw: st.DrawFn) -> KogworksState:
    """A position reached by random legal play from a drawn seed and length."""
    seed = draw(st.integers(0, 10**6))
    plies = draw(st.integers(0, 70))
    state = new_game({"first": draw(st.sampled_from(["red", "blue"]))}, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions().listed()))
    return state


def any_action(player: int) -> st.SearchStrategy[Place | Move]:
    peg = st.integers(0, NUM_PEGS - 1)
    return st.one_of(
        st.builds(lambda p: Place(p, player=player), peg),
        st.builds(lambda a, b: Move(a, b, player=player), peg, peg),
    )


@SETTINGS
@given(states(), st.data())
def test_any_action_either_applies_or_is_refused_without_a_trace(
    state: KogworksState, data: st.DataObject
) -> None:
    player = data.draw(st.sampled_from([0, 1]))
    action = data.draw(any_action(player))
    before, history = state.snapshot(), list(state.history)
    legal = action in state.legal_actions(player)
    try:
        state.apply(action)
    except IllegalAction as error:
        assert not legal, f"{action} is listed but was refused: {error}"
        assert str(error)
        assert state.snapshot() == before and state.history == history
    else:
        assert legal, f"{action} is not listed but was accepted"


@SETTINGS
@given(states(), st.randoms(use_true_random=False))
def test_legality_does_not_depend_on_the_order_moves_are_asked_for(
    state: KogworksState, rng: random.Random
) -> None:
    if state.is_over():
        return
    full = engine_moves(state)
    sources = [None, *state.move_masks().moves]
    rng.shuffle(sources)
    fresh = KogworksState.from_position(state.position(), state.options)  # nothing computed yet
    asked = {(source, target) for source in sources for target in fresh.destinations(source)}
    assert asked == set(full)
    rebuilt = position(
        " ".join(_names(state.cogs(0))), " ".join(_names(state.cogs(1))), mover=state.mover
    )
    assert engine_moves(rebuilt) == full, "legality depends only on the position, not the path"


def _names(pegs: list[int]) -> list[str]:
    from games.kogworks import peg_name

    return [peg_name(peg) for peg in pegs]


@SETTINGS
@given(states())
def test_clone_and_replay_are_equal_and_independent(state: KogworksState) -> None:
    twin = state.clone()
    assert twin == state and replay(state.record()) == state
    if not twin.is_over():
        twin.apply(twin.legal_actions()[0])
        assert twin != state
        assert replay(state.record()) == state


@SETTINGS
@given(states())
def test_listed_actions_are_unique_and_counted_right(state: KogworksState) -> None:
    listed = list(state.legal_actions())
    assert len(listed) == len(set(listed)) == len(state.legal_actions())
    assert all(action in state.legal_actions() for action in listed)
