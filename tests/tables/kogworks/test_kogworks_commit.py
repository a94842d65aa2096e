"""The Kogworks disk through the table's camera path: reader, settling filter, commit decision."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from cogtable.commit_decision import ExplanationKind, StillBoardJudge
from cogtable.place_evidence import evidence_of_reading
from cogtable.tables.kogworks.explain import explanations, position_of
from games.core import load_game
from vision.peg_disk.learning import learn
from vision.peg_disk.reader import BoardReader
from vision.peg_disk.renderer import (
    Renderer,
    Sensor,
    random_hand,
    random_scene,
)
from vision.peg_disk.scene_conditions import calibration_scene
from vision.peg_disk.settle import BoardState, SettlingFilter
from vision.peg_disk.sprites import REFERENCE_LOOK

FPS = 15
SHADED = replace(REFERENCE_LOOK, shadow=0.45, grain=12.0)
"""Cogs casting shadows on their neighbours, on a grained disk."""
RENDERER = Renderer(look=SHADED)
READER = BoardReader(
    calibration=learn([RENDERER.render(calibration_scene((1280, 720)), s)[0] for s in range(3)])
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _game(seed: int, moves: int):
    rng = random.Random(seed)
    state = load_game("kogworks").new_game({}, seed)
    for _ in range(moves):
        state.apply(rng.choice(list(state.legal_actions(state.mover))))
    return state


def _sight(state):
    clock = Clock()
    judge = StillBoardJudge(lambda: explanations(state, None), evidence_of_reading)
    return clock, SettlingFilter(window=0.3, clock=clock, judge=judge)


def _noisy_scene(seed: int, position):
    scene = random_scene(np.random.default_rng(seed), position, (1280, 720), max_tilt=15.0)
    return replace(scene, sensor=Sensor(noise=9.0, blur=0.8, jpeg=55))


def _feed(clock, settle, scene, frames: int, first_seed: int):
    statuses = []
    for k in range(frames):
        statuses.append(settle.update(READER.read(RENDERER.render(scene, first_seed + k)[0])))
        clock.now += 1 / FPS
    return statuses


def test_a_noisy_still_board_with_a_move_made_commits_within_the_window() -> None:
    """Fresh noise in every frame, shade of neighbours, a grained disk: the move is committed
    once the settling window has run (0.3 s at 15 frames a second: the 5th frame)."""
    state = _game(51, 16)
    move = next(iter(state.legal_actions(state.mover)))
    after = state.clone()
    after.apply(move)
    clock, settle = _sight(state)
    statuses = _feed(clock, settle, _noisy_scene(51, position_of(after)), 8, 5100)
    commits = [k for k, status in enumerate(statuses) if status.new_commit]
    assert commits and commits[0] <= 5
    assert statuses[commits[0]].committed == position_of(after)
    assert settle.judge.last.explanation.kind is ExplanationKind.LEGAL
    assert settle.judge.last.explanation.name == move.notation()


def test_a_hand_over_the_board_restarts_the_window_and_never_commits() -> None:
    state = _game(52, 10)
    clock, settle = _sight(state)
    scene = _noisy_scene(52, position_of(state))
    rng = np.random.default_rng(52)
    for k in range(12):
        hand = replace(scene, hand=random_hand(rng, READER.geometry))
        status = settle.update(READER.read(RENDERER.render(hand, 5200 + k)[0]))
        clock.now += 1 / FPS
        assert not status.new_commit
        assert status.state is not BoardState.SETTLED
    statuses = _feed(clock, settle, scene, 8, 5300)
    assert any(status.new_commit for status in statuses)
    assert settle.committed == position_of(state)


def test_an_illegal_move_is_never_committed_as_a_legal_one() -> None:
    state = _game(53, 12)
    explained = explanations(state, None)
    illegal = next(
        option
        for option in explained.options
        if option.kind is ExplanationKind.ILLEGAL
        and "placed" not in option.name
        and "lifted" not in option.name
    )
    shown = illegal.position(explained.base)
    legal = [option.position(explained.base) for option in explained.options if option.kind.legal]
    clock, settle = _sight(state)
    statuses = _feed(clock, settle, _noisy_scene(53, shown), 10, 5400)
    committed = [status.committed for status in statuses if status.new_commit]
    assert all(position not in legal for position in committed)
    assert committed == [shown]  # shown as the illegal move it is
