"""The synthetic camera for a card mat: the mat, tagged cards face up, card backs, hands.

Seeded and deterministic, like :mod:`vision.parts.renderer` (whose camera
framing, hands, light and sensor it reuses): the mat is drawn by
:func:`vision.cards.sheet.draw_mat` and laid, turned, on a wooden table; each
card (a white face with a coloured art panel and its tag sticker, or the
printed back) lies on it where the scene says, turned, with a drop shadow;
the table is warped once into the picture; hands, light, blur, noise and
JPEG follow. The composed table is cached per scene, so a still table costs
mostly the warp and the sensor.

>>> from vision.cards.mat import standard_mat
>>> mat = standard_mat(4)
>>> scene = CardScene(mat, (LaidCard(150, 85, 7, "Propaganda"), LaidCard(340, 245, None)))
>>> render_cards(scene, (640, 360), seed=1).shape
(360, 640, 3)
"""

from __future__ import annotations

import math
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.cards.mat import CARD_SIZE_MM, CardMatLayout
from vision.cards.sheet import STICKER_MM, STICKER_ON_CARD_MM, draw_back, draw_mat, draw_sticker
from vision.part_sheet import sheet_matrix
from vision.parts import photo
from vision.parts.renderer import table_homography
from vision.parts.sprites import Stamp, bgra, stamp_on
from vision.parts.table_scenes import random_camera as parts_camera
from vision.peg_disk.renderer import TABLE_BGR, Camera, Hand, Lighting, Sensor

TABLE_MARGIN_MM = 70.0
"""Bare table around the mat in a scene."""
CARD_SCALE = 2.5
"""Texture pixels per mm of the composed table (about 1.5 x a 1080p frame's)."""
STICKER_CENTRE_MM = STICKER_ON_CARD_MM
"""Where a card's sticker is centred on its face, mm from the card's top-left (as printed)."""


@dataclass(frozen=True)
class LaidCard:
    """One card on the mat: its centre (mat mm), its tag (None: face down), its turn (degrees)."""

    x: float
    y: float
    tag_id: int | None
    name: str = ""
    angle_deg: float = 0.0


@dataclass(frozen=True)
class MatPose:
    """Where the mat lies on the table: its centre's offset from the table centre (mm), its turn."""

    dx_mm: float = 0.0
    dy_mm: float = 0.0
    angle_deg: float = 0.0


@dataclass(frozen=True)
class CardScene:
    """Everything one synthetic frame of a card mat shows; hands are in mat mm."""

    mat: CardMatLayout
    cards: tuple[LaidCard, ...] = ()
    pose: MatPose = field(default_factory=MatPose)
    camera: Camera = field(default_factory=Camera)
    lighting: Lighting = field(default_factory=Lighting)
    sensor: Sensor = field(default_factory=Sensor)
    hands: tuple[Hand, ...] = ()

    @property
    def table_size_mm(self) -> tuple[float, float]:
        """The table the camera frames: the mat and a margin round it."""
        side = 2 * TABLE_MARGIN_MM
        return self.mat.width_mm + side, self.mat.height_mm + side


def mat_to_table(scene: CardScene) -> np.ndarray:
    """3x3 map from mat mm to table mm."""
    table_w, table_h = scene.table_size_mm
    angle = math.radians(scene.pose.angle_deg)
    cos, sin = math.cos(angle), math.sin(angle)
    centre = np.array(
        [[1, 0, -scene.mat.width_mm / 2], [0, 1, -scene.mat.height_mm / 2], [0, 0, 1]]
    )
    turn = np.array(
        [
            [cos, -sin, table_w / 2 + scene.pose.dx_mm],
            [sin, cos, table_h / 2 + scene.pose.dy_mm],
            [0, 0, 1.0],
        ]
    )
    return turn @ centre


def mat_homography(scene: CardScene, size: tuple[int, int]) -> np.ndarray:
    """The mat's true map from its mm to image pixels (for tests and benchmarks)."""
    return table_homography(scene.table_size_mm, scene.camera, size) @ mat_to_table(scene)


class CardRenderer:
    """Draws card scenes; caches the bare table and the composed table of the last scenes."""

    def __init__(self, cache_size: int = 4) -> None:
        self._composed: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def render(self, scene: CardScene, size: tuple[int, int] = (1920, 1080), seed: int = 0):
        """The BGR uint8 frame of ``scene`` at ``size`` (width, height)."""
        rng = np.random.default_rng(seed)
        table = table_homography(scene.table_size_mm, scene.camera, size)
        texture = self._composed_table(scene)
        image = photo.table_in_view(texture, table, CARD_SCALE, size)
        to_table = mat_to_table(scene)
        for hand in scene.hands:
            centre = to_table @ np.array([*hand.centre, 1.0])
            image = photo.draw_hand(image, replace(hand, centre=(centre[0], centre[1])), table, rng)
        image = photo.light(image, scene.lighting)
        return self.sense(image, scene, rng)

    def sprite(self, card: LaidCard) -> np.ndarray:
        """A card from above at :data:`CARD_SCALE` (BGRA): what a subclass draws otherwise."""
        return card_sprite(card.tag_id, card.name)

    def sense(self, image: np.ndarray, scene: CardScene, rng: np.random.Generator) -> np.ndarray:
        """The camera's sensor on the lit picture: blur, noise, JPEG (a subclass may add more)."""
        return photo.sense(image, scene.sensor, rng)

    def _composed_table(self, scene: CardScene) -> np.ndarray:
        key = (scene.mat, scene.pose, scene.cards)
        texture = self._composed.get(key)
        if texture is None:
            texture = _bare_table(scene.mat, scene.pose, scene.table_size_mm).copy()
            to_texture = sheet_matrix(CARD_SCALE) @ mat_to_table(scene)
            for card in scene.cards:
                centre = to_texture @ np.array([card.x, card.y, 1.0])
                sprite = self.sprite(card)
                turn = card.angle_deg + scene.pose.angle_deg
                stamp_on(texture, Stamp(sprite, (float(centre[0]), float(centre[1])), turn))
            self._composed[key] = texture
        self._composed.move_to_end(key)
        while len(self._composed) > self._cache_size:
            self._composed.popitem(last=False)
        return texture


@lru_cache(maxsize=4)
def _bare_table(mat: CardMatLayout, pose: MatPose, table_size_mm: tuple[float, float]):
    """The wooden table with the mat laid on it at :data:`CARD_SCALE` (read-only)."""
    width, height = (round(side * CARD_SCALE) for side in table_size_mm)
    grain = np.random.default_rng(11).normal(0, 1, (max(2, height // 4), max(2, width // 4)))
    grain = cv2.GaussianBlur(grain, (0, 0), sigmaX=6, sigmaY=1.2)
    gain = (1 + 0.08 * grain / max(float(grain.std()), 1e-6)).astype(np.float32)
    gain = cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)
    table = cv2.merge([np.clip(gain * channel, 0, 255).astype(np.uint8) for channel in TABLE_BGR])
    sheet = draw_mat(mat, CARD_SCALE)
    scene = CardScene(mat, pose=pose)
    to_table = (
        sheet_matrix(CARD_SCALE) @ mat_to_table(scene) @ np.linalg.inv(sheet_matrix(CARD_SCALE))
    )
    laid = cv2.warpAffine(sheet, to_table[:2], (width, height), flags=cv2.INTER_LINEAR)
    cover = cv2.warpAffine(np.ones(sheet.shape[:2], np.float32), to_table[:2], (width, height))
    table = table.astype(np.float32)
    table += (laid.astype(np.float32) - table) * cover[..., None]
    table = np.clip(table + 0.5, 0, 255).astype(np.uint8)
    table.flags.writeable = False
    return table


def card_art_bgr(name: str) -> tuple[int, int, int]:
    """The colour of a card's art panel (stable per name; mid tones, any hue)."""
    hue = zlib.crc32(name.encode()) % 180
    pixel = cv2.cvtColor(np.array([[[hue, 150, 170]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return int(pixel[0]), int(pixel[1]), int(pixel[2])


@lru_cache(maxsize=512)
def card_sprite(tag_id: int | None, name: str = "") -> np.ndarray:
    """A card seen from above at :data:`CARD_SCALE`: its face (or back) on a square BGRA sprite."""
    face = draw_back(CARD_SCALE) if tag_id is None else _card_face(tag_id, name)
    height, width = face.shape[:2]
    side = height | 1
    colour = np.zeros((side, side, 3), np.float32)
    alpha = np.zeros((side, side), np.float32)
    left, top = (side - width) // 2, (side - height) // 2
    colour[top : top + height, left : left + width] = face
    alpha[top : top + height, left : left + width] = 1.0
    return bgra(colour, alpha)


def _card_face(tag_id: int, name: str) -> np.ndarray:
    """A card's face: cream stock, a coloured art panel, a thin frame, its tag sticker."""
    width, height = (round(side * CARD_SCALE) for side in CARD_SIZE_MM)
    face = np.empty((height, width, 3), np.uint8)
    face[:] = (228, 238, 244)
    art = card_art_bgr(name or str(tag_id))
    frame = round(2.5 * CARD_SCALE)
    cv2.rectangle(face, (0, 0), (width - 1, height - 1), art, frame)
    cv2.rectangle(
        face,
        (round(6 * CARD_SCALE), round(6 * CARD_SCALE)),
        (width - round(6 * CARD_SCALE), round(32 * CARD_SCALE)),
        art,
        -1,
    )
    sticker = draw_sticker(tag_id, name or f"card {tag_id}", CARD_SCALE)
    s_h, s_w = sticker.shape[:2]
    left = round((STICKER_CENTRE_MM[0] - STICKER_MM[0] / 2) * CARD_SCALE)
    top = round((STICKER_CENTRE_MM[1] - STICKER_MM[1] / 2) * CARD_SCALE)
    face[top : top + s_h, left : left + s_w] = sticker
    return face


_DEFAULT = CardRenderer()


def render_cards(scene: CardScene, size: tuple[int, int] = (1920, 1080), seed: int = 0):
    """The BGR uint8 frame of ``scene`` (one shared renderer and its cache)."""
    return _DEFAULT.render(scene, size, seed)


def random_camera(rng: np.random.Generator) -> tuple[Camera, Lighting, Sensor]:
    """A camera over the mat, its light and its sensor, in the ranges of the printed parts'
    :func:`vision.parts.table_scenes.random_camera`."""
    return parts_camera(rng, 15.0, 255.0)


def random_card_scene(
    rng: np.random.Generator, mat: CardMatLayout, cards: tuple[LaidCard, ...] = ()
) -> CardScene:
    """``cards`` on ``mat``, the mat nudged and turned a little, under a random camera and light."""
    pose = MatPose(
        float(rng.uniform(-20, 20)), float(rng.uniform(-15, 15)), float(rng.uniform(-6, 6))
    )
    camera, lighting, sensor = random_camera(rng)
    return CardScene(mat, cards, pose, camera, lighting, sensor)
