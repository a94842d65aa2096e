"""Bad input and missing parts: clear messages, nothing recorded wrongly, the game goes on."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from cogtable.cli import main
from cogtable.mock.people.kogworks import People
from cogtable.mock.world import MockWorld
from cogtable.runtime import Runtime
from firmware_bridge.link import Status
from tests.mock.helpers import journal_games, play


class FullDisk:
    """A journal connection whose writes fail as SQLite's do when the disk is full."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.full = False

    def execute(self, sql: str, *args: Any) -> Any:
        if self.full and sql.split(maxsplit=1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.connection.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


class Troubles:
    """Fills the disk, unplugs the camera, then the Pico, each for a while, during one game."""

    def __init__(self) -> None:
        self.step = 0
        self.since = 0
        self.disk: FullDisk | None = None
        self.seen: set[str] = set()

    def __call__(self, world: MockWorld, runtime: Runtime, people: People) -> None:
        moves, waited = len(people.history), world.frames - self.since
        parts = runtime.controller.state.parts
        if "disk is full" in runtime.table.view.message:
            self.seen.add("not recorded")
        if parts["camera"] == "no camera":
            self.seen.add("no camera")
        if parts["link"] in ("reconnecting", "connecting"):
            self.seen.add("link lost")
        if self.step == 0 and moves >= 2:
            self.disk = FullDisk(runtime.journal.connection)
            runtime.journal.connection = self.disk  # type: ignore[assignment]
            self._next(world, "full")
        elif self.step == 1 and waited > 60:
            self._set_full(False)
            self._next(world, "room")
        elif self.step == 2 and moves >= 4:
            world.camera_present = False
            self._next(world, "camera out")
        elif self.step == 3 and waited > 40:
            world.camera_present = True
            self._next(world, "camera in")
        elif self.step == 4 and moves >= 6:
            self._unplug(runtime)
            self._next(world, "unplugged")
        elif self.step == 5 and waited > 30:
            self._plug(runtime)
            self._next(world, "plugged")

    def _next(self, world: MockWorld, what: str) -> None:
        if what == "full":
            self._set_full(True)
        self.step += 1
        self.since = world.frames

    def _set_full(self, full: bool) -> None:
        assert self.disk is not None
        self.disk.full = full

    def _unplug(self, runtime: Runtime) -> None:
        assert runtime.simulator is not None and runtime.link is not None
        runtime.simulator.unplug()
        runtime.link.wait_status({Status.RECONNECTING, Status.CONNECTING}, 5.0)

    def _plug(self, runtime: Runtime) -> None:
        assert runtime.simulator is not None and runtime.link is not None
        runtime.simulator.plug()
        assert runtime.link.wait_status({Status.CONNECTED}, 10.0) == Status.CONNECTED
        time.sleep(0.2)  # the link re-sends the LED state as it reconnects


def test_full_disk_lost_camera_and_unplugged_pico_record_nothing_wrongly(tmp_path: Path) -> None:
    troubles = Troubles()
    played = play(tmp_path, "--seed", "7", "--illegal-rate", "0", actors=[troubles])
    assert played.people.finished, played.reason
    assert troubles.step == 6, "every trouble happened before the game ended"
    assert troubles.seen == {"not recorded", "no camera", "link lost"}
    ((status, actions),) = journal_games(tmp_path)
    assert status == "finished"
    assert actions == played.people.played[0].moves
    assert played.runtime.controller.state.parts["link"] == "connected"


def test_a_broken_profile_is_one_clear_line(tmp_path: Path, capsys: Any) -> None:
    profile = tmp_path / "broken.toml"
    profile.write_text('name = "x"\n[camera]\nsource = "synthetic"\nresolution = "big"\n')
    assert main(["sim", "kogworks", "--profile", str(profile), "--state-dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "camera.resolution" in error
    assert not (tmp_path / "journal.sqlite3").exists()


def test_a_journal_that_is_not_sqlite_is_refused_untouched(tmp_path: Path, capsys: Any) -> None:
    journal = tmp_path / "journal.sqlite3"
    journal.write_bytes(b"these are my holiday notes, not a database\n")
    assert main(["sim", "kogworks", "--quiet", "--state-dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "not a cogtable journal" in error
    assert journal.read_bytes() == b"these are my holiday notes, not a database\n"
    assert not (tmp_path / "mock-world.json").exists()


@pytest.mark.parametrize(
    "text", ["{not json", "{}", "[]", '{"people": {"finished": false}, "world": {}}']
)
def test_a_bad_saved_board_is_one_clear_line(tmp_path: Path, capsys: Any, text: str) -> None:
    (tmp_path / "mock-world.json").write_text(text)
    assert main(["sim", "kogworks", "--quiet", "--state-dir", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert "cannot read the mock board" in error and error.count("\n") == 1
