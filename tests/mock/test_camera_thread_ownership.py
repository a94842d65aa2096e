"""One owner of the game state: the camera thread reads only what the controller publishes.

The controller thread applies every action; the camera thread reads the frozen
:class:`~cogtable.reading_plan.ReadingPlan` the controller published after the
last change, never the table's state while it changes.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import pytest

from cogtable.game_choice import GameChoice
from cogtable.inputs import Shutdown
from cogtable.reading_plan import PlanPost, ReadingPlan
from cogtable.table import GameTable
from tests.mock.helpers import play
from tests.runtime.neutral_helpers import make_table

MOVES = 4


def test_the_camera_thread_never_reads_the_game_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller = threading.current_thread()  # the sim runs its controller in the calling thread
    foreign: list[str] = []
    plans: list[ReadingPlan] = []
    state_of = GameTable.state.fget
    assert state_of is not None

    def guarded(table: GameTable) -> Any:
        if threading.current_thread() is not controller:
            foreign.append(threading.current_thread().name)
        return state_of(table)

    monkeypatch.setattr(GameTable, "state", property(guarded))

    def enough(world: object, runtime: Any, people: object) -> None:
        plan = runtime.plans.current
        if not plans or plans[-1] is not plan:
            plans.append(plan)
        if runtime.status()["ply"] >= MOVES:  # the status too is read from the camera thread
            runtime.put(Shutdown("enough moves"))

    played = play(tmp_path, "--seed", "1", actors=[enough])

    assert played.reason == "enough moves"
    assert foreign == [], f"read the game state from the {sorted(set(foreign))} thread(s)"
    plies = [plan.ply for plan in plans]
    assert plies == sorted(plies) and plies[-1] >= MOVES - 1, "a new plan after each move"
    assert all(plan.regions and plan.explanations is not None for plan in plans)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plans[-1].ply = 0  # type: ignore[misc]


def test_a_plan_holds_the_committed_reading_read_only() -> None:
    post = PlanPost()
    assert post.current.regions == ()
    seen = {(9, 1): "red"}
    post.publish(ReadingPlan.of((), "reads nothing", seen, None, game_id=1, ply=3))
    with pytest.raises(TypeError):
        post.current.committed[(9, 2)] = "blue"  # type: ignore[index]
    assert post.current.committed == seen and post.current.note == "reads nothing"


def test_a_new_game_is_published_before_any_input(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", GameChoice("kogworks"))
    first = table.plans.current
    assert first.regions == table.adapter.regions_for(table.state) and first.game_id == 1
    table.new_game(GameChoice("cookie", {"players": 4}))  # as sim does before the threads start
    plan = table.plans.current
    assert plan is not first and plan.game_id == 2 and plan.ply == 0
    assert plan.regions == table.adapter.regions_for(table.state) != first.regions
    assert plan.note == table.adapter.camera_note
