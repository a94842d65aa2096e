"""How well the camera sees the Kogworks board, and one line of advice for aiming it.

:func:`check_frame` looks at one frame: which markers are seen and how large,
how far the board is tilted from square to the camera, how much of the frame
the printed sheet fills, how sharp the marker edges are, how bright the board
is and how much of it is clipped, and whether the reader could commit what it
sees. :class:`CameraCheck` holds the figures, whether all is good (``good``)
and the single most useful piece of advice ("move the camera about 12 cm
higher", "marker 2 is covered"; :data:`ALL_GOOD` when there is nothing to fix).
``cogtable camera check`` prints it live; the self-test calls it too.

Distances in the advice assume a lens of :data:`ASSUMED_FOV_DEG` across the
frame (most USB cameras and the Pi camera are 60-75 degrees): they are a
first guess, said as "about".

>>> from vision.peg_disk.renderer import Camera, Renderer, Scene
>>> from vision.peg_disk.geometry import start_position
>>> frame, _ = Renderer().render(Scene(start_position(), (960, 540), Camera(fill=0.9)), 1)
>>> check = check_frame(frame)
>>> check.seen_ids, check.good, check.advice
((0, 1, 2, 3), True, 'all good: the board is read')
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.frame import OK
from vision.markers import project
from vision.peg_disk.geometry import BoardGeometry
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.reading import Reading
from vision.sharpness import BLUR_LIMIT

ASSUMED_FOV_DEG = 70.0
"""Horizontal field of view the distance advice assumes."""
GOOD_FILL = (0.55, 0.97)
"""Share of the frame's height (or width) the printed sheet should span: (too far, too close)."""
TARGET_FILL = 0.85
"""What the distance advice aims for."""
MIN_MARKER_SIDE = 28.0
"""Smallest marker side (pixels) found reliably."""
MAX_TILT_DEG = 20.0
"""Largest tilt from straight down that the advice lets pass."""
MAX_CLIPPED = 0.03
"""Largest share of board pixels clipped in a channel before the advice says it is too bright."""
DARK_BOARD = 60.0
"""A board whose median grey is below this is too dark."""
ALL_GOOD = "all good: the board is read"
"""The advice when there is nothing to fix."""


@dataclass(frozen=True)
class MarkerSight:
    """One marker seen: its id and its mean side in pixels."""

    marker_id: int
    side_px: float


@dataclass(frozen=True)
class CameraCheck:
    """What one frame shows about the camera's aim, focus and exposure, and the advice.

    ``tilt_deg`` and ``fill`` (share of the frame's limiting side the printed
    sheet spans) are None without a board; ``edge_width`` is the widest marker
    edge in pixels (sharp is under :data:`vision.sharpness.BLUR_LIMIT`);
    ``brightness`` the board's median grey and ``clipped`` the share of its
    pixels clipped in some channel; ``fps`` the frame rate when the caller
    measured one. ``good``: nothing to fix (the advice is then :data:`ALL_GOOD`).
    """

    markers: tuple[MarkerSight, ...]
    missing: tuple[int, ...]
    tilt_deg: float | None
    fill: float | None
    edge_width: float
    brightness: float | None
    clipped: float | None
    status: str
    message: str
    advice: str
    good: bool
    fps: float | None = None
    uncertain: tuple[str, ...] = field(default=())

    @property
    def seen_ids(self) -> tuple[int, ...]:
        """The ids of the markers seen."""
        return tuple(sight.marker_id for sight in self.markers)

    def line(self) -> str:
        """The figures in one line (the live readout)."""
        markers = " ".join(f"{s.marker_id}:{s.side_px:.0f}px" for s in self.markers) or "none"
        parts = [f"markers {markers}"]
        if self.tilt_deg is not None and self.fill is not None:
            parts.append(f"tilt {self.tilt_deg:.0f} deg, fills {self.fill:.0%}")
        parts.append(f"edges {self.edge_width:.1f} px")
        if self.brightness is not None and self.clipped is not None:
            parts.append(f"board grey {self.brightness:.0f}, clipped {self.clipped:.1%}")
        if self.fps is not None:
            parts.append(f"{self.fps:.1f} fps")
        return "; ".join(parts)


def check_frame(
    frame: np.ndarray | None,
    reader: BoardReader | None = None,
    fps: float | None = None,
) -> CameraCheck:
    """Check one frame with ``reader`` (a fresh reference reader by default)."""
    reader = reader or BoardReader()
    reading = reader.read(frame)
    geometry = reader.geometry
    markers = tuple(
        MarkerSight(marker_id, _side(corners))
        for marker_id, corners in sorted(reading.markers.items())
    )
    missing = tuple(i for i in geometry.marker_ids() if i not in reading.markers)
    homography = reading.homography
    if homography is None and len(reading.markers) >= 3:
        homography = reader.detector.fit(reading.markers)
    tilt = fill = brightness = clipped = None
    if homography is not None and frame is not None:
        tilt = _tilt(homography)
        fill = _fill(homography, geometry, frame.shape)
        brightness, clipped = _exposure(frame, homography, geometry)
    partial = CameraCheck(
        markers=markers,
        missing=missing,
        tilt_deg=tilt,
        fill=fill,
        edge_width=reading.edge_width,
        brightness=brightness,
        clipped=clipped,
        status=reading.status,
        message=reading.message,
        advice="",
        good=False,
        fps=fps,
        uncertain=tuple(reading.uncertain_places()) if reading.ok else (),
    )
    advice = _advice(partial, reading, frame, homography, geometry)
    return dataclasses.replace(partial, advice=advice or ALL_GOOD, good=advice is None)


def _side(corners: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))


def _tilt(homography: np.ndarray) -> float:
    """Degrees from square to the camera, from how unevenly the board is shrunk at its centre.

    A plane tilted by t is foreshortened by cos t across the tilt: the ratio of
    the singular values of the homography's local linear part.
    """
    centre = project(homography, np.zeros((1, 2)))[0]
    steps = project(homography, np.array([[1.0, 0.0], [0.0, 1.0]])) - centre
    singular = np.linalg.svd(steps.T, compute_uv=False)
    return math.degrees(math.acos(float(np.clip(singular[1] / singular[0], 0.0, 1.0))))


def _sheet_corners(geometry: BoardGeometry) -> np.ndarray:
    w, h = (s / 2 for s in geometry.sheet_size)
    return np.array([(-w, -h), (w, -h), (w, h), (-w, h)])


def _fill(homography: np.ndarray, geometry: BoardGeometry, shape) -> float:
    """How much of the frame the sheet spans: its extent over the frame's, the limiting side."""
    corners = project(homography, _sheet_corners(geometry))
    span = np.ptp(corners, axis=0)
    return float(max(span[0] / shape[1], span[1] / shape[0]))


def _exposure(frame: np.ndarray, homography: np.ndarray, geometry: BoardGeometry):
    """The disk's median grey and the share of its pixels clipped in some channel."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    rim = geometry.disk_radius * np.column_stack([np.cos(angles), np.sin(angles)])
    cv2.fillPoly(mask, [np.round(project(homography, rim)).astype(np.int32)], 1)
    pixels = frame[mask.astype(bool)]
    if len(pixels) == 0:
        return None, None
    grey = pixels.mean(axis=1)
    return float(np.median(grey)), float((pixels >= 250).any(axis=1).mean())


def _distance_advice(fill: float, frame_width: int, frame_short: int, sheet_mm: float) -> str:
    """Move the camera higher or lower, in cm, for the sheet to fill :data:`TARGET_FILL`."""
    focal = (frame_width / 2) / math.tan(math.radians(ASSUMED_FOV_DEG / 2))
    now = focal * sheet_mm / (fill * frame_short)
    wanted = focal * sheet_mm / (TARGET_FILL * frame_short)
    change = round(abs(wanted - now) / 10)
    direction, zoom = ("higher", "out") if wanted > now else ("lower", "in")
    return f"move the camera about {max(change, 1)} cm {direction} (or zoom {zoom})"


def _advice(check: CameraCheck, reading: Reading, frame, homography, geometry) -> str | None:
    """The most useful single piece of advice, most blocking problem first; None: all good."""
    if frame is None:
        return "no picture from the camera: check its cable and that no other program uses it"
    if reading.status not in (OK,) and not check.markers and not reading.markers:
        if reading.status != "no board":
            return f"the picture cannot be read: {reading.message}"
        return "no markers in sight: point the camera at the board, all four corner markers in view"
    if homography is None:
        shown = ", ".join(map(str, check.missing))
        return (
            f"markers {shown} not seen: bring the whole board into view, nothing over its corners"
        )
    too_close = check.fill is not None and check.fill > GOOD_FILL[1]
    if too_close or reading.message.startswith("the board is partly outside"):
        return _distance_advice(
            min(check.fill or 1.0, 1.2),
            frame.shape[1],
            min(frame.shape[:2]),
            max(geometry.sheet_size),
        )
    if check.edge_width > BLUR_LIMIT:
        return (
            f"the picture is blurred (edges {check.edge_width:.1f} px): focus the camera "
            "and make sure its mount does not shake"
        )
    if check.clipped is not None and check.clipped > MAX_CLIPPED:
        return (
            f"too bright: {check.clipped:.0%} of the board is clipped; lower the exposure "
            "or move the lamp so it does not shine into the camera"
        )
    if check.brightness is not None and check.brightness < DARK_BOARD:
        return "too dark: add light over the board or raise the exposure"
    if len(check.missing) == 1:
        return f"marker {check.missing[0]} is covered (or out of view): clear it"
    smallest = min((s.side_px for s in check.markers), default=0.0)
    if check.fill is not None and (check.fill < GOOD_FILL[0] or smallest < MIN_MARKER_SIDE):
        return _distance_advice(
            check.fill, frame.shape[1], min(frame.shape[:2]), max(geometry.sheet_size)
        )
    if check.tilt_deg is not None and check.tilt_deg > MAX_TILT_DEG:
        return f"the camera is tilted {check.tilt_deg:.0f} degrees: aim it straighter down"
    if reading.ok and reading.covered:
        return f"something lies over the board: {reading.message}"
    if check.uncertain:
        shown = ", ".join(check.uncertain[:4])
        return f"pegs {shown} cannot be read surely: check the light on them and the calibration"
    return None
