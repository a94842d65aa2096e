"""Read a die lying in its place on a part: empty, or the face it shows, with a confidence.

The die place is cut out of the frame at :data:`DIE_PX_PER_MM` (the pips need
more pixels than colour does). The die is the blob that is not paper (its
body and its pips); its pips are where the lightness departs from the body's
towards the pips'; its turn comes from the pips' layout. Its face is the one
whose pips, as soft discs in every way the face can lie, correlate best with
the pipness over the die's face (so a pip no face explains counts against
it, and a die turned any way reads), confirmed by counting pip blobs where
the camera resolves them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.layout import EMPTY, Place
from vision.markers import project
from vision.parts.colours import (
    MATCH_DISTANCE,
    lightness,
    relative_log,
    relative_to,
    squared_distance_each,
)

DIE_PX_PER_MM = 3.0
"""Die places are cut out of the frame at this scale."""
MIN_BODY_SHARE = 0.15
"""A die place showing less of its die's body colour than this is empty."""
SPREAD_TRIALS = (0.88, 1.0, 1.12)
"""Trial distances of the pips from the die's centre, as shares of the look's (the die's
side is an estimate)."""
TURN_TRIALS = (-6.0, 0.0, 6.0)
"""Trial turns of the pips (degrees) about the turn their layout gave."""
GRID_REACH = 0.4
"""The pipness is compared with each face's over this share of the die's side from its centre."""
SAME_DIE = 5.0
"""A die place whose crop differs from the last one read by less than this (mean absolute grey
levels) shows the same die: it is not read again."""
RESOLVED_PIP_PX = 5.0
"""Pips at least this many frame pixels across are counted as blobs (smaller ones merge)."""


DIE_FACES: dict[int, tuple[tuple[int, ...], ...]] = {
    1: ((4,),),
    2: ((0, 8), (2, 6)),
    3: ((0, 4, 8), (2, 4, 6)),
    4: ((0, 2, 6, 8),),
    5: ((0, 2, 4, 6, 8),),
    6: ((0, 2, 3, 5, 6, 8), (0, 1, 2, 6, 7, 8)),
}
"""Each face's pips on the 3 x 3 grid of pip spots (0 top-left .. 8 bottom-right, in the die's
own frame), in both ways the face can lie (a die turned a quarter shows the other)."""


@dataclass(frozen=True)
class DieLook:
    """A die's colours (BGR) and its pips' layout: the outer pips' offset from the centre
    and a pip's radius, in die sides."""

    body: tuple[int, int, int]
    pip: tuple[int, int, int]
    pip_offset: float = 0.27
    pip_radius: float = 0.095


@dataclass(frozen=True)
class DieResult:
    """What a die place shows: its label, a confidence, its mean relative colour, and whether
    it matches nothing (something else lies on it)."""

    label: str
    confidence: float
    feature: np.ndarray
    unknown: bool


class DieReader:
    """One die place: where to cut it out of the frame and how to read the die in it."""

    def __init__(self, place: Place, look: DieLook) -> None:
        self.place = place
        self.body = relative_log(np.array(look.body, np.float32))
        self.pip = relative_log(np.array(look.pip, np.float32))
        self.look = look
        self.side_mm = min(place.width, place.height)
        reach = 0.7 * self.side_mm
        self.size = round(2 * reach * DIE_PX_PER_MM)
        self.to_crop = np.array(
            [
                [DIE_PX_PER_MM, 0, -(place.x - reach) * DIE_PX_PER_MM - 0.5],
                [0, DIE_PX_PER_MM, -(place.y - reach) * DIE_PX_PER_MM - 0.5],
                [0, 0, 1.0],
            ]
        )
        self.centre = (place.x, place.y)
        self.from_crop = np.linalg.inv(self.to_crop)
        self._last: tuple[np.ndarray, DieResult] | None = None
        mid = (self.size - 1) / 2
        ys, xs = np.mgrid[0 : self.size, 0 : self.size]
        half = self.side_mm / 2 * DIE_PX_PER_MM
        self.inside = (np.abs(xs - mid) <= half) & (np.abs(ys - mid) <= half)

    def read(self, image, homography, paper_log: np.ndarray, weight: float) -> DieResult:
        """The die place in this frame, given the local paper's log(v + 1) colour.

        ``weight`` is how much brightness counts against hue for the paper
        (little under a shadow). A die place that looks as it did in the frame
        read last (mean absolute difference below :data:`SAME_DIE` grey levels)
        keeps that reading.
        """
        crop = cv2.warpPerspective(
            image,
            homography @ self.from_crop,
            (self.size, self.size),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        last = self._last
        if last is not None and float(cv2.absdiff(crop, last[0]).mean()) < SAME_DIE:
            return last[1]
        result = self._read_crop(crop, homography, paper_log, weight)
        self._last = (crop, result)
        return result

    def forget(self) -> None:
        """Read the die afresh in the next frame."""
        self._last = None

    def _read_crop(self, crop, homography, paper_log: np.ndarray, weight: float) -> DieResult:
        relative = relative_to(cv2.blur(crop, (3, 3)), paper_log)
        to_body = _distance_to(relative, self.body, 1.0)
        to_pip = _distance_to(relative, self.pip, 1.0)
        to_paper = _distance_to(relative, np.zeros(3, np.float32), weight)
        feature = relative[self.inside].mean(axis=0)
        body = (to_body < 1.5 * MATCH_DISTANCE) & (to_body < to_paper) & (to_body < to_pip)
        share = float(body[self.inside].mean())
        paper_share = float(((to_paper < MATCH_DISTANCE) & ~body)[self.inside].mean())
        if share < MIN_BODY_SHARE:
            confidence = float(np.clip((paper_share - 0.6) / 0.25, 0, 1))
            return DieResult(EMPTY, confidence, feature, paper_share < 0.5)
        pip_px = 2 * self.look.pip_radius * self.side_mm * pixels_per_mm(homography, self.centre)
        die_like = (to_paper > MATCH_DISTANCE) | (to_body < to_paper)
        label, confidence = self._face(body, die_like, relative, pip_px)
        return DieResult(label, confidence, feature, False)

    def _face(self, body, die_like, relative, pip_px: float) -> tuple[str, float]:
        """The face shown by the die, and a confidence.

        Pips differ from the body mostly in lightness (white on black, black on
        colour), so each pixel's "pipness" is where its lightness lies between
        the body's (measured on this die) and the pips' (from the look). Every
        face is symmetric about the die's centre, so the pipness-weighted
        centroid is the centre, and the pips' layout gives the turn. The face
        is the one whose templates (:func:`_templates`) correlate best with the
        pipness; it is trusted when it correlates well, clearly better than any
        other face, and (where the camera resolves pips: ``pip_px`` is their
        diameter in the frame) the pip blobs counted inside the die agree.
        """
        outline = _die_outline(die_like)
        if outline is None:
            return EMPTY, 0.0
        die, side = outline
        expected = DIE_PX_PER_MM * self.side_mm
        if not (0.5 * expected <= side <= 1.15 * expected):
            return EMPTY, 0.0
        light = lightness(relative)
        body_level = float(np.median(light[body & (die > 0)]))
        contrast = float(self.pip.mean()) - body_level
        if abs(contrast) < 0.3:
            return EMPTY, 0.0
        pipness = np.clip((light - body_level) / contrast, 0, 1).astype(np.float32)
        rim = max(1, round(0.1 * side))
        inner = cv2.erode(die, np.ones((2 * rim + 1, 2 * rim + 1), np.uint8))
        turn = _pip_turn(pipness * inner)
        if turn is None:
            return EMPTY, 0.0
        centre, angle = turn
        observed = self._observed(pipness * inner, centre, side, angle)
        if observed.max() < 0.35:
            return EMPTY, 0.0
        faces, templates = _templates(self.look, side)
        scores = _correlations(templates, observed)
        per_face = {face: float(scores[faces == face].max()) for face in DIE_FACES}
        ranked = sorted(per_face, key=per_face.__getitem__, reverse=True)
        best, second = per_face[ranked[0]], per_face[ranked[1]]
        agree = pip_px < RESOLVED_PIP_PX or self._blobs(pipness, inner, side) == ranked[0]
        lead = np.clip((best - second - 0.03) / 0.06, 0, 1)
        fit = np.clip((best - 0.3) / 0.25, 0, 1)
        return str(ranked[0]), float(lead * fit * (1.0 if agree else 0.4))

    def _observed(self, pipness: np.ndarray, centre, side: float, angle: float) -> np.ndarray:
        """The pipness on :func:`_face_grid` over the die's face, turned with the die."""
        grid = _face_grid() * side
        cos, sin = math.cos(angle), math.sin(angle)
        xs = centre[0] + grid[:, 0] * cos - grid[:, 1] * sin
        ys = centre[1] + grid[:, 0] * sin + grid[:, 1] * cos
        values = cv2.remap(
            pipness,
            xs.astype(np.float32).reshape(1, -1),
            ys.astype(np.float32).reshape(1, -1),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
        )
        return values.ravel()

    def _blobs(self, pipness: np.ndarray, inner: np.ndarray, side: float) -> int:
        """Pip-like blobs of about a pip's size inside the die (its rim left out).

        A blob is where the pipness passes half of its peak on the die (small
        blurred pips never reach the look's full pip colour).
        """
        inside = pipness * inner
        pips = (inside > 0.5 * max(float(inside.max()), 0.2)).astype(np.uint8)
        _count, _labels, stats, _ = cv2.connectedComponentsWithStats(pips, connectivity=8)
        area = math.pi * (self.look.pip_radius * side) ** 2
        sizes = stats[1:, cv2.CC_STAT_AREA]
        return int(((sizes > 0.3 * area) & (sizes < 3.0 * area)).sum())


_FACE_PATTERNS = np.array(
    [[1.0 if spot in pips else 0.0 for spot in range(9)] for v in DIE_FACES.values() for pips in v]
)


def _face_rows() -> dict[int, list[int]]:
    """Face -> its rows of :data:`_FACE_PATTERNS`."""
    rows, start = {}, 0
    for face, variants in DIE_FACES.items():
        rows[face] = list(range(start, start + len(variants)))
        start += len(variants)
    return rows


_FACE_ROWS = _face_rows()


def pixels_per_mm(homography: np.ndarray, at: tuple[float, float]) -> float:
    """Frame pixels per part mm at a point (square root of the Jacobian's area)."""
    points = project(homography, np.array([at, (at[0] + 1, at[1]), (at[0], at[1] + 1)]))
    (ax, ay), (bx, by) = points[1] - points[0], points[2] - points[0]
    return math.sqrt(abs(ax * by - ay * bx))


def _pip_turn(pips: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Centre (px) and turn (radians) of a die from its pips' pipness (the rim left out).

    Every face is symmetric about the die's centre, so the pips' centroid is
    the centre. Pips lie on a square grid: seen from the centre, each pip's
    direction taken four times over points the same way (corner pips opposite
    to side pips, which lie nearer), so their sum gives the grid's turn. A
    lone centre pip gives none, and needs none.
    """
    weight = pips * pips
    total = float(weight.sum())
    if total < 1e-3:
        return None
    ys, xs = _grid(pips.shape)
    cx, cy = float((weight * xs).sum() / total), float((weight * ys).sum() / total)
    dx, dy = xs - cx, ys - cy
    r2 = dx * dx + dy * dy
    angle = 4 * np.arctan2(dy, dx)
    real = float((weight * r2 * np.cos(angle)).sum())
    imaginary = float((weight * r2 * np.sin(angle)).sum())
    return np.array([cx, cy]), (math.atan2(imaginary, real) - math.pi) / 4


def _die_outline(die_like: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The die's filled outline (uint8 0/1) and side (px), or None when it is not square.

    The die is the convex hull of the largest blob of die-like pixels: pips
    at its corners may merge with the paper around (white pips on a black die
    at a low resolution), leaving the blob a ragged cross whose hull still
    touches the die's four edges, so the hull's bounding square is the die's.
    """
    contours, _hierarchy = cv2.findContours(
        die_like.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    _centre, (width, height), _angle = cv2.minAreaRect(hull)
    if min(width, height) < 0.8 * max(width, height):
        return None
    filled = np.zeros(die_like.shape, np.uint8)
    cv2.fillConvexPoly(filled, hull, 1)
    return filled, float(width + height) / 2


@lru_cache(maxsize=8)
def _grid(shape: tuple[int, int]) -> np.ndarray:
    """Row and column coordinates of an image of ``shape`` (read-only, cached)."""
    grid = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
    grid.flags.writeable = False
    return grid


@lru_cache(maxsize=1)
def _face_grid() -> np.ndarray:
    """Sample points (in die sides, die frame) covering the die's face inside its rim."""
    steps = np.linspace(-GRID_REACH, GRID_REACH, 13)
    return np.array([(x, y) for y in steps for x in steps])


@lru_cache(maxsize=64)
def _templates_cached(pip_offset: float, pip_radius: float, side: float):
    grid = _face_grid() * side
    sigma = pip_radius * side
    faces, rows = [], []
    for face, variants in DIE_FACES.items():
        for pips in variants:
            spots = np.array([((i % 3) - 1, (i // 3) - 1) for i in pips], np.float64)
            for spread in SPREAD_TRIALS:
                for turn in np.radians(TURN_TRIALS):
                    cos, sin = math.cos(turn), math.sin(turn)
                    at = spots * pip_offset * side * spread @ np.array([[cos, sin], [-sin, cos]])
                    d2 = ((grid[:, None, :] - at[None]) ** 2).sum(axis=2).min(axis=1)
                    rows.append(np.exp(-d2 / (2 * sigma**2)))
                    faces.append(face)
    return np.array(faces), np.array(rows, np.float32)


def _templates(look: DieLook, side: float):
    """Each face's pipness on :func:`_face_grid` (the pips as soft discs), in every way it may
    lie, at the trial spreads and turns: (faces (T,), templates (T, points)).

    ``side`` is rounded to whole pixels so that a handful of template sets are cached.
    """
    return _templates_cached(look.pip_offset, look.pip_radius, float(round(side)))


def _correlations(templates: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Normalised correlation of each template (T, points) with the observed pipness."""
    centred = observed - observed.mean()
    norm = max(float(np.sqrt((centred**2).sum())), 1e-6)
    shapes = templates - templates.mean(axis=1, keepdims=True)
    norms = np.maximum(np.sqrt((shapes**2).sum(axis=1)), 1e-6)
    return (shapes @ centred) / (norms * norm)


def _distance_to(relative: np.ndarray, colour: np.ndarray, weight: float) -> np.ndarray:
    """Per pixel, the distance of relative colours (H, W, 3) to one colour."""
    return np.sqrt(squared_distance_each(relative, colour, weight))
