"""The web view reads a running table's folder as a user who may only read it (the web unit's).

The referee's journal is open and being written (its ``-wal`` and ``-shm`` are
there); the web view, run as ``nobody`` (tests/unprivileged.py) on a folder and
files it cannot write, still draws the live game and its moves, and changes
nothing in the folder.
"""

from __future__ import annotations

from typing import Any

from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.sensors import Sensors
from cogtable.service.runner import StatusWriter
from cogtable.web.table_view import TableFolder
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import make_table
from tests.unprivileged import READ_ONLY, Snapshot, as_reader, shared_folder


def test_a_running_tables_folder_is_read_by_a_user_who_cannot_write_it() -> None:
    with shared_folder() as state_dir:
        table, _ = make_table(
            state_dir / "journal.sqlite3", GameChoice("cookie", {"players": 4}), Sensors(dice=True)
        )
        table.handle(ConsoleCommand("Blue", answers=table.asking()[0].key), 1.0)
        StatusWriter(state_dir, lambda: table.status().to_json())(force=True)
        assert (state_dir / "journal.sqlite3-wal").stat().st_size > 0, "the writer is running"
        folder = TableFolder(state_dir, load_profile())
        expected = folder.live()["board"]["lines"]
        for path in state_dir.iterdir():
            path.chmod(0o644)
        state_dir.chmod(READ_ONLY)
        before = Snapshot.of(state_dir)

        def read() -> tuple[Any, list[str]]:
            return folder.live()["board"]["lines"], [m.words for m in folder.moves(1)]

        lines, moves = as_reader(read)
        assert lines == expected
        assert moves == ["deal for P1's role card"]
        assert Snapshot.of(state_dir) == before
        table.journal.close()
