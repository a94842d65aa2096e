"""Hard conditions for the card reader, on our own renderer: what the tuning runs read.

Scenes of :class:`~benchmarks.card_dev.DevCard` s per :data:`CONDITIONS`: sleeves
with glare stripes peaking at 10-60% of white over the tag (and "strong glare",
60-80%, beyond what the goals ask), busy art, stickers off, noise and JPEG,
small tags (a far camera), tilt and uneven light, piles and fans, a hand over a
card, and all of them at once. Their truth and score: :mod:`benchmarks.card_truth`.
Seeds: tuning runs use 5_000_000 .. 8_999_999 (never the held-out 9_000_000+).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from benchmarks.card_dev import DevCard, DevSensor, rot
from vision.cards.mat import CardMatLayout
from vision.cards.renderer import CardScene, random_card_scene
from vision.peg_disk.renderer import Hand, Lighting, Sensor


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


def _tight_piles(rng, mat) -> list[DevCard]:
    """Piles of 2 or 3 whose lower cards peep out by a little (10-25% of themselves): slid
    along one side, or turned so a corner or two stick out; a share face down, top and under."""
    cards: list[DevCard] = []
    ids = iter(_ids(rng, 30))
    for zone in mat.zones:
        x = zone.x + float(rng.uniform(-100, 100) if zone.seat is None else rng.uniform(-15, 15))
        y = zone.y + float(rng.uniform(-4, 4))
        turn = 180.0 * int(rng.integers(2)) + float(rng.uniform(-10, 10))
        for n in range(int(rng.integers(2, 4)) - 1, -1, -1):
            tag_id = None if rng.random() < 0.4 else next(ids)
            dx = dy = 0.0
            angle = turn
            if n:
                kind = rng.integers(3)
                if kind == 0:  # slid along the short side: a strip of its long edge shows
                    dx = float(rng.choice([-1, 1]) * rng.uniform(7, 16))
                elif kind == 1:  # slid along the long side
                    dy = float(rng.choice([-1, 1]) * rng.uniform(9, 22))
                else:  # turned about the pile: corners stick out
                    angle += float(rng.choice([-1, 1]) * rng.uniform(10, 25))
                dx, dy = rot(turn) @ np.array([dx, dy]) * n
            name = f"card {tag_id}" if tag_id is not None else ""
            cards.append(DevCard(x + dx, y + dy, tag_id, name, angle))
    return cards


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
    "tight piles": lambda rng, mat: _scene(rng, mat, _tight_piles(rng, mat)),
    "hand over a card": lambda rng, mat: _with_hand(rng, mat, _spread(rng, mat)),
    "everything": _all,
}
"""Condition name -> a maker of one random scene of it (seeded by the rng given)."""


def condition_scene(name: str, seed: int, mat: CardMatLayout) -> CardScene:
    """The scene of condition ``name`` for ``seed`` (deterministic)."""
    return CONDITIONS[name](np.random.default_rng(seed), mat)
