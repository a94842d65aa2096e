"""Learn a calibration (:mod:`vision.peg_disk.calibration`) from frames of a known layout.

The user lays out a known position (by default the Kogworks start: only the
three fixed wheels, gold top, red and blue bases) and the table takes one or
more frames of it. Every empty peg gives the board's own colour at that peg;
the cogs give the cog colours; the pins and hubs their contrast; the empty
pegs next to cogs how much their neighbours' shade darkens them; the bare rim
its own pattern. Frames are combined robustly: a frame that cannot be read, or
that shows something over the board, is left out (the others are enough, and
the message says which were left out); a few noisy rim points do not spoil a
frame; and every colour is the median over the frames, so one bad frame does
not move it.

``python -m vision.peg_disk.learning`` writes the reference set's calibration
(:data:`vision.peg_disk.calibration.REFERENCE_FILE`), learned from a clean
frame of our renderer.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.peg_disk.calibration import (
    CENTRE_CLASSES,
    MAX_SHADE,
    REFERENCE_FILE,
    Calibration,
    CalibrationError,
    Colour,
    as_colour,
)
from vision.peg_disk.colour import COLOUR_SIGMA, colour_distance
from vision.peg_disk.geometry import LABELS, PEGS, BoardGeometry, Position, start_position
from vision.peg_disk.pixels import SATURATED
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import Camera, Renderer, Scene
from vision.peg_disk.rim import RIM_TOLERANCE

MIN_SEPARATION = 2 * COLOUR_SIGMA
"""Smallest colour distance allowed between two calibrated classes: two colour spreads
(:data:`vision.peg_disk.colour.COLOUR_SIGMA`), so one frame still tells them apart by 2 nats
and a still board's frames add up (was 0.35 when one frame had to be certain on its own)."""
NOISY_RIM_POINTS = 6
"""A calibration frame with fewer rim points off the board than this is only noisy, not covered."""


def learn(
    frames, layout: Position | None = None, geometry: BoardGeometry | None = None
) -> Calibration:
    """Learn a calibration from frames showing ``layout`` (the start position by default).

    Frames that cannot be read or show something over the board are left out
    as long as at least half of them (and one) remain; every colour is the
    median over the frames used. Raises CalibrationError, one line naming each
    problem once and the frames it hit, when too few can be used, when a
    colour is missing from the layout, or when two colours look alike. Under a
    lamp's shadow (the rim shows only shade) the empty pegs' darkening by their
    neighbouring cogs cannot be told from the lamp's: it is not learned (the
    reader then allows its default, :data:`vision.peg_disk.reader.SHADE_PER_COG`).
    """
    layout = layout or start_position()
    geometry = geometry or BoardGeometry()
    reader = BoardReader(geometry, _neutral(geometry))
    readings, refused = [], {}
    for index, frame in enumerate(frames):
        reading, problem = _usable(reader.read(frame))
        if reading is None:
            refused.setdefault(problem, []).append(index + 1)
        else:
            readings.append(reading)
    count = len(readings) + sum(len(numbers) for numbers in refused.values())
    if not count:
        raise CalibrationError("calibration needs at least one frame")
    if not readings or len(readings) < count - len(readings):
        raise CalibrationError(_refusal(len(readings), count, refused))
    features = np.median([reading.features for reading in readings], axis=0)
    contrast = np.median([reading.centre_contrast for reading in readings], axis=0)
    learned = _from_features(geometry, features, contrast, layout)
    residual = np.median([reader.rim.residual(reading.rim) for reading in readings], axis=0)
    shaded = any(reading.covered for reading in readings)
    shade = 0.0 if shaded else _shade(geometry, features, layout)
    return replace(learned, shade=shade, rim=_rim_pattern(residual))


def _refusal(usable: int, count: int, refused: dict[str, list[int]]) -> str:
    """One line: how many frames were usable, and each problem once with the frames it hit."""
    problems = "; ".join(
        f"{problem} ({_frames(numbers, count)})" for problem, numbers in refused.items()
    )
    if count == 1:
        return f"calibration frame 1: {next(iter(refused))}"
    return f"calibration: only {usable} of {count} frames usable: {problems}"


def _frames(numbers: list[int], count: int) -> str:
    """'all 3 frames', 'frame 2' or 'frames 1, 3'."""
    if len(numbers) == count:
        return f"all {count} frames"
    return f"frame{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


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
    small = np.abs(residual).max(axis=1, keepdims=True) < RIM_TOLERANCE
    return tuple(as_colour(row) for row in np.where(small, residual, 0.0))


def _usable(reading) -> tuple[object | None, str]:
    """The reading if calibration can use it, else None and why.

    A rim showing only shade (the board's own hue, darker: a lamp's shadow
    across the table) is the table's light, which its owner cannot clear:
    usable, its shadow part of what is learned (the shade per cog is then not
    measured, see :func:`learn`). Anything else over the rim is not; when much
    of the rim is clipped white the light, not a hand, is what to change.
    """
    if not reading.ok:
        return None, f"{reading.status}: {reading.message}"
    if reading.covered and reading.rim_outliers >= NOISY_RIM_POINTS and not reading.shaded:
        clipped = int((reading.rim >= np.log(SATURATED + 1.0)).all(axis=1).sum())
        if clipped >= NOISY_RIM_POINTS:
            return None, (
                f"the board is over-exposed ({clipped} of {len(reading.rim)} rim points "
                "clipped white): dim the light or lower the camera's exposure"
            )
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
        as_colour(features[i] if labels[i] is None else fallback) for i in range(len(PEGS))
    )
    colours = {}
    centre = {"empty": as_colour(np.median(contrast[empty_rows, 0], axis=0))}
    for name in LABELS:
        rows = [i for i, label in enumerate(labels) if label == name]
        if not rows:
            raise CalibrationError(f"calibration layout has no {name} cog")
        colours[name] = as_colour(np.median(features[rows], axis=0))
        centre[name] = as_colour(np.median(contrast[rows, 1], axis=0))
    _check_separation({"empty": as_colour(fallback), **colours})
    return Calibration(geometry, empty, colours, centre)


def _check_separation(colours: dict[str, Colour]) -> None:
    names = list(colours)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            distance = float(colour_distance(np.array(colours[a]), np.array(colours[b])))
            if distance < MIN_SEPARATION:
                raise CalibrationError(
                    f"{a} and {b} look alike to the camera (distance {distance:.2f}); "
                    "check the lighting and that the layout matches what was asked"
                )


def _neutral(geometry: BoardGeometry) -> Calibration:
    """A placeholder calibration used only to measure features before learning."""
    zero = (0.0, 0.0, 0.0)
    return Calibration(
        geometry,
        (zero,) * len(PEGS),
        {"red": (0, -1, 1), "blue": (1, 0, -1), "gold": (-1, 1, 0)},
        dict.fromkeys(CENTRE_CLASSES, zero),
    )


def learned_reference(geometry: BoardGeometry | None = None) -> Calibration:
    """Learn the reference set's calibration from a clean frame of our renderer (what
    :meth:`Calibration.reference` keeps in its file)."""
    geometry = geometry or BoardGeometry()
    frame, _ = Renderer(geometry).render(Scene(start_position(), (960, 720), Camera(fill=0.92)))
    return learn([frame], start_position(), geometry)


def main() -> None:
    """Write the reference calibration file (after a change to the reader or the renderer)."""
    learned_reference().save(REFERENCE_FILE)
    print(f"wrote {REFERENCE_FILE}")


if __name__ == "__main__":
    main()
