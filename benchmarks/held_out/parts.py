"""Held-out frames of the C.O.G. board and player mats with letter tiles, drawn apart from readers.

One frame holds the whole table: the C.O.G. board (400 x 400 mm) with its
cogs, dice, pawns and letter tiles, and 2-4 player mats (265 x 185 mm) round
it, each turned to face its player, with words laid on their grids, reserves
and star tokens. The parts are printed as ``cogtable`` prints them
(``vision.part_sheet.draw_part`` of the edition's ``[layout]``, each part with
its own DICT_4X4_50 markers: board 10-13, mats 20-35). What lies on every
place comes from a view in the game's place labels
(``cogtable.tables.cog.parts.laid_out``: ``""``, a letter, ``"wild"``,
``"star"``, a cog colour, a die face, pawn colours joined by ``+``), given or
made up by :func:`random_view`.

Tiles (letters, wilds) are 4.5 mm thick squares. Letters are printed in the
RESERVED typefaces only (Liberation, URW base35 / Nimbus, TeX Gyre, GNU
FreeFont: ``apt-get install -y fonts-liberation fonts-urw-base35
fonts-texgyre fonts-freefont-ttf``), one typeface per tile set, most sets with
the letter's point value in the bottom-right corner. These typefaces are kept
for held-out measurement: never train, tune or choose thresholds on them.

Seeds: only seeds >= 9_000_000 are drawn; readers never tune on these frames
or seeds. A seed fixes the scene; ``frame_index`` fixes only the sensor noise.

Conditions (:class:`Condition`; combine several by passing a set):

- ``plain``: cream tiles, tiles within 3 degrees and 1 mm of their place,
  camera within 6 degrees of straight down, mild noise, JPEG 85-95;
- ``tilted``: the camera 10-20 degrees from straight down;
- ``faces``: other tile faces: wood with grain (letters burnt in), ivory,
  white, black or coloured plastic;
- ``wild``: many face-down (wild) tiles; backs of any colour (always: the
  back colour is the seed's);
- ``glare``: a lamp's reflection over the parts, clipping more than 3% of
  the paper;
- ``warm`` / ``cool``: a warm (tungsten) or cool (daylight) colour cast the
  camera does not correct;
- ``jpeg``: heavy JPEG (quality 35-65) and a noisier sensor;
- ``turned``: tiles turned up to 20 degrees and off their place by 2 mm;
- ``raised``: tiles standing 2.5-8 mm above the paper (on a raised grid).

Truth (:class:`PartsTruth`): per part its homography (part millimetres to
image pixels, at the paper) and every read place's label (``labels()`` gives
``{part: {place: label}}``, the form of ``laid_out``), and per tile
(:class:`TileSeen`) its face, typeface, point value, turn, height, image
corners of its top face and the share of those pixels clipped.

>>> from benchmarks.held_out.parts import render_still
>>> frame, truth = render_still("plain", 9_000_000, 0, (1280, 720))
>>> frame.shape, truth.labels()["board"]["centre1"] != None
((720, 1280, 3), True)
"""

from __future__ import annotations

import functools
import glob
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

import cv2
import numpy as np

from benchmarks.held_out import textures
from benchmarks.held_out.optics import (
    Box,
    Camera,
    Lamp,
    Sensor,
    blend,
    check_seed,
    check_size,
    circle,
    expose,
    lens,
    look_down,
    plane_field,
    polygon_alpha,
    rng_for,
    vignette,
)
from cogtable.tables.cog.parts import part_layouts
from games.cog.edition import load_edition
from vision.layout import EMPTY, LETTERS, STAR, WILD, PartLayout, Place
from vision.part_sheet import draw_part, sheet_matrix

FONT_GLOBS = (
    "/usr/share/fonts/truetype/liberation/Liberation*.ttf",
    "/usr/share/fonts/opentype/urw-base35/*.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre*.otf",
    "/usr/share/fonts/truetype/freefont/Free*.ttf",
)
"""The reserved typefaces (held-out only)."""
NOT_LETTERS = (
    "italic",
    "ita.",
    "oblique",
    "z003",
    "chorus",
    "cursor",
    "symbol",
    "d050000",
    "math",
    "bdita",
)
INSTALL = "apt-get install -y fonts-liberation fonts-urw-base35 fonts-texgyre fonts-freefont-ttf"
TILE_MM = 4.5
"""A tile's thickness."""
POINTS = dict(
    zip(
        LETTERS,
        (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10),
        strict=True,
    )
)
"""The point value printed in a tile's corner (the usual word-game values)."""
PIECE_BGR = {
    "red": (0.04, 0.04, 0.55),
    "blue": (0.50, 0.14, 0.03),
    "green": (0.05, 0.35, 0.06),
    "yellow": (0.03, 0.55, 0.75),
    "black": (0.03, 0.03, 0.03),
    "aqua": (0.55, 0.50, 0.05),
}
BACKS = (
    (0.30, 0.30, 0.02),
    (0.05, 0.05, 0.45),
    (0.30, 0.08, 0.02),
    (0.03, 0.03, 0.03),
    (0.06, 0.25, 0.05),
    (0.30, 0.05, 0.25),
    (0.02, 0.20, 0.60),
    (0.45, 0.45, 0.45),
)
"""Face-down tile backs: teal, red, navy, black, green, purple, orange, grey."""
WORDS = (
    "COG",
    "GEAR",
    "WHEEL",
    "TIME",
    "CLOCK",
    "STAR",
    "QUIZ",
    "JAZZ",
    "BOX",
    "FLY",
    "MOVE",
    "WORD",
    "LETTER",
    "MAGIC",
    "ZEBRA",
    "JUMP",
    "QUEEN",
    "KING",
    "VIEW",
    "EXPO",
    "HYMN",
    "GLYPH",
    "PUZZLE",
    "WAX",
    "JOKE",
    "OXEN",
    "DWARF",
    "SPHINX",
    "VEX",
    "QUARTZ",
    "BLOCK",
    "MIXER",
    "FJORD",
    "NYMPH",
    "GAUZE",
    "WHISK",
    "VODKA",
    "JUICY",
    "EQUIP",
    "KNIGHT",
)


class Condition(StrEnum):
    """What a parts frame is drawn under (see the module docstring)."""

    PLAIN = "plain"
    TILTED = "tilted"
    FACES = "faces"
    WILD = "wild"
    GLARE = "glare"
    WARM = "warm"
    COOL = "cool"
    JPEG = "jpeg"
    TURNED = "turned"
    RAISED = "raised"


Conditions = Condition | str | Iterable[Condition | str]
View = Mapping[str, Mapping[str, str]]
"""Part name -> place name -> label (the game's reader labels)."""


def parse_conditions(conditions: Conditions) -> frozenset[Condition]:
    """The conditions as a set; ValueError names an unknown one."""
    items = [conditions] if isinstance(conditions, str | Condition) else list(conditions)
    try:
        return frozenset(Condition(str(c)) for c in items)
    except ValueError as error:
        known = ", ".join(c.value for c in Condition)
        raise ValueError(f"unknown condition in {items!r}; known: {known}") from error


@functools.cache
def installed_reserved_fonts() -> tuple[str, ...]:
    """The reserved upright typefaces installed here (maybe none)."""
    return tuple(
        sorted(
            path
            for pattern in FONT_GLOBS
            for path in glob.glob(pattern)
            if not any(word in Path(path).name.lower() for word in NOT_LETTERS)
        )
    )


def reserved_fonts() -> tuple[str, ...]:
    """The reserved upright typefaces installed here (FileNotFoundError says how to install)."""
    found = installed_reserved_fonts()
    if not found:
        raise FileNotFoundError(f"no reserved typefaces installed; run: {INSTALL}")
    return tuple(found)


# -- what lies where -------------------------------------------------------------------


@functools.cache
def _edition():
    return load_edition(None)


def layouts(players: int) -> tuple[PartLayout, ...]:
    """The board and ``players`` mats as printed (the built-in edition's layout)."""
    return part_layouts(_edition(), players)


def random_view(seed: int, players: int, wild_share: float = 0.08) -> dict[str, dict[str, str]]:
    """A table in play: words on the mats' grids, reserves, stars, and the board's pieces."""
    rng = rng_for(seed, 30)
    parts = layouts(players)
    view: dict[str, dict[str, str]] = {}
    colours = ("red", "blue", "green", "yellow")[:players]

    def letter() -> str:
        return WILD if rng.random() < wild_share else str(rng.choice(LETTERS))

    for part in parts:
        places = {place.name: EMPTY for place in part.read_places()}
        if part.name == "board":
            for name in places:
                if name.startswith(("top", "centre")) or name == "bonus4":
                    places[name] = letter() if rng.random() < 0.8 else EMPTY
                elif name.startswith("cog-"):
                    places[name] = str(rng.choice(colours)) if rng.random() < 0.6 else EMPTY
                elif name.startswith("die"):
                    places[name] = str(rng.integers(1, 7)) if rng.random() < 0.7 else EMPTY
            for colour in colours:
                space = f"track{int(rng.integers(1, 17))}"
                places[space] = "+".join(sorted([*filter(None, places[space].split("+")), colour]))
        else:
            _lay_words(places, rng, wild_share)
            for n in range(int(rng.integers(3, 13))):
                places[f"reserve{n + 1}"] = letter()
            for n in range(int(rng.integers(0, 4))):
                places[f"star{n + 1}"] = STAR
        view[part.name] = places
    return view


def _lay_words(places: dict[str, str], rng, wild_share: float) -> None:
    """Two to four words across and down an 8 x 8 grid (no clashes; a few letters wild)."""
    grid: dict[tuple[int, int], str] = {}
    for _ in range(int(rng.integers(2, 5))):
        for _attempt in range(20):
            word = str(rng.choice(WORDS))
            across = bool(rng.integers(2))
            row, col = int(rng.integers(0, 8)), int(rng.integers(0, 8))
            cells = [(row, col + k) if across else (row + k, col) for k in range(len(word))]
            if all(
                r < 8 and c < 8 and grid.get((r, c), ch) == ch
                for (r, c), ch in zip(cells, word, strict=True)
            ):
                grid.update(zip(cells, word, strict=True))
                break
    for (row, col), ch in grid.items():
        places[f"r{row + 1}c{col + 1}"] = WILD if rng.random() < wild_share else ch


# -- the scene ----------------------------------------------------------------------


@dataclass(frozen=True)
class TileSet:
    """How a set's tiles look."""

    face: str
    """"cream", "ivory", "wood", "white plastic", "black plastic" or "coloured plastic"."""
    face_bgr: tuple[float, float, float]
    ink_bgr: tuple[float, float, float]
    back_bgr: tuple[float, float, float]
    font: str
    points: bool
    side_mm: float
    star_bgr: tuple[float, float, float]
    token_bgr: tuple[float, float, float]


@dataclass(frozen=True, eq=False)
class Scene:
    """Everything a seed fixes for one parts frame."""

    conditions: frozenset[Condition]
    seed: int
    size: tuple[int, int]
    parts: tuple[PartLayout, ...]
    poses: tuple[np.ndarray, ...]
    """Per part: 3x3 map from part mm to table mm."""
    camera: Camera
    lamp: Lamp
    sensor: Sensor
    tiles: TileSet
    glare: tuple[tuple[float, float, float, float], ...]
    """Glare spots: table x, y (mm), radius (mm), peak (times white)."""


def _tile_set(conditions, rng) -> TileSet:
    fonts = reserved_fonts()
    font = fonts[int(rng.integers(len(fonts)))]
    face, face_bgr, ink = "cream", (0.62, 0.80, 0.86), (0.03, 0.03, 0.03)
    if Condition.FACES in conditions:
        face = str(
            rng.choice(["wood", "ivory", "white plastic", "black plastic", "coloured plastic"])
        )
        face_bgr, ink = {
            "wood": ((0.25, 0.42, 0.60), (0.04, 0.06, 0.10)),
            "ivory": ((0.70, 0.82, 0.85), (0.05, 0.05, 0.06)),
            "white plastic": ((0.82, 0.84, 0.85), (0.02, 0.02, 0.02)),
            "black plastic": ((0.03, 0.03, 0.03), (0.80, 0.80, 0.80)),
            "coloured plastic": (
                tuple(float(v) for v in rng.uniform(0.05, 0.6, 3)),
                (0.85, 0.85, 0.85),
            ),
        }[face]
        if face == "coloured plastic" and sum(face_bgr) > 1.2:
            ink = (0.02, 0.02, 0.02)
    back = BACKS[int(rng.integers(len(BACKS)))]
    if face == "wood" and rng.random() < 0.5:
        back = (0.15, 0.28, 0.45)
    star, token = [
        ((0.05, 0.55, 0.80), (0.75, 0.78, 0.80)),
        ((0.10, 0.75, 0.85), (0.03, 0.03, 0.35)),
        ((0.60, 0.60, 0.62), (0.40, 0.12, 0.03)),
        ((0.03, 0.35, 0.80), (0.05, 0.05, 0.05)),
    ][int(rng.integers(4))]
    return TileSet(
        face,
        face_bgr,
        ink,
        back,
        font,
        bool(rng.random() < 0.75),
        float(rng.uniform(16.0, 17.5)),
        star,
        token,
    )


SIDES = ("bottom", "top", "left", "right")
SEATING = {2: ("left", "right"), 3: ("bottom", "left", "right"), 4: SIDES}
"""Where the players (their mats) sit round the board, by the number of players."""


def _poses(parts: tuple[PartLayout, ...], rng) -> tuple[np.ndarray, ...]:
    """Board in the middle; mats below, above, left and right of it, facing their players."""
    board = parts[0]
    gap = rng.uniform(15, 40)
    poses = [_pose(0.0, 0.0, 0.0)]
    sides = SEATING[len(parts) - 1]
    for side, mat in zip(sides, parts[1:], strict=True):
        index = SIDES.index(side)
        turn = (0.0, 180.0, 90.0, -90.0)[index] + rng.uniform(-8, 8)
        cx, cy = board.width / 2, board.height / 2
        reach_y = board.height / 2 + gap + mat.height / 2
        reach_x = board.width / 2 + gap + mat.height / 2
        centre = [(cx, cy + reach_y), (cx, cy - reach_y), (cx - reach_x, cy), (cx + reach_x, cy)][
            index
        ]
        centre = (centre[0] + rng.uniform(-20, 20), centre[1] + rng.uniform(-15, 15))
        poses.append(_pose_centred(mat, centre, turn))
    return tuple(poses)


def _pose(x: float, y: float, turn_deg: float) -> np.ndarray:
    r = math.radians(turn_deg)
    return np.array([[math.cos(r), -math.sin(r), x], [math.sin(r), math.cos(r), y], [0, 0, 1]])


def _pose_centred(part: PartLayout, centre, turn_deg: float) -> np.ndarray:
    pose = _pose(0.0, 0.0, turn_deg)
    middle = pose[:2, :2] @ np.array([part.width / 2, part.height / 2])
    pose[:2, 2] = np.array(centre) - middle
    return pose


def make_scene(
    conditions: frozenset[Condition], seed: int, size: tuple[int, int], players: int
) -> Scene:
    """The scene a seed draws under these conditions."""
    rng = rng_for(seed, 31)
    parts = layouts(players)
    poses = _poses(parts, rng)
    corners = np.vstack(
        [
            _apply(pose, np.array([(0, 0), (p.width, 0), (p.width, p.height), (0, p.height)]))
            for p, pose in zip(parts, poses, strict=True)
        ]
    )
    tilt = rng.uniform(10, 20) if Condition.TILTED in conditions else rng.uniform(0, 6)
    camera = look_down(
        size,
        corners,
        fill=rng.uniform(0.88, 0.96),
        tilt_deg=tilt,
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=rng.uniform(-4, 4),
        distance_mm=rng.uniform(1100, 1600),
        rng=rng,
    )
    centre = corners.mean(axis=0)
    azimuth = rng.uniform(0, 2 * np.pi)
    height = rng.uniform(1000, 1600)
    reach = rng.uniform(0, 500)
    colour = (1.0, 1.0, 1.0)
    if Condition.WARM in conditions:
        colour = (rng.uniform(0.55, 0.7), rng.uniform(0.85, 0.92), 1.0)
    elif Condition.COOL in conditions:
        colour = (1.0, rng.uniform(0.9, 0.97), rng.uniform(0.7, 0.82))
    lamp = Lamp(
        (centre[0] + reach * np.cos(azimuth), centre[1] + reach * np.sin(azimuth), height),
        ambient=rng.uniform(0.4, 0.6),
        level=rng.uniform(0.95, 1.1),
        colour=colour,
        softness=rng.uniform(0.02, 0.05),
    )
    sensor = Sensor(
        exposure=rng.uniform(1.0, 1.15),
        full_well=rng.uniform(2000, 4000),
        read_noise=rng.uniform(0.003, 0.006),
        white=tuple(float(v) for v in rng.uniform(0.95, 1.05, 3)),
        blur=rng.uniform(0.5, 0.85),
        jpeg=int(rng.integers(85, 96)),
    )
    if Condition.JPEG in conditions:
        sensor = replace(
            sensor,
            jpeg=int(rng.integers(35, 66)),
            full_well=rng.uniform(600, 1200),
            chroma=rng.uniform(0.005, 0.015),
        )
    glare = ()
    if Condition.GLARE in conditions:
        glare = tuple(
            (
                float(centre[0] + rng.uniform(-250, 250)),
                float(centre[1] + rng.uniform(-200, 200)),
                float(rng.uniform(35, 80)),
                float(rng.uniform(1.2, 2.5)),
            )
            for _ in range(int(rng.integers(1, 3)))
        )
    return Scene(
        conditions,
        seed,
        size,
        parts,
        poses,
        camera,
        lamp,
        sensor,
        _tile_set(conditions, rng),
        glare,
    )


def _apply(pose: np.ndarray, points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return points @ pose[:2, :2].T + pose[:2, 2]


# -- the truth -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TileSeen:
    """A tile or token lying on a place."""

    part: str
    place: str
    label: str
    face: str
    """The tile set's face (wood, ivory...); "token" for a star."""
    font: str
    """The typeface file's name (a letter tile), else ""."""
    points: int | None
    """The point value printed in its corner, if the set prints one."""
    turn_deg: float
    """How far it is turned from square on its part."""
    height_mm: float
    """Height of its top face above the paper."""
    corners: np.ndarray
    """Image corners (4, 2) of its top face (a token: its bounding square)."""
    clipped_share: float
    """Share of its top face's pixels clipped (any channel at 255)."""


@dataclass(frozen=True, eq=False)
class PartSeen:
    """One printed part in the frame."""

    name: str
    to_image: np.ndarray
    """3x3 homography: part millimetres (top-left origin, as printed) to image pixels."""
    marker_ids: tuple[int, ...]
    labels: dict[str, str]
    """Every read place -> its label."""


@dataclass(frozen=True, eq=False)
class PartsTruth:
    """What a parts frame shows."""

    parts: tuple[PartSeen, ...]
    tiles: tuple[TileSeen, ...]
    tile_face: str
    back_bgr: tuple[float, float, float]
    conditions: tuple[str, ...]
    paper_clipped_share: float
    """Share of the parts' paper pixels clipped."""
    seed: int
    frame_index: int
    size: tuple[int, int]

    def labels(self) -> dict[str, dict[str, str]]:
        """``{part: {place: label}}`` as the game's view writes it."""
        return {part.name: dict(part.labels) for part in self.parts}


# -- drawing --------------------------------------------------------------------------


def _sheet(part: PartLayout, scale: float) -> np.ndarray:
    """The part's printed face in linear albedo (as ``cogtable`` prints it)."""
    srgb = draw_part(part, scale)
    return ((srgb.astype(np.float32) / 255.0) ** 2.2) * np.float32(0.92)


@functools.cache
def _font(path: str, pixels: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, pixels)


def _letter_face(label: str, tiles: TileSet, side_px: int, rng) -> np.ndarray:
    """A tile's top face (linear BGR, side x side): face, letter, point value, or a back."""
    from PIL import Image, ImageDraw

    if label == WILD:
        face = np.empty((side_px, side_px, 3), np.float32)
        face[:] = tiles.back_bgr
        face *= (1.0 + 0.04 * textures.fbm((side_px, side_px), rng, side_px / 3, 2))[:, :, None]
        return face
    if tiles.face == "wood":
        face = textures.wood(
            (side_px, side_px), rng, side_px / 17.0, tiles.face_bgr, rng.uniform(-10, 10)
        )
    else:
        face = textures.paper((side_px, side_px), rng, tiles.face_bgr)
    ink = Image.new("L", (side_px, side_px), 0)
    draw = ImageDraw.Draw(ink)
    font = _font(tiles.font, round(side_px * 0.8))
    box = draw.textbbox((0, 0), label, font=font, anchor="ls")
    width, height = box[2] - box[0], box[3] - box[1]
    shift = -0.06 * side_px if tiles.points else 0.0
    x = (side_px - width) / 2 - box[0] + shift
    y = (side_px - height) / 2 - box[1]
    draw.text((x, y), label, fill=255, font=font, anchor="ls")
    if tiles.points:
        small = _font(tiles.font, round(side_px * 0.24))
        draw.text(
            (side_px * 0.93, side_px * 0.93), str(POINTS[label]), fill=255, font=small, anchor="rs"
        )
    alpha = np.asarray(ink, dtype=np.float32) / 255.0
    if tiles.face == "wood":
        alpha = cv2.GaussianBlur(alpha, (0, 0), side_px / 120)
    blend(face, alpha, tiles.ink_bgr)
    return face


def _star_face(tiles: TileSet, side_px: int) -> np.ndarray:
    """A star token's top: its disc and a five-pointed star."""
    face = np.empty((side_px, side_px, 3), np.float32)
    face[:] = tiles.token_bgr
    centre = side_px / 2
    angles = np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, 0.44, 0.18) * side_px
    star = np.column_stack([centre + radii * np.cos(angles), centre - radii * np.sin(angles)])
    blend(face, polygon_alpha((side_px, side_px), [star - 0.5]), tiles.star_bgr)
    return face


@dataclass(frozen=True, eq=False)
class _Thing:
    """Something standing on a part: an outline (table mm), its heights, its top face."""

    outline: np.ndarray
    z0: float
    z1: float
    face: np.ndarray | None
    """The top face image (linear BGR), laid over ``face_quad``; None: a flat colour."""
    face_quad: np.ndarray | None
    """Table mm of the face image's corners (TL, TR, BR, BL)."""
    colour: tuple[float, float, float]
    tile: TileSeen | None = None


def _things(scene: Scene, view: View) -> list[_Thing]:
    """Every tile, token, cog, die and pawn on the parts."""
    rng = rng_for(scene.seed, 32)
    tiles = scene.tiles
    turned = Condition.TURNED in scene.conditions
    raised = Condition.RAISED in scene.conditions
    things = []
    for part, pose in zip(scene.parts, scene.poses, strict=True):
        labels = view.get(part.name, {})
        for place in part.read_places():
            label = labels.get(place.name, EMPTY)
            if not label:
                continue
            if place.kind == "tile":
                things.append(
                    _tile(
                        part, place, pose, label, tiles=tiles, rng=rng, turned=turned, raised=raised
                    )
                )
            elif place.kind == "cog":
                things.append(_cog(place, pose, label, rng))
            elif place.kind == "die":
                things.append(_die(place, pose, label, rng))
            elif place.kind == "pawn":
                things.extend(_pawns(place, pose, label, rng))
    return things


def _square(centre: np.ndarray, side: float, turn_deg: float) -> np.ndarray:
    r = math.radians(turn_deg)
    c, s = math.cos(r), math.sin(r)
    h = side / 2
    corners = np.array([(-h, -h), (h, -h), (h, h), (-h, h)])
    return centre + corners @ np.array([[c, s], [-s, c]])


def _tile(
    part, place: Place, pose, label: str, *, tiles: TileSet, rng, turned: bool, raised: bool
) -> _Thing:
    spread, wobble = (2.0, 20.0) if turned else (1.0, 3.0)
    turn = float(rng.uniform(-wobble, wobble))
    offset = rng.uniform(-spread, spread, 2)
    centre = np.array([place.x, place.y]) + offset
    star = label == STAR
    side = min(tiles.side_mm, 0.92 * min(place.width, place.height))
    if star:
        side = 0.8 * min(place.width, place.height)
    base = float(rng.uniform(2.5, 8.0)) if raised else 0.0
    top = base + (2.5 if star else TILE_MM)
    corners_part = _square(centre, side, turn)
    quad = _apply(pose, corners_part)
    side_px = 96
    if star:
        face = _star_face(tiles, side_px)
        outline = _apply(pose, circle(tuple(centre), side / 2, 32))
        colour = tiles.token_bgr
    else:
        face = _letter_face(label, tiles, side_px, rng)
        outline = quad
        colour = tiles.back_bgr if label == WILD else tiles.face_bgr
    seen = TileSeen(
        part=part.name,
        place=place.name,
        label=label,
        face="token" if star else tiles.face,
        font=Path(tiles.font).name if label in LETTERS else "",
        points=POINTS[label] if tiles.points and label in LETTERS else None,
        turn_deg=turn,
        height_mm=top,
        corners=np.zeros((4, 2)),
        clipped_share=0.0,
    )
    return _Thing(outline, base, top, face, quad, colour, seen)


def _cog(place: Place, pose, label: str, rng) -> _Thing:
    centre = np.array([place.x, place.y]) + rng.uniform(-1, 1, 2)
    radius = 0.45 * min(place.width, place.height)
    teeth = []
    turn = rng.uniform(0, 2 * np.pi)
    for k in range(10):
        a = turn + k * 2 * np.pi / 10
        for offset, r in ((-0.3, 0.82), (-0.15, 1.0), (0.15, 1.0), (0.3, 0.82)):
            angle = a + offset * 2 * np.pi / 10
            teeth.append(centre + radius * r * np.array([np.cos(angle), np.sin(angle)]))
    return _Thing(_apply(pose, np.array(teeth)), 0.0, 6.0, None, None, PIECE_BGR[label])


def _die(place: Place, pose, label: str, rng) -> _Thing:
    side = 0.8 * min(place.width, place.height)
    centre = np.array([place.x, place.y]) + rng.uniform(-1, 1, 2)
    turn = float(rng.uniform(-10, 10))
    body = PIECE_BGR.get(place.colour, (0.5, 0.5, 0.5))
    pip = (0.85, 0.85, 0.85) if sum(body) < 1.0 else (0.03, 0.03, 0.03)
    size = 96
    face = np.empty((size, size, 3), np.float32)
    face[:] = body
    spots = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[int(label)]
    for dx, dy in spots:
        disc = circle((size / 2 + dx * size * 0.27, size / 2 + dy * size * 0.27), size * 0.09)
        blend(face, polygon_alpha((size, size), [disc - 0.5]), pip)
    quad = _apply(pose, _square(centre, side, turn))
    return _Thing(quad, 0.0, side, face, quad, body)


def _pawns(place: Place, pose, label: str, rng) -> list[_Thing]:
    colours = [c for c in label.split("+") if c]
    things = []
    for k, colour in enumerate(colours):
        angle = 2 * np.pi * k / max(1, len(colours)) + rng.uniform(-0.3, 0.3)
        reach = 7.0 if len(colours) > 1 else 0.0
        centre = np.array([place.x, place.y]) + reach * np.array([np.cos(angle), np.sin(angle)])
        outline = _apply(pose, circle(tuple(centre), 5.5, 24))
        things.append(_Thing(outline, 0.0, 16.0, None, None, PIECE_BGR[colour]))
    return things


def _draw_thing(image: np.ndarray, scene: Scene, thing: _Thing, light: np.ndarray) -> None:
    """Sides (one outline per height step), then the top face (its image or flat colour)."""
    camera = scene.camera
    low = camera.project(thing.outline, thing.z0)
    high = camera.project(thing.outline, thing.z1)
    box = Box.around(np.vstack([low, high]), image.shape, 2.0)
    if box.empty:
        return
    shift = float(np.abs(high - low).max())
    levels = np.linspace(thing.z0, thing.z1, max(2, math.ceil(shift / 0.6) + 1))
    sides = polygon_alpha(
        box.shape, [camera.project(thing.outline, z) - box.origin for z in levels[:-1]]
    )
    top = polygon_alpha(box.shape, [high - box.origin])
    centre = high.mean(axis=0)
    cy = int(np.clip(centre[1], 0, image.shape[0] - 1))
    cx = int(np.clip(centre[0], 0, image.shape[1] - 1))
    lit = float(light[cy, cx]) * np.array(scene.lamp.colour, np.float32)
    region = image[box.slices]
    colour = np.array(thing.colour, np.float32)
    blend(region, sides, colour * lit * 0.55)
    if thing.face is None:
        blend(region, top, colour * lit)
        return
    size = thing.face.shape[0]
    source = np.array([(0, 0), (size, 0), (size, size), (0, size)], np.float32) - 0.5
    target = (camera.project(thing.face_quad, thing.z1) - box.origin).astype(np.float32)
    warp = cv2.getPerspectiveTransform(source, target)
    shrink = size / max(1.0, float(np.linalg.norm(target[1] - target[0])))
    smooth = cv2.GaussianBlur(thing.face, (0, 0), max(0.3, 0.45 * shrink))
    face = cv2.warpPerspective(
        smooth,
        warp,
        (box.shape[1], box.shape[0]),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    blend(region, top, face * lit)
    edge = np.zeros(box.shape, np.uint8)
    cv2.polylines(
        edge, [np.rint((high - box.origin) * 16).astype(np.int32)], True, 255, 1, cv2.LINE_AA, 4
    )
    blend(region, edge.astype(np.float32) / 255.0 * 0.5, colour * lit * 1.15)


def _shadows(scene: Scene, things: list[_Thing]) -> np.ndarray:
    """Light left on the paper after the pieces' shadows."""
    camera, lamp = scene.camera, scene.lamp
    width, height = scene.size
    cast = np.zeros((height, width), np.uint8)
    for thing in things:
        shift = lamp.shadow_shift(thing.z1, tuple(thing.outline.mean(axis=0)))
        hull = cv2.convexHull(np.vstack([thing.outline, thing.outline + shift]).astype(np.float32))
        pixels = camera.project(hull.reshape(-1, 2))
        cv2.fillPoly(cast, [np.rint(pixels * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    scale = camera.pixels_per_mm(tuple(things[0].outline.mean(axis=0))) if things else 1.0
    soft = cv2.GaussianBlur(cast.astype(np.float32) / 255.0, (0, 0), max(0.8, 1.5 * scale))
    return 1.0 - 0.85 * (1.0 - lamp.ambient) * soft


def _draw(scene: Scene, view: View) -> tuple[np.ndarray, np.ndarray, list[_Thing]]:
    """The scene in linear light (lens blur applied), the parts' paper mask, the pieces."""
    camera = scene.camera
    width, height = scene.size
    rng = rng_for(scene.seed, 33)
    scale_px = camera.pixels_per_mm(tuple(_apply(scene.poses[0], np.array([(200, 200)]))[0]))
    table = textures.table_top((height, width), rng, scale_px)
    albedo = table
    paper = np.zeros((height, width), np.float32)
    sheet_scale = float(np.clip(scale_px * 1.5, 1.0, 6.0))
    for part, pose in zip(scene.parts, scene.poses, strict=True):
        sheet = _sheet(part, sheet_scale)
        warp = camera.homography(0.0) @ pose @ np.linalg.inv(sheet_matrix(sheet_scale))
        face = cv2.warpPerspective(sheet, warp, (width, height), flags=cv2.INTER_LINEAR)
        cover = cv2.warpPerspective(np.ones(sheet.shape[:2], np.float32), warp, (width, height))
        contact = cv2.GaussianBlur(cover, (0, 0), max(1.0, 3 * scale_px))
        albedo = albedo * (1.0 - 0.35 * contact * (1 - cover))[:, :, None]
        albedo = albedo * (1 - cover[:, :, None]) + face * cover[:, :, None]
        paper = np.maximum(paper, cover)
    things = _things(scene, view)
    light = plane_field(camera, scene.lamp.irradiance) * vignette(scene.size, 0.2)
    colour = np.array(scene.lamp.colour, np.float32)
    image = albedo * (light * _shadows(scene, things))[:, :, None] * colour
    if scene.glare:
        xs = np.arange(width, dtype=np.float32)[None, :]
        ys = np.arange(height, dtype=np.float32)[:, None]
        for x, y, radius, peak in scene.glare:
            centre = camera.project(np.array([(x, y)]))[0]
            r_px = radius * camera.pixels_per_mm((x, y))
            d2 = ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / r_px**2
            image += (peak * np.exp(-d2 / 2) * scene.lamp.level)[:, :, None] * colour
    for thing in sorted(things, key=lambda t: -camera.depth(t.outline.mean(axis=0)[None], t.z1)[0]):
        _draw_thing(image, scene, thing, light)
    return lens(image.astype(np.float32), scene.sensor), paper, things


def render_still(
    condition: Conditions,
    seed: int,
    frame_index: int,
    size: tuple[int, int],
    *,
    players: int | None = None,
    view: View | None = None,
) -> tuple[np.ndarray, PartsTruth]:
    """One frame (BGR uint8) of the board and mats, and its truth.

    ``players`` (2-4; the seed's choice when None) sets the mats; ``view``
    (``{part: {place: label}}``, e.g. ``laid_out(state, layout)``) says what
    lies where (:func:`random_view` of the seed when None). Frames of one
    scene differ only in their noise.
    """
    check_seed(seed)
    conditions = parse_conditions(condition)
    size = check_size(size)
    players = players or int(rng_for(seed, 34).integers(2, 5))
    if view is None:
        view = random_view(seed, players, 0.35 if Condition.WILD in conditions else 0.06)
    scene = make_scene(conditions, seed, size, players)
    key = (conditions, seed, size, players, _freeze(view))
    if key not in _CACHE:
        if len(_CACHE) >= 3:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = _draw(scene, view)
    image, paper, things = _CACHE[key]
    frame = expose(image, scene.sensor, rng_for(seed, 35, frame_index))
    return frame, _truth(scene, view, frame, paper=paper, things=things, frame_index=frame_index)


_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray, list[_Thing]]] = {}


def _freeze(view: View) -> tuple:
    return tuple(sorted((part, tuple(sorted(places.items()))) for part, places in view.items()))


def _truth(
    scene: Scene,
    view: View,
    frame: np.ndarray,
    *,
    paper: np.ndarray,
    things: list[_Thing],
    frame_index: int,
) -> PartsTruth:
    camera = scene.camera
    clipped = (frame.max(axis=2) >= 254).astype(np.float32)
    parts = tuple(
        PartSeen(
            name=part.name,
            to_image=camera.homography(0.0) @ pose,
            marker_ids=part.marker_ids(),
            labels={
                place.name: view.get(part.name, {}).get(place.name, EMPTY)
                for place in part.read_places()
            },
        )
        for part, pose in zip(scene.parts, scene.poses, strict=True)
    )
    tiles = []
    for thing in things:
        if thing.tile is None:
            continue
        corners = camera.project(thing.face_quad, thing.z1)
        box = Box.around(corners, clipped.shape, 0.0)
        share = 0.0
        if not box.empty:
            inside = polygon_alpha(box.shape, [corners - box.origin])
            share = float((inside * clipped[box.slices]).sum() / max(1e-6, inside.sum()))
        tiles.append(replace(thing.tile, corners=corners, clipped_share=round(share, 4)))
    on_paper = paper > 0.99
    for thing in things:
        pixels = camera.project(thing.outline, 0.0)
        box = Box.around(pixels, paper.shape, 2.0)
        if not box.empty:
            on_paper[box.slices] &= polygon_alpha(box.shape, [pixels - box.origin]) < 0.01
    paper_clipped = float(clipped[on_paper].mean()) if on_paper.any() else 0.0
    return PartsTruth(
        parts=parts,
        tiles=tuple(tiles),
        tile_face=scene.tiles.face,
        back_bgr=scene.tiles.back_bgr,
        conditions=tuple(sorted(c.value for c in scene.conditions)),
        paper_clipped_share=round(paper_clipped, 4),
        seed=scene.seed,
        frame_index=frame_index,
        size=scene.size,
    )


__all__ = [
    "Condition",
    "PartSeen",
    "PartsTruth",
    "TileSeen",
    "layouts",
    "random_view",
    "render_still",
    "reserved_fonts",
]
