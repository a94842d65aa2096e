"""The settling filter: commits only still, uncovered, confident boards; never a wrong one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.vision.vision_scenes import HELD_OUT, RENDERER, random_position
from vision.frame import NO_BOARD, NO_CAMERA
from vision.peg_disk.geometry import PEGS, BoardGeometry
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.reading import Reading
from vision.peg_disk.renderer import HeldCog, LampShadow, random_hand, random_scene
from vision.peg_disk.settle import BoardState, SettlingFilter

READER = BoardReader()
FRAME_TIME = 1 / 30


class FakeClock:
    """A clock the test advances by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _reading(labels, features=None, shift: float = 0.0) -> Reading:
    homography = np.eye(3)
    homography[0, 2] = shift
    features = np.zeros((len(PEGS), 3)) if features is None else features
    return Reading("ok", "", tuple(labels), (1.0,) * len(PEGS), False, {}, homography, features)


def _feed(settle: SettlingFilter, clock: FakeClock, reading: Reading, frames: int):
    statuses = []
    for _ in range(frames):
        statuses.append(settle.update(reading))
        clock.now += FRAME_TIME
    return statuses


def test_commits_once_after_the_window_and_reports_states() -> None:
    clock = FakeClock()
    settle = SettlingFilter(window=0.3, clock=clock)
    labels = ("gold",) + (None,) * (len(PEGS) - 1)
    statuses = _feed(settle, clock, _reading(labels), 12)
    commits = [i for i, status in enumerate(statuses) if status.new_commit]
    assert commits == [9]
    assert statuses[0].state is BoardState.MOVING and statuses[-1].state is BoardState.SETTLED
    assert statuses[-1].committed[(0, 0)] == "gold"


def test_anything_unsteady_restarts_the_window() -> None:
    clock = FakeClock()
    settle = SettlingFilter(window=0.3, clock=clock)
    labels = (None,) * len(PEGS)
    noisy = np.zeros((len(PEGS), 3))
    for frame in range(30):
        noisy[frame % len(PEGS)] = 0.5 * (frame % 2)
        interruptions = [
            _reading(labels, features=noisy.copy()),
            _reading(labels, shift=5.0 * (frame % 2)),
            Reading(NO_BOARD, "markers not found: 1"),
            Reading(NO_CAMERA, "no frame from the camera"),
            replace(_reading(labels), covered=True, message="something over the board"),
            replace(_reading(labels), confidence=(0.2,) + (1.0,) * (len(PEGS) - 1)),
        ]
        for reading in interruptions:
            assert not settle.update(reading).new_commit
        clock.now += FRAME_TIME
    assert settle.committed is None


def test_states_name_what_is_wrong() -> None:
    settle = SettlingFilter(clock=FakeClock())
    assert settle.update(Reading(NO_BOARD, "x")).state is BoardState.NO_MARKERS
    assert settle.update(Reading(NO_CAMERA, "x")).state is BoardState.NO_CAMERA
    covered = replace(_reading((None,) * len(PEGS)), covered=True)
    assert settle.update(covered).state is BoardState.COVERED


def test_no_wrong_commit_through_moves_with_hands_over_the_board() -> None:
    """Each move: hand frames (some holding a cog above a peg), then the still board."""
    clock = FakeClock()
    settle = SettlingFilter(window=0.3, clock=clock)
    rng = np.random.default_rng(HELD_OUT + 500)
    base = random_scene(rng, random_position(rng))
    wrong = missed = 0
    for move in range(12):
        position = random_position(rng, fill=float(rng.uniform(0.1, 0.7)))
        for frame in range(3):
            hand = random_hand(rng, BoardGeometry())
            held = HeldCog(PEGS[int(rng.integers(len(PEGS)))], "red") if frame % 2 else None
            scene = replace(base, position=position, hand=hand, held=held)
            status = settle.update(READER.read(RENDERER.render(scene, move * 100 + frame)[0]))
            wrong += status.new_commit
            clock.now += FRAME_TIME
        committed = False
        for frame in range(11):
            scene = replace(base, position=position)
            status = settle.update(READER.read(RENDERER.render(scene, move * 100 + 10 + frame)[0]))
            wrong += status.new_commit and status.committed != position
            committed |= status.state is BoardState.SETTLED and status.committed == position
            clock.now += FRAME_TIME
        missed += not committed
    assert wrong == 0
    assert missed == 0


def _shaded(labels, rim: np.ndarray) -> Reading:
    return replace(_reading(labels), covered=True, shaded=True, rim=rim, message="x")


def test_a_shadow_is_accepted_only_once_it_stays_put() -> None:
    clock = FakeClock()
    settle = SettlingFilter(window=0.3, clock=clock, shadow_window=1.0)
    labels = ("gold",) + (None,) * (len(PEGS) - 1)
    rng = np.random.default_rng(HELD_OUT + 510)
    for _ in range(60):
        moving = _shaded(labels, rng.normal(0, 0.3, (72, 3)))
        assert settle.update(moving).state is BoardState.COVERED
        clock.now += FRAME_TIME
    foreign = replace(_shaded(labels, np.zeros((72, 3))), shaded=False)
    assert all(not s.new_commit for s in _feed(settle, clock, foreign, 60))
    statuses = _feed(settle, clock, _shaded(labels, np.zeros((72, 3))), 60)
    commits = [i for i, status in enumerate(statuses) if status.new_commit]
    assert len(commits) == 1 and 1.0 + 0.3 <= commits[0] * FRAME_TIME < 1.0 + 0.3 + 0.1
    assert statuses[0].state is BoardState.COVERED and "shadow" in statuses[0].message


def test_moves_under_a_lamp_shadow_commit_and_never_wrongly() -> None:
    """A lamp's shadow across the board: learned once, then moves settle as usual."""
    clock = FakeClock()
    settle = SettlingFilter(window=0.3, clock=clock)
    rng = np.random.default_rng(HELD_OUT + 520)
    lamp = LampShadow(angle_deg=35.0, offset=-20.0, depth=0.45, softness=10.0, width=90.0)
    base = replace(random_scene(rng, random_position(rng)), shadow=lamp)
    first = RENDERER.render(base, 1)[0]
    reading = READER.read(first)
    assert reading.covered and reading.shaded and reading.position() == base.position
    times = []
    for move in range(3):
        position = random_position(rng)
        hand = replace(base, position=position, hand=random_hand(rng, BoardGeometry()))
        assert not settle.update(READER.read(RENDERER.render(hand, move * 100)[0])).new_commit
        clock.now += 0.1
        for frame in range(20):
            scene = replace(base, position=position)
            status = settle.update(READER.read(RENDERER.render(scene, move * 100 + frame + 1)[0]))
            assert not status.new_commit or status.committed == position
            if status.new_commit:
                times.append(frame)
                break
            clock.now += 0.1
    assert len(times) == 3
    assert times[0] >= 10 and max(times[1:]) <= 5


class _Judge:
    """A judge that commits ``position`` once it has seen ``enough`` frames (else unsure)."""

    def __init__(self, position, enough: int = 3) -> None:
        self.position, self.enough = position, enough
        self.frames = self.restarts = 0

    def restart(self) -> None:
        self.frames, self.restarts = 0, self.restarts + 1

    def add(self, reading):
        if reading.message == "hand":
            return ((3, 1),)
        self.frames += 1
        return ()

    def decide(self, committed):
        return _Judged(self.frames >= self.enough, self.position)


class _Judged:
    def __init__(self, committed: bool, position) -> None:
        self.committed, self.position = committed, position

    def message(self, noun: str = "place") -> str:
        return f"cannot tell yet what the board shows: {noun}s 3,1"


def test_with_a_judge_labels_that_flip_do_not_restart_the_window() -> None:
    """Noise that flips a doubtful peg's label between frames is evidence, not motion."""
    clock = FakeClock()
    judged = dict.fromkeys(PEGS)
    judge = _Judge(judged, enough=11)
    settle = SettlingFilter(window=0.3, clock=clock, judge=judge)
    first = (None,) * len(PEGS)
    second = ("red",) + (None,) * (len(PEGS) - 1)
    statuses = []
    for k in range(12):
        statuses.append(settle.update(_reading(first if k % 2 else second)))
        clock.now += FRAME_TIME
    commits = [k for k, status in enumerate(statuses) if status.new_commit]
    assert commits == [10]  # the window ran at frame 9; the judge was sure at its 11th frame
    assert statuses[10].committed == judged and judge.restarts == 1  # the first frame starts it
    assert statuses[9].state is BoardState.UNSURE and "3,1" in statuses[9].message


def test_with_a_judge_cover_motion_and_a_moving_shadow_restart_the_window() -> None:
    clock = FakeClock()
    judge = _Judge(dict.fromkeys(PEGS), enough=1)
    settle = SettlingFilter(window=0.3, clock=clock, judge=judge)
    labels = (None,) * len(PEGS)
    rng = np.random.default_rng(3)
    for frame in range(30):
        noisy = np.zeros((len(PEGS), 3))
        noisy[frame % len(PEGS)] = 0.6 * (frame % 2)
        for reading in (
            replace(_reading(labels), covered=True, message="something over the board"),
            _reading(labels, features=noisy),
            _reading(labels, shift=5.0 * (frame % 2)),
            _shaded(labels, rng.normal(0, 0.3, (72, 3))),
        ):
            assert not settle.update(reading).new_commit
        clock.now += FRAME_TIME
    assert settle.committed is None and judge.restarts >= 30


def test_with_a_judge_a_shadow_that_stays_put_is_part_of_the_still_board() -> None:
    clock = FakeClock()
    judge = _Judge(dict.fromkeys(PEGS))
    settle = SettlingFilter(window=0.3, clock=clock, judge=judge)
    shade = np.zeros((72, 3))
    shade[10:16] = -0.4
    statuses = _feed(settle, clock, _shaded((None,) * len(PEGS), shade), 12)
    assert [k for k, status in enumerate(statuses) if status.new_commit] == [9]


def test_with_a_judge_a_frame_it_sees_something_over_restarts_the_window() -> None:
    """A hand the rim does not show, over pegs no move changes: the frame is not used."""
    clock = FakeClock()
    judge = _Judge(dict.fromkeys(PEGS), enough=1)
    settle = SettlingFilter(window=0.3, clock=clock, judge=judge)
    labels = (None,) * len(PEGS)
    statuses = _feed(settle, clock, _reading(labels), 8)
    statuses += _feed(settle, clock, replace(_reading(labels), message="hand"), 12)
    assert not any(status.new_commit for status in statuses)
    assert statuses[-1].state is BoardState.COVERED and "peg 3,1" in statuses[-1].message
