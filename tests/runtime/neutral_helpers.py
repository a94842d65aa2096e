"""Shared helpers of the game-neutral table tests: seeded play, a table built in memory."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cogtable.game_choice import GameChoice
from cogtable.journal import Journal
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from cogtable.tables import adapter_for
from games.core import CHANCE, Action, State, new_game
from hardware.leds import Frame
from hardware.profile import Profile, load_profile

GAMES = ("cog", "commissars", "cookie", "kogworks")
"""Every game with a table adapter."""
DARK = (0, 0, 0)


class FrameLog:
    """A renderer that keeps every frame it was shown."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []

    def show(self, frame: Frame, now: float) -> None:
        self.frames.append(frame)

    def close(self) -> None:
        pass


def colours_of(profile: Profile) -> tuple[tuple[int, int, int], ...]:
    return tuple(seat.colour for seat in profile.seats)


def make_table(
    path: Path,
    choice: GameChoice,
    sensors: Sensors | None = None,
    games: Sequence[GameChoice] = (),
    profile: Profile | None = None,
) -> tuple[GameTable, FrameLog]:
    """A game table on the mock profile's LEDs with a journal at ``path``."""
    profile = profile or load_profile()
    leds = FrameLog()
    table = GameTable(
        Journal(path, clock=lambda: 0.0),
        leds,
        Frame.for_profile(profile),
        colours_of(profile),
        game=choice,
        clock=lambda: 0.0,
        sensors=sensors,
        games=games,
    )
    return table, leds


def random_step(state: State, rng: random.Random) -> Action:
    """One seeded action: chance sampled, else a random legal action of who the table waits for."""
    acting = state.to_act()
    if acting == (CHANCE,):
        return state.sample_chance()
    player = adapter_for(state.game).waited_for(state)[0]
    return rng.choice(list(state.legal_actions(player)))


def play_until(
    game: str,
    options: dict[str, Any],
    seed: int,
    stop: Callable[[State], bool],
    limit: int = 20_000,
) -> State | None:
    """Seeded random play until ``stop(state)``; None if the game ends (or runs long) first."""
    state = new_game(game, options, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if stop(state):
            return state
        if state.is_over():
            return None
        state.apply(random_step(state, rng))
    return None


def find_state(
    game: str, options: dict[str, Any], stop: Callable[[State], bool], seeds: int = 50
) -> State:
    """The first seeded random game that reaches ``stop``."""
    for seed in range(seeds):
        found = play_until(game, options, seed, stop)
        if found is not None:
            return found
    raise AssertionError(f"no {game} game in {seeds} seeds reached the wanted state")


def past_chance(state: State) -> State:
    """Apply sampled chance outcomes until a player must act."""
    while state.to_act() == (CHANCE,):
        state.apply(state.sample_chance())
    return state


def hidden_blitz(state: State) -> bool:
    """A Commissars state where someone could Blitz but the table waits only for others."""
    return bool(set(state.to_act()) - set(state.view()["to_act"]) - {CHANCE})


def lit_seats(frame: Frame) -> dict[int, Any]:
    """The seat LEDs that are not dark, with their looks."""
    return {index: look for index, look in enumerate(frame.looks["seats"]) if look.colour != DARK}


def sources(table: GameTable) -> list[str]:
    """The journaled source of every action of the table's game, in order."""
    rows = table.journal.connection.execute(
        "SELECT source FROM actions WHERE game_id = ? ORDER BY ply", (table.game.id,)
    ).fetchall()
    return [row[0] for row in rows]
