"""The pieces on a table texture: cog, die and pawn sprites, stamped with a drop shadow.

A sprite is a read-only BGRA square made once per size and colour (cached); a
:class:`Stamp` puts one on the table texture at a centre and a turn, and :func:`stamp`
blends it in with its soft shadow, within a window when only part of the table is mended.
Used by the printed parts' renderer (:mod:`vision.parts.renderer`) and the card mat's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.peg_disk.sprites import gear_outline


@dataclass(frozen=True)
class Stamp:
    """One piece as the table texture shows it: its BGRA sprite, centre (texture px), turn."""

    sprite: np.ndarray
    centre: tuple[float, float]
    angle_deg: float

    def box(self) -> tuple[int, int, int, int]:
        """The texture box (x0, y0, x1, y1) the piece and its shadow may touch."""
        reach = math.ceil(self.sprite.shape[0] * 0.75 + _shadow_of(self.sprite)[1]) + 3
        x0, y0 = math.floor(self.centre[0]) - reach, math.floor(self.centre[1]) - reach
        return x0, y0, x0 + 2 * reach + 1, y0 + 2 * reach + 1


def stamp_on(texture: np.ndarray, stamp: Stamp, window=None) -> None:
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
def gear_sprite(diameter: int, bgr: tuple[int, int, int], turn: int) -> np.ndarray:
    """A shaded gear seen from above (the Kogworks cog's look), BGRA uint8."""
    outer = diameter / 2
    size = math.ceil(2 * outer + 4) | 1
    mid = size // 2
    alpha = np.zeros((size, size), np.float32)
    cv2.fillPoly(alpha, [gear_outline(outer, mid, turn)], 1.0, cv2.LINE_AA)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) - mid
    shade = 1.0 - 0.2 * (xs + ys) / (math.sqrt(2) * outer)
    rim = cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=max(1, round(0.09 * outer)))
    shade *= 0.72 + 0.28 * rim
    radius = np.hypot(xs, ys)
    shade[radius < 0.21 * outer] = 0.35
    shade[radius < 0.11 * outer] = 0.6
    colour = np.array(bgr, np.float32) * shade[..., None]
    return bgra(colour, alpha)


DIE_CORNER = 0.18
"""A die's corner radius, in die sides."""


def rounded_square(side: int, corner: float) -> np.ndarray:
    """A filled rounded square as large as the image (uint8, 255 inside), its corners
    rounded by ``corner`` of the side (at least a pixel): a die, a letter tile."""
    mask = np.zeros((side, side), np.uint8)
    radius = max(1, round(corner * side))
    last = side - 1
    cv2.rectangle(mask, (radius, 0), (last - radius, last), 255, -1)
    cv2.rectangle(mask, (0, radius), (last, last - radius), 255, -1)
    for x in (radius, last - radius):
        for y in (radius, last - radius):
            cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
    return mask


@lru_cache(maxsize=512)
def die_sprite(side: int, face: int, colours: tuple[tuple, tuple], pips: tuple[float, float]):
    """A die from above: a rounded square of the body colour with the face's pips, BGRA.

    ``colours`` are the body's and the pips' BGR, ``pips`` the pips' offset from
    the centre and their radius, in die sides.
    """
    body, pip = colours
    offset, pip_radius = pips
    big = 4 * side
    alpha = rounded_square(big, DIE_CORNER)
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
    return bgra(small, small_alpha.astype(np.float32) / 255)


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
def pawn_sprite(diameter: int, bgr: tuple[int, int, int]) -> np.ndarray:
    """A pawn from above: a disc with a darker rim and a lighter top, BGRA."""
    size = diameter + 2
    mid = (size - 1) / 2
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) - mid
    radius = np.hypot(xs, ys) / (diameter / 2)
    alpha = np.clip((1.0 - radius) * diameter / 2 + 0.5, 0, 1)
    shade = np.where(radius > 0.8, 0.7, 1.0 + 0.15 * (radius < 0.45))
    shade = shade * (1.0 - 0.1 * (xs + ys) / diameter)
    colour = np.array(bgr, np.float32) * shade[..., None]
    return bgra(colour, alpha)


def bgra(colour: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    sprite = np.empty((*alpha.shape, 4), np.uint8)
    sprite[..., :3] = np.clip(colour + 0.5, 0, 255).astype(np.uint8)
    sprite[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    sprite.flags.writeable = False
    return sprite
