"""The Cookie on the mock card mat through the rendered camera: the real card reader, no wrong card.

The synthetic camera draws the mat, the tagged cards face up, the card backs
and the hands reaching in; the card reader reads every frame and the mat
settles as at a real table. A short run shows the whole path holds: every
action the journal took from the camera is one the people meant (a hand over
a zone is never a move), in their order.
"""

from __future__ import annotations

from pathlib import Path

from cogtable.cli import build_parser
from cogtable.commands import sim
from cogtable.journal import JOURNAL_NAME, Journal
from hardware.profile import load_profile
from tests.mock.helpers import StopAfter

PLIES_WANTED = 6
"""Stop once the game has gone this far (a turn's four cards and its aims)."""
MAX_FRAMES = 600


def test_the_rendered_camera_gives_the_table_exactly_what_the_people_laid(
    tmp_path: Path,
) -> None:
    argv = ["sim", "cookie", "--variant", "hunt", "--players", "4", "--seed", "5", "--quiet"]
    argv += ["--camera", "render", "--size", "1280x720", "--undo-rate", "0"]
    args = build_parser().parse_args(argv)
    stop = StopAfter(PLIES_WANTED, MAX_FRAMES)
    played = sim.play(args, load_profile(), tmp_path, actors=[stop])
    with Journal(tmp_path / JOURNAL_NAME) as journal:
        rows = journal.connection.execute("SELECT source FROM actions ORDER BY ply").fetchall()
    history = played.runtime.table.state.history
    assert len(history) >= PLIES_WANTED, (len(history), stop.frames, played.reason)
    assert {source for (source,) in rows} == {"camera"}
    meant = played.people.meant  # type: ignore[attr-defined]
    assert history == meant[: len(history)], "every card the camera gave is one a person meant"
