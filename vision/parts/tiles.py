"""The look of a C.O.G. letter tile, a face-down tile and a star token, drawn as sprites.

The synthetic table pastes these sprites onto the mats and the board, and the
letter classifier (:mod:`vision.parts.letters`) trains on them, so both see the same
tiles. A sprite is BGRA: the alpha channel is the shape (a rounded square tile,
a round token), transparent outside it.

Letters come from ``cv2.putText`` only, so a glyph is drawn the same on every
machine with the same OpenCV. Under OpenCV 5 the Hershey face constants select
OpenCV's embedded fonts (the plain faces a sans, the script faces an italic)
and ``cv2.FONT_ITALIC`` and a thickness above 2 change nothing; a
:class:`Font` therefore slants (``italic``) and weights (``thickness``) the
glyph itself, the same way under any OpenCV version.

>>> sprite = draw_tile("A", 28, TRAINING_FONTS[0])
>>> sprite.shape, sprite.dtype.name, int(sprite[0, 0, 3]), int(sprite[14, 14, 3])
((28, 28, 4), 'uint8', 0, 255)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.layout import LETTERS, STAR, WILD
from vision.parts.sprites import rounded_square

BGR = tuple[int, int, int]

SUPERSAMPLE = 4
"""Sprites are drawn this many times larger, then shrunk (smooth edges at any size)."""
LETTER_HEIGHT = 0.6
"""Height of a letter's ink at ``Font.scale == 1``, as a fraction of the tile side."""
LETTER_MAX_WIDTH = 0.8
"""No letter's ink is wider than this fraction of the tile side (W and M shrink to fit)."""
ITALIC_SLANT = 0.21
"""Horizontal shift per unit of height of an italic glyph (about 12 degrees)."""
STROKE_GROWTH = 0.06
"""Each side of a stroke grows by this fraction of the letter height per unit of extra thickness."""
CORNER_RADIUS = 0.14
"""Corner radius of a tile as a fraction of its side."""
_GLYPH_FONT_SCALE = 4.0
_GLYPH_CANVAS = 512


@dataclass(frozen=True)
class TileLook:
    """The physical look of a tile set (BGR colours and sizes relative to a grid cell)."""

    face: BGR = (200, 228, 238)
    """The cream face of a letter tile."""
    ink: BGR = (28, 26, 24)
    """The near-black letter."""
    back: BGR = (110, 95, 30)
    """The dark teal back of a tile (seen when a tile lies face down: a wild)."""
    star: BGR = (40, 190, 235)
    """The gold star token."""
    side_ratio: float = 0.86
    """Tile side / grid cell side."""
    star_ratio: float = 0.7
    """Star token diameter / grid cell side."""
    back_line: BGR | None = None
    """The inset line and ring on a tile's back (None: the back lightened, :func:`back_line`)."""
    star_mark: BGR | None = None
    """The star drawn on the token (None: the token's colour darkened, :func:`star_mark`)."""
    grain: float = 0.0
    """Wood grain on the face and the back: 0 none (plastic, ivory) to 1 strong (drawn only)."""

    def __post_init__(self) -> None:
        """Refuse sizes that cannot fit a cell, colours that are not BGR, grain out of 0..1."""
        for name in ("side_ratio", "star_ratio"):
            value = getattr(self, name)
            if not 0.2 <= value <= 1.0:
                raise ValueError(f"TileLook.{name} is {value}; it must lie in [0.2, 1.0]")
        for name in ("face", "ink", "back", "star", "back_line", "star_mark"):
            colour = getattr(self, name)
            if colour is not None and (
                len(colour) != 3 or not all(0 <= int(v) <= 255 for v in colour)
            ):
                raise ValueError(f"TileLook.{name} is {colour}; expected three values 0..255 (BGR)")
        if not 0.0 <= self.grain <= 1.0:
            raise ValueError(f"TileLook.grain is {self.grain}; it must lie in [0, 1]")

    def back_line_bgr(self) -> BGR:
        """The colour of the inset line on a tile's back."""
        if self.back_line is not None:
            return self.back_line
        return tuple(min(255, int(channel * 1.35) + 20) for channel in self.back)  # type: ignore[return-value]

    def star_mark_bgr(self) -> BGR:
        """The colour of the star drawn on a star token."""
        if self.star_mark is not None:
            return self.star_mark
        return tuple(int(channel * 0.55) for channel in self.star)  # type: ignore[return-value]


REFERENCE_LOOK = TileLook()

DEVELOPMENT_LOOKS: tuple[TileLook, ...] = (
    TileLook(face=(122, 170, 212), back=(70, 98, 140), star=(40, 190, 235), grain=0.8),
    TileLook(
        face=(208, 232, 242), back=(48, 44, 168), star=(200, 200, 205), star_mark=(40, 40, 170)
    ),
    TileLook(
        face=(236, 236, 232),
        ink=(60, 30, 20),
        back=(150, 60, 30),
        star=(30, 30, 32),
        star_mark=(50, 200, 240),
    ),
    TileLook(
        face=(95, 150, 200),
        ink=(20, 20, 22),
        back=(45, 45, 48),
        back_line=(70, 70, 74),
        star=(60, 60, 200),
        grain=0.5,
    ),
    TileLook(face=(190, 225, 240), back=(60, 130, 60), star=(40, 190, 235), grain=0.3),
    TileLook(
        face=(200, 226, 236), back=(120, 40, 40), star=(205, 230, 238), star_mark=(40, 40, 150)
    ),
)
"""Other tile sets our renderer draws to develop and test the teach step on (never the held-out
renderer's): wood with a stained back, ivory with a red back and a silver token, white plastic
with a blue back and a black token, dark wood with a black back, pale wood with a green back,
cream tiles with a cream token whose red star alone tells it from a tile."""


@dataclass(frozen=True)
class Font:
    """How a letter is printed: an OpenCV (Hershey) face, slant, stroke weight and size."""

    face: int = cv2.FONT_HERSHEY_SIMPLEX
    """A ``cv2.FONT_HERSHEY_*`` constant (without ``cv2.FONT_ITALIC``)."""
    italic: bool = False
    """Slant the glyph by :data:`ITALIC_SLANT` (done here: OpenCV 5 ignores FONT_ITALIC)."""
    thickness: float = 1.0
    """Stroke weight: 1.0 the face's own; each 1.0 more grows every stroke side by
    :data:`STROKE_GROWTH` of the letter height (below 1.0 thins it)."""
    scale: float = 1.0
    """Letter size: 1.0 makes the ink :data:`LETTER_HEIGHT` of the tile side high."""

    def __post_init__(self) -> None:
        """Refuse a face OpenCV does not have or a size that does not fit a tile."""
        if not 0 <= self.face <= cv2.FONT_HERSHEY_SCRIPT_COMPLEX:
            raise ValueError(f"Font.face {self.face} is not a cv2.FONT_HERSHEY_* constant")
        if not 0.3 <= self.thickness <= 3.0:
            raise ValueError(f"Font.thickness is {self.thickness}; it must lie in [0.3, 3.0]")
        if not 0.5 <= self.scale <= 1.4:
            raise ValueError(f"Font.scale is {self.scale}; it must lie in [0.5, 1.4]")


TRAINING_FONTS: tuple[Font, ...] = (
    Font(cv2.FONT_HERSHEY_SIMPLEX),
    Font(cv2.FONT_HERSHEY_SIMPLEX, thickness=1.3, scale=1.08),
    Font(cv2.FONT_HERSHEY_SIMPLEX, thickness=1.6, scale=0.95),
    Font(cv2.FONT_HERSHEY_PLAIN, thickness=1.3, scale=1.05),
    Font(cv2.FONT_HERSHEY_DUPLEX),
    Font(cv2.FONT_HERSHEY_DUPLEX, thickness=2.1, scale=0.95),
    Font(cv2.FONT_HERSHEY_COMPLEX_SMALL, scale=0.9),
    Font(cv2.FONT_HERSHEY_COMPLEX_SMALL, thickness=1.8, scale=1.0),
)
"""The fonts the default letter classifier trains on: upright, regular to black weight."""

HELD_OUT_FONTS: tuple[Font, ...] = (
    Font(cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, thickness=1.2),
    Font(cv2.FONT_HERSHEY_TRIPLEX, thickness=1.8, scale=1.05),
    Font(cv2.FONT_HERSHEY_COMPLEX, italic=True, thickness=1.3, scale=0.95),
)
"""Fonts never trained on (benchmark, tests, the mock table's owner's tiles): OpenCV's
italic face (trained on no slanted glyph), a bold face in a weight and size between the
training ones, a slanted bold."""

DEVELOPMENT_FONTS: tuple[Font, ...] = (
    Font(cv2.FONT_HERSHEY_SIMPLEX, thickness=0.8, scale=1.1),
    Font(cv2.FONT_HERSHEY_SIMPLEX, thickness=2.2, scale=1.0),
    Font(cv2.FONT_HERSHEY_SIMPLEX, italic=True, thickness=0.9, scale=1.1),
    Font(cv2.FONT_HERSHEY_DUPLEX, thickness=1.3, scale=1.15),
    Font(cv2.FONT_HERSHEY_DUPLEX, thickness=2.6, scale=0.9),
    Font(cv2.FONT_HERSHEY_DUPLEX, italic=True, thickness=1.0, scale=1.0),
    Font(cv2.FONT_HERSHEY_PLAIN, thickness=1.8, scale=1.0),
    Font(cv2.FONT_HERSHEY_COMPLEX_SMALL, italic=True, thickness=1.3, scale=1.1),
    Font(cv2.FONT_HERSHEY_SCRIPT_COMPLEX, thickness=1.0, scale=1.0),
    Font(cv2.FONT_HERSHEY_SCRIPT_COMPLEX, thickness=1.6, scale=1.1),
)
"""Fonts never trained on that the reader's rules are tuned on (``--fonts development`` of
the benchmarks), so the held-out fonts stay unseen: the training faces in other weights and
sizes (from hairline to heavier than any trained), slanted, and the second script face."""


def draw_tile(face: str, side_px: int, font: Font, look: TileLook = REFERENCE_LOOK) -> np.ndarray:
    """A BGRA sprite ``side_px`` square of one tile seen from above, upright (read-only, cached).

    ``face`` is a letter ``"A"``..``"Z"`` (a cream tile with the letter in ink),
    ``"wild"`` (a tile lying face down: its back) or ``"star"`` (a round star
    token ``side_px`` across). Alpha is the shape; outside it the sprite is
    transparent. Copy the result before writing into it.
    """
    if face not in LETTERS and face not in (WILD, STAR):
        raise ValueError(f"unknown tile face {face!r}: expected a letter A..Z, 'wild' or 'star'")
    if not 4 <= side_px <= 1024:
        raise ValueError(f"tile side {side_px} px is outside 4..1024")
    return _cached_sprite(face, int(side_px), font, look)


@lru_cache(maxsize=4096)
def _cached_sprite(face: str, side_px: int, font: Font, look: TileLook) -> np.ndarray:
    if face == STAR:
        sprite = _star_token(side_px, look)
    elif face == WILD:
        sprite = _tile_back(side_px, look)
    else:
        sprite = _letter_tile(face, side_px, font, look)
    sprite.flags.writeable = False
    return sprite


def _letter_tile(letter: str, side_px: int, font: Font, look: TileLook) -> np.ndarray:
    """A cream rounded square with a faint rim and the letter centred in ink."""
    big = side_px * SUPERSAMPLE
    shape = rounded_square(big, CORNER_RADIUS)
    colour = np.empty((big, big, 3), np.float32)
    colour[:] = look.face
    colour = _grained(colour, look.grain, ord(letter))
    rim = shape.astype(np.float32) - cv2.erode(shape, _disk(max(1, big // 28))).astype(np.float32)
    colour *= 1.0 - 0.12 * (rim[..., None] / 255.0)
    ink = _glyph_on_tile(letter, big, font) / 255.0
    colour = colour * (1.0 - ink[..., None]) + np.float32(look.ink) * ink[..., None]
    return _shrink(colour, shape, side_px)


def _tile_back(side_px: int, look: TileLook) -> np.ndarray:
    """The back of a tile: the back colour with a lighter inset border and a small centre ring."""
    big = side_px * SUPERSAMPLE
    shape = rounded_square(big, CORNER_RADIUS)
    colour = np.empty((big, big, 3), np.uint8)
    colour[:] = look.back
    lighter = tuple(int(v) for v in look.back_line_bgr())
    inset = big // 7
    stroke = max(1, big // 30)
    cv2.rectangle(colour, (inset, inset), (big - 1 - inset, big - 1 - inset), lighter, stroke)
    cv2.circle(colour, (big // 2, big // 2), big // 8, lighter, stroke, cv2.LINE_AA)
    return _shrink(_grained(colour.astype(np.float32), look.grain, 1), shape, side_px)


def _star_token(side_px: int, look: TileLook) -> np.ndarray:
    """A round gold token with a darker five-pointed star on it."""
    big = side_px * SUPERSAMPLE
    centre = (big - 1) / 2
    shape = np.zeros((big, big), np.uint8)
    cv2.circle(shape, (big // 2, big // 2), big // 2 - 1, 255, -1, cv2.LINE_AA)
    colour = np.empty((big, big, 3), np.uint8)
    colour[:] = look.star
    darker = tuple(int(v) for v in look.star_mark_bgr())
    outer, inner = 0.40 * big, 0.16 * big
    points = []
    for index in range(10):
        angle = -math.pi / 2 + index * math.pi / 5
        radius = outer if index % 2 == 0 else inner
        points.append((centre + radius * math.cos(angle), centre + radius * math.sin(angle)))
    polygon = np.round(np.array(points) * 16).astype(np.int32)
    cv2.fillPoly(colour, [polygon], darker, cv2.LINE_AA, shift=4)
    return _shrink(colour.astype(np.float32), shape, side_px)


GRAIN_DEPTH = 0.16
"""The darkest streak of the strongest grain darkens the wood by this share."""


def _grained(colour: np.ndarray, grain: float, seed: int) -> np.ndarray:
    """``colour`` (float BGR, square) with wood grain of strength ``grain``: long streaks
    along one direction, slightly wavy, darker and lighter (each tile its own, by ``seed``)."""
    if grain <= 0:
        return colour
    side = colour.shape[0]
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, 1.0, (side, max(4, side // 8))).astype(np.float32)
    noise = cv2.resize(noise, (side, side), interpolation=cv2.INTER_CUBIC)
    streaks = cv2.GaussianBlur(noise, (0, 0), sigmaX=side / 6, sigmaY=side / 90)
    rows = np.arange(side, dtype=np.float32)[:, None]
    wave = np.sin(rows / side * rng.uniform(8, 16) + streaks * 2.0)
    gain = 1.0 - grain * GRAIN_DEPTH * (0.5 + 0.5 * wave)
    gain *= 1.0 + 0.5 * grain * GRAIN_DEPTH * streaks / max(float(streaks.std()), 1e-6)
    return np.clip(colour * gain[..., None], 0, 255)


def _shrink(colour: np.ndarray, shape: np.ndarray, side_px: int) -> np.ndarray:
    """Area-average a supersampled colour image and shape mask down to one BGRA sprite."""
    small_colour = cv2.resize(colour, (side_px, side_px), interpolation=cv2.INTER_AREA)
    small_alpha = cv2.resize(shape, (side_px, side_px), interpolation=cv2.INTER_AREA)
    sprite = np.empty((side_px, side_px, 4), np.uint8)
    sprite[..., :3] = np.clip(np.round(small_colour), 0, 255).astype(np.uint8)
    sprite[..., 3] = small_alpha
    return sprite


def _glyph_on_tile(letter: str, big: int, font: Font) -> np.ndarray:
    """The letter's ink (0..255) on a ``big`` square canvas, sized and centred by its ink box."""
    glyph = _glyph_mask(letter, font.face, font.italic, font.thickness)
    height, width = glyph.shape
    target_height = LETTER_HEIGHT * font.scale * big
    zoom = min(target_height / height, LETTER_MAX_WIDTH * big / width)
    new_w, new_h = max(1, round(width * zoom)), max(1, round(height * zoom))
    resized = cv2.resize(glyph, (new_w, new_h), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((big, big), np.uint8)
    top, left = (big - new_h) // 2, (big - new_w) // 2
    canvas[top : top + new_h, left : left + new_w] = resized
    return canvas.astype(np.float32)


@lru_cache(maxsize=512)
def _glyph_mask(letter: str, face: int, italic: bool, thickness: float) -> np.ndarray:
    """The letter drawn large by ``cv2.putText``, weighted, slanted and cropped to its ink."""
    canvas = np.zeros((_GLYPH_CANVAS, _GLYPH_CANVAS), np.uint8)
    (text_w, text_h), _ = cv2.getTextSize(letter, face, _GLYPH_FONT_SCALE, 1)
    origin = ((_GLYPH_CANVAS - text_w) // 2, (_GLYPH_CANVAS + text_h) // 2)
    cv2.putText(canvas, letter, origin, face, _GLYPH_FONT_SCALE, 255, 1, cv2.LINE_AA)
    canvas = _cropped(canvas)
    radius = round(abs(thickness - 1.0) * STROKE_GROWTH * canvas.shape[0])
    if radius > 0:
        padded = cv2.copyMakeBorder(canvas, *(4 * [radius + 2]), cv2.BORDER_CONSTANT, value=0)
        morph = cv2.dilate if thickness > 1.0 else cv2.erode
        canvas = _cropped(morph(padded, _disk(radius)))
    if italic:
        height, width = canvas.shape
        extra = math.ceil(ITALIC_SLANT * height)
        slant = np.float32([[1, -ITALIC_SLANT, ITALIC_SLANT * height], [0, 1, 0]])
        canvas = cv2.warpAffine(canvas, slant, (width + extra, height), flags=cv2.INTER_LINEAR)
        canvas = _cropped(canvas)
    canvas.flags.writeable = False
    return canvas


def _cropped(mask: np.ndarray) -> np.ndarray:
    """The smallest rectangle of ``mask`` holding every inked pixel."""
    rows = np.flatnonzero(mask.max(axis=1) > 0)
    cols = np.flatnonzero(mask.max(axis=0) > 0)
    return np.ascontiguousarray(mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1])


def _disk(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
