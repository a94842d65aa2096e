"""The random-simulation check every game passes (after OpenSpiel's).

Plays seeded random games and, after every action, checks that the engine keeps
the contract of :mod:`games.core`:

- a clone equals the state, and changing the clone leaves the state alone;
- actions and views survive a JSON round trip;
- :func:`games.core.replay` of the record rebuilds an equal state;
- every listed legal action applies (on a clone);
- actions that are not listed raise :class:`IllegalAction` and change nothing;
- ``to_act``, ``legal_actions`` and ``outcome`` agree, and the outcome is well formed;
- ``requests`` says what the game waits for: at a chance node one request whose
  options are the chance outcomes (same order, same odds) under unique labels,
  else one ``choice`` per acting player listing their legal actions, with a
  default (if any) among them.

Use it from a game's tests::

    report = simulate(lambda seed: kogworks.new_game(None, seed), kogworks.ACTIONS, games=500)
    assert report.finished == report.games
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from games.core import (
    CHANCE,
    REQUEST_KINDS,
    Action,
    IllegalAction,
    Outcome,
    Request,
    State,
    decode,
    label_key,
    replay,
)

IllegalCandidates = Callable[[State, int, random.Random], Iterable[Action]]

SCALE_VARIABLE = "COGTABLE_SIM_SCALE"
"""Multiplies the game counts of the bulk simulation runs (default 1)."""


def scaled(games: int) -> int:
    """``games`` times ``COGTABLE_SIM_SCALE``.

    The default suite plays what fits CI's time budget; a long run, such as
    ``COGTABLE_SIM_SCALE=100 pytest -k simulation``, plays a hundred times more
    of the same seeded games with the same checks.
    """
    text = os.environ.get(SCALE_VARIABLE, "1")
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{SCALE_VARIABLE}={text!r}: expected a whole number of at least 1")
    return games * int(text)


@dataclass
class SimulationReport:
    """What a run of random games did, for assertions and for the reader."""

    games: int = 0
    finished: int = 0
    plies: int = 0
    actions_checked: int = 0
    illegal_checked: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    winners: Counter[tuple[int, ...]] = field(default_factory=Counter)


@dataclass
class SimulationChecks:
    """How much to check per ply; the defaults check everything on every ply."""

    legal_sample: int | None = None
    """How many listed legal actions to apply on a clone each checked ply (None: all)."""
    consistency_every: int = 1
    """Check consistency and requests and apply listed actions every this many plies
    (always at the end)."""
    replay_every: int = 1
    """Replay the record every this many plies (and always at the end)."""
    illegal_sample: int = 10
    """How many non-listed candidate actions to try each ply that tries them."""
    illegal_every: int = 1
    """Try non-listed actions every this many plies (the costliest check on long games)."""
    views_every: int = 1
    """Round-trip the views through JSON every this many plies."""


def simulate(
    start: Callable[[int], State],
    action_types: Iterable[type[Action]],
    *,
    games: int,
    seed: int = 0,
    max_plies: int = 2000,
    checks: SimulationChecks | None = None,
    illegal_candidates: IllegalCandidates | None = None,
    replay_fn: Callable[..., State] = replay,
) -> SimulationReport:
    """Play ``games`` random games from ``start(seed + i)`` and check each ply.

    ``illegal_candidates(state, player, rng)`` may yield actions to try that
    the game should refuse; those that are listed as legal are skipped.
    """
    run = _Run(
        tuple(action_types), checks or SimulationChecks(), illegal_candidates, replay_fn, max_plies
    )
    report = SimulationReport()
    for number in range(games):
        rng = random.Random(seed * 7919 + number)
        _play_one(start(seed + number), rng, run, report)
    return report


@dataclass(frozen=True)
class _Run:
    """What every game of one :func:`simulate` call shares."""

    action_types: tuple[type[Action], ...]
    checks: SimulationChecks
    illegal_candidates: IllegalCandidates | None
    replay_fn: Callable[..., State]
    max_plies: int


def _play_one(state: State, rng: random.Random, run: _Run, report: SimulationReport) -> None:
    checks = run.checks
    report.games += 1
    for ply in range(run.max_plies):
        if state.is_over():
            break
        if ply % checks.consistency_every == 0:
            check_consistency(state)
            check_requests(state)
            check_legal_actions_apply(state, rng, checks.legal_sample, report)
        if ply % checks.illegal_every == 0:
            check_illegal_refused(state, rng, checks.illegal_sample, run.illegal_candidates, report)
        action = pick_random_action(state, rng)
        check_action_json(action, run.action_types)
        state.apply(action)
        report.plies += 1
        if ply % checks.views_every == 0:
            check_views_json(state)
        if ply % checks.replay_every == 0:
            assert run.replay_fn(state.record()) == state, "replay of the record differs"
    check_consistency(state)
    check_requests(state)
    assert run.replay_fn(state.record()) == state, "replay of the final record differs"
    outcome = state.outcome()
    if outcome is not None:
        report.finished += 1
        report.reasons[outcome.reason] += 1
        report.winners[outcome.winners] += 1


def pick_random_action(state: State, rng: random.Random) -> Action:
    """A uniformly random legal action of a random acting player (chance by its odds)."""
    acting = state.to_act()
    if acting == (CHANCE,):
        outcomes = state.chance_outcomes()
        actions = [action for action, _ in outcomes]
        return rng.choices(actions, [probability for _, probability in outcomes])[0]
    player = rng.choice(acting)
    return rng.choice(list(state.legal_actions(player)))


def check_consistency(state: State) -> None:
    """``to_act``, ``legal_actions``, ``chance_outcomes`` and ``outcome`` agree."""
    clone = state.clone()
    assert clone == state, "a clone differs from its original"
    acting = state.to_act()
    outcome = state.outcome()
    if outcome is not None:
        assert acting == (), f"the game is over but {acting} may still act"
        assert not state.legal_actions(), "the game is over but actions are listed"
        check_outcome(outcome, state.num_players)
        return
    assert acting, "the game is not over but nobody may act"
    if acting == (CHANCE,):
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node with no outcomes"
        total = sum(probability for _, probability in outcomes)
        assert abs(total - 1) < 1e-9, f"chance probabilities sum to {total}"
        assert all(action.player == CHANCE for action, _ in outcomes)
        return
    for player in range(state.num_players):
        listed = state.legal_actions(player)
        if player in acting:
            assert listed, f"player {player} must act but has no legal action"
            assert all(action.player == player for action in listed)
        else:
            assert not listed, f"player {player} may not act but has actions listed"


def check_requests(state: State) -> None:
    """``requests()`` matches ``to_act``: the chance outcomes, or each acting player's choices."""
    acting, requests = state.to_act(), state.requests()
    assert isinstance(requests, list) and all(isinstance(r, Request) for r in requests), requests
    if not acting:
        assert requests == [], f"the game is over but it requests {requests}"
        return
    if acting == (CHANCE,):
        assert len(requests) == 1, f"a chance node makes {len(requests)} requests"
        request = requests[0]
        assert request.kind in REQUEST_KINDS and request.kind != "choice", (
            f"a chance node requests a {request.kind!r}"
        )
        outcomes = state.chance_outcomes()
        got = [(option.action, option.probability) for option in request.options]
        assert got == outcomes, (
            f"the {request.kind} request for {request.purpose!r} differs from chance_outcomes()"
        )
        assert request.default is None or request.default in [a for a, _ in outcomes]
    else:
        assert [r.player for r in requests] == list(acting), (
            "requests are not one per acting player"
        )
        for request in requests:
            assert request.kind == "choice", f"{request.kind} request for player {request.player}"
            listed = list(state.legal_actions(request.player))
            assert [option.action for option in request.options] == listed, (
                f"{request.purpose!r} does not list exactly the legal actions"
            )
            assert request.default is None or request.default in listed, (
                f"the default {request.default} of {request.purpose!r} is not a legal action"
            )
    for request in requests:
        _check_request_form(state, request)


def _check_request_form(state: State, request: Request) -> None:
    """Whose, what for and the labels are well formed; each label names its own option."""
    assert request.player is None or request.player in range(state.num_players), request.player
    assert isinstance(request.purpose, str) and request.purpose.strip(), "a request without purpose"
    labels = request.labels()
    keys = [label_key(label) for label in labels]
    assert all(keys) and all(isinstance(label, str) for label in labels), labels
    if len(set(keys)) != len(keys):
        doubled = sorted(
            {label for label, key in zip(labels, keys, strict=True) if keys.count(key) > 1}
        )
        raise AssertionError(f"{request.purpose!r} repeats the labels {doubled}")
    first = request.options[0]
    assert request.option(first.label) == first.action, f"{first.label!r} names another option"
    assert json.loads(json.dumps(request.to_json())) == request.to_json()


def check_outcome(outcome: Outcome, num_players: int) -> None:
    """An outcome names real players, one score each, and a reason."""
    assert isinstance(outcome, Outcome)
    assert set(outcome.winners) <= set(range(num_players)), outcome
    assert len(set(outcome.winners)) == len(outcome.winners), outcome
    assert len(outcome.scores) == num_players, outcome
    assert isinstance(outcome.reason, str) and outcome.reason, outcome
    assert json.loads(json.dumps(outcome.to_json())) == outcome.to_json()


def check_legal_actions_apply(
    state: State, rng: random.Random, sample: int | None, report: SimulationReport
) -> None:
    """Every listed legal action (or a sample of them) applies on a clone."""
    listed = list(state.legal_actions())
    if sample is not None and len(listed) > sample:
        listed = rng.sample(listed, sample)
    for action in listed:
        clone = state.clone()
        clone.apply(action)
        report.actions_checked += 1


def check_illegal_refused(
    state: State,
    rng: random.Random,
    sample: int,
    candidates: IllegalCandidates | None,
    report: SimulationReport,
) -> None:
    """Actions that are not listed raise IllegalAction and leave the state equal."""
    tries = list(_generic_illegal(state))
    if candidates is not None:
        for player in {*state.to_act(), *range(state.num_players)}:
            tries.extend(candidates(state, player, rng))
    listed = set(state.legal_actions())
    tries = [action for action in tries if action not in listed]
    if len(tries) > sample:
        tries = rng.sample(tries, sample)
    before = state.snapshot()
    history = list(state.history)
    for action in tries:
        try:
            state.apply(action)
        except IllegalAction as error:
            assert str(error), "an IllegalAction without a reason"
        else:
            raise AssertionError(f"unlisted action {action.notation()} was accepted")
        assert state.snapshot() == before and state.history == history, "a refusal changed state"
        report.illegal_checked += 1


def _generic_illegal(state: State) -> Iterable[Action]:
    """Legal actions of acting players, given to players who may not act now."""
    acting = state.to_act()
    idle = [p for p in (*range(state.num_players), CHANCE) if p not in acting]
    for action in list(state.legal_actions())[:5]:
        for player in idle:
            yield dataclasses.replace(action, player=player)


def check_action_json(action: Action, action_types: tuple[type[Action], ...]) -> None:
    """An action survives JSON text and has a notation."""
    text = json.dumps(action.to_json())
    assert decode(json.loads(text), action_types) == action, f"{action} changed in JSON"
    assert isinstance(action.notation(), str) and action.notation()


def check_views_json(state: State) -> None:
    """Every player's view and the table's view are JSON that reads back equal."""
    for player in (None, *range(state.num_players)):
        view = state.view(player)
        assert json.loads(json.dumps(view)) == view, f"view({player}) is not plain JSON"
