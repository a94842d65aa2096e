"""``cogtable service run``: the kiosk's main loop under systemd.

Start-up order matters to systemd: READY=1 is sent only once the profile is
loaded, the journal is open and the game (new or resumed) is ready, which is
when :class:`cogtable.runtime.Runtime` has been built and started. From then
on the controller loop pings the watchdog through its heartbeat, so a hung
controller, not only a dead process, gets the service restarted.

Without a calibration of the camera (a fresh install) the service does not
fail: it waits for one (:mod:`cogtable.service.waiting`), READY sent with a
STATUS that says so, the status file and the LEDs saying so too, and goes on
to the table once ``cogtable calibrate`` has written it.

Signals: SIGTERM (and SIGINT) put a shutdown on the input queue; the
controller leaves the LEDs paused and the journal closed. SIGHUP reads the
profile again: a good one replaces the running table (the game resumes from
the journal), a broken one is reported and the table runs on unchanged.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from cogtable.board_setup import board_geometry, camera_calibration
from cogtable.errors import UserError
from cogtable.files import ensure_folder
from cogtable.game_choice import choose
from cogtable.inputs import Shutdown
from cogtable.service.notify import Notifier
from cogtable.service.waiting import WAITING, WaitingLeds, calibration_problem, waiting_status
from hardware.profile import Profile, ProfileError, load_profile

if TYPE_CHECKING:
    from cogtable.runtime import SyntheticCamera

log = logging.getLogger("cogtable.service")

RELOAD = "reload"
STATUS_FILE = "status.json"
EX_CONFIG = 78
"""sysexits' 'configuration error': a profile that cannot be used."""
CHECK_SECONDS = 0.05
"""The status is looked at no more often than this (a change is written at the next look).

The controller beats after every input it handled and every idle tick (0.5 s),
so a move is looked at as soon as it is handled; this bounds the cost of a
burst of inputs (a status costs about a millisecond) to a few percent of a core.
"""
REWRITE_SECONDS = 1.0
"""An unchanged status is written again this often (its ``updated`` time shows a live table)."""
WAIT_POLL_S = 0.25
"""While waiting for a calibration: how often signals and the calibration file are looked at."""


Beside = Callable[[Profile, Path], contextlib.AbstractContextManager[object]]
"""Something that runs while the table plays, given the profile and the state folder."""


def nothing_beside(profile: Profile, state_dir: Path) -> contextlib.AbstractContextManager[object]:
    """Nothing runs beside the table."""
    return contextlib.nullcontext()


def read_profile(path: Path | None) -> Profile:
    """The profile at ``path`` (the mock table's when None); UserError if it cannot be used."""
    try:
        return load_profile(path)
    except ProfileError as error:
        raise UserError(str(error)) from error
    except OSError as error:
        raise UserError(f"cannot read the profile {path}: {error}") from error


class StatusWriter:
    """Writes the running status to ``state_dir/status.json``: a change at once, else each second.

    The status is looked at no more than every :data:`CHECK_SECONDS`; a status
    that changed (a move, a refusal) is written then, so ``cogtable status``
    and the web view show a move within a fraction of a second, and an
    unchanged one is written again once a second (its ``updated`` time says
    the table is alive). A write that fails (a full disk) is logged once and
    otherwise ignored: the status file is for people, and the table must run
    on without it.
    """

    def __init__(
        self,
        state_dir: Path,
        status: Callable[[], dict[str, Any]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = state_dir / STATUS_FILE
        self.status = status
        self.clock = clock
        self.last = 0.0
        self.checked = float("-inf")
        self.written: dict[str, Any] | None = None
        self.failing = False

    def __call__(self, force: bool = False) -> None:
        """Write the status if it changed, or a second has passed (or ``force``); by rename."""
        now = self.clock()
        if not force and now - self.checked < CHECK_SECONDS:
            return
        self.checked = now
        status = self.status()
        if not force and status == self.written and now - self.last < REWRITE_SECONDS:
            return
        self.last = now
        data = {**status, "pid": os.getpid(), "updated": now}
        temporary = self.path.with_suffix(".tmp")
        try:
            temporary.write_text(json.dumps(data, indent=1), encoding="utf-8")
            temporary.replace(self.path)
        except OSError as error:
            if not self.failing:
                log.warning("cannot write the status file %s: %s", self.path, error)
            self.failing = True
        else:
            self.failing = False
            self.written = status


class Service:
    """One run of the service: builds the runtime, notifies systemd, handles signals.

    A signal only records a request and forwards it to the running runtime's
    input queue; a request that arrives while no runtime is running (during
    start-up or a reload) is forwarded as soon as the next one exists, so no
    SIGTERM is ever lost. A stop request outranks a reload.
    """

    def __init__(
        self,
        profile_path: Path | None,
        state_dir: Path,
        notifier: Notifier,
        *,
        game: str | None = None,
        synthetic: SyntheticCamera | None = None,
        beside: Beside = nothing_beside,
    ) -> None:
        self.profile_path = profile_path
        self.beside = beside
        """Runs beside the table while it plays (``service run``: the fleet's publisher)."""
        self.synthetic = synthetic
        """Films a profile whose camera is ``synthetic`` (the mock table's, from the command)."""
        self.game = game
        """The game to referee instead of the profile's (``--game``)."""
        self.state_dir = state_dir
        self.notifier = notifier
        self.runtime: Any = None
        self.stop_requested = ""
        self.reload_requested = False

    def run(self) -> int:
        """Run until SIGTERM; reload on SIGHUP. Returns the exit status."""
        profile = read_profile(self.profile_path)
        choose(profile, self.game)  # a game the table cannot referee: one line, nothing created
        ensure_folder(self.state_dir, "the state folder")
        self._install_signals()
        while True:
            reason = self._wait_for_calibration(profile)
            calibrated = not reason
            if calibrated:
                reason = self._run_once(profile)
            if self.stop_requested or not self.reload_requested:
                self.notifier.stopping()
                log.info("stopped: %s", self.stop_requested or reason)
                return 0
            self.reload_requested = False
            profile = self._reloaded(profile, needs_calibration=calibrated)

    def _wait_for_calibration(self, profile: Profile) -> str:
        """Wait while the profile's calibration cannot be loaded; "" once it can.

        Returns the stop signal's name, or ``reload``, if one comes first.
        """
        problem = calibration_problem(profile)
        if problem is None:
            return ""
        game = choose(profile, self.game).game
        status = StatusWriter(self.state_dir, lambda: waiting_status(profile, problem, game))
        leds = WaitingLeds(profile)
        try:
            leds.show()
            status(force=True)
            self.notifier.ready(f"{WAITING}: {problem}")
            log.warning("%s: %s", WAITING, problem)
            while not (self.stop_requested or self.reload_requested):
                if calibration_problem(profile) is None:
                    log.info("calibration found: starting the table")
                    return ""
                self.notifier.watchdog()
                status()
                time.sleep(WAIT_POLL_S)
            return self.stop_requested or RELOAD
        finally:
            leds.close()

    def _run_once(self, profile: Profile) -> str:
        from cogtable.runtime import Runtime

        game = choose(profile, self.game)
        runtime = Runtime(profile, self.state_dir, quiet=True, game=game, synthetic=self.synthetic)
        status = StatusWriter(self.state_dir, runtime.status)
        try:
            runtime.start()
            status(force=True)
            self.runtime = runtime
            self._forward()
            ready = _describe(runtime.status())
            self.notifier.ready(ready)
            log.info("ready: %s", ready)
            with self.beside(profile, self.state_dir):
                return str(runtime.run(heartbeat=self._heartbeat(status)))
        finally:
            self.runtime = None
            runtime.stop()
            status(force=True)

    def _heartbeat(self, status: StatusWriter) -> Callable[[], None]:
        def beat() -> None:
            self.notifier.watchdog()
            status()

        return beat

    def _reloaded(self, current: Profile, needs_calibration: bool = True) -> Profile:
        """The profile read again, if it is usable all the way to the camera; else ``current``.

        While the service waits for a calibration (``needs_calibration`` false)
        a profile without one is taken: it is waited for with that profile.
        """
        self.notifier.reloading()
        try:
            profile = read_profile(self.profile_path)
            board_geometry(profile)
            if needs_calibration:
                camera_calibration(profile)
            choose(profile, self.game)
        except UserError as error:
            log.error("profile not reloaded, keeping the running one: %s", error)
            return current
        log.info("profile reloaded")
        return profile

    def _install_signals(self) -> None:
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGHUP, self._reload)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_requested = signal.Signals(signum).name
        self._forward()

    def _reload(self, signum: int, frame: FrameType | None) -> None:
        self.reload_requested = True
        self._forward()

    def _forward(self) -> None:
        """Put the pending request on the running runtime's queue, if one runs."""
        runtime = self.runtime
        if runtime is not None and (self.stop_requested or self.reload_requested):
            runtime.inputs.put(Shutdown(self.stop_requested or RELOAD))


def _describe(status: dict[str, Any]) -> str:
    turn = status.get("turn") or "-"
    return f"{status.get('game', '?')} game {status.get('game_id', '?')}, turn: {turn}"


def default_state_dir() -> Path:
    """systemd's STATE_DIRECTORY under the service, else ~/.local/state/cogtable."""
    given = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if given:
        return Path(given)
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "cogtable"


def read_status(state_dir: Path) -> dict[str, Any]:
    """The status the running service last wrote; UserError if there is none."""
    path = state_dir / STATUS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise UserError(f"no status in {state_dir}: is the service running?") from error
    except UnicodeDecodeError as error:
        raise UserError(f"{path} does not hold a cogtable status (not text)") from error
    except (OSError, json.JSONDecodeError) as error:
        raise UserError(f"cannot read {path}: {error}") from error
    if not isinstance(data, dict) or not _well_formed(data):
        raise UserError(f"{path} does not hold a cogtable status")
    return data


def _well_formed(status: dict[str, Any]) -> bool:
    """The fields ``cogtable status`` reads have the types it expects."""
    updated = status.get("updated", 0)
    return (
        isinstance(updated, int | float)
        and not isinstance(updated, bool)
        and isinstance(status.get("parts", {}), dict)
    )
