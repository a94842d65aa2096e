"""The camera, the light and the sensor shared by the held-out renderers.

A scene is drawn in linear light (float32 BGR, 1.0 = a white sheet under the
nominal light) through a pinhole camera looking down at the table, then
exposed by :func:`expose`: light changes, shot and read noise drawn fresh for
every frame, white balance, a tone curve, 8-bit quantisation and JPEG.

World coordinates are millimetres: x to the right and y towards the viewer on
the table plane (as the printed sheets are laid out), ``z`` the height above
the plane the thing lies on. Seeds below :data:`HELD_OUT_SEED_MIN` are refused:
the held-out renderers only ever draw held-out frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

HELD_OUT_SEED_MIN = 9_000_000
"""The first held-out seed; readers never tune on seeds from here up."""
SIZES = ((1280, 720), (1920, 1080))
"""The frame sizes (width, height) the held-out frames come in."""


def check_seed(seed: int) -> None:
    """Refuse a seed outside the held-out range, naming it."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < HELD_OUT_SEED_MIN:
        raise ValueError(f"held-out seeds are integers >= {HELD_OUT_SEED_MIN:_}, not {seed!r}")


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """The frame size as (width, height); ValueError for a size we do not draw."""
    width, height = (int(v) for v in size)
    if (width, height) not in SIZES:
        raise ValueError(f"frame size {width}x{height}: the held-out sizes are {SIZES}")
    return width, height


def rng_for(seed: int, *keys: int) -> np.random.Generator:
    """A generator fixed by the seed and the keys (what is drawn, the frame index...)."""
    return np.random.default_rng([int(seed), *(int(k) for k in keys)])


# -- the camera ------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: intrinsics ``k`` (3x3), rotation ``r`` (world -> camera), centre ``c``.

    The world's third axis points into the table (depth), so a point at height
    ``z`` above the plane has world coordinates (x, y, -z).
    """

    k: np.ndarray
    r: np.ndarray
    c: np.ndarray
    size: tuple[int, int]

    def homography(self, height_mm: float = 0.0) -> np.ndarray:
        """3x3 map from plane (x, y) in mm at ``height_mm`` above the table to image pixels."""
        columns = np.column_stack(
            [self.r[:, 0], self.r[:, 1], self.r @ (np.array([0.0, 0.0, -height_mm]) - self.c)]
        )
        h = self.k @ columns
        return h / h[2, 2]

    def project(self, points: np.ndarray, height_mm: float | np.ndarray = 0.0) -> np.ndarray:
        """Image pixels (N, 2) of plane points (N, 2) at a height (a scalar or one per point)."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        heights = np.broadcast_to(np.asarray(height_mm, dtype=np.float64), (len(points),))
        world = np.column_stack([points, -heights])
        cam = (world - self.c) @ self.r.T
        image = cam @ self.k.T
        return image[:, :2] / image[:, 2:3]

    def depth(self, points: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Distance along the optical axis (mm) of plane points at a height."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        world = np.column_stack([points, np.full(len(points), -height_mm)])
        return ((world - self.c) @ self.r.T)[:, 2]

    def pixels_per_mm(self, point: tuple[float, float], height_mm: float = 0.0) -> float:
        """Image scale (pixels per mm) at a plane point."""
        a, b = self.project(np.array([point, (point[0] + 1.0, point[1])]), height_mm)
        return float(np.linalg.norm(b - a))


def look_down(
    size: tuple[int, int],
    fit: np.ndarray,
    *,
    fill: float,
    tilt_deg: float,
    azimuth_deg: float,
    roll_deg: float,
    distance_mm: float,
    rng: np.random.Generator,
) -> Camera:
    """A camera over the table whose view holds the plane points ``fit`` (N, 2).

    The camera is ``distance_mm`` from the centre of ``fit``, tilted by
    ``tilt_deg`` from straight down towards ``azimuth_deg`` and rolled by
    ``roll_deg``; the focal length makes ``fit`` span ``fill`` of the frame's
    height (or width, whichever binds), placed at a random spot of the frame.
    """
    width, height = size
    centre = fit.mean(axis=0)
    tilt, azimuth, roll = (math.radians(v) for v in (tilt_deg, azimuth_deg, roll_deg))
    forward = np.array(
        [math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)]
    )
    position = np.array([centre[0], centre[1], 0.0]) - distance_mm * forward
    right = np.array([math.cos(roll), math.sin(roll), 0.0])
    right = right - right.dot(forward) * forward
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.vstack([right, down, forward])
    unit = Camera(np.diag([1.0, 1.0, 1.0]), rotation, position, size)
    seen = unit.project(fit)
    span = seen.max(axis=0) - seen.min(axis=0)
    focal = min(fill * height / span[1], 0.97 * width / span[0])
    placed = seen * focal
    low, high = placed.min(axis=0), placed.max(axis=0)
    room = np.array([width, height]) - (high - low)
    start = room * rng.uniform(0.3, 0.7, 2)
    principal = start - low
    k = np.array([[focal, 0.0, principal[0]], [0.0, focal, principal[1]], [0.0, 0.0, 1.0]])
    return Camera(k, rotation, position, size)


# -- the light ------------------------------------------------------------------


@dataclass(frozen=True)
class Lamp:
    """The room's light: a lamp at ``position`` (mm, z up) and the ambient share of light.

    ``colour`` multiplies B, G, R (a warm lamp is low in blue). ``level`` 1.0
    lights a white sheet under the lamp to about 1.0.
    """

    position: tuple[float, float, float]
    ambient: float
    level: float = 1.0
    colour: tuple[float, float, float] = (1.0, 1.0, 1.0)
    softness: float = 0.03
    """The lamp's angular size (radians): how fast a shadow's edge fades."""

    def direction(self, at: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """Unit vector from a plane point towards the lamp (x, y, z up)."""
        vector = np.array(self.position) - np.array([at[0], at[1], 0.0])
        return vector / np.linalg.norm(vector)

    def shadow_shift(self, height_mm: float, at: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """Where on the plane (x, y offset, mm) the shadow of a point ``height_mm`` up falls."""
        d = self.direction(at)
        return -d[:2] / max(d[2], 0.05) * height_mm

    def irradiance(self, points: np.ndarray) -> np.ndarray:
        """Light falling on plane points (N, 2): ambient plus the lamp's cosine over distance²."""
        lamp = np.array(self.position)
        offset = lamp[None, :] - np.column_stack([points, np.zeros(len(points))])
        distance = np.linalg.norm(offset, axis=1)
        cosine = offset[:, 2] / distance
        reference = lamp[2] ** -2
        direct = cosine / distance**2 / reference
        return self.level * (self.ambient + (1.0 - self.ambient) * direct)


def plane_field(camera: Camera, values, step: int = 16) -> np.ndarray:
    """A smooth per-pixel field (H, W) of a function of plane points, sampled every ``step`` px."""
    width, height = camera.size
    xs = np.arange(0, width + step, step, dtype=np.float64)
    ys = np.arange(0, height + step, step, dtype=np.float64)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    inverse = np.linalg.inv(camera.homography(0.0))
    plane = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), inverse).reshape(-1, 2)
    coarse = values(plane).reshape(len(ys), len(xs)).astype(np.float32)
    full = cv2.resize(coarse, (len(xs) * step, len(ys) * step), interpolation=cv2.INTER_LINEAR)
    return full[:height, :width]


def vignette(size: tuple[int, int], strength: float) -> np.ndarray:
    """Lens fall-off towards the corners: 1 at the centre, ``1 - strength`` in the corners."""
    width, height = size
    x = (np.arange(width, dtype=np.float32) - width / 2) / (width / 2)
    y = (np.arange(height, dtype=np.float32) - height / 2) / (width / 2)
    r2 = x[None, :] ** 2 + y[:, None] ** 2
    corner = 1.0 + (height / width) ** 2
    return (1.0 - strength * r2 / corner).astype(np.float32)


# -- the sensor -----------------------------------------------------------------


@dataclass(frozen=True)
class Sensor:
    """How the camera turns light into an 8-bit frame.

    ``exposure`` scales the linear image (2.0 clips a white sheet); ``full_well``
    is electrons at 1.0 (fewer: more shot noise); ``read_noise`` is in units
    of 1.0; ``gain`` multiplies after the noise (a dim room's auto gain);
    ``white`` multiplies B, G, R (white-balance error); ``blur`` is the lens
    blur in pixels; ``sharpen`` the webcam's unsharp mask; ``jpeg`` the JPEG
    quality (None: no JPEG); ``chroma`` the blotchy colour noise of a cheap
    sensor's denoiser.
    """

    exposure: float = 1.0
    full_well: float = 3000.0
    read_noise: float = 0.004
    gain: float = 1.0
    white: tuple[float, float, float] = (1.0, 1.0, 1.0)
    blur: float = 0.7
    sharpen: float = 0.0
    jpeg: int | None = 92
    chroma: float = 0.0
    black: float = 0.01
    """The sensor's black level (flare): dark paint never reads as 0."""


@dataclass(frozen=True)
class Relight:
    """A light change over the whole frame for one frame: gain, colour and a gradient."""

    gain: float = 1.0
    colour: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gradient: tuple[float, float] = (0.0, 0.0)
    """Relative change across the frame, left to right and top to bottom."""

    def field(self, size: tuple[int, int]) -> np.ndarray:
        """Per-pixel multiplier (H, W, 3) of this light change."""
        width, height = size
        u = np.linspace(-0.5, 0.5, width, dtype=np.float32)
        v = np.linspace(-0.5, 0.5, height, dtype=np.float32)
        plane = 1.0 + self.gradient[0] * u[None, :] + self.gradient[1] * v[:, None]
        colour = np.array(self.colour, dtype=np.float32)
        return (self.gain * plane)[:, :, None] * colour[None, None, :]


@dataclass(frozen=True)
class Optics:
    """What a frame is drawn through: the lens blur is applied once, the rest per frame."""

    sensor: Sensor = field(default_factory=Sensor)


def lens(image: np.ndarray, sensor: Sensor) -> np.ndarray:
    """The lens's blur on a linear image (applied once to a still scene)."""
    if sensor.blur <= 0:
        return image
    return cv2.GaussianBlur(image, (0, 0), sensor.blur)


def expose(
    linear: np.ndarray,
    sensor: Sensor,
    rng: np.random.Generator,
    relight: Relight | None = None,
) -> np.ndarray:
    """An 8-bit BGR frame of a linear image: light change, fresh noise, tone curve, JPEG.

    The noise is drawn from ``rng`` for this frame only, so two frames of a
    still scene differ by their noise (and the light change, when there is one).
    """
    size = (linear.shape[1], linear.shape[0])
    image = linear * np.float32(sensor.exposure)
    if relight is not None:
        image *= relight.field(size)
    np.maximum(image, 0.0, out=image)
    image += np.float32(sensor.black)
    spread = cv2.sqrt(image * np.float32(1.0 / sensor.full_well))
    spread += np.float32(sensor.read_noise)
    noise = fresh_noise(image.shape, rng)
    if sensor.chroma > 0:
        image += _chroma_blotches(image.shape, sensor.chroma, rng) * cv2.sqrt(image)
    image += noise * spread
    image *= np.float32(sensor.gain) * np.array(sensor.white, dtype=np.float32)
    if sensor.sharpen > 0:
        soft = cv2.GaussianBlur(image, (0, 0), 1.2)
        image += np.float32(sensor.sharpen) * (image - soft)
    frame = _tone(image)
    if sensor.jpeg is not None:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(sensor.jpeg)])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


NOISE_BANKS = 3
NOISE_MARGIN = 97
"""Noise is cut from a few banks of Gaussian noise at a random offset and flip per frame:
as fresh as newly drawn noise at any pixel, at a tenth of the cost."""
_BANKS: dict[tuple[int, ...], list[np.ndarray]] = {}


def fresh_noise(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Unit sensor noise (demosaiced: slightly correlated), different in every frame."""
    if shape not in _BANKS:
        maker = np.random.default_rng(HELD_OUT_SEED_MIN)
        big = (shape[0] + NOISE_MARGIN, shape[1] + NOISE_MARGIN, *shape[2:])
        banks = []
        for _ in range(NOISE_BANKS):
            noise = cv2.GaussianBlur(maker.standard_normal(big, dtype=np.float32), (3, 3), 0.55)
            banks.append(noise * np.float32(1.0 / noise.std()))
        _BANKS[shape] = banks
    bank = _BANKS[shape][int(rng.integers(NOISE_BANKS))]
    dy, dx = (int(v) for v in rng.integers(0, NOISE_MARGIN, 2))
    view = bank[dy : dy + shape[0], dx : dx + shape[1]]
    sign = np.float32(1.0 if rng.random() < 0.5 else -1.0)
    return view[:, ::-1] * sign if rng.random() < 0.5 else view * sign


def _chroma_blotches(shape, strength: float, rng: np.random.Generator) -> np.ndarray:
    """Low-frequency colour noise (a cheap sensor's denoised chroma), zero mean."""
    height, width = shape[:2]
    small = rng.standard_normal((height // 6 + 2, width // 6 + 2, 3), dtype=np.float32)
    small -= small.mean(axis=2, keepdims=True)
    full = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)
    return full * np.float32(strength)


TONE_STEPS = 4096
TONE_TOP = 2.5
"""The tone curve's table covers linear 0..TONE_TOP in TONE_STEPS steps (beyond: white)."""


def _tone_table() -> np.ndarray:
    x = np.linspace(0.0, TONE_TOP, TONE_STEPS)
    shoulder = np.where(x > 0.8, 0.8 + (x - 0.8) / (1.0 + 2.0 * np.maximum(x - 0.8, 0)), x)
    out = np.power(np.clip(shoulder, 0.0, 1.0), 1 / 2.2) * 255.0 + 0.5
    return np.clip(out, 0, 255).astype(np.uint8)


TONE = _tone_table()


def _tone(image: np.ndarray) -> np.ndarray:
    """Linear light to 8-bit: an sRGB-like curve with a soft shoulder before clipping."""
    scaled = np.clip(image * np.float32((TONE_STEPS - 1) / TONE_TOP), 0, TONE_STEPS - 1)
    index = scaled.astype(np.uint16)
    return TONE[index]


# -- drawing helpers ------------------------------------------------------------

SHIFT = 4
"""Sub-pixel bits for OpenCV's polygon filling."""


def polygon_alpha(shape: tuple[int, int], polygons: list[np.ndarray]) -> np.ndarray:
    """Antialiased coverage (H, W) float32 in [0, 1] of the union of image polygons (pixels).

    Each polygon is filled on its own: OpenCV fills several polygons of one call by
    the even-odd rule, which leaves their overlaps empty.
    """
    mask = np.zeros(shape, np.uint8)
    one = np.zeros(shape, np.uint8)
    for polygon in polygons:
        points = np.rint(np.asarray(polygon) * (1 << SHIFT)).astype(np.int32)
        one[:] = 0
        cv2.fillPoly(one, [points], 255, cv2.LINE_AA, SHIFT)
        np.maximum(mask, one, out=mask)
    return mask.astype(np.float32) / 255.0


def grid_alpha(
    shape: tuple[int, int], corner: np.ndarray, right: np.ndarray, down: np.ndarray, cells
) -> tuple[Box, np.ndarray]:
    """Coverage of the black cells of a printed code (ArUco, AprilTag) laid on an image.

    ``cells`` is the code's module image (dark < 128), ``corner`` the image
    position (pixels) of its top-left corner and ``right``/``down`` one module's
    steps. Drawn 4x finer without antialiasing and averaged down, so that
    neighbouring dark cells join without seams. Returns the box and its coverage.
    """
    factor = 4
    rows, columns = cells.shape
    corner, right, down = (np.asarray(v, dtype=np.float64) for v in (corner, right, down))
    outline = np.array(
        [
            corner,
            corner + columns * right,
            corner + columns * right + rows * down,
            corner + rows * down,
        ]
    )
    box = Box.around(outline, shape, 2.0)
    if box.empty:
        return box, np.zeros((0, 0), np.float32)
    fine = np.zeros((box.shape[0] * factor, box.shape[1] * factor), np.uint8)
    for r in range(rows):
        for c in range(columns):
            if cells[r, c] < 128:
                p = corner + c * right + r * down
                square = np.array([p, p + right, p + right + down, p + down]) - box.origin
                points = np.rint(((square + 0.5) * factor - 0.5) * (1 << SHIFT))
                cv2.fillPoly(fine, [points.astype(np.int32)], 255, cv2.LINE_8, SHIFT)
    small = cv2.resize(fine, (box.shape[1], box.shape[0]), interpolation=cv2.INTER_AREA)
    return box, small.astype(np.float32) / 255.0


def blend(image: np.ndarray, alpha: np.ndarray, colour) -> None:
    """Lay ``colour`` (a BGR triple or an image) over ``image`` in place with coverage ``alpha``."""
    colour = np.asarray(colour, dtype=np.float32)
    if alpha.size > 100_000:
        rows = np.flatnonzero(alpha.max(axis=1) > 0)
        columns = np.flatnonzero(alpha.max(axis=0) > 0)
        if not rows.size:
            return
        box = slice(rows[0], rows[-1] + 1), slice(columns[0], columns[-1] + 1)
        image, alpha = image[box], alpha[box]
        colour = colour[box] if colour.ndim == 3 else colour
    a = alpha[:, :, None]
    image *= 1.0 - a
    image += a * colour


@dataclass(frozen=True)
class Box:
    """A pixel box [x0, x1) x [y0, y1) clipped to an image."""

    x0: int
    y0: int
    x1: int
    y1: int

    @classmethod
    def around(cls, points: np.ndarray, shape: tuple[int, ...], margin: float = 2.0) -> Box:
        """The box holding ``points`` (N, 2) plus a margin, clipped to ``shape``."""
        low = np.floor(points.min(axis=0) - margin).astype(int)
        high = np.ceil(points.max(axis=0) + margin).astype(int)
        return cls(max(0, low[0]), max(0, low[1]), min(shape[1], high[0]), min(shape[0], high[1]))

    @property
    def empty(self) -> bool:
        """True when nothing of the box is inside the image."""
        return self.x1 <= self.x0 or self.y1 <= self.y0

    @property
    def slices(self) -> tuple[slice, slice]:
        """Index slices (rows, columns) of the box."""
        return slice(self.y0, self.y1), slice(self.x0, self.x1)

    @property
    def origin(self) -> np.ndarray:
        """The box's top-left pixel as (x, y)."""
        return np.array([self.x0, self.y0], dtype=np.float64)

    @property
    def shape(self) -> tuple[int, int]:
        """(height, width) of the box."""
        return self.y1 - self.y0, self.x1 - self.x0


def circle(centre: tuple[float, float], radius: float, count: int = 48) -> np.ndarray:
    """Points (count, 2) on a circle, counter-clockwise from +x."""
    angles = np.linspace(0.0, 2 * np.pi, count, endpoint=False)
    return np.column_stack(
        [centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)]
    )
