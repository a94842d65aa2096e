"""Held-out frames of the card mat, drawn apart from the readers, with their truth.

The mat is the standard card mat (``vision.cards.mat.standard_mat``, the same
as the mock profile's ``[cards]``): 680 x 490 mm, deep green, DICT_4X4_50
markers 40-43 (36 mm, on white) in the corners, a zone per seat and the
centre zone, outlined and named. Cards are 63 x 88 mm with busy colourful art
and the sticker ``cogtable cards print`` prints (58 x 36 mm, an AprilTag
36h11 tag of 28 mm on white 4 mm from its left edge, the card's name beside
it, ``#id deck`` under it) stuck by hand at (31.5, 52) mm on the card face, a
few mm and degrees off. A card face down shows its back: the printed back
(deep red lattice, tag 586 on a white square) or the game's own back art with
the back sticker (tag 586 on white). Tag ids and names come from the game's
``card_tags.toml``.

Seeds: only seeds >= 9_000_000 are drawn; readers never tune on these frames
or seeds. A seed fixes the deal (which cards lie where, how), the camera, the
light and the sleeves; ``frame_index`` fixes only the sensor noise.

Conditions (:class:`Condition`; combine several by passing a set):

- ``plain``: face-up cards, one or two per zone, turned up to 12 degrees,
  camera within 6 degrees of straight down, mild noise, JPEG 85-95;
- ``tilted``: the camera 10-20 degrees from straight down;
- ``rotated``: cards turned to any angle;
- ``sleeves``: every card in a clear sleeve with one or two soft glare
  stripes peaking at 10-40% of white;
- ``piles``: piles (lower cards showing 0-40%) and fans in the zones;
- ``backs``: face-down cards (single and piled), half of them sleeved;
- ``hand``: a hand over a card;
- ``uneven``: a strong light gradient and a lamp's hot spot;
- ``noisy``: a noisy webcam: shot, read and chroma noise, JPEG 50-75.

Truth (:class:`CardsTruth`): for every card on the mat (:class:`CardSeen`)
its tag id, name and deck, face up or down, zone, layer (0 at the bottom of
its pile), whether it tops its pile, the share of its area and of its tag
visible in the frame (not under other cards, a hand, or off the frame), the
glare peak over its tag, its corners and its tag's corners in the image; for
every zone (:class:`ZoneSeen`) the face-up cards fully visible, the top card,
the backs, whether a card in it is partly covered, and whether a hand is over
it; and the mat-to-image homography.

>>> from benchmarks.held_out.cards import render_still
>>> frame, truth = render_still("plain", 9_000_000, 0, (1280, 720))
>>> frame.shape, all(card.face_up for card in truth.cards)
((720, 1280, 3), True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

import cv2
import numpy as np

from benchmarks.held_out import textures
from benchmarks.held_out.hands import HandLayer, draw_hand, hand_toward
from benchmarks.held_out.optics import (
    HELD_OUT_SEED_MIN,
    Box,
    Camera,
    Lamp,
    Sensor,
    blend,
    check_seed,
    check_size,
    expose,
    grid_alpha,
    lens,
    look_down,
    plane_field,
    polygon_alpha,
    rng_for,
    vignette,
)
from cogtable.card_decks import CardTag, load_deck
from vision.cards.mat import CardMatLayout, standard_mat

CARD_MM = (63.0, 88.0)
STICKER_MM = (58.0, 36.0)
TAG_MM = 28.0
TAG_INSET_MM = 4.0
STICKER_ON_CARD_MM = (31.5, 52.0)
"""Where ``cogtable cards print``'s sticker goes on a card face (its centre, from the card's
top-left), as vision/cards/sheet.py lays it out; the values above are its sizes."""
SLEEVE_MM = (66.0, 91.0)
BACK_ID = 586
"""Every card back's tag (games/*/card_tags.toml)."""
BACK_QUIET_MM = TAG_MM / 2 + 5.0
"""Half the white square round the back's tag."""
TAG_CELLS = 8
"""An AprilTag 36h11 tag printed with its black border: 8 x 8 modules."""
MAT_SRGB = (62, 112, 38)
ZONE_SRGB = (150, 200, 140)
BACK_SRGB = (48, 34, 128)
BACK_LINE_SRGB = (80, 70, 170)
FULLY_VISIBLE = 0.999
"""A card or tag showing at least this share of itself counts as fully visible."""


class Condition(StrEnum):
    """What a card mat frame is drawn under (see the module docstring)."""

    PLAIN = "plain"
    TILTED = "tilted"
    ROTATED = "rotated"
    SLEEVES = "sleeves"
    PILES = "piles"
    BACKS = "backs"
    HAND = "hand"
    UNEVEN = "uneven"
    NOISY = "noisy"


Conditions = Condition | str | Iterable[Condition | str]


def parse_conditions(conditions: Conditions) -> frozenset[Condition]:
    """The conditions as a set; ValueError names an unknown one."""
    items = [conditions] if isinstance(conditions, str | Condition) else list(conditions)
    try:
        return frozenset(Condition(str(c)) for c in items)
    except ValueError as error:
        known = ", ".join(c.value for c in Condition)
        raise ValueError(f"unknown condition in {items!r}; known: {known}") from error


def linear(srgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """An 8-bit sRGB-ish colour (BGR) as linear albedo."""
    return tuple(float((v / 255.0) ** 2.2) for v in srgb)


# -- the deal ----------------------------------------------------------------------


@dataclass(frozen=True)
class CardPlacement:
    """One physical card on the mat: which, where (mat mm, its centre), how."""

    tag: CardTag
    face_up: bool
    x: float
    y: float
    angle_deg: float
    """Turned clockwise in the image from upright."""
    layer: int
    """Drawing order over the whole mat: higher lies on top."""
    pile: int
    """Cards of one pile (or fan) share this number; a single card is its own pile."""
    sleeved: bool = False
    sticker_shift: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The sticker's (dx mm, dy mm, turn degrees) off its printed place."""
    back_style: int = 0
    """0: the printed back (red lattice); 1: the game's back art with the back sticker."""


def deal(
    conditions: frozenset[Condition], seed: int, game: str = "commissars", seats: int = 6
) -> tuple[CardPlacement, ...]:
    """The cards a seed lays on the mat under these conditions."""
    rng = rng_for(seed, 20)
    mat = standard_mat(seats)
    deck = list(load_deck(game).tags)
    order = rng.permutation(len(deck))
    cards: list[CardPlacement] = []
    next_card = iter(int(i) for i in order)
    turn = 180.0 if Condition.ROTATED in conditions else 12.0
    for pile_index, zone in enumerate(mat.zones):
        kind = _pile_kind(conditions, zone.name, rng)
        count = {
            "empty": 0,
            "single": 1,
            "pair": 2,
            "pile": int(rng.integers(2, 5)),
            "fan": int(rng.integers(3, 6)),
        }[kind]
        if count == 0:
            continue
        face_up = not (Condition.BACKS in conditions and rng.random() < 0.5)
        base_angle = rng.uniform(-turn, turn)
        spots = _spots(kind, count, zone, base_angle, rng)
        for number, (x, y, angle) in enumerate(spots):
            tag = deck[next(next_card)]
            pile = pile_index * 10 + (number if kind == "pair" else 0)
            cards.append(
                CardPlacement(
                    tag=tag,
                    face_up=face_up if kind != "pair" else bool(face_up or number == 0),
                    x=x,
                    y=y,
                    angle_deg=angle,
                    layer=len(cards),
                    pile=pile,
                    sleeved=_sleeved(conditions, face_up, rng),
                    sticker_shift=(
                        float(np.clip(rng.normal(0, 1.4), -4, 4)),
                        float(np.clip(rng.normal(0, 1.4), -4, 4)),
                        float(np.clip(rng.normal(0, 1.8), -5, 5)),
                    ),
                    back_style=int(rng.integers(2)),
                )
            )
    return tuple(cards)


def _pile_kind(conditions, zone: str, rng) -> str:
    if Condition.PILES in conditions:
        return str(rng.choice(["pile", "pile", "fan", "single"]))
    if Condition.BACKS in conditions and rng.random() < 0.3:
        return "pile"
    if zone == "centre":
        return str(rng.choice(["single", "pair"]))
    return str(rng.choice(["empty", "single", "single", "pair"]))


def _sleeved(conditions, face_up: bool, rng) -> bool:
    if Condition.SLEEVES in conditions:
        return True
    return bool(Condition.BACKS in conditions and not face_up and rng.random() < 0.5)


def _spots(kind: str, count: int, zone, angle: float, rng) -> list[tuple[float, float, float]]:
    """Card centres and angles in a zone for a single card, a pair, a pile or a fan."""
    cx = zone.x + rng.uniform(-0.12, 0.12) * zone.w
    cy = zone.y + rng.uniform(-0.08, 0.08) * zone.h
    if kind == "pair":
        gap = 35.0 + rng.uniform(0, 8)
        return [
            (cx - gap, cy, angle + rng.uniform(-4, 4)),
            (cx + gap, cy, angle + rng.uniform(-4, 4)),
        ]
    if kind == "fan":
        spread = rng.uniform(10, 18)
        pivot = np.array([cx, cy + 45.0])
        spots = []
        for k in range(count):
            a = angle + (k - (count - 1) / 2) * spread
            r = math.radians(a)
            offset = np.array([45.0 * math.sin(r), -45.0 * math.cos(r)])
            centre = pivot + offset
            spots.append((float(centre[0]), float(centre[1]), a))
        return spots
    spots = [(cx, cy, angle)]
    for _ in range(count - 1):
        last = spots[-1]
        spots.append(
            (last[0] + rng.normal(0, 6), last[1] + rng.normal(0, 8), last[2] + rng.normal(0, 8))
        )
    return spots


# -- the truth -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CardSeen:
    """One card as the camera sees it."""

    tag_id: int
    """The tag the camera can see: the card's own when face up, :data:`BACK_ID` when face down."""
    card_tag_id: int
    """The card's own tag id (its sticker), face up or not."""
    name: str
    deck: str
    face_up: bool
    zone: str | None
    pile: int
    layer_in_pile: int
    """0 at the bottom of its pile."""
    on_top: bool
    """Nothing of its pile lies on it."""
    sleeved: bool
    visible_share: float
    """Share of the card's area seen (not under cards, a hand, or out of the frame)."""
    tag_visible_share: float
    glare_peak: float
    """The brightest glare added over its tag, as a share of white."""
    corners: np.ndarray
    """Image corners (4, 2) of the card: its top-left, top-right, bottom-right, bottom-left."""
    tag_corners: np.ndarray
    """Image corners (4, 2) of the tag's black square, as printed: TL, TR, BR, BL."""

    @property
    def fully_visible(self) -> bool:
        """Nothing hides any of it."""
        return self.visible_share >= FULLY_VISIBLE


@dataclass(frozen=True)
class ZoneSeen:
    """One zone of the mat as a referee would read it."""

    name: str
    seat: int | None
    face_up: tuple[int, ...]
    """Tag ids of the face-up cards in it that are fully visible."""
    top: tuple[int, ...]
    """Per pile in the zone: the top card's tag id (BACK_ID for a back)."""
    backs: int
    """Face-down cards whose centre lies in the zone."""
    backs_tag_visible: int
    """Of those, the ones whose back tag is fully visible."""
    partly_covered: bool
    """A card in it shows only part of itself (under another card or a hand)."""
    hand: bool
    """A hand covers part of the zone."""


@dataclass(frozen=True, eq=False)
class CardsTruth:
    """What a card mat frame shows."""

    cards: tuple[CardSeen, ...]
    zones: tuple[ZoneSeen, ...]
    mat_to_image: np.ndarray
    """3x3 homography: mat millimetres (from its top-left corner) to pixels."""
    markers_hidden: dict[int, float]
    hand: bool
    conditions: tuple[str, ...]
    seed: int
    frame_index: int
    size: tuple[int, int]

    def zone(self, name: str) -> ZoneSeen:
        """The zone called ``name``."""
        return next(zone for zone in self.zones if zone.name == name)


# -- the scene -------------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """Everything a seed fixes for one card mat frame."""

    conditions: frozenset[Condition]
    seed: int
    size: tuple[int, int]
    mat: CardMatLayout
    cards: tuple[CardPlacement, ...]
    camera: Camera
    lamp: Lamp
    sensor: Sensor
    hot_spot: tuple[float, float, float, float] | None
    """Uneven light: a lamp's hot spot (mat x, y, radius mm, strength)."""


def make_scene(
    conditions: frozenset[Condition], seed: int, size: tuple[int, int], game: str, seats: int
) -> Scene:
    """The scene a seed draws under these conditions."""
    mat = standard_mat(seats)
    cards = deal(conditions, seed, game, seats)
    rng = rng_for(seed, 21)
    tilt = rng.uniform(10, 20) if Condition.TILTED in conditions else rng.uniform(0, 6)
    corners = np.array(
        [(0, 0), (mat.width_mm, 0), (mat.width_mm, mat.height_mm), (0, mat.height_mm)],
        dtype=np.float64,
    )
    camera = look_down(
        size,
        corners,
        fill=rng.uniform(0.84, 0.96),
        tilt_deg=tilt,
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=rng.uniform(-4, 4),
        distance_mm=rng.uniform(900, 1300),
        rng=rng,
    )
    centre = (mat.width_mm / 2, mat.height_mm / 2)
    azimuth = rng.uniform(0, 2 * np.pi)
    uneven = Condition.UNEVEN in conditions
    height = rng.uniform(500, 800) if uneven else rng.uniform(1000, 1600)
    reach = rng.uniform(300, 700) if uneven else rng.uniform(0, 400)
    lamp = Lamp(
        (centre[0] + reach * np.cos(azimuth), centre[1] + reach * np.sin(azimuth), height),
        ambient=rng.uniform(0.15, 0.35) if uneven else rng.uniform(0.45, 0.65),
        level=rng.uniform(0.95, 1.1),
        colour=_warmth(rng),
        softness=rng.uniform(0.02, 0.05),
    )
    hot = None
    if uneven:
        hot = (
            rng.uniform(100, 580),
            rng.uniform(80, 410),
            rng.uniform(60, 160),
            rng.uniform(0.3, 0.8),
        )
    sensor = Sensor(
        exposure=rng.uniform(1.0, 1.15),
        full_well=rng.uniform(2000, 4000),
        read_noise=rng.uniform(0.003, 0.006),
        white=tuple(float(v) for v in rng.uniform(0.95, 1.05, 3)),
        blur=rng.uniform(0.5, 0.85),
        jpeg=int(rng.integers(85, 96)),
    )
    if Condition.NOISY in conditions:
        sensor = replace(
            sensor,
            full_well=rng.uniform(250, 500),
            read_noise=rng.uniform(0.01, 0.02),
            chroma=rng.uniform(0.015, 0.035),
            jpeg=int(rng.integers(50, 76)),
            blur=rng.uniform(0.9, 1.3),
            sharpen=rng.uniform(0.5, 1.0),
        )
    return Scene(conditions, seed, size, mat, cards, camera, lamp, sensor, hot)


def _warmth(rng) -> tuple[float, float, float]:
    warm = rng.uniform(-0.06, 0.06)
    return (1.0 - warm, 1.0, 1.0 + warm)


# -- drawing: the card faces -----------------------------------------------------------


def _tag_cells(tag_id: int) -> np.ndarray:
    """The tag's 8 x 8 modules (0 black, 255 white), its black border included."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    return cv2.aruco.generateImageMarker(dictionary, tag_id, TAG_CELLS, borderBits=1)


ART_PALETTE = (
    (40, 70, 210),
    (210, 120, 20),
    (30, 180, 225),
    (60, 170, 30),
    (170, 40, 170),
    (20, 130, 220),
    (200, 180, 30),
    (220, 220, 220),
    (25, 25, 25),
    (110, 210, 210),
    (90, 40, 200),
    (240, 200, 120),
)
"""sRGB (BGR) colours of the card art."""
TO_LINEAR = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)


def _card_art(
    rng, shape: tuple[int, int], scale: float, name: str, *, pattern: bool = False
) -> np.ndarray:
    """A busy, colourful card face: gradient ground, shapes, a title banner, a text box.

    Drawn in 8-bit sRGB (as printed) and returned as linear albedo.
    """
    height, width = shape
    first, second = (
        np.array(ART_PALETTE[i], np.float32) for i in rng.choice(len(ART_PALETTE), 2, replace=False)
    )
    t = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    ground = first * (1 - t) + second * t
    mottle = 1.0 + 0.12 * cv2.resize(
        rng.standard_normal((12, 9)).astype(np.float32),
        (width, height),
        interpolation=cv2.INTER_CUBIC,
    )
    art = np.clip(ground * mottle[:, :, None], 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(14, 32))):
        colour = tuple(int(v) for v in ART_PALETTE[rng.integers(len(ART_PALETTE))])
        centre = (rng.uniform(0, width), rng.uniform(0, height))
        size = rng.uniform(3, 18) * scale
        kind = rng.integers(3)
        if kind == 0:
            cv2.circle(
                art, (round(centre[0]), round(centre[1])), round(size), colour, -1, cv2.LINE_AA
            )
        elif kind == 1:
            points = np.array(centre) + rng.normal(0, size, (int(rng.integers(3, 7)), 2))
            cv2.fillPoly(art, [np.rint(points).astype(np.int32)], colour, cv2.LINE_AA)
        else:
            angle = rng.uniform(0, np.pi)
            d = np.array([np.cos(angle), np.sin(angle)]) * width
            p, q = np.array(centre) - d, np.array(centre) + d
            cv2.line(
                art,
                (round(p[0]), round(p[1])),
                (round(q[0]), round(q[1])),
                colour,
                max(1, round(rng.uniform(0.5, 3) * scale)),
                cv2.LINE_AA,
            )
    if pattern:
        quarter = art[: height // 2, : width // 2]
        half = np.hstack([quarter, quarter[:, ::-1]])
        art = np.ascontiguousarray(np.vstack([half, half[::-1]]))
        art = cv2.resize(art, (width, height), interpolation=cv2.INTER_NEAREST)
        border = tuple(int(v) for v in ART_PALETTE[rng.integers(len(ART_PALETTE))])
        cv2.rectangle(art, (0, 0), (width - 1, height - 1), border, max(1, round(3 * scale)))
        return TO_LINEAR[art]
    margin = round(3 * scale)
    cv2.rectangle(art, (margin, margin), (width - margin, round(11 * scale)), (228, 232, 234), -1)
    _put(art, name[:22], (4.5 * scale, 9.3 * scale), 4.2 * scale, (20, 20, 20))
    cv2.rectangle(
        art, (margin, round(72 * scale)), (width - margin, height - margin), (215, 222, 225), -1
    )
    for line in range(3):
        text = " ".join(
            rng.choice(
                [
                    "Play",
                    "Draw",
                    "each",
                    "turn",
                    "cards",
                    "+1",
                    "all",
                    "Commissar",
                    "cookie",
                    "faction",
                    "rival",
                    "gain",
                ],
                4,
            )
        )
        _put(art, text, (5 * scale, (77 + 4 * line) * scale), 2.4 * scale, (40, 40, 40))
    border = tuple(int(v) for v in ART_PALETTE[rng.integers(len(ART_PALETTE))])
    cv2.rectangle(art, (0, 0), (width - 1, height - 1), border, max(1, round(2.2 * scale)))
    return TO_LINEAR[art]


def _put(image: np.ndarray, text: str, at: tuple[float, float], cap_px: float, colour=255) -> None:
    """``text`` with its baseline-left at ``at`` (pixels), capitals ``cap_px`` high."""
    face = cv2.FONT_HERSHEY_SIMPLEX
    (_, cap), _ = cv2.getTextSize("H", face, 1.0, 1)
    font_scale = cap_px / cap
    cv2.putText(
        image,
        text,
        (round(at[0]), round(at[1])),
        face,
        font_scale,
        colour,
        max(1, round(font_scale * 1.4)),
        cv2.LINE_AA,
    )


def _sticker_pose(card: CardPlacement) -> np.ndarray:
    """2x3 affine from sticker mm (its top-left origin) to card mm (the card's top-left)."""
    dx, dy, turn = card.sticker_shift
    r = math.radians(turn)
    c, s = math.cos(r), math.sin(r)
    centre = np.array(STICKER_ON_CARD_MM) + np.array([dx, dy])
    half = np.array(STICKER_MM) / 2
    rotation = np.array([[c, -s], [s, c]])
    return np.hstack([rotation, (centre - rotation @ half)[:, None]])


def _tag_square_on_card(card: CardPlacement) -> np.ndarray:
    """The tag's corners (4, 2) in card mm, TL, TR, BR, BL as printed."""
    if not card.face_up:
        c = np.array(CARD_MM) / 2
        h = TAG_MM / 2
        return c + np.array([(-h, -h), (h, -h), (h, h), (-h, h)])
    top = (STICKER_MM[1] - TAG_MM) / 2
    square = np.array(
        [
            (TAG_INSET_MM, top),
            (TAG_INSET_MM + TAG_MM, top),
            (TAG_INSET_MM + TAG_MM, top + TAG_MM),
            (TAG_INSET_MM, top + TAG_MM),
        ]
    )
    pose = _sticker_pose(card)
    return square @ pose[:, :2].T + pose[:, 2]


def _face(card: CardPlacement, seed: int, scale: float) -> np.ndarray:
    """The card's face (or back) in linear albedo at ``scale`` px/mm, upright."""
    shape = (round(CARD_MM[1] * scale), round(CARD_MM[0] * scale))
    rng = rng_for(seed, 22, card.tag.tag_id)
    if not card.face_up:
        return _back(card, shape, scale, rng)
    face = _card_art(rng, shape, scale, card.tag.name)
    pose = _sticker_pose(card)
    sticker = np.array([(0, 0), (STICKER_MM[0], 0), STICKER_MM, (0, STICKER_MM[1])])
    outline = (sticker @ pose[:, :2].T + pose[:, 2]) * scale - 0.5
    blend(face, polygon_alpha(shape, [outline]), (0.86, 0.88, 0.89))
    _sticker_text(face, card, pose, scale)
    tag = _tag_square_on_card(card) * scale
    _draw_tag_quad(face, card.tag.tag_id, tag)
    return face


def _sticker_text(face: np.ndarray, card: CardPlacement, pose: np.ndarray, scale: float):
    """The card's name beside the tag and ``#id deck`` under it, turned with the sticker."""
    width = round(STICKER_MM[0] * scale * 2)
    height = round(STICKER_MM[1] * scale * 2)
    text = np.zeros((height, width), np.uint8)
    s2 = 2 * scale
    x = (TAG_INSET_MM + TAG_MM + 3.0) * s2
    words = card.tag.name.split()
    lines, line = [], ""
    for word in words:
        if line and len(line) + len(word) > 9:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    y = (STICKER_MM[1] / 2 - (len(lines) - 1) * 2.4 - 2.0) * s2
    for entry in lines:
        _put(text, entry, (x, y), 3.0 * s2 * min(1.0, 9 / max(9, len(entry))))
        y += 3.0 * 1.6 * s2
    grey = np.zeros_like(text)
    _put(grey, f"#{card.tag.tag_id} {card.tag.deck}"[:16], (x, y + 1.0 * s2), 2.0 * s2)
    to_card = np.vstack([pose * scale, [0, 0, 1]]) @ np.diag([1 / s2, 1 / s2, 1.0])
    size = (face.shape[1], face.shape[0])
    ink = cv2.warpAffine(text, to_card[:2], size, flags=cv2.INTER_AREA)
    shade = cv2.warpAffine(grey, to_card[:2], size, flags=cv2.INTER_AREA)
    blend(face, ink.astype(np.float32) / 255.0, (0.03, 0.03, 0.03))
    blend(face, shade.astype(np.float32) / 255.0, (0.15, 0.15, 0.15))


def _draw_tag_quad(image: np.ndarray, tag_id: int, quad: np.ndarray) -> None:
    """The tag cell by cell inside the (possibly turned) square ``quad`` (pixels, TL first)."""
    cells = _tag_cells(tag_id)
    origin, right, down = quad[0], (quad[1] - quad[0]) / TAG_CELLS, (quad[3] - quad[0]) / TAG_CELLS
    quiet = (
        np.array(
            [
                origin - right - down,
                quad[1] + right - down,
                quad[2] + right + down,
                quad[3] - right + down,
            ]
        )
        - 0.5
    )
    blend(image, polygon_alpha(image.shape[:2], [quiet]), (0.86, 0.88, 0.89))
    box, alpha = grid_alpha(image.shape[:2], origin - 0.5, right, down, cells)
    if not box.empty:
        blend(image[box.slices], alpha, (0.03, 0.03, 0.035))


def _back(card: CardPlacement, shape: tuple[int, int], scale: float, rng) -> np.ndarray:
    """A card back: the printed red lattice, or the game's back art with the back sticker."""
    height, width = shape
    if card.back_style == 0:
        back = np.empty((height, width, 3), np.float32)
        back[:] = linear(BACK_SRGB)
        lines = np.zeros(shape, np.uint8)
        step = 8.0 * scale
        for start in np.arange(-height, width + height, step):
            cv2.line(
                lines,
                (round(start), 0),
                (round(start + height), height),
                255,
                max(1, round(0.6 * scale)),
                cv2.LINE_AA,
            )
            cv2.line(
                lines,
                (round(start), height),
                (round(start + height), 0),
                255,
                max(1, round(0.6 * scale)),
                cv2.LINE_AA,
            )
        blend(back, lines.astype(np.float32) / 255.0, linear(BACK_LINE_SRGB))
    else:
        back = _card_art(rng_for(HELD_OUT_SEED_MIN, 23), shape, scale, "", pattern=True)
    middle = np.array(CARD_MM) / 2
    q = BACK_QUIET_MM
    white = middle + np.array([(-q, -q), (q, -q), (q, q), (-q, q)])
    blend(back, polygon_alpha(shape, [white * scale - 0.5]), (0.86, 0.88, 0.89))
    _draw_tag_quad(back, BACK_ID, _tag_square_on_card(card) * scale)
    return back


# -- drawing: the mat and the frame ---------------------------------------------------------


def _card_to_mat(card: CardPlacement, size=CARD_MM) -> np.ndarray:
    """2x3 affine from card mm (top-left origin, upright) to mat mm."""
    r = math.radians(card.angle_deg)
    c, s = math.cos(r), math.sin(r)
    rotation = np.array([[c, -s], [s, c]])
    half = np.array(size) / 2
    return np.hstack([rotation, (np.array([card.x, card.y]) - rotation @ half)[:, None]])


def _mat_canvas(scene: Scene, scale: float, rng) -> np.ndarray:
    """The printed mat's albedo at ``scale`` px/mm: green cloth, zones, names, markers."""
    mat = scene.mat
    shape = (round(mat.height_mm * scale), round(mat.width_mm * scale))
    canvas = textures.cloth(shape, rng, linear(MAT_SRGB), scale)
    lines = np.zeros(shape, np.uint8)
    for zone in mat.zones:
        (x0, y0), (x1, y1) = zone.corners()
        box = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) * scale - 0.5
        cv2.polylines(
            lines,
            [np.rint(box * 16).astype(np.int32)],
            True,
            255,
            max(1, round(scale)),
            cv2.LINE_AA,
            4,
        )
        _put(lines, zone.name, ((x0 + 3) * scale, (y0 + 7) * scale), 4.0 * scale)
    _put(
        lines,
        mat.title or mat.name,
        ((mat.width_mm / 2 - 40) * scale, (mat.height_mm - 6) * scale),
        5.0 * scale,
    )
    blend(canvas, lines.astype(np.float32) / 255.0, linear(ZONE_SRGB))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker in mat.markers:
        (x0, y0), _, (x1, y1), _ = marker.corners()
        quiet = marker.side / 6
        white = np.array(
            [
                (x0 - quiet, y0 - quiet),
                (x1 + quiet, y0 - quiet),
                (x1 + quiet, y1 + quiet),
                (x0 - quiet, y1 + quiet),
            ]
        )
        blend(canvas, polygon_alpha(shape, [white * scale - 0.5]), (0.85, 0.87, 0.88))
        cells = cv2.aruco.generateImageMarker(dictionary, marker.id, 6, borderBits=1)
        step = marker.side / 6 * scale
        box, alpha = grid_alpha(
            shape, np.array([x0, y0]) * scale - 0.5, (step, 0.0), (0.0, step), cells
        )
        blend(canvas[box.slices], alpha, (0.03, 0.03, 0.035))
    return canvas


def _lay_cards(canvas: np.ndarray, scene: Scene, scale: float) -> tuple[np.ndarray, list]:
    """Lay every card (and sleeve) on the canvas, bottom first; return the glare and stripes."""
    glare = np.zeros(canvas.shape[:2], np.float32)
    stripes = []
    fine = 2.0
    for card in sorted(scene.cards, key=lambda c: c.layer):
        face = _face(card, scene.seed, scale * fine)
        face = cv2.GaussianBlur(face, (0, 0), 0.5 * fine)
        affine = _card_to_mat(card)
        to_canvas = np.vstack([affine * scale, [0, 0, 1]]) @ np.diag([1 / (scale * fine)] * 2 + [1])
        to_canvas = to_canvas @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
        to_canvas[:2, 2] -= 0.5
        outline_mm = np.array([(0, 0), (CARD_MM[0], 0), CARD_MM, (0, CARD_MM[1])])
        if card.sleeved:
            margin = (np.array(SLEEVE_MM) - CARD_MM) / 2
            outline_mm = np.array(
                [
                    -margin,
                    (CARD_MM[0] + margin[0], -margin[1]),
                    CARD_MM + margin,
                    (-margin[0], CARD_MM[1] + margin[1]),
                ]
            )
        outline = outline_mm @ affine[:, :2].T + affine[:, 2]
        box = Box.around(outline * scale, canvas.shape, 3.0)
        shift = np.array([[1, 0, -box.x0], [0, 1, -box.y0], [0, 0, 1]])
        local = (shift @ to_canvas)[:2]
        card_box = np.array([(0, 0), (CARD_MM[0], 0), CARD_MM, (0, CARD_MM[1])])
        card_px = (card_box @ affine[:, :2].T + affine[:, 2]) * scale - 0.5 - box.origin
        alpha = polygon_alpha(box.shape, [card_px])
        warped = cv2.warpAffine(
            face,
            local,
            (box.shape[1], box.shape[0]),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        region = canvas[box.slices]
        shadow = cv2.GaussianBlur(alpha, (0, 0), max(1.0, 1.2 * scale))
        region *= (1.0 - 0.35 * shadow)[:, :, None]
        blend(region, alpha, warped)
        if card.sleeved:
            stripe = _sleeve(region, box, outline * scale - 0.5, card, scene=scene, scale=scale)
            glare[box.slices] = np.maximum(glare[box.slices], stripe)
            stripes.append((card, stripe, box))
    return glare, stripes


def _sleeve(
    region, box: Box, outline: np.ndarray, card: CardPlacement, *, scene: Scene, scale: float
) -> np.ndarray:
    """A clear sleeve: a faint haze and bright edge, and soft glare stripes (returned)."""
    sleeve = polygon_alpha(box.shape, [outline - box.origin])
    region *= (1.0 - 0.04 * sleeve)[:, :, None]
    region += (0.03 * sleeve)[:, :, None]
    edge = np.zeros(box.shape, np.uint8)
    cv2.polylines(
        edge,
        [np.rint((outline - box.origin) * 16).astype(np.int32)],
        True,
        255,
        max(1, round(0.4 * scale)),
        cv2.LINE_AA,
        4,
    )
    region += (0.10 * edge.astype(np.float32) / 255.0)[:, :, None]
    rng = rng_for(scene.seed, 24, card.tag.tag_id)
    h, w = box.shape
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    stripe = np.zeros(box.shape, np.float32)
    for _ in range(int(rng.integers(1, 3))):
        angle = rng.uniform(0, np.pi)
        across = xs * np.cos(angle) + ys * np.sin(angle)
        middle = rng.uniform(0.2, 0.8) * (w * abs(np.cos(angle)) + h * abs(np.sin(angle)))
        middle += min(0.0, float(across.min()))
        width = rng.uniform(3, 12) * scale
        peak = rng.uniform(0.10, 0.40)
        stripe = np.maximum(stripe, peak * np.exp(-(((across - middle) / width) ** 2)))
    return stripe * sleeve


def _draw(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """The scene in linear light (lens blur applied) and the glare over the mat (frame pixels)."""
    camera = scene.camera
    width, height = scene.size
    rng = rng_for(scene.seed, 25)
    scale_px = camera.pixels_per_mm((scene.mat.width_mm / 2, scene.mat.height_mm / 2))
    scale = float(np.clip(scale_px * 1.5, 1.5, 6.0))
    canvas = _mat_canvas(scene, scale, rng)
    glare, _ = _lay_cards(canvas, scene, scale)
    canvas = cv2.GaussianBlur(canvas, (0, 0), 0.35)
    to_canvas = np.array([[scale, 0, -0.5], [0, scale, -0.5], [0, 0, 1]])
    warp = camera.homography(0.0) @ np.linalg.inv(to_canvas)
    mat = cv2.warpPerspective(canvas, warp, (width, height), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(np.ones(canvas.shape[:2], np.float32), warp, (width, height))
    glare_px = cv2.warpPerspective(glare, warp, (width, height))
    table = textures.table_top((height, width), rng, scale_px)
    albedo = table * (1 - cover[:, :, None]) + mat * cover[:, :, None]
    light = plane_field(camera, scene.lamp.irradiance) * vignette(scene.size, 0.25)
    if scene.hot_spot is not None:
        x, y, radius, strength = scene.hot_spot

        def spot(points: np.ndarray) -> np.ndarray:
            d2 = ((points[:, 0] - x) ** 2 + (points[:, 1] - y) ** 2) / radius**2
            return 1.0 + strength * np.exp(-d2 / 2)

        light = light * plane_field(camera, spot)
    lamp_colour = np.array(scene.lamp.colour, np.float32)
    image = albedo * light[:, :, None] * lamp_colour
    image += (glare_px * scene.lamp.level)[:, :, None] * lamp_colour
    return lens(image.astype(np.float32), scene.sensor), glare_px


_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
CACHE_SCENES = 4
"""Card mat scenes kept drawn: frames of one scene differ in noise only."""


def _drawn(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    key = (scene.conditions, scene.seed, scene.size, scene.cards)
    if key not in _CACHE:
        if len(_CACHE) >= CACHE_SCENES:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = _draw(scene)
    return _CACHE[key]


# -- frames and truth ------------------------------------------------------------------


def render_still(
    condition: Conditions,
    seed: int,
    frame_index: int,
    size: tuple[int, int],
    *,
    game: str = "commissars",
    seats: int = 6,
) -> tuple[np.ndarray, CardsTruth]:
    """One frame (BGR uint8) of the card mat as a seed deals it, and its truth.

    ``game`` chooses the deck (``commissars`` or ``cookie``), ``seats`` the
    mat's zones (1-6 seats and the centre). Frames of one (condition, seed,
    size, game, seats) differ only in their noise.
    """
    check_seed(seed)
    conditions = parse_conditions(condition)
    scene = make_scene(conditions, seed, check_size(size), game, seats)
    linear_image, glare = _drawn(scene)
    image = linear_image
    layer = HandLayer(scene.size)
    hand = None
    if Condition.HAND in conditions and scene.cards:
        rng = rng_for(seed, 26)
        target = scene.cards[int(rng.integers(len(scene.cards)))]
        hand = hand_toward(
            np.array([target.x, target.y]) + rng.normal(0, 15, 2), rng.uniform(20, 120), rng
        )
        image = image.copy()
        draw_hand(image, scene.camera, scene.lamp, hand, layer, shadow_only=True)
        draw_hand(image, scene.camera, scene.lamp, hand, layer)
    frame = expose(image, scene.sensor, rng_for(seed, 27, frame_index))
    return frame, _truth(scene, layer.coverage, glare, frame_index, hand is not None)


def _truth(
    scene: Scene, hand: np.ndarray, glare: np.ndarray, frame_index: int, has_hand: bool
) -> CardsTruth:
    camera = scene.camera
    h_mat = camera.homography(0.0)
    by_layer = sorted(scene.cards, key=lambda c: c.layer)
    outlines = [_project(h_mat, _outline_mm(card)) for card in by_layer]
    in_frame = polygon_alpha(
        hand.shape,
        [
            np.array(
                [(0, 0), (hand.shape[1], 0), (hand.shape[1], hand.shape[0]), (0, hand.shape[0])]
            )
            - 0.5
        ],
    )
    seen = []
    for index, card in enumerate(by_layer):
        above = outlines[index + 1 :]
        corners = outlines[index]
        tag = _project(
            h_mat,
            _tag_square_on_card(card) @ _card_to_mat(card)[:, :2].T + _card_to_mat(card)[:, 2],
        )
        visible = _visible_share(corners, above, hand, in_frame)
        tag_visible = _visible_share(tag, above, hand, in_frame)
        pile = [c for c in by_layer if c.pile == card.pile]
        seen.append(
            CardSeen(
                tag_id=card.tag.tag_id if card.face_up else BACK_ID,
                card_tag_id=card.tag.tag_id,
                name=card.tag.name,
                deck=card.tag.deck,
                face_up=card.face_up,
                zone=_zone_of(scene.mat, card),
                pile=card.pile,
                layer_in_pile=pile.index(card),
                on_top=pile[-1] is card,
                sleeved=card.sleeved,
                visible_share=visible,
                tag_visible_share=tag_visible,
                glare_peak=_peak(glare, tag),
                corners=corners,
                tag_corners=tag,
            )
        )
    zones = tuple(_zone_seen(zone, seen, hand, h_mat) for zone in scene.mat.zones)
    markers = {
        marker.id: _hidden(hand, _project(h_mat, np.array(marker.corners())))
        for marker in scene.mat.markers
    }
    return CardsTruth(
        cards=tuple(seen),
        zones=zones,
        mat_to_image=h_mat,
        markers_hidden=markers,
        hand=has_hand,
        conditions=tuple(sorted(c.value for c in scene.conditions)),
        seed=scene.seed,
        frame_index=frame_index,
        size=scene.size,
    )


def _outline_mm(card: CardPlacement) -> np.ndarray:
    affine = _card_to_mat(card)
    box = np.array([(0, 0), (CARD_MM[0], 0), CARD_MM, (0, CARD_MM[1])])
    return box @ affine[:, :2].T + affine[:, 2]


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(
        np.asarray(points, np.float64).reshape(-1, 1, 2), homography
    ).reshape(-1, 2)


def _visible_share(polygon, above, hand: np.ndarray, in_frame: np.ndarray) -> float:
    """Share of an image polygon not under the polygons ``above``, the hand, or off the frame."""
    low = np.floor(polygon.min(axis=0) - 1).astype(int)
    high = np.ceil(polygon.max(axis=0) + 1).astype(int)
    box = Box(int(low[0]), int(low[1]), int(high[0]), int(high[1]))
    shape = box.shape
    own = polygon_alpha(shape, [polygon - box.origin])
    area = float(own.sum())
    if area <= 0:
        return 0.0
    covering = [p - box.origin for p in above]
    covered = polygon_alpha(shape, covering) if covering else np.zeros(shape, np.float32)
    frame_box = Box.around(polygon, hand.shape, 1.0)
    seen = np.zeros(shape, np.float32)
    if not frame_box.empty:
        rows = slice(frame_box.y0 - box.y0, frame_box.y1 - box.y0)
        cols = slice(frame_box.x0 - box.x0, frame_box.x1 - box.x0)
        seen[rows, cols] = in_frame[frame_box.slices] * (1.0 - hand[frame_box.slices])
    return round(float((own * (1.0 - covered) * seen).sum()) / area, 4)


def _hidden(hand: np.ndarray, polygon: np.ndarray) -> float:
    box = Box.around(polygon, hand.shape, 1.0)
    if box.empty:
        return 0.0
    own = polygon_alpha(box.shape, [polygon - box.origin])
    area = float(own.sum())
    return round(float((own * hand[box.slices]).sum()) / area, 4) if area > 0 else 0.0


def _peak(glare: np.ndarray, polygon: np.ndarray) -> float:
    box = Box.around(polygon, glare.shape, 0.0)
    if box.empty:
        return 0.0
    own = polygon_alpha(box.shape, [polygon - box.origin])
    return round(float((glare[box.slices] * (own > 0.5)).max(initial=0.0)), 3)


def _zone_of(mat: CardMatLayout, card: CardPlacement) -> str | None:
    zone = mat.zone_at(card.x, card.y)
    return zone.name if zone is not None else None


def _zone_seen(zone, seen: list[CardSeen], hand: np.ndarray, h_mat: np.ndarray) -> ZoneSeen:
    mine = [card for card in seen if card.zone == zone.name]
    (x0, y0), (x1, y1) = zone.corners()
    polygon = _project(h_mat, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))
    tops = tuple(card.tag_id for card in mine if card.on_top)
    return ZoneSeen(
        name=zone.name,
        seat=zone.seat,
        face_up=tuple(c.tag_id for c in mine if c.face_up and c.fully_visible),
        top=tops,
        backs=sum(1 for c in mine if not c.face_up),
        backs_tag_visible=sum(
            1 for c in mine if not c.face_up and c.tag_visible_share >= FULLY_VISIBLE
        ),
        partly_covered=any(0.0 < c.visible_share < FULLY_VISIBLE for c in mine),
        hand=_hidden(hand, polygon) > 0.0,
    )


__all__ = [
    "BACK_ID",
    "FULLY_VISIBLE",
    "CardPlacement",
    "CardSeen",
    "CardsTruth",
    "Condition",
    "ZoneSeen",
    "deal",
    "render_still",
]
