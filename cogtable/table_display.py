"""What the game table shows: its LED frame, its screen, the waits it says, the camera's plan.

A mixin of :class:`cogtable.table.GameTable`, which holds the journal, the
engine state and the adapter; here is how that is drawn and published after
every input, in the controller thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cogtable.reading_plan import ReadingPlan
from cogtable.sensing import Asked
from cogtable.table_status import ShownWait, TableStatus
from cogtable.tables.base import AMBER, WHITE, Scene, SeatSummaries, paused_frame
from cogtable.waits import TableFacts, Wait, waits_of
from games.core import CHANCE, State
from hardware.leds import Frame, blink

if TYPE_CHECKING:
    pass


class TableDisplay:
    """How a :class:`~cogtable.table.GameTable` shows what it knows (LEDs, screen, status)."""

    wait: Wait | None
    published: TableStatus

    def scene(self, asked: list[Asked] | None = None) -> Scene:
        """What the adapter draws beyond the state: verdict, requests, flash, last event."""
        asked = self.asking() if asked is None else asked
        return Scene(
            verdict=self.view.verdict,
            seat_colours=self.seat_colours,
            requests=tuple(ask.request for ask in asked),
            routes=tuple(ask.route for ask in asked),
            accepted=self.view.accepted,
            message=self.view.message,
            last=self.view.last,
        )

    def frame(self, scene: Scene | None = None) -> Frame:
        """The LED frame for what the table knows now."""
        if self.view.paused:
            return paused_frame(self.template)
        scene = scene or self.scene()
        leds = self.adapter.frame(self.state, scene, self.template)
        if self.view.summary and isinstance(self.adapter, SeatSummaries):
            self.adapter.show_summary(leds, self.state, scene, self.view.summary[0])
        if self.view.chosen_at is not None:
            _show_game_number(leds, max(self._choice_number(), 0))
        amber = self.wait is not None and self.wait.amber
        if (self.view.waiting or amber) and leds.size("status"):
            leds.set("status", 0, AMBER)
        elif amber:  # no status LED: every seat LED blinks amber instead
            for seat in range(leds.size("seats")):
                leds.set("seats", seat, AMBER, blink(1.0))
        return leds

    def status(self, asked: list[Asked] | None = None) -> TableStatus:
        """Game, turn, sync, what the table waits for and the last thing it said."""
        state = self.state
        outcome = state.outcome()
        acting = self.adapter.waited_for(state)
        asked = self.asking() if asked is None else asked
        return TableStatus(
            game=self.game_name,
            game_id=self.game.id,
            options=dict(state.options),
            seed=state.seed,
            ply=len(state.history),
            turn=turn_words(state, acting),
            in_sync=self.view.synced,
            waiting=self.view.waiting,
            waiting_for=tuple(ask.to_json() for ask in asked),
            asking="; ".join(ask.question(state) for ask in asked),
            camera=self.adapter.camera_note,
            last=self.view.last,
            message=self.view.message or self.view.verdict.reason,
            verdict=self.view.verdict.kind,
            outcome=outcome.to_json() if outcome else None,
            wait=ShownWait.of(self.wait, self.clock()) if self.wait is not None else None,
            stopped=self.remote.stopped,
        )

    def show(self, now: float) -> None:
        """Send the current frame to the renderer (and the screen); publish the status and
        what the camera may see next."""
        self._explain()
        self._publish_plan()
        asked = self.asking()
        self.wait = self._due_wait(asked, now)
        scene = self.scene(asked)
        frame = self.frame(scene)
        self.published = self.status(asked)
        self.renderer.show(frame, now)
        if self.screen is not None:
            lines = self.screen_lines(scene, asked)
            shown = _segments(frame, ("seats", "status", *self.adapter.segments_drawn()))
            self.screen.show(lines, shown, now, self.adapter.arrangement())

    def _explain(self) -> None:
        """Publish the adapter's explanations of the board to come (the camera thread reads
        :attr:`explanations`), computed again only when the game, the position or the reading
        committed changed (a card kit's explanations start from the mat as last judged)."""
        seen = id(self.seen)
        key = (self.game.id, id(self.state), len(self.state.history), id(self.before), seen)
        if key != self._explained:
            self._explained = key
            self.explanations = self.adapter.explanations(self.state, self.before)

    def _publish_plan(self) -> None:
        """Tell the camera thread what to read now (:class:`ReadingPlan`), built here, in the
        controller thread, from the state as it now stands."""
        self.plans.publish(
            ReadingPlan.of(
                self.adapter.regions_for(self.state),
                self.adapter.camera_note,
                self.seen,
                self.explanations,
                game_id=self.game.id,
                ply=len(self.state.history),
            )
        )

    def _due_wait(self, asked: list[Asked], now: float) -> Wait | None:
        """What holds the table up and has lasted long enough to say so (:mod:`cogtable.waits`)."""
        if self.view.paused:
            self.watch.update([], now)
            return None
        facts = TableFacts(
            state=self.state,
            asked=asked,
            verdict=self.view.verdict,
            synced=self.view.synced,
            reads_camera=bool(self.adapter.camera_regions()),
            camera=self.view.waiting,
            put_right=self.view.taken_back,
            seen_any=self.seen is not None,
            parts=dict(self.parts),
            differences=self._differences(),
        )
        return self.watch.update(waits_of(facts), now)

    def _differences(self) -> str:
        """Where the last reading differs from the game, in words, while not in sync."""
        if self.view.synced or self.seen is None or not self.adapter.camera_regions():
            return ""
        return self.adapter.difference_words(self.state, self.seen)

    def screen_lines(
        self, scene: Scene | None = None, asked: list[Asked] | None = None
    ) -> list[str]:
        """The terminal screen: what the table knows, waits for and refused, then the game."""
        asked = self.asking() if asked is None else asked
        scene = scene or self.scene(asked)
        state = self.state
        turn = turn_words(state, scene.choosing())
        head = f"{self.game_name} game {self.game.id}, move {len(state.history)}"
        lines = [head + (f", {turn} to act" if turn else "")]
        if self.view.paused:
            lines.append("paused: press pause to go on")
        lines += [f"waiting for: {ask.question(state)}" for ask in asked]
        lines += [f"last: {self.view.last}"] if self.view.last else []
        lines += [f"refused: {scene.message}"] if scene.message else []
        lines += [f"asked: {self.view.summary[2]}"] if self.view.summary else []
        lines += [f"camera: {self.adapter.camera_note}"] if self.adapter.camera_note else []
        lines += self.wait.lines(self.clock()) if self.wait is not None else []
        return [*lines, *self.adapter.screen(state, scene)]


def _segments(frame: Frame, names: Sequence[str]) -> Frame:
    """A copy of ``frame`` with only the named segments (the screen shows what the game uses)."""
    shown = Frame({})
    shown.looks = {name: list(looks) for name, looks in frame.looks.items() if name in names}
    return shown


def _show_game_number(leds: Frame, number: int) -> None:
    """The chosen game's place in the list: that many seat LEDs (from the first) glow white.

    The other seat LEDs are dark meanwhile (a game whose seats all act at once lights them all).
    """
    leds.clear("seats")
    for seat in range(min(number + 1, leds.size("seats"))):
        leds.set("seats", seat, WHITE)


def turn_words(state: State, acting: Sequence[int]) -> str | None:
    """Who acts, in words: a player, the table (a roll, a draw, a deal), or None at the end."""
    if acting:
        return state.player_name(acting[0])
    return "the table" if state.to_act() == (CHANCE,) else None
