"""Every worked example of the rulebook, played action by action with its stated result."""

from __future__ import annotations

import pytest

from games import cookie
from games.cookie.actions import (
    Aim,
    Challenge,
    Claim,
    DealRole,
    DrawTarget,
    Hunt,
    Look,
    OpenExclusion,
    Play,
    RevealRole,
    RevealTarget,
)
from games.cookie.players import role_odds
from games.core import CHANCE, IllegalAction, State

# Every Man for Himself, 4 players: Bart is the first player, then Homer, Marge, Lisa.
BART, HOMER, MARGE, LISA = 0, 1, 2, 3
HUNT_ROLES = {BART: "Cookie", HOMER: "Strontium", MARGE: "37", LISA: "Blue"}


def hunt_game(known: bool = True) -> State:
    state = cookie.new_game({"players": 4, "roles_known_at_deal": known})
    if known:
        for seat, role in HUNT_ROLES.items():
            state.apply(DealRole(seat, role, player=CHANCE))
    return state


def lay(state: State, cards: dict[int, str]) -> None:
    for seat, card in cards.items():
        state.apply(Play(card, player=seat))


def refused(state: State, action: object) -> str:
    before, history = state.snapshot(), list(state.history)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)  # type: ignore[arg-type]
    assert state.snapshot() == before and state.history == history
    return str(error.value)


TURN_1 = {HOMER: "Cookie", BART: "Strontium", MARGE: "Strontium", LISA: "37"}
TURN_2 = {BART: "Blue", HOMER: "37", MARGE: "Cookie", LISA: "Strontium"}


def test_turn_one_reveal_tells_who_is_not_whom() -> None:
    state = hunt_game()
    lay(state, TURN_1)
    played = state.view(None)["played"]
    assert played == [["Strontium"], ["Cookie"], ["Strontium"], ["37"]]
    for observer in range(4):
        odds = role_odds(HUNT_ROLES[observer], observer, played, cookie.REFERENCES[4].characters)
        for seat, card in TURN_1.items():
            assert odds[seat][card] == 0, "a played character is not that player's role"


def test_bart_reasons_that_lisa_is_blue_and_attacks_her() -> None:
    state = hunt_game()
    lay(state, TURN_1)
    lay(state, TURN_2)
    odds = role_odds("Cookie", BART, state.view(BART)["played"], cookie.REFERENCES[4].characters)
    assert odds[LISA]["Blue"] == 1.0, "Lisa is not 37, Strontium or Cookie: she is Blue"
    lay(state, {BART: "Sword", HOMER: "Shield", MARGE: "Blue", LISA: "Shield"})
    assert state.to_act() == (BART,)
    state.apply(Aim(LISA, player=BART))
    state.apply(Aim(MARGE, player=HOMER))
    assert "Sword is aimed at P4" in refused(state, Aim(BART, player=LISA))
    state.apply(Aim(HOMER, player=LISA))
    lay(state, {BART: "37", HOMER: "Blue", MARGE: "Sword", LISA: "Cookie"})
    assert state.to_act() == (MARGE,)
    assert "Shield is aimed at P3" in refused(state, Aim(HOMER, player=MARGE))
    events = state.apply(Aim(BART, player=MARGE))
    assert state.last_round["gains"] == [4, 1, 4, 1]  # type: ignore[attr-defined]
    assert any("round 1 scored" in event.describe() for event in events)
    assert state.coins == [4, 1, 4, 1]  # type: ignore[attr-defined]
    assert state.first == HOMER  # type: ignore[attr-defined]


def test_sword_and_shield_take_effect_in_seat_order_from_the_first_player() -> None:
    state = hunt_game()
    lay(state, TURN_1)
    lay(state, TURN_2)
    lay(state, {BART: "Sword", MARGE: "Sword", HOMER: "Shield", LISA: "Hill"})
    assert state.to_act() == (BART,)
    state.apply(Aim(LISA, player=BART))
    assert state.to_act() == (HOMER,)
    state.apply(Aim(MARGE, player=HOMER))
    assert state.to_act() == (MARGE,)
    assert [a.target for a in state.legal_actions(MARGE)] == [BART, LISA]  # type: ignore[attr-defined]
    refused(state, Aim(HOMER, player=MARGE))
    state.apply(Aim(BART, player=MARGE))
    assert state.view(None)["swords"] == [LISA, None, BART, None]
    assert state.view(None)["shields"] == [None, MARGE, None, None]
    assert state.to_act() == (0, 1, 2, 3), "turn 4: everybody lays a card again"


def test_a_round_whose_roles_are_supplied_only_at_the_reveal_scores_the_same() -> None:
    state = hunt_game(known=False)
    assert state.to_act() == (0, 1, 2, 3), "nothing is dealt: the table cannot see roles"
    assert state.view(BART)["role"] is None
    lay(state, TURN_1)
    lay(state, TURN_2)
    lay(state, {BART: "Sword", HOMER: "Shield", MARGE: "Blue", LISA: "Shield"})
    state.apply(Aim(LISA, player=BART))
    state.apply(Aim(MARGE, player=HOMER))
    state.apply(Aim(HOMER, player=LISA))
    lay(state, {BART: "37", HOMER: "Blue", MARGE: "Sword", LISA: "Cookie"})
    state.apply(Aim(BART, player=MARGE))
    assert state.to_act() == (CHANCE,)
    outcomes = dict(state.chance_outcomes())
    assert {a.character for a in outcomes} == {"Cookie"}, "Bart showed Strontium, Blue and 37"
    assert "leaves only ['Cookie']" in refused(state, RevealRole(BART, "Blue", player=CHANCE))
    for seat, role in HUNT_ROLES.items():
        state.apply(RevealRole(seat, role, player=CHANCE))
    assert state.coins == [4, 1, 4, 1]  # type: ignore[attr-defined]
    assert state.last_round["roles"] == ["Cookie", "Strontium", "37", "Blue"]  # type: ignore[attr-defined]


# The Big Hunt, 4 players: Homer is first, then Lisa, Bart, Marge.
B_HOMER, B_LISA, B_BART, B_MARGE = 0, 1, 2, 3
BIG_ROLES = {B_HOMER: "Cookie", B_LISA: "Strontium", B_BART: "Persians", B_MARGE: "37"}
CLAIMS = {B_HOMER: "Cookie", B_LISA: "Strontium", B_BART: "Strontium", B_MARGE: "Blue"}
PHASE_3 = {B_HOMER: "Persians", B_LISA: "Persians", B_BART: "37", B_MARGE: "Cookie"}


def big_hunt_claims(known: bool) -> State:
    state = cookie.new_game({"variant": "big-hunt", "players": 4, "roles_known_at_deal": known})
    if known:
        state.apply(DrawTarget("Cosine", player=CHANCE))
        for seat, role in BIG_ROLES.items():
            state.apply(DealRole(seat, role, player=CHANCE))
    for seat, character in CLAIMS.items():
        assert state.to_act() == (seat,)
        state.apply(Claim(character, player=seat))
    return state


def test_big_hunt_claims_and_reveals() -> None:
    state = big_hunt_claims(known=True)
    assert state.view(None)["claims"] == [["Cookie"], ["Strontium"], ["Strontium"], ["Blue"]]
    assert state.coins == [1, 1, 1, 1]  # type: ignore[attr-defined]
    events = state.apply(Challenge(B_BART, player=B_HOMER))
    assert "pays P1 1 Coin" in events[0].describe()
    assert state.coins == [2, 1, 0, 1]  # type: ignore[attr-defined]
    assert state.view(None)["revealed_roles"][B_BART] == ["Persians"]
    state.apply(Look(player=B_LISA))
    assert state.view(B_LISA)["exclusion"] == "Blue"
    assert state.view(B_HOMER)["exclusion"] is None, "Homer did not look"
    events = state.apply(Challenge(B_HOMER, player=B_BART))
    assert "as claimed" in events[0].describe()
    assert state.coins == [2, 1, 0, 1]  # type: ignore[attr-defined]
    state.apply(Look(player=B_MARGE))
    assert state.view(B_MARGE)["exclusion"] == "Blue"
    assert state.phase == "hunt"  # type: ignore[attr-defined]


def test_big_hunt_phase_three_first_scoring_example() -> None:
    state = big_hunt_claims(known=True)
    for action in (
        Challenge(B_BART, player=B_HOMER),
        Look(player=B_LISA),
        Challenge(B_HOMER, player=B_BART),
        Look(player=B_MARGE),
    ):
        state.apply(action)
    for seat, character in PHASE_3.items():
        assert "target" not in state.view(seat), "the target stays face down until Phase 3"
        state.apply(Hunt(character, player=seat))
    summary = state.last_round  # type: ignore[attr-defined]
    assert summary["target"] == "Cosine"
    assert summary["eliminated"] == [True, True, False, False]
    assert summary["gains"] == [1, 1, 3, 1]
    assert state.coins == [3, 2, 3, 2]  # type: ignore[attr-defined]


def test_big_hunt_with_cards_supplied_when_turned_up() -> None:
    state = big_hunt_claims(known=False)
    state.apply(Challenge(B_BART, player=B_HOMER))
    assert state.to_act() == (CHANCE,)
    state.apply(RevealRole(B_BART, "Persians", player=CHANCE))
    state.apply(Look(player=B_LISA))
    assert state.view(B_LISA)["exclusion"] is None, "the table never saw the exclusion card"
    state.apply(Challenge(B_HOMER, player=B_BART))
    refused(state, RevealRole(B_HOMER, "Persians", player=CHANCE))
    state.apply(RevealRole(B_HOMER, "Cookie", player=CHANCE))
    state.apply(Look(player=B_MARGE))
    for seat, character in PHASE_3.items():
        state.apply(Hunt(character, player=seat))
    assert state.to_act() == (CHANCE,)
    assert "expected one of" in refused(state, RevealTarget("Cookie", player=CHANCE))
    state.apply(RevealTarget("Cosine", player=CHANCE))
    assert state.last_round["gains"] == [1, 1, 3, 1]  # type: ignore[attr-defined]
    assert state.coins == [3, 2, 3, 2]  # type: ignore[attr-defined]


def test_big_hunt_phase_three_simultaneous_elimination_example() -> None:
    homer, lisa, bart = 0, 1, 2
    state = cookie.new_game({"variant": "big-hunt", "players": 3})
    state.apply(DrawTarget("Blue", player=CHANCE))
    for seat, role in ((homer, "Cookie"), (lisa, "Strontium"), (bart, "37")):
        state.apply(DealRole(seat, role, player=CHANCE))
    state.apply(OpenExclusion("Persians", player=CHANCE))
    for seat, role in ((homer, "Cookie"), (lisa, "Strontium"), (bart, "37")):
        state.apply(Claim(role, player=seat))
    for seat in (homer, lisa, bart):
        state.apply(Look(player=seat))
    assert state.view(homer)["exclusion"] == "Cosine"
    for seat, character in ((homer, "Cosine"), (lisa, "37"), (bart, "Persians")):
        state.apply(Hunt(character, player=seat))
    summary = state.last_round  # type: ignore[attr-defined]
    assert summary["eliminated"] == [True, False, True], "Bart eliminates Homer, Lisa Bart"
    assert summary["gains"] == [1, 4, 2], "Lisa: Bart's character, only survivor, guaranteed"
