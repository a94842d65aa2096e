"""Read markers too small for the ArUco detector's own bit reading, in squares it rejected.

A marker 10-14 pixels wide (a mat far from a 720p camera) has cells of about two
pixels: blurred by the lens and JPEG, they bleed into each other and the
detector's reading of the bits fails, though it finds the marker's outline (and
rejects it). Here each small rejected square is sampled at its cells' middles,
over a few small shifts and scalings of the outline (a tiny square's outline is
off by up to a pixel), and the 36 cell values are matched against every wanted
marker (black border and 16 bits) in its four turns. A square is taken for the
marker it matches best when the match is close (:data:`MIN_CORRELATION`) and
its border is dark and at most :data:`MAX_BIT_ERRORS` bit is wrong (nearer the other
side's grey than its own, :data:`WRONG_SHARE`). Where two markers of a part are
found, the others are sought near where those two place them (:func:`read_near`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.markers import dictionary

CELL = 6
"""Pixels per marker cell in the sampled square; each cell's middle (CELL - 2)^2 is read."""
CELLS = 6
"""Cells across a 4x4 marker with its one-cell black border."""
MAX_SIDE = 40.0
"""Larger squares (pixels) are left to the detector: their bits are read well there."""
MAX_SQUARES = 96
"""At most this many rejected squares (the smallest first) are read in a frame."""
MIN_CORRELATION = 0.75
"""Least correlation of a square's cells with the marker's pattern (1 is a perfect match)."""
MAX_BIT_ERRORS = 1
"""Most of the 16 bits allowed wrong; the border's 20
cells must all be dark (with two wrong cells anywhere, a dark square with one light border
cell and a random pattern was read as one of 50 markers in 1 of 20 tries)."""
WRONG_SHARE = 0.6
"""A cell is wrong when it lies this share of the way from its own side's mean to the other's:
a light bit between dark cells, blurred, loses up to half its contrast without being wrong."""
COARSE_STEP = 1.0
"""Pixels between the shifts of the coarse look around a predicted marker."""
MIN_CONTRAST = 25.0
"""Least difference (grey levels) between the marker's light and dark cells' means."""
_STEPS = tuple(
    (dx, dy, s) for dx in (-0.5, 0.0, 0.5) for dy in (-0.5, 0.0, 0.5) for s in (0.92, 1.0, 1.08)
)
_BORDER = np.ones((CELLS, CELLS), bool)
_BORDER[1:-1, 1:-1] = False
_BORDER = _BORDER.ravel()
_SIDE = CELL * CELLS
_TARGET = np.array([[0, 0], [_SIDE, 0], [_SIDE, _SIDE], [0, _SIDE]], np.float32)


@dataclass(frozen=True)
class _Match:
    marker_id: int
    corners: np.ndarray
    correlation: float


def read_squares(
    gray: np.ndarray, squares: Sequence[np.ndarray], wanted: Iterable[int]
) -> dict[int, np.ndarray]:
    """Wanted marker id -> image corners (4, 2), in the marker's corner order, of the
    ``squares`` (each (4, 2) pixels) read as one of the ``wanted`` markers.

    A marker read in two squares far apart is dropped (it is not known which is right).
    """
    ids = tuple(sorted(set(wanted)))
    if not ids:
        return {}
    patterns = _patterns(ids)
    small = sorted(
        (square for square in squares if float(np.ptp(square, axis=0).max()) <= MAX_SIDE),
        key=lambda square: float(np.ptp(square, axis=0).max()),
    )[:MAX_SQUARES]
    matches: dict[int, list[_Match]] = {}
    for square in small:
        match = _read(gray, square, ids, patterns, _STEPS)
        if match is not None:
            matches.setdefault(match.marker_id, []).append(match)
    return {
        marker_id: best.corners
        for marker_id, found in matches.items()
        if (best := _one_place(found)) is not None
    }


def read_near(gray: np.ndarray, predicted: Mapping[int, np.ndarray], reach: float) -> dict:
    """Marker id -> image corners (4, 2) of each predicted marker read within ``reach`` pixels
    of where it was predicted (its corners (4, 2), in its corner order).

    The square is first matched on a coarse grid of shifts, then finely around the best.
    """
    found = {}
    coarse = np.arange(-reach, reach + 0.01, COARSE_STEP)
    grid = tuple((float(dx), float(dy), 1.0) for dx in coarse for dy in coarse)
    for marker_id, square in predicted.items():
        if float(np.ptp(square, axis=0).max()) > MAX_SIDE:
            continue
        patterns = _patterns((marker_id,))[:1]
        near = _read(gray, square, (marker_id,), patterns, grid, loose=True)
        if near is None:
            continue
        match = _read(gray, near.corners, (marker_id,), patterns, _STEPS)
        if match is not None:
            found[marker_id] = match.corners
    return found


def _read(  # noqa: PLR0917
    gray: np.ndarray,
    square: np.ndarray,
    ids: tuple[int, ...],
    patterns: np.ndarray,
    steps: Sequence[tuple[float, float, float]],
    loose: bool = False,
) -> _Match | None:
    """The wanted marker the square shows, at the shift and scale (of ``steps``) that match
    best; or None. ``loose``: the best place however poor the match (a coarse first look)."""
    centre = square.mean(axis=0)
    tries = [(square - centre) * s + centre + (dx, dy) for dx, dy, s in steps]
    cells = np.array([_cells(gray, quad) for quad in tries])
    centred = cells - cells.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(centred, axis=1, keepdims=True)
    correlation = (centred / np.maximum(norms, 1e-6)) @ patterns.T
    step, best = np.unravel_index(int(np.argmax(correlation)), correlation.shape)
    marker_id, turn = ids[best // 4], best % 4
    if loose:
        return _Match(marker_id, tries[step], float(correlation[step, best]))
    if correlation[step, best] < MIN_CORRELATION:
        return None
    if not _clean(cells[step], _pattern(marker_id, turn)):
        return None
    corners = np.roll(tries[step], -turn, axis=0)
    return _Match(marker_id, corners, float(correlation[step, best]))


def _cells(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The mean grey of each cell's middle (36,), the square sampled upright."""
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), _TARGET)
    patch = cv2.warpPerspective(gray, matrix, (_SIDE, _SIDE), flags=cv2.INTER_LINEAR)
    middles = patch.reshape(CELLS, CELL, CELLS, CELL)[:, 1:-1, :, 1:-1]
    return middles.mean(axis=(1, 3), dtype=np.float32).ravel()


def _clean(cells: np.ndarray, pattern: np.ndarray) -> bool:
    """Light and dark cells far enough apart, the border all dark and few bits wrong."""
    light, dark = cells[pattern].mean(), cells[~pattern].mean()
    if light - dark < MIN_CONTRAST:
        return False
    band = WRONG_SHARE * (light - dark)
    wrong = np.where(pattern, cells < light - band, cells > dark + band)
    return not wrong[_BORDER].any() and int(wrong.sum()) <= MAX_BIT_ERRORS


def _one_place(found: list[_Match]) -> _Match | None:
    """The best match of one id, unless another lies apart from it (overlapping outlines of
    one marker agree)."""
    best = max(found, key=lambda match: match.correlation)
    side = float(np.ptp(best.corners, axis=0).max())
    centre = best.corners.mean(axis=0)
    apart = any(np.linalg.norm(m.corners.mean(axis=0) - centre) > 0.5 * side for m in found)
    return None if apart else best


@lru_cache(maxsize=64)
def _patterns(ids: tuple[int, ...]) -> np.ndarray:
    """Each id's four turns as zero-mean unit rows (4 * len(ids), 36)."""
    rows = np.array([_pattern(i, turn) for i in ids for turn in range(4)], np.float32)
    rows -= rows.mean(axis=1, keepdims=True)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@lru_cache(maxsize=256)
def _pattern(marker_id: int, turn: int) -> np.ndarray:
    """The marker's 6x6 cells (True: light), bits turned ``turn`` quarter turns, flat."""
    bits = cv2.aruco.Dictionary.getBitsFromByteList(
        dictionary().bytesList[marker_id : marker_id + 1], 4
    )
    cells = np.zeros((CELLS, CELLS), bool)
    cells[1:-1, 1:-1] = np.rot90(bits, -turn) > 0
    cells.flags.writeable = False
    return cells.ravel()
