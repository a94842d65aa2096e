"""Hands over the Kogworks disk for ``benchmarks/perception_peg_disk.py``'s tuning rows.

A move made by hand, frame by frame (:func:`arm_frames`): the arm comes in over the board
towards the peg the move fills, holds the cog above it, sets it down (the fingers still on
it), may rest beside it, and goes. Each board's hand has a style (:data:`STYLES`), after the
hands that slip past a reader: a hand or glove the board's colour, a sleeve the board's
colour, thin fingers that touch only the edges of a few pegs, a hand fast enough to blur,
one that is over the board in the first frame it is seen (it came between two frames), the
shadow of a hand above the picture before the hand comes, a hand that rests still over
some pegs' edges. Our renderer only (:mod:`vision.peg_disk.renderer`).

The truth of a frame (:meth:`Truth.see`) is as strict as issue 25's: no commit is made on a
frame where the hand covers any part of any peg's place (the disc a cog fills), a cog is held
above a peg, or anything changed since the frame before (a hand moving, a cog set down, the
hand gone); and none is judged on a still window holding a frame with a peg covered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

import numpy as np

from vision.markers import project
from vision.peg_disk.geometry import BoardGeometry, Position
from vision.peg_disk.renderer import Hand, HeldCog, Scene, camera_homography, hand_mask
from vision.peg_disk.sprites import Look

COG_RADIUS = 0.56
"""A cog's outer radius in peg pitches (the renderer's): a peg's place is that disc."""
COVER_ALPHA = 0.05
"""A point of a peg's place under this much of the hand (alpha) is covered."""


class Style(Enum):
    """How a board's hand looks and moves."""

    SKIN = "skin"
    BOARD_COLOURED = "board-coloured hand"
    SLEEVE = "board-coloured sleeve"
    FINGERS = "thin fingers"
    FAST = "fast, blurred"
    SUDDEN = "there between frames"
    SHADOW_FIRST = "shadow first"
    RESTING = "resting beside"


STYLES = tuple(Style)


@dataclass(frozen=True)
class Phase:
    """One frame of a hand's move: its name and the palm's distance beyond its place over
    the peg, in disk radii."""

    name: str
    reach: float


ARM_PHASES = (
    Phase("coming", 0.9),
    Phase("coming", 0.5),
    Phase("coming", 0.2),
    Phase("holding", 0.0),
    Phase("holding", 0.0),
    Phase("holding", 0.0),
    Phase("down", 0.0),
    Phase("down", 0.0),
    Phase("going", 0.3),
    Phase("going", 0.7),
)
"""A hand's move, frame by frame (coming in; holding the cog above the peg; the cog down,
fingers on it; going)."""
RESTING = (Phase("resting", 0.45),) * 8
"""A hand resting beside the peg it filled, still, its fingers over other pegs' edges."""
PALM_FROM_PEG = 70.0
"""Millimetres from the peg to the palm: the fingers (95 mm) reach over the peg."""
HAND_FRAMES = 3


def hand_of(style: Style, look: Look, rng: np.random.Generator) -> dict:
    """The :class:`Hand` fields a style sets (besides where the hand is)."""
    board = np.array(look.board, float)
    if style is Style.BOARD_COLOURED:
        return {"skin": tuple(float(v) for v in board * rng.uniform(0.88, 1.02, 3))}
    if style is Style.SLEEVE:
        return {"sleeve": tuple(float(v) for v in board * rng.uniform(0.85, 1.0, 3))}
    if style is Style.FINGERS:
        return {
            "finger_width": float(rng.uniform(8, 12)),
            "arm_width": float(rng.uniform(35, 50)),
            "size": float(rng.uniform(0.7, 0.85)),
        }
    return {}


def arm_frames(
    scene: Scene,
    before: Position,
    after: Position,
    rng: np.random.Generator,
    *,
    geometry: BoardGeometry,
    look: Look,
) -> list[tuple[Scene, Position]]:
    """A move made by hand, frame by frame (scene, what the pegs hold), in a style drawn from
    :data:`STYLES`; a move that fills no peg is a hand over the board for
    :data:`HAND_FRAMES` frames."""
    style = STYLES[int(rng.integers(len(STYLES)))]
    filled = [peg for peg in after if after[peg] is not None and before.get(peg) != after[peg]]
    if not filled:
        hand = Hand((0.0, 0.0), float(rng.uniform(0, 360)), **_sized(hand_of(style, look, rng)))
        return [(replace(scene, hand=hand), after)] * HAND_FRAMES
    peg = filled[int(rng.integers(len(filled)))]
    target = np.array(geometry.peg_position(peg))
    angle = float(rng.uniform(0, 2 * math.pi))
    outward = np.array([math.cos(angle), math.sin(angle)])
    fields = _sized(hand_of(style, look, rng), float(rng.uniform(0.85, 1.15)))
    held = HeldCog(peg, str(after[peg]), scale=float(rng.uniform(1.15, 1.35)))
    phases = _phases(style)
    frames = []
    for index, phase in enumerate(phases):
        palm = target + outward * (PALM_FROM_PEG + phase.reach * geometry.disk_radius)
        blur = float(rng.uniform(10, 25)) if style is Style.FAST and phase.reach > 0 else 0.0
        shadow_only = style is Style.SHADOW_FIRST and index < 2
        hand = Hand(
            (float(palm[0]), float(palm[1])),
            math.degrees(angle),
            blur=blur,
            shown=not shadow_only,
            **fields,
        )
        if shadow_only:
            hand = replace(hand, centre=tuple(float(v) for v in palm + outward * 80.0))
        shown = replace(scene, hand=hand, held=held if phase.name == "holding" else None)
        frames.append((shown, before if phase.name in ("coming", "holding") else after))
    return frames


def _sized(fields: dict, size: float = 1.0) -> dict:
    return {"size": size, **fields}


def _phases(style: Style) -> tuple[Phase, ...]:
    """The frames of a style's move."""
    if style is Style.SUDDEN:
        return ARM_PHASES[3:]
    if style is Style.RESTING:
        return ARM_PHASES[:8] + RESTING + ARM_PHASES[8:]
    if style is Style.SHADOW_FIRST:
        return (Phase("coming", 1.2), Phase("coming", 1.0), *ARM_PHASES)
    return ARM_PHASES


class Truth:
    """Whether a hand is over the board in a frame, as strictly as issue 25 counts it."""

    def __init__(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        pitch = geometry.peg_pitch
        rings = [np.zeros((1, 2))]
        for share, count in ((0.2, 8), (0.4, 16), (COG_RADIUS, 32)):
            angles = np.arange(count) * 2 * np.pi / count
            rings.append(share * pitch * np.column_stack([np.cos(angles), np.sin(angles)]))
        self.places = geometry.peg_positions()[:, None, :] + np.concatenate(rings)[None]
        self.previous: Scene | None = None

    def covered(self, scene: Scene) -> bool:
        """The hand covers some part of some peg's place (or a cog is held above one)."""
        if scene.held is not None:
            return True
        if scene.hand is None or not scene.hand.shown:
            return False
        homography = camera_homography(self.geometry, scene.camera, scene.size)
        mask, _ = hand_mask((scene.size[1], scene.size[0]), scene.hand, homography)
        pixels = np.round(project(homography, self.places.reshape(-1, 2))).astype(int)
        x = np.clip(pixels[:, 0], 0, scene.size[0] - 1)
        y = np.clip(pixels[:, 1], 0, scene.size[1] - 1)
        return bool((mask[y, x] >= COVER_ALPHA).any())

    def see(self, scene: Scene) -> Seen:
        """What a frame shows of the hand (``scene`` is every frame's, in order)."""
        previous, self.previous = self.previous, scene
        changed = previous is not None and (
            previous.hand != scene.hand
            or previous.held != scene.held
            or previous.position != scene.position
        )
        covered = self.covered(scene)
        return Seen(changed or covered, covered)


@dataclass(frozen=True)
class Seen:
    """A frame's truth: ``busy`` (covered, or anything changed since the frame before: no
    commit may be made on it) and ``covered`` (no commit may be judged on it)."""

    busy: bool
    covered: bool
