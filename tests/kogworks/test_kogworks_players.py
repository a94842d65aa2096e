"""The built-in players: random plays legally, greedy wins when it can and avoids handing wins."""

from __future__ import annotations

import random

from games.kogworks import Place, new_game
from games.kogworks.players import PLAYERS, gap, greedy_player, hands_a_win, random_player
from tests.kogworks.positions import position


def test_greedy_takes_a_win_in_one() -> None:
    state = position(red="9.1 8.1 7.1 6.1 4.1 3.1", blue="5.1", mover=0)
    for seed in range(5):
        action = greedy_player(state, random.Random(seed))
        assert action in state.winning_moves()


BLUE_PATH = "9.9 8.8 7.7 6.6 5.5 4.4 3.3"
"""Blue's path up the right edge; 2.2 would join it to the top wheel."""


def test_greedy_does_not_hand_an_immediate_win_when_it_can_avoid_it() -> None:
    # Only a Red cog meshing with two neighbouring Blue cogs locks Blue's path;
    # every other move (2.2 included: Blue links through Red) lets Blue win.
    state = position(blue=BLUE_PATH, mover=0)
    safe = {a.notation() for a in state.legal_actions() if not hands_a_win(state, a)}
    assert safe == {"+4.3", "+5.4", "+6.5", "+7.6", "+8.7", "+9.8", "+10.9"}
    for seed in range(3):
        assert greedy_player(state, random.Random(seed)).notation() in safe


def test_greedy_gives_a_win_away_only_when_every_move_does() -> None:
    state = position(blue=f"{BLUE_PATH} 2.2", mover=0)  # Blue is already linked to the top
    assert all(hands_a_win(state, action) for action in state.legal_actions())
    assert greedy_player(state, random.Random(0)) in state.legal_actions()


def test_gap_counts_empty_pegs_to_the_top() -> None:
    assert gap(position().occupied(), 0) == 8  # 9.1 .. 2.1 along the left edge
    assert gap(position(red="9.1 8.1 7.1").occupied(), 0) == 5
    assert gap(position(red="9.1 8.1 7.1 6.1 5.1 4.1 3.1 2.1").occupied(), 0) == 0


def test_random_player_is_legal_and_repeatable() -> None:
    first, second = new_game(), new_game()
    for _ in range(30):
        a = random_player(first, random.Random(len(first.history)))
        b = random_player(second, random.Random(len(second.history)))
        assert a == b and a in first.legal_actions()
        first.apply(a)
        second.apply(b)


def test_greedy_beats_random_from_both_seats() -> None:
    greedy_wins = 0
    for seed in range(6):
        state, rng = new_game(None, seed), random.Random(seed)
        seats = (greedy_player, random_player) if seed % 2 else (random_player, greedy_player)
        while not state.is_over() and len(state.history) < 400:
            state.apply(seats[state.mover](state, rng))
        outcome = state.outcome()
        greedy_wins += outcome is not None and seats[outcome.winners[0]] is greedy_player
    assert greedy_wins >= 5


def test_players_are_named_for_the_command_line() -> None:
    assert set(PLAYERS) == {"random", "strong"}
    assert PLAYERS["strong"] is greedy_player
    assert isinstance(PLAYERS["strong"](new_game(), random.Random(0)), Place)
