"""Find the four ArUco markers (DICT_4X4_50) and fit the board-to-image homography.

Uses ``cv2.aruco.ArucoDetector`` (OpenCV 4.8+ and 5). Large frames are searched
at a reduced size and the corners refined at full resolution, which keeps a
1080p frame about as cheap as a 640x480 one. Markers seen in the previous frame
are looked for only around their last places (the camera of a table rarely
moves); a whole frame is first searched quickly (small, one threshold window)
and thoroughly only when that misses a marker, and at full resolution when
both miss one (a small board under hard light: around where the markers found
place the missing ones). Each cell's bit is read from its middle only, as the
edges of a small, blurred marker's cells bleed into each other. Three markers are enough to fit
the board (a hand resting on the fourth): the result says which one is missing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.peg_disk.geometry import BoardGeometry

DICTIONARY = cv2.aruco.DICT_4X4_50
DETECT_WIDTH = 800
"""Frames wider than this are searched for markers at this width."""
QUICK_SIDE = 360
"""The quick first search of a whole frame looks at it scaled to this many pixels high."""
TRACK_SIDE = 40.0
"""Marker side (pixels) the tracker searches at: larger markers are looked for scaled down."""
TRACK_MARGIN = 0.5
"""How far (in marker sides) beyond its last place the tracker looks for a marker."""
CELL_MARGIN = 0.25
"""Share of each marker cell's side left out at each edge when its bit is read (OpenCV's
default is 0.13): a small marker, blurred, bleeds light across its cells' edges (most under
bright light, clipped only after the lens blurred it), so only each cell's middle is read."""
FULL_MARGIN = 1.0
"""How far (in marker sides) beyond its predicted place the full-resolution search looks."""
MIN_MARKERS = 3
"""Fewest markers the board's homography is fitted to (their 12 corners fix it)."""


def dictionary() -> cv2.aruco.Dictionary:
    """The marker dictionary every board uses."""
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, side_pixels: int) -> np.ndarray:
    """The black-and-white marker image (one-cell black border), side x side, uint8."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, side_pixels, borderBits=1)


@dataclass(frozen=True)
class MarkerResult:
    """What the marker search found in one frame.

    ``corners`` maps each found id of the board to its 4 image corners (4, 2);
    ``homography`` maps board millimetres to image pixels, or is None when
    fewer than :data:`MIN_MARKERS` markers were found (or they do not fit the
    board); ``missing`` names the markers not found.
    """

    corners: dict[int, np.ndarray]
    missing: tuple[int, ...]
    homography: np.ndarray | None


class MarkerDetector:
    """Detects the board's markers in frames and fits the homography."""

    def __init__(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        parameters = cv2.aruco.DetectorParameters()
        parameters.adaptiveThreshWinSizeMin = 7
        parameters.adaptiveThreshWinSizeMax = 23
        parameters.adaptiveThreshWinSizeStep = 8
        parameters.minMarkerPerimeterRate = 0.04
        parameters.perspectiveRemoveIgnoredMarginPerCell = CELL_MARGIN
        self._detector = cv2.aruco.ArucoDetector(dictionary(), parameters)
        self._tracker = cv2.aruco.ArucoDetector(dictionary(), _tracking_parameters())
        self._refine = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        self._last: dict[int, np.ndarray] = {}

    def detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> image corners (4, 2) for the board's ids found in a grey frame.

        A quick search (small frame, one threshold window) comes first; only
        when it misses a marker is the frame searched thoroughly, and what
        either search found counts.
        """
        quick = self._search(gray, QUICK_SIDE / min(gray.shape[:2]), self._tracker)
        if len(quick) == len(self.geometry.markers):
            return quick
        found = quick | self._search(gray, DETECT_WIDTH / gray.shape[1], self._detector)
        if len(found) == len(self.geometry.markers) or gray.shape[1] <= DETECT_WIDTH:
            return found
        return found | self._full_resolution(gray, found)

    def _full_resolution(self, gray: np.ndarray, found: dict[int, np.ndarray]):
        """The markers the scaled searches missed, looked for at full resolution.

        A small board in a large frame under hard light or a noisy sensor has
        markers of a few pixels per cell once scaled down. Where the markers
        found place the missing ones (two or more fix a homography), only
        crops around those places are searched (a hand resting on a marker
        costs little); else the whole frame.
        """
        missing = [i for i in self.geometry.marker_ids() if i not in found]
        predicted = self._predicted(found, missing)
        if predicted is None:
            return self._search(gray, 1.0, self._detector)
        extra: dict[int, np.ndarray] = {}
        for marker_id, corners in predicted.items():
            x0, y0, x1, y1 = _box_around(corners, gray.shape, FULL_MARGIN)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            crop = self._search(gray[y0:y1, x0:x1], 1.0, self._detector)
            if marker_id in crop:
                extra[marker_id] = crop[marker_id] + np.array([x0, y0])
        return extra

    def _predicted(self, found: dict[int, np.ndarray], missing: list[int]):
        """Where the missing markers should be, from the found ones (None: too few found)."""
        if len(found) < 2:
            return None
        board = np.concatenate([self.geometry.marker_corners(i) for i in found])
        image = np.concatenate(list(found.values()))
        homography, _ = cv2.findHomography(board, image, 0)
        if homography is None or not np.all(np.isfinite(homography)):
            return None
        return {i: project(homography, self.geometry.marker_corners(i)) for i in missing}

    def _search(self, gray: np.ndarray, scale: float, detector) -> dict[int, np.ndarray]:
        """The board's markers found by ``detector`` at ``scale`` (at most 1), refined."""
        scale = min(1.0, scale)
        small = (
            gray
            if scale == 1.0
            else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        )
        corners, ids, _rejected = detector.detectMarkers(small)
        if ids is None:
            return {}
        found = self._keep_board_ids(corners, ids.ravel(), scale)
        if scale != 1.0 and found:
            found = self._refine_full_resolution(gray, found, scale)
        return found

    def _keep_board_ids(self, corners, ids: np.ndarray, scale: float) -> dict[int, np.ndarray]:
        """Only this board's ids, each at most once (a duplicate id is ambiguous: dropped)."""
        wanted = self.geometry.markers
        found: dict[int, np.ndarray] = {}
        duplicated = {int(i) for i in ids if list(ids).count(i) > 1}
        for quad, marker_id in zip(corners, ids, strict=True):
            if int(marker_id) in wanted and int(marker_id) not in duplicated:
                found[int(marker_id)] = quad.reshape(4, 2).astype(np.float64) / scale
        return found

    def _refine_full_resolution(self, gray, found: dict[int, np.ndarray], scale: float):
        """Sub-pixel corners on the full frame, starting from the scaled-up estimate."""
        points = np.concatenate(list(found.values())).astype(np.float32).reshape(-1, 1, 2)
        window = max(2, round(1.5 / scale))
        cv2.cornerSubPix(gray, points, (window, window), (-1, -1), self._refine)
        refined = points.reshape(-1, 4, 2).astype(np.float64)
        return dict(zip(found, refined, strict=True))

    def locate(self, image: np.ndarray) -> MarkerResult:
        """Detect the markers (BGR or grey frame) and, when enough are there, fit the homography.

        Markers found in the previous frame (all of them) are first looked for
        only around where they were (a few small crops instead of the whole
        frame); if any is not there, or one was missing, the whole frame is
        searched.
        """
        corners = self._track(image) or self.detect(_gray(image))
        missing = tuple(i for i in self.geometry.marker_ids() if i not in corners)
        homography = self.fit(corners) if len(corners) >= MIN_MARKERS else None
        self._last = corners if homography is not None else {}
        return MarkerResult(corners, missing, homography)

    def _track(self, image: np.ndarray) -> dict[int, np.ndarray] | None:
        """All markers found again near their last places, or None.

        The crops around the last places are laid side by side in one small
        mosaic, scaled so a marker is about :data:`TRACK_SIDE` pixels across,
        searched once with a single threshold window, and the corners refined
        on the full-resolution mosaic.
        """
        if len(self._last) != len(self.geometry.markers):
            return None
        boxes = {i: _box_around(c, image.shape, TRACK_MARGIN) for i, c in self._last.items()}
        if any(x1 - x0 < 8 or y1 - y0 < 8 for x0, y0, x1, y1 in boxes.values()):
            return None
        mosaic, starts = _mosaic([image[y0:y1, x0:x1] for x0, y0, x1, y1 in boxes.values()])
        if mosaic.shape[1] > 2 * image.shape[1]:
            return None
        gray = _gray(mosaic)
        scale = min(1.0, TRACK_SIDE / _largest_side(self._last))
        quads, ids = self._detect_scaled(gray, scale)
        if ids is None:
            return None
        found = _unpack(quads, ids.ravel(), boxes, dict(zip(boxes, starts, strict=True)))
        if found is None or scale == 1.0:
            return found
        return self._refine_in_mosaic(gray, found, boxes, starts, scale)

    def _detect_scaled(self, gray: np.ndarray, scale: float):
        """Tracker quads and ids in full-size mosaic coordinates (not yet refined)."""
        small = (
            gray
            if scale == 1.0
            else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        )
        quads, ids, _rejected = self._tracker.detectMarkers(small)
        return [q / scale for q in quads], ids

    def _refine_in_mosaic(self, gray, found, boxes, starts, scale):
        """Sub-pixel corners on the full-resolution mosaic, back in frame coordinates."""
        shifts = {
            i: np.array([x0 - start, y0])
            for (i, (x0, y0, _x1, _y1)), start in zip(boxes.items(), starts, strict=True)
        }
        in_mosaic = {i: quad - shifts[i] for i, quad in found.items()}
        refined = self._refine_full_resolution(gray, in_mosaic, scale)
        return {i: quad + shifts[i] for i, quad in refined.items()}

    def fit(self, corners: dict[int, np.ndarray]) -> np.ndarray | None:
        """Least-squares homography from board mm to pixels; None if degenerate."""
        board = np.concatenate([self.geometry.marker_corners(i) for i in corners])
        image = np.concatenate(list(corners.values()))
        homography, _ = cv2.findHomography(board, image, 0)
        if homography is None or not np.all(np.isfinite(homography)):
            return None
        return homography if self._plausible(homography, corners) else None

    def _plausible(self, homography: np.ndarray, corners: dict[int, np.ndarray]) -> bool:
        """Every marker corner lands within a few pixels of where it was seen."""
        board = np.concatenate([self.geometry.marker_corners(i) for i in corners])
        image = np.concatenate(list(corners.values()))
        error = np.linalg.norm(project(homography, board) - image, axis=1)
        side = np.linalg.norm(image[1] - image[0])
        return bool(error.max() < max(2.0, 0.15 * side))


def _tracking_parameters() -> cv2.aruco.DetectorParameters:
    """Detector settings for markers of about :data:`TRACK_SIDE` pixels: one threshold window."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.adaptiveThreshWinSizeMin = 15
    parameters.adaptiveThreshWinSizeMax = 15
    parameters.minMarkerPerimeterRate = 0.04
    parameters.perspectiveRemoveIgnoredMarginPerCell = CELL_MARGIN
    return parameters


def _largest_side(markers: dict[int, np.ndarray]) -> float:
    """The longest side of any marker's bounding box, in pixels."""
    return max(float(np.ptp(corners, axis=0).max()) for corners in markers.values())


def _box_around(corners: np.ndarray, shape, margin: float = 1.0) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) reaching ``margin`` marker sides beyond the marker, in frame."""
    side = margin * float(np.ptp(corners, axis=0).max())
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - side), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + side), (shape[1], shape[0])).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _mosaic(crops: list[np.ndarray], gap: int = 8) -> tuple[np.ndarray, list[int]]:
    """Crops (grey or colour) side by side on white, and the x where each starts."""
    height = max(crop.shape[0] for crop in crops)
    starts = list(np.cumsum([0] + [crop.shape[1] + gap for crop in crops[:-1]]))
    width = starts[-1] + crops[-1].shape[1]
    mosaic = np.full((height, width, *crops[0].shape[2:]), 255, np.uint8)
    for crop, start in zip(crops, starts, strict=True):
        mosaic[: crop.shape[0], start : start + crop.shape[1]] = crop
    return mosaic, [int(x) for x in starts]


def _unpack(quads, ids: np.ndarray, boxes, starts) -> dict[int, np.ndarray] | None:
    """Each expected id found exactly once inside its own crop, in frame coordinates."""
    found = {}
    for marker_id, (x0, y0, x1, _y1) in boxes.items():
        hits = [q.reshape(4, 2) for q, i in zip(quads, ids, strict=True) if int(i) == marker_id]
        if len(hits) != 1:
            return None
        quad = hits[0].astype(np.float64)
        start = starts[marker_id]
        if not (start <= quad[:, 0].min() and quad[:, 0].max() < start + (x1 - x0)):
            return None
        found[marker_id] = quad + np.array([x0 - start, y0])
    return found


def _gray(image: np.ndarray) -> np.ndarray:
    """A grey copy of a BGR image (a grey image as it is)."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to (N, 2) points."""
    mapped = points @ homography[:, :2].T + homography[:, 2]
    return mapped[:, :2] / mapped[:, 2:3]
