"""Hard conditions for the card reader, on our own renderer: what the tuning runs read.

:mod:`vision.cards.renderer` draws clean cards: a plain art panel, the sticker
exactly where it belongs, no sleeve. A table is harder, so this module lays
:class:`DevCard` s (a :class:`~vision.cards.renderer.LaidCard` with a sleeve and
its glare stripe, a sticker stuck a few millimetres and degrees off, busy art
round the tag) and builds scenes per :data:`CONDITIONS`: sleeves with glare
stripes peaking at 10-60% of white over the tag (and "strong glare", 60-80%,
beyond what the goals ask), busy art, stickers off, noise and JPEG, small
tags (a far camera), tilt and uneven light, piles and fans, a hand over a
card, and all of them at once.

Every scene comes with its truth (:func:`truth_of`): per zone, the cards
whose tag can be seen whole, the backs, and the cards partly covered (part of
the card shows, its tag does not), which make their zone doubtful. Seeds:
tuning runs use 5_000_000 .. 8_999_999 (never the held-out 9_000_000+).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.cards.mat import CARD_SIZE_MM, CardMatLayout
from vision.cards.renderer import (
    CARD_SCALE,
    STICKER_CENTRE_MM,
    CardRenderer,
    CardScene,
    LaidCard,
    card_art_bgr,
    mat_homography,
    mat_to_table,
    random_card_scene,
)
from vision.cards.sheet import STICKER_MM, draw_back, draw_sticker, sticker_tag_centre
from vision.markers import project
from vision.part_sheet import sheet_matrix
from vision.parts.renderer import _bgra, _draw_hand, _sense
from vision.peg_disk.renderer import Hand, Lighting, Sensor

SLEEVE_MM = (66.0, 91.0)
"""A clear sleeve round a 63 x 88 mm card."""
PARTLY_SHOWN = 0.10
"""A card whose tag is hidden but which shows at least this share of itself is partly covered:
its zone must be doubtful."""
HIDDEN = 0.04
"""A card showing less than this share of itself (a neat pile's lower card) may go unseen."""


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


def _rot(deg: float) -> np.ndarray:
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
    return sticker_centre + _rot(deg) @ tag - np.array(CARD_SIZE_MM) / 2


def card_outline(card: LaidCard, size=CARD_SIZE_MM) -> np.ndarray:
    """The card's four corners in mat mm."""
    w, h = size[0] / 2, size[1] / 2
    local = np.array([(-w, -h), (w, -h), (w, h), (-w, h)])
    return local @ _rot(card.angle_deg).T + (card.x, card.y)


def tag_outline(card: LaidCard, side_mm: float = 28.0) -> np.ndarray:
    """The card's tag's four corners in mat mm."""
    half = side_mm / 2
    local = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    deg = getattr(card, "sticker_deg", 0.0) if card.tag_id is not None else 0.0
    centre = tag_offset_mm(card)
    return (local @ _rot(deg).T + centre) @ _rot(card.angle_deg).T + (card.x, card.y)


def tag_centre(card: LaidCard) -> tuple[float, float]:
    """The card's tag centre in mat mm."""
    point = _rot(card.angle_deg) @ tag_offset_mm(card) + (card.x, card.y)
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
    return _bgra(colour, alpha)


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
        image = _sense(image, replace(sensor, jpeg=None), rng)
        noise = rng.normal(0.0, 1.0, image.shape).astype(np.float32)
        if sensor.grain_px > 0:
            noise = cv2.GaussianBlur(noise, (0, 0), sensor.grain_px)
            noise /= max(float(noise.std()), 1e-6)
        level = image.astype(np.float32)
        sigma = chroma * ((1 - sensor.shot) + sensor.shot * np.sqrt(level / 128))
        image = np.clip(level + noise * sigma, 0, 255).astype(np.uint8)
        return _sense(image, Sensor(jpeg=sensor.jpeg), rng)


def _fields(card: LaidCard) -> tuple:
    return card.x, card.y, card.tag_id, card.name, card.angle_deg


# --- truth -----------------------------------------------------------------------------------

TRUTH_PX_PER_MM = 1.0


@dataclass
class ZoneTruth:
    """What a zone holds as the camera can know it."""

    seen_up: set[int] = field(default_factory=set)
    """Face-up cards whose tag shows whole (they may be read)."""
    clear_up: set[int] = field(default_factory=set)
    """Face-up cards wholly in view (no card or hand over them): they must be read."""
    present: set[int] = field(default_factory=set)
    """Every face-up card in the zone, shown or not (a read of another id is wrong)."""
    seen_backs: int = 0
    clear_backs: int = 0
    partly_covered: int = 0
    """Cards showing a part of themselves without their whole tag: the zone must be doubtful,
    unless the reader identified them all the same (:func:`score`)."""
    partly_up: set[int] = field(default_factory=set)
    """The face-up ones among them."""
    partly_backs: int = 0
    """The face-down ones among them."""
    under_hand: bool = False


def _mask(polygon: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    points = np.round(polygon * TRUTH_PX_PER_MM * 16).astype(np.int32)
    cv2.fillPoly(mask, [points], 1, cv2.LINE_8, 4)
    return mask.astype(bool)


def hand_mask(scene: CardScene, size: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """Mat pixels (TRUTH_PX_PER_MM) a hand lies over, drawn as the renderer draws it, grown."""
    if not scene.hands:
        return np.zeros(shape, bool)
    homography = mat_homography(scene, size)
    image = np.zeros((size[1], size[0], 3), np.uint8)
    from vision.parts.renderer import table_homography

    table = table_homography(scene.table_size_mm, scene.camera, size)
    to_table = mat_to_table(scene)
    for hand in scene.hands:
        centre = to_table @ np.array([*hand.centre, 1.0])
        image = _draw_hand(
            image, replace(hand, centre=(centre[0], centre[1])), table, np.random.default_rng(0)
        )
    seen = (image.max(axis=2) > 20).astype(np.uint8)
    to_mat = sheet_matrix(TRUTH_PX_PER_MM) @ np.linalg.inv(homography)
    mask = cv2.warpPerspective(seen, to_mat, (shape[1], shape[0]), flags=cv2.INTER_NEAREST)
    return cv2.dilate(mask, np.ones((9, 9), np.uint8)).astype(bool)


def truth_of(scene: CardScene, size: tuple[int, int]) -> dict[str, ZoneTruth]:
    """Zone name -> :class:`ZoneTruth` of a scene (cards later in the tuple lie on top)."""
    mat = scene.mat
    shape = (round(mat.height_mm * TRUTH_PX_PER_MM), round(mat.width_mm * TRUTH_PX_PER_MM))
    hand = hand_mask(scene, size, shape)
    truths = {zone.name: ZoneTruth() for zone in mat.zones}
    for zone in mat.zones:
        if hand[_mask(_box(zone), shape)].any():
            truths[zone.name].under_hand = True
    cards = scene.cards
    bodies = [_mask(card_outline(card), shape) for card in cards]
    for index, card in enumerate(cards):
        zone = mat.zone_at(*tag_centre(card))
        if zone is None:
            continue
        truth = truths[zone.name]
        above = np.zeros(shape, bool)
        for other in bodies[index + 1 :]:
            above |= other
        over = above | hand
        body = bodies[index]
        shown = (body & ~over).sum() / max(body.sum(), 1)
        tag = _mask(tag_outline(card, 28.0), shape)
        tag_whole = not (tag & over).any()
        clear = not (body & over).any()
        if card.tag_id is not None:
            truth.present.add(card.tag_id)
            if tag_whole:
                truth.seen_up.add(card.tag_id)
            if clear:
                truth.clear_up.add(card.tag_id)
        else:
            truth.seen_backs += tag_whole
            truth.clear_backs += clear
        if not tag_whole and shown >= PARTLY_SHOWN and not (body & hand).any():
            truth.partly_covered += 1
            if card.tag_id is None:
                truth.partly_backs += 1
            else:
                truth.partly_up.add(card.tag_id)
    return truths


def score(tally: dict[str, int], reading, truth: dict[str, ZoneTruth]) -> None:
    """Add one frame's counts to ``tally`` (a reading of :class:`vision.cards.reader.CardReader`
    against the :class:`ZoneTruth` of each zone).

    A zone with a partly covered card read clear is a fault unless the card was identified
    all the same (a tag read though a corner of it is hidden): its id is among the zone's, or
    the zone's backs count it. Backs are counted right when the read count lies between the
    backs whose tag shows whole and those plus the partly covered backs.
    """
    position = reading.position() or {}
    doubtful = set(reading.doubtful()) if reading.ok else set(truth)
    for name, zone in truth.items():
        up, down = position.get(name, ((), 0))
        tally["clear_up"] += len(zone.clear_up)
        tally["identified"] += len(zone.clear_up & set(up))
        tally["wrong"] += len(set(up) - zone.present)
        if zone.partly_covered:
            tally["covered_zones"] += 1
            unnamed = zone.partly_up - set(up) or down < zone.seen_backs + zone.partly_backs
            tally["covered_read_clear"] += name not in doubtful and bool(unnamed)
        if zone.under_hand:
            tally["hand_zones"] += 1
            tally["hand_read_clear"] += name not in doubtful
        elif zone.clear_backs and zone.clear_backs == zone.seen_backs:
            tally["backs"] += zone.clear_backs
            right = zone.seen_backs <= down <= zone.seen_backs + zone.partly_backs
            tally["backs_right"] += zone.clear_backs if right else 0
        if not zone.partly_covered and not zone.under_hand:
            tally["plain_zones"] += 1
            tally["plain_doubtful"] += name in doubtful


def score_line(tally: dict[str, int]) -> str:
    """One row of figures."""
    share = 100 * tally["identified"] / max(tally["clear_up"], 1)
    backs = f"{100 * tally['backs_right'] / tally['backs']:6.2f}%" if tally["backs"] else "  n/a "
    return (
        f"identified {share:6.2f}% ({tally['identified']}/{tally['clear_up']}) "
        f"wrong {tally['wrong']}  covered read clear {tally['covered_read_clear']}/"
        f"{tally['covered_zones']}  hand read clear {tally['hand_read_clear']}/"
        f"{tally['hand_zones']}  backs {backs} ({tally['backs_right']}/{tally['backs']})  "
        f"clear zones doubtful {tally['plain_doubtful']}/{tally['plain_zones']}"
    )


def _box(zone) -> np.ndarray:
    (x0, y0), (x1, y1) = zone.corners()
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


# --- conditions ------------------------------------------------------------------------------


def _slots(mat: CardMatLayout) -> list[tuple[str, float, float]]:
    spots = []
    for zone in mat.zones:
        offsets = (-150, -50, 50, 150) if zone.seat is None else (-45, 45)
        spots += [(zone.name, zone.x + dx, zone.y) for dx in offsets]
    return spots


def _ids(rng: np.random.Generator, count: int) -> list[int]:
    return [int(v) for v in rng.choice(263, count, replace=False)]


def _card(rng, x, y, tag_id, **extra) -> DevCard:
    turn = 180.0 * int(rng.integers(2)) + float(rng.uniform(-25, 25))
    jitter = rng.uniform(-5, 5, 2)
    name = f"card {tag_id}" if tag_id is not None else ""
    return DevCard(x + jitter[0], y + jitter[1], tag_id, name, turn, **extra)


def _spread(rng, mat, count=12, down=0.25, make=None) -> list[DevCard]:
    """``count`` cards on separate slots, a share face down; ``make(rng)`` adds their extras."""
    spots = _slots(mat)
    chosen = rng.choice(len(spots), count, replace=False)
    cards = []
    for index, tag_id in zip(chosen, _ids(rng, count), strict=True):
        _zone, x, y = spots[index]
        face = None if rng.random() < down else tag_id
        cards.append(_card(rng, x, y, face, **(make(rng) if make else {})))
    return cards


def _glare(rng, low: float = 0.1, high: float = 0.6) -> dict:
    return {
        "glare": float(rng.uniform(low, high)),
        "glare_offset_mm": float(rng.uniform(-15, 15)),
        "glare_deg": float(rng.uniform(0, 180)),
        "glare_width_mm": float(rng.uniform(4, 20)),
    }


def _strong_glare(rng) -> dict:
    """Beyond the goal: a stripe peaking at 60-80% of white leaves a 720p tag barely readable."""
    return _glare(rng, 0.6, 0.8)


def _off(rng) -> dict:
    return {
        "sticker_dx": float(rng.uniform(-4, 4)),
        "sticker_dy": float(rng.uniform(-4, 4)),
        "sticker_deg": float(rng.uniform(-6, 6)),
    }


def _busy(rng) -> dict:
    return {"art_seed": int(rng.integers(1 << 30))}


def _everything(rng) -> dict:
    extra = {**_off(rng), **_busy(rng)}
    if rng.random() < 0.6:
        extra.update(_glare(rng))
    return extra


def _piles(rng, mat, make=None) -> list[DevCard]:
    """Neat piles, messy piles (a lower card showing 10-40% of itself) and fans, in the zones."""
    cards: list[DevCard] = []
    ids = iter(_ids(rng, 40))
    extra = (lambda: make(rng)) if make else dict
    for zone in mat.zones:
        kind = rng.choice(["neat", "messy", "fan", "single"])
        x, y = zone.x + float(rng.uniform(-20, 20)), zone.y + float(rng.uniform(-5, 5))
        if zone.seat is None:
            x = zone.x + float(rng.uniform(-100, 100))
        turn = 180.0 * int(rng.integers(2)) + float(rng.uniform(-15, 15))
        face_down = rng.random() < 0.3
        count = int(rng.integers(2, 5))

        def tag(face_down: bool = face_down) -> int | None:
            return None if face_down else next(ids)

        if kind == "neat":
            for _ in range(count):
                d = rng.uniform(-1.5, 1.5, 2)
                angle = turn + float(rng.uniform(-2, 2))
                cards.append(DevCard(x + d[0], y + d[1], tag(), "", angle, **extra()))
        elif kind == "messy":
            for n in range(count):
                shift = float(rng.uniform(9, 35)) if n < count - 1 else 0.0
                direction = rng.uniform(0, 2 * math.pi)
                d = shift * np.array([math.cos(direction), math.sin(direction)])
                angle = turn + float(rng.uniform(-10, 10))
                cards.append(DevCard(x + d[0], y + d[1] * 0.5, tag(), "", angle, **extra()))
        elif kind == "fan":
            spread = float(rng.uniform(40, 48)) * (1 if rng.random() < 0.5 else -1)
            count = min(count, 2 if zone.seat is not None else 4)
            start = x - spread * (count - 1) / 2
            for n in range(count):
                cards.append(
                    DevCard(
                        start + n * spread,
                        y,
                        tag(),
                        "",
                        turn + float(rng.uniform(-5, 5)),
                        **extra(),
                    )
                )
        else:
            cards.append(DevCard(x, y, tag(), "", turn, **extra()))
    return [
        replace(card, name=f"card {card.tag_id}") if card.tag_id is not None else card
        for card in cards
    ]


def _hand_over(rng, mat, cards) -> Hand:
    card = cards[int(rng.integers(len(cards)))]
    spot = (card.x + float(rng.uniform(-20, 20)), card.y + float(rng.uniform(-20, 20)))
    return Hand(spot, float(rng.uniform(0, 360)), float(rng.uniform(0.9, 1.1)))


Maker = Callable[[np.random.Generator, CardMatLayout], CardScene]


def _scene(rng, mat, cards, **changes) -> CardScene:
    scene = random_card_scene(rng, mat, tuple(cards))
    camera = changes.pop("camera", None)
    if camera is not None:
        scene = replace(scene, camera=camera(scene.camera))
    lighting = changes.pop("lighting", None)
    if lighting is not None:
        scene = replace(scene, lighting=lighting(scene.lighting))
    sensor = changes.pop("sensor", None)
    if sensor is not None:
        scene = replace(scene, sensor=sensor(scene.sensor))
    return replace(scene, **changes)


def _noisy(rng):
    return lambda s: Sensor(
        noise=float(rng.uniform(3, 8)),
        blur=float(rng.uniform(0.4, 1.3)),
        jpeg=int(rng.integers(30, 70)),
    )


def _webcam(rng):
    return lambda s: DevSensor(
        noise=float(rng.uniform(2, 5)),
        blur=float(rng.uniform(0.3, 1.0)),
        jpeg=int(rng.integers(50, 76)),
        chroma=float(rng.uniform(8, 20)),
    )


def _sensor_noise(rng):
    """A real camera's noise, fresh in every frame: blotchy colour noise (demosaicing), partly
    growing with the light, stronger than "webcam noise", before a JPEG."""
    return lambda s: DevSensor(
        noise=0.0,
        blur=float(rng.uniform(0.3, 1.0)),
        jpeg=int(rng.integers(40, 81)),
        chroma=float(rng.uniform(5, 14)),
        grain_px=float(rng.uniform(0.7, 2.0)),
        shot=float(rng.uniform(0, 1)),
    )


def _dim(rng):
    return lambda lit: replace(lit, brightness=float(rng.uniform(0.45, 0.8)))


def _far(rng):
    return lambda c: replace(
        c, fill=float(rng.uniform(0.6, 0.75)), tilt_deg=float(rng.uniform(0, 20))
    )


def _tilted(rng):
    return lambda c: replace(c, tilt_deg=float(rng.uniform(12, 20)))


def _uneven(rng):
    return lambda lit: Lighting(
        brightness=min(lit.brightness, 0.9),
        gradient=float(rng.uniform(0.3, 0.6)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0.2, 0.4)),
        cast=lit.cast,
    )


def _with_hand(rng, mat, cards) -> CardScene:
    return _scene(rng, mat, cards, hands=(_hand_over(rng, mat, cards),))


def _all(rng, mat) -> CardScene:
    cards = (
        _piles(rng, mat, _everything) if rng.random() < 0.4 else _spread(rng, mat, make=_everything)
    )
    hands = (_hand_over(rng, mat, cards),) if rng.random() < 0.3 else ()
    return _scene(
        rng,
        mat,
        cards,
        camera=_far(rng) if rng.random() < 0.5 else _tilted(rng),
        lighting=_uneven(rng) if rng.random() < 0.5 else None,
        sensor=_noisy(rng) if rng.random() < 0.5 else None,
        hands=hands,
    )


CONDITIONS: dict[str, Maker] = {
    "plain": lambda rng, mat: _scene(rng, mat, _spread(rng, mat)),
    "busy art": lambda rng, mat: _scene(rng, mat, _spread(rng, mat, make=_busy)),
    "stickers off": lambda rng, mat: _scene(rng, mat, _spread(rng, mat, make=_off)),
    "sleeves+glare": lambda rng, mat: _scene(rng, mat, _spread(rng, mat, make=_glare)),
    "strong glare": lambda rng, mat: _scene(rng, mat, _spread(rng, mat, make=_strong_glare)),
    "noise+jpeg": lambda rng, mat: _scene(rng, mat, _spread(rng, mat), sensor=_noisy(rng)),
    "webcam noise": lambda rng, mat: _scene(
        rng, mat, _spread(rng, mat), sensor=_webcam(rng), lighting=_dim(rng)
    ),
    "sensor noise": lambda rng, mat: _scene(
        rng,
        mat,
        _spread(rng, mat),
        sensor=_sensor_noise(rng),
        lighting=_dim(rng) if rng.random() < 0.5 else None,
    ),
    "small tags": lambda rng, mat: _scene(rng, mat, _spread(rng, mat), camera=_far(rng)),
    "tilt+uneven light": lambda rng, mat: _scene(
        rng, mat, _spread(rng, mat), camera=_tilted(rng), lighting=_uneven(rng)
    ),
    "piles+fans": lambda rng, mat: _scene(rng, mat, _piles(rng, mat)),
    "hand over a card": lambda rng, mat: _with_hand(rng, mat, _spread(rng, mat)),
    "everything": _all,
}
"""Condition name -> a maker of one random scene of it (seeded by the rng given)."""


def condition_scene(name: str, seed: int, mat: CardMatLayout) -> CardScene:
    """The scene of condition ``name`` for ``seed`` (deterministic)."""
    return CONDITIONS[name](np.random.default_rng(seed), mat)


def frame_homography(scene: CardScene, size: tuple[int, int]) -> np.ndarray:
    """The mat's true homography (mm -> pixels)."""
    return mat_homography(scene, size)


def project_mm(scene: CardScene, size, points_mm) -> np.ndarray:
    """Mat mm points to image pixels."""
    return project(mat_homography(scene, size), np.asarray(points_mm, float))
