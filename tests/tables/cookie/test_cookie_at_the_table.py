"""The Cookie 2.0 refereed at the table from card-mat readings: the table, its journal, its LEDs.

Every reading is what the camera would report of a mat laid as the game
holds it (:class:`tests.tables.cookie.cookie_helpers.Mat`), changed as people
change it: a card laid face down, turned up, a Sword moved to a target's
zone, a Role card turned up. Every Man for Himself is played with 4 players
and the roles unseen at the deal; The Big Hunt with 2, 3 and 4.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from cogtable.game_choice import GameChoice, options_for
from cogtable.inputs import ButtonPressed
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for
from cogtable.tables.base import AMBER, GREEN, RED, WHITE
from cogtable.tables.card_zones import zones_of
from cogtable.tables.cookie.cards import read_cards, set_card, tag_of
from games.cookie.actions import (
    Aim,
    Challenge,
    Claim,
    Hunt,
    Look,
    OpenExclusion,
    Play,
    RevealRole,
    RevealTarget,
)
from games.cookie.bighunt import BigHuntState
from games.cookie.hunt import HuntState
from games.core import CHANCE, Action, new_game
from hardware.leds import Frame
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import colours_of, lit_seats, make_table
from tests.tables.cookie.cookie_helpers import (
    CAMERA,
    JOURNAL,
    CookieTable,
    Mat,
    big_hunt_options,
    cookie_table,
    hunt_options,
    sample,
)
from vision.cards.mat import standard_mat

COLOURS = colours_of(load_profile())
FIRST_TURN = {0: "Sword", 1: "Cookie", 2: "Shield", 3: "Blue"}
"""What the four seats lay in the first turn of the Every Man for Himself tests."""


def look(frame: Frame, seat: int) -> tuple[tuple[int, int, int], str]:
    """A seat LED's colour and animation kind."""
    found = frame.look("seats", seat)
    return found.colour, found.animation.kind


def blinks_red(frame: Frame, seat: int) -> bool:
    return look(frame, seat) == (RED, "blink")


def all_placed(at: CookieTable, mat: Mat) -> None:
    for seat in range(at.state.num_players):
        if seat in at.state.to_act():
            mat.place(seat)
    at.see(mat)


def turned_up(at: CookieTable, cards: dict[int, str]) -> Mat:
    """Every seat places, then turns ``cards`` up at once: the mat after."""
    mat = Mat.of(at.state)
    all_placed(at, mat)
    for seat, card in cards.items():
        mat.turn_up(seat, card)
    at.see(mat)
    return mat


# -- without a card mat: the console, as before ------------------------------------------


def test_without_a_card_mat_nothing_is_read_by_the_camera() -> None:
    bare = adapter_for("cookie").fitted(Sensors())
    assert bare.camera_regions() == () and bare.start_in_sync()
    assert "console" in bare.camera_note
    fitted = adapter_for("cookie").fitted(CAMERA)
    assert [region.reader for region in fitted.camera_regions()] == ["cards"]
    assert not fitted.start_in_sync()
    assert options_for(fitted, {"variant": "hunt"}, 6)["roles_known_at_deal"] is False


def test_the_mat_is_read_as_every_card_game_reads_it() -> None:
    """The Cookie reads the settled mat through the zones every card-mat game shares."""
    mat = standard_mat(4)
    sword = tag_of(set_card("Sword", 0))
    good = {"cards": {"seat1": ((sword,), 1), "centre": ((), 2)}}
    seen, zones = read_cards(good, mat, 4), zones_of(good)
    assert seen is not None and zones is not None
    assert seen.seats[0].face_up == {set_card("Sword", 0)}
    assert (seen.seats[0].backs, seen.centre.backs) == (zones["seat1"].backs, zones["centre"].backs)
    for garbled in ((sword,), -1), ((True,), 0), (("206",), 0), ((sword,), 1.5):
        position = {"seat1": garbled, "centre": ((), 0)}
        assert zones_of(position) is None and read_cards(position, mat, 4) is None, garbled


# -- Every Man for Himself ------------------------------------------------------------------


def test_a_seat_shows_placed_when_its_back_is_seen_and_all_placed_signals_the_reveal(
    tmp_path: Path,
) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    mat.place(1)
    mat.place(3)
    status = at.see(mat)
    assert look(at.frame, 1) == (WHITE, "solid") and look(at.frame, 3) == (WHITE, "solid")
    assert look(at.frame, 0) == (COLOURS[0], "solid"), "the first player's seat glows"
    assert look(at.frame, 2) == (COLOURS[2], "pulse")
    assert "placed: P2, P4; waiting for P1, P3" in status.message
    assert "mat: placed: P2, P4; waiting for P1, P3" in at.table.screen_lines()
    assert at.actions() == [], "a card face down is not a move the engine can take"
    mat.place(0)
    mat.place(2)
    status = at.see(mat)
    assert all(look(at.frame, seat) == (GREEN, "pulse") for seat in range(4)), "the reveal"
    assert "turn your cards up" in status.message
    assert set(lit_seats(at.frame)) == {0, 1, 2, 3}, "seats nobody plays stay dark"


def test_a_seats_confirm_says_placed_where_the_camera_sees_no_back(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    for seat in (0, 1, 2):
        mat.place(seat)
    at.see(mat)
    status = at.press(3)  # P4's card lies where the camera cannot see its back
    assert "P4 pressed confirm: placed" in status.message
    assert all(look(at.frame, seat) == (GREEN, "pulse") for seat in range(4)), "the reveal"
    for seat, card in FIRST_TURN.items():
        if seat != 3:
            mat.turn_up(seat, card)
    mat.lay(3, set_card(FIRST_TURN[3], 3))
    at.see(mat)
    assert len([a for a in at.actions() if isinstance(a, Play)]) == 4
    status = at.press(1)
    assert "nothing for P2 to confirm" in status.message and len(at.actions()) == 4


def test_a_card_typed_at_the_console_on_a_mat_table_is_not_named(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    status = at.type(0, "P1 plays Sword")
    assert at.actions() == [Play("Sword", player=0)]
    shown = json.dumps(status.to_json()) + "\n".join(at.table.screen_lines())
    assert not re.search(r"\bSword\b", shown), shown
    assert status.last == "P1's card is in"


def test_cards_turned_up_are_each_seats_play_taken_at_once(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    turned_up(at, FIRST_TURN)
    played = [a for a in at.actions() if isinstance(a, Play)]
    assert sorted((a.player, a.card) for a in played) == sorted(FIRST_TURN.items())
    assert at.state.phase == "aim" and at.state.aiming == [0, 2]
    assert at.table.status().last == "revealed: P1 Sword, P2 Cookie, P3 Shield, P4 Blue"
    assert at.table.game.journal.record(at.table.game.id).actions == tuple(at.actions())


def test_cards_turned_up_in_any_order_all_count(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    all_placed(at, mat)
    for seat in (3, 1, 0, 2):
        mat.turn_up(seat, FIRST_TURN[seat])
        at.see(mat)
    assert sorted((a.player, a.card) for a in at.actions()) == sorted(FIRST_TURN.items())


def test_a_card_turned_up_before_everyone_placed_blinks_red_and_is_not_recorded(
    tmp_path: Path,
) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    mat.place(0)
    mat.place(1)
    mat.place(2)
    mat.turn_up(1, "Cookie")
    status = at.see(mat)
    assert status.verdict == "illegal" and blinks_red(at.frame, 1)
    assert "before everyone had placed" in status.message
    assert at.actions() == []
    mat.take(1, set_card("Cookie", 1))
    mat.place(1)
    at.see(mat)
    assert not blinks_red(at.frame, 1) and at.actions() == []


def test_an_aim_the_rules_refuse_blinks_red_until_the_card_is_moved(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = turned_up(at, FIRST_TURN)
    sword, shield = set_card("Sword", 0), set_card("Shield", 2)
    mat.move(sword, 2)
    at.see(mat)
    assert at.actions()[-1] == Aim(2, player=0)
    assert look(at.frame, 2) == (GREEN, "flash"), "the aim is accepted: P3's seat flashes"
    mat.move(shield, 0)  # P3's Shield at P1, whose Sword is on P3
    status = at.see(mat)
    assert status.verdict == "illegal" and blinks_red(at.frame, 2)
    assert "P1's Sword is aimed at P3" in status.message
    assert len(at.actions()) == 5
    at.see(mat)
    assert blinks_red(at.frame, 2), "it blinks as long as the card lies there"
    mat.move(shield, 1)
    at.see(mat)
    assert at.actions()[-1] == Aim(1, player=2) and not blinks_red(at.frame, 2)
    assert at.state.phase == "play" and at.state.turn == 1


def test_aims_are_taken_clockwise_from_the_first_player(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = turned_up(at, FIRST_TURN)
    mat.move(set_card("Shield", 2), 0)  # P3 aims first, out of order: it waits for P1
    status = at.see(mat)
    assert len(at.actions()) == 4 and status.verdict != "illegal"
    assert look(at.frame, 0) == (COLOURS[0], "solid"), "P1 is asked to aim"
    mat.move(set_card("Sword", 0), 1)
    at.see(mat)
    assert at.actions()[4:] == [Aim(1, player=0), Aim(0, player=2)]


def test_a_shield_aimed_first_refuses_the_sword_that_comes_after_it(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options(first=2))  # P3 first: the Shield resolves first
    mat = turned_up(at, FIRST_TURN)
    assert at.state.aiming == [2, 0]
    mat.move(set_card("Sword", 0), 2)  # P1's Sword at P3 before P3 aimed: it waits
    mat.move(set_card("Shield", 2), 0)  # P3's Shield at P1
    status = at.see(mat)
    assert at.actions()[4:] == [Aim(0, player=2)]
    assert status.verdict == "illegal" and blinks_red(at.frame, 0)


def test_a_card_turned_face_down_again_takes_its_play_back(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    all_placed(at, mat)
    mat.turn_up(0, "Sword")
    at.see(mat)
    assert at.actions() == [Play("Sword", player=0)]
    mat.take(0, set_card("Sword", 0))
    mat.place(0)
    status = at.see(mat)
    assert at.actions() == [] and status.in_sync, status.message
    assert at.table.game.journal.record(at.table.game.id).actions == ()


def test_after_the_undo_button_the_card_must_be_put_back_before_it_counts_again(
    tmp_path: Path,
) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = turned_up(at, FIRST_TURN)
    mat.move(set_card("Sword", 0), 3)
    at.see(mat)
    assert at.actions()[-1] == Aim(3, player=0)
    at.table.handle(ButtonPressed("undo", None, held=True), at.now)
    status = at.see(mat)
    assert not status.in_sync and len(at.actions()) == 4
    assert "move P1's card back into P1's zone" in status.message
    assert look(at.frame, 3)[0] == AMBER
    mat.move(set_card("Sword", 0), 0)
    assert at.see(mat).in_sync and len(at.actions()) == 4
    mat.move(set_card("Sword", 0), 1)
    at.see(mat)
    assert at.actions()[-1] == Aim(1, player=0)


def test_cards_taken_may_leave_the_mat_but_a_card_out_of_place_is_shown(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = turned_up(at, FIRST_TURN)
    mat.move(set_card("Sword", 0), 3)
    mat.move(set_card("Shield", 2), 1)
    at.see(mat)
    assert at.state.phase == "play" and len(at.actions()) == 6
    for seat in range(4):
        mat.face_up[seat].clear()  # the turn's cards go in front of their owners
    assert at.see(mat).verdict in ("nothing", "in-sync")
    mat.lay(2, set_card("Cookie", 1))  # P2's Cookie in P3's zone
    status = at.see(mat)
    assert status.verdict == "out-of-sync" and look(at.frame, 2) == (AMBER, "blink")
    assert "P3's zone: take away Cookie (P2's)" in status.message
    assert len(at.actions()) == 6


def test_the_first_players_seat_is_marked(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options(first=1))
    turned_up(at, {0: "Cookie", 1: "Blue", 2: "Hill", 3: "Sword"})
    assert at.state.aiming == [3]
    assert look(at.frame, 3) == (COLOURS[3], "solid")
    marked = at.frame.look("seats", 1)
    assert marked.colour == tuple(round(c * 0.15) for c in WHITE), "dim white: First Player"


def _at_reveal(seed: int) -> tuple[tuple[Action, ...], HuntState]:
    """A seeded 4-player game played by the engine up to the Role cards turned up."""
    rng = random.Random(seed)
    state = new_game("cookie", hunt_options(), seed)
    assert isinstance(state, HuntState)
    while state.phase != "reveal":
        player = state.to_act()[0]
        state.apply(rng.choice(state.legal_actions(player)))
    return tuple(state.history), state


def _fitting_roles(state: HuntState, rng: random.Random) -> list[RevealRole]:
    twin = state.clone()
    roles = []
    while twin.phase == "reveal":
        action = sample(twin, rng)
        assert isinstance(action, RevealRole)
        roles.append(action)
        twin.apply(action)
    return roles


def test_roles_turned_up_in_any_order_then_the_round_is_scored_on_the_seat_leds(
    tmp_path: Path,
) -> None:
    actions, state = _at_reveal(3)
    at = cookie_table(tmp_path, hunt_options(), actions)
    roles = _fitting_roles(state, random.Random(1))
    mat = Mat.of(at.state)
    for reveal in reversed(roles[1:]):  # P4, P3, P2 first: the engine waits for P1's
        mat.role_up(reveal.seat, reveal.character)
        at.see(mat)
    assert len(at.actions()) == len(actions)
    mat.role_up(roles[0].seat, roles[0].character)
    status = at.see(mat)
    assert at.actions()[len(actions) :] == roles
    gains = at.state.last_round["gains"]
    assert at.state.round == 1 and not status.in_sync, "the mat must be cleared"
    assert "gather the cards" in status.message
    assert max(gains) > 0 and at.frame.look("status", 0).colour == AMBER
    for seat, gain in enumerate(gains):
        expected = tuple(round(c * gain / max(gains)) for c in COLOURS[seat])
        if not gain and seat == at.state.first:
            expected = tuple(round(c * 0.15) for c in WHITE)  # the First Player token
        assert look(at.frame, seat) == (expected, "solid"), (seat, gains)
    status = at.see(Mat.of(at.state))
    assert status.in_sync
    assert look(at.frame, 0)[0] == tuple(round(c * gains[0] / max(gains)) for c in COLOURS[0])
    mat = Mat.of(at.state)
    mat.place(2)
    at.see(mat)
    assert look(at.frame, 2) == (WHITE, "solid"), "once a card is laid, the new turn shows"


def test_a_power_cut_mid_turn_keeps_who_has_placed(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    mat.place(0)
    mat.place(2)
    at.see(mat)
    at.table.journal.close()
    again = cookie_table_resumed(tmp_path)
    status = again.see(mat)
    assert status.in_sync and again.actions() == []
    again.see(mat)
    assert look(again.frame, 0) == (WHITE, "solid") and look(again.frame, 2) == (WHITE, "solid")


def cookie_table_resumed(folder: Path) -> CookieTable:
    """The table after a restart: the journal resumed, nothing seen yet."""
    table, frames = make_table(folder / JOURNAL, GameChoice("cookie", hunt_options()), CAMERA)
    return CookieTable(table, frames)


# -- The Big Hunt -----------------------------------------------------------------------


def test_claims_are_laid_face_up_in_turn_and_out_of_turn_blinks_red(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, big_hunt_options(4))
    mat = Mat.of(at.state)
    mat.lay(1, set_card("Blue", 1))
    status = at.see(mat)
    assert status.verdict == "illegal" and blinks_red(at.frame, 1)
    assert at.actions() == []
    mat.lay(0, set_card("Cookie", 0))
    at.see(mat)
    assert at.actions() == [Claim("Cookie", player=0), Claim("Blue", player=1)]


def test_phase_two_a_role_turned_up_or_i_looked_then_phase_three_and_the_target(
    tmp_path: Path,
) -> None:
    claims = tuple(Claim(name, player=seat) for seat, name in enumerate(["Cookie", "Blue", "37"]))
    at = cookie_table(tmp_path, big_hunt_options(4), (*claims, Claim("Cosine", player=3)))
    assert isinstance(at.state, BigHuntState) and at.state.phase == "check"
    mat = Mat.of(at.state)
    mat.role_up(2, "Persians")  # P1 turns up P3's Role card: P3 claimed 37, bluffed
    at.see(mat)
    assert at.actions()[-2:] == [
        Challenge(2, 0, player=0),
        RevealRole(2, "Persians", 0, player=CHANCE),
    ]
    assert at.state.coins == [2, 1, 0, 1]
    assert "P1 turned up P3's role: Persians, not 37" in at.table.status().last
    at.see(mat)  # looked at again: what the table waits for
    assert "P2: turn up another player's Role card" in at.table.status().message
    assert "press confirm: I looked" in at.table.status().message
    status = at.press(1)  # P2: "I looked"
    assert at.actions()[-1] == Look(player=1), status.message
    at.press(2)
    at.press(3)
    assert at.state.phase == "hunt"
    hunts = {0: "Blue", 1: "Strontium", 2: "Cosine", 3: "Cookie"}
    turned_up(at, hunts)
    assert sorted((a.player, a.character) for a in at.actions() if isinstance(a, Hunt)) == sorted(
        hunts.items()
    )
    assert at.state.phase == "target"
    mat = Mat.of(at.state)
    mat.centre_up("37")
    status = at.see(mat)
    assert at.actions()[-1] == RevealTarget("37", player=CHANCE)
    assert at.state.round == 1 and not status.in_sync


def _card_of(action: Action) -> str:
    assert isinstance(action, Play | Hunt)
    return action.card if isinstance(action, Play) else action.character


def _aim_through_the_camera(at: CookieTable, mat: Mat, rng: random.Random) -> None:
    """The aiming seat moves its card; now and then first to a target the rules refuse."""
    state = at.state
    assert isinstance(state, HuntState)
    seat = state.aiming[0]
    card = set_card(state.played[seat][-1], seat)
    allowed = state.allowed_targets(seat)
    refused = [t for t in range(state.num_players) if t != seat and t not in allowed]
    if refused and rng.random() < 0.5:
        mat.move(card, rng.choice(refused))
        assert at.see(mat).verdict == "illegal" and blinks_red(at.frame, seat)
    target = rng.choice(allowed)
    mat.move(card, target)
    at.see(mat)
    assert Aim(target, player=seat) in at.actions()[-len(state.aiming) :]


def test_two_players_say_which_role_card_was_turned_up_and_a_swapped_bluff_pays(
    tmp_path: Path,
) -> None:
    claims = (
        Claim("Cookie", player=0),
        Claim("Cookie", player=1),
        Claim("Blue", player=0),
        Claim("37", player=1),
    )
    at = cookie_table(tmp_path, big_hunt_options(2), (*claims, Look(player=0)))
    mat = Mat.of(at.state)
    mat.role_up(0, "Blue")  # P2 turns up the card under P1's Cookie claim: it is Blue
    status = at.see(mat)
    assert status.verdict == "choose" and len(at.actions()) == 5
    assert "confirm: the one under the claim Blue; or type 'P2 reveals P1'" in status.message
    at.type(1, "P2 reveals P1")
    assert at.actions()[5:] == [
        Challenge(0, 0, player=1),
        RevealRole(0, "Blue", 0, player=CHANCE),
    ]
    assert at.state.coins == [0, 2], "P1 bluffed with Cookie: P1 pays P2 one Coin"


def test_two_players_confirm_takes_the_role_card_under_the_claim_it_matches(
    tmp_path: Path,
) -> None:
    claims = (
        Claim("Cookie", player=0),
        Claim("Cookie", player=1),
        Claim("Blue", player=0),
        Claim("37", player=1),
    )
    at = cookie_table(tmp_path, big_hunt_options(2), (*claims, Look(player=0)))
    mat = Mat.of(at.state)
    mat.role_up(0, "Blue")
    at.see(mat)
    at.press(1)
    assert at.actions()[5:] == [
        Challenge(0, 1, player=1),
        RevealRole(0, "Blue", 1, player=CHANCE),
    ]
    assert at.state.coins == [1, 1], "as claimed: nobody pays"


def _play_round_through_the_camera(at: CookieTable, rng: random.Random) -> None:
    """One round: every action the engine takes reaches it through the mat or a button."""
    start = at.state.round
    while at.state.round == start and not at.state.is_over():
        state, before = at.state, len(at.actions())
        mat = Mat.of(state)
        if state.to_act() == (CHANCE,):
            chance = sample(state, rng)
            if isinstance(chance, OpenExclusion | RevealTarget):
                mat.centre_up(chance.character)
            else:
                assert isinstance(chance, RevealRole)
                mat.role_up(chance.seat, chance.character)
            at.see(mat)
            assert at.actions()[-1] == chance
            continue
        if state.phase == "reveal":
            roles = _fitting_roles(state, rng)  # type: ignore[arg-type]
            rng.shuffle(roles)
            for reveal in roles:  # turned up in any order
                mat.role_up(reveal.seat, reveal.character)
                at.see(mat)
            continue
        if state.phase == "aim":
            _aim_through_the_camera(at, mat, rng)
            continue
        if state.phase in ("hunt", "play"):
            chosen = {
                seat: _card_of(rng.choice(state.legal_actions(seat))) for seat in state.to_act()
            }
            turned_up(at, chosen)
            continue
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        if isinstance(action, Claim):
            mat.lay(seat, set_card(action.character, seat))
            at.see(mat)
        elif isinstance(action, Look):
            at.press(seat)
        else:
            assert isinstance(action, Challenge)
            twin = state.clone()
            twin.apply(action)
            reveal = sample(twin, rng)
            assert isinstance(reveal, RevealRole)
            mat.role_up(reveal.seat, reveal.character)
            status = at.see(mat)
            if status.verdict == "choose":  # two Role cards: the checker says which
                plain = at.table.view.verdict.options[0]
                at.press(seat) if plain == action else at.type(seat, action.notation())
            assert at.actions()[-2:] == [action, reveal]
        assert len(at.actions()) > before, at.table.status().message


@pytest.mark.parametrize("players", [4, 5, 6])
def test_an_every_man_for_himself_round_through_the_camera(tmp_path: Path, players: int) -> None:
    at = cookie_table(tmp_path, hunt_options(players))
    _play_round_through_the_camera(at, random.Random(players))
    assert at.state.round == 1 and at.table.status().in_sync is False
    kinds = {type(a).__name__ for a in at.actions()}
    assert {"Play", "RevealRole"} <= kinds
    assert sum(isinstance(a, Play) for a in at.actions()) == players * players
    journaled = at.table.game.journal.record(at.table.game.id).actions
    assert journaled == tuple(at.actions())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_big_hunt_round_through_the_camera_and_the_next_after_the_mat_is_cleared(
    tmp_path: Path, players: int
) -> None:
    at = cookie_table(tmp_path, big_hunt_options(players))
    rng = random.Random(players)
    _play_round_through_the_camera(at, rng)
    assert at.state.round == 1
    assert at.table.status().in_sync is False
    kinds = {type(a).__name__ for a in at.actions()}
    assert {"Claim", "Hunt", "RevealTarget"} <= kinds
    assert ("OpenExclusion" in kinds) == (players == 3)
    assert at.see(Mat.of(at.state)).in_sync
    _play_round_through_the_camera(at, rng)
    assert at.state.round == 2
