"""Built-in players: legal, blind to others' secrets, and the reasoner beats random."""

from __future__ import annotations

import pytest

from games import cookie
from games.cookie.actions import DealRole
from games.cookie.players import PLAYERS, Reasoner, make_player
from games.core import CHANCE, State


def finish(state: State, kinds: list[str], seed: int) -> list[int]:
    bots = [make_player(kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not state.is_over():
        acting = state.to_act()
        if acting == (CHANCE,):
            state.apply(state.sample_chance())
            continue
        action = bots[acting[0]].choose(state, acting[0])
        assert action in state.legal_actions(acting[0])
        state.apply(action)
    return list(state.coins)  # type: ignore[attr-defined]


def test_unknown_player_kind_is_named() -> None:
    with pytest.raises(ValueError, match="random, strong"):
        make_player("oracle")
    assert set(PLAYERS) == {"random", "strong"}
    assert PLAYERS["strong"] is Reasoner


@pytest.mark.parametrize(
    "options",
    [
        {"players": 5},
        {"players": 4, "roles_known_at_deal": False},
        {"variant": "big-hunt", "players": 3},
        {"variant": "big-hunt", "players": 2, "roles_known_at_deal": False},
    ],
)
def test_built_in_players_finish_games_with_legal_actions(options: dict[str, object]) -> None:
    state = cookie.new_game(options, 9)
    finish(state, ["strong", "random"] * 3, 9)
    assert state.outcome() is not None


def test_the_reasoner_decides_from_its_own_view_only() -> None:
    choices = []
    for roles in (["Cookie", "Blue", "Strontium", "37"], ["Cookie", "Strontium", "37", "Blue"]):
        state = cookie.new_game({"players": 4})
        for seat, role in enumerate(roles):
            state.apply(DealRole(seat, role, player=CHANCE))
        choices.append(Reasoner(5).choose(state, 0))
    assert choices[0] == choices[1]


@pytest.mark.parametrize(
    "options", [{"players": 4}, {"players": 6}, {"variant": "big-hunt", "players": 3}]
)
def test_the_reasoner_earns_more_than_random_players(options: dict[str, object]) -> None:
    players = int(options["players"])  # type: ignore[call-overload]
    reasoner = others = 0
    for game in range(2 * players):
        seat = game % players
        kinds = ["random"] * players
        kinds[seat] = "strong"
        coins = finish(cookie.new_game(options, game), kinds, game)
        reasoner += coins[seat]
        others += (sum(coins) - coins[seat]) / (players - 1)
    assert reasoner > 1.3 * others
