"""The card mat in ``benchmarks/bench_perception.py`` (issue 25): still mats, and a hand leaving.

Each board is a scene of :mod:`benchmarks.card_conditions` (our own renderer:
cards spread over the zones, each condition's sleeves, glare, art, noise,
camera and light), filmed at :data:`~benchmarks.bench_perception.FPS` with a
fresh frame (its own sensor noise) every frame and read by the table's own
path: :class:`vision.cards.reader.CardReader` (following the view from frame
to frame), the settling filter and the commit decision with the card
evidence (:mod:`cogtable.sights.card_evidence`) as
:class:`cogtable.sights.cards.CardsSight` builds them. The card kits list no
explanations yet, so the decision weighs the still frames alone (every
changed zone must be clear).

- still: the mat lies still from the first frame; committed within 1.5 s?
  A commit is wrong when any zone's face-up ids or backs differ from the cards
  laid there;
- after a hand: a hand lies over one card for a second, then leaves; nothing
  may be committed while it is there, and the mat must be committed within
  the window + 0.5 s after.

Only the tuning source: the held-out card renderer draws single still frames
(``render_still``), not sequences, in this harness; held-out card figures come
from ``benchmarks/bench_cards.py --part held-out``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from benchmarks.bench_perception import (
    FPS,
    GIVE_UP_S,
    TUNING,
    Options,
    Row,
    SimClock,
    seconds_of,
)
from benchmarks.card_conditions import condition_scene
from benchmarks.card_dev import DevRenderer
from benchmarks.card_truth import ZoneTruth, truth_of
from cogtable.commit_decision import StillBoardJudge
from cogtable.sights.card_evidence import card_evidence, settled_position
from vision.cards.mat import standard_mat
from vision.cards.reader import CardReader
from vision.cards.renderer import CardScene
from vision.peg_disk.renderer import Hand
from vision.peg_disk.settle import BoardState, SettlingFilter

CONDITIONS = (
    "plain",
    "busy art",
    "sleeves+glare",
    "noise+jpeg",
    "webcam noise",
    "sensor noise",
    "small tags",
    "tilt+uneven light",
)
"""The conditions whose cards all lie apart (piles and hands have no single right answer)."""
SEED = 7_000_000
HAND_S = 1.0
"""How long the hand stays over the mat before it leaves."""


class Mat:
    """The table's camera path for one mat: reader, settling filter, commit decision."""

    def __init__(self) -> None:
        self.mat = standard_mat(6)
        self.clock = SimClock()
        self.reader = CardReader(self.mat)
        judge = StillBoardJudge(lambda: None, self._evidence)
        self.settle = SettlingFilter(clock=self.clock, judge=judge)

    def _evidence(self, reading):
        return card_evidence(reading, None, self.settle.committed)

    def see(self, frame: np.ndarray) -> tuple[BoardState, dict | None]:
        """One frame: the state, and the position when this frame committed a new one."""
        status = self.settle.update(self.reader.read(frame))
        self.clock.tick()
        fresh = status.new_commit and status.committed is not None
        return status.state, settled_position(status.committed) if fresh else None


def expected(truth: dict[str, ZoneTruth]) -> dict[str, tuple[tuple[int, ...], int]]:
    """Each zone's label as the cards laid give it."""
    return {name: (tuple(sorted(zone.present)), zone.clear_backs) for name, zone in truth.items()}


def rows(options: Options) -> Iterator[Row]:
    """Every condition at every size, tuning frames only (see the module docstring)."""
    if TUNING not in options.sources:
        return
    renderer = DevRenderer(cache_size=2)
    for number, condition in enumerate(CONDITIONS):
        if not options.wants(condition):
            continue
        for size in options.sizes:
            row = Row("card mat", TUNING, condition, size)
            started = time.process_time()
            for index in range(options.boards(6)):
                seed = SEED + number * 10_000 + size[0] * 5 + index
                scene = condition_scene(condition, seed, standard_mat(6))
                if index % 2:
                    _after_hand(row, renderer, scene, size, seed)
                else:
                    _still(row, renderer, scene, size, seed)
            row.seconds = time.process_time() - started
            yield row


def _still(row: Row, renderer: DevRenderer, scene: CardScene, size, seed: int) -> None:
    mat, want = Mat(), expected(truth_of(scene, size))
    for frame in range(round(GIVE_UP_S * FPS)):
        _state, committed = mat.see(renderer.render(scene, size, seed * 100 + frame))
        if committed is not None:
            row.still(seconds_of(frame), wrong=committed != want)
            return
    row.still(None)


def _after_hand(row: Row, renderer: DevRenderer, scene: CardScene, size, seed: int) -> None:
    mat, want = Mat(), expected(truth_of(scene, size))
    card = scene.cards[len(scene.cards) // 2]
    hand = Hand((card.x, card.y), float(seed % 360), 1.0)
    covered = replace(scene, hands=(hand,))
    under = 0
    hand_frames = round(HAND_S * FPS)
    for frame in range(hand_frames):
        _state, committed = mat.see(renderer.render(covered, size, seed * 100 + frame))
        under += committed is not None
    for frame in range(round(GIVE_UP_S * FPS)):
        shot = seed * 100 + hand_frames + frame
        _state, committed = mat.see(renderer.render(scene, size, shot))
        if committed is not None:
            row.hand_left(seconds_of(frame), under)
            row.wrong += committed != want
            return
    row.hand_left(None, under)
