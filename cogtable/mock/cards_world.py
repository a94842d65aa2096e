"""The simulated physical world of a card mat: which cards lie where, face up or down, and hands.

What a camera could see: the cards on each zone of the mat (a tagged card
face up, or a card back), where they lie within the zone, hands reaching
in, and whether the camera is plugged in. One camera frame per
:meth:`CardsWorld.tick` (like :class:`cogtable.mock.parts_world.PartsWorld`),
``actors`` (the simulated people) acting once per tick.

Two cameras look at it: :class:`RenderedCardsCamera` draws every frame with
:mod:`vision.cards.renderer` (the reader must find the mat by its markers and
every tag); :class:`TruthCardsCamera` hands over the reading a perfect camera
and reader would make, for long runs. Both go through the same settling.
"""

from __future__ import annotations

import random
import threading
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from cogtable.mock.world import FRAME_SECONDS, CameraMode, SimClock, SimulatedTime, camera_mode
from vision.cards.mat import CARD_SIZE_MM, CardMatLayout, CardZone
from vision.cards.reader import CardMatReading, ZoneReading
from vision.cards.renderer import CardRenderer, LaidCard, random_card_scene
from vision.cards.tags import check_card_id
from vision.peg_disk.reader import NO_CAMERA, OK
from vision.peg_disk.renderer import Hand

SLOT_GAP_MM = 6.0
"""Space between neighbouring cards laid in a zone."""


class CardsWorld(SimulatedTime):
    """The cards on a card mat, as a camera would see them."""

    def __init__(
        self,
        mat: CardMatLayout,
        *,
        clock: SimClock | None = None,
        frame_seconds: float = FRAME_SECONDS,
        camera: str = CameraMode.RENDER,
        camera_size: tuple[int, int] | None = None,
        seed: int = 0,
    ) -> None:
        self.mat = mat
        self.camera = camera_mode(camera)
        self.camera_size = camera_size
        self.seed = seed
        self.clock = clock or SimClock()
        self.frame_seconds = frame_seconds
        self.cards: dict[str, list[LaidCard]] = {zone.name: [] for zone in mat.zones}
        self.hands: dict[str, Hand] = {}
        """Hands over the mat, by whose they are, in mat mm."""
        self.camera_present = True
        self.frames = 0
        self.changes = 0
        self.actors: list[Callable[[CardsWorld], object]] = []
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self.scene = random_card_scene(np.random.default_rng(seed), mat)
        """Where the mat lies, the camera and the light (the cards come from :attr:`cards`)."""

    # -- what people do to it -----------------------------------------------------------

    def lay(self, zone: str, tag_id: int | None) -> None:
        """Lay a card in a zone: face up showing ``tag_id``, or face down (``None``).

        It goes to the zone's first free spot, a little askew; ValueError if
        the zone is unknown, full, or the id is no card's.
        """
        place = self._zone(zone)
        if tag_id is not None:
            check_card_id(tag_id)
        with self._lock:
            spot = self._free_spot(place)
            turn = self._rng.uniform(-12, 12) + 180 * self._rng.randrange(2)
            self.cards[zone].append(LaidCard(*spot, tag_id, _name(tag_id), turn))
        self.changes += 1

    def take(self, zone: str, tag_id: int | None) -> None:
        """Take a card from a zone: the one showing ``tag_id``, or a face-down one (``None``)."""
        self._zone(zone)
        with self._lock:
            card = self._find(zone, tag_id)
            self.cards[zone].remove(card)
        self.changes += 1

    def turn_up(self, zone: str, tag_id: int) -> None:
        """Turn a face-down card of a zone face up: it shows ``tag_id`` where it lay."""
        check_card_id(tag_id)
        self._zone(zone)
        with self._lock:
            card = self._find(zone, None)
            index = self.cards[zone].index(card)
            self.cards[zone][index] = replace(card, tag_id=tag_id, name=_name(tag_id))
        self.changes += 1

    def reach(self, who: str, zone: str) -> None:
        """``who``'s hand over a zone (jittered, the arm from a random side)."""
        place = self._zone(zone)
        x = place.x + self._rng.uniform(-0.2, 0.2) * place.w
        y = place.y + self._rng.uniform(-0.2, 0.2) * place.h
        self.hands[who] = Hand((x, y), self._rng.uniform(0, 360), self._rng.uniform(0.9, 1.1))

    def withdraw(self, who: str) -> None:
        """``who`` takes their hand away."""
        self.hands.pop(who, None)

    def contents(self) -> dict[str, tuple[tuple[int, ...], int]]:
        """Zone -> (face-up tag ids sorted, face-down count): what a perfect reader would say."""
        with self._lock:
            return {zone: _label(cards) for zone, cards in self.cards.items()}

    def covered_zones(self) -> set[str]:
        """The zones a hand is over now (a hand reaches a card's length round its centre)."""
        reach = CARD_SIZE_MM[1]
        return {
            zone.name
            for hand in self.hands.values()
            for zone in self.mat.zones
            if abs(hand.centre[0] - zone.x) <= zone.w / 2 + reach
            and abs(hand.centre[1] - zone.y) <= zone.h / 2 + reach
        }

    def _zone(self, name: str) -> CardZone:
        try:
            return self.mat.zone(name)
        except KeyError:
            zones = ", ".join(zone.name for zone in self.mat.zones)
            raise ValueError(f"the card mat has no zone {name!r} (zones: {zones})") from None

    def _find(self, zone: str, tag_id: int | None) -> LaidCard:
        for card in self.cards[zone]:
            if card.tag_id == tag_id:
                return card
        what = "face-down card" if tag_id is None else f"card {tag_id} face up"
        raise ValueError(f"zone {zone} holds no {what}")

    def _free_spot(self, zone: CardZone) -> tuple[float, float]:
        """The centre of the zone's first free card spot (a row of upright cards), jittered."""
        width, height = CARD_SIZE_MM[0] + SLOT_GAP_MM, CARD_SIZE_MM[1] + SLOT_GAP_MM
        columns, rows = max(1, int(zone.w // width)), max(1, int(zone.h // height))
        taken = {(round(card.x), round(card.y)) for card in self.cards[zone.name]}
        for row in range(rows):
            for column in range(columns):
                x = zone.x + (column - (columns - 1) / 2) * width
                y = zone.y + (row - (rows - 1) / 2) * height
                if not any(
                    abs(x - tx) < width / 2 and abs(y - ty) < height / 2 for tx, ty in taken
                ):
                    return x + self._rng.uniform(-2, 2), y + self._rng.uniform(-2, 2)
        raise ValueError(f"zone {zone.name} is full ({columns * rows} cards)")

    # -- cameras -----------------------------------------------------------------------

    def camera_for(self, size: tuple[int, int]) -> RenderedCardsCamera | TruthCardsCamera:
        """The camera the world asks for: rendered frames of ``size``, or truth readings."""
        if self.camera is CameraMode.TRUTH:
            return TruthCardsCamera(self)
        return RenderedCardsCamera(self, self.camera_size or size)

    def laid(self) -> tuple[LaidCard, ...]:
        """Every card on the mat (a copy, safe to read from the camera thread)."""
        with self._lock:
            return tuple(card for cards in self.cards.values() for card in cards)

    # -- saving (the physical table outlives a crash of the program) -------------------

    def to_json(self) -> dict[str, Any]:
        """What lies where, JSON-ready (hands are transient and not kept)."""
        with self._lock:
            return {
                "cards": {
                    zone: [[card.x, card.y, card.tag_id, card.angle_deg] for card in cards]
                    for zone, cards in self.cards.items()
                }
            }

    def restore(self, data: Any) -> None:
        """Put every card back as :meth:`to_json` described it; ValueError if it is not that."""
        try:
            cards = {
                str(zone): [
                    LaidCard(float(x), float(y), _checked(tag), _name(_checked(tag)), float(turn))
                    for x, y, tag, turn in laid
                ]
                for zone, laid in data["cards"].items()
            }
            for zone in cards:
                self._zone(zone)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError(f"not a saved card mat: {error}") from error
        with self._lock:
            self.cards = {zone.name: cards.get(zone.name, []) for zone in self.mat.zones}
        self.changes += 1


def _checked(tag: Any) -> int | None:
    return None if tag is None else check_card_id(tag)


def _name(tag_id: int | None) -> str:
    return "" if tag_id is None else f"card {tag_id}"


def _label(cards: list[LaidCard]) -> tuple[tuple[int, ...], int]:
    face_up = tuple(sorted(card.tag_id for card in cards if card.tag_id is not None))
    return face_up, sum(card.tag_id is None for card in cards)


class RenderedCardsCamera:
    """Synthetic frames of the mat: the world's camera pose and light, fresh noise each frame."""

    def __init__(self, world: CardsWorld, size: tuple[int, int] = (1920, 1080)) -> None:
        self.world = world
        self.size = size
        self.renderer = CardRenderer()

    def grab(self) -> np.ndarray | None:
        """The frame the camera takes now, or ``None`` while it is unplugged."""
        if not self.world.camera_present:
            return None
        scene = replace(
            self.world.scene, cards=self.world.laid(), hands=tuple(self.world.hands.values())
        )
        return self.renderer.render(
            scene, self.size, self.world.seed * 1_000_003 + self.world.frames
        )

    def close(self) -> None:
        """Nothing to release."""


class TruthCardsCamera:
    """The reading a perfect camera and reader would give: every zone, hands as doubt, no pixels.

    Features (what a settling filter compares for motion) are the zones'
    labels hashed, so the mat is still exactly when nothing on it changes.
    """

    def __init__(self, world: CardsWorld) -> None:
        self.world = world

    def grab(self) -> CardMatReading:
        """This frame's reading of the mat (``ok`` False while the camera is unplugged)."""
        if not self.world.camera_present:
            return CardMatReading(status=NO_CAMERA, message="the camera is unplugged")
        contents, covered = self.world.contents(), self.world.covered_zones()
        zones = {
            name: ZoneReading(up, down, name in covered) for name, (up, down) in contents.items()
        }
        features = np.array(
            [[zlib.crc32(repr(label).encode()) % 7 / 7.0] * 3 for label in contents.values()]
        )
        return CardMatReading(
            zones,
            bool(covered),
            status=OK,
            message="a hand over the mat" if covered else "",
            homography=np.eye(3),
            features=features,
            corners_mm=np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]),
        )

    def close(self) -> None:
        """Nothing to release."""
