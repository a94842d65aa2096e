"""The service before its table can run: waiting for the camera's calibration.

A freshly installed table has no calibration yet, and ``cogtable calibrate``
needs the camera, which a running table would hold. So instead of failing
(and being restarted by systemd every few seconds), ``cogtable service run``
starts in this state when the profile's calibration cannot be loaded:

- systemd hears READY with a STATUS saying what it waits for (``systemctl
  status cogtable``), and the watchdog keeps being pinged;
- ``status.json`` says it (``cogtable status``): ``waiting for calibration``,
  why, and the command that calibrates;
- the LEDs say it: the status LED blinks amber and every seat LED pulses
  white (no one's turn: the table is not playing yet);
- the camera is left alone, for ``cogtable calibrate``.

Once a calibration can be loaded, the service goes on to the table.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any, Final

from cogtable.board_setup import camera_calibration
from cogtable.errors import UserError
from cogtable.outputs import PicoRenderer
from firmware_bridge import link as pico
from firmware_bridge.simulator import Simulator, SimulatorError
from hardware.leds import Frame, blink, pulse
from hardware.profile import Profile

log = logging.getLogger("cogtable.service")

WAITING: Final = "waiting for calibration"
AMBER: Final = (255, 140, 0)
WHITE: Final = (255, 255, 255)
STATUS_BLINK_S: Final = 1.0
SEAT_PULSE_S: Final = 3.0


def calibration_problem(profile: Profile) -> str | None:
    """Why the profile's calibration cannot be loaded (with the command that fixes it), or None."""
    try:
        camera_calibration(profile)
    except UserError as error:
        return str(error)
    return None


def calibrate_command(profile: Profile) -> str:
    """The command that writes the calibration this profile reads."""
    return f"cogtable calibrate --profile {profile.source} --source 0"


def waiting_frame(template: Frame) -> Frame:
    """The LEDs while waiting: the status LED blinks amber, every seat pulses white."""
    leds = template.copy()
    leds.clear()
    if leds.size("status"):
        leds.set("status", 0, AMBER, blink(STATUS_BLINK_S))
    for seat in range(leds.size("seats")):
        leds.set("seats", seat, WHITE, pulse(SEAT_PULSE_S))
    return leds


def waiting_status(profile: Profile, problem: str, game: str) -> dict[str, Any]:
    """What ``status.json`` holds while waiting (the fields ``cogtable status`` reads)."""
    return {
        "state": WAITING,
        "game": game,
        "turn": None,
        "in_sync": False,
        "waiting": WAITING,
        "message": f"{WAITING}: {problem}",
        "calibrate": calibrate_command(profile),
        "parts": {"camera": WAITING},
        "last_error": "",
    }


class WaitingLeds:
    """The Pico's LEDs while the table does not run: the waiting frame, nothing else.

    A Pico that is missing or fails is logged; waiting goes on without LEDs.
    """

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.simulator: Simulator | None = None
        self.link: pico.Link | None = None

    def show(self) -> None:
        """Connect (in the background) and show :func:`waiting_frame`."""
        port = self.profile.serial.port
        try:
            if port == "sim":
                self.simulator = Simulator()
                self.simulator.start()
            path = self.simulator.port if self.simulator is not None else port
            self.link = pico.Link(path).start()
            renderer = PicoRenderer(self.link, self.profile.leds)
            renderer.show(waiting_frame(Frame.for_profile(self.profile)), time.monotonic())
        except (pico.LinkError, SimulatorError, OSError, ValueError) as error:
            log.warning("the LEDs cannot show that the table waits: %s", error)

    def close(self) -> None:
        """Close the link and the simulated Pico, if any (the table opens its own)."""
        if self.link is not None:
            self.link.flush(0.5)
            self.link.close()
        if self.simulator is not None:
            with contextlib.suppress(SimulatorError, OSError):
                self.simulator.close()
