"""Find every part's ArUco markers in a frame (one search for all parts) and fit each homography.

The parts of a table (a board, the mats) carry markers of one dictionary
(DICT_4X4_50) with ids unique across the table. :class:`MarkerFinder` finds
them all in one search and follows them from frame to frame;
:func:`fit_homography` turns a part's markers into its part-mm-to-pixels map
(three of a part's markers are enough).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import cv2
import numpy as np

from vision.layout import PartLayout
from vision.marker_squares import read_near, read_squares
from vision.markers import dictionary, project

MIN_MARKERS = 3
"""A part is read when at least this many of its markers are seen."""
PLACED_REACH = 0.6
"""How far (in marker sides) from where two of its part's markers place it a marker is sought."""
SMALL_SIDE = 16.0
"""Markers narrower than this (pixels) get the smallest corner refinement window."""


class MarkerFinder:
    """One ArUco search per frame for every part's markers, tracked from frame to frame.

    Markers found in the previous frame are looked for first in small crops
    around their last places, each scaled so a marker is about
    :data:`TRACK_SIDE` pixels (small markers are enlarged: they read better),
    laid side by side and searched at once. The whole frame is searched when a
    tracked marker was lost, and every :data:`FULL_SEARCH_EVERY` frames while
    some marker stays unseen (a hand over it, a part not on the table). A
    wanted marker that search misses is looked for in the squares it rejected
    (:func:`read_squares`): a marker of 10-14 pixels (a mat far from a 720p
    camera) has cells of two pixels, which blur into each other, but its
    outline is found. Corners are refined on the full-resolution frame.
    """

    TRACK_SIDE = 40.0
    TRACK_MARGIN = 0.6
    FULL_SEARCH_EVERY = 5
    DETECT_WIDTH = 2048

    def __init__(self, marker_ids: Iterable[int], parts: Sequence[PartLayout] = ()) -> None:
        self.wanted = frozenset(marker_ids)
        self.parts = tuple(parts)
        self._full = cv2.aruco.ArucoDetector(dictionary(), _full_parameters())
        self._track = cv2.aruco.ArucoDetector(dictionary(), _track_parameters())
        self._refine = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        self._last: dict[int, np.ndarray] = {}
        self._since_full = 0

    def find(self, image: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> image corners (4, 2) of the wanted markers found in a BGR frame."""
        tracked = self._tracked(image) if self._last else {}
        self._since_full += 1
        lost = len(tracked) < len(self._last)
        unseen = len(tracked) < len(self.wanted)
        if not self._last or lost or (unseen and self._since_full >= self.FULL_SEARCH_EVERY):
            found = self._search(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) | tracked
            self._since_full = 0
        else:
            found = tracked
        self._last = found
        return found

    def _search(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        scale = min(1.0, self.DETECT_WIDTH / gray.shape[1])
        small = (
            gray
            if scale == 1.0
            else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        )
        quads, ids, rejected = self._full.detectMarkers(small)
        found = _unique(quads, ids, self.wanted, lambda quad: quad / scale)
        missing = self.wanted - found.keys()
        if missing and rejected:
            squares = [quad.reshape(4, 2).astype(np.float64) / scale for quad in rejected]
            found |= read_squares(gray, squares, missing)
        found |= self._where_placed(gray, found)
        return self._refined(gray, found)

    def _where_placed(self, gray: np.ndarray, found: Mapping[int, np.ndarray]) -> dict:
        """The other markers of a part with two markers found, read near where those two
        place them (a turn, scale and shift: two markers are too close together to fix a
        perspective, so the guess may be off by half a marker: :data:`PLACED_REACH`)."""
        predicted = {}
        for layout in self.parts:
            seen = [marker for marker in layout.markers if marker.id in found]
            if len(seen) != 2:
                continue
            part = np.array([corner for marker in seen for corner in marker.corners()])
            image = np.concatenate([found[marker.id] for marker in seen])
            similarity, _ = cv2.estimateAffinePartial2D(
                part.astype(np.float32), image.astype(np.float32), method=cv2.LMEDS
            )
            if similarity is None:
                continue
            for marker in layout.markers:
                if marker.id not in found:
                    corners = np.array(marker.corners())
                    predicted[marker.id] = corners @ similarity[:, :2].T + similarity[:, 2]
        if not predicted:
            return {}
        side = min(float(np.ptp(corners, axis=0).max()) for corners in predicted.values())
        return read_near(gray, predicted, max(4.0, PLACED_REACH * side))

    def _tracked(self, image: np.ndarray) -> dict[int, np.ndarray]:
        """The previous frame's markers found again near their last places (grey crops only)."""
        crops, boxes = [], []
        for marker_id, corners in self._last.items():
            side = float(np.ptp(corners, axis=0).max())
            x0, y0, x1, y1 = _box_around(corners, image.shape, self.TRACK_MARGIN * side)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            crops.append(cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY))
            boxes.append((marker_id, x0, y0, self.TRACK_SIDE / max(side, 1.0)))
        if not crops:
            return {}
        scaled = [
            cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            for crop, (_i, _x, _y, scale) in zip(crops, boxes, strict=True)
        ]
        mosaic, starts = _mosaic(scaled)
        quads, ids, _rejected = self._track.detectMarkers(mosaic)
        if ids is None:
            return {}
        found = {}
        crop_of = {wanted: index for index, (wanted, _x, _y, _s) in enumerate(boxes)}
        for quad, marker_id in zip(quads, ids.ravel(), strict=True):
            index = crop_of.get(int(marker_id))
            if index is None:
                continue
            corners = quad.reshape(4, 2).astype(np.float64)
            crop, start, small = crops[index], starts[index], scaled[index]
            wanted, x0, y0, scale = boxes[index]
            xs = corners[:, 0]
            if start <= xs.min() and xs.max() < start + small.shape[1]:
                in_crop = self._refined(crop, {wanted: (corners - [start, 0]) / scale})
                found[wanted] = in_crop[wanted] + [x0, y0]
        return found

    def _refined(self, gray: np.ndarray, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Sub-pixel corners on the full frame, starting from the detector's; each marker's
        search window kept within about one of its cells (:func:`refine_window`)."""
        refined = {}
        windows = {marker_id: refine_window(corners) for marker_id, corners in found.items()}
        for window in set(windows.values()):
            ids = [marker_id for marker_id, size in windows.items() if size == window]
            points = np.concatenate([found[i] for i in ids]).astype(np.float32).reshape(-1, 1, 2)
            cv2.cornerSubPix(gray, points, (window, window), (-1, -1), self._refine)
            refined |= dict(zip(ids, points.reshape(-1, 4, 2).astype(np.float64), strict=True))
        return {marker_id: refined[marker_id] for marker_id in found}


def refine_window(corners: np.ndarray) -> int:
    """Half-size (pixels) of the corner refinement window of a marker with these corners.

    A marker under 16 pixels has cells of 2-3 pixels: a wider window reaches the
    corners of its inner cells, which pull the outline inwards (on our renderer,
    markers of 12-15 pixels: median corner error 1.75 px with 2, 0.86 with 1).
    """
    side = float(np.ptp(corners, axis=0).max())
    return 1 if side < SMALL_SIDE else int(np.clip(round(side / 12), 2, 5))


def _full_parameters() -> cv2.aruco.DetectorParameters:
    """Whole-frame search: two threshold windows, small markers allowed, low-contrast edges
    (a cream tile on the paper) not taken for marker borders."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.adaptiveThreshWinSizeMin = 7
    parameters.adaptiveThreshWinSizeMax = 15
    parameters.adaptiveThreshWinSizeStep = 8
    parameters.adaptiveThreshConstant = 25
    parameters.minMarkerPerimeterRate = 0.02
    parameters.perspectiveRemovePixelPerCell = 8
    return parameters


def _track_parameters() -> cv2.aruco.DetectorParameters:
    """Search of the tracking mosaic, where every marker is about 40 pixels: one window."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.adaptiveThreshWinSizeMin = 15
    parameters.adaptiveThreshWinSizeMax = 15
    parameters.adaptiveThreshConstant = 15
    parameters.minMarkerPerimeterRate = 0.05
    parameters.perspectiveRemovePixelPerCell = 8
    return parameters


def _unique(quads, ids, wanted: frozenset[int], rescale) -> dict[int, np.ndarray]:
    """Wanted ids seen exactly once (an id seen twice is ambiguous: dropped), as (4, 2)."""
    if ids is None:
        return {}
    flat = [int(i) for i in ids.ravel()]
    return {
        marker_id: rescale(quad.reshape(4, 2).astype(np.float64))
        for quad, marker_id in zip(quads, flat, strict=True)
        if marker_id in wanted and flat.count(marker_id) == 1
    }


def _box_around(corners: np.ndarray, shape, margin: float) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) reaching ``margin`` pixels beyond the corners, in frame."""
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - margin), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + margin), (shape[1], shape[0])).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _mosaic(crops: list[np.ndarray], gap: int = 8) -> tuple[np.ndarray, list[int]]:
    """Grey crops side by side on white, and the x where each starts."""
    height = max(crop.shape[0] for crop in crops)
    starts = [0]
    for crop in crops[:-1]:
        starts.append(starts[-1] + crop.shape[1] + gap)
    mosaic = np.full((height, starts[-1] + crops[-1].shape[1]), 255, np.uint8)
    for crop, start in zip(crops, starts, strict=True):
        mosaic[: crop.shape[0], start : start + crop.shape[1]] = crop
    return mosaic, starts


def fit_homography(layout: PartLayout, corners: Mapping[int, np.ndarray]) -> np.ndarray | None:
    """Least-squares map from part mm to image pixels from the markers seen; None if implausible.

    Every marker corner must land within a few pixels of where it was seen.
    """
    ids = [marker.id for marker in layout.markers if marker.id in corners]
    if len(ids) < MIN_MARKERS:
        return None
    by_id = {marker.id: marker for marker in layout.markers}
    part = np.array([corner for i in ids for corner in by_id[i].corners()], np.float64)
    image = np.concatenate([corners[i] for i in ids])
    homography, _ = cv2.findHomography(part, image, 0)
    if homography is None or not np.all(np.isfinite(homography)):
        return None
    error = np.linalg.norm(project(homography, part) - image, axis=1)
    side = min(float(np.linalg.norm(corners[i][1] - corners[i][0])) for i in ids)
    return homography if error.max() < max(2.0, 0.15 * side) else None
