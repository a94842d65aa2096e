"""What a Cookie table must sense, as requests: Role cards dealt, secrets turned up."""

from __future__ import annotations

from games.cookie.actions import Aim, Challenge, Claim, DealRole, Hunt, Look, Play, RevealRole
from games.cookie.reference import REFERENCES
from games.core import CHANCE, Request, State
from tests.cookie.helpers import start

CHARACTERS = list(REFERENCES[6].characters)


def only_request(state: State) -> Request:
    requests = state.requests()
    assert len(requests) == 1
    return requests[0]


def deal_all(state: State) -> list[tuple[str, int | None, str]]:
    """Feed the sampled deal; what each request was (kind, player, purpose)."""
    seen = []
    while state.to_act() == (CHANCE,):
        request = only_request(state)
        seen.append((request.kind, request.player, request.purpose))
        state.apply(state.sample_chance())
    return seen


def test_every_man_for_himself_deals_each_seat_its_role_card() -> None:
    state = start("hunt", 4)
    request = only_request(state)
    four = list(REFERENCES[4].characters)
    assert (request.kind, request.player, request.purpose) == ("deal", 0, "P1's role card")
    assert request.labels() == four
    assert [option.probability for option in request.options] == [1 / 4] * 4
    assert request.option("blue") == DealRole(0, "Blue", player=CHANCE)
    state.apply(DealRole(0, "Blue", player=CHANCE))
    following = only_request(state)
    assert (following.player, following.purpose) == (1, "P2's role card")
    assert following.labels() == [c for c in four if c != "Blue"]
    assert deal_all(state) == [("deal", 1, "P2's role card"), ("deal", 2, "P3's role card"),
                               ("deal", 3, "P4's role card")]  # fmt: skip
    requests = state.requests()
    assert [(r.kind, r.player, r.default) for r in requests] == [
        ("choice", seat, None) for seat in range(4)
    ]


def _play_a_hunt_round_face_down(state: State, last: list[str]) -> None:
    """Each seat lays Sword, Shield, Hill, then the character ``last[seat]``; aims go left."""
    for cards in (["Sword"] * 4, ["Shield"] * 4, ["Hill"] * 4, last):
        for seat, card in enumerate(cards):
            state.apply(Play(card, player=seat))
        while state.to_act() not in ((CHANCE,), (0, 1, 2, 3)):
            seat = state.to_act()[0]
            state.apply(state.legal_actions(seat)[0])
            assert isinstance(state.history[-1], Aim)


def test_face_down_roles_are_revealed_for_scoring_with_what_still_fits() -> None:
    state = start("hunt", 4, roles_known_at_deal=False)
    assert state.to_act() == (0, 1, 2, 3)  # nothing is dealt: the table cannot see the roles
    four = list(REFERENCES[4].characters)
    _play_a_hunt_round_face_down(state, four)  # each seat shows the card of its own seat
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == ("reveal", 0, "P1's role card")
    assert request.labels() == four[1:]  # P1 laid four[0], so it cannot be P1's role
    assert abs(sum(option.probability for option in request.options) - 1) < 1e-9
    state.apply(request.option(four[1]))  # type: ignore[arg-type]
    following = only_request(state)
    assert (following.kind, following.player, following.purpose) == (
        "reveal",
        1,
        "P2's role card",
    )
    assert four[1] not in following.labels() and following.option(four[1]) is None
    assert following.option(four[0]) == RevealRole(1, four[0], player=CHANCE)


def test_the_big_hunt_deals_target_roles_and_open_exclusion() -> None:
    state = start("big-hunt", 3)
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == ("deal", None, "the target card")
    assert request.labels() == CHARACTERS
    assert deal_all(state) == [
        ("deal", None, "the target card"),
        ("deal", 0, "P1's role card"),
        ("deal", 1, "P2's role card"),
        ("deal", 2, "P3's role card"),
        ("deal", None, "the open exclusion card"),
    ]


def test_two_players_hold_two_numbered_role_cards() -> None:
    assert deal_all(start("big-hunt", 2)) == [
        ("deal", None, "the target card"),
        ("deal", 0, "P1's role card 1"),
        ("deal", 0, "P1's role card 2"),
        ("deal", 1, "P2's role card 1"),
        ("deal", 1, "P2's role card 2"),
    ]


def test_the_big_hunt_on_a_table_reveals_a_challenged_role_and_the_target() -> None:
    state = start("big-hunt", 2, roles_known_at_deal=False)
    assert state.to_act() == (0,)  # nothing dealt: straight to the claims
    for seat, character in ((0, "Cookie"), (1, "Blue"), (0, "Strontium"), (1, "37")):
        state.apply(Claim(character, player=seat))
    choice = only_request(state)
    assert choice.kind == "choice" and choice.default is None  # looking is no mere pass
    state.apply(Challenge(1, 1, player=0))
    request = only_request(state)
    assert (request.kind, request.player, request.purpose) == ("reveal", 1, "P2's role card 2")
    assert request.labels() == CHARACTERS
    state.apply(request.option("Persians"))  # type: ignore[arg-type]
    state.apply(Look(player=1))
    for seat in (0, 1):
        state.apply(Hunt("Cosine", player=seat))
    target = only_request(state)
    assert (target.kind, target.player, target.purpose) == ("reveal", None, "the target card")
    assert target.labels() == [c for c in CHARACTERS if c != "Persians"]
