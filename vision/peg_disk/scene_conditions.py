"""Named camera conditions of the synthetic renderer: the range the Kogworks reader must handle.

Each :class:`Condition` draws random scenes of one kind (a tilted camera with
tall cogs, a hand over a marker, clipped light and glints, drifted white
balance, bright metal pins, heavy JPEG, a bump's motion blur, a hand over the
pegs, stronger glare). The benchmark and the tests read frames of every condition in two sets:
the *tuning* set (reference look, seeds below :data:`HELD_OUT_SEEDS`) and the
*held-out* set (:data:`vision.peg_disk.sprites.HELD_OUT_LOOK`, seeds from
:data:`HELD_OUT_SEEDS`), which the reader is never tuned on.

>>> condition = CONDITIONS["tall cogs"]
>>> scene = condition.scene(np.random.default_rng(1), (640, 480))
>>> 10 <= scene.camera.tilt_deg <= 15 and 3 <= scene.cog_height <= 6
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from vision.markers import project
from vision.peg_disk.geometry import LABELS, PEGS, BoardGeometry, Position, start_position
from vision.peg_disk.renderer import (
    Camera,
    Glare,
    Hand,
    Scene,
    Sensor,
    camera_homography,
    random_hand,
    random_scene,
)
from vision.peg_disk.sprites import HELD_OUT_LOOK, REFERENCE_LOOK, Look

TUNING_SEEDS = 600_000
"""First seed of the tuning set."""
HELD_OUT_SEEDS = 700_000
"""First seed of the held-out set: never used to tune the reader."""
METAL_PINS_LOOK = replace(REFERENCE_LOOK, pin=(205, 205, 210), hub=(190, 190, 196))
"""The reference set with bright metal pins and hubs (a tuning-set condition)."""

GEOMETRY = BoardGeometry()


@dataclass(frozen=True)
class Condition:
    """One kind of frame: how to draw a random scene, and whether it should be committed.

    ``readable`` is False for frames that must never be committed (a hand over
    the pegs, a frame blurred by a bump); ``look`` overrides the set's look.
    """

    name: str
    make: Callable[[np.random.Generator, tuple[int, int]], Scene]
    readable: bool = True
    look: Look | None = None

    def scene(self, rng: np.random.Generator, size: tuple[int, int]) -> Scene:
        """A random scene of this condition."""
        return self.make(rng, size)


def random_position(rng: np.random.Generator) -> Position:
    """The three fixed wheels plus cogs on a random share (10-80%) of the other pegs."""
    position = start_position()
    fill = rng.uniform(0.1, 0.8)
    for peg in PEGS:
        if position[peg] is None and rng.random() < fill:
            position[peg] = str(rng.choice(LABELS))
    return position


def _plain(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """A random pose up to 15 degrees, light, cast, noise, blur and JPEG."""
    return random_scene(rng, random_position(rng), size, max_tilt=15.0)


def _tall_cogs(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """A camera 10-15 degrees off straight down, 0.5-0.9 m away, cog tops 3-6 mm up."""
    scene = _plain(rng, size)
    camera = replace(
        scene.camera,
        tilt_deg=float(rng.uniform(10, 15)),
        distance=float(rng.uniform(500, 900)),
    )
    return replace(scene, camera=camera, cog_height=float(rng.uniform(3, 6)))


def _marker_covered(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """A hand resting over one marker, its fingers short of the disk, its arm going away."""
    scene = _tall_cogs(rng, size)
    marker = GEOMETRY.markers[int(rng.choice(GEOMETRY.marker_ids()))]
    centre = (1.12 * marker[0], 1.12 * marker[1])
    homography = camera_homography(GEOMETRY, scene.camera, size)
    middle, palm = project(homography, np.array([(0.0, 0.0), centre]))
    outward = math.degrees(math.atan2(palm[1] - middle[1], palm[0] - middle[0]))
    return replace(scene, hand=Hand(centre, outward + float(rng.uniform(-20, 20)), 0.9))


def _glare(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Bright light that clips the board and gold cogs, a mild hot patch and 2-4 glints."""
    scene = _tall_cogs(rng, size)
    lighting = replace(scene.lighting, brightness=float(rng.uniform(1.2, 1.55)))
    pegs = GEOMETRY.peg_positions()
    rim = GEOMETRY.rim_points(72)
    spots = [pegs[int(rng.integers(len(pegs)))] + rng.uniform(-4, 4, 2) for _ in range(2)]
    spots += [rim[int(rng.integers(len(rim)))] for _ in range(int(rng.integers(0, 3)))]
    glare = Glare(
        centre=tuple(float(v) for v in rng.uniform(-80, 80, 2)),
        radius=float(rng.uniform(60, 140)),
        strength=float(rng.uniform(10, 35)),
        spots=tuple((float(x), float(y)) for x, y in spots),
        spot_radius=float(rng.uniform(1.0, 2.5)),
    )
    return replace(scene, lighting=lighting, glare=glare)


def _strong_glare(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Harder light than :func:`_glare`: brighter (1.15-1.75), a hot patch adding 25-60 grey
    levels, 1-4 glints on pegs and 0-4 on or near the rim, up to 3 mm across.

    A dark set shows white light added more than a pale one does (its dark
    channels are lifted the most): this range covers a darker set's glare.
    """
    scene = _tall_cogs(rng, size)
    lighting = replace(scene.lighting, brightness=float(rng.uniform(1.15, 1.75)))
    pegs = GEOMETRY.peg_positions()
    rim = GEOMETRY.rim_points(72)
    spots = [
        pegs[int(rng.integers(len(pegs)))] + rng.uniform(-4, 4, 2)
        for _ in range(int(rng.integers(1, 5)))
    ]
    spots += [
        rim[int(rng.integers(len(rim)))] + rng.uniform(-3, 3, 2)
        for _ in range(int(rng.integers(0, 5)))
    ]
    glare = Glare(
        centre=tuple(float(v) for v in rng.uniform(-90, 90, 2)),
        radius=float(rng.uniform(50, 160)),
        strength=float(rng.uniform(25, 60)),
        spots=tuple((float(x), float(y)) for x, y in spots),
        spot_radius=float(rng.uniform(1.0, 3.0)),
    )
    return replace(scene, lighting=lighting, glare=glare)


def _white_balance(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Auto white balance drifted: a per-channel cast of 0.72-1.35."""
    scene = _tall_cogs(rng, size)
    cast = tuple(float(v) for v in rng.uniform(0.72, 1.35, 3))
    return replace(scene, lighting=replace(scene.lighting, cast=cast))


def _compressed(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Heavy JPEG (quality 35-60) and sensor noise of 4-8 grey levels."""
    scene = _tall_cogs(rng, size)
    sensor = Sensor(
        noise=float(rng.uniform(4, 8)),
        blur=float(rng.uniform(0, 0.8)),
        jpeg=int(rng.integers(35, 61)),
    )
    return replace(scene, sensor=sensor)


def _bumped(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """The table bumped: a straight motion blur of 0.5-2% of the frame width."""
    scene = _plain(rng, size)
    sensor = replace(
        scene.sensor,
        motion=float(rng.uniform(0.005, 0.02) * size[0]),
        motion_deg=float(rng.uniform(0, 180)),
    )
    return replace(scene, sensor=sensor)


def _hand_over_pegs(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """A hand and arm somewhere over the pegs."""
    return replace(_tall_cogs(rng, size), hand=random_hand(rng, GEOMETRY))


CONDITIONS: dict[str, Condition] = {
    condition.name: condition
    for condition in (
        Condition("plain", _plain),
        Condition("tall cogs", _tall_cogs),
        Condition("marker covered", _marker_covered),
        Condition("glare", _glare),
        Condition("white balance", _white_balance),
        Condition("metal pins", _tall_cogs, look=METAL_PINS_LOOK),
        Condition("jpeg", _compressed),
        Condition("bumped", _bumped, readable=False),
        Condition("hand over pegs", _hand_over_pegs, readable=False),
        Condition("strong glare", _strong_glare),
    )
}
"""Every condition, by name."""


@dataclass(frozen=True)
class FrameSet:
    """The tuning set or the held-out set: a look and a first seed."""

    name: str
    look: Look
    first_seed: int


TUNING = FrameSet("tuning", REFERENCE_LOOK, TUNING_SEEDS)
HELD_OUT = FrameSet("held-out", HELD_OUT_LOOK, HELD_OUT_SEEDS)


def look_of(condition: Condition, frame_set: FrameSet) -> Look:
    """The look a condition is drawn in within a set (the held-out look always wins)."""
    if frame_set is HELD_OUT or condition.look is None:
        return frame_set.look
    return condition.look


def calibration_scene(size: tuple[int, int]) -> Scene:
    """The start position, square to the camera, as a user calibrates."""
    return Scene(start_position(), size, Camera(fill=0.9))
