"""The options of ``cogtable sim GAME``: one sub-command per kit, by how the camera reads it.

A peg-disk game has two seats and the disk camera's options; every other game
has players, seats, a variant, engine options and, where the camera reads
printed parts or a card mat, the camera's options. Every game has the common
ones (seed, quiet, games, state folder, profile, and the fleet's broker flags).
"""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

from cogtable.commands._seats import (
    CONVENTION,
    STRONG,
    SeatDefaults,
    SeatKinds,
    SeatRule,
    add_players_argument,
    add_seat_arguments,
)
from cogtable.fleet.attach import add_fleet_arguments, add_remote_arguments
from cogtable.mock.world import CameraMode
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for, table_games
from cogtable.tables.base import CARD_MAT, PEG_DISK, PRINTED_PARTS, ReaderKind
from games.core import new_game
from vision.cards.mat import standard_mat

HELP = "Play whole games on the mock table: simulated people, camera, Pico and LEDs."
MAX_GAMES = 10_000
"""The most games one run plays (the watchdog's frame budget grows with it)."""
EVERY_PART = Sensors(card_mat=standard_mat(6))
"""A table with every part a game may be read on (to know how a game is read, profile aside)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One sub-command per game, its options, and the seat convention below."""
    parser.epilog = CONVENTION
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True, title="games")
    for game in sorted(table_games(), key=lambda name: readers(name) != {PEG_DISK}):
        reads = readers(game)
        if reads == {PEG_DISK}:
            _disk_game_arguments(games, game)
            continue
        sub = _console_game_arguments(games, game)
        if reads in ({PRINTED_PARTS}, {CARD_MAT}):
            _camera_arguments(sub, (1920, 1080), default="truth")


def _disk_game_arguments(games: Any, game: str) -> None:
    """Options of a game the people play on the peg disk: two seats, the camera, their habits."""
    names = _seat_names(game)
    sub = games.add_parser(game, help=f"{game} on the mock table", description=HELP)
    _common_arguments(sub, "keep journal and board here (resumable)")
    sub.add_argument(
        "--camera",
        type=_camera,
        choices=tuple(CameraMode),
        default="render",
        help="render: draw and read every frame; truth: skip the pixels (fast)",
    )
    sub.add_argument("--size", type=_size, default=(640, 480), help="frame size WxH (640x480)")
    seats = ", ".join(f"seat {n} {name}" for n, name in enumerate(names, 1))
    add_players_argument(sub, 2, f"always 2 ({seats})", choices=(2,))
    colours = tuple(name.lower() for name in names)
    add_seat_arguments(sub, seat_rule(game, STRONG_RED_RANDOM_BLUE), colours=colours)
    sub.add_argument("--illegal-rate", type=_rate, default=0.08, help="chance of an illegal try")
    sub.add_argument("--undo-rate", type=_rate, default=0.03, help="chance of holding undo")
    add_remote_arguments(sub)
    sub.add_argument(
        "--tables",
        type=int,
        choices=(1, 2),
        default=1,
        help="2: one game across two mock tables over --broker, one person at each",
    )


def _seat_names(game: str) -> tuple[str, str]:
    """The two seats' names of a peg-disk game (Red, Blue)."""
    state = new_game(game, {}, 0)
    return state.player_name(0), state.player_name(1)


def readers(game: str) -> set[ReaderKind]:
    """How the camera reads ``game``: ``peg-disk``, ``parts``, ``cards``, or nothing (the console).

    A game read only on a part the profile may lack (the Cookie's card mat) counts as read.
    """
    adapter = adapter_for(game)
    regions = adapter.camera_regions() or adapter.fitted(EVERY_PART).camera_regions()
    return {region.reader for region in regions}


def _camera_arguments(
    sub: argparse.ArgumentParser, size: tuple[int, int], default: str = "render"
) -> None:
    """``--camera`` and ``--size``. C.O.G. defaults to ``truth``: its letter reader still
    doubts some tiles of the mock owner's font for good, and a doubted tile stalls a
    rendered game (issue 14 is open for it); ``--camera render`` reads every frame."""
    sub.add_argument(
        "--camera",
        type=_camera,
        choices=tuple(CameraMode),
        default=default,
        help=f"render: draw and read every frame; truth: skip the pixels (default {default})",
    )
    width, height = size
    sub.add_argument("--size", type=_size, default=size, help=f"frame size WxH ({width}x{height})")


def _common_arguments(sub: argparse.ArgumentParser, state_help: str) -> None:
    """The options every game's mock run has: seed, quiet, games, state folder, profile."""
    sub.add_argument("--seed", type=_seed, default=0, help="seed: the same seed, the same game")
    sub.add_argument("--quiet", action="store_true", help="print only the summary")
    sub.add_argument("--games", type=_game_count, default=1, help="games to play (default 1)")
    sub.add_argument("--state-dir", type=Path, help=state_help)
    sub.add_argument("--profile", type=Path, help="table profile (default: the mock table)")
    add_fleet_arguments(sub)


def _console_game_arguments(games: Any, game: str) -> argparse.ArgumentParser:
    """Options of a game the people play at the console: players, seats, variant, options."""
    adapter = adapter_for(game)
    sub = games.add_parser(game, help=f"{game} on the mock table", description=HELP)
    _common_arguments(sub, "keep the journal here (resumable)")
    add_players_argument(sub, None, "default: the most the game allows that fit the seats")
    variants = [variant for variant in adapter.player_counts if variant]
    if variants:
        sub.add_argument("--variant", choices=variants, default=variants[0], help="the variant")
    add_seat_arguments(sub, seat_rule(game))
    sub.add_argument(
        "--option", action="append", type=_option, default=[], metavar="KEY=VALUE",
        help="an engine option, e.g. max_turns=300 (repeatable)",
    )  # fmt: skip
    sub.add_argument("--mistake-rate", type=_rate, default=0.05, help="chance of a mistake")
    sub.add_argument("--undo-rate", type=_rate, default=0.02, help="chance of holding undo")
    return sub


EVERY_SEAT_STRONG = SeatDefaults(first=STRONG, others=STRONG)
"""Who sits in a seat no ``--seat`` names, in a mock run of a console game."""
STRONG_RED_RANDOM_BLUE = SeatDefaults(first=STRONG, others=STRONG, per_seat=(STRONG, "random"))
"""The same for a peg-disk game: two strong players take hundreds of moves to end a game."""


def seat_rule(game: str, defaults: SeatDefaults = EVERY_SEAT_STRONG) -> SeatRule:
    """Who may sit in a mock run of ``game`` (built-in players only) and who sits by default."""
    players = importlib.import_module(f"games.{game}.players")
    kinds = SeatKinds.of_game(game, players.PLAYERS, humans=False)
    return SeatRule(kinds, defaults)


def _camera(text: str) -> CameraMode:
    """``render`` or ``truth``; else one line naming both (argparse's invalid choice)."""
    try:
        return CameraMode(text)
    except ValueError:
        modes = ", ".join(repr(mode.value) for mode in CameraMode)
        raise argparse.ArgumentTypeError(
            f"invalid choice: {text!r} (choose from {modes})"
        ) from None


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def _seed(text: str) -> int:
    """A seed the journal can hold (SQLite's 64-bit integers)."""
    value = _whole(text)
    if not -(2**63) <= value < 2**63:
        raise argparse.ArgumentTypeError(f"a seed is -2**63 to 2**63-1, not {value}")
    return value


def _game_count(text: str) -> int:
    value = _positive(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"at most {MAX_GAMES} games a run, not {value}")
    return value


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _rate(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a chance is 0 to 1, not {value}")
    return value


def _option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE``: the value as JSON when it parses (numbers, true/false), else text."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, not {text!r}")
    try:
        return key.strip(), json.loads(value)
    except ValueError:
        return key.strip(), value


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a size is WIDTHxHEIGHT like 640x480, not {text!r}"
        ) from None
    if not (64 <= width <= 4096 and 64 <= height <= 4096):
        raise argparse.ArgumentTypeError(f"{text} is outside 64..4096 pixels")
    return width, height
