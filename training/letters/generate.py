"""Training crops for the letter model: tiles of many typefaces and looks, cut as the reader cuts.

A sample is a small neighbourhood of a mat (the place and its eight neighbours)
drawn at three times the crop's scale: a printed mat (any paper colour, grid
lines), tiles on some neighbours, and on the place itself a letter tile, or
something that is not a letter (an empty place, a face-down tile of any back
colour, a star token, a blank face, a finger, the edge of a tile on the next
place). Tiles (:mod:`training.letters.tiles`) have any face (cream, ivory, white or coloured
plastic, wood grain), printed or engraved letters of a typeface from the corpus
(:mod:`training.letters.fonts`) or an OpenCV Hershey face, a point value in a corner or none,
any weight, and lie turned up to :data:`MAX_TURN_DEG` and off-centre within their place.

The neighbourhood is then seen by a camera: shrunk to a random camera resolution
through a slightly wrong homography (the reader's marker fit is never exact),
lit unevenly with glare that clips, shadowed, blurred, noised and JPEG-coded;
and the crop is cut from that camera image by :func:`vision.parts.letter_crops.cut_crop`,
the parts reader's own cut.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.layout import LETTERS
from vision.parts.letter_crops import CELL_SIDE, CROP_SIDE, cut_crop
from vision.parts.letter_model import NOT_A_LETTER

from .tiles import Typeface, bgr_of_hsv, random_tile_set, star_sprite, tile_sprite

SUPER = 2
"""The neighbourhood is drawn this many times the crop's scale."""
CELL = CELL_SIDE * SUPER
"""A place's cell in the drawing (px)."""
SPAN = 3
"""The drawing spans this many cells square, the place in its middle."""
SIDE = SPAN * CELL
MAX_TURN_DEG = 22.0
"""Tiles lie turned up to this much (the mat's tolerance is 20 degrees)."""


# ---------------------------------------------------------------- the neighbourhood


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


NOT_LETTER_KINDS = ("empty", "back", "star", "blank", "finger", "edge")


def _mat(rng: np.random.Generator) -> np.ndarray:
    """A printed mat: paper (any colour), places' tints, grid lines, sometimes a mark."""
    paper = bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 120), rng.uniform(110, 245))
    if rng.random() < 0.15:
        paper = bgr_of_hsv(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(40, 130))
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
