"""Learn the colours of the empty board and the red, blue and gold cogs from real frames.

The user lays out a known position (by default the Kogworks start: only the
three fixed wheels, gold top, red and blue bases) and the table takes one or
more frames of it. Every empty peg gives the board's own colour at that peg;
the cogs give the cog colours. All colours are stored relative to the local
board colour the reader measures on the rim, so the lighting of the
calibration frame cancels out. Calibration also learns what a peg's centre
looks like against the ring around it: a dark or a bright metal pin, a dark or
a metal hub on each cog colour (``centre``).

Frames are combined robustly: a frame that cannot be read, or that shows
something over the board, is left out (the others are enough, and the message
says which were left out); a few noisy rim points do not spoil a frame; and
every colour is the median over the frames, so one bad frame does not move it.

The calibration file is JSON::

    {"format": "cogtable-vision-calibration", "version": 1,
     "geometry": {...}, "empty": [[b, g, r] x 55], "colours": {"red": [b, g, r], ...},
     "centre": {"empty": [b, g, r], "red": [b, g, r], ...}}

(a file without ``centre`` is read with dark pins and hubs, as older files were).
Calibration also learns the owner's board beyond its colours: ``shade``, how
much darker (log) an empty peg looks for each cog next to it (their shadows,
under this table's light), and ``rim``, the rim's own pattern (72 log-colour
residuals from the smooth light: wood grain, print, a lamp's usual shading),
so neither reads as something over the board. Both are optional in the file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from vision.peg_disk.geometry import LABELS, PEGS, BoardGeometry, Position, start_position

FORMAT = "cogtable-vision-calibration"
VERSION = 1
MIN_SEPARATION = 0.35
"""Smallest colour distance allowed between two calibrated classes."""
RIM_POSITIONS = 72
"""Rim positions the reader samples (and calibration learns the pattern of)."""
MAX_SHADE = 0.5
"""Largest darkening (log) per neighbouring cog calibration accepts for an empty peg."""
NOISY_RIM_POINTS = 6
"""A calibration frame with fewer rim points off the board than this is only noisy, not covered."""

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
        """The calibration of the reference set, learned from a clean synthetic frame."""
        return _reference(json.dumps((geometry or BoardGeometry()).to_dict(), sort_keys=True))

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


def learn(
    frames, layout: Position | None = None, geometry: BoardGeometry | None = None
) -> Calibration:
    """Learn a calibration from frames showing ``layout`` (the start position by default).

    Frames that cannot be read or show something over the board are left out
    as long as at least half of them (and one) remain; every colour is the
    median over the frames used. Raises CalibrationError naming the frames and
    why when too few can be used, when a colour is missing from the layout, or
    when two colours look alike.
    """
    from vision.peg_disk.reader import BoardReader

    layout = layout or start_position()
    geometry = geometry or BoardGeometry()
    reader = BoardReader(geometry, _neutral(geometry))
    readings, refused = [], []
    for index, frame in enumerate(frames):
        reading, problem = _usable(reader.read(frame))
        if reading is None:
            refused.append(f"calibration frame {index + 1}: {problem}")
        else:
            readings.append(reading)
    if not readings and not refused:
        raise CalibrationError("calibration needs at least one frame")
    if len(refused) == 1 and not readings:
        raise CalibrationError(refused[0])
    if not readings or len(readings) < len(refused):
        raise CalibrationError(
            f"calibration: only {len(readings)} of {len(readings) + len(refused)} frames "
            f"usable ({'; '.join(refused)})"
        )
    features = np.median([reading.features for reading in readings], axis=0)
    contrast = np.median([reading.centre_contrast for reading in readings], axis=0)
    learned = _from_features(geometry, features, contrast, layout)
    residual = np.median([reader.rim_residual(reading.rim) for reading in readings], axis=0)
    return replace(learned, shade=_shade(geometry, features, layout), rim=_rim_pattern(residual))


def _shade(geometry: BoardGeometry, features: np.ndarray, layout: Position) -> float:
    """How much darker (log) an empty peg looks per cog next to it, from the layout's empty
    pegs next to cogs against those with none (0 when the layout has neither)."""
    pegs = geometry.peg_positions()
    apart = np.linalg.norm(pegs[:, None] - pegs[None], axis=2)
    adjacent = (apart > 0) & (apart <= 1.1 * geometry.peg_pitch)
    cogs = np.array([layout.get(peg) is not None for peg in PEGS])
    beside = (adjacent & cogs[None, :]).sum(axis=1)
    luminance = features.mean(axis=1)
    far, near = ~cogs & (beside == 0), ~cogs & (beside > 0)
    if not far.any() or not near.any():
        return 0.0
    darker = (np.median(luminance[far]) - luminance[near]) / beside[near]
    return round(float(np.clip(np.median(darker), 0.0, MAX_SHADE)), 4)


def _rim_pattern(residual: np.ndarray) -> tuple[Colour, ...]:
    """The rim's own pattern: the median residual per position, where it is small enough to be
    the board's (larger: something lay over the rim in calibration; left out)."""
    from vision.peg_disk.reader import RIM_TOLERANCE

    small = np.abs(residual).max(axis=1, keepdims=True) < RIM_TOLERANCE
    return tuple(_as_colour(row) for row in np.where(small, residual, 0.0))


def _usable(reading) -> tuple[object | None, str]:
    """The reading if calibration can use it, else None and why."""
    if not reading.ok:
        return None, f"{reading.status}: {reading.message}"
    if reading.covered and reading.rim_outliers >= NOISY_RIM_POINTS:
        return None, f"{reading.message}; clear the board"
    return reading, ""


def _from_features(
    geometry: BoardGeometry, features: np.ndarray, contrast: np.ndarray, layout: Position
) -> Calibration:
    labels = [layout.get(peg) for peg in PEGS]
    empty_rows = [i for i, label in enumerate(labels) if label is None]
    if not empty_rows:
        raise CalibrationError("calibration layout must leave some pegs empty")
    fallback = np.median(features[empty_rows], axis=0)
    empty = tuple(
        _as_colour(features[i] if labels[i] is None else fallback) for i in range(len(PEGS))
    )
    colours = {}
    centre = {"empty": _as_colour(np.median(contrast[empty_rows, 0], axis=0))}
    for name in LABELS:
        rows = [i for i, label in enumerate(labels) if label == name]
        if not rows:
            raise CalibrationError(f"calibration layout has no {name} cog")
        colours[name] = _as_colour(np.median(features[rows], axis=0))
        centre[name] = _as_colour(np.median(contrast[rows, 1], axis=0))
    _check_separation({"empty": _as_colour(fallback), **colours})
    return Calibration(geometry, empty, colours, centre)


def _check_separation(colours: dict[str, Colour]) -> None:
    from vision.peg_disk.reader import colour_distance

    names = list(colours)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            distance = float(colour_distance(np.array(colours[a]), np.array(colours[b])))
            if distance < MIN_SEPARATION:
                raise CalibrationError(
                    f"{a} and {b} look alike to the camera (distance {distance:.2f}); "
                    "check the lighting and that the layout matches what was asked"
                )


def _as_colour(values: np.ndarray) -> Colour:
    return (round(float(values[0]), 4), round(float(values[1]), 4), round(float(values[2]), 4))


def _neutral(geometry: BoardGeometry) -> Calibration:
    """A placeholder calibration used only to measure features before learning."""
    zero = (0.0, 0.0, 0.0)
    return Calibration(
        geometry,
        (zero,) * len(PEGS),
        {"red": (0, -1, 1), "blue": (1, 0, -1), "gold": (-1, 1, 0)},
        dict.fromkeys(CENTRE_CLASSES, zero),
    )


@lru_cache(maxsize=4)
def _reference(geometry_json: str) -> Calibration:
    from vision.peg_disk.renderer import Camera, Renderer, Scene

    geometry = BoardGeometry.from_dict(json.loads(geometry_json))
    frame, _ = Renderer(geometry).render(Scene(start_position(), (960, 720), Camera(fill=0.92)))
    return learn([frame], start_position(), geometry)
