"""A board's calibration: the colours of its empty pegs and cogs, and its file format.

All colours are stored relative to the local board colour the reader measures
on the rim, so the lighting of the calibration frame cancels out: every empty
peg's own colour, the red, blue and gold cogs' colours, and what a peg's
centre looks like against the ring around it (a dark or a bright metal pin, a
dark or a metal hub on each cog colour: ``centre``). Beyond its colours the
owner's board: ``shade``, how much darker (log) an empty peg looks for each
cog next to it (their shadows, under this table's light), and ``rim``, the
rim's own pattern (72 log-colour residuals from the smooth light: wood grain,
print, a lamp's usual shading), so neither reads as something over the board.
:mod:`vision.peg_disk.learning` learns one from frames of a known layout.

The calibration file is JSON::

    {"format": "cogtable-vision-calibration", "version": 1,
     "geometry": {...}, "empty": [[b, g, r] x 55], "colours": {"red": [b, g, r], ...},
     "centre": {"empty": [b, g, r], "red": [b, g, r], ...}, "shade": 0.1,
     "rim": [[b, g, r] x 72]}

(a file without ``centre`` is read with dark pins and hubs, as older files
were; ``shade`` and ``rim`` are optional: none and a plain rim).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from vision.peg_disk.geometry import LABELS, PEGS, BoardGeometry

FORMAT = "cogtable-vision-calibration"
VERSION = 1
RIM_POSITIONS = 72
"""Rim positions the reader samples (and calibration learns the pattern of)."""
MAX_SHADE = 0.5
"""Largest darkening (log) per neighbouring cog calibration accepts for an empty peg."""

Colour = tuple[float, float, float]
CENTRE_CLASSES = ("empty", *LABELS)


def dark_centres() -> dict[str, Colour]:
    """The centre contrasts of dark pins and dark hubs (files written before ``centre``)."""
    return {
        "empty": (-0.82, -1.0, -1.03),
        "red": (-0.76, -0.77, -0.86),
        "blue": (-0.76, -0.73, -0.64),
        "gold": (-0.79, -0.93, -0.94),
    }


class CalibrationError(ValueError):
    """A calibration that cannot be learned, saved or loaded; the message says why."""


@dataclass(frozen=True)
class Calibration:
    """Board colour at each peg and the three cog colours, relative to the local board,
    and the centre contrast of an empty peg and of each cog colour."""

    geometry: BoardGeometry
    empty: tuple[Colour, ...]
    colours: dict[str, Colour]
    centre: dict[str, Colour] = field(default_factory=dark_centres)
    shade: float = 0.0
    rim: tuple[Colour, ...] = ()

    def __post_init__(self) -> None:
        """Refuse calibrations with missing or non-finite colours."""
        if len(self.empty) != len(PEGS):
            raise CalibrationError(
                f"calibration: {len(self.empty)} empty colours, expected {len(PEGS)}"
            )
        if set(self.colours) != set(LABELS):
            raise CalibrationError(f"calibration: colours must be {', '.join(LABELS)}")
        if set(self.centre) != set(CENTRE_CLASSES):
            raise CalibrationError(f"calibration: centre must be {', '.join(CENTRE_CLASSES)}")
        if self.rim and len(self.rim) != RIM_POSITIONS:
            raise CalibrationError(
                f"calibration: {len(self.rim)} rim colours, expected {RIM_POSITIONS}"
            )
        if not (math.isfinite(self.shade) and 0.0 <= self.shade <= MAX_SHADE):
            raise CalibrationError(f"calibration: shade must be 0..{MAX_SHADE}, got {self.shade}")
        values = [*self.empty, *self.colours.values(), *self.centre.values(), *self.rim]
        if not all(len(c) == 3 and all(math.isfinite(v) for v in c) for c in values):
            raise CalibrationError("calibration: every colour must be three finite numbers")

    @classmethod
    def reference(cls, geometry: BoardGeometry | None = None) -> Calibration:
        """The calibration of the reference set (what :func:`vision.peg_disk.learning.learn`
        learns from a clean frame of our renderer, kept in ``reference_calibration.json``),
        for ``geometry``: the colours are relative to the board, so they carry over."""
        return replace(_reference(), geometry=geometry or BoardGeometry())

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see the module docstring)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "geometry": self.geometry.to_dict(),
            "empty": [list(c) for c in self.empty],
            "colours": {k: list(v) for k, v in self.colours.items()},
            "centre": {k: list(v) for k, v in self.centre.items()},
            "shade": self.shade,
            "rim": [list(c) for c in self.rim],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Calibration:
        """Inverse of :meth:`to_dict`; a clear CalibrationError for anything malformed."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError("not a cogtable calibration file")
        if data.get("version") != VERSION:
            raise CalibrationError(
                f"calibration version {data.get('version')!r}, expected {VERSION}"
            )
        try:
            geometry = BoardGeometry.from_dict(data["geometry"])
            empty = tuple(_colour(c) for c in data["empty"])
            colours = {str(k): _colour(v) for k, v in data["colours"].items()}
            centre = {str(k): _colour(v) for k, v in data.get("centre", dark_centres()).items()}
            shade = float(data.get("shade", 0.0))
            rim = tuple(_colour(c) for c in data.get("rim", []))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, CalibrationError):
                raise
            raise CalibrationError(f"calibration file: bad or missing value ({error})") from error
        return cls(geometry, empty, colours, centre, shade, rim)

    def dumps(self) -> str:
        """The calibration file's text (what :meth:`save` writes and :meth:`load` reads)."""
        return json.dumps(self.to_dict(), indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the calibration file (atomically: a crash never leaves half a file).

        A failed write removes its temporary file and raises the ``OSError``.
        """
        target = Path(path)
        temporary = target.with_name(target.name + ".tmp")
        try:
            temporary.write_text(self.dumps(), encoding="utf-8")
            temporary.replace(target)
        finally:
            temporary.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file; CalibrationError names the file and the problem."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise CalibrationError(
                f"cannot read calibration file {path}: {error.strerror}"
            ) from error
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CalibrationError(f"calibration file {path} is not valid JSON: {error}") from error
        try:
            return cls.from_dict(data)
        except CalibrationError as error:
            raise CalibrationError(f"calibration file {path}: {error}") from error


def _colour(value: Any) -> Colour:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise CalibrationError(f"calibration: a colour must be 3 numbers, got {value!r}")
    return (float(value[0]), float(value[1]), float(value[2]))


def as_colour(values: np.ndarray) -> Colour:
    """Three numbers, rounded as the file keeps them."""
    return (round(float(values[0]), 4), round(float(values[1]), 4), round(float(values[2]), 4))


REFERENCE_FILE = Path(__file__).with_name("reference_calibration.json")
"""The reference set's calibration (``python -m vision.peg_disk.learning`` writes it)."""


@lru_cache(maxsize=1)
def _reference() -> Calibration:
    return Calibration.load(REFERENCE_FILE)
