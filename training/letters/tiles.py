"""The tiles a letter-model training crop shows: typefaces, a tile set's look, tile sprites.

A :class:`Typeface` is a font file of the corpus (:mod:`training.letters.fonts`) or an
OpenCV Hershey face; a :class:`TileSet` is one set's look (face colour and kind, ink,
back, engraved or printed, point values, corner, letter height and weight), drawn at
random by :func:`random_tile_set`; :func:`tile_sprite` and :func:`star_sprite` draw one
tile or token as a BGRA float32 sprite for :mod:`training.letters.generate` to lay out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.parts.sprites import rounded_square

from .fonts import refuse_reserved

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


def bgr_of_hsv(h: float, s: float, v: float) -> np.ndarray:
    pixel = np.uint8([[[round(h) % 180, round(s), round(v)]]])
    return cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _luma(bgr: np.ndarray) -> float:
    return float(0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2])


def _face_colour(rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """A tile face colour and its kind: cream/ivory, white, wood, coloured plastic, dark."""
    draw = rng.random()
    if draw < 0.35:
        return bgr_of_hsv(rng.uniform(12, 30), rng.uniform(15, 80), rng.uniform(200, 250)), "cream"
    if draw < 0.45:
        return np.full(3, rng.uniform(215, 252), np.float32), "white"
    if draw < 0.68:
        return bgr_of_hsv(rng.uniform(8, 22), rng.uniform(70, 170), rng.uniform(120, 230)), "wood"
    if draw < 0.9:
        plastic = bgr_of_hsv(rng.uniform(0, 180), rng.uniform(40, 255), rng.uniform(90, 250))
        return plastic, "plastic"
    return bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(15, 90)), "dark"


def _ink_colour(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ink that a person can read on ``face``: dark on light faces, light on dark ones."""
    if _luma(face) > 115:
        if rng.random() < 0.7:
            return np.full(3, rng.uniform(5, 60), np.float32)
        colour = bgr_of_hsv(rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(20, 110))
        return colour
    if rng.random() < 0.7:
        return np.full(3, rng.uniform(200, 250), np.float32)
    return bgr_of_hsv(rng.uniform(15, 35), rng.uniform(60, 200), rng.uniform(180, 250))


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
    back = bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(30, 240))
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
    shape = rounded_square(side, tiles.corner).astype(np.float32) / 255
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
    colour_bgr = bgr_of_hsv(rng.uniform(0, 180), rng.uniform(60, 255), rng.uniform(120, 250))
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
