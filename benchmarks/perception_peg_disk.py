"""The Kogworks peg disk's rows of ``benchmarks/bench_perception.py``.

Each board is a position of a real game (random legal moves from the start,
seeded), the table committed to it, and the next move made on the board: the
commit decision weighs the still frames against the game's explanations
(:mod:`cogtable.tables.kogworks.explain`), exactly as the table's camera path
does (reader, settling filter with a judge). Every other board is first seen
as it was before the move (the table commits it), then a hand over it makes
the move (tuning: an arm comes in, holds the cog above its peg, sets it down
and goes, :data:`ARM_PHASES`; held-out: its sequence of an arm coming, moving
cogs and leaving): commits while the hand is over the board
(it hides a peg, holds a cog or a cog is being set down) are counted, and the
time from its last frame over the board to the commit. Every fourth board is
also played as an illegal move (the mover's cog where the rules forbid it, or
the other colour placed), which must never be committed as a legal position.

Tuning frames: our renderer (:mod:`vision.peg_disk.renderer`) in its reference
look and its held-out look, alternately, under the conditions below, each
table calibrated from three frames of the start position under its own camera,
light and sensor, as a user would.
Held-out frames: :mod:`benchmarks.held_out.peg_disk` through its public API.

``PERCEPTION_WITHOUT_DECISION=1`` runs the same boards through the settling
filter without a judge (every peg of one frame must be certain), for comparison.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from benchmarks.bench_perception import (
    FPS,
    GIVE_UP_S,
    HELD_OUT,
    LIMIT_S,
    TUNING,
    WINDOW_S,
    Options,
    Row,
    SimClock,
    cpu_seconds,
    first_commit,
    seconds_of,
)
from benchmarks.peg_disk_hands import Truth, arm_frames
from cogtable.commit_decision import ExplanationKind, StillBoardJudge
from cogtable.place_evidence import evidence_of_reading
from cogtable.tables.kogworks.explain import explanations
from games.core import load_game
from vision.peg_disk.calibration import CalibrationError
from vision.peg_disk.geometry import BoardGeometry, Position, start_position
from vision.peg_disk.learning import learn
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import (
    Glare,
    Lighting,
    Renderer,
    Scene,
    Sensor,
    random_lamp,
    random_scene,
)
from vision.peg_disk.sprites import HELD_OUT_LOOK, REFERENCE_LOOK

GEOMETRY = BoardGeometry()
BEFORE_FRAMES = 9
"""Still frames of the board before a hand comes (the table commits it first, as in play)."""
WITHOUT_DECISION = os.environ.get("PERCEPTION_WITHOUT_DECISION") == "1"

Make = Callable[[np.random.Generator, Position, tuple[int, int]], Scene]


def _plain(rng: np.random.Generator, position: Position, size) -> Scene:
    return random_scene(rng, position, size, max_tilt=15.0)


def _tilted(rng, position, size) -> Scene:
    scene = _plain(rng, position, size)
    camera = replace(
        scene.camera, tilt_deg=float(rng.uniform(10, 20)), distance=float(rng.uniform(500, 900))
    )
    return replace(scene, camera=camera, cog_height=float(rng.uniform(3, 6)))


def _dim(rng, position, size) -> Scene:
    scene = _plain(rng, position, size)
    lighting = replace(scene.lighting, brightness=float(rng.uniform(0.35, 0.55)))
    return replace(scene, lighting=lighting)


def _bright(rng, position, size) -> Scene:
    scene = _plain(rng, position, size)
    lighting = replace(scene.lighting, brightness=float(rng.uniform(1.3, 1.9)))
    glare = Glare(
        centre=tuple(float(v) for v in rng.uniform(-80, 80, 2)),
        radius=float(rng.uniform(60, 140)),
        strength=float(rng.uniform(5, 25)),
    )
    return replace(scene, lighting=lighting, glare=glare)


def _noisy(rng, position, size) -> Scene:
    scene = _plain(rng, position, size)
    sensor = Sensor(
        noise=float(rng.uniform(7, 12)),
        blur=float(rng.uniform(0.4, 1.2)),
        jpeg=int(rng.integers(40, 71)),
    )
    return replace(scene, sensor=sensor)


def _relit(rng, position, size) -> Scene:
    scene = _plain(rng, position, size)
    lighting = Lighting(
        brightness=float(rng.uniform(0.6, 1.15)),
        gradient=float(rng.uniform(0.2, 0.5)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0.1, 0.3)),
        cast=tuple(float(g) for g in rng.uniform(0.8, 1.25, 3)),
    )
    return replace(scene, lighting=lighting, shadow=random_lamp(rng))


def _small(rng, position, size) -> Scene:
    scene = _plain(rng, position, size)
    return replace(scene, camera=replace(scene.camera, fill=float(rng.uniform(0.4, 0.65))))


def _small_bright(rng, position, size) -> Scene:
    """A small board (40-60% of the frame) under light bright enough to clip the sheet."""
    scene = _bright(rng, position, size)
    return replace(scene, camera=replace(scene.camera, fill=float(rng.uniform(0.4, 0.6))))


def _small_noisy(rng, position, size) -> Scene:
    """A small board (40-60% of the frame) through a cheap webcam: strong noise and JPEG."""
    scene = _small(rng, position, size)
    sensor = Sensor(
        noise=float(rng.uniform(12, 20)),
        blur=float(rng.uniform(0.4, 1.2)),
        jpeg=int(rng.integers(35, 66)),
    )
    return replace(
        scene, camera=replace(scene.camera, fill=float(rng.uniform(0.4, 0.6))), sensor=sensor
    )


def _relight(lighting: Lighting, rng: np.random.Generator) -> Lighting:
    """The room's light a step brighter or dimmer, and a little warmer or colder."""
    cast = tuple(
        float(c * g) for c, g in zip(lighting.cast, rng.uniform(0.93, 1.07, 3), strict=True)
    )
    brightness = float(np.clip(lighting.brightness * rng.uniform(0.8, 1.25), 0.45, 1.3))
    return replace(lighting, brightness=brightness, cast=cast)


RELIT = ("relit + lamp",)
"""Conditions whose light changes in steps while the board is still."""
RELIT_FRAMES = 4
"""Frames between two steps of the light."""


def _hard(rng, position, size) -> Scene:
    """Everything at once: a small, tilted board, dim light, a cheap webcam's noise and JPEG."""
    scene = _tilted(rng, position, size)
    camera = replace(scene.camera, fill=float(rng.uniform(0.5, 0.65)))
    lighting = replace(scene.lighting, brightness=float(rng.uniform(0.45, 0.7)))
    sensor = Sensor(
        noise=float(rng.uniform(10, 16)),
        blur=float(rng.uniform(0.6, 1.2)),
        jpeg=int(rng.integers(35, 60)),
    )
    return replace(scene, camera=camera, lighting=lighting, sensor=sensor)


TUNING_CONDITIONS: dict[str, Make] = {
    "plain": _plain,
    "tilted 10-20": _tilted,
    "dim": _dim,
    "bright": _bright,
    "noisy webcam": _noisy,
    "relit + lamp": _relit,
    "small board": _small,
    "small + bright": _small_bright,
    "small + noisy": _small_noisy,
    "all at once": _hard,
}
"""Our renderer's conditions, after the kinds issue 25 names (never the held-out renderer's)."""
TUNING_LOOKS = (
    replace(REFERENCE_LOOK, shadow=0.3),
    replace(HELD_OUT_LOOK, grain=14.0, shadow=0.45),
)
"""Our renderer's two looks, drawn alternately, with cogs casting shadows on their neighbours
(the second on a more grained disk)."""


@dataclass(frozen=True)
class Board:
    """One board to commit: the game's explanations, and what the board shows."""

    explained: object
    shown: Position
    legal: tuple[Position, ...]
    """Every position a legal explanation stands for (an illegal board must match none)."""
    before: Position
    """The game's position, committed before the move."""


def game_board(seed: int, illegal: bool = False) -> Board:
    """A position of a seeded random game, and its next move made (or an illegal one)."""
    rng = random.Random(seed)
    state = load_game("kogworks").new_game({}, seed)
    before = None
    for _ in range(rng.randrange(0, 30)):
        actions = list(state.legal_actions(state.mover))
        if not actions or state.is_over():
            break
        before = state.clone()
        state.apply(rng.choice(actions))
        if state.is_over():
            state, before = before, None
            break
    explained = explanations(state, before)
    base = explained.base
    options = explained.options
    legal = tuple(o.position(base) for o in options if o.kind.legal)
    wanted = ExplanationKind.ILLEGAL if illegal else ExplanationKind.LEGAL
    chosen = [o for o in options if o.kind is wanted and (not illegal or "lifted" not in o.name)]
    if not chosen:
        chosen = [options[0]]
    shown = rng.choice(chosen).position(base)
    return Board(explained, dict(shown), legal, dict(base))


@dataclass(frozen=True)
class Table:
    """Where a board is drawn: a source's condition, the board's seed and number, the size."""

    condition: str
    seed: int
    index: int
    size: tuple[int, int]


@dataclass(frozen=True)
class Shown:
    """One frame of an episode: the image, whether a hand is over the board (it hides a peg,
    holds a cog above one, or a cog is being set down), and what the pegs hold."""

    image: np.ndarray
    busy: bool
    position: Position
    covered: bool | None = None
    """A peg covered in this frame (None: as ``busy``): a still window holding such a frame
    may not be committed."""


class Source:
    """Frames of one source: its conditions, its calibration frames, still boards and a hand
    changing a board."""

    name: str
    conditions: tuple[str, ...]

    def calibration(self, table: Table) -> tuple[object, list]:
        """A key for the calibrated reader (one per table as a user sets it up) and, to learn
        it, frames of the start position."""
        raise NotImplementedError

    def still(self, table: Table, position: Position):
        """Frames of a still board, fresh noise in each (an endless iterator)."""
        raise NotImplementedError

    def handled(self, table: Table, before: Position, after: Position):
        """Frames of a hand over the board changing it to ``after`` (:class:`Shown`), then of
        the still board (endless)."""
        raise NotImplementedError


class TuningSource(Source):
    """Our renderer: :data:`TUNING_CONDITIONS`, looks alternating, calibrated once per look."""

    name = TUNING
    conditions = tuple(TUNING_CONDITIONS)

    def __init__(self) -> None:
        self.renderers = {look: Renderer(GEOMETRY, look) for look in TUNING_LOOKS}

    def _scene(self, table: Table, position: Position):
        look = TUNING_LOOKS[table.index % len(TUNING_LOOKS)]
        make = TUNING_CONDITIONS[table.condition]
        return look, make(np.random.default_rng(table.seed), position, table.size)

    def calibration(self, table: Table):
        """Three frames of the start position on this table: its camera, light and sensor
        (fresh noise in each), as its owner calibrates it where it stands."""
        look, scene = self._scene(table, start_position())
        renderer = self.renderers[look]
        return table.seed, lambda: [
            renderer.render(scene, table.seed * 64 + 60 + k)[0] for k in range(3)
        ]

    def still(self, table: Table, position: Position):
        look, scene = self._scene(table, position)
        rng = np.random.default_rng(table.seed + 3)
        for k in itertools.count():
            if table.condition in RELIT and k % RELIT_FRAMES == RELIT_FRAMES - 1:
                scene = replace(scene, lighting=_relight(scene.lighting, rng))
            yield self.renderers[look].render(scene, table.seed * 64 + k)[0]

    def handled(self, table: Table, before: Position, after: Position):
        look, scene = self._scene(table, after)
        renderer = self.renderers[look]
        truth = Truth(GEOMETRY)
        still_before = replace(scene, position=before)
        for k in range(BEFORE_FRAMES):
            truth.see(still_before)
            yield Shown(renderer.render(still_before, table.seed * 64 + 50 + k)[0], False, before)
        rng = np.random.default_rng(table.seed + 7)
        moves = arm_frames(scene, before, after, rng, geometry=GEOMETRY, look=look)
        for k, (shown, position) in enumerate(moves):
            image = renderer.render(shown, table.seed * 64 + 30 + k)[0]
            seen = truth.see(shown)
            yield Shown(image, seen.busy, position, seen.covered)
        for k, image in enumerate(self.still(table, after)):
            yield Shown(image, k == 0, after, False)


class HeldOutSource(Source):
    """Engineer C's held-out renderer through its public API (README and docstrings only):
    each of its still conditions, combined in turn with none and each of its looks; the
    table calibrated as its owner would, on three frames of the start position."""

    name = HELD_OUT

    def __init__(self) -> None:
        from benchmarks.held_out import peg_disk as held

        self.held = held
        self.conditions = tuple(condition.value for condition in held.STILL_CONDITIONS)
        self.looks = (None, *held.LOOK_CONDITIONS)

    def _conditions(self, table: Table) -> set:
        look = self.looks[table.index % len(self.looks)]
        return {self.held.Condition(table.condition), *([look] if look is not None else [])}

    def calibration(self, table: Table):
        conditions = self._conditions(table)
        start = self.held.start_labels()

        def frames() -> list[np.ndarray]:
            stills = self.held.render_stills(start, conditions, table.seed, 3, table.size)
            return [frame for frame, _ in stills]

        return table.seed, frames

    def still(self, table: Table, position: Position):
        conditions = self._conditions(table)
        for k in itertools.count():
            yield self.held.render_still(position, conditions, table.seed, 1000 + k, table.size)[0]

    def handled(self, table: Table, before: Position, after: Position):
        conditions = self._conditions(table)
        timing = self.held.Timing(fps=FPS, still_before=BEFORE_FRAMES / FPS, still_after=GIVE_UP_S)
        sequence = self.held.render_sequence(
            before, after, conditions, table.seed, table.size, timing=timing
        )
        for shown in sequence:
            truth = shown.truth
            busy = bool(truth.covered or truth.held or truth.moving)
            yield Shown(shown.frame, busy, dict(truth.position()))
        for image in self.still(table, after):
            yield Shown(image, False, after)


class Readers:
    """A calibrated reader per table (a look and size, or a held-out scene)."""

    def __init__(self) -> None:
        self._readers: dict[object, BoardReader | None] = {}

    def reader(self, source: Source, table: Table) -> BoardReader | None:
        """The reader of the table the board is drawn on, calibrated on first use (None: the
        calibration refused the frames, as it would tell its owner)."""
        key, frames = source.calibration(table)
        full = (source.name, key, table.size)
        if full not in self._readers:
            try:
                self._readers[full] = BoardReader(calibration=learn(frames()))
            except CalibrationError as error:
                print(f"  calibration refused ({source.name} {table}): {error}", flush=True)
                self._readers[full] = None
        return self._readers[full]


def rows(options: Options) -> Iterator[Row]:
    """Every condition of every source at every size."""
    readers = Readers()
    for source_name in options.sources:
        source = TuningSource() if source_name == TUNING else HeldOutSource()
        for number, condition in enumerate(source.conditions):
            if not options.wants(condition):
                continue
            for size in options.sizes:
                first = options.first_seed(source_name) + number * 100_000 + size[0] * 10
                yield _row(
                    source, condition, size, boards=options.boards(8), first=first, readers=readers
                )


def _row(source: Source, condition: str, size, *, boards: int, first: int, readers) -> Row:
    surface = "peg disk" + (" (no decision)" if WITHOUT_DECISION else "")
    row = Row(surface, source.name, condition, size)
    started = cpu_seconds()
    for index in range(boards):
        table = Table(condition, first + index, index, size)
        board = game_board(table.seed)
        reader = readers.reader(source, table)
        if reader is None:
            row.refuse()
            continue
        if index % 2:
            frames = source.handled(table, board.before, board.shown)
            _after_hand(row, reader, board, frames)
        else:
            _still(row, reader, board, source.still(table, board.shown))
        if index % 4 == 3:
            bad = game_board(table.seed, illegal=True)
            _illegal(row, reader, bad, source.still(table, bad.shown))
    row.seconds = cpu_seconds() - started
    return row


@dataclass(frozen=True)
class Step:
    """The table's answer to one frame: what it committed (None: nothing new), and how many
    frames its still window held (the frames the commit was judged on)."""

    committed: object | None
    window: int


def _pipeline(reader: BoardReader, board: Board) -> Callable[[np.ndarray], Step]:
    """The table's camera path for one board: a settling filter with the commit decision."""
    from vision.peg_disk.settle import SettlingFilter

    clock = SimClock()
    judge = None
    if not WITHOUT_DECISION:
        judge = StillBoardJudge(lambda: board.explained, evidence_of_reading)
    settle = SettlingFilter(window=WINDOW_S, clock=clock, judge=judge)

    def step(image: np.ndarray) -> Step:
        status = settle.update(reader.read(image))
        clock.tick()
        committed = dict(status.committed) if status.new_commit else None
        return Step(committed, round(status.still_for * FPS) + 1)

    return step


def _still(row: Row, reader: BoardReader, board: Board, images: Iterator[np.ndarray]) -> None:
    """A still board from its first frame: when it is committed, and whether rightly."""
    step = _pipeline(reader, board)
    frames = math.ceil(GIVE_UP_S * FPS)
    index, committed = first_commit(lambda k: step(next(images)).committed, frames)
    row.still(seconds_of(index), committed is not None and committed != board.shown)


def _after_hand(row: Row, reader: BoardReader, board: Board, frames: Iterator[Shown]) -> None:
    """The board still, then a hand over it changes it and leaves: commits made on a frame
    with the hand over the board or judged on a still window with a peg covered, commits of
    anything but what the pegs held, and the time from the hand leaving the board (its last
    frame over it) to the board it left being committed."""
    step = _pipeline(reader, board)
    under = wrong = 0
    busy: list[bool] = []
    covered: list[bool] = []
    left: int | None = None
    current = None
    for count, shown in enumerate(frames):
        answer = step(shown.image)
        busy.append(shown.busy)
        covered.append(shown.busy if shown.covered is None else shown.covered)
        committed = answer.committed
        current = committed if committed is not None else current
        if committed is not None and (shown.busy or any(covered[-answer.window :])):
            under += 1
            if os.environ.get("PERCEPTION_SHOW_UNDER"):
                print(f"    under a hand: frame {count}, window {answer.window}", flush=True)
        if shown.busy:
            left = None
            continue
        wrong += committed is not None and committed != shown.position
        if not any(busy):
            continue
        left = count if left is None else left
        if current == board.shown:
            seconds = (count - left) / FPS
            row.still(seconds, bool(wrong))
            row.hand_left(seconds, under)
            return
        if count - left >= GIVE_UP_S * FPS:
            break
    row.still(None, bool(wrong))
    row.hand_left(None, under)


def _illegal(row: Row, reader: BoardReader, board: Board, images: Iterator[np.ndarray]) -> None:
    """A still board after an illegal move: never committed as a legal position."""
    step = _pipeline(reader, board)
    as_legal = wrong = False
    for _ in range(math.ceil(LIMIT_S * FPS)):
        committed = step(next(images)).committed
        if committed is not None:
            as_legal |= any(committed == legal for legal in board.legal)
            wrong |= committed != board.shown
    row.illegal_move(as_legal, wrong)
