"""The status file follows the table: a change is written at the next look, else once a second."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogtable.service.runner import CHECK_SECONDS, REWRITE_SECONDS, StatusWriter


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def written(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "status.json").read_text(encoding="utf-8"))


def test_a_change_is_written_at_the_next_look_not_a_second_later(tmp_path: Path) -> None:
    status = {"ply": 0}
    clock = Clock()
    writer = StatusWriter(tmp_path, lambda: dict(status), clock=clock)
    writer(force=True)
    status["ply"] = 1
    clock.now += CHECK_SECONDS * 1.5
    writer()
    assert written(tmp_path)["ply"] == 1
    assert written(tmp_path)["updated"] == clock.now


def test_an_unchanged_status_is_written_again_once_a_second(tmp_path: Path) -> None:
    clock = Clock()
    writer = StatusWriter(tmp_path, lambda: {"ply": 3}, clock=clock)
    writer(force=True)
    first = written(tmp_path)["updated"]
    clock.now += REWRITE_SECONDS / 2
    writer()
    assert written(tmp_path)["updated"] == first, "an unchanged status waits for its second"
    clock.now += REWRITE_SECONDS / 2
    writer()
    assert written(tmp_path)["updated"] == clock.now


def test_the_status_is_not_asked_for_more_often_than_each_look(tmp_path: Path) -> None:
    asked: list[float] = []
    clock = Clock()

    def status() -> dict[str, Any]:
        asked.append(clock.now)
        return {"ply": len(asked)}

    writer = StatusWriter(tmp_path, status, clock=clock)
    for _ in range(10):
        writer()
        clock.now += CHECK_SECONDS * 0.3

    assert len(asked) == 3  # ten calls 0.3 looks apart: asked at 0, 1.2 and 2.4 looks
