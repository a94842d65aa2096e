"""The response stack: windows, first in last out, counters, Doublespeak, Stifle's exceptions."""

from __future__ import annotations

import pytest

from games.commissars import Choose, EndPhase, Pass, Play, Retarget
from games.core import IllegalAction
from tests.commissars.commissars_table import give, pass_round, play, reveal, stack_cards, table


def test_the_rulebooks_blitz_timing_example_ends_with_anastasias_win() -> None:
    anastasia, boris = 0, 1
    state = table()
    give(state, anastasia, hand=["Revolution", "Stifle Free Speech", "Doublethink"],
         deck=["Military Action", "Our Glorious Leader"], citizens="CCCCBP")  # fmt: skip
    give(state, boris, hand=["Stifle Free Speech", "Assassinate"], citizens="PB")
    assert state.seats[anastasia].points() == 15
    assert state.to_act() == (anastasia, boris)  # Boris could Assassinate as a Blitz already

    revolution = play(state, "Revolution", anastasia)
    assert state.view(None)["window"]["next"] == boris
    stifle_b = play(state, "Stifle Free Speech", boris, entry=revolution)
    stifle_a = play(state, "Stifle Free Speech", anastasia, entry=stifle_b)
    play(state, "Assassinate", boris, target=anastasia, kind="C", blitz=True)
    assert state.seats[boris].citizens["P"] == 0  # the Blitz cost, paid at once
    play(state, "Doublethink", anastasia)
    pass_round(state)  # Doublethink resolves: she draws two
    reveal(state, "Military Action", "Our Glorious Leader")
    assert state.seats[anastasia].hand == {"Military Action": 1, "Our Glorious Leader": 1}
    pass_round(state)  # Assassinate resolves: a Commissar to the Gulag
    assert state.seats[anastasia].points() == 12
    assert stack_cards(state) == ["Revolution", "Stifle Free Speech", "Stifle Free Speech"]
    state.apply(Pass(player=boris))
    play(state, "Military Action", anastasia)
    pass_round(state)
    assert state.actions_left == 1
    state.apply(Pass(player=boris))
    play(state, "Our Glorious Leader", anastasia)  # her bonus Action, inside the window
    pass_round(state)
    assert state.seats[anastasia].points() == 15
    pass_round(state)  # her Stifle counters Boris's
    assert [e.id for e in state.stack] == [revolution]
    assert state.seats[boris].discard[-1] == "Stifle Free Speech"
    assert stifle_a not in [e.id for e in state.stack]
    pass_round(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (anastasia,)
    assert outcome.reason == "revolution"


def test_the_window_starts_after_the_player_and_closes_after_everyone_passed() -> None:
    state = table(players=4)
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 4)
    play(state, "Seize the Gears", 0)
    order = []
    for _ in range(3):
        order.append(state.to_act()[0])
        state.apply(Pass(player=order[-1]))
    assert order == [1, 2, 3]
    assert stack_cards(state) == ["Seize the Gears"]
    assert state.view(None)["window"]["resolves_after_passes"] == 1
    state.apply(Pass(player=0))
    assert stack_cards(state) == [] and state.resolving is not None  # waiting for its flips
    reveal(state, "Propaganda", "Propaganda")
    assert state.seats[0].citizens["P"] == 2


def test_a_response_resets_the_window_and_resolves_first() -> None:
    state = table(players=3)
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 3)
    give(state, 2, hand=["Doublethink"], deck=["Propaganda"] * 3)
    play(state, "Seize the Gears", 0)
    state.apply(Pass(player=1))
    play(state, "Doublethink", 2)
    assert state.to_act() == (0,)
    pass_round(state)
    reveal(state, "Propaganda", "Propaganda")  # Doublethink first: player 3 draws
    assert state.seats[2].hand.total() == 2
    assert state.to_act() == (1,)  # the window opens again for Seize the Gears
    assert state.seats[0].citizens["P"] == 0


def test_a_countered_card_goes_to_its_players_discard_and_does_nothing() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 3)
    give(state, 1, hand=["Stifle Free Speech"])
    seize = play(state, "Seize the Gears", 0)
    play(state, "Stifle Free Speech", 1, entry=seize)
    pass_round(state)
    assert state.seats[0].discard == ["Seize the Gears"]
    assert state.stack == [] and state.seats[0].citizens["P"] == 0
    assert state.to_act() == (0,)


def test_the_counter_itself_goes_to_its_own_discard() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 3)
    give(state, 1, hand=["Stifle Free Speech"])
    play(state, "Stifle Free Speech", 1, entry=play(state, "Seize the Gears", 0))
    pass_round(state)
    assert state.seats[1].discard == ["Stifle Free Speech"]


def test_counters_of_counters_let_the_first_card_resolve() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears", "Stifle Free Speech"], deck=["Propaganda"] * 3)
    give(state, 1, hand=["Stifle Free Speech"])
    seize = play(state, "Seize the Gears", 0)
    first = play(state, "Stifle Free Speech", 1, entry=seize)
    play(state, "Stifle Free Speech", 0, entry=first)
    pass_round(state)
    assert stack_cards(state) == ["Seize the Gears"]
    pass_round(state)
    reveal(state, "Propaganda", "Propaganda")
    assert state.seats[0].citizens["P"] == 2


def test_counter_propaganda_counters_only_propaganda_cards() -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Propaganda"])
    give(state, 1, hand=["Counter Propaganda"], citizens="P")
    propaganda = play(state, "Propaganda", 0, target=1)
    assert Play("Counter Propaganda", entry=propaganda, player=1) in state.legal_actions(1)
    play(state, "Counter Propaganda", 1, entry=propaganda)
    pass_round(state)
    assert state.seats[1].citizens["P"] == 1 and state.seats[0].discard == ["Propaganda"]

    state = table()
    give(state, 0, hand=["Seize the Gears"], deck=["Propaganda"] * 2)
    give(state, 1, hand=["Counter Propaganda"])
    seize = play(state, "Seize the Gears", 0)
    with pytest.raises(IllegalAction):
        play(state, "Counter Propaganda", 1, entry=seize)


def test_a_revolution_at_twenty_points_cannot_be_countered() -> None:
    state = table()
    give(state, 0, hand=["Revolution"], citizens="CCCCCCB")
    give(state, 1, hand=["Stifle Free Speech"])
    revolution = play(state, "Revolution", 0)
    assert state.stack[-1].uncounterable
    assert state.legal_actions(1) == [Pass(player=1)]
    with pytest.raises(IllegalAction):
        play(state, "Stifle Free Speech", 1, entry=revolution)
    state.apply(Pass(player=1))
    state.apply(Pass(player=0))
    assert state.outcome() is not None and state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_a_revolution_below_twenty_can_be_countered_and_below_fifteen_cannot_be_played() -> None:
    state = table()
    give(state, 0, hand=["Revolution"], citizens="CCCCCB")
    give(state, 1, hand=["Stifle Free Speech"])
    revolution = play(state, "Revolution", 0)
    play(state, "Stifle Free Speech", 1, entry=revolution)
    pass_round(state)
    assert state.outcome() is None and state.seats[0].discard == ["Revolution"]

    state = table()
    give(state, 0, hand=["Revolution"], citizens="CCCCB")
    with pytest.raises(IllegalAction):
        play(state, "Revolution", 0)


def test_a_revolution_fails_if_its_player_drops_below_fifteen_before_it_resolves() -> None:
    state = table()
    give(state, 0, hand=["Revolution"], citizens="CCCCCP")
    give(state, 1, hand=["Hire Assassin"], citizens="P")
    play(state, "Revolution", 0)
    play(state, "Hire Assassin", 1, target=0, kind="C", blitz=True)
    pass_round(state)
    pass_round(state)
    assert state.outcome() is None and state.seats[0].discard == ["Revolution"]


def test_stifle_cannot_touch_disarm_the_citizens_or_the_cards_after_it() -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Disarm the Citizens", "Seize the Gears"], deck=["Propaganda"] * 3)
    give(state, 1, hand=["Stifle Free Speech"])
    disarm = play(state, "Disarm the Citizens", 0)
    assert state.legal_actions(1) == [Pass(player=1)]
    with pytest.raises(IllegalAction):
        play(state, "Stifle Free Speech", 1, entry=disarm)
    pass_round(state)
    state.apply(EndPhase(player=0))
    seize = play(state, "Seize the Gears", 0)
    with pytest.raises(IllegalAction):
        play(state, "Stifle Free Speech", 1, entry=seize)
    assert state.legal_actions(1) == [Pass(player=1)]


def test_a_countered_disarm_shields_nothing() -> None:
    """A countered card has no effect, so the cards after a countered Disarm may be Stifled."""
    state = table(phase="propaganda")
    give(state, 0, hand=["Disarm the Citizens", "Seize the Gears"], deck=["Propaganda"] * 4)
    give(state, 1, hand=["Counter Propaganda", "Stifle Free Speech"])
    disarm = play(state, "Disarm the Citizens", 0)
    play(state, "Counter Propaganda", 1, entry=disarm)
    pass_round(state)
    assert state.stack == [] and state.seats[0].discard == ["Disarm the Citizens"]
    state.apply(EndPhase(player=0))
    seize = play(state, "Seize the Gears", 0)
    assert Play("Stifle Free Speech", entry=seize, player=1) in state.legal_actions(1)


def test_countering_a_second_disarm_leaves_the_first_ones_shield() -> None:
    state = table(phase="propaganda")
    disarms = ["Disarm the Citizens"] * 2
    give(state, 0, hand=[*disarms, "Seize the Gears"], deck=["Propaganda"] * 4)
    give(state, 1, hand=["Counter Propaganda", "Stifle Free Speech"])
    play(state, "Disarm the Citizens", 0)
    pass_round(state)  # the first Disarm resolves
    second = play(state, "Disarm the Citizens", 0)
    play(state, "Counter Propaganda", 1, entry=second)
    pass_round(state)
    state.apply(EndPhase(player=0))
    seize = play(state, "Seize the Gears", 0)
    assert Play("Stifle Free Speech", entry=seize, player=1) not in state.legal_actions(1)


def test_stifle_may_target_cards_played_before_disarm() -> None:
    state = table(phase="propaganda")
    give(state, 0, hand=["Disarm the Citizens", "Propaganda"])
    give(state, 1, hand=["Stifle Free Speech"], citizens="P")
    propaganda = play(state, "Propaganda", 0, target=1)
    assert Play("Stifle Free Speech", entry=propaganda, player=1) in state.legal_actions(1)


def test_doublespeak_duplicates_a_revolution_that_must_be_countered_twice() -> None:
    state = table()
    give(state, 0, hand=["Revolution", "Doublespeak"], citizens="CCCCCP")
    give(state, 1, hand=["Stifle Free Speech"])
    revolution = play(state, "Revolution", 0)
    state.apply(Pass(player=1))
    play(state, "Doublespeak", 0, entry=revolution)
    pass_round(state)  # the duplicate goes on top, owned by player 1 (seat 0)
    copy = state.stack[-1]
    assert copy.card == "Revolution" and copy.copy and copy.player == 0
    play(state, "Stifle Free Speech", 1, entry=revolution)  # counters the original only
    pass_round(state)
    pass_round(state)
    assert state.outcome() is not None and state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_a_doublespeak_duplicate_of_a_counter_may_choose_a_new_target() -> None:
    state = table(players=3)
    give(state, 0, hand=["Seize the Gears", "Doublespeak"], deck=["Propaganda"] * 3)
    give(state, 1, hand=["Stifle Free Speech"])
    give(state, 2, hand=["Doublethink"], deck=["Propaganda"] * 3)
    seize = play(state, "Seize the Gears", 0)
    stifle = play(state, "Stifle Free Speech", 1, entry=seize)
    doublethink = play(state, "Doublethink", 2)
    play(state, "Doublespeak", 0, entry=stifle)
    pass_round(state)
    assert state.to_act() == (1,)  # the owner of the duplicate chooses its target
    choices = state.legal_actions(1)
    assert Retarget(entry=doublethink, player=1) in choices
    assert Retarget(entry=seize, player=1) in choices
    state.apply(Retarget(entry=doublethink, player=1))
    pass_round(state)
    assert stack_cards(state) == ["Seize the Gears", "Stifle Free Speech"]
    assert state.seats[2].discard == ["Doublethink"]
    assert state.seats[0].discard == ["Doublespeak"]
    assert state.seats[1].discard == []  # a duplicate leaves no card behind


def test_hire_assassin_doubled_does_not_sacrifice_again() -> None:
    state = table()
    give(state, 0, hand=["Hire Assassin"], citizens="PP")
    give(state, 1, hand=["Doublespeak"], citizens="CC")
    assassin = play(state, "Hire Assassin", 0, target=1, kind="C", blitz=True)
    play(state, "Doublespeak", 1, entry=assassin)
    pass_round(state)
    state.apply(Retarget(target=1, kind="C", player=0))
    pass_round(state)
    pass_round(state)
    assert state.seats[0].citizens["P"] == 1  # one sacrifice only
    assert state.seats[1].citizens["C"] == 0  # but two Commissars gone
    assert state.actions_left == 1  # played as a Blitz, it used no Action


def test_hire_assassins_sacrifice_stays_in_the_gulag_if_countered() -> None:
    state = table()
    give(state, 0, hand=["Hire Assassin"], citizens="P")
    give(state, 1, hand=["Stifle Free Speech"], citizens="C")
    gulag_p = state.gulag["P"]
    assassin = play(state, "Hire Assassin", 0, target=1, kind="C", blitz=True)
    assert state.gulag["P"] == gulag_p + 1
    play(state, "Stifle Free Speech", 1, entry=assassin)
    pass_round(state)
    assert state.stack == [] and state.seats[0].discard == ["Hire Assassin"]
    assert state.seats[0].citizens["P"] == 0 and state.gulag["P"] == gulag_p + 1
    assert state.seats[1].citizens["C"] == 1


def test_define_the_truth_changes_enforce_equalitys_chosen_type() -> None:
    state = table(players=3)
    give(state, 0, hand=["Enforce Equality"])
    give(state, 1, hand=["Define the Truth"], citizens="BB")
    give(state, 2, citizens="PP")
    enforce = play(state, "Enforce Equality", 0, kind="B")
    play(state, "Define the Truth", 1, entry=enforce, kind="P")
    pass_round(state)
    assert state.stack[-1].kind == "P"
    pass_round(state)
    assert state.seats[1].citizens == {"P": 0, "B": 2, "C": 0}
    assert state.seats[2].citizens["P"] == 1


def test_producing_is_not_playing_and_opens_no_window() -> None:
    state = table(phase="action")
    give(state, 0, hand=["Increase Production"], deck=["Propaganda"] * 6)
    give(state, 1, deck=["Propaganda", "Counter Propaganda"])
    state.apply(EndPhase(player=0))  # to the next player, whose turn produces two
    reveal(state, "Propaganda", "Counter Propaganda")
    assert state.window is None and state.stack == []
    assert state.seats[1].citizens == {"P": 1, "B": 1, "C": 0}
    assert state.played == [0, 0]
    assert state.phase == "discard" and state.to_act() == (1,)


def test_choices_during_resolution_belong_to_the_deciding_player() -> None:
    state = table()
    give(state, 0, hand=["Prove by Assertion"], discard=["Propaganda"])
    play(state, "Prove by Assertion", 0)
    pass_round(state)
    assert state.to_act() == (0,)
    assert state.legal_actions(0) == [Choose("Propaganda", player=0)]


def test_doublespeak_may_not_duplicate_a_doublespeak() -> None:
    state = table()
    give(state, 0, hand=["Seize the Gears", "Doublespeak"], deck=["Propaganda"] * 2)
    give(state, 1, hand=["Doublespeak"])
    seize = play(state, "Seize the Gears", 0)
    first = play(state, "Doublespeak", 1, entry=seize)
    offered = {a.entry for a in state.legal_actions(0) if isinstance(a, Play)}
    assert offered == {seize}
    with pytest.raises(IllegalAction):
        play(state, "Doublespeak", 0, entry=first)
