"""Bad input, one case of issue 17 each: one line, exit status 2, nothing written before it fails.

The walk over every subcommand is in tests/test_cli_walk.py.
"""

from __future__ import annotations

import io
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cogtable.files
from cogtable.commands.sim import MIN_READABLE_SIDE
from cogtable.errors import UserError
from cogtable.files import Output, check_output, write_files
from cogtable.journal import JOURNAL_NAME
from cogtable.tables import front_ends
from cogtable.tables.terminal import QUIT, is_quit
from games.core import Record
from tests.unprivileged import CliResult, Snapshot, run_cli
from vision.sources import CameraSource, SourceError


def one_error(result: CliResult) -> str:
    """The one line a refused command wrote to stderr (and that it was refused)."""
    assert result.status == 2, (result.status, result.err)
    assert "Traceback" not in result.err
    lines = result.error_lines()
    assert len(lines) == 1, result.err
    return lines[0]


# -- outputs: checked first, written atomically ------------------------------------


def test_write_files_leaves_nothing_when_the_second_file_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cogtable.files._write_temporary
    calls: list[Path] = []

    def second_fails(output: Output) -> Path:
        calls.append(output.path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(output)

    monkeypatch.setattr(cogtable.files, "_write_temporary", second_fails)
    first, second = tmp_path / "first.json", tmp_path / "second.png"
    with pytest.raises(UserError, match=f"cannot write {second}: No space left on device"):
        write_files([Output(first, b"one"), Output(second, b"two")])
    assert list(tmp_path.iterdir()) == []


def test_write_files_replaces_a_file_keeping_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "cal.json"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_files([Output(target, b"new")])
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [path.name for path in tmp_path.iterdir()] == ["cal.json"]


@pytest.mark.parametrize(
    ("name", "why"),
    [("folder", "it is a folder; give a file name"), ("no/x.png", "there is no folder")],
)
def test_check_output_names_what_is_wrong(tmp_path: Path, name: str, why: str) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(UserError, match=why):
        check_output(tmp_path / name)


# -- calibrate ---------------------------------------------------------------------

CALIBRATE = ["calibrate", "--source", "synthetic", "--size", "640x480", "--frames", "1"]


def test_calibrate_writes_nothing_when_the_overlay_cannot_be_written(tmp_path: Path) -> None:
    out = tmp_path / "c" / "cal.json"
    out.parent.mkdir()
    result = run_cli([*CALIBRATE, "--out", str(out), "--overlay", "/unwritable/x.png"])
    assert one_error(result) == (
        "cogtable calibrate: cannot write /unwritable/x.png: there is no folder /unwritable"
    )
    assert list(out.parent.iterdir()) == []


def test_calibrate_out_naming_a_folder_leaves_no_temporary(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    before = Snapshot.of(tmp_path)
    result = run_cli([*CALIBRATE, "--out", str(folder), "--overlay", str(tmp_path / "o.png")])
    assert one_error(result) == (
        f"cogtable calibrate: cannot write {folder}: it is a folder; give a file name"
    )
    assert Snapshot.of(tmp_path) == before


def test_calibrate_writes_both_files_and_nothing_else(tmp_path: Path) -> None:
    out, overlay = tmp_path / "cal.json", tmp_path / "o.png"
    result = run_cli([*CALIBRATE, "--out", str(out), "--overlay", str(overlay)])
    assert result.status == 0, result.err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cal.json", "o.png"]
    assert overlay.read_bytes().startswith(b"\x89PNG")


def test_a_camera_that_is_not_there_is_one_line_without_opencv_warnings(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cal.json"
    result = run_cli(["calibrate", "--source", "99", "--out", str(out)])
    error = one_error(result)
    assert error.startswith("cogtable calibrate: camera 99 cannot be opened: ")
    assert "WARN" not in capfd.readouterr().err  # OpenCV writes to the file descriptor
    assert list(tmp_path.iterdir()) == []


class ClosedCapture:
    """A capture that never opens (an absent camera)."""

    released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return False

    def read(self) -> tuple[bool, Any]:
        return False, None

    def release(self) -> None:
        self.released = True


def test_usb_now_asks_the_camera_once_and_says_why_it_cannot_be_opened() -> None:
    opened: list[ClosedCapture] = []

    def opener(index: int, size: tuple[int, int]) -> ClosedCapture:
        opened.append(ClosedCapture())
        return opened[-1]

    with pytest.raises(SourceError, match="camera 99 cannot be opened: there is no /dev/video99"):
        CameraSource.usb_now(99, opener=opener)  # type: ignore[arg-type]
    assert len(opened) == 1 and opened[0].released
    with pytest.raises(SourceError, match="camera numbers are 0 to 255"):
        CameraSource.usb_now(10**20, opener=opener)  # type: ignore[arg-type]
    assert len(opened) == 1


# -- sim ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["garbage", "{}", "[]", '{"world": {"pieces": []}, "people": {}}', "\x00\xff"]
)
def test_sim_refuses_a_garbage_saved_board_before_creating_the_journal(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / "mock-world.json").write_text(text, encoding="latin-1")
    before = Snapshot.of(tmp_path)
    argv = ["sim", "kogworks", "--quiet", "--camera", "truth", "--state-dir", str(tmp_path)]
    result = run_cli(argv)
    assert "cannot read the mock board" in one_error(result)
    assert not (tmp_path / JOURNAL_NAME).exists()
    assert Snapshot.of(tmp_path) == before


@pytest.mark.parametrize(
    ("game", "text", "why"),
    [
        ("kogworks", '{"people": {}}', "it has no 'world'"),
        ("kogworks", "[1]", "a value in it is of the wrong kind"),
        ("cog", '{"game": "cog"}', "it has no 'people'"),
        ("cookie", '{"game": "cookie", "people": {"x": 1}}', "it has no 'played'"),
    ],
)
def test_sim_says_in_words_what_a_saved_board_lacks(
    tmp_path: Path, game: str, text: str, why: str
) -> None:
    """Not Python's own KeyError('world') or "'int' object is not subscriptable"."""
    (tmp_path / "mock-world.json").write_text(text)
    error = one_error(run_cli(["sim", game, "--quiet", "--state-dir", str(tmp_path)]))
    assert why in error
    assert "Error" not in error and "object" not in error
    assert not (tmp_path / JOURNAL_NAME).exists()


@pytest.mark.parametrize("size", ["100x80", "640x360", f"{MIN_READABLE_SIDE - 1}x1000"])
def test_sim_refuses_a_frame_too_small_to_read_at_once(tmp_path: Path, size: str) -> None:
    result = run_cli(["sim", "kogworks", "--size", size, "--state-dir", str(tmp_path)])
    error = one_error(result)
    assert error.startswith(f"cogtable sim: --size {size}: the board is too small to read")
    assert f"from {MIN_READABLE_SIDE} pixels on the shorter side" in error
    assert list(tmp_path.iterdir()) == []


def test_sim_truth_camera_needs_no_readable_size(tmp_path: Path) -> None:
    argv = ["sim", "kogworks", "--quiet", "--camera", "truth", "--size", "100x80"]
    result = run_cli([*argv, "--state-dir", str(tmp_path)])
    assert result.status == 0, result.err
    assert "game 1:" in result.out


# -- profile check -----------------------------------------------------------------

BROKEN_PROFILE = """
name = "x"
[camera]
source = "synthetic"
resolution = "big"
[board]
peg_pitch_mm = 25.0
marker_size_mm = 45.0
[[board.markers]]
id = 0
x_mm = 0
y_mm = 0
[serial]
port = "sim"
[gpio]
new_game_pin = 17
[pico]
new_game_button = 3
[leds]
length = 10
[leds.segments]
status = [0]
seats = [1, 2, 3]
[[seats]]
name = "Red"
colour = "#ff0000"
confirm_pin = 17
undo_button = 3
[[seats]]
name = "Blue"
colour = "not a colour"
[[seats]]
name = "red"
colour = "#00ff00"
confirm_pin = "GPIO17"
"""


def test_profile_check_reports_duplicates_with_every_other_mistake(tmp_path: Path) -> None:
    """A pin or button used twice is named even while other sections are wrong."""
    path = tmp_path / "broken.toml"
    path.write_text(BROKEN_PROFILE)
    result = run_cli(["profile", "check", str(path)])
    assert result.status == 2
    unused = "expected a pin not used elsewhere (it is already gpio.new_game_pin)"
    assert result.error_lines() == [
        f"{path}: 7 mistakes",
        '  camera.resolution = "big": expected [width, height] in pixels, each 16-8192',
        "  board.markers = [0]: expected at least 4 markers (the board's homography needs them)",
        '  seats[1].colour = "not a colour": expected a colour: '
        '"#rrggbb" or [red, green, blue] 0-255',
        '  seats[2].name = "red": expected a name not used before',
        f"  seats[0].confirm_pin = 17: {unused}",
        f'  seats[2].confirm_pin = "GPIO17": {unused}',
        "  seats[0].undo_button = 3: expected a Pico button id not used elsewhere "
        "(it is already pico.new_game_button)",
    ]


# -- quitting a game in the terminal -------------------------------------------------

TABLE = ["play", "cog", "--players", "2", "--seats", "random,greedy", "--seed", "5", "--table"]


def _play(argv: list[str], typed: str, monkeypatch: pytest.MonkeyPatch) -> CliResult:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    return run_cli(argv)


def test_at_the_table_q_is_the_letter_q_and_quit_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "game.json"
    result = _play([*TABLE, "--record", str(record)], "3\nq\nquit\n", monkeypatch)
    assert result.status == 0, result.err
    assert "'quit' stops the game (a single letter, q too, is always a letter drawn)" in result.out
    assert "Draw a letter from the bag" in result.out and "Game abandoned." in result.out
    actions = Record.loads(record.read_text()).actions
    assert [action.notation() for action in actions] == ["roll 3", "draw Q"]


HUMAN_SEAT = {
    "cog": ["--players", "2", "--seats", "human,random"],
    "commissars": ["--seats", "human,greedy", "--seed", "2"],
    "cookie": ["--seat", "1=human"],
    "kogworks": ["--red", "human"],
}


@pytest.mark.parametrize("game", sorted(front_ends()))
def test_every_game_quits_on_quit_only_and_its_prompt_says_so(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _play(["play", game, *HUMAN_SEAT[game]], "q\nQUIT\n", monkeypatch)
    assert "Traceback" not in result.err
    assert QUIT in result.out
    quitted = result.out.lower().count("abandoned") + result.out.count("left unfinished")
    quitted += result.err.count("game abandoned")
    assert quitted == 1, result.out[-500:] + result.err
    assert "input ended" not in (result.out + result.err).lower()
    assert not is_quit("q") and is_quit(" Quit ")


# -- a reader that goes away ---------------------------------------------------------


def test_output_piped_into_a_reader_that_stops_is_no_traceback() -> None:
    """``cogtable profile show | head -1``: the reader closes the pipe before cogtable writes."""
    child = subprocess.Popen(
        [sys.executable, "-m", "cogtable", "profile", "show"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    child.stdout.close()  # gone long before the child has even imported cogtable
    _, err = child.communicate(timeout=60)
    assert err == b""
    assert child.returncode == 128 + signal.SIGPIPE


ALL_BOTS = {
    "cog": ["--seats", "random,random"],
    "commissars": ["--seats", "random,greedy"],
    "cookie": ["--seat", "1=random"],
    "kogworks": ["--red", "random", "--blue", "random"],
}
"""Arguments that seat no human, so each game writes its moves at once."""


@pytest.mark.parametrize("game", sorted(ALL_BOTS))
def test_a_game_piped_into_a_reader_that_stops_ends_as_every_command_does(game: str) -> None:
    """``cogtable play GAME | head -1``: status 141 and nothing said, in every game."""
    child = subprocess.Popen(
        [sys.executable, "-m", "cogtable", "play", game, *ALL_BOTS[game]],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    child.stdout.close()
    _, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (128 + signal.SIGPIPE, b"")
