"""Synthetic crops of letter tiles as the part reader cuts them: to train and test the classifier.

A crop is 48 px square, centred on a place, the place's cell spanning the
central 32 px. It shows one tile drawn by :func:`vision.parts.tiles.draw_tile`,
rotated, shifted and scaled, on a printed mat with grid lines and
neighbouring tiles, seen through a camera (:class:`CameraEffects`).

>>> from vision.parts.tiles import TRAINING_FONTS
>>> crops = synthetic_crops(["A", "B"], TRAINING_FONTS, np.random.default_rng(1))
>>> crops.shape, crops.dtype.name
((2, 48, 48, 3), 'uint8')
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.layout import LETTERS, STAR, WILD
from vision.parts.tiles import REFERENCE_LOOK, Font, TileLook, draw_tile

CROP_SIDE = 48
"""A crop is this many pixels square, centred on the place."""
CELL_SIDE = 32
"""The place's cell spans the central this many pixels of a crop."""
_MARGIN = (CROP_SIDE - CELL_SIDE) // 2


@dataclass(frozen=True)
class CameraEffects:
    """How much a synthetic crop is spoiled, as ranges drawn uniformly per crop.

    Sized for a rectified cell of about 32 px from a 1920x1080 camera over the
    table: the letter is about 16 px high.
    """

    brightness: tuple[float, float] = (0.6, 1.25)
    gradient: float = 0.35
    """Largest change of light across the crop, as a share of the mean light."""
    cast: float = 0.15
    """Largest gain change of one colour channel."""
    shadow_chance: float = 0.2
    shadow_depth: tuple[float, float] = (0.1, 0.4)
    shadow_softness: tuple[float, float] = (3.0, 10.0)
    """Width (px) of a lamp shadow's penumbra (a hand's or lamp's shadow is never sharp)."""
    low_resolution_chance: float = 0.25
    low_resolution: tuple[float, float] = (0.7, 0.95)
    """The camera saw the crop this much smaller (then it was warped up to 48 px)."""
    blur_chance: float = 0.7
    blur_sigma: tuple[float, float] = (0.3, 1.0)
    noise_sigma: tuple[float, float] = (0.0, 6.0)
    jpeg_chance: float = 0.7
    jpeg_quality: tuple[int, int] = (50, 95)


DEFAULT_EFFECTS = CameraEffects()


def cut_crop(image: np.ndarray, crop_to_image: np.ndarray) -> np.ndarray:
    """The classifier's crop (48, 48, 3) of ``image``: ``crop_to_image`` (3x3) maps crop pixels
    to image pixels. The parts reader cuts every face-up tile with this, and the letter model's
    training data (training/letters) is cut with it too, so both see crops made the same way."""
    return cv2.warpPerspective(
        image,
        crop_to_image,
        (CROP_SIDE, CROP_SIDE),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def synthetic_crops(
    letters: Sequence[str],
    fonts: Sequence[Font],
    rng: np.random.Generator,
    *,
    look: TileLook = REFERENCE_LOOK,
    max_rotation_deg: float = 20.0,
    max_shift: float = 0.15,
    max_scale: float = 0.1,
    max_shear: float = 0.0,
    italic_chance: float = 0.0,
    neighbour_chance: float = 0.6,
    effects: CameraEffects | None = DEFAULT_EFFECTS,
) -> np.ndarray:
    """Crops (N, 48, 48, 3) BGR uint8 of a face-up tile of ``letters[i]`` on a mat-like cell.

    Each tile is drawn in a font picked at random from ``fonts``, rotated up to
    ``max_rotation_deg``, shifted up to ``max_shift`` of the cell and scaled by
    up to ``max_scale``, on a random printed mat with grid lines, with tiles,
    face-down tiles and star tokens in the neighbouring cells (each with
    ``neighbour_chance``); ``effects`` adds uneven light, a colour cast, a
    shadow, a lower camera resolution, blur, noise and JPEG (None: a clean crop). A letter may also
    be ``""`` (an empty cell), ``"wild"`` or ``"star"``.
    """
    if not fonts:
        raise ValueError("synthetic_crops needs at least one font")
    canvases = np.empty((len(letters), CROP_SIDE, CROP_SIDE, 3), np.float32)
    backgrounds = _mat_backgrounds(len(letters), fonts, look, rng, neighbour_chance)
    for index, letter in enumerate(letters):
        canvas = canvases[index]
        canvas[:] = next(backgrounds)
        if letter:
            font = fonts[rng.integers(len(fonts))]
            if rng.random() < italic_chance:
                font = replace(font, italic=True)
            shift = rng.uniform(-max_shift, max_shift, 2) * CELL_SIDE
            centre = (CROP_SIDE / 2 + shift[0], CROP_SIDE / 2 + shift[1])
            _paste_tile(
                canvas,
                letter,
                font,
                centre,
                rng,
                look=look,
                max_rotation_deg=max_rotation_deg,
                max_scale=max_scale,
                max_shear=max_shear,
            )
    if effects is not None:
        return np.concatenate(
            [
                _degrade_batch(canvases[start : start + 256], rng, effects)
                for start in range(0, max(1, len(canvases)), 256)
            ]
        )
    return np.clip(canvases + 0.5, 0, 255).astype(np.uint8)


_BOARD_CELLS = 8
"""Backgrounds are cut from boards of this many cells square (plus a ring of neighbours)."""


def _mat_backgrounds(
    count: int,
    fonts: Sequence[Font],
    look: TileLook,
    rng: np.random.Generator,
    neighbour_chance: float,
) -> Iterator[np.ndarray]:
    """``count`` float32 crops of an empty cell on a random mat, neighbours drawn around it.

    Boards of tiles are drawn once and every empty cell of one gives a
    background, so one tile is drawn per crop rather than one per neighbour.
    """
    made = 0
    while made < count:
        board, empty_cells = _random_board(fonts, look, rng, neighbour_chance)
        for row, col in empty_cells:
            top, left = row * CELL_SIDE - _MARGIN, col * CELL_SIDE - _MARGIN
            yield board[top : top + CROP_SIDE, left : left + CROP_SIDE]
            made += 1
            if made == count:
                return


def _random_board(
    fonts: Sequence[Font], look: TileLook, rng: np.random.Generator, neighbour_chance: float
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A mat of ``_BOARD_CELLS + 2`` cells square with tiles on some; its empty inner cells."""
    cells = _BOARD_CELLS + 2
    side = cells * CELL_SIDE
    base = rng.uniform(60, 235) if rng.random() < 0.3 else rng.uniform(150, 235)
    paper = np.clip(base * rng.uniform(0.75, 1.15, 3), 0, 255).astype(np.float32)
    board = np.empty((side, side, 3), np.float32)
    board[:] = paper
    if rng.random() < 0.4:
        for row in range(cells):
            for col in range(cells):
                if rng.random() < 0.3:
                    tint = np.clip(paper * rng.uniform(0.8, 1.15, 3), 0, 255)
                    board[row * CELL_SIDE : (row + 1) * CELL_SIDE, col * CELL_SIDE :][
                        :, :CELL_SIDE
                    ] = tint
    line_colour = tuple(float(value) for value in paper * rng.uniform(0.15, 0.7))
    width = int(rng.integers(1, 3))
    jitter_x, jitter_y = (int(value) for value in rng.integers(-2, 3, 2))
    for line in range(0, side + 1, CELL_SIDE):
        cv2.line(board, (line + jitter_x, 0), (line + jitter_x, side - 1), line_colour, width)
        cv2.line(board, (0, line + jitter_y), (side - 1, line + jitter_y), line_colour, width)
    empty_cells = []
    for row in range(cells):
        for col in range(cells):
            if rng.random() < neighbour_chance:
                centre = ((col + 0.5) * CELL_SIDE, (row + 0.5) * CELL_SIDE)
                face = _random_neighbour_face(rng)
                font = fonts[rng.integers(len(fonts))]
                centre = (centre[0] + rng.uniform(-3, 3), centre[1] + rng.uniform(-3, 3))
                _paste_tile(
                    board, face, font, centre, rng, look=look, max_rotation_deg=8.0, max_scale=0.05
                )
            elif 0 < row < cells - 1 and 0 < col < cells - 1:
                empty_cells.append((row, col))
    order = rng.permutation(len(empty_cells))
    return board, [empty_cells[index] for index in order]


def _random_neighbour_face(rng: np.random.Generator) -> str:
    draw = rng.random()
    if draw < 0.12:
        return WILD
    if draw < 0.2:
        return STAR
    return LETTERS[rng.integers(len(LETTERS))]


def _paste_tile(
    canvas: np.ndarray,
    face: str,
    font: Font,
    centre: tuple[float, float],
    rng: np.random.Generator,
    *,
    look: TileLook,
    max_rotation_deg: float,
    max_scale: float,
    max_shear: float = 0.0,
) -> None:
    """Alpha-blend one tile (or token) into ``canvas`` at ``centre`` (px), with its shadow."""
    ratio = look.star_ratio if face == STAR else look.side_ratio
    side = ratio * CELL_SIDE * (1.0 + rng.uniform(-max_scale, max_scale))
    sprite_side = round(ratio * CELL_SIDE)
    sprite = draw_tile(face, sprite_side, font, look)
    reach = CROP_SIDE // 2
    left = max(0, int(centre[0]) - reach)
    top = max(0, int(centre[1]) - reach)
    region = canvas[top : top + 2 * reach, left : left + 2 * reach]
    angle = rng.uniform(-max_rotation_deg, max_rotation_deg)
    matrix = cv2.getRotationMatrix2D((sprite_side / 2, sprite_side / 2), angle, side / sprite_side)
    if max_shear:
        shear = rng.uniform(-max_shear, max_shear)
        slanted = np.array([[1.0, -shear, shear * sprite_side / 2], [0.0, 1.0, 0.0], [0, 0, 1]])
        matrix = matrix @ slanted
    matrix[0, 2] += centre[0] - left - sprite_side / 2
    matrix[1, 2] += centre[1] - top - sprite_side / 2
    warped = cv2.warpAffine(
        sprite,
        matrix,
        (region.shape[1], region.shape[0]),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    ).astype(np.float32)
    alpha = warped[..., 3] * np.float32(1 / 255)
    shadow = np.zeros_like(alpha)
    shadow[1:, 1:] = cv2.GaussianBlur(alpha, (0, 0), 1.2)[:-1, :-1]
    keep = (1.0 - np.float32(rng.uniform(0.0, 0.35)) * shadow) * (1.0 - alpha)
    # Per-pixel weights as 3 channels: numpy broadcasts a trailing axis of 1 slowly.
    region[:] = region * cv2.merge((keep, keep, keep)) + warped[..., :3] * cv2.merge(
        (alpha, alpha, alpha)
    )


def degraded(crops: np.ndarray, rng: np.random.Generator, effects: CameraEffects) -> np.ndarray:
    """Crops (N, 48, 48, 3) uint8 seen through a camera once more (to augment real samples)."""
    return _degrade_batch(crops.astype(np.float32), rng, effects)


def _degrade_batch(
    images: np.ndarray, rng: np.random.Generator, effects: CameraEffects
) -> np.ndarray:
    """Crops (float32, N x 48 x 48 x 3) as a camera sees them, as uint8.

    Uneven light, a colour cast and sometimes a shadow edge for every crop
    (vectorised), then per crop a lower camera resolution, blur, noise and JPEG.
    """
    count = len(images)
    ys, xs = np.mgrid[0:CROP_SIDE, 0:CROP_SIDE].astype(np.float32) / CROP_SIDE - 0.5
    direction = rng.uniform(0, 2 * math.pi, (count, 1, 1))
    ramp = xs * np.cos(direction) + ys * np.sin(direction)
    light = rng.uniform(*effects.brightness, (count, 1, 1)) * (
        1.0 + rng.uniform(-effects.gradient, effects.gradient, (count, 1, 1)) * ramp
    )
    edge_dir = rng.uniform(0, 2 * math.pi, (count, 1, 1))
    edge_side = xs * np.cos(edge_dir) + ys * np.sin(edge_dir)
    softness = rng.uniform(*effects.shadow_softness, (count, 1, 1)) / CROP_SIDE
    into_shadow = (edge_side - rng.uniform(-0.4, 0.4, (count, 1, 1))) / softness
    shadowed = np.clip(into_shadow + 0.5, 0, 1) * (
        rng.random((count, 1, 1)) < effects.shadow_chance
    )
    depth = rng.uniform(*effects.shadow_depth, (count, 1, 1))
    light = light * (1.0 - depth * shadowed)
    cast = rng.uniform(1.0 - effects.cast, 1.0 + effects.cast, (count, 1, 1, 3))
    images = images * (light[..., None] * cast).astype(np.float32)
    for index in range(count):
        if rng.random() < effects.low_resolution_chance:
            small = round(CROP_SIDE * rng.uniform(*effects.low_resolution))
            image = cv2.resize(images[index], (small, small), interpolation=cv2.INTER_AREA)
            images[index] = cv2.resize(
                image, (CROP_SIDE, CROP_SIDE), interpolation=cv2.INTER_LINEAR
            )
        if rng.random() < effects.blur_chance:
            sigma = rng.uniform(*effects.blur_sigma)
            cv2.GaussianBlur(images[index], (0, 0), sigma, dst=images[index])
    noise_sigma = rng.uniform(*effects.noise_sigma, (count, 1, 1, 1)).astype(np.float32)
    images += rng.standard_normal(images.shape, np.float32) * noise_sigma
    out = np.clip(images + 0.5, 0, 255).astype(np.uint8)
    for index in np.flatnonzero(rng.random(count) < effects.jpeg_chance):
        low, high = effects.jpeg_quality
        quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(low, high + 1))]
        ok, encoded = cv2.imencode(".jpg", out[index], quality)
        if ok:
            out[index] = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out
