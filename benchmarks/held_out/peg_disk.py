"""Held-out frames of the Kogworks peg disk, drawn apart from the readers, with their truth.

The board is the printed sheet of the reference table (``hardware/profiles/
reference.toml``): a 440 mm square with the four DICT_4X4_50 markers (ids 0-3,
45 mm, centred at (+-180, +-180) mm), the disk (radius 162 mm) and the 55 peg
circles (pitch 25 mm), mounted on a panel with a peg standing in every peg
centre. Cogs (tip radius 14 mm, 6 mm thick) stand on the pegs. A pinhole
camera looks down at it; a lamp and the room light it; a sensor exposes it.

Seeds: only seeds >= 9_000_000 are drawn (:data:`HELD_OUT_SEED_MIN`); readers
never tune on these frames or seeds. A seed fixes the scene (camera, board,
paints, light, hand); ``frame_index`` fixes the sensor noise and, under
``relit``, the light of that frame. Frames of one still scene differ by their
noise only (and the light, when relit).

Conditions (:class:`Condition`, combine several by passing a set):

- ``plain``: the paper sheet, the standard paints, overhead light, camera
  within 6 degrees of straight down, mild sensor noise and JPEG 88-95;
- ``tilted``: the camera 10-20 degrees from straight down (perspective);
- ``dim``: a quarter of the light, the camera's gain up (more noise);
- ``bright``: over-exposed, the paper clips;
- ``noisy``: a cheap webcam: strong shot, read and chroma noise, blur,
  sharpening halos, JPEG 55-75;
- ``relit``: the light (level 0.55-1.45, colour, gradient) changes between
  frames, in steps every few frames;
- ``paints``: other board paints (the disk painted) and other cog paints;
- ``wood``: a grained wooden panel and disk, markers on paper stickers;
- ``shadows``: a low lamp: cogs and pegs cast shadows on their neighbours;
- ``small``: the board fills a third to a half of the frame's height;
- ``glare``: a lamp's reflection on the board, clipping at its core;
- ``held_cog``: a hand holds a cog 20-60 mm above an empty peg;
- ``arm``: an arm and hand lie over part of the board.

Truth (:class:`DiskTruth`): the cog on every peg (peg numbers as the game
counts them, 0..54 row by row from the apex: ``labels``; ``position()``
gives the reader's (row, column) form), the share of each peg's place hidden
in the image by a hand or a held cog (``covered_share``; ``covered`` holds
the pegs with at least :data:`COVERED_SHARE`), the share of each marker
hidden, the cogs held in the air, whether a hand is in the frame and whether
anything moved since the last frame, and the homographies from board
millimetres to image pixels at the board and at the cogs' tops.

>>> from benchmarks.held_out.peg_disk import render_still, start_labels
>>> frame, truth = render_still(start_labels(), "plain", 9_000_000, 0, (1280, 720))
>>> frame.shape, truth.labels[0], truth.covered
((720, 1280, 3), 'gold', frozenset())
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

import cv2
import numpy as np

from benchmarks.held_out import textures
from benchmarks.held_out.hands import (
    Hand,
    HandLayer,
    draw_hand,
    gripping,
    hand_toward,
)
from benchmarks.held_out.optics import (
    Box,
    Camera,
    Lamp,
    Relight,
    Sensor,
    blend,
    check_seed,
    check_size,
    circle,
    expose,
    grid_alpha,
    lens,
    look_down,
    plane_field,
    polygon_alpha,
    rng_for,
    vignette,
)
from games.kogworks.board import NUM_PEGS, ROW_COL, parse_peg
from hardware.profile import load_profile

PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "profiles" / "reference.toml"
SHEET_MM = 440.0
"""Side of the printed square sheet (the board's panel)."""
COG_THICKNESS_MM = 6.0
PEG_RADIUS_MM = 2.4
PEG_HEIGHT_MM = 8.5
"""A peg stands 2.5 mm above the top of a cog on it."""
COG_TEETH = 12
COVERED_SHARE = 0.02
"""A peg whose place is hidden at least this much (image area) counts as covered."""
COLOURS = ("red", "blue", "gold")


class Condition(StrEnum):
    """What a frame is drawn under (see the module docstring)."""

    PLAIN = "plain"
    TILTED = "tilted"
    DIM = "dim"
    BRIGHT = "bright"
    NOISY = "noisy"
    RELIT = "relit"
    PAINTS = "paints"
    WOOD = "wood"
    SHADOWS = "shadows"
    SMALL = "small"
    GLARE = "glare"
    HELD_COG = "held_cog"
    ARM = "arm"


STILL_CONDITIONS = (
    Condition.PLAIN,
    Condition.TILTED,
    Condition.DIM,
    Condition.BRIGHT,
    Condition.NOISY,
    Condition.RELIT,
)
"""The conditions of issue 25's table: a clear, still board under each."""
LOOK_CONDITIONS = (
    Condition.PAINTS,
    Condition.WOOD,
    Condition.SHADOWS,
    Condition.SMALL,
    Condition.GLARE,
)
"""Looks our own renderer does not draw; combine them with a still condition."""
HAND_CONDITIONS = (Condition.HELD_COG, Condition.ARM)
"""Something over the board: the truth says which pegs it hides."""

Conditions = Condition | str | Iterable[Condition | str]
Labels = tuple[str | None, ...]
"""The cog on each peg, by peg number (0..54, apex first): "red", "blue", "gold" or None."""


# -- positions ------------------------------------------------------------------


def labels_of(position: Mapping[object, str | None]) -> Labels:
    """Every peg's cog from a mapping keyed by peg number, (row, column) or ``"7.3"``."""
    labels: list[str | None] = [None] * NUM_PEGS
    for key, colour in position.items():
        peg = _peg_number(key)
        if colour is not None and colour not in COLOURS:
            raise ValueError(f"peg {key!r}: {colour!r} is not one of {COLOURS} or None")
        labels[peg] = colour
    return tuple(labels)


def _peg_number(key: object) -> int:
    if isinstance(key, str):
        return parse_peg(key)
    if isinstance(key, tuple) and len(key) == 2:
        return ROW_COL.index((int(key[0]), int(key[1])))
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < NUM_PEGS:
        return key
    raise ValueError(f"{key!r} is not a peg (a number 0..54, (row, column) or '7.3')")


def labels_of_state(state) -> Labels:
    """The labels of a :class:`games.kogworks.KogworksState` (the top wheel gold)."""
    labels: list[str | None] = [None] * NUM_PEGS
    labels[0] = "gold"
    for player, colour in ((0, "red"), (1, "blue")):
        for peg in state.cogs(player):
            labels[peg] = colour
    return tuple(labels)


def start_labels() -> Labels:
    """The Kogworks start: the gold top wheel and both bases."""
    return labels_of({0: "gold", 45: "red", 54: "blue"})


def random_labels(seed: int, moves: int) -> Labels:
    """The board after ``moves`` random legal moves of a game seeded by ``seed``."""
    from games.kogworks import new_game

    state = new_game(seed=seed)
    rng = rng_for(seed, 11)
    for _ in range(moves):
        actions = state.legal_actions()
        if not actions or state.is_over():
            break
        state.apply(actions[int(rng.integers(len(actions)))])
    return labels_of_state(state)


# -- the truth ------------------------------------------------------------------


@dataclass(frozen=True)
class HeldCog:
    """A cog in a hand, in the air over a peg (not on the board)."""

    colour: str
    over: int
    """The peg number it is over."""
    height_mm: float
    """Height of its underside above the board."""


@dataclass(frozen=True, eq=False)
class DiskTruth:
    """What a frame shows, as a referee would say it."""

    labels: Labels
    """The cog standing on each peg (peg numbers 0..54); a held cog is not on a peg."""
    covered_share: tuple[float, ...]
    """Per peg: the share of its place (a cog's top circle in the image) hidden by a
    hand, an arm or a held cog."""
    markers_hidden: dict[int, float]
    """Per marker id: the share of its square hidden."""
    held: tuple[HeldCog, ...]
    hand: bool
    """A hand or an arm is in the frame."""
    moving: bool
    """Something moved since the previous frame of the sequence (a still frame: False)."""
    board_to_image: np.ndarray
    """3x3 homography: board millimetres (origin at the disk's centre) to pixels."""
    cog_top_to_image: np.ndarray
    """The same at the height of a cog's top (6 mm up)."""
    conditions: tuple[str, ...]
    seed: int
    frame_index: int
    size: tuple[int, int]
    time_s: float = 0.0

    @property
    def covered(self) -> frozenset[int]:
        """The pegs hidden at least :data:`COVERED_SHARE`."""
        return frozenset(p for p, s in enumerate(self.covered_share) if s >= COVERED_SHARE)

    @property
    def clear(self) -> bool:
        """Nothing over the board, nothing held, nothing moving: a board to commit."""
        return not self.hand and not self.held and not self.moving and not self.covered

    def position(self) -> dict[tuple[int, int], str | None]:
        """The labels keyed by (row, column), as the peg disk reader writes a position."""
        return {ROW_COL[peg]: label for peg, label in enumerate(self.labels)}

    def peg_pixels(self) -> np.ndarray:
        """Image pixels (55, 2) of the peg centres on the board."""
        return cv2.perspectiveTransform(BOARD.pegs.reshape(-1, 1, 2), self.board_to_image).reshape(
            -1, 2
        )


# -- the board ------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """The reference table's board, from its profile."""

    pitch: float
    marker_size: float
    markers: dict[int, tuple[float, float]]
    disk_radius: float

    @property
    def cog_radius(self) -> float:
        """Tip radius of a cog: neighbouring cogs mesh."""
        return 0.56 * self.pitch

    @property
    def pegs(self) -> np.ndarray:
        """Peg centres (55, 2) in board mm: row r at (r - 6) row heights, centred columns."""
        row_height = self.pitch * math.sqrt(3) / 2
        return np.array(
            [((c - r / 2) * self.pitch, (r - 6) * row_height) for r, c in ROW_COL],
            dtype=np.float64,
        )

    def marker_square(self, marker_id: int) -> np.ndarray:
        """The marker's corners (4, 2) in board mm, TL, TR, BR, BL."""
        x, y = self.markers[marker_id]
        h = self.marker_size / 2
        return np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)])


def _load_board() -> Board:
    board = load_profile(PROFILE).board
    return Board(
        board.peg_pitch_mm,
        board.marker_size_mm,
        {m.id: (m.x_mm, m.y_mm) for m in board.markers},
        board.disk_radius_mm,
    )


BOARD = _load_board()


# -- what the seed chooses --------------------------------------------------------

PAPER = (0.80, 0.83, 0.85)
INK = (0.035, 0.035, 0.04)
STANDARD_COGS = {"red": (0.05, 0.05, 0.60), "blue": (0.55, 0.16, 0.03), "gold": (0.06, 0.42, 0.72)}
OTHER_COGS = {
    "red": ((0.10, 0.03, 0.42), (0.03, 0.14, 0.75), (0.10, 0.10, 0.45), (0.16, 0.10, 0.72)),
    "blue": ((0.30, 0.07, 0.02), (0.70, 0.30, 0.05), (0.72, 0.42, 0.14), (0.50, 0.30, 0.04)),
    "gold": ((0.04, 0.58, 0.76), (0.10, 0.38, 0.52), (0.05, 0.32, 0.60), (0.20, 0.55, 0.70)),
}
BOARD_PAINTS = (
    (0.55, 0.72, 0.80),  # cream
    (0.55, 0.56, 0.56),  # light grey
    (0.40, 0.52, 0.44),  # sage green
    (0.66, 0.58, 0.50),  # pale blue-grey
    (0.30, 0.30, 0.30),  # mid grey
    (0.12, 0.11, 0.10),  # slate black
)
PANEL_WOODS = ((0.30, 0.48, 0.64), (0.20, 0.36, 0.55), (0.36, 0.55, 0.70), (0.14, 0.26, 0.45))
PEG_COLOURS = ((0.45, 0.55, 0.60), (0.05, 0.05, 0.05), (0.12, 0.35, 0.50), (0.30, 0.45, 0.62))


@dataclass(frozen=True)
class Look:
    """The board's and cogs' materials."""

    kind: str
    """"paper" (the printed sheet), "paint" (the disk painted) or "wood"."""
    disk: tuple[float, float, float]
    panel: tuple[float, float, float]
    line: tuple[float, float, float]
    peg: tuple[float, float, float]
    cogs: dict[str, tuple[float, float, float]]
    gloss: float


@dataclass(frozen=True)
class Scene:
    """Everything a seed fixes for one still scene."""

    conditions: frozenset[Condition]
    seed: int
    size: tuple[int, int]
    camera: Camera
    lamp: Lamp
    sensor: Sensor
    look: Look
    glare: tuple[tuple[float, float, float, float], ...]
    """Glare spots: board x, y (mm), radius (mm), peak (times white)."""
    relit: bool
    hand: Hand | None = None
    held: HeldCog | None = None


def parse_conditions(conditions: Conditions) -> frozenset[Condition]:
    """The conditions as a set; ValueError names an unknown one."""
    items = [conditions] if isinstance(conditions, str | Condition) else list(conditions)
    try:
        return frozenset(Condition(str(c)) for c in items)
    except ValueError as error:
        known = ", ".join(c.value for c in Condition)
        raise ValueError(f"unknown condition in {items!r}; known: {known}") from error


def make_scene(
    labels: Labels, conditions: frozenset[Condition], seed: int, size: tuple[int, int]
) -> Scene:
    """The scene a seed draws under these conditions (the labels choose a held cog's peg)."""
    rng = rng_for(seed, 1)
    camera = _camera(conditions, size, rng)
    lamp = _lamp(conditions, rng)
    sensor = _sensor(conditions, rng)
    look = _look(conditions, rng)
    glare = _glare(conditions, rng)
    scene = Scene(
        conditions, seed, size, camera, lamp, sensor, look, glare, Condition.RELIT in conditions
    )
    if Condition.HELD_COG in conditions:
        scene = _with_held_cog(scene, labels, rng)
    elif Condition.ARM in conditions:
        target = BOARD.pegs[int(rng.integers(NUM_PEGS))]
        scene = replace(scene, hand=hand_toward(target, rng.uniform(50, 160), rng))
    return scene


def _camera(conditions, size, rng) -> Camera:
    tilt = rng.uniform(10, 20) if Condition.TILTED in conditions else rng.uniform(0, 6)
    fill = rng.uniform(0.33, 0.48) if Condition.SMALL in conditions else rng.uniform(0.80, 0.94)
    half = SHEET_MM / 2
    corners = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    return look_down(
        size,
        corners,
        fill=fill,
        tilt_deg=tilt,
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=rng.uniform(-6, 6),
        distance_mm=rng.uniform(700, 1100),
        rng=rng,
    )


def _lamp(conditions, rng) -> Lamp:
    azimuth = rng.uniform(0, 2 * np.pi)
    if Condition.SHADOWS in conditions:
        elevation = np.deg2rad(rng.uniform(25, 40))
        height = rng.uniform(500, 800)
        ambient = rng.uniform(0.15, 0.30)
    else:
        elevation = np.deg2rad(rng.uniform(55, 85))
        height = rng.uniform(900, 1500)
        ambient = rng.uniform(0.45, 0.65)
    reach = height / np.tan(elevation)
    position = (reach * np.cos(azimuth), reach * np.sin(azimuth), height)
    level = rng.uniform(0.92, 1.05)
    if Condition.DIM in conditions:
        level *= rng.uniform(0.20, 0.32)
    warm = rng.uniform(-0.06, 0.06)
    colour = (1.0 - warm, 1.0, 1.0 + warm)
    return Lamp(position, ambient, level, colour, rng.uniform(0.02, 0.05))


def _sensor(conditions, rng) -> Sensor:
    white = tuple(float(v) for v in rng.uniform(0.95, 1.05, 3))
    sensor = Sensor(
        exposure=rng.uniform(0.95, 1.1),
        full_well=rng.uniform(2000, 4000),
        read_noise=rng.uniform(0.003, 0.006),
        white=white,
        blur=rng.uniform(0.55, 0.9),
        jpeg=int(rng.integers(88, 96)),
    )
    if Condition.DIM in conditions:
        sensor = replace(sensor, gain=rng.uniform(1.6, 2.6))
    if Condition.BRIGHT in conditions:
        sensor = replace(sensor, exposure=rng.uniform(1.6, 2.3))
    if Condition.NOISY in conditions:
        sensor = replace(
            sensor,
            full_well=rng.uniform(250, 500),
            read_noise=rng.uniform(0.01, 0.02),
            chroma=rng.uniform(0.015, 0.035),
            jpeg=int(rng.integers(55, 76)),
            blur=rng.uniform(1.0, 1.4),
            sharpen=rng.uniform(0.5, 1.0),
        )
    return sensor


def _look(conditions, rng) -> Look:
    cogs = {c: _jitter(STANDARD_COGS[c], rng, 0.04) for c in COLOURS}
    if Condition.PAINTS in conditions:
        cogs = {c: _jitter(OTHER_COGS[c][rng.integers(4)], rng, 0.05) for c in COLOURS}
    peg = PEG_COLOURS[rng.integers(len(PEG_COLOURS))]
    if Condition.WOOD in conditions:
        wood = PANEL_WOODS[rng.integers(len(PANEL_WOODS))]
        line = tuple(0.45 * v for v in wood)
        return Look("wood", wood, wood, line, peg, cogs, rng.uniform(0.1, 0.4))
    if Condition.PAINTS in conditions:
        paint = _jitter(BOARD_PAINTS[rng.integers(len(BOARD_PAINTS))], rng, 0.03)
        dark = sum(paint) / 3 < 0.2
        line = (
            tuple(min(1.0, 2.8 * v + 0.1) for v in paint) if dark else tuple(0.5 * v for v in paint)
        )
        return Look(
            "paint", paint, _jitter(PAPER, rng, 0.02), line, peg, cogs, rng.uniform(0.2, 0.6)
        )
    paper = _jitter(PAPER, rng, 0.02)
    return Look("paper", paper, paper, (0.40, 0.40, 0.40), peg, cogs, rng.uniform(0.1, 0.3))


def _jitter(colour, rng, amount: float) -> tuple[float, float, float]:
    scale = rng.uniform(1 - amount, 1 + amount, 3) * rng.uniform(1 - amount, 1 + amount)
    return tuple(float(np.clip(v * s, 0.0, 0.95)) for v, s in zip(colour, scale, strict=True))


def _glare(conditions, rng) -> tuple[tuple[float, float, float, float], ...]:
    if Condition.GLARE not in conditions:
        return ()
    spots = []
    for _ in range(int(rng.integers(1, 3))):
        angle, reach = rng.uniform(0, 2 * np.pi), rng.uniform(0, 150)
        spots.append(
            (
                reach * np.cos(angle),
                reach * np.sin(angle),
                rng.uniform(25, 80),
                rng.uniform(1.0, 3.0),
            )
        )
    return tuple(spots)


def _with_held_cog(scene: Scene, labels: Labels, rng) -> Scene:
    empty = [p for p in range(NUM_PEGS) if labels[p] is None] or list(range(NUM_PEGS))
    peg = int(empty[rng.integers(len(empty))])
    colour = ("red", "blue")[int(rng.integers(2))]
    held = HeldCog(colour, peg, float(rng.uniform(20, 60)))
    top = held.height_mm + COG_THICKNESS_MM
    hand = hand_toward(BOARD.pegs[peg], top, rng, pinch=True)
    return replace(scene, hand=gripping(hand, BOARD.pegs[peg], top), held=held)


# -- drawing the still scene --------------------------------------------------------


def _canvas(scene: Scene, scale: float, rng) -> np.ndarray:
    """The board panel's albedo in board mm at ``scale`` pixels per mm (top-left at -220)."""
    look = scene.look
    side = round(SHEET_MM * scale)
    shape = (side, side)
    if look.kind == "wood":
        canvas = textures.wood(shape, rng, scale, look.panel, rng.uniform(-10, 10))
    else:
        canvas = textures.paper(shape, rng, look.panel)

    def at(points) -> np.ndarray:
        """Board mm to canvas pixels (OpenCV's convention: a pixel's centre is its index)."""
        return (np.asarray(points, dtype=np.float64) + SHEET_MM / 2) * scale - 0.5

    centre = at([(0.0, 0.0)])[0]
    disk = polygon_alpha(shape, [circle(tuple(centre), BOARD.disk_radius * scale, 256)])
    if look.kind == "paint":
        blend(canvas, disk, textures.paper(shape, rng, look.disk))
    elif look.kind == "wood":
        blend(canvas, disk, textures.wood(shape, rng, scale, look.disk, rng.uniform(60, 120)))
    line = max(1, round(0.3 * scale))
    ring = np.zeros(shape, np.uint8)
    cv2.circle(ring, _pt(centre), round(BOARD.disk_radius * scale), 255, line, cv2.LINE_AA)
    blend(canvas, _alpha(ring), INK if look.kind == "paper" else look.line)
    circles = np.zeros(shape, np.uint8)
    for peg in at(BOARD.pegs):
        cv2.circle(circles, _pt(peg), round(BOARD.cog_radius * scale), 255, line, cv2.LINE_AA)
    blend(canvas, _alpha(circles), look.line)
    if look.kind == "paper":
        _print_notes(canvas, scale, at)
    for marker_id in BOARD.markers:
        _print_marker(canvas, marker_id, scale, at, look.kind != "paper")
    return canvas


def _print_notes(canvas: np.ndarray, scale: float, at) -> None:
    """What the paper sheet prints for people: wheel rings, peg names, row numbers, title."""
    ink = np.zeros(canvas.shape[:2], np.uint8)
    for peg, colour in ((0, "gold"), (45, "red"), (54, "blue")):
        ring = np.zeros_like(ink)
        cv2.circle(
            ring,
            _pt(at(BOARD.pegs[peg])),
            round((BOARD.cog_radius + 1) * scale),
            255,
            max(1, round(1.2 * scale)),
            cv2.LINE_AA,
        )
        blend(canvas, _alpha(ring), STANDARD_COGS[colour])
    grey = np.zeros_like(ink)
    for peg, (row, column) in enumerate(ROW_COL):
        x, y = BOARD.pegs[peg]
        _text(grey, f"{row + 1}.{column + 1}", at([(x, y + 10.5)])[0], 2.2 * scale)
        if column == 0:
            _text(ink, str(row + 1), at([(x - BOARD.cog_radius - 4, y)])[0], 3.0 * scale)
    blend(canvas, _alpha(grey), (0.38, 0.38, 0.38))
    _text(ink, "Kogworks board", at([(0, BOARD.disk_radius + 11)])[0], 4.0 * scale)
    _text(ink, "100 mm: print at 100%", at([(0, -SHEET_MM / 2 + 12)])[0], 2.4 * scale)
    bar = at([(-50, -SHEET_MM / 2 + 8), (50, -SHEET_MM / 2 + 8)])
    cv2.line(ink, _pt(bar[0]), _pt(bar[1]), 255, max(1, round(0.3 * scale)))
    blend(canvas, _alpha(ink), INK)


def _print_marker(canvas, marker_id: int, scale: float, at, sticker: bool) -> None:
    """The ArUco marker (DICT_4X4_50, one-cell border) cell by cell, exactly where the layout
    puts it, and its id label; on a paper sticker if asked."""
    corners = at(BOARD.marker_square(marker_id))
    x0, y0 = corners[0]
    side = BOARD.marker_size * scale
    if sticker:
        margin = 5 * scale
        sticker_box = np.array(
            [
                (x0 - margin, y0 - margin),
                (x0 + side + margin, y0 - margin),
                (x0 + side + margin, y0 + side + 9 * scale),
                (x0 - margin, y0 + side + 9 * scale),
            ]
        )
        blend(canvas, polygon_alpha(canvas.shape[:2], [sticker_box]), PAPER)
    square = np.array([(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)])
    blend(canvas, polygon_alpha(canvas.shape[:2], [square]), PAPER)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    cells = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    step = side / 6
    box, alpha = grid_alpha(canvas.shape[:2], np.array([x0, y0]), (step, 0.0), (0.0, step), cells)
    blend(canvas[box.slices], alpha, INK)
    label = np.zeros(canvas.shape[:2], np.uint8)
    _text(label, f"id {marker_id}", (x0 + side * 0.18, y0 + side * 1.12), 0.1 * side, left=True)
    blend(canvas, _alpha(label), (0.22, 0.22, 0.22))


def _text(mask, text: str, at, height_px: float, left: bool = False) -> None:
    font_scale = height_px / 22.0
    thickness = max(1, round(font_scale * 1.6))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
    x = at[0] if left else at[0] - w / 2
    origin = (round(x), round(at[1] + h / 2))
    cv2.putText(
        mask, text, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 255, thickness, cv2.LINE_AA
    )


def _alpha(mask: np.ndarray) -> np.ndarray:
    """A uint8 mask (0..255) as coverage in [0, 1]."""
    return mask.astype(np.float32) / 255.0


def _pt(point) -> tuple[int, int]:
    return round(float(point[0])), round(float(point[1]))


def gear(centre: np.ndarray, turn: float, radius: float) -> np.ndarray:
    """A cog's outline (board mm, (4 * teeth, 2)): tips at ``radius``, roots 17% in."""
    root = 0.83 * radius
    points = []
    step = 2 * np.pi / COG_TEETH
    for tooth in range(COG_TEETH):
        a = turn + tooth * step
        for offset, r in ((-0.30, root), (-0.16, radius), (0.16, radius), (0.30, root)):
            points.append((r * np.cos(a + offset * step), r * np.sin(a + offset * step)))
    return np.asarray(points) + centre


@dataclass(frozen=True)
class _Solid:
    """A vertical prism on the board: outline (board mm), from z0 to z1, albedo, kind."""

    outline: np.ndarray
    z0: float
    z1: float
    albedo: tuple[float, float, float]
    kind: str
    """"cog", "peg" or "held"."""
    centre: np.ndarray


def _solids(labels: Labels, scene: Scene) -> list[_Solid]:
    """Every cog and peg standing on the board."""
    rng = rng_for(scene.seed, 2)
    solids = []
    for peg, centre in enumerate(BOARD.pegs):
        colour = labels[peg]
        turn = rng.uniform(0, 2 * np.pi)
        stub = circle(tuple(centre), PEG_RADIUS_MM, 20)
        if colour is None:
            solids.append(_Solid(stub, 0.0, PEG_HEIGHT_MM, scene.look.peg, "peg", centre))
            continue
        outline = gear(centre, turn, BOARD.cog_radius)
        solids.append(
            _Solid(outline, 0.0, COG_THICKNESS_MM, scene.look.cogs[colour], "cog", centre)
        )
        solids.append(_Solid(stub, COG_THICKNESS_MM, PEG_HEIGHT_MM, scene.look.peg, "peg", centre))
    return solids


def held_solid(scene: Scene, held: HeldCog, centre: np.ndarray | None = None) -> _Solid:
    """The held cog as a prism in the air over its peg (or over ``centre``)."""
    at = BOARD.pegs[held.over] if centre is None else centre
    outline = gear(at, 0.4, BOARD.cog_radius)
    top = held.height_mm + COG_THICKNESS_MM
    return _Solid(outline, held.height_mm, top, scene.look.cogs[held.colour], "held", at)


_CACHE: dict[tuple, np.ndarray] = {}
CACHE_SCENES = 6
"""Still scenes kept drawn (a still board's frames differ only in noise: drawn once)."""


def _still_linear(labels: Labels, scene: Scene) -> np.ndarray:
    """The scene in linear light (float32 BGR, the lens blur applied), before any hand."""
    key = (labels, scene.conditions, scene.seed, scene.size)
    if key not in _CACHE:
        if len(_CACHE) >= CACHE_SCENES:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = _draw_still(labels, scene)
    return _CACHE[key]


def _draw_still(labels: Labels, scene: Scene) -> np.ndarray:
    camera = scene.camera
    width, height = scene.size
    rng = rng_for(scene.seed, 3)
    scale_px = camera.pixels_per_mm((0.0, 0.0))
    canvas_scale = float(np.clip(scale_px * 1.4, 1.5, 7.0))
    canvas = _canvas(scene, canvas_scale, rng)
    to_canvas = np.array(
        [
            [canvas_scale, 0, SHEET_MM / 2 * canvas_scale - 0.5],
            [0, canvas_scale, SHEET_MM / 2 * canvas_scale - 0.5],
            [0, 0, 1],
        ]
    )
    warp = camera.homography(0.0) @ np.linalg.inv(to_canvas)
    board = cv2.warpPerspective(canvas, warp, (width, height), flags=cv2.INTER_LINEAR)
    ones = np.ones(canvas.shape[:2], np.float32)
    panel = cv2.warpPerspective(ones, warp, (width, height), flags=cv2.INTER_LINEAR)
    table = textures.table_top((height, width), rng, scale_px)
    contact = cv2.GaussianBlur(panel, (0, 0), max(1.0, 4 * scale_px))
    table *= (1.0 - 0.45 * contact)[:, :, None]
    albedo = table * (1.0 - panel[:, :, None]) + board * panel[:, :, None]
    light = plane_field(camera, scene.lamp.irradiance) * vignette(scene.size, 0.25)
    solids = _solids(labels, scene)
    shade = _cast_shadows(scene, solids)
    lamp_colour = np.array(scene.lamp.colour, np.float32)
    image = albedo * (light * shade)[:, :, None] * lamp_colour
    _add_glare(image, scene, light)
    for solid in sorted(solids, key=lambda s: -camera.depth(s.centre[None], s.z1)[0]):
        draw_solid(image, scene, solid, light)
    return lens(image.astype(np.float32), scene.sensor)


def _cast_shadows(scene: Scene, solids: list[_Solid]) -> np.ndarray:
    """Light left on the board (H, W) after the cogs' and pegs' shadows and contact shade."""
    camera, lamp = scene.camera, scene.lamp
    width, height = scene.size
    scale = camera.pixels_per_mm((0.0, 0.0))
    cast = np.zeros((height, width), np.float32)
    contact = np.zeros((height, width), np.float32)
    for solid in solids:
        if solid.z0 > 0 and solid.kind == "peg":
            continue
        shift = lamp.shadow_shift(solid.z1, tuple(solid.centre))
        base = (
            solid.outline
            if solid.kind == "peg"
            else circle(tuple(solid.centre), BOARD.cog_radius * 0.95, 32)
        )
        hull = cv2.convexHull(np.vstack([base, base + shift]).astype(np.float32))
        pixels = camera.project(hull.reshape(-1, 2))
        cv2.fillPoly(cast, [np.rint(pixels * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        if solid.kind == "cog":
            ring = camera.project(circle(tuple(solid.centre), BOARD.cog_radius + 1.0, 32))
            cv2.fillPoly(contact, [np.rint(ring * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    penumbra = max(0.8, lamp.softness * COG_THICKNESS_MM * 3 * scale)
    cast = cv2.GaussianBlur(cast, (0, 0), penumbra)
    contact = cv2.GaussianBlur(contact, (0, 0), max(1.0, 3.0 * scale))
    direct = 1.0 - lamp.ambient
    return (1.0 - 0.92 * direct * cast) * (1.0 - 0.22 * lamp.ambient * contact)


def _add_glare(image: np.ndarray, scene: Scene, light: np.ndarray) -> None:
    """A lamp's reflection on the board: a soft spot with a clipping core."""
    if not scene.glare:
        return
    width, height = scene.size
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    colour = np.array(scene.lamp.colour, np.float32)
    for x, y, radius, peak in scene.glare:
        centre = scene.camera.project(np.array([(x, y)]))[0]
        r_px = radius * scene.camera.pixels_per_mm((x, y))
        d2 = ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / r_px**2
        spot = peak * (0.35 * np.exp(-d2 / 2) + 0.65 * np.exp(-d2 / 0.18))
        image += (spot * scene.lamp.level)[:, :, None] * colour


def draw_solid(
    image: np.ndarray,
    scene: Scene,
    solid: _Solid,
    light: np.ndarray,
    layer: HandLayer | None = None,
) -> np.ndarray | None:
    """Draw a prism (sides, then its top face) into ``image``; return its coverage when asked.

    With ``layer``, the coverage is added to the layer (a held cog hides the board).
    """
    camera = scene.camera
    low = camera.project(solid.outline, solid.z0)
    high = camera.project(solid.outline, solid.z1)
    box = Box.around(np.vstack([low, high]), image.shape)
    if box.empty:
        return None
    shift = float(np.abs(high - low).max())
    levels = np.linspace(solid.z0, solid.z1, max(2, math.ceil(shift / 0.6) + 1))
    side_polys = [camera.project(solid.outline, z) - box.origin for z in levels[:-1]]
    sides = polygon_alpha(box.shape, side_polys)
    top = polygon_alpha(box.shape, [high - box.origin])
    centre_px = camera.project(solid.centre[None], solid.z1)[0]
    cy = int(np.clip(centre_px[1], 0, image.shape[0] - 1))
    cx = int(np.clip(centre_px[0], 0, image.shape[1] - 1))
    lit = float(light[cy, cx]) * np.array(scene.lamp.colour, np.float32)
    if solid.kind == "held":
        lit = lit * 1.04
    albedo = np.array(solid.albedo, np.float32)
    region = image[box.slices]
    blend(region, sides, albedo * lit * 0.5)
    blend(region, top, _top_face(box, solid, scene, centre_px, albedo * lit))
    if solid.kind != "peg":
        _face_details(region, box, solid, scene, albedo * lit)
    coverage = np.maximum(sides, top)
    if layer is not None:
        layer.add(box, coverage)
    return coverage


def _top_face(box: Box, solid: _Solid, scene: Scene, centre_px, colour) -> np.ndarray:
    """A cog's top face: its paint with a sheen towards the lamp (metallic for gold)."""
    h, w = box.shape
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    scale = max(1e-3, scene.camera.pixels_per_mm(tuple(solid.centre), solid.z1))
    toward = scene.lamp.direction(tuple(solid.centre))[:2]
    u = (xs + box.x0 - centre_px[0]) * toward[0] + (ys + box.y0 - centre_px[1]) * toward[1]
    u = u / (BOARD.cog_radius * scale)
    metallic = solid.kind != "peg" and solid.albedo[2] > 0.45 and solid.albedo[1] > 0.25
    sheen = 0.18 if metallic else 0.06
    face = colour[None, None, :] * (1.0 + sheen * u)[:, :, None]
    if metallic:
        face += 0.10 * np.exp(-((u - 0.45) ** 2) / 0.05)[:, :, None] * colour.max()
    return face


def _face_details(region, box: Box, solid: _Solid, scene: Scene, colour) -> None:
    """The hub ring and the groove moulded into a cog's top."""
    camera = scene.camera
    for radius, darken in ((5.2, 0.72), (9.0, 0.82)):
        ring = camera.project(circle(tuple(solid.centre), radius, 40), solid.z1) - box.origin
        mask = np.zeros(box.shape, np.uint8)
        cv2.polylines(mask, [np.rint(ring * 16).astype(np.int32)], True, 255, 1, cv2.LINE_AA, 4)
        blend(region, mask.astype(np.float32) / 255.0, colour * darken)


# -- frames -----------------------------------------------------------------------


def relight(scene: Scene, frame_index: int) -> Relight | None:
    """The light change of this frame under ``relit``: a new light every 3-9 frames."""
    if not scene.relit:
        return None
    period = int(rng_for(scene.seed, 70).integers(3, 10))
    segment, step = divmod(frame_index, period)

    def state(index: int) -> tuple[np.ndarray, ...]:
        rng = rng_for(scene.seed, 71, index)
        return (
            np.array([rng.uniform(0.55, 1.45)]),
            rng.uniform(0.88, 1.12, 3),
            rng.uniform(-0.5, 0.5, 2),
        )

    now = state(segment)
    if step < 2 and segment > 0:
        before = state(segment - 1)
        t = (step + 1) / 3
        now = tuple(a * (1 - t) + b * t for a, b in zip(before, now, strict=True))
    gain, colour, gradient = now
    return Relight(
        float(gain[0]), tuple(float(v) for v in colour), (float(gradient[0]), float(gradient[1]))
    )


def _frame(
    labels: Labels,
    scene: Scene,
    frame_index: int,
    *,
    hand: Hand | None,
    held: HeldCog | None,
    held_at: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The exposed frame and the occluder coverage (H, W) of a hand and a held cog."""
    image = _still_linear(labels, scene)
    layer = HandLayer(scene.size)
    if hand is not None or held is not None:
        image = image.copy()
        light = plane_field(scene.camera, scene.lamp.irradiance)
        solid = held_solid(scene, held, held_at) if held is not None else None
        if hand is not None:
            draw_hand(
                image, scene.camera, scene.lamp, hand, layer, shadow_only=True, extra_shadow=solid
            )
        if solid is not None:
            draw_solid(image, scene, solid, light, layer)
        if hand is not None:
            draw_hand(image, scene.camera, scene.lamp, hand, layer)
    frame = expose(
        image, scene.sensor, rng_for(scene.seed, 5, frame_index), relight(scene, frame_index)
    )
    return frame, layer.coverage


def _truth(
    labels: Labels,
    scene: Scene,
    frame_index: int,
    *,
    coverage: np.ndarray,
    hand: bool,
    held: tuple[HeldCog, ...],
    moving: bool,
    time_s: float = 0.0,
) -> DiskTruth:
    camera = scene.camera
    shares = tuple(
        _hidden_share(
            coverage, camera.project(circle(tuple(p), BOARD.cog_radius, 40), COG_THICKNESS_MM)
        )
        for p in BOARD.pegs
    )
    markers = {
        marker_id: _hidden_share(coverage, camera.project(BOARD.marker_square(marker_id)))
        for marker_id in sorted(BOARD.markers)
    }
    return DiskTruth(
        labels=labels,
        covered_share=shares,
        markers_hidden=markers,
        held=held,
        hand=hand,
        moving=moving,
        board_to_image=camera.homography(0.0),
        cog_top_to_image=camera.homography(COG_THICKNESS_MM),
        conditions=tuple(sorted(c.value for c in scene.conditions)),
        seed=scene.seed,
        frame_index=frame_index,
        size=scene.size,
        time_s=time_s,
    )


def _hidden_share(coverage: np.ndarray, polygon: np.ndarray) -> float:
    """The share of an image polygon's area covered (coverage-weighted)."""
    box = Box.around(polygon, coverage.shape, 1.0)
    if box.empty:
        return 0.0
    inside = polygon_alpha(box.shape, [polygon - box.origin])
    area = float(inside.sum())
    if area <= 0:
        return 0.0
    return round(float((inside * coverage[box.slices]).sum()) / area, 4)


def render_still(
    position: Mapping[object, str | None] | Labels,
    condition: Conditions,
    seed: int,
    frame_index: int,
    size: tuple[int, int],
) -> tuple[np.ndarray, DiskTruth]:
    """One frame (BGR uint8) of a still board and its truth.

    ``position`` maps pegs (numbers 0..54, (row, column) or ``"7.3"``) to
    "red", "blue", "gold" or None, or is the 55 labels in peg order. The same
    (position, condition, seed, size) is the same scene at every
    ``frame_index``; only the noise (and, when relit, the light) changes.
    """
    check_seed(seed)
    labels = tuple(position) if _is_labels(position) else labels_of(position)
    scene = make_scene(labels, parse_conditions(condition), seed, check_size(size))
    frame, coverage = _frame(labels, scene, frame_index, hand=scene.hand, held=scene.held)
    held = (scene.held,) if scene.held is not None else ()
    truth = _truth(
        labels,
        scene,
        frame_index,
        coverage=coverage,
        hand=scene.hand is not None,
        held=held,
        moving=False,
    )
    return frame, truth


def _is_labels(position) -> bool:
    return (
        isinstance(position, tuple | list)
        and len(position) == NUM_PEGS
        and all(v is None or isinstance(v, str) for v in position)
    )


def render_stills(
    position, condition: Conditions, seed: int, frames: int, size: tuple[int, int]
) -> Iterator[tuple[np.ndarray, DiskTruth]]:
    """``frames`` frames of one still board (frame indices 0..frames-1): fresh noise in each."""
    for index in range(frames):
        yield render_still(position, condition, seed, index, size)


# -- a hand changes the board ----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One frame of a sequence: where the hand is and what the board holds."""

    labels: Labels
    hand: Hand | None
    held: HeldCog | None
    held_at: np.ndarray | None = None
    moving: bool = False
    phase: str = "still"


@dataclass(frozen=True)
class Timing:
    """A sequence's timing in seconds at ``fps`` frames per second."""

    fps: float = 15.0
    still_before: float = 1.0
    enter: float = 0.8
    dwell: float = 0.6
    travel: float = 0.5
    leave: float = 0.7
    still_after: float = 3.0

    def frames(self, seconds: float) -> int:
        """Whole frames in ``seconds`` (at least one)."""
        return max(1, round(seconds * self.fps))


@dataclass(frozen=True)
class SequenceFrame:
    """A frame of a sequence and its truth."""

    frame: np.ndarray
    truth: DiskTruth
    phase: str
    """"before" (still), "hand" (the hand in view) or "after" (still again)."""


def render_sequence(
    before: Mapping[object, str | None] | Labels,
    after: Mapping[object, str | None] | Labels,
    condition: Conditions,
    seed: int,
    size: tuple[int, int],
    *,
    timing: Timing | None = None,
) -> Iterator[SequenceFrame]:
    """An arm enters, changes the board from ``before`` to ``after``, and leaves.

    The hand picks up every cog that ``after`` removes (a move: it carries it
    to its new peg) and brings from off the board every cog that ``after``
    adds; a peg changes the frame the hand lets go. Each frame's truth says
    what stands on the pegs, what the hand hides, what it holds, and whether
    anything moved since the last frame. ``condition`` takes the look and
    light conditions (``held_cog`` and ``arm`` are the sequence itself).
    """
    check_seed(seed)
    size = check_size(size)
    timing = timing or Timing()
    first = tuple(before) if _is_labels(before) else labels_of(before)
    last = tuple(after) if _is_labels(after) else labels_of(after)
    conditions = parse_conditions(condition) - set(HAND_CONDITIONS)
    scene = make_scene(first, conditions, seed, size)
    steps = _plan(first, last, scene, timing, rng_for(seed, 9))
    for index, step in enumerate(steps):
        frame, coverage = _frame(
            step.labels, scene, index, hand=step.hand, held=step.held, held_at=step.held_at
        )
        held = (step.held,) if step.held is not None else ()
        truth = _truth(
            step.labels,
            scene,
            index,
            coverage=coverage,
            hand=step.hand is not None,
            held=held,
            moving=step.moving,
            time_s=index / timing.fps,
        )
        yield SequenceFrame(frame, truth, step.phase)


def _plan(first: Labels, last: Labels, scene: Scene, timing: Timing, rng) -> list[Step]:
    """The frames of the sequence: still, the hand's visits to each changed peg, still."""
    removed = [p for p in range(NUM_PEGS) if first[p] is not None and last[p] != first[p]]
    added = [p for p in range(NUM_PEGS) if last[p] is not None and last[p] != first[p]]
    steps = [Step(first, None, None)] * timing.frames(timing.still_before)
    steps = [replace(s, phase="before") for s in steps]
    if not removed and not added:
        return steps + [Step(first, None, None, phase="after")] * timing.frames(timing.still_after)
    camera = scene.camera
    outside = _outside(camera, rng)
    labels = list(first)
    carrying: str | None = None
    visits = [(p, "pick") for p in removed] + [(p, "put") for p in added]
    position = outside
    hand_rng = rng_for(scene.seed, 10)
    base_hand = hand_toward(BOARD.pegs[visits[0][0]], LOW_MM, hand_rng, pinch=True)
    previous_tip = None

    def step(point, height, phase_moving: bool) -> Step:
        nonlocal previous_tip
        hand = gripping(base_hand, point, height)
        held = (
            HeldCog(carrying, _nearest_peg(point), max(1.0, height - COG_THICKNESS_MM))
            if carrying is not None
            else None
        )
        moved = phase_moving or previous_tip is None or not np.allclose(previous_tip, point)
        previous_tip = point
        return Step(tuple(labels), hand, held, point.copy() if held else None, moved, "hand")

    for target, action in visits:
        if action == "put" and carrying is None:
            carrying = last[target]
        goal = BOARD.pegs[target]
        count = timing.frames(timing.enter if position is outside else timing.travel)
        for t in np.linspace(0, 1, count + 1)[1:]:
            ease = 0.5 - 0.5 * np.cos(np.pi * t)
            steps.append(
                step(position + (goal - position) * ease, HIGH_MM - (HIGH_MM - LOW_MM) * ease, True)
            )
        dwell = timing.frames(timing.dwell)
        for k in range(dwell):
            if k == dwell // 2:
                if action == "pick":
                    carrying = labels[target]
                    labels[target] = None
                else:
                    labels[target] = last[target]
                    carrying = None
                steps.append(step(goal, LOW_MM, True))
            else:
                steps.append(step(goal, LOW_MM, False))
        position = goal
    for t in np.linspace(0, 1, timing.frames(timing.leave) + 1)[1:]:
        ease = 0.5 - 0.5 * np.cos(np.pi * t)
        steps.append(
            step(position + (outside - position) * ease, LOW_MM + (HIGH_MM - LOW_MM) * ease, True)
        )
    final = tuple(labels)
    steps.append(Step(final, None, None, moving=True, phase="after"))
    steps += [Step(final, None, None, phase="after")] * (timing.frames(timing.still_after) - 1)
    return steps


LOW_MM = 14.0
"""The hand's height over the board while it puts down or picks up a cog."""
HIGH_MM = 120.0
"""The hand's height while it comes and goes."""


def _outside(camera: Camera, rng) -> np.ndarray:
    """A plane point off the frame (by a hand's length) where the hand comes from."""
    angle = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.cos(angle), np.sin(angle)])
    width, height = camera.size
    for reach in np.arange(250.0, 4000.0, 25.0):
        point = direction * reach
        pixel = camera.project((point - direction * 250)[None])[0]
        if not (0 <= pixel[0] < width and 0 <= pixel[1] < height):
            return point
    return direction * 4000.0


def _nearest_peg(point: np.ndarray) -> int:
    return int(np.argmin(np.linalg.norm(BOARD.pegs - point, axis=1)))


__all__ = [
    "BOARD",
    "COVERED_SHARE",
    "HAND_CONDITIONS",
    "LOOK_CONDITIONS",
    "STILL_CONDITIONS",
    "Condition",
    "DiskTruth",
    "HeldCog",
    "SequenceFrame",
    "Timing",
    "labels_of",
    "labels_of_state",
    "random_labels",
    "render_sequence",
    "render_still",
    "render_stills",
    "start_labels",
]
