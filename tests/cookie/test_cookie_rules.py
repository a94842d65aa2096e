"""One or more tests for every rule, refusals included (IllegalAction, state unchanged)."""

from __future__ import annotations

import json
from dataclasses import replace

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
)
from games.cookie.reference import BadReference, load_references
from games.core import CHANCE, BadOptions, BadRecord, IllegalAction, State, decode

from .helpers import start


def refused(state: State, action: object) -> str:
    before, history = state.snapshot(), list(state.history)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)  # type: ignore[arg-type]
    assert state.snapshot() == before and state.history == history
    return str(error.value)


def dealt_hunt(players: int, roles: list[str], **options: object) -> State:
    state = start("hunt", players, **options)
    for seat, role in enumerate(roles):
        state.apply(DealRole(seat, role, player=CHANCE))
    return state


def lay(state: State, cards: list[str]) -> None:
    for seat, card in enumerate(cards):
        state.apply(Play(card, player=seat))


# -- the Reference cards (data) -------------------------------------------------


def test_the_shipped_cycle_is_the_one_in_the_notes() -> None:
    six = cookie.REFERENCES[6].prey
    assert six == {
        "Cookie": "Blue",
        "Blue": "Strontium",
        "Strontium": "37",
        "37": "Persians",
        "Persians": "Cosine",
        "Cosine": "Cookie",
    }
    assert cookie.REFERENCES[5].prey["Persians"] == "Cookie"
    assert cookie.REFERENCES[4].prey["37"] == "Cookie"
    assert cookie.REFERENCES[4].characters == ("Cookie", "Blue", "Strontium", "37")


GOOD_4 = '[reference.4]\nCookie="Blue"\nBlue="Strontium"\nStrontium="37"\n37="Cookie"\n'
GOOD_5 = (
    '[reference.5]\nCookie="Blue"\nBlue="Strontium"\nStrontium="37"\n37="Persians"\n'
    'Persians="Cookie"\n'
)
GOOD_6 = (
    '[reference.6]\nCookie="Blue"\nBlue="Strontium"\nStrontium="37"\n37="Persians"\n'
    'Persians="Cosine"\nCosine="Cookie"\n'
)


def test_a_table_owner_may_correct_the_hunting_relation() -> None:
    corrected = GOOD_4.replace(
        'Cookie="Blue"\nBlue="Strontium"', 'Cookie="Strontium"\nBlue="Cookie"'
    )
    corrected = corrected.replace('Strontium="37"\n37="Cookie"', 'Strontium="37"\n37="Blue"')
    cards = load_references(corrected + GOOD_5 + GOOD_6)
    assert cards[4].prey["Cookie"] == "Strontium" and cards[4].hunter["Cookie"] == "Blue"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [", "not valid TOML"),
        (GOOD_5 + GOOD_6, "[reference.4] is missing"),
        (GOOD_4.replace('37="Cookie"', '37="37"') + GOOD_5 + GOOD_6, "reference.4.37"),
        (GOOD_4.replace('37="Cookie"', '37="Blue"') + GOOD_5 + GOOD_6, "hunted twice"),
        (GOOD_4 + "Cosine='Cookie'\n" + GOOD_5 + GOOD_6, "expected exactly"),
    ],
)
def test_a_broken_hunting_table_is_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(BadReference, match=message.replace("[", r"\[").replace(".", r"\.")):
        load_references(text)


# -- options --------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "poker"},
        {"variant": "hunt", "players": 3},
        {"variant": "big-hunt", "players": 5},
        {"players": 4, "first_player": 4},
        {"extra_rounds": 1},
        {"variant": "big-hunt", "players": 2, "extra_rounds": -1},
        {"players": "4"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(BadOptions):
        cookie.new_game(options)


# -- Every Man for Himself --------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "characters", "hill"),
    [
        (4, {"Cookie", "Blue", "Strontium", "37"}, True),
        (5, set(cookie.CHARACTERS) - {"Cosine"}, True),
        (6, set(cookie.CHARACTERS), False),
    ],
)
def test_hands_hold_the_characters_but_ones_own_role(
    players: int, characters: set[str], hill: bool
) -> None:
    state = start("hunt", players)
    while state.to_act() == (CHANCE,):
        state.apply(state.sample_chance())
    for seat in range(players):
        view = state.view(seat)
        assert set(view["hand"]) == (characters - {view["role"]}) | {"Sword", "Shield"} | (
            {"Hill"} if hill else set()
        )
    roles = {state.view(seat)["role"] for seat in range(players)}
    assert roles == characters, "one role each, every character dealt"


def test_roles_stay_secret_until_the_round_is_scored() -> None:
    state = dealt_hunt(4, ["Cookie", "Blue", "Strontium", "37"])
    assert "role" not in state.view(None)
    assert state.view(1)["role"] == "Blue"
    assert "Blue" not in state.view(1)["hand"]
    assert all(state.view(seat).get("roles") is None for seat in (None, 0, 1))


def test_a_laid_card_stays_hidden_until_everybody_has_laid() -> None:
    state = dealt_hunt(4, ["Cookie", "Blue", "Strontium", "37"])
    state.apply(Play("Sword", player=0))
    assert state.view(0)["face_down"] == "Sword"
    assert "Sword" not in json.dumps({k: v for k, v in state.view(1).items() if k != "hand"})
    assert state.view(None)["laid_face_down"] == [True, False, False, False]
    assert state.to_act() == (1, 2, 3)
    refused(state, Play("Shield", player=0))


def test_only_cards_in_hand_may_be_laid() -> None:
    state = dealt_hunt(4, ["Cookie", "Blue", "Strontium", "37"])
    assert "no 'Cookie'" in refused(state, Play("Cookie", player=0))
    refused(state, Play("Cosine", player=0))
    refused(state, Play("Joker", player=0))
    assert "must be a name" in refused(state, Play(5, player=0))  # type: ignore[arg-type]


def test_a_sword_is_never_aimed_at_its_owner_and_aims_only_when_asked() -> None:
    state = dealt_hunt(4, ["Cookie", "Blue", "Strontium", "37"])
    lay(state, ["Sword", "Cookie", "Cookie", "Cookie"])
    assert "themselves" in refused(state, Aim(0, player=0))
    refused(state, Aim(7, player=0))
    refused(state, Aim(True, player=0))  # type: ignore[arg-type]
    refused(state, Aim(2, player=1))
    refused(state, Play("Hill", player=0))


def test_a_sword_with_nobody_left_to_aim_at_has_no_effect() -> None:
    state = dealt_hunt(4, ["Cookie", "Blue", "Strontium", "37"])
    lay(state, ["Blue", "Shield", "Shield", "Shield"])
    for seat in (1, 2, 3):
        state.apply(Aim(0, player=seat))
    events = state.apply(Play("Sword", player=0))
    assert not events
    lay_rest = [Play("Sword", player=1), Play("Sword", player=2), Play("Hill", player=3)]
    events = []
    for action in lay_rest:
        events = state.apply(action)
    assert "P1's Sword has nobody it may be aimed at" in [e.describe() for e in events]
    assert state.view(None)["swords"][0] is None
    assert state.to_act() == (1,), "the other Swords are still aimed, in seat order"


def shield_the_hunter(state: State) -> None:
    """Lay characters while any are left, then the Shield aimed at one's true hunter."""
    acting = state.to_act()
    if acting == (CHANCE,):
        state.apply(state.sample_chance())
        return
    seat = acting[0]
    view = state.view(seat)
    if view["phase"] == "aim":
        hunter = state.reference.hunter[view["role"]]  # type: ignore[attr-defined]
        state.apply(Aim(state.roles.index(hunter), player=seat))  # type: ignore[attr-defined]
        return
    characters = [c for c in view["hand"] if c in cookie.CHARACTERS]
    state.apply(Play(characters[0] if characters else "Shield", player=seat))


def test_shield_on_the_hunter_scores_two_and_hill_kept_one() -> None:
    state = dealt_hunt(4, ["Cookie", "Blue", "Strontium", "37"])
    while state.view(None)["round"] == 0:
        shield_the_hunter(state)
    assert state.last_round["shields"] == [3, 0, 1, 2]  # type: ignore[attr-defined]
    assert state.last_round["gains"] == [3, 3, 3, 3]  # type: ignore[attr-defined]
    assert state.view(None)["first_player"] == 1
    assert state.to_act() == (CHANCE,), "a new round deals new roles"


def test_rounds_equal_players_and_a_tie_is_reported_as_a_tie() -> None:
    state = start("hunt", 5)
    while not state.is_over():
        shield_the_hunter(state)
    outcome = state.outcome()
    assert outcome is not None and state.view(None)["round"] == 5
    assert outcome.winners == (0, 1, 2, 3, 4) and outcome.reason == "tie on most coins"
    assert outcome.scores == (15.0,) * 5
    assert "game is over" in refused(state, Play("Hill", player=0))


def test_six_players_have_no_hill_to_keep() -> None:
    state = start("hunt", 6)
    while state.view(None)["round"] == 0:
        shield_the_hunter(state)
    assert state.last_round["gains"] == [2] * 6  # type: ignore[attr-defined]


def test_unseen_roles_refuse_a_play_no_dealing_could_fit() -> None:
    state = start("hunt", 4, roles_known_at_deal=False)
    lay(state, ["Cookie", "Hill", "Hill", "Hill"])
    lay(state, ["Blue", "37", "37", "37"])
    lay(state, ["Strontium", "Blue", "Cookie", "Strontium"])
    assert "no dealing of the roles fits" in refused(state, Play("37", player=0))
    assert Play("37", player=0) not in state.legal_actions(0)
    assert Play("Sword", player=0) in state.legal_actions(0)


# -- The Big Hunt ----------------------------------------------------------------


def big_hunt_dealt(players: int, target: str, roles: list[list[str]]) -> State:
    state = start("big-hunt", players)
    state.apply(DrawTarget(target, player=CHANCE))
    for seat, cards in enumerate(roles):
        for slot, role in enumerate(cards):
            state.apply(DealRole(seat, role, slot, player=CHANCE))
    return state


def test_big_hunt_starts_with_one_coin_and_lasts_two_laps() -> None:
    for players in (2, 3, 4):
        state = start("big-hunt", players)
        assert state.coins == [1] * players  # type: ignore[attr-defined]
        assert state.rounds == 2 * players  # type: ignore[attr-defined]
    longer = start("big-hunt", 3, extra_rounds=2)
    assert longer.rounds == 8  # type: ignore[attr-defined]


def test_two_players_hold_two_roles_and_claim_in_turn_twice() -> None:
    state = big_hunt_dealt(2, "Blue", [["Cookie", "37"], ["Persians", "Cosine"]])
    assert state.view(0)["roles"] == ["Cookie", "37"]
    order = []
    for character in ("Cookie", "Persians", "37", "Cosine"):
        seat = state.to_act()[0]
        order.append(seat)
        state.apply(Claim(character, player=seat))
    assert order == [0, 1, 0, 1]
    assert state.view(None)["claims"] == [["Cookie", "37"], ["Persians", "Cosine"]]
    assert state.view(0)["hand"] == ["Blue", "Strontium", "Persians", "Cosine"]
    assert Challenge(1, 1, player=0) in state.legal_actions(0)
    state.apply(Challenge(1, 1, player=0))
    assert state.view(None)["revealed_roles"] == [[None, None], [None, "Cosine"]]
    assert state.to_act() == (1,)
    assert "their own Role card" in refused(state, Challenge(1, 0, player=1))
    assert "no card 2" in refused(state, Challenge(0, 2, player=1))


def test_claims_must_come_from_the_hand_in_seat_order() -> None:
    state = big_hunt_dealt(3, "Blue", [["Cookie"], ["37"], ["Persians"]])
    state.apply(OpenExclusion("Cosine", player=CHANCE))
    assert state.view(None)["open_exclusion"] == "Cosine"
    refused(state, Claim("Cookie", player=1))
    state.apply(Claim("Cookie", player=0))
    state.apply(Claim("Cookie", player=1))
    refused(state, Claim("Bread", player=2))
    state.apply(Claim("Cookie", player=2))
    assert state.phase == "check"  # type: ignore[attr-defined]
    assert "their own Role card" in refused(state, Challenge(0, player=0))
    refused(state, Hunt("Blue", player=0))


def test_a_caught_bluffer_pays_one_coin_and_a_card_is_turned_up_once() -> None:
    state = big_hunt_dealt(3, "Blue", [["Cookie"], ["37"], ["Persians"]])
    state.apply(OpenExclusion("Cosine", player=CHANCE))
    for seat in range(3):
        state.apply(Claim("Strontium", player=seat))
    state.apply(Challenge(1, player=0))
    assert state.coins == [2, 0, 1]  # type: ignore[attr-defined]
    state.apply(Look(player=1))
    assert "already face up" in refused(state, Challenge(1, player=2))
    state.apply(Challenge(0, player=2))
    assert state.coins == [1, 0, 2]  # type: ignore[attr-defined]


def test_a_caught_bluffer_without_coins_pays_nothing() -> None:
    state = big_hunt_dealt(3, "Blue", [["Cookie"], ["37"], ["Persians"]])
    state.apply(OpenExclusion("Cosine", player=CHANCE))
    for seat in range(3):
        state.apply(Claim("Strontium", player=seat))
    spent_out = [0 if seat == 1 else coins for seat, coins in enumerate(state.coins)]
    state.set_position(replace(state.position(), coins=tuple(spent_out)))  # P2 has spent out
    state.apply(Challenge(1, player=0))
    assert "no Coin to pay" in state.view(None)["checks"][-1]
    assert state.coins == [1, 0, 1]  # type: ignore[attr-defined]


def play_to_phase_three(target: str) -> State:
    roles = [[c] for c in cookie.CHARACTERS if c != target][:4]
    state = big_hunt_dealt(4, target, roles)
    for seat in range(4):
        state.apply(Claim(state.view(seat)["roles"][0], player=seat))
    for seat in range(4):
        state.apply(Look(player=seat))
    return state


def test_phase_three_target_needs_a_surviving_hunter() -> None:
    state = play_to_phase_three("Persians")
    state.apply(Hunt("37", player=0))
    assert state.view(1)["face_down"] is None and state.view(0)["face_down"] == "37"
    assert "hunts" not in state.view(None) and "face_down" not in state.view(None)
    refused(state, Hunt("Cookie", player=0))
    refused(state, Hunt("Blue", player=1))
    state.apply(Hunt("Strontium", player=1))
    state.apply(Hunt("Cosine", player=2))
    state.apply(Hunt("Persians", player=3))
    summary = state.last_round  # type: ignore[attr-defined]
    # 37 hunts the Persians (the target) but Strontium eliminates it: no 3 Coins.
    # Everyone else is hunted too, so P2 is the only survivor.
    assert summary["eliminated"] == [True, False, True, True]
    assert summary["gains"] == [1 + 1, 1 + 1 + 2, 1, 1 + 1]
    assert summary["target"] == "Persians"


def test_a_surviving_hunter_takes_the_target_and_two_survivors_share_no_bonus() -> None:
    state = play_to_phase_three("Blue")
    for seat, card in enumerate(["Strontium", "Cookie", "Persians", "37"]):
        state.apply(Hunt(card, player=seat))
    # Cookie hunts Blue (the target); Strontium eliminates 37, 37 the Persians.
    # Nobody hunts Strontium or Cookie: two survivors, so no only-survivor bonus.
    assert state.last_round["eliminated"] == [False, False, True, True]  # type: ignore[attr-defined]
    assert state.last_round["gains"] == [1 + 1, 1 + 3, 1, 1 + 1]  # type: ignore[attr-defined]


def test_unseen_roles_must_fit_what_is_already_face_up() -> None:
    state = start("big-hunt", 3, roles_known_at_deal=False)
    assert state.to_act() == (CHANCE,)
    state.apply(OpenExclusion("Cosine", player=CHANCE))
    for seat in range(3):
        state.apply(Claim("Cookie", player=seat))
    state.apply(Challenge(1, player=0))
    refused(state, RevealRole(1, "Cosine", player=CHANCE))
    refused(state, RevealRole(2, "Blue", player=CHANCE))
    state.apply(RevealRole(1, "Blue", player=CHANCE))
    assert state.coins == [2, 0, 1]  # type: ignore[attr-defined]


# -- records, garbage, players ------------------------------------------------------


def test_garbage_actions_are_refused_cleanly() -> None:
    with pytest.raises(BadRecord):
        decode({"type": "Play", "player": 0}, cookie.ACTIONS)
    with pytest.raises(BadRecord):
        decode({"type": "Nuke", "player": 0}, cookie.ACTIONS)
    state = start("hunt", 4)
    refused(state, decode({"type": "Play", "card": [1], "player": 0}, cookie.ACTIONS))
    refused(state, DealRole(0, "Cookie", player=0))
    refused(state, DealRole(1, "Cookie", player=CHANCE))
    refused(state, Play("Sword", player=CHANCE))
