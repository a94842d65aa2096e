"""A mock table stopped while a button is held down: no traceback reaches the person.

Ctrl-C at a terminal (or ``kill -- -PGID``) signals the whole process group,
the simulated Pico's firmware process too: the press under way then meets a
Pico that is gone. The press did not happen, as on a Pico unplugged; the run
stops as a signalled command does (130 after Ctrl-C), saying nothing more.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cogtable.mock.hands import Hands
from firmware_bridge import link as pico
from tests.mock.test_mock_dice import run_steps

ROOT = Path(__file__).resolve().parents[2]
SIM = ["sim", "commissars", "--players", "2", "--seed", "3", "--quiet"]
"""A sim whose people press buttons from the start (each draw is a confirm)."""


IGNORING_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Runs a command with SIGINT ignored, as a script's background job (``pytest ... &``) has it."""


@pytest.mark.parametrize(
    ("signalled", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)]
)
def test_a_sim_signalled_during_a_press_stops_without_a_traceback(
    signalled: signal.Signals, status: int, tmp_path: Path
) -> None:
    """SIGINT is sent from a parent that ignores it: the runner must act as at a terminal."""
    note = tmp_path / "signalled.txt"
    runner = [sys.executable, "-m", "tests.mock.signalled_sim", signalled.name, "1", str(note)]
    launcher = [sys.executable, "-c", IGNORING_SIGINT] if signalled == signal.SIGINT else []
    done = subprocess.run(
        [*launcher, *runner, *SIM],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,  # the group it signals is its own
    )
    said = (
        f"status {done.returncode}; stdout {done.stdout[-1000:]!r}; stderr {done.stderr[-2000:]!r}"
    )
    assert note.exists(), f"no press was down before the run ended; {said}"
    assert note.read_text(encoding="utf-8") == f"press 1 down: {signalled.name} sent\n", said
    assert done.returncode == status, said
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, said
    assert done.stderr.strip() == "", said


def closed_during_a_press(hands: Hands) -> bool:
    """The simulated Pico stops while a button is held down; whether the press counted."""
    simulator = hands.runtime.simulator
    assert simulator is not None
    closing = threading.Timer(0.05, simulator.close)
    closing.start()
    try:
        return hands.press(1, "confirm", held=True)
    finally:
        closing.join()


def test_a_press_on_a_simulated_pico_that_stopped_did_not_happen(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """It says so once: people press every frame, and thousands of lines would bury the news."""
    caplog.set_level(logging.DEBUG, logger="cogtable.mock.hands")
    pressed, during, after, rolled, leds = run_steps(
        tmp_path,
        [
            lambda hands: hands.press(1, "confirm"),
            closed_during_a_press,
            lambda hands: hands.press(1, "confirm"),
            lambda hands: hands.roll(0),
            lambda hands: hands.die_leds(),
        ],
    )
    assert pressed is True, "the Pico was up"
    assert (during, after, rolled, leds) == (False, False, False, None)
    gone = [r for r in caplog.records if "on the simulated Pico was not pressed" in r.message]
    said = [r for r in gone if r.levelno >= logging.INFO]
    assert len(gone) >= 2, "the press under way and the LED look met the stopped Pico"
    assert [r.levelno for r in said] == [logging.WARNING], "one warning, any later ones DEBUG"


def test_a_run_that_gives_up_says_what_the_table_waits_for_and_that_the_pico_is_gone(
    tmp_path: Path,
) -> None:
    """The sim's watchdog words: the request left open, and the Pico link no longer there."""

    def pico_gone(hands: Hands) -> str:
        runtime = hands.runtime
        assert runtime.simulator is not None and runtime.link is not None
        runtime.simulator.close()
        runtime.link.wait_status(set(pico.Status) - {pico.Status.CONNECTED}, 5.0)
        return runtime.stuck_words()

    before, after = run_steps(tmp_path, [lambda hands: hands.runtime.stuck_words(), pico_gone])
    assert before == "the table waits for goal card to remove (dice)", before
    assert after.startswith(before) and after.endswith("; the Pico link is reconnecting"), after
