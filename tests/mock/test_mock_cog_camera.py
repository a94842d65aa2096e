"""C.O.G. on the mock table through the rendered camera: the real reader, never a wrong action.

The synthetic camera draws the board and the mats at 1920x1080 with the mock
owner's tiles (a font the letter reader was not trained on, taught first);
the people lay letters, dice, cogs and words. A short run is enough to show
the whole path holds: every action the journal took from the camera is the
one the people meant (a misread tile, a hand over a mat, is never a move),
and the table kept going.
"""

from __future__ import annotations

from pathlib import Path

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.journal import JOURNAL_NAME, Journal
from hardware.profile import load_profile
from tests.mock.helpers import StopAfter

PLIES_WANTED = 18
"""Stop once the game has gone this far (Phase I's draws and Phase II's first placements)."""
CAMERA_ACTIONS_WANTED = 8
MAX_FRAMES = 900


def test_the_rendered_camera_gives_the_table_exactly_what_the_people_laid(
    tmp_path: Path,
) -> None:
    argv = ["sim", "cog", "--players", "2", "--seed", "5", "--quiet", "--undo-rate", "0"]
    argv += ["--camera", "render"]
    args = build_parser().parse_args([*argv, "--mistake-rate", "0.2"])
    stop = StopAfter(PLIES_WANTED, MAX_FRAMES)
    played = sim.play(args, load_profile(), tmp_path, actors=[stop])
    assert played.runtime.letters is not None, "the mock owner taught the reader first"
    assert len(played.runtime.letters.owner_samples()[1]) >= 26
    with Journal(tmp_path / JOURNAL_NAME) as journal:
        rows = journal.connection.execute("SELECT source FROM actions ORDER BY ply").fetchall()
    history = played.runtime.table.state.history
    camera = [action for action, (source,) in zip(history, rows, strict=True) if source == "camera"]
    assert len(camera) >= CAMERA_ACTIONS_WANTED, (len(camera), stop.frames, played.reason)
    meant = iter(played.people.meant)
    assert all(action in meant for action in camera), "every camera action is one a person meant"
