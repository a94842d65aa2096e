"""Dice at the mock table: the simulated Pico's electronic die, and a roll button on GPIO.

The runtime runs as ``cogtable sim`` runs it: the controller in the test's
thread, the mock world's actors (here the test's own steps) in the camera
thread, the real firmware on the simulated Pico.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cogtable.game_choice import GameChoice
from cogtable.inputs import ButtonPressed, DiceRolled, Shutdown
from cogtable.journal import Journal
from cogtable.mock.hands import Hands
from cogtable.mock.parts_world import PartsWorld
from cogtable.mock.world import MockWorld
from cogtable.runtime import GPIO_DIE, JOURNAL_NAME, Runtime
from cogtable.tables import adapter_for
from firmware_bridge.firmware.config import DICE
from games.cog.actions import RollDie
from games.core import CHANCE, new_game
from hardware.profile import Profile, default_profile_path, load_profile, parse_profile

COG = GameChoice("cog", {"players": 2})
MOCK_TEXT = default_profile_path().read_text(encoding="utf-8")
ROLL_PIN = 17


class Steps:
    """The test's steps, one a frame in the camera thread (the people's hands), then a shutdown."""

    def __init__(self, runtime: Runtime, steps: list[Callable[[Hands], object]]) -> None:
        self.runtime = runtime
        self.hands = Hands(runtime)
        self.steps = steps
        self.results: list[Any] = []
        self.error: BaseException | None = None

    def __call__(self, world: MockWorld) -> None:
        if not self.steps:
            return
        step = self.steps.pop(0)
        try:
            self.results.append(step(self.hands))
        except BaseException as error:  # reported by the test, in its own thread
            self.error = error
            self.steps.clear()
        if not self.steps:
            self.runtime.put(Shutdown("the test is done"))


def run_steps(
    state_dir: Path, steps: list[Callable[[Hands], object]], profile: Profile | None = None
) -> list[Any]:
    """Run a mock C.O.G. table until the steps are done; what each step returned."""
    profile = profile or load_profile()
    state = new_game("cog", COG.options, 0)
    layouts = [r.layout for r in adapter_for("cog").regions_for(state) if r.layout is not None]
    world = PartsWorld(layouts, camera="truth", seed=0)  # the board and mats, as a camera sees them
    runtime = Runtime(profile, state_dir, clock=world.clock.now, quiet=True, world=world, game=COG)
    actor = Steps(runtime, steps)
    world.actors.append(actor)
    try:
        runtime.start()
        assert runtime.run() == "the test is done"
    finally:
        runtime.stop()
    if actor.error is not None:
        raise actor.error
    return actor.results


def journal_rows(state_dir: Path) -> list[tuple[int, str, str]]:
    """(ply, action JSON, source) of every action of the last game."""
    with Journal(state_dir / JOURNAL_NAME) as journal:
        game = journal.games()[-1].id
        rows = journal.connection.execute(
            "SELECT ply, action, source FROM actions WHERE game_id = ? ORDER BY ply", (game,)
        ).fetchall()
    return [tuple(row) for row in rows]


def asked(hands: Hands) -> dict[str, Any]:
    status = hands.shown_status()
    return {"ply": status["ply"], "asked": status["waiting_for"], "message": status["message"]}


def pips(hands: Hands) -> int:
    """The pips die 0's LED face shows on the simulated Pico."""
    leds = hands.die_leds()
    assert leds is not None
    (first,) = [first for number, _, first, _ in DICE if number == 0]
    return sum(1 for colour in leds[first : first + 7] if any(colour))


def test_the_picos_die_answers_the_die_request(tmp_path: Path) -> None:
    before, rolled, face, after, again, last = run_steps(
        tmp_path,
        [
            asked,
            lambda hands: hands.roll(0),
            pips,
            asked,
            lambda hands: hands.roll(0),  # nothing asks for a die now
            asked,
        ],
    )
    assert before["ply"] == 0
    assert [(a["kind"], a["route"]) for a in before["asked"]] == [("die", "dice")]
    assert rolled is True and 1 <= face <= 6
    assert after["ply"] == 1
    assert after["asked"][0]["kind"] == "draw"
    assert again is True, "the second roll was handled"
    assert last["ply"] == 1 and "not waiting for a roll" in last["message"]
    ((ply, action, source),) = journal_rows(tmp_path)
    assert (ply, source) == (1, "button")
    assert json.loads(action) == RollDie(face, player=CHANCE).to_json()


def test_the_same_button_pressed_twice_in_a_row_is_taken_twice(tmp_path: Path) -> None:
    """A person presses a seat's button twice; each press reaches the table (refused or not)."""
    results = run_steps(
        tmp_path,
        [
            lambda hands: hands.press(1, "confirm"),
            lambda hands: hands.press(1, "confirm"),
            lambda hands: hands.press(1, "pass"),
            lambda hands: hands.press(1, "pass"),
            asked,
        ],
    )
    assert results[:4] == [True, True, True, True], results
    assert results[4]["ply"] == 0, "presses out of turn change nothing"


def roll_pin_profile() -> Profile:
    """The mock table with no Pico dice and a GPIO roll button instead."""
    text = MOCK_TEXT.replace("pico = [0]", f"roll_pin = {ROLL_PIN}")
    assert text != MOCK_TEXT
    return parse_profile(text, "mock with a roll pin")


def press_roll_pin(hands: Hands) -> bool:
    """Drive the roll button's mock pin low and high; True once the roll was handled."""
    runtime = hands.runtime
    assert runtime.gpio_buttons is not None, runtime.status()["parts"]
    pin = runtime.gpio_buttons.button(None, "roll").pin
    mark = runtime.handled.count
    pin.drive_low()
    pin.drive_high()
    rolled = lambda item: isinstance(item, DiceRolled) and item.die == GPIO_DIE  # noqa: E731
    return runtime.handled.wait_for(rolled, mark, 5.0, runtime.stopping)


def test_a_gpio_roll_button_answers_the_die_request(tmp_path: Path) -> None:
    profile = roll_pin_profile()
    assert (profile.dice.pico, profile.dice.roll_pin) == ((), ROLL_PIN)
    before, handled, after = run_steps(tmp_path, [asked, press_roll_pin, asked], profile)
    assert [a["route"] for a in before["asked"]] == ["dice"]
    assert handled is True
    assert after["ply"] == 1
    ((ply, action, source),) = journal_rows(tmp_path)
    assert (ply, source) == (1, "button")
    assert '"type": "RollDie"' in action


def test_a_gpio_seat_button_is_a_seat_press(tmp_path: Path) -> None:
    """Seat 1's confirm on GPIO (pin 5 on the mock table) reaches the table as that seat's."""

    def press_confirm_pin(hands: Hands) -> bool:
        runtime = hands.runtime
        assert runtime.gpio_buttons is not None
        pin = runtime.gpio_buttons.button(0, "confirm").pin
        mark = runtime.handled.count
        pin.drive_low()
        pin.drive_high()
        wanted = ButtonPressed("confirm", 0, False)
        return runtime.handled.wait_for(lambda item: item == wanted, mark, 5.0, runtime.stopping)

    handled, after = run_steps(tmp_path, [press_confirm_pin, asked])
    assert handled is True
    assert after["ply"] == 0 and "Red's confirm button" in after["message"]


def test_an_answer_left_by_cogtable_answer_reaches_the_running_table(tmp_path: Path) -> None:
    """A die typed with ``cogtable answer`` (physical dice) answers the request, once."""
    from cogtable.console_inbox import Inbox
    from cogtable.inputs import ConsoleCommand

    def post_and_wait(hands: Hands) -> int:
        runtime = hands.runtime
        key = runtime.shown_status().waiting_for[0]["key"]
        Inbox(runtime.state_dir).post(ConsoleCommand("5", None, key))
        Inbox(runtime.state_dir).post(ConsoleCommand("5", None, key))  # the same answer twice
        deadline = 200
        while runtime.shown_status().ply == 0 and deadline:
            time.sleep(0.02)
            deadline -= 1
        time.sleep(0.6)  # long enough for the second copy to be taken too
        return int(runtime.shown_status().ply)

    assert run_steps(tmp_path, [post_and_wait]) == [1]
    with Journal(tmp_path / JOURNAL_NAME) as journal:
        actions = journal.record(journal.games()[-1].id).actions
    assert actions == (RollDie(5, player=CHANCE),)
