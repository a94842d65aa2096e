"""The rim: bare board outside the peg triangle, where no cog can ever stand.

It shows the board colour under this frame's light: a smooth per-channel surface fitted to it
gives the local board colour at every peg. Anything on the rim that is not board (an arm, its
shadow) marks the frame as covered; when all of it is board of the same hue, only darker or
lighter, it is flagged as possibly a shadow (a lamp), which the settling filter accepts once it
stays put.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.peg_disk.geometry import BoardGeometry
from vision.peg_disk.pixels import SATURATED, glints, median_of_three
from vision.surface import fit_lighting, only_shade

RIM_TOLERANCE = 0.14
"""Largest log-colour difference between a rim point and the fitted board surface."""
RUN_TOLERANCE = 0.06
"""A rim point off the board's surface by this much (log) is faintly off..."""
RIM_NOISE_FACTOR = 4.0
"""On a noisy frame a rim point is off the board only beyond this many times the rim's own
noise (:func:`_rim_noise`), when that is more than :data:`RIM_TOLERANCE`..."""
RUN_NOISE_FACTOR = 2.5
"""...and faintly off beyond this many times it, when that is more than RUN_TOLERANCE: a
cheap webcam's noise is not an arm (a clean frame keeps the fixed tolerances)."""
RUN_LENGTH = 3
"""...and this many faintly-off rim points in a row are something over the board."""
RIM_GLINT = 0.05
"""A rim point brighter (log) than the board by this in every channel may be a glint."""
GLINT_RUN = 2
"""Longest run of glinting rim positions that is a glint and not something over the board."""
NEAR_CLIPPED = 236
"""Board predicted this bright (or brighter) in a channel may be clipped there: a clipped peg
then counts as the board's colour (an upper bound on the peg needs the board at 247)."""
MIN_RIM_POINTS = 12
"""Fewest unclipped rim points a channel of the board surface is fitted to."""


@dataclass(frozen=True)
class RimFit:
    """The rim's log colours (72, 3), how many of them are not bare board, and each one's
    residual from the smooth light through the rim (72, 3)."""

    values: np.ndarray
    outliers: int
    residual: np.ndarray | None = None


@dataclass(frozen=True)
class BoardFit:
    """The local board colour at every peg (log, (55, 3)), which channels of it are clipped,
    the rim fit, and whether what is over the rim is only shade."""

    at_pegs: np.ndarray
    clipped: np.ndarray
    rim: RimFit
    shaded: bool


def _rim_noise(residual: np.ndarray, known: np.ndarray) -> float:
    """This frame's sensor noise on the bare rim (log): the robust spread (1.4826 MAD) of the
    residuals from the smooth light, the noisiest channel's (an arm over part of the rim
    moves a median little)."""
    spread = [
        1.4826 * float(np.median(np.abs(residual[known[:, c], c])))
        for c in range(residual.shape[1])
        if known[:, c].any()
    ]
    return max(spread, default=0.0)


def rim_message(rim: RimFit, shaded: bool) -> str:
    if rim.outliers < 2:
        return ""
    if shaded:
        return f"a shadow or something board-coloured over the board ({rim.outliers} rim points)"
    return f"something over the board ({rim.outliers} rim points)"


def rim_basis(points: np.ndarray, radius: float) -> np.ndarray:
    """Smooth-surface basis 1, x, y, xy, x^2 - y^2 (x^2 + y^2 is constant on a circle)."""
    x, y = points[:, 0] / radius, points[:, 1] / radius
    return np.column_stack([np.ones_like(x), x, y, x * y, x * x - y * y])


def local_glints(glints: np.ndarray) -> np.ndarray:
    """The glinting rim positions that are small spots (runs of at most :data:`GLINT_RUN`).

    A specular spot on the rim is local; a long white run (a sheet of paper,
    a sleeve) is something over the board.
    """
    if not glints.any() or glints.all():
        return np.zeros_like(glints) if glints.all() else glints
    start = int(np.argmin(glints))
    rolled = np.roll(glints, -start)
    local = np.zeros_like(rolled)
    index = 0
    while index < len(rolled):
        if not rolled[index]:
            index += 1
            continue
        end = index
        while end < len(rolled) and rolled[end]:
            end += 1
        local[index:end] = end - index <= GLINT_RUN
        index = end
    return np.roll(local, start)


def _runs(flags: np.ndarray, length: int) -> np.ndarray:
    """The flags that belong to a run of at least ``length`` in a row, around a circle."""
    if flags.all():
        return flags.copy()
    count = np.zeros(len(flags), int)
    rolled = np.roll(flags, -int(np.argmin(flags)))
    run = 0
    for index, flag in enumerate(rolled):
        run = run + 1 if flag else 0
        count[index] = run
    marked = np.zeros(len(flags), bool)
    for index in np.flatnonzero(count >= length):
        marked[index - count[index] + 1 : index + 1] = True
    return np.roll(marked, int(np.argmin(flags)))


class RimModel:
    """The rim of one board: where its points are, the smooth light surface through them, and
    the board's own pattern there (calibration's), fitted afresh in every frame."""

    def __init__(self, geometry: BoardGeometry, pegs: np.ndarray, pattern) -> None:
        radius = geometry.disk_radius
        rim = geometry.rim_points(72)
        unit = rim / np.linalg.norm(rim, axis=1, keepdims=True)
        step = 0.12 * geometry.peg_pitch
        self.points = np.concatenate([rim - step * unit, rim, rim + step * unit])
        """Three points across the rim band for each of 72 rim positions, (216, 2)."""
        self.basis = rim_basis(rim, radius)
        self.peg_basis = rim_basis(pegs, radius)
        self.pattern = np.array(pattern) if pattern else np.zeros((72, 3))

    def board(self, rim: np.ndarray) -> BoardFit:
        """The local board colour at every peg, fitted to the rim's (216, 3) samples, and what
        is over the rim.

        The smooth surface is fitted, channel by channel, to the rim points that
        agree with it (clipped values as they are: a clipped peg then compares
        with clipped board); a rim point that disagrees is something over the
        rim (and so are :data:`RUN_LENGTH` neighbours in a row that disagree only
        faintly: an arm whose skin is about the colour of the board), unless it
        is a small glint: saturated, or brighter than the board
        in every channel (white light added; a clipped channel is unknown, at
        least the clipping level, so it never says a point is not brighter),
        and at most :data:`GLINT_RUN` rim positions long. When
        every such point is only darker board (same hue), it may be a shadow,
        which the settling filter learns to live with if it stays put. Where a
        channel of the board is clipped the peg colours relative to it are
        bounds (see :func:`vision.peg_disk.colour.peg_colour`).
        """
        raw = median_of_three(rim.reshape(3, -1, 3))
        values = np.log(raw + 1.0) - np.where(raw < SATURATED, self.pattern, 0.0)
        glinting = local_glints(glints(raw))
        known = np.broadcast_to(~glinting[:, None], values.shape)
        coefficients, residual, keep = self.fit(values, known)
        noise = _rim_noise(residual, known)
        if noise * RIM_NOISE_FACTOR > RIM_TOLERANCE:
            tolerance = noise * RIM_NOISE_FACTOR
            coefficients, residual, keep = self.fit(values, known, tolerance)
        at_pegs = self.peg_basis @ coefficients
        fitted = (keep[:, None] & known).sum(axis=0) >= MIN_RIM_POINTS
        at_pegs = np.where(fitted, at_pegs, np.log(256.0))
        clipped = (at_pegs >= np.log(NEAR_CLIPPED + 1.0)) | ~fitted
        brighter = ~keep & ((residual > RIM_GLINT) | (raw >= SATURATED)).all(axis=1)
        run_tolerance = max(RUN_TOLERANCE, RUN_NOISE_FACTOR * noise)
        faint = _runs(np.abs(residual).max(axis=1) >= run_tolerance, RUN_LENGTH)
        outliers = (~keep | faint) & ~local_glints(glints(raw) | brighter)
        fit = RimFit(values, int(outliers.sum()), residual)
        return BoardFit(at_pegs, clipped, fit, only_shade(residual[outliers]))

    def fit(self, values: np.ndarray, known: np.ndarray, tolerance: float = RIM_TOLERANCE):
        """The smooth surface through the rim's log colours (72, 3): coefficients, every
        point's residual from it (0 where not ``known``), and the points that agree with it
        (within ``tolerance``)."""
        keep = np.ones(len(values), bool)
        for _ in range(2):
            coefficients = fit_lighting(
                self.basis, values, (keep[:, None] & known).astype(float), ridge=1e-9
            )
            residual = np.where(known, values - self.basis @ coefficients, 0.0)
            keep = np.abs(residual).max(axis=1) < tolerance
            if keep.sum() < 12:
                break
        return coefficients, residual, keep

    def residual(self, rim: np.ndarray) -> np.ndarray:
        """How far each rim position's log colour (a reading's ``rim``, (72, 3)) lies from the
        smooth surface through the rim: the board's own pattern, when the rim is bare."""
        return self.fit(rim, np.ones(rim.shape, bool))[1]
