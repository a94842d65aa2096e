"""The Kogworks set as drawn from straight above: the board's texture with its markers and
pins, and each cog's sprite, in a :class:`Look` (paints, wood, metal, teeth, ink).

:mod:`vision.peg_disk.renderer` warps these into a camera's view; a :class:`Look` says how the
set is drawn, :data:`HELD_OUT_LOOK` differently from :data:`REFERENCE_LOOK`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.markers import marker_image, project
from vision.peg_disk.geometry import BoardGeometry, board_to_sheet_pixels

COLOURS_BGR = {
    "red": (40, 45, 200),
    "blue": (190, 90, 35),
    "gold": (40, 175, 225),
}
"""Cog paint colours (BGR) on the reference set."""
BOARD_BGR = (165, 198, 222)
SHEET_BGR = (232, 234, 236)
PEG_BGR = (70, 70, 75)

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Look:
    """How the set is drawn: paints, wood, pins, cog hubs, gear teeth and marker ink.

    ``hub`` and ``hole`` are the colours of a cog's hub ring and the hole at
    its centre; None draws them as dark shades of the cog's paint.
    """

    board: BGR = BOARD_BGR
    sheet: BGR = SHEET_BGR
    red: BGR = COLOURS_BGR["red"]
    blue: BGR = COLOURS_BGR["blue"]
    gold: BGR = COLOURS_BGR["gold"]
    pin: BGR = PEG_BGR
    hub: BGR | None = None
    hole: BGR | None = None
    teeth: int = 12
    grain: float = 6.0
    ink: int = 15
    shadow: float = 0.0
    """Depth (share of light removed) of the shadow each cog casts beside it (a low lamp)."""
    shadow_reach: float = 0.35
    """How far (peg pitches) a cog's cast shadow falls from it, towards +x, +y of the board."""

    def paint(self, colour: str) -> BGR:
        """The BGR paint of a cog colour."""
        return {"red": self.red, "blue": self.blue, "gold": self.gold}[colour]


REFERENCE_LOOK = Look()
"""The look the reader was tuned on."""
HELD_OUT_LOOK = Look(
    board=(138, 176, 206),
    sheet=(214, 222, 226),
    red=(52, 38, 178),
    blue=(172, 112, 48),
    gold=(28, 150, 208),
    pin=(196, 198, 204),
    hub=(178, 182, 188),
    hole=(70, 70, 72),
    teeth=10,
    grain=9.0,
    ink=34,
)
"""A differently drawn set (bright metal pins and hubs): never used for tuning."""


def empty_board(geometry: BoardGeometry, scale: float, look: Look = REFERENCE_LOOK) -> np.ndarray:
    """The sheet, disk, pegs and markers seen from straight above, float32 BGR."""
    width, height = (round(s * scale) for s in geometry.sheet_size)
    texture = np.empty((height, width, 3), np.float32)
    texture[:] = look.sheet
    to_texture = board_to_sheet_pixels(geometry, scale)
    centre = _point(project(to_texture, np.zeros((1, 2)))[0])
    radius = round(geometry.disk_radius * scale)
    cv2.circle(texture, centre, radius, look.board, -1, cv2.LINE_AA)
    edge = tuple(0.67 * v for v in look.board)
    cv2.circle(texture, centre, radius, edge, max(1, round(scale)), cv2.LINE_AA)
    noise = np.random.default_rng(7).normal(0, look.grain, (height, width))
    grain = cv2.GaussianBlur(noise, (0, 0), 2)
    texture += grain[..., None].astype(np.float32)
    for peg in project(to_texture, geometry.peg_positions()):
        cv2.circle(
            texture,
            _point(peg),
            max(1, round(0.07 * geometry.peg_pitch * scale)),
            look.pin,
            -1,
            cv2.LINE_AA,
        )
    for marker_id in geometry.marker_ids():
        _draw_marker(texture, geometry, marker_id, to_texture, look.ink)
    return texture


def _draw_marker(texture, geometry: BoardGeometry, marker_id: int, to_texture, ink: int) -> None:
    corners = project(to_texture, geometry.marker_corners(marker_id))
    x0, y0 = (round(v) for v in corners[0])
    side = round(corners[2, 0] - corners[0, 0])
    texture[y0 : y0 + side, x0 : x0 + side] = (
        marker_image(marker_id, side)[..., None] * ((230 - ink) / 255) + ink
    )


@lru_cache(maxsize=256)
def cog_sprite(look: Look, pitch: float, scale: float, colour: str, turn: int) -> np.ndarray:
    """A shaded gear seen from above: BGR float32 with alpha in channel 3."""
    outer = 0.56 * pitch * scale
    size = math.ceil(2 * outer + 4) | 1
    mid = size // 2
    alpha = np.zeros((size, size), np.float32)
    cv2.fillPoly(alpha, [gear_outline(outer, mid, turn, look.teeth)], 1.0, cv2.LINE_AA)
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) - mid
    shade = 1.0 - 0.2 * (xs + ys) / (math.sqrt(2) * outer)
    rim = cv2.erode(
        alpha, np.ones((3, 3), np.uint8), iterations=max(1, round(0.05 * pitch * scale))
    )
    shade *= 0.72 + 0.28 * rim
    radius = np.hypot(xs, ys)
    hub, hole = radius < 0.12 * pitch * scale, radius < 0.06 * pitch * scale
    shade[hub] = 0.35
    shade[hole] = 0.6
    bgr = np.array(look.paint(colour), np.float32) * shade[..., None]
    for inside, metal in ((hub, look.hub), (hole, look.hole)):
        if metal is not None:
            bgr[inside] = metal
    return np.dstack([bgr, alpha])


def gear_outline(outer: float, mid: int, turn: int, teeth: int = 12) -> np.ndarray:
    root = outer * 0.84
    points = []
    for tooth in range(teeth):
        start = 2 * math.pi * (tooth + turn / 6) / teeth
        step = 2 * math.pi / teeth
        for fraction, radius in ((0.0, root), (0.15, outer), (0.4, outer), (0.55, root)):
            angle = start + fraction * step
            points.append((mid + radius * math.cos(angle), mid + radius * math.sin(angle)))
    return np.round(np.array(points)).astype(np.int32)


def _clip_box(shape, size: int, centre) -> tuple[slice, slice, slice, slice] | None:
    """Destination and sprite slices of a size x size sprite centred at ``centre``."""
    x0, y0 = round(float(centre[0])) - size // 2, round(float(centre[1])) - size // 2
    dx0, dy0 = max(0, x0), max(0, y0)
    dx1, dy1 = min(shape[1], x0 + size), min(shape[0], y0 + size)
    if dx0 >= dx1 or dy0 >= dy1:
        return None
    return slice(dy0, dy1), slice(dx0, dx1), slice(dy0 - y0, dy1 - y0), slice(dx0 - x0, dx1 - x0)


def composite(image: np.ndarray, sprite: np.ndarray, centre, tint) -> None:
    """Blend a sprite (with drop shadow) onto the image in place."""
    box = _clip_box(image.shape, sprite.shape[0], centre)
    if box is None:
        return
    ys, xs, sy, sx = box
    alpha = sprite[sy, sx, 3:4]
    shadow = cv2.GaussianBlur(sprite[..., 3], (0, 0), 1.5)[sy, sx, None]
    region = image[ys, xs]
    region *= 1 - 0.3 * shadow
    region *= 1 - alpha
    region += alpha * sprite[sy, sx, :3] * tint.astype(np.float32)


def darken(image: np.ndarray, amount: np.ndarray, centre) -> None:
    """Multiply by (1 - amount): a sprite-sized patch at centre, or the whole frame."""
    if centre is None:
        image *= 1 - amount[..., None]
        return
    box = _clip_box(image.shape, amount.shape[0], centre)
    if box is not None:
        ys, xs, sy, sx = box
        image[ys, xs] *= 1 - amount[sy, sx, None]


def _point(values) -> tuple[int, int]:
    return (round(float(values[0])), round(float(values[1])))
