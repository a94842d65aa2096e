"""The game table for games the camera does not read: dice, typed answers, seat buttons.

Every answer names the request it answers (or fits the one open); whatever
the table refuses is said in the status and changes neither the game nor the
journal.
"""

from __future__ import annotations

import random
from pathlib import Path

from cogtable.game_choice import GameChoice, refereeable
from cogtable.inputs import ButtonPressed, ConsoleCommand, DiceRolled
from cogtable.sensing import Asked
from cogtable.sensors import Sensors
from cogtable.table import CHOICE_SHOWN_SECONDS, GameTable
from cogtable.tables.base import WHITE
from games.cog.actions import DrawLetter, RollDie
from games.commissars import Pass
from games.core import CHANCE, State, replay
from hardware.leds import SOLID
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import lit_seats, make_table, random_step, sources

COG = GameChoice("cog", {"players": 2})
DICE = Sensors(dice=True)


def cog_table(tmp_path: Path) -> GameTable:
    table, _ = make_table(tmp_path / "journal.sqlite3", COG, DICE)
    return table


def journaled(table: GameTable) -> list[object]:
    return list(table.game.record().actions)


def only(table: GameTable) -> Asked:
    (asked,) = table.asking()
    return asked


def answer(table: GameTable, rng: random.Random, now: float) -> None:
    """Answer the first open request as a person at the table would, through the console."""
    asked = table.asking()[0]
    state = table.state
    action = random_step(state, rng)
    if asked.request.kind == "choice":
        text = next(o.label for o in asked.request.options if o.action == action)
        table.handle(ConsoleCommand(text, seat=asked.request.player, answers=asked.key), now)
    else:
        text = next(o.label for o in asked.request.options if o.action == action)
        table.handle(ConsoleCommand(text, answers=asked.key), now)
    assert table.state.history[-1] == action, table.status().message


def to_player_choice(table: GameTable, rng: random.Random) -> Asked:
    """Answer chance by the console (dice by the die) until a player is asked to choose."""
    now = 1.0
    while table.asking()[0].request.kind != "choice":
        asked = table.asking()[0]
        if asked.route == "dice":
            table.handle(DiceRolled(0, rng.randint(1, 6)), now)
        else:
            answer(table, rng, now)
        now += 1
    return table.asking()[0]


def unchanged(table: GameTable, before: list[object], ply: int) -> None:
    assert journaled(table) == before, "a refused input was journaled"
    assert len(table.state.history) == ply == table.status().ply


# -- dice --------------------------------------------------------------------------------


def test_a_roll_answers_the_open_die_request_once(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    asked = only(table)
    assert (asked.request.kind, asked.route) == ("die", "dice")
    table.handle(DiceRolled(0, 4), 1.0)
    assert journaled(table) == [RollDie(4, player=CHANCE)]
    assert sources(table) == ["button"]
    assert only(table).request.kind == "draw", "the goal die is followed by letters"
    table.handle(DiceRolled(0, 2), 2.0)  # rolled again: nothing asks for a die now
    assert journaled(table) == [RollDie(4, player=CHANCE)]
    assert "not waiting for a roll" in table.status().message


def test_every_roll_of_a_whole_game_counts_exactly_when_a_die_is_asked(tmp_path: Path) -> None:
    table, rng = cog_table(tmp_path), random.Random(3)
    rolls = back_to_back = 0
    rolled_last = False
    for now in range(2000):
        if table.state.is_over():
            break
        die_open = [ask for ask in table.asking() if ask.route == "dice"]
        before, value = len(journaled(table)), rng.randint(1, 6)
        table.handle(DiceRolled(0, value), float(now))
        assert len(journaled(table)) - before == len(die_open)
        if die_open:
            assert table.state.history[-1] == RollDie(value, player=CHANCE)
            rolls += 1
            back_to_back += rolled_last
            rolled_last = True  # the next roll goes to the next die, if one is asked
            continue
        rolled_last = False
        answer(table, rng, float(now))
    assert table.state.is_over(), "the game was played to its end"
    assert rolls >= 5 and back_to_back >= 1, (rolls, back_to_back)
    kinds = {type(a).__name__: s for a, s in zip(journaled(table), sources(table), strict=True)}
    assert kinds["RollDie"] == "button" and kinds["DrawLetter"] == "console"
    assert replay(table.game.record()).outcome() == table.state.outcome()


def test_a_face_the_die_cannot_show_is_refused(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    for value in (0, 7, -3):
        table.handle(DiceRolled(0, value), 1.0)
        unchanged(table, [], 0)
        assert f"shows {value}" in table.status().message
    table.handle(DiceRolled(0, 6), 2.0)
    assert journaled(table) == [RollDie(6, player=CHANCE)]


def test_a_roll_at_the_console_answers_the_die_when_the_table_has_no_dice(
    tmp_path: Path,
) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", COG, Sensors())
    assert only(table).route == "console"
    table.handle(DiceRolled(0, 3), 1.0)
    unchanged(table, [], 0)
    table.handle(ConsoleCommand("3", answers=only(table).key), 2.0)
    assert journaled(table) == [RollDie(3, player=CHANCE)]
    assert sources(table) == ["console"]


# -- typed answers -------------------------------------------------------------------------


def test_an_answer_to_a_question_no_longer_asked_changes_nothing(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    die_key = only(table).key
    table.handle(DiceRolled(0, 5), 1.0)
    before = journaled(table)
    table.handle(ConsoleCommand("5", answers=die_key), 2.0)
    unchanged(table, before, 1)
    assert "no longer asked" in table.status().message
    letter_key = only(table).key
    table.handle(ConsoleCommand("E", answers=letter_key), 3.0)
    assert journaled(table)[-1] == DrawLetter("E", player=CHANCE)
    table.handle(ConsoleCommand("E", answers=letter_key), 4.0)  # typed twice
    unchanged(table, [*before, DrawLetter("E", player=CHANCE)], 2)
    table.handle(ConsoleCommand("A", answers="99/0/chance"), 5.0)  # another game's key
    unchanged(table, [*before, DrawLetter("E", player=CHANCE)], 2)


def test_a_letter_the_bag_cannot_give_is_refused_with_the_choices(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    table.handle(DiceRolled(0, 6), 1.0)
    table.handle(ConsoleCommand("J", answers=only(table).key), 2.0)  # the bag's only J
    before = journaled(table)
    assert before[-1] == DrawLetter("J", player=CHANCE)
    for typed in ("J", "7", "jj", "?"):
        table.handle(ConsoleCommand(typed, answers=only(table).key), 3.0)
        unchanged(table, before, 2)
        message = table.status().message
        assert f"{typed!r} is not possible for centre square 2" in message
        assert "\n" not in message
    table.handle(ConsoleCommand("  q ", answers=only(table).key), 4.0)
    assert journaled(table)[-1] == DrawLetter("Q", player=CHANCE)


def test_a_choice_typed_for_the_wrong_seat_is_refused(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    asked = to_player_choice(table, random.Random(1))
    player = asked.request.player
    assert player is not None
    other = 1 - player
    label = asked.request.options[0].label
    before, ply = journaled(table), len(table.state.history)
    table.handle(ConsoleCommand(label, seat=other, answers=asked.key), 1.0)
    unchanged(table, before, ply)
    assert "not a legal choice for" in table.status().message
    table.handle(ConsoleCommand(label, seat=other), 2.0)
    unchanged(table, before, ply)
    table.handle(ConsoleCommand("no such move", seat=player, answers=asked.key), 3.0)
    unchanged(table, before, ply)
    table.handle(ConsoleCommand(label, seat=player, answers=asked.key), 4.0)
    assert journaled(table) == [*before, asked.request.options[0].action]


def test_a_seat_button_out_of_turn_is_refused(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    asked = to_player_choice(table, random.Random(2))
    player = asked.request.player
    assert player is not None
    seat = 1 - player
    before, ply = journaled(table), len(table.state.history)
    for button in ("confirm", "pass"):
        table.handle(ButtonPressed(button, seat=seat), 1.0)  # type: ignore[arg-type]
        unchanged(table, before, ply)
        name = table.state.player_name(seat)
        assert f"nothing for {name} to {button}" in table.status().message


def test_a_seat_with_no_player_in_this_game_is_refused_not_a_crash(tmp_path: Path) -> None:
    """The mock table has six seats; in a two-player C.O.G. game seat 5 has nobody to play."""
    table = cog_table(tmp_path)
    asked = to_player_choice(table, random.Random(2))
    before, ply = journaled(table), len(table.state.history)
    label = asked.request.options[0].label
    for item in (
        ButtonPressed("confirm", seat=4),
        ButtonPressed("pass", seat=5),
        ConsoleCommand(label, seat=4),
        ConsoleCommand(label, seat=5, answers=asked.key),
    ):
        table.handle(item, 1.0)  # the controller logs a crash here and shows nothing new
        unchanged(table, before, ply)
        assert table.status().message, f"{item}: refused with a reason"


# -- Commissars: pass buttons ----------------------------------------------------------------


def commissars_table(tmp_path: Path, stop: object) -> GameTable:
    """A two-player Commissars table played (as journaled by the simulation) until ``stop``."""
    table, _ = make_table(
        tmp_path / "journal.sqlite3", GameChoice("commissars", {"players": 2}), DICE
    )
    rng = random.Random(5)
    for _ in range(5000):
        if stop(table.state):  # type: ignore[operator]
            table.show(0.0)
            return table
        table.game.apply(random_step(table.state, rng), "simulation")
    raise AssertionError("the wanted position did not come up")


def responding(state: State) -> bool:
    return any(state.default_action(p) is not None for p in state.view()["to_act"])


def test_a_seats_pass_button_passes_in_a_response_window(tmp_path: Path) -> None:
    table = commissars_table(tmp_path, responding)
    (responder,) = table.state.view()["to_act"]
    other = 1 - responder
    before, ply = journaled(table), len(table.state.history)
    table.handle(ButtonPressed("pass", seat=other), 1.0)
    unchanged(table, before, ply)
    assert only(table).request.default == Pass(player=responder)
    table.handle(ButtonPressed("pass", seat=responder), 2.0)
    assert journaled(table) == [*before, Pass(player=responder)]
    assert sources(table)[-1] == "button"


def test_holding_undo_takes_back_one_action_and_a_short_press_does_not(tmp_path: Path) -> None:
    table = commissars_table(tmp_path, lambda state: len(state.history) >= 30)
    before = journaled(table)
    table.handle(ButtonPressed("undo", seat=0), 1.0)
    assert journaled(table) == before, "undo must be held"
    table.handle(ButtonPressed("undo", seat=0, held=True), 2.0)
    assert journaled(table) == before[:-1]
    assert table.state == replay(table.game.record())
    assert table.status().ply == len(before) - 1
    table.handle(ButtonPressed("undo", seat=1, held=True), 3.0)
    assert journaled(table) == before[:-2]


def test_undo_with_nothing_to_take_back_says_so(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    table.handle(ButtonPressed("undo", seat=0, held=True), 1.0)
    assert "nothing to take back" in table.status().message
    unchanged(table, [], 0)


# -- new game --------------------------------------------------------------------------------


def step_through_games(tmp_path: Path) -> tuple[list[str], list[str], list[list[int]]]:
    """Hold new game once per refereeable game, from the last; the labels and seat LEDs seen."""
    profile = load_profile()
    games = refereeable(profile)
    table, leds = make_table(tmp_path / "journal.sqlite3", games[-1], DICE, games, profile)
    assert table._current_choice().label() == "kogworks"
    seen, shown = [], []
    for press in range(len(games)):
        first_id, now = table.game.id, 10.0 * press
        table.handle(ButtonPressed("new_game", held=True), now)
        assert table.game.id == first_id + 1, "a new game is journaled"
        assert table.status().game == table.state.game
        assert table.state.history == [] or table.state.game == "kogworks"
        seen.append(table._current_choice().label())
        lit = lit_seats(leds.frames[-1])
        assert all(look.colour == WHITE and look.animation == SOLID for look in lit.values())
        shown.append(sorted(lit))
        table.tick(now + CHOICE_SHOWN_SECONDS + 0.1)
        assert lit_seats(leds.frames[-1]) != lit, "the choice is shown for a while only"
    with table.journal as journal:
        statuses = [game.status for game in journal.games()]
    assert statuses == ["abandoned"] * len(games) + ["running"]
    return [choice.label() for choice in games], seen, shown


def test_holding_new_game_steps_through_every_refereeable_game_and_back(tmp_path: Path) -> None:
    labels, seen, _ = step_through_games(tmp_path)
    assert labels == ["cog", "commissars", "cookie hunt", "cookie big-hunt", "kogworks"]
    assert seen == labels, "every game once, in order, then back to the first"


def test_the_seat_leds_show_the_number_of_the_game_chosen(tmp_path: Path) -> None:
    labels, seen, shown = step_through_games(tmp_path)
    for label, lit in zip(seen, shown, strict=True):
        number = labels.index(label) + 1
        assert lit == list(range(number)), f"{label} is game {number}: {number} seat LEDs"


def test_a_short_press_of_new_game_restarts_the_same_game(tmp_path: Path) -> None:
    table = cog_table(tmp_path)
    table.handle(DiceRolled(0, 2), 1.0)
    first = table.game.id
    table.handle(ButtonPressed("new_game"), 2.0)
    assert table.game.id == first, "one press never abandons a game in progress"
    table.handle(ButtonPressed("new_game"), 9.0)
    assert table.game.id == first, "a second press long after the first only asks again"
    table.handle(ButtonPressed("new_game"), 10.0)
    assert table.game.id == first + 1
    assert (table.status().game, table.status().options["players"]) == ("cog", 2)
    assert table.state.history == [] and only(table).request.kind == "die"


def test_at_a_chance_node_the_turn_is_the_tables_in_every_game(tmp_path: Path) -> None:
    for number, (game, options) in enumerate(
        [("cog", {"players": 2}), ("commissars", {"players": 2}), ("cookie", {"players": 4})]
    ):
        table, _ = make_table(tmp_path / f"{number}.sqlite3", GameChoice(game, options), DICE)
        assert table.state.to_act() == (CHANCE,)
        assert CHANCE not in table.adapter.waited_for(table.state), game
        assert table.status().turn == "the table", game
        assert table.screen_lines()[0].endswith("the table to act"), table.screen_lines()[0]
