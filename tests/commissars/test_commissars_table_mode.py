"""Table mode (``hands = "unknown"``): unseen draws, what a hand could hold, and records."""

from __future__ import annotations

import random

import pytest

from games import commissars
from games.commissars import Choose, Discard, Play, TopCard, UnseenDraw
from games.commissars.state import CommissarsState
from games.commissars.table_mode import table_mode_record, unseen_draws_record
from games.commissars.tasks import Search
from games.core import CHANCE, BadOptions, BadRecord, IllegalAction, Record, State, replay
from tests.commissars.commissars_table import give, pass_round, play, reveal, set_table, table
from tests.random_simulation import pick_random_action


def unknown(players: int = 2, seed: int = 0, **options: object) -> CommissarsState:
    """A new table-mode game."""
    return commissars.new_game({"players": players, "hands": "unknown", **options}, seed)


def draw_hands(state: CommissarsState) -> None:
    """Chance draws every starting hand unseen (up to the first Produce flip)."""
    while state.chance_outcomes() and isinstance(state.chance_outcomes()[0][0], UnseenDraw):
        state.apply(UnseenDraw(player=CHANCE))


def refusal(state: CommissarsState, action: Play | Discard) -> str:
    """The reason ``action`` is refused; the position must not change."""
    before, history = state.snapshot(), list(state.history)
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert state.snapshot() == before and state.history == history
    return str(refused.value)


def test_the_hands_option_is_checked_by_name() -> None:
    with pytest.raises(BadOptions, match="option 'hands' = 'secret'"):
        commissars.new_game({"hands": "secret"})
    assert commissars.new_game().unknown_hands is False


def test_a_draw_is_one_unseen_outcome_and_the_table_sees_hand_sizes_only() -> None:
    state = unknown()
    request = state.requests()[0]
    assert (request.kind, request.player, request.purpose) == ("draw", 0, "player 1's deck, draw")
    assert [(o.label, o.probability) for o in request.options] == [("unseen card", 1.0)]
    draw_hands(state)
    table_view = state.view(None)
    assert [seat["hand_size"] for seat in table_view["players"]] == [7, 7]
    assert [seat["deck_size"] for seat in table_view["players"]] == [23, 23]
    assert state.requests()[0].purpose == "player 1's deck, produce"
    with pytest.raises(IllegalAction, match="only a draw into a hand goes unseen"):
        state.apply(UnseenDraw(player=CHANCE))  # a Produce flip is face up
    assert "hand" not in table_view and "could_hold" not in table_view
    own = state.view(0)
    assert own["hand"] == [] and own["unseen_in_hand"] == 7
    assert own["could_hold"] == sorted(commissars.card_set().faction_deck("gorobotchev"))


def test_a_card_the_hand_cannot_hold_is_refused_with_the_reason() -> None:
    state = table(hands="unknown")
    deck = ["Propaganda", "Propaganda", "Seize the Gears", "Revolution"]
    give(state, 0, deck=deck, unseen=2, discard=["Doublethink"] * 3, citizens="PP")
    assert refusal(state, Play("Doublethink", player=0)) == (
        "player 1 cannot hold Doublethink: all 3 of their deck's Doublethink cards are seen "
        "(3 in their discard pile)"
    )
    assert refusal(state, Play("Assassinate", player=0)) == (
        "player 1 cannot hold Assassinate: their deck has no Assassinate"
    )
    assert state.could_hold(0, "Seize the Gears") and not state.could_hold(0, "Doublethink")
    assert Play("Seize the Gears", player=0) in state.legal_actions(0)


def test_a_discard_names_a_card_the_hand_could_hold_and_shows_it() -> None:
    state = table(hands="unknown", phase="discard")
    give(state, 0, deck=["Propaganda", "Revolution", "Encourage Dissent"], unseen=2)
    give(state, 0, discard=["Encourage Dissent"] * 2)
    assert refusal(state, Discard("Doublethink", player=0)) == (
        "player 1 cannot hold Doublethink: their deck has no Doublethink"
    )
    discards = [a.card for a in state.legal_actions(0) if isinstance(a, Discard)]
    assert discards == ["Encourage Dissent", "Propaganda", "Revolution"]
    state.apply(Discard("Encourage Dissent", player=0))
    assert state.view(None)["players"][0]["discard"][-1] == "Encourage Dissent"
    assert state.view(0)["could_hold"] == ["Propaganda", "Revolution"]
    assert refusal(state, Discard("Encourage Dissent", player=0)) == (
        "player 1 cannot hold Encourage Dissent: all 3 of their deck's Encourage Dissent cards "
        "are seen (3 in their discard pile)"
    )


def test_copies_on_the_stack_count_as_seen() -> None:
    state = table(hands="unknown")
    deck = ["Seize the Gears", "Propaganda", "Propaganda"]
    give(state, 0, deck=deck, unseen=2, discard=["Seize the Gears"], citizens="PP")
    play(state, "Seize the Gears", 0)
    pass_round(state, times=1)  # player 1 may respond now
    assert refusal(state, Play("Seize the Gears", player=0)) == (
        "player 1 cannot hold Seize the Gears: both of their deck's Seize the Gears cards are "
        "seen (1 in their discard pile, 1 on the stack)"
    )


def test_a_card_seen_played_turns_an_unseen_card_into_it() -> None:
    state = table(hands="unknown")
    give(state, 0, deck=["Seize the Gears", "Propaganda", "Propaganda"], unseen=2, citizens="PP")
    play(state, "Seize the Gears", 0)
    seat = state.seats[0]
    assert (seat.unseen, seat.hand_size(), seat.deck_size()) == (1, 1, 1)
    assert state.view(0)["could_hold"] == ["Propaganda"]
    pass_round(state, times=1)
    assert refusal(state, Play("Seize the Gears", player=0)).startswith(
        "player 1 cannot hold Seize the Gears: their deck's only Seize the Gears is seen"
    )


def test_a_known_copy_is_played_before_an_unseen_card() -> None:
    state = table(hands="unknown")
    give(state, 0, hand=["Seize the Gears"], deck=["Seize the Gears", "Propaganda"], unseen=1)
    give(state, 0, citizens="PP")
    play(state, "Seize the Gears", 0)
    seat = state.seats[0]
    assert (seat.hand.total(), seat.unseen) == (0, 1)
    assert state.view(0)["could_hold"] == ["Propaganda", "Seize the Gears"]


def test_a_produce_flip_is_chance_over_what_the_deck_could_hold() -> None:
    state = table(hands="unknown")
    give(state, 1, hand=["Seize the Gears"], deck=["Propaganda", "Doublethink", "Doublethink"])
    give(state, 1, deck=["Revolution"], unseen=2)
    set_table(state, active=1)
    play(state, "Seize the Gears", 1)
    pass_round(state)
    request = state.requests()[0]
    assert request.labels() == ["Doublethink", "Propaganda", "Revolution"]
    assert [option.probability for option in request.options] == [0.5, 0.25, 0.25]
    reveal(state, "Revolution")
    assert state.seats[1].discard[-1] == "Revolution"
    assert not state.could_hold(1, "Revolution")


def test_a_reshuffle_leaves_no_doubt_about_the_unseen_cards() -> None:
    state = table(hands="unknown")
    give(state, 0, hand=["Doublethink"], deck=["Propaganda", "Revolution"], unseen=2)
    give(state, 0, discard=["Propaganda"])
    play(state, "Doublethink", 0)
    pass_round(state)  # Doublethink draws two from an empty deck: its discard pile is shuffled
    assert state.to_act() == (CHANCE,)
    assert sorted(state.seats[0].hand.elements()) == ["Propaganda", "Revolution"]
    assert state.seats[0].unseen == 0 and state.seats[0].deck_size() == 1


def test_intercept_offers_every_card_the_victims_hand_could_hold() -> None:
    state = table(hands="unknown")
    give(state, 0, hand=["Intercept Transmission"], citizens="PP")
    give(state, 1, deck=["Seize the Gears", "Increase Production", "Propaganda"], unseen=1)
    play(state, "Intercept Transmission", 0, target=1)
    pass_round(state)
    assert state.view(0)["intercepted_hand_could_hold"] == [
        "Increase Production",
        "Propaganda",
        "Seize the Gears",
    ]
    plays = {a.card for a in state.legal_actions(0) if isinstance(a, Play)}
    assert plays == {"Increase Production", "Propaganda", "Seize the Gears"}
    assert "cannot hold Doublethink" in refusal(state, Play("Doublethink", source=1, player=0))
    state.apply(Play("Seize the Gears", source=1, player=0))
    assert state.seats[1].unseen == 0 and not state.could_hold(1, "Seize the Gears")


def test_a_search_offers_what_the_deck_could_hold_and_shows_the_card() -> None:
    state = table(hands="unknown")
    give(state, 0, hand=["Control the News Media"], citizens="PP")
    give(state, 0, deck=["Propaganda", "Counter Propaganda", "Revolution"], unseen=1)
    play(state, "Control the News Media", 0)
    pass_round(state)
    assert state.view(0)["deck_could_hold"] == ["Counter Propaganda", "Propaganda", "Revolution"]
    options = [a.option for a in state.legal_actions(0) if isinstance(a, Choose)]
    assert options == ["Counter Propaganda", "Propaganda", "done"]
    state.apply(Choose("Propaganda", player=0))
    assert state.seats[0].hand["Propaganda"] == 1 and state.seats[0].deck_size() == 1


def play_random(state: State, rng: random.Random, plies: int = 60_000) -> State:
    """Players (and chance) choose among the legal actions until the game ends."""
    for _ in range(plies):
        if state.is_over():
            break
        state.apply(pick_random_action(state, rng))
    return state


def test_a_table_mode_game_is_played_to_the_revolution() -> None:
    state = play_random(unknown(players=3, seed=11, max_turns=300), random.Random(11))
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "revolution", outcome
    assert any(isinstance(action, UnseenDraw) for action in state.history)
    assert replay(state.record()) == state


def test_a_known_hands_record_replays_in_table_mode() -> None:
    known = play_random(commissars.new_game({"players": 3, "max_turns": 40}, 5), random.Random(5))
    followed = replay(table_mode_record(known.record()))
    assert followed.unknown_hands and followed.is_over()
    assert followed.view(None) == known.view(None)
    assert [seat.hand for seat in followed.seats] == [seat.hand for seat in known.seats]


def test_a_table_mode_record_does_not_replay_with_known_hands() -> None:
    state = unknown()
    state.apply(UnseenDraw(player=CHANCE))
    record = state.record()
    known = type(record)(record.game, {**record.options, "hands": "known"}, 0, record.actions)
    with pytest.raises(BadRecord, match=r"with known hands .* names every card drawn"):
        replay(known)


def test_a_draw_the_table_saw_is_accepted_and_known() -> None:
    state = unknown()
    assert TopCard("Revolution", player=CHANCE) in state.legal_actions(CHANCE)
    state.apply(TopCard("Revolution", player=CHANCE))
    assert state.seats[0].hand["Revolution"] == 1 and state.seats[0].unseen == 0
    with pytest.raises(IllegalAction) as refused:
        state.apply(TopCard("Revolution", player=CHANCE))
    assert str(refused.value) == (
        "player 1's deck cannot hold Revolution: their deck's only Revolution is seen "
        "(1 known in their hand)"
    )


GAME_KINDS = [
    ({"decks": "preconstructed"}, 13),
    ({"decks": "random", "leaders": True}, 29),
    ({"decks": "draft", "leaders": True, "leader_deal": "random"}, 19),
]
"""Game options and a seed whose random game has a search that finds nothing in the deck."""


@pytest.mark.parametrize(("options", "seed"), GAME_KINDS, ids=["preconstructed", "random", "draft"])
def test_every_action_of_a_real_game_is_legal_with_its_draws_unseen(
    options: dict[str, object], seed: int
) -> None:
    """A known-hands game replayed ply by ply as the table sees it: nothing is refused,
    the table's view is the same, and every real hand is among the hands the table allows."""
    known_game = commissars.new_game({"players": 3, "max_turns": 45, **options}, seed)
    record = play_random(known_game, random.Random(seed)).record()
    seen = unseen_draws_record(record)
    assert sum(isinstance(a, UnseenDraw) for a in seen.actions) >= 21  # the starting hands
    known = replay(Record(record.game, record.options, record.seed, ()))
    table = replay(Record(seen.game, seen.options, seen.seed, ()))
    assert isinstance(known, CommissarsState) and isinstance(table, CommissarsState)
    real_actions, reshuffles, answered_done = iter(record.actions), 0, 0
    for as_seen in seen.actions:
        known_searches = bool(known.tasks) and isinstance(known.tasks[0], Search)
        reshuffles += sum(event.what == "reshuffle" for event in table.apply(as_seen))
        if as_seen == Choose("done", player=as_seen.player) and not known_searches:
            answered_done += 1  # the known deck held nothing to take: the engine skipped it
            continue
        known.apply(next(real_actions))
        if table.tasks and isinstance(table.tasks[0], Search) and table.tasks != known.tasks:
            continue  # the table asks a search the known deck could not answer: one more ply
        assert table.view(None) == known.view(None)
        for truth, followed in zip(known.seats, table.seats, strict=True):
            assert set(truth.hand) <= set(followed.holdable())
            assert all(followed.hand[name] <= truth.hand[name] for name in followed.hand)
            assert truth.hand_size() == followed.hand_size()
    assert next(real_actions, None) is None
    assert table.is_over() and table.outcome() == known.outcome()
    assert reshuffles >= 1  # a deck ran out: the unseen cards of that hand became known
    assert answered_done >= 1


def test_a_record_that_does_not_replay_is_refused_before_it_is_rewritten() -> None:
    record = Record("commissars", {"players": 2}, 0, (Play("Revolution", player=1),))
    with pytest.raises(BadRecord, match=r"action 1 \(play Revolution\) does not apply"):
        unseen_draws_record(record)


def test_the_draw_chance_waits_on_is_named() -> None:
    state = unknown()
    assert state.pending_draw() == 0
    draw_hands(state)
    assert state.pending_draw() is None  # the first Produce flip
