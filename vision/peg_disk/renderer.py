"""The synthetic camera: draws the disk, its markers and cogs under a chosen camera pose.

Seeded and deterministic. The mock table's camera uses it and the tests measure
the reader with it, so it draws what a real camera sees: gear-shaped cogs with
shading and drop shadows, a tilted and rotated camera, lighting gradients,
colour casts, sensor noise, blur, JPEG artefacts, and optionally a hand and arm
over the board or a cog held above a peg. Cogs may stand above the board (their
tops seen where a tilted camera sees that height: a parallax), bright light may
clip and glint, a bump may blur the frame along a line. A
:class:`~vision.peg_disk.sprites.Look` says how the set is drawn;
:data:`vision.peg_disk.sprites.HELD_OUT_LOOK` draws it differently (other paints and
wood, bright metal pins and hubs, other gears), for measuring a reader that was
never tuned on it.

>>> from vision.peg_disk.geometry import start_position
>>> renderer = Renderer()
>>> scene = random_scene(np.random.default_rng(1), start_position(), (320, 240))
>>> image, homography = renderer.render(scene, seed=1)
>>> image.shape, image.dtype.name, homography.shape
((240, 320, 3), 'uint8', (3, 3))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from vision.markers import project
from vision.peg_disk.geometry import (
    PEGS,
    BoardGeometry,
    Position,
    board_to_sheet_pixels,
)
from vision.peg_disk.sprites import (
    REFERENCE_LOOK,
    Look,
    cog_sprite,
    composite,
    darken,
    empty_board,
)

TABLE_BGR = (40, 62, 92)
SKIN_BGR = (125, 155, 205)


@dataclass(frozen=True)
class Camera:
    """Camera pose: tilt from straight down, its direction, roll of the image, and framing."""

    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.9
    shift: tuple[float, float] = (0.0, 0.0)
    distance: float = 1000.0
    """Millimetres from the camera to the board centre: how much a cog's height shows."""


@dataclass(frozen=True)
class Lighting:
    """Brightness, a linear gradient, vignetting and a per-channel colour cast."""

    brightness: float = 1.0
    gradient: float = 0.0
    gradient_deg: float = 0.0
    vignette: float = 0.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)


@dataclass(frozen=True)
class Sensor:
    """Noise (sigma in grey levels), Gaussian blur sigma (pixels), JPEG quality or None."""

    noise: float = 0.0
    blur: float = 0.0
    jpeg: int | None = None
    motion: float = 0.0
    """Length (pixels) of a straight motion blur, as when the table is bumped."""
    motion_deg: float = 0.0


@dataclass(frozen=True)
class Hand:
    """A hand over the board: palm centre in board mm, arm direction, size factor."""

    centre: tuple[float, float]
    arm_deg: float
    size: float = 1.0
    skin: tuple[float, float, float] | None = None
    """Its BGR colour (None: :data:`SKIN_BGR`, varied a little): a hand or glove the colour of
    the board is the hardest to see."""
    sleeve: tuple[float, float, float] | None = None
    """The arm's BGR colour beyond the wrist (None: bare, the skin's)."""
    finger_width: float = 16.0
    arm_width: float = 70.0
    """Millimetres: thin fingers or a thin arm cover little of the pegs they cross."""
    blur: float = 0.0
    """Pixels of motion blur along the arm (a hand moving fast within the exposure)."""
    shown: bool = True
    """False: only its shadow falls on the board (the hand is above, out of the picture)."""


@dataclass(frozen=True)
class HeldCog:
    """A cog held above a peg: seen larger, offset (mm) and blurred, with its shadow."""

    peg: tuple[int, int]
    colour: str
    offset: tuple[float, float] = (6.0, -4.0)
    scale: float = 1.25
    blur: float = 1.5


@dataclass(frozen=True)
class LampShadow:
    """A lamp's shadow across the board: a soft straight edge, or a band, in board mm.

    ``angle_deg`` is the direction of the edge's normal, ``offset`` the edge's
    signed distance from the disk centre; the shadow lies beyond it (or within
    ``width`` / 2 of it when ``width`` is set). ``depth`` is the share of light
    removed, ``softness`` the width of the penumbra.
    """

    angle_deg: float
    offset: float = 0.0
    depth: float = 0.4
    softness: float = 8.0
    width: float | None = None


@dataclass(frozen=True)
class Glare:
    """Strong light: a bright patch that clips and small specular glints.

    ``centre`` and ``radius`` (board mm) place a soft patch that adds up to
    ``strength`` grey levels of white light; each of ``spots`` (board mm) is a
    glint of ``spot_radius`` mm that saturates.
    """

    centre: tuple[float, float] = (0.0, 0.0)
    radius: float = 120.0
    strength: float = 90.0
    spots: tuple[tuple[float, float], ...] = ()
    spot_radius: float = 2.0


@dataclass(frozen=True)
class Scene:
    """Everything one synthetic frame shows; ``cog_height`` is how far (mm) cog tops stand up."""

    position: Position
    size: tuple[int, int] = (640, 480)
    camera: Camera = field(default_factory=Camera)
    lighting: Lighting = field(default_factory=Lighting)
    sensor: Sensor = field(default_factory=Sensor)
    hand: Hand | None = None
    held: HeldCog | None = None
    shadow: LampShadow | None = None
    cog_height: float = 0.0
    glare: Glare | None = None


def random_scene(
    rng: np.random.Generator,
    position: Position,
    size: tuple[int, int] = (640, 480),
    max_tilt: float = 25.0,
) -> Scene:
    """A scene with a random camera pose, lighting and sensor, within the reference ranges."""
    camera = Camera(
        tilt_deg=float(rng.uniform(0, max_tilt)),
        azimuth_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(0, 360)),
        fill=float(rng.uniform(0.78, 0.95)),
        shift=(float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03))),
    )
    lighting = Lighting(
        brightness=float(rng.uniform(0.65, 1.1)),
        gradient=float(rng.uniform(0, 0.35)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0, 0.25)),
        cast=tuple(float(g) for g in rng.uniform(0.85, 1.15, 3)),
    )
    sensor = Sensor(
        noise=float(rng.uniform(0, 5)),
        blur=float(rng.uniform(0, 1.0)),
        jpeg=int(rng.integers(55, 96)) if rng.random() < 0.7 else None,
    )
    return Scene(position, size, camera, lighting, sensor)


def random_hand(rng: np.random.Generator, geometry: BoardGeometry) -> Hand:
    """A hand somewhere over the disk, its arm coming in from any side."""
    radius = geometry.triangle_radius() * math.sqrt(rng.random())
    angle = rng.uniform(0, 2 * math.pi)
    centre = (radius * math.cos(angle), radius * math.sin(angle))
    return Hand(centre, float(rng.uniform(0, 360)), float(rng.uniform(0.85, 1.2)))


def random_lamp(rng: np.random.Generator) -> LampShadow:
    """A lamp's shadow across the disk: a soft edge or a band, 20-55% darker."""
    return LampShadow(
        angle_deg=float(rng.uniform(0, 360)),
        offset=float(rng.uniform(-120, 120)),
        depth=float(rng.uniform(0.2, 0.55)),
        softness=float(rng.uniform(3, 25)),
        width=None if rng.random() < 0.5 else float(rng.uniform(30, 120)),
    )


def camera_homography(
    geometry: BoardGeometry, camera: Camera, size: tuple[int, int], height: float = 0.0
) -> np.ndarray:
    """3x3 map from board mm to image pixels for a pinhole camera looking at the board.

    With ``height`` the map is of the plane that many mm above the board (the
    tops of cogs), framed as the board is.
    """
    raw = _pinhole(camera, 1.1 * size[0], camera.distance)
    board = framed(raw, _sheet_corners(geometry), camera, size)
    if height == 0.0:
        return board
    return board @ np.linalg.inv(raw) @ _pinhole(camera, 1.1 * size[0], camera.distance, height)


def framed(
    raw: np.ndarray, corners: np.ndarray, camera: Camera, size: tuple[int, int]
) -> np.ndarray:
    """``raw`` zoomed so ``corners`` fill ``camera.fill`` of the frame, centred (plus the shift)."""
    width, height = size
    for _ in range(3):
        span = np.ptp(project(raw, corners), axis=0)
        zoom = camera.fill * min(width / span[0], height / span[1])
        raw = np.diag([zoom, zoom, 1.0]) @ raw
    seen = project(raw, corners)
    centre = (seen.min(axis=0) + seen.max(axis=0)) / 2
    target = np.array([width * (0.5 + camera.shift[0]), height * (0.5 + camera.shift[1])])
    move = np.array([[1, 0, target[0] - centre[0]], [0, 1, target[1] - centre[1]], [0, 0, 1.0]])
    return move @ raw


def _pinhole(camera: Camera, focal: float, distance: float, height: float = 0.0) -> np.ndarray:
    """Homography K [r1 r2 t] of a camera tilted towards the board centre (of the plane at
    ``height`` mm above the board: the camera is on the side of negative z)."""
    tilt, azimuth, roll = (
        math.radians(a) for a in (camera.tilt_deg, camera.azimuth_deg, camera.roll_deg)
    )
    centre = distance * np.array(
        [math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), -math.cos(tilt)]
    )
    forward = -centre / np.linalg.norm(centre)
    down_hint = np.array([-math.sin(roll), math.cos(roll), 0.0])
    right = np.cross(down_hint, forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.array([right, down, forward])
    translation = -rotation @ centre
    intrinsics = np.array([[focal, 0, 0], [0, focal, 0], [0, 0, 1.0]])
    lifted = translation - height * rotation[:, 2]
    return intrinsics @ np.column_stack([rotation[:, 0], rotation[:, 1], lifted])


def _sheet_corners(geometry: BoardGeometry) -> np.ndarray:
    w, h = (s / 2 for s in geometry.sheet_size)
    return np.array([(-w, -h), (w, -h), (w, h), (-w, h)])


class Renderer:
    """Draws scenes of one board in one :class:`Look`; caches the empty board and cog sprites."""

    def __init__(self, geometry: BoardGeometry | None = None, look: Look = REFERENCE_LOOK) -> None:
        self.geometry = geometry or BoardGeometry()
        self.look = look
        self._boards: dict[float, np.ndarray] = {}

    def render(self, scene: Scene, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """The BGR uint8 frame and the true board-mm-to-pixel homography."""
        rng = np.random.default_rng(seed)
        homography = camera_homography(self.geometry, scene.camera, scene.size)
        scale = self._texture_scale(homography)
        lift = None
        if scene.cog_height > 0:
            top = camera_homography(self.geometry, scene.camera, scene.size, scene.cog_height)
            lift = np.linalg.inv(homography) @ top
        texture = self._board_with_cogs(scene.position, scale, rng, lift)
        to_texture = board_to_sheet_pixels(self.geometry, scale)
        image = cv2.warpPerspective(
            texture,
            homography @ np.linalg.inv(to_texture),
            scene.size,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=TABLE_BGR,
        ).astype(np.float32)
        if scene.shadow is not None:
            image *= _lamp_shadow_gain(scene.shadow, homography, scene.size)[..., None]
        if scene.held is not None:
            self._draw_held_cog(image, scene.held, homography)
        if scene.hand is not None:
            self._draw_hand(image, scene.hand, homography, rng)
        image = _light(image, scene.lighting)
        if scene.glare is not None:
            _add_glare(image, scene.glare, homography)
        return _sense(image, scene.sensor, rng), homography

    def _texture_scale(self, homography: np.ndarray) -> float:
        """Texture pixels per mm: about twice the image's, so warping never magnifies."""
        return round(float(np.clip(2 * _pixels_per_mm(homography, (0.0, 0.0)), 1.0, 4.0)) * 4) / 4

    def _board_with_cogs(
        self, position: Position, scale: float, rng: np.random.Generator, lift=None
    ) -> np.ndarray:
        """The board texture with its cogs; ``lift`` maps board mm to where cog tops appear."""
        if scale not in self._boards:
            self._boards[scale] = empty_board(self.geometry, scale, self.look)
        texture = self._boards[scale].copy()
        to_texture = board_to_sheet_pixels(self.geometry, scale)
        pegs = self.geometry.peg_positions()
        centres = project(to_texture, pegs)
        if self.look.shadow > 0:
            self._cast_shadows(texture, position, centres, scale)
        for peg, base, centre in zip(PEGS, pegs, centres, strict=True):
            colour = position.get(peg)
            if colour is None:
                continue
            turn = int(rng.integers(6))
            tint = rng.uniform(0.96, 1.04, 3)
            if lift is None:
                sprite = cog_sprite(self.look, self.geometry.peg_pitch, scale, colour, turn)
                composite(texture, sprite, centre, tint)
            else:
                self._lifted_cog(
                    texture,
                    (colour, turn, tint),
                    base,
                    scale=scale,
                    lift=lift,
                    to_texture=to_texture,
                )
        return texture

    def _cast_shadows(self, texture, position: Position, centres, scale: float) -> None:
        """Every cog's soft shadow beside it, on the board and the pegs around it."""
        pitch = self.geometry.peg_pitch
        sprite = cog_sprite(self.look, pitch, scale, "red", 0)[..., 3]
        reach = self.look.shadow_reach * pitch * scale
        pad = math.ceil(reach) + 2
        sprite = np.pad(sprite, pad)
        shade = cv2.GaussianBlur(sprite, (0, 0), max(1.0, reach / 2)) * self.look.shadow
        for peg, centre in zip(PEGS, centres, strict=True):
            if position.get(peg) is not None:
                darken(texture, shade, centre + reach * np.array([0.6, 0.8]))

    def _lifted_cog(
        self, texture, cog, base: np.ndarray, *, scale: float, lift, to_texture
    ) -> None:
        """A cog standing up: its darker side wall from the board up, then its top.

        In the board texture the top is drawn where (and as large as) the camera
        sees it: ``lift`` moves a peg to the point of the board behind its top.
        """
        colour, turn, tint = cog
        top = project(lift, base[None])[0]
        growth = _pixels_per_mm(lift, (float(base[0]), float(base[1])))
        for step in (0.0, 0.35, 0.7, 1.0):
            at = base + step * (top - base)
            size = round(scale * (1 + step * (growth - 1)) * 50) / 50
            sprite = cog_sprite(self.look, self.geometry.peg_pitch, size, colour, turn)
            shade = tint * (1.0 if step == 1.0 else 0.5 + 0.15 * step)
            composite(texture, sprite, project(to_texture, at[None])[0], shade)

    def _draw_held_cog(self, image: np.ndarray, held: HeldCog, homography: np.ndarray) -> None:
        """A cog above a peg: its blurred shadow on the peg, itself larger and offset."""
        peg_mm = self.geometry.peg_position(held.peg)
        ppm = _pixels_per_mm(homography, peg_mm)
        pitch = self.geometry.peg_pitch
        sprite = cog_sprite(self.look, pitch, ppm * held.scale, held.colour, 0).copy()
        shadow = cv2.GaussianBlur(sprite[..., 3], (0, 0), 2 + held.blur)
        at = project(homography, np.array([peg_mm]))[0]
        darken(image, shadow * 0.4, at)
        sprite = cv2.GaussianBlur(sprite, (0, 0), held.blur)
        moved = (peg_mm[0] + held.offset[0], peg_mm[1] + held.offset[1])
        composite(image, sprite, project(homography, np.array([moved]))[0], np.ones(3))

    def _draw_hand(self, image, hand: Hand, homography, rng: np.random.Generator) -> None:
        """A palm, four fingers and an arm to the edge of the picture (see :class:`Hand`)."""
        mask, wrist = hand_mask(image.shape[:2], hand, homography)
        size = hand.size * _pixels_per_mm(homography, hand.centre)
        darken(image, _soft_shadow(mask, shift=12 * size), None)
        if not hand.shown:
            return
        angle = math.radians(hand.arm_deg)
        shade = _coarse(lambda shape: 0.8 + 0.25 * _ramp(shape, angle), image.shape[:2])
        vary = rng.uniform(0.85, 1.1, 3).astype(np.float32)
        skin = np.array(hand.skin or SKIN_BGR, np.float32) * (1 if hand.skin else vary)
        colour = shade[..., None] * skin
        if hand.sleeve is not None:
            sleeve = shade[..., None] * np.array(hand.sleeve, np.float32)
            colour = np.where(wrist[..., None] > 0.5, sleeve, colour)
        alpha = mask[..., None]
        image *= 1 - alpha
        image += alpha * colour


def hand_mask(
    shape: tuple[int, int], hand: Hand, homography: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where the hand is in a frame of ``shape``: its alpha (0..1, float32) and where the arm
    beyond the wrist is (1 there), each ``shape``; motion blur smears both along the arm."""
    mask = np.zeros(shape, np.float32)
    ppm = _pixels_per_mm(homography, hand.centre)
    centre = project(homography, np.array([hand.centre]))[0]
    size = hand.size * ppm
    angle = math.radians(hand.arm_deg)
    direction = np.array([math.cos(angle), math.sin(angle)])
    far = centre + direction * 4 * max(shape)
    wrist = np.zeros(shape, np.float32)
    _thick_line(wrist, centre + direction * 60 * size, far, hand.arm_width * size)
    _thick_line(mask, centre, far, hand.arm_width * size)
    axes = _pt((45 * size, 55 * size))
    cv2.ellipse(mask, _pt(centre), axes, hand.arm_deg + 90, 0, 360, 1.0, -1)
    for spread in (-0.45, -0.15, 0.15, 0.45):
        finger = -np.array([math.cos(angle + spread), math.sin(angle + spread)])
        _thick_line(mask, centre, centre + finger * 95 * size, hand.finger_width * size)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.2)
    if hand.blur > 0.5:
        kernel = _motion_kernel(hand.blur, hand.arm_deg)
        mask, wrist = cv2.filter2D(mask, -1, kernel), cv2.filter2D(wrist, -1, kernel)
    return mask, wrist


def _coarse(make, shape: tuple[int, int]) -> np.ndarray:
    """A smooth field computed at 1/8 size and resized (smooth fields need no more)."""
    small = make((max(2, shape[0] // 8), max(2, shape[1] // 8))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def _lamp_shadow_gain(shadow: LampShadow, homography, size: tuple[int, int]) -> np.ndarray:
    """Per-pixel light left under a lamp shadow (computed at 1/8 size, then resized)."""
    to_board = np.linalg.inv(homography)
    normal = np.array(
        [math.cos(math.radians(shadow.angle_deg)), math.sin(math.radians(shadow.angle_deg))]
    )

    def gain(shape: tuple[int, int]) -> np.ndarray:
        ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float64)
        pixels = np.column_stack(
            [(xs.ravel() + 0.5) * size[0] / shape[1], (ys.ravel() + 0.5) * size[1] / shape[0]]
        )
        across = project(to_board, pixels) @ normal - shadow.offset
        inside = across if shadow.width is None else shadow.width / 2 - np.abs(across)
        dark = np.clip(0.5 + inside / max(shadow.softness, 1e-3), 0.0, 1.0)
        return (1.0 - shadow.depth * dark).reshape(shape)

    return _coarse(gain, (size[1], size[0]))


def _soft_shadow(mask: np.ndarray, shift: float) -> np.ndarray:
    """The hand's soft shadow: its mask blurred and moved, at 45% darkness."""
    height, width = mask.shape
    small = cv2.resize(mask, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.5)
    moved = np.roll(small, (round(shift / 4), round(shift / 4)), axis=(0, 1))
    return 0.45 * cv2.resize(moved, (width, height), interpolation=cv2.INTER_LINEAR)


def _pt(values) -> tuple[int, int]:
    return (round(float(values[0])), round(float(values[1])))


def _thick_line(mask: np.ndarray, start, end, width: float) -> None:
    cv2.line(mask, _pt(start), _pt(end), 1.0, max(1, round(width)), cv2.LINE_AA)


def _ramp(shape: tuple[int, int], angle: float) -> np.ndarray:
    """A 0..1 linear ramp across the picture along a direction."""
    ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
    along = xs * math.cos(angle) + ys * math.sin(angle)
    return (along - along.min()) / max(1.0, float(np.ptp(along)))


def _pixels_per_mm(homography: np.ndarray, at: tuple[float, float]) -> float:
    """Local image scale of the board at a point (square root of the Jacobian area)."""
    points = np.array([at, (at[0] + 1, at[1]), (at[0], at[1] + 1)])
    p = project(homography, points)
    (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
    return float(math.sqrt(abs(ax * by - ay * bx)))


def _light(image: np.ndarray, lighting: Lighting) -> np.ndarray:
    """Apply brightness, gradient, vignetting and colour cast (computed coarse, then resized)."""
    height, width = image.shape[:2]
    gain = coarse_gain(lighting, height, width)
    gain = cv2.resize(gain.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(image, gain)


def coarse_gain(lighting: Lighting, height: int, width: int) -> np.ndarray:
    """The light's per-channel gain over a frame, at 1/8 of its size (it varies smoothly)."""
    small = (max(2, height // 8), max(2, width // 8))
    ramp = _ramp(small, math.radians(lighting.gradient_deg)) - 0.5
    ys, xs = np.mgrid[0 : small[0], 0 : small[1]].astype(np.float32)
    r2 = ((xs / small[1] - 0.5) ** 2 + (ys / small[0] - 0.5) ** 2) * 2
    gain = lighting.brightness * (1 + 2 * lighting.gradient * ramp) * (1 - lighting.vignette * r2)
    return gain[..., None] * np.array(lighting.cast, np.float32)


def _add_glare(image: np.ndarray, glare: Glare, homography: np.ndarray) -> None:
    """Add white light: a soft patch (computed coarse) and saturating glints, in place."""
    height, width = image.shape[:2]
    ppm = _pixels_per_mm(homography, glare.centre)
    centre = project(homography, np.array([glare.centre]))[0]
    sigma = max(glare.radius * ppm / 2, 1.0)

    def patch(shape: tuple[int, int]) -> np.ndarray:
        ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
        dx = (xs + 0.5) * width / shape[1] - centre[0]
        dy = (ys + 0.5) * height / shape[0] - centre[1]
        return glare.strength * np.exp(-(dx**2 + dy**2) / (2 * sigma**2))

    light = _coarse(patch, (height, width))
    if glare.spots:
        spots = np.zeros((height, width), np.float32)
        for spot in project(homography, np.array(glare.spots, np.float64)):
            radius = max(1, round(glare.spot_radius * ppm))
            cv2.circle(spots, _pt(spot), radius, 400.0, -1, cv2.LINE_AA)
        light += cv2.GaussianBlur(spots, (0, 0), 0.8)
    image += light[..., None]


def _motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A normalised straight-line blur kernel ``length`` pixels long."""
    size = max(3, math.ceil(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    mid = size // 2
    offset = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
    offset *= length / 2
    cv2.line(
        kernel,
        _pt((mid - offset[0], mid - offset[1])),
        _pt((mid + offset[0], mid + offset[1])),
        1.0,
        1,
        cv2.LINE_AA,
    )
    return kernel / kernel.sum()


@lru_cache(maxsize=4)
def _noise_bank(height: int, width: int) -> np.ndarray:
    """Unit Gaussian noise a little larger than a frame; frames take shifted crops of it."""
    bank = np.random.default_rng(11).standard_normal(
        (height + NOISE_MARGIN, width + NOISE_MARGIN, 3)
    )
    return bank.astype(np.float32)


NOISE_MARGIN = 64


def _sense(image: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    """Blur, motion blur, noise, clipping to 8 bits and JPEG compression.

    The noise is a crop of a fixed noise field at a random shift (per frame): as
    random from frame to frame as a sensor's, and much cheaper than drawing it.
    """
    if sensor.blur > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), sensor.blur)
    if sensor.motion > 0.5:
        image = cv2.filter2D(image, -1, _motion_kernel(sensor.motion, sensor.motion_deg))
    if sensor.noise > 0:
        shift = int(rng.integers(2**31))
        dy, dx = shift % NOISE_MARGIN, (shift // NOISE_MARGIN) % NOISE_MARGIN
        height, width = image.shape[:2]
        noise = _noise_bank(height, width)[dy : dy + height, dx : dx + width]
        image = cv2.scaleAdd(noise, float(sensor.noise), image)
    frame = cv2.convertScaleAbs(np.clip(image, 0, 255, out=image))
    if sensor.jpeg is not None:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, sensor.jpeg])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else frame
    return frame
