"""The controller loop: order, heartbeat, resilience and shutdown."""

from __future__ import annotations

import queue
from typing import Any

from cogtable.controller import Controller
from cogtable.inputs import ButtonPressed, ConsoleCommand, Input, PartStatus, Shutdown
from cogtable.table_status import TableStatus


class RecordingTable:
    """A table that remembers what it was asked to do, and fails on 'boom'."""

    def __init__(self) -> None:
        self.handled: list[Input] = []
        self.ticks = 0
        self.paused = False

    def handle(self, item: Input, now: float) -> None:
        if isinstance(item, ConsoleCommand) and item.text == "boom":
            raise RuntimeError("the adapter broke")
        self.handled.append(item)

    def tick(self, now: float) -> None:
        self.ticks += 1

    def status(self) -> TableStatus:
        return TableStatus(game="toy", ply=len(self.handled))

    def pause(self) -> None:
        self.paused = True


def run_with(items: list[Input], **kwargs: Any) -> tuple[Controller, RecordingTable, str]:
    inputs: queue.Queue[Input] = queue.Queue()
    for item in items:
        inputs.put(item)
    table = RecordingTable()
    controller = Controller(table, inputs, tick_seconds=0.001, **kwargs)
    return controller, table, controller.run()


def test_inputs_are_handled_in_order_until_shutdown() -> None:
    first, second = ButtonPressed("confirm", seat=0), ButtonPressed("undo", seat=1)
    _, table, reason = run_with([first, second, Shutdown("done"), ButtonPressed("pause")])
    assert table.handled == [first, second]
    assert reason == "done"
    assert table.paused


def test_heartbeat_after_every_input_and_shutdown() -> None:
    beats: list[int] = []
    run_with(
        [ConsoleCommand("a"), ConsoleCommand("b"), Shutdown()], heartbeat=lambda: beats.append(1)
    )
    assert len(beats) == 3


def test_the_heartbeat_comes_once_the_item_is_handled() -> None:
    """The status the heartbeat writes then already shows the item (a move reaches the web)."""
    table = RecordingTable()
    handled_at_beat: list[int] = []
    inputs: queue.Queue[Input] = queue.Queue()
    for item in (ConsoleCommand("a"), ConsoleCommand("b"), Shutdown()):
        inputs.put(item)
    Controller(table, inputs, heartbeat=lambda: handled_at_beat.append(len(table.handled))).run()
    assert handled_at_beat == [1, 2, 2]


def test_idle_ticks_reach_the_table_and_beat() -> None:
    inputs: queue.Queue[Input] = queue.Queue()
    table = RecordingTable()
    beats: list[int] = []

    def beat() -> None:
        beats.append(1)
        if len(beats) == 5:
            inputs.put(Shutdown())

    Controller(table, inputs, tick_seconds=0.001, heartbeat=beat).run()
    assert table.ticks >= 4
    assert len(beats) >= 5


def test_a_failing_input_is_reported_and_the_loop_goes_on() -> None:
    after = ConsoleCommand("after")
    controller, table, _ = run_with([ConsoleCommand("boom"), after, Shutdown()])
    assert table.handled == [after]
    assert controller.status()["last_error"] == "RuntimeError: the adapter broke"


def test_part_status_is_kept_for_the_status_command() -> None:
    controller, _, _ = run_with([PartStatus("camera", "no camera", "cable out"), Shutdown()])
    assert controller.status()["parts"]["camera"] == "no camera"
    assert controller.status()["game"] == "toy"
