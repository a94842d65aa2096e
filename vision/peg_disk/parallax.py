"""Cog tops stand above the board: where a tilted camera sees them (the parallax of height).

A point ``h`` mm above the board is seen where the camera's ray through it
meets the board: ``p' = c + (p - c) Z / (Z - h)``, with ``c`` the point under
the camera and ``Z`` its height. Whatever the camera's tilt, the tops of all
cogs (all of one height) are seen on the board plane scaled about one point:
``p' = (1 + k) p + b``, three numbers per frame. The reader looks for the hub
of a few cogs spread over the board in a small neighbourhood of their pegs,
fits ``k`` and ``b`` to where the hubs are, and samples every cog on the plane
of its top.

>>> parallax = Parallax(0.01, (0.5, -1.0))
>>> parallax.displacement(np.array([[100.0, 0.0]])).round(3).tolist()
[[1.5, -1.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SEARCH_STEP = 0.05
"""Spacing (peg pitches) of the hub search grid."""
SEARCH_REACH = 3
"""The search grid reaches this many steps each way (0.15 pitch: a 6 mm cog, 15 degrees)."""
SEARCHED_COGS = 8
"""How many cogs, spread over the board, the hub is looked for on."""
MIN_HUB_CONTRAST = 0.15
"""Smallest log-colour contrast of a hub with its cog for the hub to count as found."""
FIT_TOLERANCE = 0.05
"""Largest distance (pitches) of a found hub from the fitted parallax for it to agree."""
MAX_SCALE = 0.05
"""Largest plausible k (a cog as tall as 1/20 of the camera's height)."""


@dataclass(frozen=True)
class Parallax:
    """Where cog tops are seen: ``(1 + scale) p + shift`` for a peg at ``p`` (board mm)."""

    scale: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)

    def matrix(self) -> np.ndarray:
        """3x3 map from a peg's board point to the board point behind its cog's top."""
        grow = 1.0 + self.scale
        return np.array([[grow, 0.0, self.shift[0]], [0.0, grow, self.shift[1]], [0.0, 0.0, 1.0]])

    def displacement(self, points: np.ndarray) -> np.ndarray:
        """How far (mm) each cog top at ``points`` (N, 2) is seen from its peg."""
        return self.scale * points + np.array(self.shift)


NONE = Parallax()


def search_offsets(pitch: float) -> np.ndarray:
    """The hub search grid around a peg (mm), (49, 2), the zero offset in the middle."""
    steps = np.arange(-SEARCH_REACH, SEARCH_REACH + 1) * SEARCH_STEP * pitch
    xs, ys = np.meshgrid(steps, steps)
    return np.column_stack([xs.ravel(), ys.ravel()])


def spread_choice(points: np.ndarray, count: int = SEARCHED_COGS) -> np.ndarray:
    """Indices of up to ``count`` of ``points`` spread out (farthest-point order)."""
    if len(points) == 0:
        return np.zeros(0, int)
    chosen = [int(np.argmax(np.linalg.norm(points, axis=1)))]
    distance = np.linalg.norm(points - points[chosen[0]], axis=1)
    while len(chosen) < min(count, len(points)):
        chosen.append(int(np.argmax(distance)))
        distance = np.minimum(distance, np.linalg.norm(points - points[chosen[-1]], axis=1))
    return np.array(chosen)


def hub_scores(logs: np.ndarray) -> np.ndarray:
    """How hub-like each searched place is, from log colours (cogs, places, 16, 3).

    The first 8 points are a ring over where the hub would be, the last 8 a
    ring on the cog body around it: the hub is distinct from the body (dark
    or bright metal) and even all round, so the ring's own spread counts against it.
    """
    hub, body = logs[:, :, :8], logs[:, :, 8:]
    contrast = np.linalg.norm(hub.mean(axis=2) - body.mean(axis=2), axis=-1)
    return contrast - hub.std(axis=2).mean(axis=-1) - 0.5 * body.std(axis=2).mean(axis=-1)


def hub_offsets(scores: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cog, the offset (mm) of its hub refined between grid points, and the best score."""
    side = 2 * SEARCH_REACH + 1
    grid = scores.reshape(len(scores), side, side)
    best = grid.reshape(len(grid), -1).argmax(axis=1)
    rows, columns = np.divmod(best, side)
    step = offsets[1, 0] - offsets[0, 0]
    found = offsets[best].copy()
    for index, (row, column) in enumerate(zip(rows, columns, strict=True)):
        if 0 < column < side - 1:
            found[index, 0] += step * _vertex(grid[index, row, column - 1 : column + 2])
        if 0 < row < side - 1:
            found[index, 1] += step * _vertex(grid[index, row - 1 : row + 2, column])
    return found, grid.reshape(len(grid), -1).max(axis=1)


def _vertex(three: np.ndarray) -> float:
    """Where a parabola through three equally spaced values peaks, in steps from the middle."""
    left, middle, right = (float(v) for v in three)
    curvature = left - 2 * middle + right
    return 0.0 if curvature >= 0 else float(np.clip(0.5 * (left - right) / curvature, -0.5, 0.5))


def fit_parallax(pegs: np.ndarray, found: np.ndarray, pitch: float) -> Parallax | None:
    """The parallax that agrees with the hubs found at ``pegs + found``, or None.

    A least-squares fit, then again without the hubs that disagree (a cog held
    off its peg, a hub not found); None unless three hubs agree and the fit is
    plausible.
    """
    keep = np.ones(len(pegs), bool)
    parallax = None
    for _ in range(2):
        if keep.sum() < 3:
            return None
        parallax = _least_squares(pegs[keep], found[keep])
        error = np.linalg.norm(parallax.displacement(pegs) - found, axis=1)
        keep = error < FIT_TOLERANCE * pitch
    if parallax is None or keep.sum() < 3 or abs(parallax.scale) > MAX_SCALE:
        return None
    if np.abs(parallax.shift).max() > SEARCH_REACH * SEARCH_STEP * pitch:
        return None
    return parallax


def _least_squares(pegs: np.ndarray, found: np.ndarray) -> Parallax:
    rows = np.zeros((2 * len(pegs), 3))
    rows[0::2, 0], rows[0::2, 1] = pegs[:, 0], 1.0
    rows[1::2, 0], rows[1::2, 2] = pegs[:, 1], 1.0
    solution = np.linalg.lstsq(rows, found.reshape(-1), rcond=None)[0]
    return Parallax(float(solution[0]), (float(solution[1]), float(solution[2])))
