"""The engine contract itself, exercised on a toy game that has every kind of turn."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from functools import partial

import pytest

import games
from games.core import (
    CHANCE,
    Action,
    BadOptions,
    BadRecord,
    IllegalAction,
    Record,
    Request,
    RequestOption,
    chance_options,
    decode,
    merge_options,
    unique_labels,
)
from tests import toy_game
from tests.random_simulation import SimulationChecks, SimulationReport, simulate


def test_toy_game_passes_the_random_simulation() -> None:
    report = simulate(
        lambda seed: toy_game.new_game(None, seed),
        toy_game.ACTIONS,
        games=50,
        replay_fn=toy_game.replay_toy,
    )
    assert report.games == report.finished == 50
    assert report.plies == 50 * 3 * 3
    assert report.illegal_checked > 0


def test_bulk_runs_space_out_the_costly_checks() -> None:
    """Refusals and consistency are checked on every n-th ply only; every ply is still played."""
    each = _toy_run(SimulationChecks(illegal_sample=1))
    spaced = _toy_run(SimulationChecks(illegal_sample=1, illegal_every=3, consistency_every=3))
    assert spaced.plies == each.plies == 10 * 3 * 3
    assert 0 < spaced.illegal_checked <= each.illegal_checked // 3 + 10
    assert 0 < spaced.actions_checked <= each.actions_checked // 3 + 10


def _toy_run(checks: SimulationChecks) -> SimulationReport:
    start = partial(toy_game.new_game, None)
    return simulate(start, toy_game.ACTIONS, games=10, replay_fn=toy_game.replay_toy, checks=checks)


def test_the_checker_catches_an_engine_that_changes_state_before_refusing() -> None:
    class Careless(toy_game.ToyState):
        def _apply(self, action):  # type: ignore[no-untyped-def]
            self.scores[0] += 100
            return super()._apply(action)

    with pytest.raises(AssertionError):
        simulate(
            lambda seed: Careless({"rounds": 3}, seed),
            toy_game.ACTIONS,
            games=1,
            replay_fn=toy_game.replay_toy,
        )


def test_a_player_who_may_not_act_is_refused_with_a_reason() -> None:
    state = toy_game.new_game(seed=1)
    with pytest.raises(IllegalAction, match="chance outcome"):
        state.apply(toy_game.Pick(1, player=0))
    state.apply(toy_game.Roll(2, player=CHANCE))
    state.apply(toy_game.Pick(1, player=0))
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        state.apply(toy_game.Pick(2, player=0))


def test_sample_chance_depends_only_on_seed_and_ply() -> None:
    first, second = toy_game.new_game(seed=5), toy_game.new_game(seed=5)
    assert first.sample_chance() == second.sample_chance()
    draws = {toy_game.new_game(seed=s).sample_chance().value for s in range(40)}
    assert draws == {1, 2, 3}


def test_merge_options_names_key_value_and_expectation() -> None:
    assert merge_options({"rounds": 5}, {"rounds": 3}) == {"rounds": 5}
    with pytest.raises(BadOptions, match="unknown option 'turns'"):
        merge_options({"turns": 5}, {"rounds": 3})
    with pytest.raises(BadOptions, match="'rounds' = 'five': expected int"):
        merge_options({"rounds": "five"}, {"rounds": 3})
    with pytest.raises(BadOptions, match="expected int"):
        merge_options({"rounds": True}, {"rounds": 3})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "expected a JSON object"),
        ({"type": "Jump"}, "unknown type 'Jump'"),
        ({"type": "Pick", "player": 0}, "missing fields \\['number'\\]"),
        ({"type": "Pick", "player": 0, "number": 1, "x": 2}, "unexpected fields \\['x'\\]"),
    ],
)
def test_decode_refuses_garbage_with_a_reason(data: object, message: str) -> None:
    with pytest.raises(BadRecord, match=message):
        decode(data, toy_game.ACTIONS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"game": "toy"}', "lacks"),
        ('{"game": "chess", "options": {}, "seed": 1, "actions": []}', "unknown game 'chess'"),
        ('{"game": "x", "options": {}, "seed": "1", "actions": []}', "seed must be"),
    ],
)
def test_record_loads_refuses_garbage_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(BadRecord, match=message):
        Record.loads(text)


def test_record_round_trips_through_json() -> None:
    state = toy_game.new_game(seed=3)
    state.apply(state.sample_chance())
    state.apply(toy_game.Pick(2, player=1))
    record = state.record()
    data = record.to_json()
    assert data["actions"][1] == {"type": "Pick", "player": 1, "number": 2}
    assert toy_game.replay_toy(record) == state


GAME_MODULES = sorted(info.name for info in pkgutil.walk_packages(games.__path__, "games."))


@pytest.mark.parametrize("name", GAME_MODULES)
def test_the_doctests_of_every_games_module_pass(name: str) -> None:
    """The examples in docstrings (the position builders', the core's) stay true."""
    assert doctest.testmod(importlib.import_module(name)).failed == 0


@pytest.mark.parametrize("game", ["cog", "commissars", "cookie", "kogworks"])
def test_every_game_documents_its_position_builder_with_a_doctest(game: str) -> None:
    """Each game has a public position (python-chess's Board(fen)), shown by example."""
    results = doctest.testmod(importlib.import_module(f"games.{game}.position"))
    assert results.attempted >= 3 and results.failed == 0


def test_requests_say_what_the_toy_game_waits_for() -> None:
    state = toy_game.new_game(seed=2)
    (roll,) = state.requests()
    assert (roll.kind, roll.player, roll.purpose) == ("draw", None, "a chance outcome")
    assert roll.labels() == ["Roll(1)", "Roll(2)", "Roll(3)"]
    assert [option.probability for option in roll.options] == [1 / 3] * 3
    assert roll.to_json()["options"] == roll.labels()
    state.apply(toy_game.Roll(2, player=CHANCE))
    picks = state.requests()
    assert [(r.kind, r.player, r.purpose, r.default) for r in picks] == [
        ("choice", 0, "player 1's choice", None),
        ("choice", 1, "player 2's choice", None),
    ]
    assert picks[1].option("pick(2)") == toy_game.Pick(2, player=1)
    assert picks[1].option("Pick(3)") is None
    state.apply(toy_game.Pick(1, player=0))
    assert [r.player for r in state.requests()] == [1]


def test_a_label_matches_without_case_or_extra_spaces_on_either_side() -> None:
    nut = Action(player=CHANCE)
    request = Request("draw", 0, "player 1's deck, draw", (RequestOption("Hex  key", nut, 1.0),))
    assert request.option("  hex key ") is nut
    assert request.option("HEX KEY") is nut
    assert request.option("hexkey") is None


def test_repeated_labels_are_numbered_and_keep_order_and_odds() -> None:
    assert unique_labels(["Nut", "Rod", "NUT", "Nut #2", "Nut"]) == [
        "Nut", "Rod", "NUT #2", "Nut #2 #2", "Nut #3"
    ]  # fmt: skip
    outcomes = [(toy_game.Roll(n, player=CHANCE), p) for n, p in ((3, 0.5), (1, 0.25), (2, 0.25))]
    options = chance_options(outcomes, lambda action: "odd" if action.value % 2 else "even")
    assert [(o.label, o.action.value, o.probability) for o in options] == [
        ("odd", 3, 0.5), ("odd #2", 1, 0.25), ("even", 2, 0.25)
    ]  # fmt: skip


class _BadRequests(toy_game.ToyState):
    """A toy game whose requests break the contract in the way ``fault`` names."""

    fault = ""

    def chance_request(self) -> Request:
        request = super().chance_request()
        if self.fault == "missing":
            return Request("die", None, "the die", request.options[1:])
        if self.fault == "same label":
            options = tuple(RequestOption("1", o.action, o.probability) for o in request.options)
            return Request("die", None, "the die", options)
        if self.fault == "kind":
            return Request("choice", None, "the die", request.options)
        return request

    def default_action(self, player: int) -> Action | None:
        if self.fault == "default":
            return toy_game.Pick(3, player=player)
        return None


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("missing", "differs from chance_outcomes"),
        ("same label", "repeats the labels"),
        ("kind", "a chance node requests a 'choice'"),
        ("default", "is not a legal action"),
    ],
)
def test_the_checker_catches_requests_that_break_the_contract(fault: str, message: str) -> None:
    class Broken(_BadRequests):
        pass

    Broken.fault = fault
    with pytest.raises(AssertionError, match=message):
        simulate(
            lambda seed: Broken({"rounds": 3}, seed),
            toy_game.ACTIONS,
            games=1,
            replay_fn=lambda record: _replay_as(Broken, record),
        )


def _replay_as(cls: type[toy_game.ToyState], record: Record) -> toy_game.ToyState:
    state = cls(record.options, record.seed)
    for action in record.actions:
        state.apply(action)
    return state
