"""The camera's latest picture with the reader's overlay, kept in the state folder.

The camera thread hands each frame's overlay to :class:`CameraPicture`, which
writes ``<state-dir>/camera.png`` (atomically) at most about once a second and
only when what the camera reads has changed since the picture last written,
so an idle table does not wear the SD card. ``cogtable snapshot`` copies it;
the web live view shows it. Whatever the game, the sight that reads it draws
its own overlay: this module knows no game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cogtable.errors import UserError
from cogtable.files import write_file
from vision.peg_disk.overlay import png_bytes

log = logging.getLogger(__name__)

PICTURE_NAME = "camera.png"
"""The picture's file name in the state folder."""
PERIOD_S = 1.0
"""Least time between two writes."""


@dataclass
class CameraPicture:
    """Writes the overlay picture when the reading changed and a second has passed.

    ``clock`` gives seconds (monotonic); a failed write is logged once and
    retried on the next change, never raised into the camera thread.
    """

    path: Path
    clock: Callable[[], float]
    period: float = PERIOD_S
    written: Hashable = None
    written_at: float = field(default=float("-inf"))
    failed: bool = False

    @classmethod
    def in_state_dir(cls, state_dir: Path, clock: Callable[[], float]) -> CameraPicture:
        """The picture of a state folder."""
        return cls(Path(state_dir) / PICTURE_NAME, clock)

    def offer(self, key: Hashable, draw: Callable[[], np.ndarray | None]) -> bool:
        """Write ``draw()`` if ``key`` (what was read) differs from the written picture's
        and the period has passed since the last write; True when written."""
        now = self.clock()
        if key == self.written or now - self.written_at < self.period:
            return False
        image = draw()
        if image is None:
            return False
        try:
            write_file(self.path, png_bytes(image))
        except (OSError, UserError) as error:
            if not self.failed:
                log.warning("cannot write the camera picture %s: %s", self.path, error)
            self.failed = True
            return False
        self.failed, self.written, self.written_at = False, key, now
        return True
