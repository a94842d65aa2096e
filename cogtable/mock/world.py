"""The simulated physical world of the mock table: cogs on pegs, hands over the board.

The world is what a camera could see: which cog (red, blue, gold) stands on
which peg, whether a hand and arm reach over the board, and whether the camera
is plugged in at all. Time is a :class:`SimClock` that moves one camera frame
per :meth:`MockWorld.tick`, so a game takes seconds of computing, not minutes
of waiting; ``actors`` (the simulated people) act once per tick.

Two cameras look at it: :class:`RenderedCamera` draws every frame with the
vision package's synthetic renderer (the reader then has to find the board);
:class:`TruthCamera` skips the pixels and hands over the reading the reader
would make of a perfect frame, for long test runs. Both go through the same
settling filter, controller, journal and LEDs.
"""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from vision.frame import OK
from vision.peg_disk.geometry import PEGS, BoardGeometry, Position, start_position
from vision.peg_disk.reading import Reading
from vision.peg_disk.renderer import Hand, Renderer, random_scene

Peg = tuple[int, int]
FRAME_SECONDS = 0.1
"""Simulated time between two camera frames (10 frames a second)."""


class CameraMode(StrEnum):
    """How the runtime's camera sees a mock world (a string enum: equal to its word)."""

    RENDER = "render"
    """Draw every frame and read it with the reader."""
    TRUTH = "truth"
    """Skip the pixels: the reading is what the world holds (fast)."""


def camera_mode(mode: str) -> CameraMode:
    """``mode`` as a :class:`CameraMode`; a ValueError naming the modes for any other word."""
    try:
        return CameraMode(mode)
    except ValueError:
        modes = ", ".join(CameraMode)
        raise ValueError(f"camera must be one of {modes}, not {mode!r}") from None


class SimClock:
    """Simulated seconds; only :meth:`advance` moves it. Safe to read from any thread."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> float:
        """The current simulated time."""
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> float:
        """Move time on by ``seconds``; the new time."""
        with self._lock:
            self._now += seconds
            return self._now


class SimulatedTime:
    """A mock world's time: one camera frame per :meth:`tick`, the people acting once each.

    ``actors`` are called with the world at every frame; ``frames`` counts them.
    """

    clock: SimClock
    frame_seconds: float
    frames: int
    actors: list[Callable[[Any], object]]

    def tick(self) -> float:
        """One camera frame later: time moves, then every actor acts once."""
        now = self.clock.advance(self.frame_seconds)
        self.frames += 1
        for act in list(self.actors):
            act(self)
        return now


class MockWorld(SimulatedTime):
    """The table's physical state as the camera would see it."""

    def __init__(
        self,
        position: Position | None = None,
        *,
        clock: SimClock | None = None,
        frame_seconds: float = FRAME_SECONDS,
        geometry: BoardGeometry | None = None,
        camera: str = CameraMode.RENDER,
        camera_size: tuple[int, int] | None = None,
        seed: int = 0,
    ) -> None:
        self.camera = camera_mode(camera)
        """How the runtime's camera sees this world: ``render`` (pixels) or ``truth``."""
        self.camera_size = camera_size
        """Frame size for ``render``; None: the profile's camera resolution."""
        self.seed = seed
        self.position: Position = dict(position or start_position())
        self.clock = clock or SimClock()
        self.frame_seconds = frame_seconds
        self.geometry = geometry or BoardGeometry()
        self.hand: Hand | None = None
        self.camera_present = True
        self.frames = 0
        self.actors: list[Callable[[MockWorld], object]] = []
        self.changes = 0
        """Counts every change to the board (to know when to save it); hands are transient."""

    # -- what people do to it -------------------------------------------------------

    def put(self, peg: Peg, colour: str | None) -> None:
        """Stand a cog of ``colour`` on ``peg`` (``None``: take whatever is there away)."""
        if peg not in self.position:
            raise ValueError(f"there is no peg {peg} on the board")
        self.position[peg] = colour
        self.changes += 1

    def arrange(self, position: Position) -> None:
        """Make the board look exactly like ``position`` (missing pegs are empty)."""
        for peg in PEGS:
            if self.position.get(peg) != position.get(peg):
                self.put(peg, position.get(peg))

    def reach(self, peg: Peg | None, rng: random.Random) -> None:
        """A hand over ``peg`` (jittered, the arm from a random side); ``None``: withdraw it."""
        if peg is None:
            self.hand = None
        else:
            x, y = self.geometry.peg_position(peg)
            pitch = self.geometry.peg_pitch
            centre = (x + rng.uniform(-0.4, 0.4) * pitch, y + rng.uniform(-0.4, 0.4) * pitch)
            self.hand = Hand(centre, rng.uniform(0, 360), rng.uniform(0.85, 1.15))

    def pieces(self) -> dict[Peg, str]:
        """The occupied pegs and their colours."""
        return {peg: colour for peg, colour in self.position.items() if colour}

    def camera_for(self, size: tuple[int, int]) -> RenderedCamera | TruthCamera:
        """The camera this world asks for: rendered frames of ``size``, or truth readings."""
        return world_camera(self, size)

    # -- saving (the physical world outlives a crash of the program) ----------------

    def to_json(self) -> dict[str, Any]:
        """The board as JSON-ready data (the hand is transient and not kept)."""
        return {"pieces": [[row, col, colour] for (row, col), colour in self.pieces().items()]}

    def restore(self, data: dict[str, Any]) -> None:
        """Put the board back as :meth:`to_json` described it; ValueError if it is not that."""
        try:
            pieces = {(int(r), int(c)): str(colour) for r, c, colour in data["pieces"]}
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a saved mock world: {error}") from error
        position = dict.fromkeys(PEGS)
        for peg, colour in pieces.items():
            if peg not in position or colour not in ("red", "blue", "gold"):
                raise ValueError(f"not a saved mock world: {colour} cog on peg {peg}")
            position[peg] = colour
        self.position = position
        self.changes += 1


def save_json(path: Path, data: dict[str, Any]) -> None:
    """Write JSON atomically: a crash leaves the old file or the new one, never half of one."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data), encoding="utf-8")
    os.replace(partial, path)


# -- cameras looking at the world ------------------------------------------------------


def world_camera(world: MockWorld, size: tuple[int, int]) -> RenderedCamera | TruthCamera:
    """The camera the world asks for: rendered frames of ``size``, or truth readings."""
    if world.camera is CameraMode.TRUTH:
        return TruthCamera(world)
    return RenderedCamera(world, world.camera_size or size, world.seed)


@dataclass
class RenderedCamera:
    """Synthetic frames of the world: a fixed random camera pose and light, fresh noise."""

    world: MockWorld
    size: tuple[int, int] = (640, 480)
    seed: int = 0

    def __post_init__(self) -> None:
        self.renderer = Renderer(self.world.geometry)
        self.scene = random_scene(np.random.default_rng(self.seed), self.world.position, self.size)

    def grab(self) -> np.ndarray | None:
        """The frame the camera takes now, or ``None`` while it is unplugged."""
        if not self.world.camera_present:
            return None
        scene = replace(self.scene, position=dict(self.world.position), hand=self.world.hand)
        return self.renderer.render(scene, seed=self.seed * 1_000_003 + self.world.frames)[0]

    def close(self) -> None:
        """Nothing to release."""


class TruthCamera:
    """The reading a perfect camera and reader would give: labels, sure evidence, covered,
    no pixels.

    Features (what the settling filter compares between frames for motion)
    are a fixed colour per label, so the board is still exactly when nothing
    on it changes; a hand makes the reading covered, as the reader does.
    """

    FEATURES: ClassVar[dict[str | None, tuple[float, float, float]]] = {
        None: (0.0, 0.0, 0.0),
        "red": (-1.0, -1.0, 1.0),
        "blue": (1.0, -0.5, -1.0),
        "gold": (-1.0, 0.5, 0.5),
    }

    DOUBT: ClassVar[float] = -20.0
    """Log likelihood of every class but the true one (and of none of them): a sure reading."""

    def __init__(self, world: MockWorld) -> None:
        self.world = world
        self.homography = np.eye(3)

    def grab(self) -> Reading | None:
        """The reading of this frame, or ``None`` while the camera is unplugged."""
        if not self.world.camera_present:
            return None
        labels = tuple(self.world.position.get(peg) for peg in PEGS)
        features = np.array([self.FEATURES[label] for label in labels])
        covered = self.world.hand is not None
        message = "something over the board (a hand)" if covered else ""
        confidence = tuple(0.3 if covered else 1.0 for _ in PEGS)
        classes = np.array([Reading.classes.index(label) for label in labels])
        sure = np.where(np.eye(len(Reading.classes), dtype=bool)[classes], 0.0, self.DOUBT)
        return Reading(
            OK,
            message,
            labels,
            confidence,
            covered,
            {},
            self.homography,
            features.copy(),
            log_likelihood=sure,
            unseen=np.full(len(PEGS), self.DOUBT),
        )

    def close(self) -> None:
        """Nothing to release."""
