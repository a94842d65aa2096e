"""The synthetic camera for a table of printed parts: a C.O.G. board, player mats, their pieces.

Seeded and deterministic, like :mod:`vision.peg_disk.renderer` (whose camera, lighting
and sensor it reuses): every part is drawn by :func:`vision.part_sheet.draw_part`
and laid on a wooden table at its :class:`PartPose`; tiles (drawn by
:func:`vision.parts.tiles.draw_tile`), cogs, dice and pawns lie on its places with a
drop shadow (:mod:`vision.parts.sprites`); the whole table is one texture, warped once into
the picture; hands with their shadows, light gradients and casts, blur, noise and JPEG follow
(:mod:`vision.parts.photo`). A piece's small rotation and offset within its place come from
the scene's jitter seed, the part, the place and the label, so a piece keeps its spot from
frame to frame until it is moved. The composed table is cached (and mended where only the
contents changed), so a mock table that renders every frame pays mostly for the warp and the
sensor. Random scenes of parts are :mod:`vision.parts.table_scenes`'s.

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
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.layout import DIE_LABELS, EMPTY, STAR, TILE_LABELS, PartLayout, Place, pawn_colours
from vision.markers import project
from vision.part_sheet import draw_part, sheet_matrix
from vision.parts.look import REFERENCE, PartsLook
from vision.parts.photo import draw_hand, light, sense, table_in_view
from vision.parts.sprites import Stamp, die_sprite, gear_sprite, pawn_sprite, stamp_on
from vision.parts.tiles import TRAINING_FONTS, Font, draw_tile
from vision.peg_disk.renderer import (
    TABLE_BGR,
    Camera,
    Hand,
    Lighting,
    Sensor,
    _pinhole,
    _pixels_per_mm,
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
TEXTURE_OVERSAMPLE = 2.0
"""Texture pixels per image pixel at the table centre: the warp only ever shrinks."""


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
        image = table_in_view(texture, homography, scale, size)
        for hand in scene.hands:
            image = draw_hand(image, hand, homography, rng)
        image = light(image, scene.lighting)
        return sense(image, scene.sensor, rng)

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
                    stamp_on(texture, stamp)
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


@dataclass
class _Composition:
    """A composed table: the labels it shows (part, place) -> label, their stamps, the texture."""

    labels: dict[tuple[str, str], str]
    stamps: dict[tuple[str, str], list[Stamp]]
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
                        stamp_on(texture, stamp, window)
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
        stamps.append(Stamp(sprite, (float(centre[0]), float(centre[1])), pose.angle_deg + turn))
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
        sprite = gear_sprite(_px(COG_RATIO * side, scale), bgr, int(rng.integers(6)))
        return [(sprite, tuple(rng.uniform(-0.6, 0.6, 2)), rng.uniform(0, 30))]
    if place.kind == "die":
        colours = scene.look.die(place.colour or "black")
        pips = (scene.look.pip_offset, scene.look.pip_radius)
        sprite = die_sprite(_px(DIE_RATIO * side, scale), int(label), colours, pips)
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
        (pawn_sprite(diameter, look.piece(colour)), tuple(spot), 0.0)
        for colour, spot in zip(colours, spots, strict=False)
    ]


def _px(mm: float, scale: float) -> int:
    return max(4, round(mm * scale))
