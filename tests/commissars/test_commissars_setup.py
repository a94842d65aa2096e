"""Setup and deck building, the card data loader, options, secrets in views, refusals."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games import commissars
from games.commissars import Discard, EndPhase, Pick, Play, TopCard
from games.commissars.cards import CardDataError, load_cards
from games.core import CHANCE, BadOptions, IllegalAction, replay

CARD_FILE = Path(commissars.__file__).with_name("cards.toml")


def deal_out(state: commissars.CommissarsState) -> None:
    """Let chance (and the draft's first choice) act until the first turn's discard phase."""
    while state.phase != "discard":
        actor = state.to_act()[0]
        state.apply(state.sample_chance() if actor == CHANCE else state.legal_actions(actor)[0])


def all_cards(seat: object) -> Counter[str]:
    """Every card a seat owns, wherever it lies."""
    return seat.hand + seat.deck + Counter(seat.discard)  # type: ignore[attr-defined,no-any-return]


def test_the_shipped_card_list_has_every_card_the_rulebook_names() -> None:
    cards = commissars.card_set()
    named = {
        "Revolution", "Propaganda", "Counter Propaganda", "Hire Assassin", "Increase Production",
        "Cull the Bourgeoisie", "Control the News Media", "Stifle Free Speech", "Assassinate",
        "Doublethink", "Military Action", "Our Glorious Leader", "Define the Truth",
        "Doublespeak", "Encourage Dissent", "Intercept Transmission", "Prove by Assertion",
        "Seize the Gears", "Upload Red Error", "Disarm the Citizens", "Enforce Equality",
    }  # fmt: skip
    assert set(cards.cards) == named
    assert len(cards.leaders) == 6
    assert sum(cards.regular_pool().values()) == 108
    assert sum(sum(cards.faction_deck(f).values()) for f in cards.factions) == 180
    for card in cards.cards.values():
        assert card.source in ("rulebook", "interpretation")
        assert "production" in card.placeholders  # the rulebook prints no star icons


def test_setup_gives_two_proletariat_each_and_hands_of_seven() -> None:
    state = commissars.new_game({"players": 4}, seed=3)
    assert state.gulag == {"P": 51 - 8, "B": 18, "C": 15}
    assert all(seat.citizens == {"P": 2, "B": 0, "C": 0} for seat in state.seats)
    deal_out(state)
    assert state.active == 0 and state.turn == 1
    assert [seat.hand.total() for seat in state.seats] == [7, 7, 7, 7]
    assert state.seats[0].discard and len(state.seats[0].discard) == 2  # produced two


def test_preconstructed_decks_are_the_faction_decks() -> None:
    cards = commissars.card_set()
    state = commissars.new_game({"players": 2, "factions": "computin,simulenin"}, seed=1)
    assert all_cards(state.seats[0]) == cards.faction_deck("computin")
    assert all_cards(state.seats[1]) == cards.faction_deck("simulenin")
    assert [seat.leader for seat in state.seats] == ["", ""]
    led = commissars.new_game({"players": 2, "leaders": True, "factions": "automarx,computin"})
    assert [seat.leader for seat in led.seats] == ["automarx", "computin"]


def test_random_decks_are_eighteen_dealt_cards_and_a_core_set() -> None:
    cards = commissars.card_set()
    state = commissars.new_game({"players": 6, "decks": "random"}, seed=5)
    assert state.to_act() == (CHANCE,)
    deal_out(state)
    dealt = Counter()
    for seat in state.seats:
        owned = all_cards(seat)
        assert owned.total() == 30
        assert owned - cards.core_set() == owned - cards.core_set()  # keeps core counts
        assert all(owned[name] >= count for name, count in cards.core_set().items())
        dealt += owned - cards.core_set()
    assert dealt == cards.regular_pool()  # six players share out all 108 regular cards
    assert state.pool.total() == 0


def test_the_draft_deals_eight_then_picks_and_passes_packets_of_ten() -> None:
    state = commissars.new_game({"players": 3, "decks": "draft"}, seed=2)
    while state.phase != "draft":
        state.apply(state.sample_chance())
    assert all(seat.deck.total() == 12 + 8 and seat.packet.total() == 10 for seat in state.seats)
    assert set(state.to_act()) == {0, 1, 2}  # everyone picks at once
    before = [Counter(seat.packet) for seat in state.seats]
    picks = [sorted(before[p])[0] for p in range(3)]
    for player in (2, 0, 1):
        state.apply(Pick(picks[player], player=player))
    for player in range(3):  # each packet moved to the player on the left
        assert state.seats[(player + 1) % 3].packet == before[player] - Counter([picks[player]])
    view = state.view(1)
    assert view["packet"] == sorted(state.seats[1].packet.elements())
    assert "packet" not in state.view(None)
    for _ in range(9):
        for player in range(3):
            state.apply(Pick(sorted(state.seats[player].packet)[0], player=player))
    assert all(seat.deck.total() == 30 and not seat.packet for seat in state.seats)
    assert state.to_act() == (CHANCE,)  # starting hands


def test_views_hide_hands_and_decks_and_show_discards_and_the_stack() -> None:
    state = commissars.new_game({"players": 3}, seed=4)
    deal_out(state)
    table, mine = state.view(None), state.view(0)
    assert "hand" not in table and mine["hand"] == sorted(state.seats[0].hand.elements())
    assert all("hand" not in seat for seat in state.view(1)["players"])
    assert table["players"][0]["discard"] == state.seats[0].discard
    assert "deck" not in json.dumps(table["players"]).replace("deck_size", "")
    assert table["stack"] == [] and table["to_act"] == [0] and "may_blitz" not in table
    assert [p for p in range(3) if state.view(p)["may_blitz"]] == state.may_blitz()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 7}, "2 to 6"),
        ({"decks": "sealed"}, "decks"),
        ({"factions": "computin,computin"}, "different factions"),
        ({"factions": "tsar,computin"}, "different factions"),
        ({"first_player": 2}, "not a seat"),
        ({"colour": "red"}, "unknown option"),
        ({"leaders": "yes"}, "expected bool"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options: dict[str, object], words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        commissars.new_game(options)


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    state = commissars.new_game({"players": 2}, seed=6)
    deal_out(state)
    before, history = state.snapshot(), list(state.history)
    missing = next(n for n in commissars.card_set().cards if n not in state.seats[0].hand)
    for action, words in [
        (Play(missing, player=0), "not in player 1's hand"),
        (Discard(missing, player=0), "not in player 1.s hand"),
        (EndPhase(player=1), "not player 2's turn|player 2 may only play a Blitz"),
        (TopCard("Propaganda", player=CHANCE), "nothing is left to chance|chance"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            state.apply(action)
        assert state.snapshot() == before and state.history == history


def test_a_record_replays_to_an_equal_state() -> None:
    state = commissars.new_game({"players": 3, "decks": "draft", "leaders": True}, seed=8)
    deal_out(state)
    assert replay(state.record()) == state


def edited(old: str, new: str) -> str:
    text = CARD_FILE.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('type = "Blitz"\nproduction = ["P"]\nfactions = ["gorobotchev", "androidopov"]',
         'type = "Spell"\nproduction = ["P"]\nfactions = ["gorobotchev", "androidopov"]',
         r"'Doublethink'.*type 'Spell'"),
        ('effect = [{ op = "draw", count = 2 }]', 'effect = [{ op = "summon" }]',
         r"'Doublethink'.*op = one of"),
        ('effect = [{ op = "draw", count = 2 }]', 'effect = [{ op = "draw", count = "two" }]',
         r"'Doublethink'.*count = 'two' should be a int"),
        ('name = "Doublethink"\ntype', 'name = "Doublethink"\ncolour = "red"\ntype',
         r"'Doublethink'.*unknown keys \['colour'\]"),
        ('copies = 7', 'copies = 6', r"core set"),
        ('name = "Seize the Gears"', 'name = "Doublethink"', r"'Doublethink'.*used twice"),
        ('reading = "From the timing example: Anastasia', 'note = "From',
         r"'Doublethink'"),
        ('production = ["C", "B"]', 'production = ["X"]', r"'Revolution'.*production 'X'"),
        ('copies = 3\ntarget = "none"\neffect = [{ op = "draw"',
         'copies = 4\ntarget = "none"\neffect = [{ op = "draw"', r"faction 'gorobotchev'.*31"),
        ("[[leader]]", "[[leader", "not valid TOML"),
    ],
)  # fmt: skip
def test_a_broken_card_file_is_refused_naming_the_entry(old: str, new: str, words: str) -> None:
    with pytest.raises(CardDataError, match=words):
        load_cards(edited(old, new))
