"""The parts sight on rendered frames: a still C.O.G. table, fresh sensor noise in every frame,
is committed within 2 s of stillness, part by part, by the commit decision with the game's
explanations, and the adapter reads the word the player laid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from cogtable.commit_decision import Explanation, ExplanationKind, Explanations
from cogtable.inputs import BoardSettled, Input
from cogtable.sights.camera import CameraPart
from cogtable.sights.parts import PartsSight, part_explanations
from cogtable.tables.base import CameraRegion
from cogtable.tables.cog.adapter import CogAdapter
from cogtable.tables.cog.explain import explanations, read_places
from cogtable.tables.cog.parts import laid_out
from games.cog.actions import PlaceWord
from tests.tables.cog.test_cog_commit import constructing, seeded_state
from vision.layout import EMPTY
from vision.parts.reader import PartsReader
from vision.parts.renderer import TableRenderer
from vision.parts.table_scenes import random_table_scene
from vision.parts.tiles import TRAINING_FONTS

FPS = 15
STILL_S = 2.0
"""Issue 26: every still part committed within 2 s of stillness."""
SIZE = (1280, 720)


class Offered:
    """What the sight hands the table."""

    def __init__(self) -> None:
        self.items: list[Input] = []

    def __call__(self, item: Input, seen_at: float | None = None) -> None:
        self.items.append(item)


def test_a_still_table_with_a_word_laid_is_committed_within_two_seconds() -> None:
    state = seeded_state(constructing)
    word = max(
        (a for a in state.legal_actions() if type(a) is PlaceWord),
        key=lambda a: (len(a.word), a.notation()),
    )
    after = state.clone()
    after.apply(word)
    assert state.ed.layout is not None
    laid = laid_out(after, state.ed.layout)
    regions: Sequence[CameraRegion] = CogAdapter().regions_for(state)
    layouts = [region.layout for region in regions if region.layout is not None]
    scene = random_table_scene(np.random.default_rng(7), layouts, laid, font=TRAINING_FONTS[0])
    scene = replace(scene, sensor=replace(scene.sensor, noise=max(scene.sensor.noise, 4.0)))
    offered, now = Offered(), [0.0]
    game = explanations(state, None)
    sight = PartsSight(
        offered,
        CameraPart(offered),
        lambda: now[0],
        regions,
        lambda wanted: PartsReader([r.layout for r in wanted if r.layout is not None]),
        explain=lambda: game,
    )
    renderer = TableRenderer()
    settled = None
    for frame in range(int(STILL_S * FPS)):
        sight.see(renderer.render(scene, SIZE, seed=frame), now[0])
        now[0] += 1 / FPS
        settled = next((i for i in offered.items if isinstance(i, BoardSettled)), None)
        if settled is not None:
            break
    assert settled is not None, f"nothing committed in {STILL_S} s: {sight.waiting}"
    truth = {
        (part, place): laid.get(part, {}).get(place, EMPTY)
        for part, place in read_places(state.num_players)
    }
    seen = {
        (part, place): label
        for part, places in settled.observation.items()
        for place, label in places.items()
    }
    assert seen == truth, {k: (v, truth[k]) for k, v in seen.items() if truth[k] != v}
    verdict = CogAdapter().judge(state, settled.observation, None)
    assert verdict.kind == "move" and verdict.action == word, verdict.reason


def test_a_part_judges_only_its_own_places_and_a_change_elsewhere_is_no_rival() -> None:
    base = {("board", "cog-top1"): EMPTY, ("mat1", "r1c1"): EMPTY}
    options = (
        Explanation(ExplanationKind.UNCHANGED, {}, "in sync"),
        Explanation(ExplanationKind.LEGAL, {("mat1", "r1c1"): "A"}, "a tile on the mat"),
        Explanation(ExplanationKind.LEGAL, {("board", "cog-top1"): "red"}, "a cog"),
    )
    free = {("mat1", "r1c1"): ("A", EMPTY)}
    board = part_explanations(Explanations(base, options, free), "board")
    assert board.base == {"cog-top1": EMPTY} and not board.free
    assert [dict(o.changes) for o in board.options] == [{}, {"cog-top1": "red"}]
    mat = part_explanations(Explanations(base, options, free), "mat1")
    assert mat.free == {"r1c1": ("A", EMPTY)}
