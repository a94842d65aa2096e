"""The simulated people's hands on a running table: its buttons, its dice, its console.

The runtime knows no people; the mock wraps it from outside. A press goes to
the simulated Pico's button (as a finger would), a typed line to the
console, and each waits until the controller has handled what it caused, so
a mock game runs in lock step. What the people see (the LEDs, the status) is
the runtime's own: :meth:`Hands.visible_frame`, :meth:`Hands.shown_status`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from cogtable.inputs import ButtonPressed, ConsoleCommand, DiceRolled, Input
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.runtime import PRESS_TIMEOUT_S, Runtime
from firmware_bridge import link as pico
from firmware_bridge.simulator import Simulator, SimulatorError
from games.core import Record
from hardware.leds import Frame

log = logging.getLogger(__name__)

RELEASE_SETTLE_S = 0.04
"""After a simulated press, the release must outlast the firmware's debounce (``DEBOUNCE_MS``)."""
PICO_HOLD_S = 0.8
"""The firmware's hold time (``HOLD_MS``): a press this long reports HELD."""


class Hands:
    """What the simulated people do to a :class:`~cogtable.runtime.Runtime`: press, roll, type."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.pico_gone_said = False
        """Whether this outage of the simulated Pico was logged (once; again after it is back)."""
        self.read_at: tuple[Any, ...] = ()
        """The status at which the journal was last read (read again when it changes)."""
        self.record: Record | None = None

    def visible_frame(self) -> Frame | None:
        """The LED frame the table physically shows."""
        return self.runtime.visible_frame()

    def shown_status(self) -> dict[str, Any]:
        """The table's status as its screen last showed it, read as the status file gives it.

        The people read it as a person reads the status file (JSON), not the
        referee's own types.
        """
        return self.runtime.shown_status().to_json()

    def game_record(self) -> Record | None:
        """The game in progress as the table journaled it (what its screen and web view show).

        Read from the journal (read-only, as the web view reads it), never from the
        controller's own state (issue 24): once more each time the status changes.
        """
        status = self.shown_status()
        game = status.get("game_id")
        if not isinstance(game, int):
            return None
        seen = (game, status.get("ply"), status.get("last"), status.get("verdict"))
        if seen != self.read_at:
            with Journal(self.runtime.state_dir / JOURNAL_NAME, read_only=True) as journal:
                self.record = journal.record(game)
            self.read_at = seen
        return self.record

    def press(self, seat: int | None, kind: str, held: bool = False) -> bool:
        """Press a button on the simulated Pico; True once the controller has handled it."""
        buttons = self.runtime.buttons.items()
        button = next((b for b, key in buttons if key == (seat, kind)), None)
        if button is None or not self._simulated_pico_ready():
            return False

        def push(simulator: Simulator) -> None:
            simulator.press(button)
            time.sleep(PICO_HOLD_S + 0.15 if held else 0.06)
            simulator.release(button)

        wanted = ButtonPressed(kind, seat, held)  # type: ignore[arg-type]
        return self._on_simulated_pico(push, lambda item: item == wanted)

    def roll(self, die: int = 0) -> bool:
        """Press the simulated Pico's roll button of die ``die``; True once the roll is handled."""
        if die not in self.runtime.profile.dice.pico or not self._simulated_pico_ready():
            return False
        rolled = lambda item: isinstance(item, DiceRolled) and item.die == die  # noqa: E731
        return self._on_simulated_pico(lambda simulator: simulator.press_roll(die), rolled)

    def console(self, line: ConsoleCommand) -> bool:
        """Type a line at the table's console; True once the controller has handled it."""
        runtime = self.runtime
        mark = runtime.handled.count
        runtime.put(line)
        return runtime.handled.wait_for(
            lambda done: done is line, mark, PRESS_TIMEOUT_S, runtime.stopping
        )

    def die_leds(self) -> list[tuple[int, int, int]] | None:
        """The simulated Pico's LED chain, dice faces included (None without one, or stopped)."""
        simulator, link = self.runtime.simulator, self.runtime.link
        if simulator is None or link is None or link.info is None:
            return None
        try:
            return simulator.leds()
        except SimulatorError as error:
            self._pico_gone(error)
            return None

    def _simulated_pico_ready(self) -> bool:
        link = self.runtime.link
        connected = link is not None and link.status == pico.Status.CONNECTED
        if connected:
            self.pico_gone_said = False
        return self.runtime.simulator is not None and connected

    def _on_simulated_pico(
        self, act: Callable[[Simulator], object], match: Callable[[Input], bool]
    ) -> bool:
        """Do ``act`` on the simulated Pico; True once an input ``match`` has been handled.

        Returns only after the release has outlasted the firmware's debounce,
        so the next press of the same button counts.
        """
        runtime = self.runtime
        assert runtime.simulator is not None
        mark = runtime.handled.count
        try:
            act(runtime.simulator)
        except SimulatorError as error:
            self._pico_gone(error)
            return False
        handled = runtime.handled.wait_for(match, mark, PRESS_TIMEOUT_S, runtime.stopping)
        time.sleep(RELEASE_SETTLE_S)
        return handled

    def _pico_gone(self, error: SimulatorError) -> None:
        """A press on a simulated Pico that stopped did not happen (as on one unplugged).

        It stops with the run (Ctrl-C reaches the firmware process too): a note,
        not a failure of the thread that pressed.
        """
        if self.pico_gone_said:  # the people press again every frame: thousands of lines
            log.debug("a button on the simulated Pico was not pressed: %s", error)
            return
        self.pico_gone_said = True
        level = logging.INFO if self.runtime.stopping.is_set() else logging.WARNING
        log.log(level, "a button on the simulated Pico was not pressed: %s", error)
