"""Training crops for the letter model: tiles of many typefaces and looks, cut as the reader cuts.

A sample is a small neighbourhood of a mat (the place and its eight neighbours)
drawn at three times the crop's scale: a printed mat (any paper colour, grid
lines), tiles on some neighbours, and on the place itself a letter tile, or
something that is not a letter (an empty place, a face-down tile of any back
colour, a star token, a blank face, a finger, the edge of a tile on the next
place). Tiles have any face (cream, ivory, white or coloured plastic, wood grain),
printed or engraved letters of a typeface from the corpus (:mod:`training.letters.fonts`)
or an OpenCV Hershey face, a point value in a corner or none, any weight, and
lie turned up to :data:`MAX_TURN_DEG` and off-centre within their place.

The neighbourhood is then seen by a camera: shrunk to a random camera resolution
through a slightly wrong homography (the reader's marker fit is never exact),
lit unevenly with glare that clips, shadowed, blurred, noised and JPEG-coded;
and the crop is cut from that camera image by :func:`vision.parts.letter_crops.cut_crop`,
the parts reader's own cut.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.layout import LETTERS
from vision.parts.letter_crops import CELL_SIDE, CROP_SIDE, cut_crop
from vision.parts.letter_model import NOT_A_LETTER

from .fonts import refuse_reserved

SUPER = 2
"""The neighbourhood is drawn this many times the crop's scale."""
CELL = CELL_SIDE * SUPER
"""A place's cell in the drawing (px)."""
SPAN = 3
"""The drawing spans this many cells square, the place in its middle."""
SIDE = SPAN * CELL
MAX_TURN_DEG = 22.0
"""Tiles lie turned up to this much (the mat's tolerance is 20 degrees)."""
HERSHEY_FACES = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
)
"""OpenCV's faces trained on (the ones :data:`vision.parts.tiles.TRAINING_FONTS` uses; the
script, triplex and complex faces stay unseen for the benchmarks' held-out fonts)."""


@dataclass(frozen=True)
class Typeface:
    """A glyph source: a font file, or an OpenCV Hershey face (``path`` None)."""

    path: Path | None = None
    hershey: int = cv2.FONT_HERSHEY_SIMPLEX

    def __post_init__(self) -> None:
        """Refuse a reserved typeface by name."""
        if self.path is not None:
            refuse_reserved(self.path)

    @property
    def name(self) -> str:
        return self.path.stem if self.path is not None else f"hershey-{self.hershey}"


def hershey_typefaces() -> tuple[Typeface, ...]:
    return tuple(Typeface(None, face) for face in HERSHEY_FACES)


@lru_cache(maxsize=8192)
def glyph(typeface: Typeface, text: str) -> np.ndarray:
    """The ink of ``text`` drawn large (uint8, cropped to the ink; read-only)."""
    canvas = np.zeros((360, 520), np.uint8)
    if typeface.path is None:
        scale = 5.0 if typeface.hershey != cv2.FONT_HERSHEY_PLAIN else 10.0
        thick = 9 if typeface.hershey != cv2.FONT_HERSHEY_PLAIN else 12
        cv2.putText(canvas, text, (20, 260), typeface.hershey, scale, 255, thick, cv2.LINE_AA)
    else:
        face = _font_face(str(typeface.path))
        cv2.putText(canvas, text, (20, 260), 255, face, 200)
    rows = np.flatnonzero(canvas.max(axis=1) > 40)
    cols = np.flatnonzero(canvas.max(axis=0) > 40)
    if len(rows) == 0:
        raise ValueError(f"{typeface.name} draws nothing for {text!r}")
    out = np.ascontiguousarray(canvas[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1])
    out.flags.writeable = False
    return out


@lru_cache(maxsize=1024)
def _font_face(path: str) -> cv2.FontFace:
    return cv2.FontFace(path)


# ---------------------------------------------------------------- colours and looks


def _bgr_of_hsv(h: float, s: float, v: float) -> np.ndarray:
    pixel = np.uint8([[[round(h) % 180, round(s), round(v)]]])
    return cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _luma(bgr: np.ndarray) -> float:
    return float(0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2])


def _face_colour(rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """A tile face colour and its kind: cream/ivory, white, wood, coloured plastic, dark."""
    draw = rng.random()
    if draw < 0.35:
        return _bgr_of_hsv(rng.uniform(12, 30), rng.uniform(15, 80), rng.uniform(200, 250)), "cream"
    if draw < 0.45:
        return np.full(3, rng.uniform(215, 252), np.float32), "white"
    if draw < 0.68:
        return _bgr_of_hsv(rng.uniform(8, 22), rng.uniform(70, 170), rng.uniform(120, 230)), "wood"
    if draw < 0.9:
        plastic = _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(40, 255), rng.uniform(90, 250))
        return plastic, "plastic"
    return _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(15, 90)), "dark"


def _ink_colour(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ink that a person can read on ``face``: dark on light faces, light on dark ones."""
    if _luma(face) > 115:
        if rng.random() < 0.7:
            return np.full(3, rng.uniform(5, 60), np.float32)
        colour = _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(20, 110))
        return colour
    if rng.random() < 0.7:
        return np.full(3, rng.uniform(200, 250), np.float32)
    return _bgr_of_hsv(rng.uniform(15, 35), rng.uniform(60, 200), rng.uniform(180, 250))


def _wood_texture(side: int, colour: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Wood grain: streaks along a direction, bent by low-frequency noise (float32 BGR)."""
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32) / side
    angle = rng.uniform(0, math.pi)
    along = xs * math.cos(angle) + ys * math.sin(angle)
    across = -xs * math.sin(angle) + ys * math.cos(angle)
    bend = cv2.resize(rng.standard_normal((4, 4)).astype(np.float32), (side, side))
    rings = np.sin((across + 0.08 * bend + 0.02 * along) * rng.uniform(18, 60) * math.pi)
    fine = cv2.GaussianBlur(rng.standard_normal((side, side)).astype(np.float32), (0, 3), 2)
    shade = 1.0 + rng.uniform(0.04, 0.14) * rings + 0.03 * fine
    return colour[None, None, :] * shade[..., None]


def _rounded_mask(side: int, radius_share: float) -> np.ndarray:
    mask = np.zeros((side, side), np.uint8)
    radius = max(1, round(radius_share * side))
    last = side - 1
    cv2.rectangle(mask, (radius, 0), (last - radius, last), 255, -1)
    cv2.rectangle(mask, (0, radius), (last, last - radius), 255, -1)
    for x in (radius, last - radius):
        for y in (radius, last - radius):
            cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
    return mask


@dataclass(frozen=True)
class TileSet:
    """One tile set's look, shared by the place and its neighbours in a sample."""

    face: np.ndarray
    kind: str
    ink: np.ndarray
    back: np.ndarray
    engraved: bool
    points: bool
    corner: float
    letter_height: float
    weight: float
    """Stroke growth (share of the letter height; negative thins)."""
    typeface: Typeface
    side: float
    """Tile side as a share of the cell."""


def random_tile_set(typefaces: Sequence[Typeface], rng: np.random.Generator) -> TileSet:
    face, kind = _face_colour(rng)
    ink = _ink_colour(face, rng)
    engraved = rng.random() < 0.15
    if engraved:
        ink = face * rng.uniform(0.35, 0.65) if _luma(face) > 90 else np.minimum(face * 2.2, 255)
    back = _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(30, 240))
    return TileSet(
        face=face,
        kind=kind,
        ink=ink.astype(np.float32),
        back=back,
        engraved=engraved,
        points=rng.random() < 0.45,
        corner=rng.uniform(0.04, 0.2),
        letter_height=rng.uniform(0.42, 0.68),
        weight=rng.uniform(-0.015, 0.06) if rng.random() < 0.6 else 0.0,
        typeface=typefaces[rng.integers(len(typefaces))],
        side=rng.uniform(0.78, 0.96),
    )


# ---------------------------------------------------------------- sprites


@lru_cache(maxsize=4096)
def _weighted_glyph(typeface: Typeface, letter: str, growth: int) -> np.ndarray:
    """The glyph with every stroke side grown by ``growth`` px (negative thins, unless that
    would wear most of a hairline face away)."""
    original = np.asarray(glyph(typeface, letter))
    grown = _weighted(original, growth)
    if growth < 0 and grown.sum() < 0.5 * original.sum():
        return original
    return grown


def _weighted(mask: np.ndarray, growth: int) -> np.ndarray:
    radius = abs(growth)
    if radius < 1:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    padded = cv2.copyMakeBorder(mask, *(4 * [radius + 2]), cv2.BORDER_CONSTANT, value=0)
    return (cv2.dilate if growth > 0 else cv2.erode)(padded, kernel)


def _placed_ink(
    canvas: np.ndarray,
    ink: np.ndarray,
    box_height: float,
    centre: tuple[float, float],
    max_width: float,
) -> None:
    """Paste ``ink`` scaled to ``box_height`` px high (at most ``max_width`` wide) at ``centre``
    into ``canvas`` (float32 0..1), by maximum."""
    height, width = ink.shape
    zoom = min(box_height / height, max_width / width)
    new_w, new_h = max(1, round(width * zoom)), max(1, round(height * zoom))
    small = cv2.resize(ink, (new_w, new_h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    top, left = round(centre[1] - new_h / 2), round(centre[0] - new_w / 2)
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(canvas.shape[0], top + new_h), min(canvas.shape[1], left + new_w)
    if y1 <= y0 or x1 <= x0:
        return
    region = canvas[y0:y1, x0:x1]
    np.maximum(region, small[y0 - top : y1 - top, x0 - left : x1 - left], out=region)


def tile_sprite(content: str, tiles: TileSet, side: int, rng: np.random.Generator) -> np.ndarray:
    """A BGRA float32 sprite of a tile ``side`` px: a letter, ``"blank"`` or ``"back"``."""
    shape = _rounded_mask(side, tiles.corner).astype(np.float32) / 255
    if content == "back":
        base = tiles.back
        colour = (
            _wood_texture(side, base, rng)
            if rng.random() < 0.3
            else np.broadcast_to(base, (side, side, 3)).astype(np.float32).copy()
        )
        if rng.random() < 0.5:
            lighter = np.minimum(base * 1.3 + 20, 255)
            inset, stroke = side // 7, max(1, side // 30)
            cv2.rectangle(
                colour,
                (inset, inset),
                (side - 1 - inset, side - 1 - inset),
                lighter.tolist(),
                stroke,
            )
            if rng.random() < 0.6:
                cv2.circle(colour, (side // 2, side // 2), side // 8, lighter.tolist(), stroke)
    else:
        colour = (
            _wood_texture(side, tiles.face, rng)
            if tiles.kind == "wood"
            else np.broadcast_to(tiles.face, (side, side, 3)).astype(np.float32).copy()
        )
        if content != "blank":
            ink = _tile_ink(content, tiles, side, rng)
            _ink_on(colour, ink, tiles, side)
    rim = shape - cv2.erode(shape, np.ones((3, 3), np.uint8), iterations=max(1, side // 28))
    colour *= 1.0 - rng.uniform(0.05, 0.25) * rim[..., None]
    return np.dstack((colour, shape))


def _tile_ink(letter: str, tiles: TileSet, side: int, rng: np.random.Generator) -> np.ndarray:
    """The letter's (and point value's) ink on the tile, float32 0..1."""
    ink = np.zeros((side, side), np.float32)
    height = tiles.letter_height * side * rng.uniform(0.95, 1.05)
    mask = _weighted_glyph(tiles.typeface, letter, round(tiles.weight * 240))
    shift = np.array([0.0, 0.0])
    if tiles.points:
        shift = np.array([-0.06, -0.05]) * side
    centre = (
        side / 2 + shift[0] + rng.normal(0, 0.02 * side),
        side / 2 + shift[1] + rng.normal(0, 0.02 * side),
    )
    _placed_ink(ink, mask, height, centre, 0.8 * side)
    if tiles.points:
        value = str(int(rng.choice([1, 1, 1, 2, 3, 4, 5, 8, 10])))
        digits = np.asarray(glyph(tiles.typeface, value))
        size = rng.uniform(0.16, 0.26) * side
        corner = (side * rng.uniform(0.78, 0.86), side * rng.uniform(0.76, 0.86))
        _placed_ink(ink, digits, size, corner, 0.3 * side)
    return ink


def _ink_on(colour: np.ndarray, ink: np.ndarray, tiles: TileSet, side: int) -> None:
    """Lay ``ink`` on the face; engraved letters get a lit and a shaded wall."""
    if tiles.engraved:
        step = max(1, side // 40)
        lit = np.clip(ink - np.roll(ink, (step, step), axis=(0, 1)), 0, 1)
        shade = np.clip(ink - np.roll(ink, (-step, -step), axis=(0, 1)), 0, 1)
        colour *= (1.0 - 0.35 * shade)[..., None]
        colour += (0.25 * lit)[..., None] * (255 - colour)
    colour *= 1.0 - ink[..., None]
    colour += ink[..., None] * tiles.ink


def star_sprite(side: int, rng: np.random.Generator) -> np.ndarray:
    """A token: round or star-shaped, any colour, with a star or a ring on it."""
    colour_bgr = _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(60, 255), rng.uniform(120, 250))
    centre = (side - 1) / 2
    points = []
    for index in range(10):
        angle = -math.pi / 2 + index * math.pi / 5 + rng.uniform(-0.05, 0.05)
        radius = (0.48 if index % 2 == 0 else rng.uniform(0.18, 0.26)) * side
        points.append((centre + radius * math.cos(angle), centre + radius * math.sin(angle)))
    star = np.round(np.array(points) * 16).astype(np.int32)
    shape = np.zeros((side, side), np.uint8)
    if rng.random() < 0.6:
        cv2.circle(shape, (side // 2, side // 2), side // 2 - 1, 255, -1, cv2.LINE_AA)
    else:
        cv2.fillPoly(shape, [star], 255, cv2.LINE_AA, shift=4)
    colour = np.empty((side, side, 3), np.float32)
    colour[:] = colour_bgr
    if rng.random() < 0.7:
        inner = (np.array(points) - centre) * 0.75 + centre
        polygon = np.round(inner * 16).astype(np.int32)
        cv2.fillPoly(colour, [polygon], (colour_bgr * 0.55).tolist(), cv2.LINE_AA, shift=4)
    return np.dstack((colour, shape.astype(np.float32) / 255))


def _paste(canvas: np.ndarray, sprite: np.ndarray, centre, angle: float, shadow: float) -> None:
    """Alpha-blend a BGRA sprite turned by ``angle`` degrees at ``centre`` (px), with a shadow."""
    side = sprite.shape[0]
    reach = side  # a turned sprite and its shadow stay within a side of its centre
    x0, y0 = max(0, int(centre[0]) - reach), max(0, int(centre[1]) - reach)
    x1 = min(canvas.shape[1], int(centre[0]) + reach)
    y1 = min(canvas.shape[0], int(centre[1]) + reach)
    if x1 <= x0 or y1 <= y0:
        return
    region = canvas[y0:y1, x0:x1]
    matrix = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
    matrix[0, 2] += centre[0] - x0 - side / 2
    matrix[1, 2] += centre[1] - y0 - side / 2
    warped = cv2.warpAffine(
        sprite,
        matrix,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    alpha = warped[..., 3]
    if shadow > 0:
        offset = max(1, side // 25)
        dark = np.zeros_like(alpha)
        dark[offset:, offset:] = cv2.GaussianBlur(alpha, (0, 0), offset)[:-offset, :-offset]
        region *= (1.0 - shadow * dark * (1 - alpha))[..., None]
    region *= (1.0 - alpha)[..., None]
    region += warped[..., :3] * alpha[..., None]


# ---------------------------------------------------------------- the neighbourhood


NOT_LETTER_KINDS = ("empty", "back", "star", "blank", "finger", "edge")


def _mat(rng: np.random.Generator) -> np.ndarray:
    """A printed mat: paper (any colour), places' tints, grid lines, sometimes a mark."""
    paper = _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 120), rng.uniform(110, 245))
    if rng.random() < 0.15:
        paper = _bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(40, 130))
    canvas = np.empty((SIDE, SIDE, 3), np.float32)
    canvas[:] = paper
    if rng.random() < 0.4:
        for row in range(SPAN):
            for col in range(SPAN):
                if rng.random() < 0.35:
                    tint = np.clip(paper * rng.uniform(0.75, 1.2, 3), 0, 255)
                    canvas[row * CELL : (row + 1) * CELL, col * CELL : (col + 1) * CELL] = tint
    line = (paper * rng.uniform(0.15, 0.75)).tolist()
    width = int(rng.integers(1, 3 * SUPER + 1))
    jitter = rng.integers(-2 * SUPER, 2 * SUPER + 1, 2)
    style = rng.random()
    for k in range(SPAN + 1):
        at = k * CELL
        if style < 0.75:
            cv2.line(canvas, (at + jitter[0], 0), (at + jitter[0], SIDE), line, width)
            cv2.line(canvas, (0, at + jitter[1]), (SIDE, at + jitter[1]), line, width)
    if style >= 0.75:
        inset = rng.uniform(0.04, 0.12) * CELL
        for row in range(SPAN):
            for col in range(SPAN):
                x0, y0 = col * CELL + inset, row * CELL + inset
                cv2.rectangle(
                    canvas,
                    (round(x0), round(y0)),
                    (round(x0 + CELL - 2 * inset), round(y0 + CELL - 2 * inset)),
                    line,
                    width,
                )
    if rng.random() < 0.15:
        middle = SIDE // 2
        cv2.circle(canvas, (middle, middle), round(CELL * rng.uniform(0.05, 0.2)), line, -1)
    return canvas


def _finger(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """A finger or the side of a hand over the place (skin colour, soft shadow)."""
    skin = np.array((125, 155, 205), np.float32) * rng.uniform(0.45, 1.15, 3).astype(np.float32)
    mask = np.zeros((SIDE, SIDE), np.float32)
    middle = SIDE / 2
    angle = rng.uniform(0, 180)
    width = rng.uniform(0.45, 1.2) * CELL
    tip = (middle + rng.uniform(-0.25, 0.25) * CELL, middle + rng.uniform(-0.25, 0.25) * CELL)
    direction = np.radians(angle)
    far = (tip[0] + 3 * CELL * math.cos(direction), tip[1] + 3 * CELL * math.sin(direction))
    cv2.line(
        mask, (round(tip[0]), round(tip[1])), (round(far[0]), round(far[1])), 1.0, round(width)
    )
    cv2.circle(mask, (round(tip[0]), round(tip[1])), round(width / 2), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 2 * SUPER)
    shade = 0.75 + 0.25 * mask
    shadow = np.roll(mask, (6 * SUPER, 4 * SUPER), axis=(0, 1))
    canvas *= (1 - 0.4 * shadow * (1 - mask))[..., None]
    canvas *= (1 - mask)[..., None]
    canvas += (mask * shade)[..., None] * skin


def neighbourhood(
    label: int, typefaces: Sequence[Typeface], rng: np.random.Generator
) -> np.ndarray:
    """The drawing (SIDE x SIDE float32 BGR) of a place holding ``label`` (0..25 a letter,
    NOT_A_LETTER something else) among neighbours."""
    canvas = _mat(rng)
    tiles = random_tile_set(typefaces, rng)
    side = round(tiles.side * CELL)
    shadow = rng.uniform(0.0, 0.45)
    middle = SPAN // 2
    neighbour_chance = rng.uniform(0.2, 0.9)
    sprites = [
        tile_sprite(LETTERS[rng.integers(26)], tiles, side, rng),
        tile_sprite(LETTERS[rng.integers(26)], tiles, side, rng),
        tile_sprite("back", tiles, side, rng),
        star_sprite(round(rng.uniform(0.6, 0.85) * CELL), rng),
    ]
    for row in range(SPAN):
        for col in range(SPAN):
            if (col, row) == (middle, middle) or rng.random() > neighbour_chance:
                continue
            centre = (
                (col + 0.5 + rng.uniform(-0.1, 0.1)) * CELL,
                (row + 0.5 + rng.uniform(-0.1, 0.1)) * CELL,
            )
            draw = rng.random()
            sprite = sprites[3 if draw < 0.1 else 2 if draw < 0.22 else 0 if draw < 0.61 else 1]
            _paste(canvas, sprite, centre, rng.uniform(-MAX_TURN_DEG, MAX_TURN_DEG), shadow)
    place = ((middle + 0.5) * CELL, (middle + 0.5) * CELL)
    turn = rng.uniform(-MAX_TURN_DEG, MAX_TURN_DEG)
    off = rng.uniform(-0.14, 0.14, 2) * CELL
    here = (place[0] + off[0], place[1] + off[1])
    if label < NOT_A_LETTER:
        _paste(canvas, tile_sprite(LETTERS[label], tiles, side, rng), here, turn, shadow)
        if rng.random() < 0.04:
            _finger_edge(canvas, rng)
        return canvas
    kind = NOT_LETTER_KINDS[rng.integers(len(NOT_LETTER_KINDS))]
    if kind in ("back", "blank"):
        _paste(canvas, tile_sprite(kind, tiles, side, rng), here, turn, shadow)
    elif kind == "star":
        _paste(canvas, star_sprite(round(rng.uniform(0.55, 0.9) * CELL), rng), here, turn, shadow)
    elif kind == "finger":
        if rng.random() < 0.6:
            content = LETTERS[rng.integers(26)]
            _paste(canvas, tile_sprite(content, tiles, side, rng), here, turn, shadow)
        _finger(canvas, rng)
    elif kind == "edge":
        direction = rng.uniform(0, 2 * math.pi)
        away = rng.uniform(0.62, 0.85) * CELL
        edge_at = (place[0] + away * math.cos(direction), place[1] + away * math.sin(direction))
        content = LETTERS[rng.integers(26)]
        _paste(canvas, tile_sprite(content, tiles, side, rng), edge_at, turn, shadow)
    return canvas


def _finger_edge(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """A fingertip just touching the cell's edge (the letter still shows)."""
    skin = np.array((125, 155, 205), np.float32) * rng.uniform(0.6, 1.1, 3).astype(np.float32)
    mask = np.zeros((SIDE, SIDE), np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    middle = SIDE / 2
    at = (middle + 0.75 * CELL * math.cos(angle), middle + 0.75 * CELL * math.sin(angle))
    cv2.circle(mask, (round(at[0]), round(at[1])), round(0.3 * CELL), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), SUPER)
    canvas *= (1 - mask)[..., None]
    canvas += mask[..., None] * skin


# ---------------------------------------------------------------- the camera


def _camera_homography(rng: np.random.Generator, camera_cell: float) -> np.ndarray:
    """Drawing px -> camera px: scale to ``camera_cell`` px per cell, a little perspective."""
    scale = camera_cell / CELL
    out = SPAN * camera_cell
    corners = np.float32([[0, 0], [SIDE, 0], [SIDE, SIDE], [0, SIDE]])
    moved = corners * scale + rng.normal(0, 0.035 * out, (4, 2)).astype(np.float32)
    return cv2.getPerspectiveTransform(corners, moved)


def _seen(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, a cast, glare that clips, a shadow edge, blur, noise (float32 -> uint8)."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ys, xs = ys / height - 0.5, xs / width - 0.5
    direction = rng.uniform(0, 2 * math.pi)
    ramp = xs * math.cos(direction) + ys * math.sin(direction)
    light = rng.uniform(0.55, 1.3) * (1 + rng.uniform(-0.4, 0.4) * ramp)
    if rng.random() < 0.25:
        edge = xs * math.cos(direction + 1) + ys * math.sin(direction + 1) - rng.uniform(-0.3, 0.3)
        edge = np.clip(edge * rng.uniform(4, 20) + 0.5, 0, 1)
        light = light * (1 - rng.uniform(0.15, 0.5) * edge)
    cast = rng.uniform(0.82, 1.18, 3).astype(np.float32)
    image = image * light[..., None].astype(np.float32) * cast
    if rng.random() < 0.3:
        spot = (rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4))
        radius = rng.uniform(0.08, 0.35)
        glare = np.exp(-((xs - spot[0]) ** 2 + (ys - spot[1]) ** 2) / (2 * radius**2))
        image += (rng.uniform(60, 260) * glare)[..., None].astype(np.float32)
    if rng.random() < 0.75:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.1))
    image += rng.standard_normal(image.shape).astype(np.float32) * rng.uniform(0, 7)
    out = np.clip(image + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))]
        ok, encoded = cv2.imencode(".jpg", out, quality)
        if ok:
            out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out


def _crop_to_drawing(rng: np.random.Generator) -> np.ndarray:
    """Crop px -> drawing px as the reader's fit of the place would put it (slightly off)."""
    middle_crop = (CROP_SIDE - 1) / 2
    middle = SIDE / 2
    scale = SUPER * rng.uniform(0.95, 1.05)
    angle = np.radians(rng.uniform(-3, 3))
    cos, sin = math.cos(angle) * scale, math.sin(angle) * scale
    shift = rng.normal(0, 0.04, 2) * CELL
    return np.array(
        [
            [cos, -sin, middle + shift[0] - (cos * middle_crop - sin * middle_crop)],
            [sin, cos, middle + shift[1] - (sin * middle_crop + cos * middle_crop)],
            [0, 0, 1.0],
        ]
    )


def sample(label: int, typefaces: Sequence[Typeface], rng: np.random.Generator) -> np.ndarray:
    """One training crop (48, 48, 3) BGR uint8 of a place holding ``label``."""
    drawing = neighbourhood(label, typefaces, rng)
    camera_cell = rng.uniform(15.0, 42.0)
    to_camera = _camera_homography(rng, camera_cell)
    size = round(SPAN * camera_cell * 1.1)
    shrink = CELL / camera_cell
    soft = cv2.GaussianBlur(drawing, (0, 0), 0.45 * shrink)
    camera = cv2.warpPerspective(
        soft, to_camera, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    seen = _seen(camera, rng)
    return cut_crop(seen, to_camera @ _crop_to_drawing(rng))


def dataset(
    per_class: int, typefaces: Sequence[Typeface], seed: int, not_letter_share: float = 3.0
) -> tuple[np.ndarray, np.ndarray]:
    """``per_class`` crops of every letter and ``not_letter_share * per_class`` of no letter:
    crops (N, 48, 48, 3) uint8 and labels (N,) in 0..26, shuffled."""
    rng = np.random.default_rng(seed)
    labels = np.concatenate(
        (
            np.repeat(np.arange(26), per_class),
            np.full(round(not_letter_share * per_class), NOT_A_LETTER),
        )
    )
    labels = labels[rng.permutation(len(labels))]
    crops = np.stack([sample(int(label), typefaces, rng) for label in labels])
    return crops, labels
