"""Find the four ArUco markers (DICT_4X4_50) and fit the board-to-image homography.

Uses ``cv2.aruco.ArucoDetector`` (OpenCV 4.8+ and 5). Large frames are searched
at a reduced size and the corners refined at full resolution, which keeps a
1080p frame about as cheap as a 640x480 one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import BoardGeometry

DICTIONARY = cv2.aruco.DICT_4X4_50
DETECT_WIDTH = 800
"""Frames wider than this are searched for markers at this width."""


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
    not every marker of the board was found.
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
        self._detector = cv2.aruco.ArucoDetector(dictionary(), parameters)
        self._refine = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)

    def detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> image corners (4, 2) for the board's ids found in a grey frame."""
        scale = min(1.0, DETECT_WIDTH / gray.shape[1])
        small = (
            gray
            if scale == 1.0
            else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        )
        corners, ids, _rejected = self._detector.detectMarkers(small)
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

    def locate(self, gray: np.ndarray) -> MarkerResult:
        """Detect the markers and, when all are there, fit the homography."""
        corners = self.detect(gray)
        missing = tuple(i for i in self.geometry.marker_ids() if i not in corners)
        homography = None if missing else self.fit(corners)
        return MarkerResult(corners, missing, homography)

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


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to (N, 2) points."""
    mapped = points @ homography[:, :2].T + homography[:, 2]
    return mapped[:, :2] / mapped[:, 2:3]
