"""Dev cards: what a real table adds to our card renderer, for the tuning runs.

:mod:`vision.cards.renderer` draws clean cards: a plain art panel, the sticker
exactly where it belongs, no sleeve. A :class:`DevCard` is a
:class:`~vision.cards.renderer.LaidCard` with a clear sleeve and its glare
stripe, a sticker stuck a few millimetres and degrees off, busy art round the
tag; :class:`DevRenderer` draws them through a webcam-like :class:`DevSensor`.
The scenes are built in :mod:`benchmarks.card_conditions`, their truth in
:mod:`benchmarks.card_truth`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.cards.mat import CARD_SIZE_MM
from vision.cards.renderer import (
    CARD_SCALE,
    STICKER_CENTRE_MM,
    CardRenderer,
    CardScene,
    LaidCard,
    card_art_bgr,
)
from vision.cards.sheet import STICKER_MM, draw_back, draw_sticker, sticker_tag_centre
from vision.parts import photo
from vision.parts.sprites import bgra
from vision.peg_disk.renderer import Sensor

SLEEVE_MM = (66.0, 91.0)
"""A clear sleeve round a 63 x 88 mm card."""


@dataclass(frozen=True)
class DevCard(LaidCard):
    """A laid card with what a real table adds: a sleeve and its glare, a sticker off, busy art."""

    glare: float | None = None
    """A sleeve's glare stripe: its peak share of white (0: a sleeve, no glare; None: no sleeve)."""
    glare_offset_mm: float = 0.0
    glare_deg: float = 0.0
    glare_width_mm: float = 8.0
    sticker_dx: float = 0.0
    sticker_dy: float = 0.0
    sticker_deg: float = 0.0
    art_seed: int | None = None
    """Busy colourful art all over the face (None: the plain art panel)."""


def rot(deg: float) -> np.ndarray:
    """The 2x2 rotation by ``deg`` degrees."""
    angle = math.radians(deg)
    return np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])


def tag_offset_mm(card: LaidCard) -> np.ndarray:
    """Where a card's tag centre lies from the card's centre, in the card's own mm (unturned)."""
    if card.tag_id is None:
        return np.zeros(2)
    dx = getattr(card, "sticker_dx", 0.0)
    dy = getattr(card, "sticker_dy", 0.0)
    deg = getattr(card, "sticker_deg", 0.0)
    sticker_centre = np.array(STICKER_CENTRE_MM) + np.array((dx, dy))
    tag = np.array(sticker_tag_centre()) - np.array(STICKER_MM) / 2
    return sticker_centre + rot(deg) @ tag - np.array(CARD_SIZE_MM) / 2


def card_outline(card: LaidCard, size=CARD_SIZE_MM) -> np.ndarray:
    """The card's four corners in mat mm."""
    w, h = size[0] / 2, size[1] / 2
    local = np.array([(-w, -h), (w, -h), (w, h), (-w, h)])
    return local @ rot(card.angle_deg).T + (card.x, card.y)


def tag_outline(card: LaidCard, side_mm: float = 28.0) -> np.ndarray:
    """The card's tag's four corners in mat mm."""
    half = side_mm / 2
    local = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    deg = getattr(card, "sticker_deg", 0.0) if card.tag_id is not None else 0.0
    centre = tag_offset_mm(card)
    return (local @ rot(deg).T + centre) @ rot(card.angle_deg).T + (card.x, card.y)


def tag_centre(card: LaidCard) -> tuple[float, float]:
    """The card's tag centre in mat mm."""
    point = rot(card.angle_deg) @ tag_offset_mm(card) + (card.x, card.y)
    return float(point[0]), float(point[1])


# --- drawing ---------------------------------------------------------------------------------


def _busy_art(face: np.ndarray, seed: int) -> None:
    """Colourful shapes and strokes all over a face, up to the sticker's edge (in place)."""
    rng = np.random.default_rng(seed)
    height, width = face.shape[:2]
    for _ in range(40):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        kind = rng.integers(3)
        x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
        if kind == 0:
            radius = int(rng.integers(4, 25) * CARD_SCALE / 2.5)
            cv2.circle(face, (x, y), radius, colour, -1, cv2.LINE_AA)
        elif kind == 1:
            end = (int(rng.integers(0, width)), int(rng.integers(0, height)))
            cv2.line(face, (x, y), end, colour, int(rng.integers(2, 8)), cv2.LINE_AA)
        else:
            w, h = (int(v) for v in rng.integers(6, 40, 2))
            cv2.rectangle(face, (x, y), (x + w, y + h), colour, -1)
    # dark hatching: black lines near the tag are what a square finder trips on
    for _ in range(6):
        x = int(rng.integers(0, width))
        cv2.line(face, (x, 0), (x + int(rng.integers(-60, 60)), height), (20, 20, 20), 2)


def _face(card: DevCard) -> np.ndarray:
    """A dev card's face: stock, art (plain or busy), its sticker stuck where the card says."""
    width, height = (round(side * CARD_SCALE) for side in CARD_SIZE_MM)
    face = np.empty((height, width, 3), np.uint8)
    face[:] = (228, 238, 244)
    art = card_art_bgr(card.name or str(card.tag_id))
    if card.art_seed is not None:
        _busy_art(face, card.art_seed)
    frame = round(2.5 * CARD_SCALE)
    cv2.rectangle(face, (0, 0), (width - 1, height - 1), art, frame)
    if card.art_seed is None:
        top_left = (round(6 * CARD_SCALE), round(6 * CARD_SCALE))
        cv2.rectangle(face, top_left, (width - top_left[0], round(32 * CARD_SCALE)), art, -1)
    sticker = draw_sticker(card.tag_id, card.name or f"card {card.tag_id}", CARD_SCALE)
    s_h, s_w = sticker.shape[:2]
    centre = (
        (STICKER_CENTRE_MM[0] + card.sticker_dx) * CARD_SCALE,
        (STICKER_CENTRE_MM[1] + card.sticker_dy) * CARD_SCALE,
    )
    matrix = cv2.getRotationMatrix2D(((s_w - 1) / 2, (s_h - 1) / 2), -card.sticker_deg, 1.0)
    matrix[:, 2] += (centre[0] - (s_w - 1) / 2, centre[1] - (s_h - 1) / 2)
    placed = cv2.warpAffine(sticker, matrix, (width, height), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(np.ones((s_h, s_w), np.float32), matrix, (width, height))
    out = face.astype(np.float32)
    out += (placed.astype(np.float32) - out) * alpha[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


@lru_cache(maxsize=1024)
def dev_sprite(card: DevCard) -> np.ndarray:
    """A dev card from above at CARD_SCALE on a square BGRA sprite (sleeve and glare drawn)."""
    plain = replace(card, x=0.0, y=0.0, angle_deg=0.0)
    face = draw_back(CARD_SCALE) if card.tag_id is None else _face(plain)
    face = face.astype(np.float32)
    height, width = face.shape[:2]
    outer = SLEEVE_MM if card.glare is not None else CARD_SIZE_MM
    sleeve_h = round(outer[1] * CARD_SCALE)
    side = max(height, sleeve_h) | 1
    colour = np.zeros((side, side, 3), np.float32)
    alpha = np.zeros((side, side), np.float32)
    if card.glare is not None:
        s_w = round(outer[0] * CARD_SCALE)
        left, top = (side - s_w) // 2, (side - sleeve_h) // 2
        colour[top : top + sleeve_h, left : left + s_w] = 235
        alpha[top : top + sleeve_h, left : left + s_w] = 0.25
    left, top = (side - width) // 2, (side - height) // 2
    colour[top : top + height, left : left + width] = face
    alpha[top : top + height, left : left + width] = 1.0
    if card.glare is not None:
        colour = colour * 0.94 + 255 * 0.06  # the plastic's haze
        ys, xs = np.mgrid[0:side, 0:side].astype(np.float32)
        mid = (side - 1) / 2
        angle = math.radians(card.glare_deg)
        tag = tag_offset_mm(plain) * CARD_SCALE  # the stripe's offset is from the tag's centre
        across = (xs - mid - tag[0]) * math.cos(angle) + (ys - mid - tag[1]) * math.sin(angle)
        across -= card.glare_offset_mm * CARD_SCALE
        sigma = card.glare_width_mm * CARD_SCALE / 2
        gain = card.glare * np.exp(-0.5 * (across / sigma) ** 2)
        colour += (255 - colour) * gain[..., None]
        alpha = np.maximum(alpha, np.where(alpha > 0, gain, 0))
    return bgra(colour, alpha)


@dataclass(frozen=True)
class DevSensor(Sensor):
    """A webcam's sensor: fresh colour noise in every frame, after its lens blur, before its JPEG.

    ``chroma`` is the noise's sigma per channel (grey levels, at mid grey); ``grain_px`` the
    reach (pixels) of its blotches (demosaicing spreads a pixel's noise to its neighbours: 0,
    every pixel its own); ``shot`` the share of the sigma that grows with the light (photon
    noise: sigma times sqrt(level / 128)), the rest being the same everywhere.
    """

    chroma: float = 0.0
    grain_px: float = 0.0
    shot: float = 0.0


class DevRenderer(CardRenderer):
    """Draws scenes of :class:`DevCard` s (and plain LaidCards) through a :class:`DevSensor`."""

    def sprite(self, card: LaidCard) -> np.ndarray:
        """A dev card's sprite (its sleeve, glare, sticker off and art drawn)."""
        return dev_sprite(card if isinstance(card, DevCard) else DevCard(*_fields(card)))

    def sense(self, image: np.ndarray, scene: CardScene, rng: np.random.Generator) -> np.ndarray:
        """The sensor; a :class:`DevSensor`'s colour noise before the JPEG."""
        sensor = scene.sensor
        chroma = getattr(sensor, "chroma", 0.0)
        if chroma <= 0:
            return super().sense(image, scene, rng)
        image = photo.sense(image, replace(sensor, jpeg=None), rng)
        noise = rng.normal(0.0, 1.0, image.shape).astype(np.float32)
        if sensor.grain_px > 0:
            noise = cv2.GaussianBlur(noise, (0, 0), sensor.grain_px)
            noise /= max(float(noise.std()), 1e-6)
        level = image.astype(np.float32)
        sigma = chroma * ((1 - sensor.shot) + sensor.shot * np.sqrt(level / 128))
        image = np.clip(level + noise * sigma, 0, 255).astype(np.uint8)
        return photo.sense(image, Sensor(jpeg=sensor.jpeg), rng)


def _fields(card: LaidCard) -> tuple:
    return card.x, card.y, card.tag_id, card.name, card.angle_deg
