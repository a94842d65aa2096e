"""The synthetic camera for a table of printed parts: a C.O.G. board, player mats, their pieces.

Seeded and deterministic, like :mod:`vision.peg_disk.renderer` (whose camera, lighting
and sensor it reuses): every part is drawn by :func:`vision.part_sheet.draw_part`
and laid on a wooden table at its :class:`PartPose`; tiles (drawn by
:func:`vision.parts.tiles.draw_tile`), cogs, dice and pawns lie on its places with a
drop shadow; the whole table is one texture, warped once into the picture;
hands with their shadows, light gradients and casts, blur, noise and JPEG
follow. A piece's small rotation and offset within its place come from the
scene's jitter seed, the part, the place and the label, so a piece keeps its
spot from frame to frame until it is moved. The composed table is cached (and mended where
only the contents changed), so a mock table that renders every frame pays mostly for the
warp and the sensor.

>>> from vision.layout import Marker, PartLayout, Place
>>> mat = PartLayout("mat", 120, 80, (Marker(20, 12, 12, 16), Marker(21, 108, 12, 16),
...                  Marker(22, 108, 68, 16), Marker(23, 12, 68, 16)),
...                  (Place("c1", "tile", 60, 40, 22, 22),))
>>> scene = TableScene(((mat, PartPose(100, 60, 10)),), {"mat": {"c1": "A"}}, (200, 120))
>>> render_table(scene, (320, 240), seed=1).shape
(240, 320, 3)
"""

from __future__ import annotations

import math
import zlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.layout import DIE_LABELS, EMPTY, STAR, TILE_LABELS, PartLayout, Place, pawn_colours
from vision.markers import project
from vision.part_sheet import PAPER_BGR, draw_part, sheet_matrix
from vision.parts.reader import REFERENCE, PartsLook
from vision.parts.tiles import TRAINING_FONTS, Font, draw_tile
from vision.peg_disk.renderer import (
    SKIN_BGR,
    TABLE_BGR,
    Camera,
    Hand,
    Lighting,
    Sensor,
    _gear_outline,
    _pinhole,
    _pixels_per_mm,
    _pt,
    _ramp,
    _soft_shadow,
    _thick_line,
    coarse_gain,
    framed,
)

TILE_TURN_DEG = 20.0
"""Largest rotation of a tile or a star token within its place."""
DIE_TURN_DEG = 30.0
"""Largest rotation of a die within its slot."""
DIE_RATIO = 0.85
"""Die side / die place side."""
COG_RATIO = 0.92
"""Cog tip diameter / cog space diameter."""
PAWN_RATIO = 0.4
"""Pawn diameter / track space side."""
CAMERA_DISTANCE = 1.2
"""Camera height over the table, in table widths (sets how strong the perspective is)."""
PART_GAP_MM = 25.0
"""Space between neighbouring parts laid out by :func:`arrange_parts`."""
TEXTURE_OVERSAMPLE = 2.0
"""Texture pixels per image pixel at the table centre: the warp only ever shrinks."""
NOISE_SCALE = 16.0
"""The cached noise field holds N(0, 1) times this, as int8."""


@dataclass(frozen=True)
class PartPose:
    """Where a part lies: its centre on the table (mm from the table's top-left) and its turn.

    ``angle_deg`` turns the part clockwise as seen from above (the camera's y
    axis points down the table).
    """

    x_mm: float
    y_mm: float
    angle_deg: float = 0.0


@dataclass(frozen=True)
class TableScene:
    """Everything one synthetic frame of the table shows.

    ``contents`` maps a part's name to its places' labels (place name ->
    label, as :mod:`vision.layout` names them); places not named are empty.
    ``hands`` are in table mm. ``jitter_seed`` fixes where each piece lies
    within its place.
    """

    parts: tuple[tuple[PartLayout, PartPose], ...]
    contents: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    table_size_mm: tuple[float, float] = (1000.0, 560.0)
    camera: Camera = field(default_factory=Camera)
    lighting: Lighting = field(default_factory=Lighting)
    sensor: Sensor = field(default_factory=Sensor)
    hands: tuple[Hand, ...] = ()
    font: Font = TRAINING_FONTS[0]
    look: PartsLook = REFERENCE
    jitter_seed: int = 0

    def __post_init__(self) -> None:
        """Refuse contents that name an unknown part or place or a label the place cannot hold."""
        if not (self.table_size_mm[0] > 0 and self.table_size_mm[1] > 0):
            raise ValueError(f"table size {self.table_size_mm} mm is not positive")
        layouts = {layout.name: layout for layout, _pose in self.parts}
        if len(layouts) != len(self.parts):
            raise ValueError("two parts of the scene have the same name")
        for part, labels in self.contents.items():
            if part not in layouts:
                raise ValueError(f"contents name part {part!r}, which is not on the table")
            for name, label in labels.items():
                check_label(layouts[part], name, label, self.look)


def check_label(layout: PartLayout, name: str, label: str, look: PartsLook = REFERENCE) -> None:
    """Raise ValueError (one line, naming part, place and label) if the place cannot hold it."""
    try:
        place = layout.place(name)
    except KeyError:
        raise ValueError(f"{layout.name} has no place {name!r}") from None
    allowed = {
        "tile": set(TILE_LABELS),
        "cog": {EMPTY, *look.piece_names()},
        "die": set(DIE_LABELS),
        "free": {EMPTY},
    }
    if place.kind == "pawn":
        ok = all(colour in look.piece_names() for colour in pawn_colours(label))
        ok = ok and label == "+".join(sorted(pawn_colours(label)))
    else:
        ok = label in allowed[place.kind]
    if not ok:
        raise ValueError(f"{layout.name} place {name} ({place.kind}) cannot hold {label!r}")


def part_to_table(layout: PartLayout, pose: PartPose) -> np.ndarray:
    """3x3 map from the part's millimetres to the table's millimetres."""
    angle = math.radians(pose.angle_deg)
    cos, sin = math.cos(angle), math.sin(angle)
    centre = np.array([[1, 0, -layout.width / 2], [0, 1, -layout.height / 2], [0, 0, 1.0]])
    turn = np.array([[cos, -sin, pose.x_mm], [sin, cos, pose.y_mm], [0, 0, 1.0]])
    return turn @ centre


def table_homography(
    table_size_mm: tuple[float, float], camera: Camera, size: tuple[int, int]
) -> np.ndarray:
    """3x3 map from table mm to image pixels for a pinhole camera framing the table."""
    width = size[0]
    table_w, table_h = table_size_mm
    centred = np.array([[1, 0, -table_w / 2], [0, 1, -table_h / 2], [0, 0, 1.0]])
    distance = CAMERA_DISTANCE * max(table_w, table_h)
    raw = _pinhole(camera, 1.1 * width, distance) @ centred
    corners = np.array([(0, 0), (table_w, 0), (table_w, table_h), (0, table_h)], np.float64)
    return framed(raw, corners, camera, size)


def true_homographies(scene: TableScene, size: tuple[int, int]) -> dict[str, np.ndarray]:
    """Each part's true map from its millimetres to image pixels (for tests and benchmarks)."""
    table = table_homography(scene.table_size_mm, scene.camera, size)
    return {layout.name: table @ part_to_table(layout, pose) for layout, pose in scene.parts}


class TableRenderer:
    """Draws table scenes; caches the bare table and the composed table per scale.

    When only the contents change (a tile laid, a die rolled), the composed
    table is mended where they changed, not composed again.
    """

    def __init__(self, cache_size: int = 4) -> None:
        self._bare: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._composed: OrderedDict[tuple, _Composition] = OrderedDict()
        self._cache_size = cache_size

    def render(self, scene: TableScene, size: tuple[int, int] = (1280, 720), seed: int = 0):
        """The BGR uint8 frame of ``scene`` at ``size`` (width, height)."""
        _check_size(size)
        rng = np.random.default_rng(seed)
        homography = table_homography(scene.table_size_mm, scene.camera, size)
        scale = _texture_scale(homography, scene.table_size_mm)
        texture = self._table_with_pieces(scene, scale)
        image = cv2.warpPerspective(
            texture,
            homography @ np.linalg.inv(sheet_matrix(scale)),
            size,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=TABLE_BGR,
        )
        for hand in scene.hands:
            image = _draw_hand(image, hand, homography, rng)
        image = _light(image, scene.lighting)
        return _sense(image, scene.sensor, rng)

    def _table_with_pieces(self, scene: TableScene, scale: float) -> np.ndarray:
        key = (scene.parts, scene.table_size_mm, scale, scene.font, scene.look, scene.jitter_seed)
        labels = _labels(scene)
        composed = self._composed.get(key)
        if composed is None:
            stamps = {
                place: _stamps_of(scene, place, label, scale) for place, label in labels.items()
            }
            texture = self._bare_table(scene, scale).copy()
            for place in labels:
                for stamp in stamps[place]:
                    _stamp(texture, stamp)
            composed = _Composition(labels, stamps, texture)
        elif composed.labels != labels:
            composed = composed.mended(scene, labels, scale, self._bare_table(scene, scale))
        self._remember(self._composed, key, composed)
        return composed.texture

    def _bare_table(self, scene: TableScene, scale: float) -> np.ndarray:
        key = (scene.parts, scene.table_size_mm, scale)
        if key not in self._bare:
            self._remember(self._bare, key, _bare_table(scene, scale))
        self._bare.move_to_end(key)
        return self._bare[key]

    def _remember(self, cache: OrderedDict, key: tuple, value) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > self._cache_size:
            cache.popitem(last=False)


@dataclass(frozen=True)
class _Stamp:
    """One piece as the table texture shows it: its BGRA sprite, centre (texture px), turn."""

    sprite: np.ndarray
    centre: tuple[float, float]
    angle_deg: float

    def box(self) -> tuple[int, int, int, int]:
        """The texture box (x0, y0, x1, y1) the piece and its shadow may touch."""
        reach = math.ceil(self.sprite.shape[0] * 0.75 + _shadow_of(self.sprite)[1]) + 3
        x0, y0 = math.floor(self.centre[0]) - reach, math.floor(self.centre[1]) - reach
        return x0, y0, x0 + 2 * reach + 1, y0 + 2 * reach + 1


@dataclass
class _Composition:
    """A composed table: the labels it shows (part, place) -> label, their stamps, the texture."""

    labels: dict[tuple[str, str], str]
    stamps: dict[tuple[str, str], list[_Stamp]]
    texture: np.ndarray

    def mended(self, scene: TableScene, labels, scale: float, bare: np.ndarray) -> _Composition:
        """This table with the contents ``labels``, redrawn only around the places that changed.

        Each box a changed piece touches (before or after) is put back to the
        bare table and every piece reaching into it is stamped again, in the
        order of a full composition, so the result is the same as composing
        the table afresh.
        """
        changed = {
            p for p in self.labels.keys() | labels.keys() if self.labels.get(p) != labels.get(p)
        }
        stamps = {
            place: self.stamps[place]
            if place not in changed
            else _stamps_of(scene, place, label, scale)
            for place, label in labels.items()
        }
        boxes = [
            stamp.box()
            for place in changed
            for stamp in [*self.stamps.get(place, ()), *stamps.get(place, ())]
        ]
        texture = self.texture
        for box in boxes:
            window = _inside(box, texture.shape)
            if window is None:
                continue
            x0, y0, x1, y1 = window
            texture[y0:y1, x0:x1] = bare[y0:y1, x0:x1]
            for place in labels:
                for stamp in stamps[place]:
                    if _overlap(stamp.box(), window):
                        _stamp(texture, stamp, window)
        return _Composition(labels, stamps, texture)


def _inside(box: tuple[int, int, int, int], shape) -> tuple[int, int, int, int] | None:
    """The part of a box (x0, y0, x1, y1) inside an image of ``shape``, or None."""
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(shape[1], box[2]), min(shape[0], box[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _labels(scene: TableScene) -> dict[tuple[str, str], str]:
    """(part, place) -> label of every piece in the scene, in drawing order (parts, contents)."""
    return {
        (layout.name, name): label
        for layout, _pose in scene.parts
        for name, label in scene.contents.get(layout.name, {}).items()
        if label
    }


_DEFAULT = TableRenderer()


def render_table(scene: TableScene, size: tuple[int, int] = (1280, 720), seed: int = 0):
    """The BGR uint8 frame of ``scene`` (one shared renderer and its caches)."""
    return _DEFAULT.render(scene, size, seed)


def _check_size(size: tuple[int, int]) -> None:
    width, height = size
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise ValueError(f"frame size {width}x{height} is outside 16..8192 pixels")


def _texture_scale(homography: np.ndarray, table_size_mm: tuple[float, float]) -> float:
    """Texture pixels per table mm (a multiple of 0.25): about twice the image's at the centre."""
    centre = (table_size_mm[0] / 2, table_size_mm[1] / 2)
    scale = TEXTURE_OVERSAMPLE * _pixels_per_mm(homography, centre)
    return round(float(np.clip(scale, 0.5, 5.0)) * 4) / 4


def _bare_table(scene: TableScene, scale: float) -> np.ndarray:
    """The wooden table with every part laid on it (and a faint shadow under each part)."""
    width, height = (round(s * scale) for s in scene.table_size_mm)
    grain = np.random.default_rng(11).normal(0, 1, (max(2, height // 4), max(2, width // 4)))
    grain = cv2.GaussianBlur(grain, (0, 0), sigmaX=6, sigmaY=1.2)
    gain = (1 + 0.08 * grain / max(float(grain.std()), 1e-6)).astype(np.float32)
    gain = cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)
    table = cv2.merge([np.clip(gain * channel, 0, 255).astype(np.uint8) for channel in TABLE_BGR])
    for layout, pose in scene.parts:
        _lay_part(table, layout, pose, scale)
    return table


def _lay_part(table: np.ndarray, layout: PartLayout, pose: PartPose, scale: float) -> None:
    """Lay one part's printed face on the table texture, with a soft shadow, in place."""
    sheet = draw_part(layout, scale)
    to_table = (
        sheet_matrix(scale) @ part_to_table(layout, pose) @ np.linalg.inv(sheet_matrix(scale))
    )
    corners = np.array(
        [(0, 0), (sheet.shape[1], 0), (sheet.shape[1], sheet.shape[0]), (0, sheet.shape[0])],
        np.float64,
    )
    reach = project(to_table, corners)
    margin = math.ceil(4 * scale) + 2
    x0, y0 = np.maximum(np.floor(reach.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.minimum(
        np.ceil(reach.max(axis=0)).astype(int) + margin, (table.shape[1], table.shape[0])
    )
    if x0 >= x1 or y0 >= y1:
        return
    size = (int(x1 - x0), int(y1 - y0))
    matrix = (np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ to_table)[:2]
    laid = cv2.warpAffine(sheet, matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    cover = cv2.warpAffine(np.ones(sheet.shape[:2], np.float32), matrix, size)
    drop = round(scale)
    shadow = cv2.GaussianBlur(cover, (0, 0), 1.5 * scale)
    shadow = np.roll(shadow, (drop, drop), axis=(0, 1))
    region = table[y0:y1, x0:x1].astype(np.float32) * (1 - 0.35 * shadow)[..., None]
    region += (laid - region) * cover[..., None]
    table[y0:y1, x0:x1] = np.clip(region + 0.5, 0, 255).astype(np.uint8)


def _stamps_of(scene: TableScene, place_key: tuple[str, str], label: str, scale: float):
    """The stamps of the pieces ``label`` puts on a place, where they lie on the table texture."""
    part, name = place_key
    layout, pose = next((layout, pose) for layout, pose in scene.parts if layout.name == part)
    to_texture = sheet_matrix(scale) @ part_to_table(layout, pose)
    place = layout.place(name)
    rng = _place_rng(scene.jitter_seed, part, name, label)
    stamps = []
    for sprite, offset, turn in _pieces_of(place, label, scene, scale, rng):
        at = (place.x + offset[0], place.y + offset[1])
        centre = project(to_texture, np.array([at]))[0]
        stamps.append(_Stamp(sprite, (float(centre[0]), float(centre[1])), pose.angle_deg + turn))
    return stamps


def _place_rng(seed: int, part: str, place: str, label: str) -> np.random.Generator:
    """The jitter of one piece: stable for the same scene seed, part, place and label."""
    words = [zlib.crc32(text.encode()) for text in (part, place, label)]
    return np.random.default_rng([seed & 0xFFFFFFFF, *words])


def _pieces_of(place: Place, label: str, scene: TableScene, scale: float, rng):
    """(sprite, offset mm from the place centre, turn in degrees) of each piece on the place."""
    side = min(place.width, place.height)
    if place.kind == "tile":
        ratio = scene.look.tiles.star_ratio if label == STAR else scene.look.tiles.side_ratio
        sprite = draw_tile(label, _px(ratio * side, scale), scene.font, scene.look.tiles)
        slack = (1 - ratio) / 2 * side
        turn = rng.uniform(-TILE_TURN_DEG, TILE_TURN_DEG)
        return [(sprite, tuple(rng.uniform(-slack, slack, 2)), turn)]
    if place.kind == "cog":
        bgr = scene.look.piece(label)
        sprite = _gear_sprite(_px(COG_RATIO * side, scale), bgr, int(rng.integers(6)))
        return [(sprite, tuple(rng.uniform(-0.6, 0.6, 2)), rng.uniform(0, 30))]
    if place.kind == "die":
        colours = scene.look.die(place.colour or "black")
        pips = (scene.look.pip_offset, scene.look.pip_radius)
        sprite = _die_sprite(_px(DIE_RATIO * side, scale), int(label), colours, pips)
        slack = 0.4 * (1 - DIE_RATIO) * side
        turn = rng.uniform(-DIE_TURN_DEG, DIE_TURN_DEG)
        return [(sprite, tuple(rng.uniform(-slack, slack, 2)), turn)]
    return _pawns(pawn_colours(label), side, scene.look, scale, rng)


def _pawns(colours: Sequence[str], side: float, look: PartsLook, scale: float, rng):
    """Pawn discs on one track space: one near the centre, several in its quarters."""
    if len(colours) == 1:
        spots = [rng.uniform(-0.15 * side, 0.15 * side, 2)]
    else:
        quarters = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64) * 0.22 * side
        spots = [quarters[i] + rng.uniform(-0.03, 0.03, 2) * side for i in rng.permutation(4)]
    diameter = _px(PAWN_RATIO * side, scale)
    return [
        (_pawn_sprite(diameter, look.piece(colour)), tuple(spot), 0.0)
        for colour, spot in zip(colours, spots, strict=False)
    ]


def _px(mm: float, scale: float) -> int:
    return max(4, round(mm * scale))


def _stamp(texture: np.ndarray, stamp: _Stamp, window=None) -> None:
    """Blend a piece (turned clockwise, with a drop shadow) onto the texture, in place.

    ``window`` (x0, y0, x1, y1) limits the drawing to that box of the texture.
    """
    sprite, centre = stamp.sprite, stamp.centre
    side = sprite.shape[0]
    shadow, _blur = _shadow_of(sprite)
    x0, y0, x1, _y1 = stamp.box()
    size = x1 - x0
    limits = window or (0, 0, texture.shape[1], texture.shape[0])
    box = _clip(limits, x0, y0, size)
    if box is None:
        return
    angle = math.radians(stamp.angle_deg)
    cos, sin = math.cos(angle), math.sin(angle)
    drop = max(1.0, side / 25)
    patch = cv2.warpAffine(sprite, _turn(cos, sin, (side - 1) / 2, centre, (x0, y0)), (size, size))
    middle = (shadow.shape[0] - 1) / 2
    moved = (centre[0] + drop, centre[1] + drop)
    dark = cv2.warpAffine(shadow, _turn(cos, sin, middle, moved, (x0, y0)), (size, size))
    ys, xs, py, px = box
    alpha = patch[py, px, 3:4].astype(np.float32) * np.float32(1 / 255)
    shade = 1 - dark[py, px, None].astype(np.float32) * np.float32(0.35 / 255)
    region = texture[ys, xs].astype(np.float32) * shade
    region += (patch[py, px, :3].astype(np.float32) - region) * alpha
    texture[ys, xs] = region.astype(np.uint8)


def _turn(cos: float, sin: float, mid: float, centre, origin) -> np.ndarray:
    """2x3 map from a square sprite's pixels (centre ``mid``) turned onto a patch at ``origin``."""
    tx, ty = centre[0] - origin[0], centre[1] - origin[1]
    return np.array(
        [[cos, -sin, tx - cos * mid + sin * mid], [sin, cos, ty - sin * mid - cos * mid]]
    )


_SHADOWS: dict[int, tuple[np.ndarray, np.ndarray, float]] = {}


def _shadow_of(sprite: np.ndarray) -> tuple[np.ndarray, float]:
    """The sprite's soft shadow (its alpha blurred, on a larger square) and the blur's reach.

    Sprites are cached (read-only) by their makers, so the shadow is cached by
    the sprite's identity; the entry keeps the sprite alive, so the id stays its own.
    """
    entry = _SHADOWS.get(id(sprite))
    if entry is None or entry[0] is not sprite:
        side = sprite.shape[0]
        sigma = max(1.0, side / 30)
        pad = math.ceil(3 * sigma)
        alpha = cv2.copyMakeBorder(sprite[..., 3], *(4 * [pad]), cv2.BORDER_CONSTANT, value=0)
        entry = (sprite, cv2.GaussianBlur(alpha, (0, 0), sigma), float(pad))
        if len(_SHADOWS) > 4096:
            _SHADOWS.clear()
        _SHADOWS[id(sprite)] = entry
    return entry[1], entry[2]


def _clip(limits: tuple[int, int, int, int], x0: int, y0: int, size: int):
    """Texture and patch slices of a size x size patch at (x0, y0) within ``limits``, or None."""
    dx0, dy0 = max(limits[0], x0), max(limits[1], y0)
    dx1, dy1 = min(limits[2], x0 + size), min(limits[3], y0 + size)
    if dx0 >= dx1 or dy0 >= dy1:
        return None
    return slice(dy0, dy1), slice(dx0, dx1), slice(dy0 - y0, dy1 - y0), slice(dx0 - x0, dx1 - x0)


@lru_cache(maxsize=256)
def _gear_sprite(diameter: int, bgr: tuple[int, int, int], turn: int) -> np.ndarray:
    """A shaded gear seen from above (the Kogworks cog's look), BGRA uint8."""
    outer = diameter / 2
    size = math.ceil(2 * outer + 4) | 1
    mid = size // 2
    alpha = np.zeros((size, size), np.float32)
    cv2.fillPoly(alpha, [_gear_outline(outer, mid, turn)], 1.0, cv2.LINE_AA)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) - mid
    shade = 1.0 - 0.2 * (xs + ys) / (math.sqrt(2) * outer)
    rim = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, round(0.09 * outer)))
    shade *= 0.72 + 0.28 * rim
    radius = np.hypot(xs, ys)
    shade[radius < 0.21 * outer] = 0.35
    shade[radius < 0.11 * outer] = 0.6
    colour = np.array(bgr, np.float32) * shade[..., None]
    return _bgra(colour, alpha)


@lru_cache(maxsize=512)
def _die_sprite(side: int, face: int, colours: tuple[tuple, tuple], pips: tuple[float, float]):
    """A die from above: a rounded square of the body colour with the face's pips, BGRA.

    ``colours`` are the body's and the pips' BGR, ``pips`` the pips' offset from
    the centre and their radius, in die sides.
    """
    body, pip = colours
    offset, pip_radius = pips
    big = 4 * side
    alpha = np.zeros((big, big), np.uint8)
    radius = round(0.18 * big)
    cv2.rectangle(alpha, (radius, 0), (big - 1 - radius, big - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (big - 1, big - 1 - radius), 255, -1)
    for x in (radius, big - 1 - radius):
        for y in (radius, big - 1 - radius):
            cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
    colour = np.empty((big, big, 3), np.float32)
    colour[:] = body
    edge = alpha.astype(np.float32) - cv2.erode(
        alpha, np.ones((3, 3), np.uint8), iterations=big // 14
    )
    colour *= (1 - 0.25 * edge / 255)[..., None]
    for x, y in PIP_SPOTS[face]:
        centre = (round((0.5 + offset * x) * big), round((0.5 + offset * y) * big))
        cv2.circle(colour, centre, round(pip_radius * big), pip, -1, cv2.LINE_AA)
    small = cv2.resize(colour, (side, side), interpolation=cv2.INTER_AREA)
    small_alpha = cv2.resize(alpha, (side, side), interpolation=cv2.INTER_AREA)
    return _bgra(small, small_alpha.astype(np.float32) / 255)


PIP_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Pip centres of each face in units of the pips' offset from the centre (x right, y down)."""


@lru_cache(maxsize=128)
def _pawn_sprite(diameter: int, bgr: tuple[int, int, int]) -> np.ndarray:
    """A pawn from above: a disc with a darker rim and a lighter top, BGRA."""
    size = diameter + 2
    mid = (size - 1) / 2
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) - mid
    radius = np.hypot(xs, ys) / (diameter / 2)
    alpha = np.clip((1.0 - radius) * diameter / 2 + 0.5, 0, 1)
    shade = np.where(radius > 0.8, 0.7, 1.0 + 0.15 * (radius < 0.45))
    shade = shade * (1.0 - 0.1 * (xs + ys) / diameter)
    colour = np.array(bgr, np.float32) * shade[..., None]
    return _bgra(colour, alpha)


def _bgra(colour: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    sprite = np.empty((*alpha.shape, 4), np.uint8)
    sprite[..., :3] = np.clip(colour + 0.5, 0, 255).astype(np.uint8)
    sprite[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    sprite.flags.writeable = False
    return sprite


def _draw_hand(image: np.ndarray, hand: Hand, homography: np.ndarray, rng) -> np.ndarray:
    """A skin-coloured palm, four fingers and an arm to the edge of the picture, with a shadow.

    The Kogworks hand (:mod:`vision.peg_disk.renderer`), its centre in table mm.
    """
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.float32)
    ppm = _pixels_per_mm(homography, hand.centre)
    centre = project(homography, np.array([hand.centre]))[0]
    size = hand.size * ppm
    angle = math.radians(hand.arm_deg)
    direction = np.array([math.cos(angle), math.sin(angle)])
    _thick_line(mask, centre, centre + direction * 4 * max(width, height), 70 * size)
    axes = (round(45 * size), round(55 * size))
    cv2.ellipse(mask, _pt(centre), axes, hand.arm_deg + 90, 0, 360, 1.0, -1, cv2.LINE_AA)
    for spread in (-0.45, -0.15, 0.15, 0.45):
        finger = -np.array([math.cos(angle + spread), math.sin(angle + spread)])
        _thick_line(mask, centre, centre + finger * 95 * size, 16 * size)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.2)
    shadow = _soft_shadow(mask, 12 * size)
    skin = np.array(SKIN_BGR, np.float32) * rng.uniform(0.85, 1.1, 3).astype(np.float32)
    shade = 0.8 + 0.25 * cv2.resize(_ramp((height // 8, width // 8), angle), (width, height))
    lit = image.astype(np.float32) * (1 - shadow)[..., None]
    alpha = mask[..., None]
    lit = lit * (1 - alpha) + alpha * shade[..., None] * skin
    return np.clip(lit + 0.5, 0, 255).astype(np.uint8)


def _light(image: np.ndarray, lighting: Lighting) -> np.ndarray:
    """Brightness, gradient, vignetting and cast of the peg disk renderer, on 8-bit pixels.

    The smooth gain is computed at 1/8 size and applied as a fixed-point
    (1/100) 8-bit factor: the same light, a fraction of the float work.
    """
    height, width = image.shape[:2]
    gain = coarse_gain(lighting, height, width)
    gain8 = np.clip(gain * 100 + 0.5, 0, 255).astype(np.uint8)
    gain8 = cv2.resize(gain8, (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(image, gain8, scale=1 / 100)


@lru_cache(maxsize=4)
def _noise_field(height: int, width: int) -> np.ndarray:
    """A fixed field of N(0, NOISE_SCALE^2) int8 noise, 32 pixels larger than the frame."""
    rng = np.random.default_rng(97)
    field = rng.standard_normal((height + 32, width + 32, 3), np.float32) * NOISE_SCALE
    field = np.clip(np.round(field), -127, 127).astype(np.int8)
    field.flags.writeable = False
    return field


def _sense(image: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    """Blur, noise (a seeded window of a fixed noise field) and JPEG compression."""
    if sensor.blur > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), sensor.blur)
    if sensor.noise > 0:
        height, width = image.shape[:2]
        dy, dx = (int(v) for v in rng.integers(0, 32, 2))
        flip = rng.integers(2) == 1
        noise = _noise_field(height, width)[dy : dy + height, dx : dx + width]
        weight = (-1 if flip else 1) * sensor.noise / NOISE_SCALE
        image = cv2.addWeighted(image, 1.0, noise, weight, 0.0, dtype=cv2.CV_8U)
    if sensor.jpeg is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, sensor.jpeg])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image
    return image


def arrange_parts(
    layouts: Sequence[PartLayout], rng: np.random.Generator, max_turn: float = 8.0
) -> tuple[tuple[tuple[PartLayout, PartPose], ...], tuple[float, float]]:
    """Lay the parts out: the largest in the middle, the others in a column on each side.

    Parts on the left face the left, on the right the right (turned 180
    degrees), each turned a little more (up to ``max_turn`` degrees) and
    nudged. Returns the poses and the table size that holds them.
    """
    if not layouts:
        raise ValueError("no parts to lay on the table")
    order = sorted(range(len(layouts)), key=lambda i: -layouts[i].width * layouts[i].height)
    centre, others = layouts[order[0]], [layouts[i] for i in order[1:]]
    turns = {layout.name: float(rng.uniform(-max_turn, max_turn)) for layout in layouts}
    turns[centre.name] += 90.0 * int(rng.integers(4))
    columns: list[list[PartLayout]] = [others[0::2], others[1::2]]
    spans = {layout.name: _footprint(layout, turns[layout.name]) for layout in layouts}
    widths = [max((spans[p.name][0] for p in column), default=0.0) for column in columns]
    heights = [sum(spans[p.name][1] + PART_GAP_MM for p in column) for column in columns]
    table_h = max(spans[centre.name][1] + 2 * PART_GAP_MM, *(h + PART_GAP_MM for h in heights))
    centre_w = spans[centre.name][0]
    table_w = centre_w + sum(w + PART_GAP_MM for w in widths if w) + 2 * PART_GAP_MM
    left_w = widths[0] + PART_GAP_MM if widths[0] else 0.0
    poses = {
        centre.name: PartPose(PART_GAP_MM + left_w + centre_w / 2, table_h / 2, turns[centre.name])
    }
    for side, column in enumerate(columns):
        x = PART_GAP_MM + widths[0] / 2 if side == 0 else table_w - PART_GAP_MM - widths[1] / 2
        y = (table_h - heights[side] + PART_GAP_MM) / 2
        for layout in column:
            nudge = rng.uniform(-0.3, 0.3, 2) * PART_GAP_MM
            turn = turns[layout.name] + 180.0 * side
            span_h = spans[layout.name][1]
            poses[layout.name] = PartPose(x + nudge[0], y + span_h / 2 + nudge[1], turn)
            y += span_h + PART_GAP_MM
    return tuple((layout, poses[layout.name]) for layout in layouts), (table_w, table_h)


def _exposed(lighting: Lighting, brightest: float) -> Lighting:
    """The lighting, dimmed if needed so the brightest surface stays below 8-bit white.

    A camera's exposure does not let the brightest thing on the table burn out
    (clipped colour says nothing about paint), so neither does the synthetic one.
    """
    peak = (1 + lighting.gradient) * max(lighting.cast) * brightest
    return replace(lighting, brightness=min(lighting.brightness, 250 / peak))


def _footprint(layout: PartLayout, angle_deg: float) -> tuple[float, float]:
    """Width and height (mm) of the box around the part turned by ``angle_deg``."""
    angle = math.radians(angle_deg)
    cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
    return (layout.width * cos + layout.height * sin, layout.width * sin + layout.height * cos)


def random_camera(
    rng: np.random.Generator, max_tilt: float, brightest: float
) -> tuple[Camera, Lighting, Sensor]:
    """A camera over a table (tilted at most ``max_tilt``), its light and its sensor.

    The light is dimmed where it would burn out a surface ``brightest`` (0-255) bright.
    """
    camera = Camera(
        tilt_deg=float(rng.uniform(0, max_tilt)),
        azimuth_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-4, 4) + 180 * int(rng.integers(2))),
        fill=float(rng.uniform(0.86, 0.96)),
        shift=(float(rng.uniform(-0.02, 0.02)), float(rng.uniform(-0.02, 0.02))),
    )
    lighting = _exposed(
        Lighting(
            brightness=float(rng.uniform(0.65, 1.1)),
            gradient=float(rng.uniform(0, 0.35)),
            gradient_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0, 0.25)),
            cast=tuple(float(g) for g in rng.uniform(0.85, 1.15, 3)),
        ),
        brightest,
    )
    sensor = Sensor(
        noise=float(rng.uniform(0, 5)),
        blur=float(rng.uniform(0, 1.0)),
        jpeg=int(rng.integers(55, 96)) if rng.random() < 0.7 else None,
    )
    return camera, lighting, sensor


def random_table_scene(
    rng: np.random.Generator,
    layouts: Sequence[PartLayout],
    contents: Mapping[str, Mapping[str, str]],
    size: tuple[int, int] = (1280, 720),
    *,
    max_tilt: float = 15.0,
    font: Font = TRAINING_FONTS[0],
    look: PartsLook = REFERENCE,
) -> TableScene:
    """A scene of the parts laid out by :func:`arrange_parts` under a random camera, light, sensor.

    The ranges are :func:`vision.peg_disk.renderer.random_scene`'s, with the camera
    tilted at most ``max_tilt`` degrees and turned a few degrees (or upside
    down): it frames a table, not a disk; the light is dimmed where it would
    burn out the brightest tile. ``size`` is accepted for symmetry
    with the Kogworks scenes; the frame size is given to :func:`render_table`.
    """
    del size
    parts, table_size = arrange_parts(layouts, rng)
    camera, lighting, sensor = random_camera(rng, max_tilt, max(*look.tiles.face, *PAPER_BGR))
    seed = int(rng.integers(2**31))
    return TableScene(parts, contents, table_size, camera, lighting, sensor, (), font, look, seed)
