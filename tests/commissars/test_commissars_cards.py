"""Every card effect and FAQ ruling, and every Faction Leader trigger."""

from __future__ import annotations

import pytest

from games.commissars import Choose, Discard, EndPhase, Pass, Play
from games.core import IllegalAction
from tests.commissars.commissars_table import give, pass_round, play, reveal, set_table, table


def resolve_alone(state, card: str, player: int = 0, **fields: object) -> None:  # type: ignore[no-untyped-def]
    """Play a card and let everyone pass until it resolves."""
    play(state, card, player, **fields)
    pass_round(state)


def test_propaganda_takes_a_proletariat_from_another_player() -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, citizens="PB")
    resolve_alone(state, "Propaganda", target=1)
    assert state.seats[0].citizens["P"] == 1 and state.seats[1].citizens == {"P": 0, "B": 1, "C": 0}
    assert state.seats[0].discard == ["Propaganda"]


def test_propaganda_only_in_the_propaganda_phase_and_actions_only_in_the_action_phase() -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Propaganda", "Seize the Gears"])
    assert not any(
        isinstance(a, Play) and a.card == "Seize the Gears" for a in state.legal_actions()
    )
    state.apply(EndPhase(player=0))
    assert not any(isinstance(a, Play) and a.card == "Propaganda" for a in state.legal_actions())
    with pytest.raises(IllegalAction):
        play(state, "Propaganda", 0, target=1)


def test_one_action_per_turn() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears", "Our Glorious Leader"], deck=["Propaganda"] * 3)
    resolve_alone(state, "Seize the Gears")
    reveal(state, "Propaganda", "Propaganda")
    assert state.actions_left == 0
    assert [a.notation() for a in state.legal_actions(0)] == ["end phase"]


def test_increase_production_counts_the_cards_played_before_it_this_turn() -> None:
    state = table(phase="propaganda")
    give(
        state,
        0,
        hand=["Propaganda", "Propaganda", "Increase Production"],
        deck=["Seize the Gears"] * 3,
    )
    resolve_alone(state, "Propaganda", target=1)
    resolve_alone(state, "Propaganda", target=1)
    state.apply(EndPhase(player=0))
    resolve_alone(state, "Increase Production")
    reveal(state, "Seize the Gears", "Seize the Gears")
    assert state.to_act() == (0,)  # exactly two produced
    assert state.seats[0].citizens["C"] == 2


def test_cull_the_bourgeoisie_sends_a_bourgeoisie_or_three_cards() -> None:
    state = table(players=3)
    give(state, 0, hand=["Cull the Bourgeoisie"], citizens="B")
    give(state, 1, citizens="BB")
    give(state, 2, hand=["Propaganda", "Doublethink", "Revolution", "Counter Propaganda"])
    resolve_alone(state, "Cull the Bourgeoisie")
    assert state.seats[1].citizens["B"] == 1 and state.seats[0].citizens["B"] == 1
    assert state.to_act() == (2,)
    for name in ("Propaganda", "Doublethink", "Revolution"):
        state.apply(Discard(name, player=2))
    assert state.seats[2].hand == {"Counter Propaganda": 1}
    assert state.to_act() == (0,)


def test_control_the_news_media_takes_up_to_two_propaganda_cards_and_never_the_discard() -> None:
    state = table()
    give(
        state,
        0,
        hand=["Control the News Media"],
        deck=["Propaganda", "Counter Propaganda", "Doublethink"],
    )
    resolve_alone(state, "Control the News Media")
    assert state.view(0)["deck"] == ["Counter Propaganda", "Doublethink", "Propaganda"]
    assert "deck" not in state.view(1)
    options = [a.option for a in state.legal_actions(0)]  # type: ignore[attr-defined]
    assert options == ["Counter Propaganda", "Propaganda", "done"]
    state.apply(Choose("Propaganda", player=0))
    state.apply(Choose("Counter Propaganda", player=0))
    assert state.seats[0].hand == {"Propaganda": 1, "Counter Propaganda": 1}
    assert state.seats[0].deck == {"Doublethink": 1}

    state = table()
    give(state, 0, hand=["Control the News Media"], discard=["Propaganda"])
    resolve_alone(state, "Control the News Media")
    assert state.seats[0].hand.total() == 0 and state.to_act() == (0,)
    assert state.legal_actions(0) == [EndPhase(player=0)]


def test_assassinate_sends_another_players_citizen_and_may_be_a_blitz() -> None:
    state = table()
    give(state, 0, hand=["Assassinate"], citizens="PC")
    give(state, 1, citizens="C")
    targets = {(a.target, a.kind, a.blitz) for a in state.legal_actions(0) if isinstance(a, Play)}
    assert targets == {(1, "C", False), (1, "C", True)}
    resolve_alone(state, "Assassinate", target=1, kind="C")
    assert state.seats[1].citizens["C"] == 0 and state.actions_left == 0


def test_hire_assassin_may_send_any_citizen_even_your_own() -> None:
    state = table()
    give(state, 0, hand=["Hire Assassin"], citizens="C")
    assert Play("Hire Assassin", target=0, kind="C", player=0) in state.legal_actions(0)


def test_hire_assassin_as_a_blitz_cannot_aim_at_its_own_sacrifice() -> None:
    """The sacrificed Proletariat is in the Gulag before the card is played (FAQ)."""
    state = table()
    give(state, 0, citizens="C")
    give(state, 1, hand=["Hire Assassin"], citizens="P")
    offered = {(a.target, a.kind, a.blitz) for a in state.legal_actions(1) if isinstance(a, Play)}
    assert offered == {(0, "C", True)}
    with pytest.raises(IllegalAction):
        state.apply(Play("Hire Assassin", target=1, kind="P", blitz=True, player=1))
    give(state, 1, citizens="P")  # with a second Proletariat, the other one is a target
    assert Play("Hire Assassin", 1, "P", -1, True, player=1) in state.legal_actions(1)


def test_encourage_dissent_lets_each_player_choose_their_own_discards() -> None:
    state = table(players=3)
    give(state, 0, hand=["Encourage Dissent"])
    give(state, 1, hand=["Propaganda", "Revolution", "Doublethink"])
    give(state, 2, hand=["Propaganda"])
    resolve_alone(state, "Encourage Dissent")
    assert state.to_act() == (1,)
    state.apply(Discard("Doublethink", player=1))
    state.apply(Discard("Propaganda", player=1))
    assert state.to_act() == (2,)
    state.apply(Discard("Propaganda", player=2))
    assert state.seats[1].hand == {"Revolution": 1} and state.to_act() == (0,)


def test_intercept_transmission_plays_an_action_card_that_goes_to_its_owners_discard() -> None:
    state = table()
    give(state, 0, hand=["Intercept Transmission"], deck=["Propaganda"] * 3)
    give(state, 1, hand=["Seize the Gears", "Revolution"])
    resolve_alone(state, "Intercept Transmission", target=1)
    assert state.view(0)["intercepted_hand"] == ["Revolution", "Seize the Gears"]
    assert "intercepted_hand" not in state.view(1)
    offered = state.legal_actions(0)
    assert Play("Seize the Gears", source=1, player=0) in offered  # an Action, with no Action left
    assert Play("Revolution", source=1, player=0) not in offered  # too few points
    state.apply(Play("Seize the Gears", source=1, player=0))
    pass_round(state)
    reveal(state, "Propaganda", "Propaganda")
    assert state.seats[0].citizens["P"] == 2
    assert state.seats[1].discard == ["Seize the Gears"]
    assert state.seats[0].discard == ["Intercept Transmission", "Propaganda", "Propaganda"]


def test_prove_by_assertion_never_retrieves_another_prove_by_assertion() -> None:
    state = table()
    give(state, 0, hand=["Prove by Assertion"], discard=["Prove by Assertion", "Doublethink"])
    resolve_alone(state, "Prove by Assertion")
    assert state.legal_actions(0) == [Choose("Doublethink", player=0)]
    state.apply(Choose("Doublethink", player=0))
    assert state.seats[0].hand == {"Doublethink": 1}
    assert state.seats[0].discard == ["Prove by Assertion", "Prove by Assertion"]


def test_seize_the_gears_produces_two_and_can_be_stifled() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears"], deck=["Cull the Bourgeoisie", "Propaganda"])
    give(state, 1, hand=["Stifle Free Speech"])
    seize = play(state, "Seize the Gears", 0)
    assert Play("Stifle Free Speech", entry=seize, player=1) in state.legal_actions(1)
    pass_round(state)
    reveal(state, "Cull the Bourgeoisie", "Propaganda")
    assert state.seats[0].citizens == {"P": 1, "B": 0, "C": 1}


def test_upload_red_error_without_proletariat_has_no_penalty() -> None:
    state = table(players=3)
    give(state, 0, hand=["Upload Red Error"])
    give(state, 1, citizens="PB", hand=["Propaganda"])
    give(state, 2, citizens="B", hand=["Propaganda"])
    resolve_alone(state, "Upload Red Error")
    assert state.seats[1].citizens == {"P": 0, "B": 1, "C": 0}
    assert state.seats[2].citizens == {"P": 0, "B": 1, "C": 0}
    assert state.seats[2].hand.total() == 1 and state.to_act() == (0,)


def test_enforce_equality_hits_only_players_with_more_of_the_type() -> None:
    state = table(players=3)
    give(state, 0, hand=["Enforce Equality"], citizens="P")
    give(state, 1, citizens="PP")
    give(state, 2, citizens="P")
    resolve_alone(state, "Enforce Equality", kind="P")
    assert [seat.citizens["P"] for seat in state.seats] == [1, 1, 1]


def test_our_glorious_leader_takes_a_commissar_only_while_the_gulag_has_one() -> None:
    state = table()
    give(state, 0, hand=["Our Glorious Leader"])
    set_table(state, gulag={**state.gulag, "C": 0})
    resolve_alone(state, "Our Glorious Leader")
    assert state.seats[0].citizens["C"] == 0


def test_military_action_in_another_players_turn_gives_no_action() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 2)
    give(state, 1, hand=["Military Action"])
    play(state, "Seize the Gears", 0)
    play(state, "Military Action", 1)
    pass_round(state)
    assert state.actions_left == 0


# -- Faction Leaders -----------------------------------------------------------


def test_gorobotchev_draws_when_a_citizen_is_taken() -> None:
    state = table(leaders=["", "gorobotchev"], phase="propaganda")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, citizens="P", deck=["Doublethink"])
    resolve_alone(state, "Propaganda", target=1)
    reveal(state, "Doublethink")
    assert state.seats[1].hand == {"Doublethink": 1}


def test_gorobotchev_produces_when_discarding_counter_propaganda() -> None:
    state = table(leaders=["gorobotchev"], phase="discard")
    give(state, 0, hand=["Counter Propaganda", "Propaganda"], deck=["Cull the Bourgeoisie"])
    state.apply(Discard("Propaganda", player=0))
    assert state.to_act() == (0,)
    state.apply(Discard("Counter Propaganda", player=0))
    reveal(state, "Cull the Bourgeoisie")
    assert state.seats[0].citizens["C"] == 1


def test_androidopov_hand_size_is_fixed_when_the_discard_phase_begins() -> None:
    state = table(leaders=["", "androidopov"])
    give(state, 1, hand=["Propaganda"] * 5, discard=["Counter Propaganda"] * 2 + ["Doublethink"])
    state.apply(EndPhase(player=0))
    reveal(state, "Counter Propaganda", "Doublethink")  # the Produce flips reshuffle the discard
    assert state.hand_limit == 7 + 1  # one Counter Propaganda is back in the discard pile
    state = table(leaders=["", "androidopov"])
    give(state, 1, hand=["Propaganda"] * 5, deck=["Seize the Gears"] * 2,
         discard=["Counter Propaganda"] * 2 + ["Doublethink"])  # fmt: skip
    state.apply(EndPhase(player=0))
    reveal(state, "Seize the Gears", "Seize the Gears")
    assert state.hand_limit == 9
    state.apply(EndPhase(player=1))  # draws: the deck is empty, so the discard is shuffled
    reveal(state, "Counter Propaganda", "Counter Propaganda", "Doublethink", "Seize the Gears")
    assert state.to_act() == (1,) and state.seats[1].hand.total() == 9
    assert state.seats[1].discard == []  # the Counter Propaganda cards left the discard pile
    assert state.hand_limit == 9  # but the hand size stays: no discarding back down


def test_androidopov_may_keep_more_than_seven_cards() -> None:
    state = table(leaders=["androidopov"], phase="discard")
    set_table(state, hand_limit=9)
    give(state, 0, hand=["Propaganda"] * 9)
    assert EndPhase(player=0) in state.legal_actions(0)
    plain = table(phase="discard")
    give(plain, 0, hand=["Propaganda"] * 9)
    assert EndPhase(player=0) not in plain.legal_actions(0)


def test_automarx_may_produce_or_draw_when_countered() -> None:
    state = table(leaders=["automarx"])
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"])
    give(state, 1, hand=["Stifle Free Speech"])
    play(state, "Stifle Free Speech", 1, entry=play(state, "Seize the Gears", 0))
    pass_round(state)
    assert [a.option for a in state.legal_actions(0)] == ["produce", "draw", "none"]  # type: ignore[attr-defined]
    state.apply(Choose("produce", player=0))
    reveal(state, "Propaganda")
    assert state.seats[0].citizens["P"] == 1


def test_artificial_stalintelligence_gains_and_draws_for_every_bourgeoisie_sent() -> None:
    state = table(players=3, leaders=["", "stalintelligence"])
    give(state, 0, hand=["Cull the Bourgeoisie"])
    give(state, 1, citizens="B", deck=["Propaganda"] * 2)
    give(state, 2, citizens="B")
    resolve_alone(state, "Cull the Bourgeoisie")
    reveal(state, "Propaganda", "Propaganda")
    assert state.seats[1].citizens == {"P": 2, "B": 0, "C": 0}
    assert state.seats[1].hand.total() == 2


def test_simulenin_may_draw_when_playing_a_counter_card() -> None:
    state = table(leaders=["", "simulenin"], phase="propaganda")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, hand=["Counter Propaganda"], deck=["Doublethink"], citizens="P")
    play(state, "Counter Propaganda", 1, entry=play(state, "Propaganda", 0, target=1))
    assert state.legal_actions(1) == [Choose("draw", player=1), Choose("none", player=1)]
    state.apply(Choose("draw", player=1))
    reveal(state, "Doublethink")
    assert state.seats[1].hand == {"Doublethink": 1} and state.to_act() == (0,)


def test_computin_produces_or_draws_two_when_its_card_sends_citizens() -> None:
    state = table(leaders=["computin"])
    give(state, 0, hand=["Hire Assassin"], deck=["Propaganda"] * 2)
    give(state, 1, citizens="C")
    resolve_alone(state, "Hire Assassin", target=1, kind="C")
    assert state.legal_actions(0) == [Choose("produce", player=0), Choose("draw", player=0)]
    state.apply(Choose("draw", player=0))
    reveal(state, "Propaganda", "Propaganda")
    assert state.seats[0].hand.total() == 2


def test_computin_does_not_count_a_blitz_sacrifice() -> None:
    state = table(leaders=["computin"])
    give(state, 0, hand=["Hire Assassin"], citizens="P")
    give(state, 1, citizens="C")
    play(state, "Hire Assassin", 0, target=1, kind="C", blitz=True)
    seats = state.position().seats
    seats[1].citizens["C"] = 0  # the target is gone before it resolves
    set_table(state, seats=seats, gulag={**state.gulag, "C": state.gulag["C"] + 1})
    pass_round(state)
    assert state.to_act() == (0,) and state.legal_actions(0)[-1] == EndPhase(player=0)


def test_pass_is_the_only_answer_without_a_response_card() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 2)
    give(state, 1, hand=["Propaganda", "Revolution"])
    play(state, "Seize the Gears", 0)
    assert state.legal_actions(1) == [Pass(player=1)]
