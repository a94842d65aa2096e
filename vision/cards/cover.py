"""What on a card mat is not its print: the colour model the card reader explains with cards.

The mat is warped small (:data:`COVER_PX_PER_MM`) in colour and compared with
its known print (:func:`vision.cards.sheet.draw_mat`) as log colour, under a
smooth light fitted to it (six terms per channel, fitted to the pixels that
look like the print, three times). A pixel is not mat when its hue moved
(:data:`CHROMA_LIMIT`) or its brightness moved more than a shadow does
(:data:`LUMINANCE_LIMIT`) from the lit print. The card reader
(:mod:`vision.cards.reader`) then checks at :data:`EXPLAIN_PX_PER_MM` that
every blob of not-mat lies on a card it read.

A camera's own noise is no cover. Each time the light is fitted the frame's
noise is measured on the pixels that look like the print (a robust spread per
channel, :class:`Noise`), and a pixel is not mat only when it also lies
:data:`NOISE_SIGMAS` of that noise away: on a clean frame the fixed limits
decide; on a noisy one (a dim room, a webcam's blotchy colour noise, JPEG) the
dark channels of the green mat no longer turn into blobs. The same noise sets
how far the view must move for a change (:meth:`CoverModel.changed`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.cards.mat import CARD_SIZE_MM, CardMatLayout
from vision.cards.sheet import draw_mat
from vision.part_sheet import sheet_matrix

COVER_PX_PER_MM = 0.25
"""Scale of the colour view compared with the mat's print (a card is 16 x 22 of its pixels)."""
EXPLAIN_PX_PER_MM = 2 * COVER_PX_PER_MM
"""Scale at which the not-mat is checked against the cards read (a 2 mm pixel): a card peeping
6 mm from under another is three of its pixels wide."""
LOG_OFFSET = 8.0
"""Colours are compared as log(value + this): a dark channel's noise does not look like change."""
CHROMA_LIMIT = 0.22
"""A pixel whose hue moved this far (log units) from the mat's print under the fitted light
is not mat."""
LUMINANCE_LIMIT = 0.55
"""A pixel this much (log units) lighter or darker than the lit print is not mat (a shadow,
which is about 0.3, is)."""
NOISE_SIGMAS = 5.0
"""A pixel is not mat only if it is also this many of the frame's noise sigmas from the lit
print (:class:`Noise`); a change, this many sigmas of the difference of two frames."""
MIN_BLOB_MM2 = 200.0
"""Less not-mat than this (a fingertip, misregistered print) is ignored."""
EXPLAIN_MARGIN_MM = 2.0
"""A read card explains the not-mat this far round it: its sleeve. Its shadow, and a sticker
stuck a few millimetres and degrees off, leave slivers beyond that which an opening of three
:data:`EXPLAIN_PX_PER_MM` pixels removes (a card showing a tenth of itself from under another
shows a strip 6 to 9 mm wide)."""
EXPLAINED_MM = (CARD_SIZE_MM[0] + 2 * EXPLAIN_MARGIN_MM, CARD_SIZE_MM[1] + 2 * EXPLAIN_MARGIN_MM)
"""The size of what one card read explains (the card and its margin)."""
CHANGE_LIMIT = 0.15
"""A view pixel whose log colour moved this far since the tags were looked for has changed."""
CHANGE_REACH_MM = 50.0
"""Tags are looked for again this far round a change (a card's half-diagonal)."""
LIGHT_ROUNDS = 4
"""Fits of the light, each to the pixels the last one found print-like: the first keeps by the
fixed limits (a hand or a card is no noise), the next two measure the noise of what they kept
and keep by it, the last fits what they kept."""
LIGHT_STEP = 2
"""The light is fitted to every second pixel of every second row (it is smooth), then judged
on every pixel."""
NOISE_SAMPLE = 1500
"""Pixels the noise is measured on (evenly spread over those that look like print)."""
MAD_SIGMA = 1.4826
"""A normal spread's sigma per median absolute deviation."""


@dataclass(frozen=True)
class Blob:
    """Not-mat that the cards read do not explain: its area, the zones it reaches, its box (mm)."""

    area_mm2: float
    zones: tuple[str, ...]
    box_mm: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Noise:
    """A frame's noise in log colour over pixels of the print (sigmas, robust).

    ``channel``: each channel's (3,); ``hue``: each channel less the pixel's
    luminance (3,); ``luminance``: the mean of the three.
    """

    channel: np.ndarray
    hue: np.ndarray
    luminance: float

    @classmethod
    def of(cls, residual: np.ndarray) -> Noise:
        """The noise of log residuals (N, 3) that are mostly print (a minority may be other)."""
        luminance = residual.mean(axis=1)
        hue = residual - luminance[:, None]
        return cls(_spread(residual), _spread(hue), float(_spread(luminance[:, None])[0]))

    def limits(self) -> tuple[np.ndarray, float]:
        """Per channel the hue limit (3,), and the luminance limit, beyond which is not mat."""
        hue = np.maximum(CHROMA_LIMIT, NOISE_SIGMAS * self.hue)
        return hue.astype(np.float32), max(LUMINANCE_LIMIT, NOISE_SIGMAS * self.luminance)

    def change_limits(self) -> np.ndarray:
        """Per channel (3,), how far a view pixel must move between two frames to have changed."""
        return np.maximum(CHANGE_LIMIT, NOISE_SIGMAS * math.sqrt(2) * self.channel)


def _sample(mask: np.ndarray) -> np.ndarray:
    """Indices of at most about :data:`NOISE_SAMPLE` of ``mask``'s set pixels, evenly spread."""
    where = np.flatnonzero(mask)
    return where[:: max(1, len(where) // NOISE_SAMPLE)]


def _spread(rows: np.ndarray) -> np.ndarray:
    """Per column, the robust sigma (median absolute deviation) of ``rows`` (N, k)."""
    if len(rows) < 10:
        return np.zeros(rows.shape[1], np.float32)
    columns = np.ascontiguousarray(rows.T)
    middle = len(rows) // 2
    centre = np.partition(columns, middle, axis=1)[:, middle : middle + 1]
    return MAD_SIGMA * np.partition(np.abs(columns - centre), middle, axis=1)[:, middle]


class CoverModel:
    """The mat's print at :data:`COVER_PX_PER_MM`, its light basis and its zones as pixel maps.

    :attr:`noise` is the noise measured when the light was last fitted (None before).
    """

    def __init__(self, mat: CardMatLayout) -> None:
        self.mat = mat
        self.size = (round(mat.width_mm * COVER_PX_PER_MM), round(mat.height_mm * COVER_PX_PER_MM))
        self.print_log = _print_log(mat)
        width, height = self.size
        self.basis = _light_basis(width, height, 0.0)
        grid = np.zeros((height, width), bool)
        grid[::LIGHT_STEP, ::LIGHT_STEP] = True
        self.light_sample = np.flatnonzero(grid)
        self.zone_map = np.zeros((height, width), np.int32)  # 0: no zone, k: zones[k - 1]
        for index, zone in enumerate(mat.zones, start=1):
            (x0, y0), (x1, y1) = zone.corners()
            box = [round(v * COVER_PX_PER_MM) for v in (x0, y0, x1, y1)]
            self.zone_map[box[1] : box[3], box[0] : box[2]] = index
        self.ignored = np.zeros((height, width), bool)
        for marker in mat.markers:
            (x0, y0), _, (x1, y1), _ = marker.corners()
            reach = marker.side / 6 + 2 / COVER_PX_PER_MM
            box = [
                round(v * COVER_PX_PER_MM) for v in (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
            ]
            self.ignored[max(0, box[1]) : box[3], max(0, box[0]) : box[2]] = True
        self.zone_pixels = np.bincount(self.zone_map.ravel(), minlength=len(mat.zones) + 1)
        self.fine_size = (2 * width, 2 * height)
        self.fine_print_log = _print_log(mat, EXPLAIN_PX_PER_MM)
        self.fine_basis = _light_basis(2 * width, 2 * height, 0.5)
        self.fine_zone_map = np.kron(self.zone_map, np.ones((2, 2), np.int32))
        self.fine_ignored = np.kron(self.ignored, np.ones((2, 2), bool))
        self.fine: np.ndarray | None = None
        self.noise: Noise | None = None

    def view(self, image: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The mat from above at :data:`COVER_PX_PER_MM`, log colour relative to its print.

        Warped at twice the scale and halved by area, so each pixel averages
        a few of the frame's (a still mat's view hardly changes with noise).
        """
        to_view = sheet_matrix(EXPLAIN_PX_PER_MM) @ np.linalg.inv(homography)
        fine = cv2.warpPerspective(image, to_view, self.fine_size, flags=cv2.INTER_LINEAR)
        self.fine = fine  # the frame's finer view, for unexplained()
        small = cv2.resize(fine, self.size, interpolation=cv2.INTER_AREA)
        return np.log(small.astype(np.float32) + LOG_OFFSET) - self.print_log

    def light(self, view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The smooth light over the mat (basis coefficients, 6 x 3) and which pixels it fits
        (fitted on a :data:`LIGHT_STEP` grid);
        measures the view's :attr:`noise` on the pixels the previous fit kept (the first fit
        keeps by the fixed limits alone, so a hand's or a card's colour is never taken for
        noise; each later one by the noise so measured, which grows to a noisy frame's own)."""
        flat = view.reshape(-1, 3)
        basis, sample = self.basis[self.light_sample], flat[self.light_sample]
        keep = np.ones(len(sample), bool)
        noise = None
        for round_ in range(LIGHT_ROUNDS):
            kept = basis[keep]
            normal = kept.T @ kept + 1e-6 * np.eye(6, dtype=np.float32)
            coefficients = np.linalg.solve(normal, kept.T @ sample[keep])
            residual = sample - basis @ coefficients
            if round_ in (1, 2):
                noise = Noise.of(residual[_sample(keep)])
            keep = _mat_like(residual, noise)
            if keep.sum() < 100:
                break
        keep = _mat_like(flat - self.basis @ coefficients, noise)
        self.noise = noise
        return coefficients, keep

    def fine_not_mat(self, view: np.ndarray) -> np.ndarray:
        """uint8 mask of what is not the print at :data:`EXPLAIN_PX_PER_MM`, of the frame
        :meth:`view` last saw (judged against the finer pixels' own noise).

        Only looked at near the view's own not-mat (the fine pixels of its pixels and their
        neighbours): elsewhere the mat is bare.
        """
        assert self.fine is not None
        coefficients, keep = self.light(view)
        coarse = ((~keep).reshape(self.size[1], self.size[0]) & ~self.ignored).astype(np.uint8)
        near = np.kron(cv2.dilate(coarse, np.ones((3, 3), np.uint8)), np.ones((2, 2), np.uint8))
        noise = self._fine_noise(coefficients, keep)
        where = np.flatnonzero(near & ~self.fine_ignored)
        mask = np.zeros(self.fine_size[1] * self.fine_size[0], np.uint8)
        mask[where] = ~_mat_like(self._fine_residual(coefficients, where), noise)
        mask = mask.reshape(self.fine_size[1], self.fine_size[0])
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))

    def _fine_residual(self, coefficients: np.ndarray, where: np.ndarray) -> np.ndarray:
        """The fine view's log residuals (N, 3) from the lit print at flat indices ``where``."""
        assert self.fine is not None
        pixels = self.fine.reshape(-1, 3)[where].astype(np.float32)
        residual = np.log(pixels + LOG_OFFSET) - self.fine_print_log.reshape(-1, 3)[where]
        return residual - self.fine_basis[where] @ coefficients

    def _fine_noise(self, coefficients: np.ndarray, keep: np.ndarray) -> Noise:
        """The fine view's noise, on one fine pixel of each coarse pixel that looks like print."""
        width = self.fine_size[0]
        rows, columns = np.divmod(_sample(keep & ~self.ignored.ravel()), self.size[0])
        where = (2 * rows) * width + 2 * columns
        return Noise.of(self._fine_residual(coefficients, where))

    def unexplained(self, view: np.ndarray, outlines: Sequence[np.ndarray]) -> list[Blob]:
        """Blobs of not-mat (at :data:`EXPLAIN_PX_PER_MM`) that lie in none of ``outlines`` (the
        cards read, each (4, 2) mat mm, :data:`EXPLAINED_MM` in size), however small a share
        of a card they are (a blob under :data:`MIN_BLOB_MM2`, or a sliver under 6 mm wide,
        is noise)."""
        mask = self.fine_not_mat(view)
        if len(outlines):
            explained = np.zeros_like(mask)
            for outline in outlines:  # one by one: fillPoly leaves where two overlap unfilled
                points = np.round((outline * EXPLAIN_PX_PER_MM - 0.5) * 16).astype(np.int32)
                cv2.fillPoly(explained, [points], 1, cv2.LINE_8, 4)
            mask &= 1 - explained
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return self._blobs(mask)

    def _blobs(self, mask: np.ndarray) -> list[Blob]:
        """The mask's blobs of at least :data:`MIN_BLOB_MM2`, with the zones each reaches."""
        count, labels, stats, _centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        pixel_mm2 = 1 / EXPLAIN_PX_PER_MM**2
        areas = stats[:, cv2.CC_STAT_AREA] * pixel_mm2
        odd = [label for label in range(1, count) if areas[label] >= MIN_BLOB_MM2]
        if not odd:
            return []
        zones = len(self.mat.zones) + 1
        overlap = np.bincount(
            labels.ravel() * zones + self.fine_zone_map.ravel(), minlength=count * zones
        )
        overlap = overlap.reshape(count, zones)
        enough = MIN_BLOB_MM2 / 4 / pixel_mm2
        blobs = []
        for label in odd:
            x, y, w, h = (float(v) / EXPLAIN_PX_PER_MM for v in stats[label, :4])
            reached = tuple(
                z.name
                for z, n in zip(self.mat.zones, overlap[label, 1:], strict=True)
                if n >= enough
            )
            blobs.append(Blob(float(areas[label]), reached, (x, y, x + w, y + h)))
        return blobs

    def changed(self, view: np.ndarray, before: np.ndarray) -> list[tuple[float, ...]]:
        """Boxes (x0, y0, x1, y1 mm) round every place where the view changed since ``before``
        (by :data:`CHANGE_LIMIT`, or more where the frame's :attr:`noise` asks)."""
        limits = CHANGE_LIMIT if self.noise is None else self.noise.change_limits()
        moved = ((np.abs(view - before) > limits).any(axis=2) & ~self.ignored).astype(np.uint8)
        moved = cv2.morphologyEx(moved, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        if not moved.any():
            return []
        reach = 2 * round(CHANGE_REACH_MM * COVER_PX_PER_MM) + 1
        grown = cv2.dilate(moved, np.ones((reach, reach), np.uint8))
        count, _labels, stats, _c = cv2.connectedComponentsWithStats(grown, connectivity=8)
        boxes = []
        for x, y, w, h, _area in stats[1:count]:
            boxes.append(tuple(float(v) / COVER_PX_PER_MM for v in (x, y, x + w, y + h)))
        return boxes

    def renew(self, memory: np.ndarray, view: np.ndarray, box: tuple[float, ...]) -> None:
        """Take the view's pixels of a box (mm) into the remembered view."""
        x0, y0, x1, y1 = (round(v * COVER_PX_PER_MM) for v in box)
        memory[y0:y1, x0:x1] = view[y0:y1, x0:x1]

    def features(self, view: np.ndarray) -> np.ndarray:
        """Mean relative colour of every zone (what the settling filter watches for motion)."""
        zones = self.zone_map.ravel()
        flat = view.reshape(-1, 3)
        sums = np.stack(
            [np.bincount(zones, flat[:, c], minlength=len(self.zone_pixels)) for c in range(3)], 1
        )
        return (sums / np.maximum(self.zone_pixels, 1)[:, None])[1:]


def _light_basis(width: int, height: int, offset: float) -> np.ndarray:
    """The six smooth light terms (1, u, v, u2, uv, v2) at every pixel, (width * height, 6)."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    u, v = (xs - offset) / width - 0.5, (ys - offset) / height - 0.5
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=-1).reshape(-1, 6)


def _mat_like(residual: np.ndarray, noise: Noise | None = None) -> np.ndarray:
    """Rows of log residuals (N, 3) that are the print under light: same hue, near brightness
    (within the fixed limits, or within :data:`NOISE_SIGMAS` of ``noise``)."""
    hue_limit, luminance_limit = (
        (CHROMA_LIMIT, LUMINANCE_LIMIT) if noise is None else noise.limits()
    )
    luminance = residual.mean(axis=1)
    hue = np.abs(residual - luminance[:, None])
    return (hue < hue_limit).all(axis=1) & (np.abs(luminance) < luminance_limit)


@lru_cache(maxsize=8)
def _print_log(mat: CardMatLayout, px_per_mm: float = COVER_PX_PER_MM) -> np.ndarray:
    """log(BGR + 1) of the mat's print at ``px_per_mm`` (a multiple of :data:`COVER_PX_PER_MM`;
    drawn fine, then shrunk)."""
    fine = draw_mat(mat, 4 * COVER_PX_PER_MM)
    times = round(px_per_mm / COVER_PX_PER_MM)
    size = (
        times * round(mat.width_mm * COVER_PX_PER_MM),
        times * round(mat.height_mm * COVER_PX_PER_MM),
    )
    small = cv2.resize(fine, size, interpolation=cv2.INTER_AREA)
    return np.log(small.astype(np.float32) + LOG_OFFSET)
