"""The settling filter with a judge never commits a window a hand was in (issue 25).

A hand coming or going over the rim, a finger over the edge of a cog: each makes the frame
not still, so no commit is judged on frames the hand was in.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.peg_disk.geometry import PEGS
from vision.peg_disk.reading import Reading
from vision.peg_disk.settle import SettlingFilter, points_changed

FRAME_TIME = 1 / 30
WINDOW_FRAMES = 10
"""Frames of a 0.3 s window at 30 frames a second."""


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SureJudge:
    """Commits whatever it is shown once the window has run (every frame is clear)."""

    def __init__(self) -> None:
        self.position = dict.fromkeys(PEGS)

    def restart(self) -> None:
        pass

    def add(self, reading: Reading) -> list:
        return []

    def decide(self, committed) -> Decided:
        return Decided(self.position)


class Decided:
    committed = True

    def __init__(self, position) -> None:
        self.position = position

    def message(self, noun: str = "place") -> str:
        return ""


def _clear(samples: np.ndarray | None = None) -> Reading:
    return Reading(
        "ok",
        "",
        (None,) * len(PEGS),
        (1.0,) * len(PEGS),
        False,
        {},
        np.eye(3),
        np.zeros((len(PEGS), 3)),
        rim=np.zeros((72, 3)),
        rim_shape=np.zeros((72, 3)),
        samples=samples,
    )


def _shaded(depth: float = -0.3) -> Reading:
    shade = np.zeros((72, 3))
    shade[20:26] = depth
    return replace(_clear(), covered=True, shaded=True, rim=shade, rim_shape=shade)


def _commits(settle: SettlingFilter, clock: Clock, readings: list[Reading]) -> list[int]:
    found = []
    for index, reading in enumerate(readings):
        if settle.update(reading).new_commit:
            found.append(index)
        clock.now += FRAME_TIME
    return found


def _window_after(commit: int, start: int) -> bool:
    """The commit came a whole window (within a frame) after frame ``start``."""
    return 0.3 - 1e-9 <= (commit - start + 1) * FRAME_TIME <= 0.3 + 2 * FRAME_TIME


def test_a_hand_leaving_the_rim_restarts_the_window() -> None:
    """An arm over the rim that looks like shade, then gone: the window starts when it left
    (it ran on through the arm's last frame before)."""
    clock = Clock()
    settle = SettlingFilter(window=0.3, clock=clock, judge=SureJudge())
    readings = [_shaded()] * 4 + [_clear()] * 20
    commits = _commits(settle, clock, readings)
    assert len(commits) == 1 and _window_after(commits[0], 4)


def _samples(rng: np.random.Generator, noise: float = 3.0):
    """Pixels of 28 points a peg, and a maker of frames of them with fresh sensor noise."""
    paints = np.float32([[165, 198, 222], [40, 45, 200], [190, 90, 35], [40, 175, 225]])
    base = np.repeat(paints[rng.integers(len(paints), size=len(PEGS))][:, None], 28, axis=1)
    base[7] = paints[0]  # bare board
    return base, lambda: base + rng.normal(0, noise, base.shape).astype(np.float32)


def test_a_few_points_of_one_peg_changed_is_motion_noise_and_light_are_not() -> None:
    rng = np.random.default_rng(50_001)
    _, frame = _samples(rng)
    still = points_changed(_clear(frame()), _clear(frame()))
    assert still.shape == (len(PEGS),) and not still.any()
    brighter = points_changed(_clear(frame()), _clear(frame() * np.float32(1.2)))
    assert not brighter.any()
    fingers = frame()
    fingers[7, 20:23] = np.float32([125, 155, 205])  # a finger over the edge of peg 7
    fingers[9, (17, 20, 24)] *= np.float32(0.6)  # here and there: not a finger
    changed = points_changed(_clear(frame()), _clear(fingers))
    assert np.flatnonzero(changed).tolist() == [7]


def test_a_finger_coming_over_the_edge_of_a_cog_restarts_the_window() -> None:
    rng = np.random.default_rng(50_002)
    base, frame = _samples(rng)
    fingers = base.copy()
    fingers[30, 16:22] *= np.float32(0.55)
    clock = Clock()
    settle = SettlingFilter(window=0.3, clock=clock, judge=SureJudge())
    before = [_clear(frame()) for _ in range(6)]
    during = [_clear(fingers + rng.normal(0, 3.0, base.shape).astype(np.float32))]
    after = [_clear(frame()) for _ in range(12)]
    commits = _commits(settle, clock, before + during + after)
    assert len(commits) == 1 and _window_after(commits[0], 7)
