"""How a command lets its table publish: the three flags, and a publisher around the run.

``cogtable service run`` and ``cogtable sim`` take ``--broker URL --venue V
--table-id T`` (:func:`add_fleet_arguments`); they override the profile's
``[fleet]``. :func:`publishing` starts the publisher for as long as the table
runs, and does nothing when neither the flags nor the profile name a broker.
The flags are checked when parsed, and together before the table starts:
each mistake one line, exit 2. The publisher runs in a process of its own
(:mod:`cogtable.fleet.process`), so the table's timing stays its own.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogtable.errors import UserError
from cogtable.fleet.settings import broker_flag, fleet_settings, id_flag
from hardware.profile import Profile


@dataclass(frozen=True)
class FleetFlags:
    """The three flags as given (None where not): what :func:`publishing` reads from ``args``."""

    broker: str | None = None
    venue: str | None = None
    table_id: str | None = None
    remote: Any = None
    """``--remote``: a :class:`cogtable.fleet.remote.RemoteTable`."""
    local_seat: int = 1


def add_fleet_arguments(parser: argparse.ArgumentParser) -> None:
    """``--broker``, ``--venue`` and ``--table-id`` (each checked as it is parsed)."""
    parser.add_argument(
        "--broker",
        type=_checked(lambda text: str(broker_flag(text))),
        help="publish to this MQTT broker, mqtt://host[:port] (overrides the profile's [fleet])",
    )
    parser.add_argument(
        "--venue", type=_checked(lambda text: id_flag(text, "--venue")), help="the venue's id"
    )
    parser.add_argument(
        "--table-id",
        type=_checked(lambda text: id_flag(text, "--table-id")),
        help="this table's id in the venue",
    )


def add_remote_arguments(parser: argparse.ArgumentParser) -> None:
    """``--remote URL`` (the other table of a game played across two) and ``--local-seat N``."""
    from cogtable.fleet.remote import remote_flag

    parser.add_argument(
        "--remote",
        type=_checked(remote_flag),  # type: ignore[arg-type]
        help="play one game with another table: mqtt://host[:port]/<venue>/<other-table>"
        " (its seats are played there; needs --table-id or a [fleet] section)",
    )
    parser.add_argument(
        "--local-seat",
        type=_seat_number,
        default=1,
        help="with --remote: the seat played at this table, counted from 1 (default 1)",
    )


def _seat_number(text: str) -> int:
    try:
        seat = int(text)
    except ValueError:
        seat = 0
    if seat < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a seat number from 1")
    return seat


def remote_seats(
    args: argparse.Namespace | FleetFlags, players: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats played here and away (0-based) for ``--local-seat`` in a game of ``players``."""
    here = int(getattr(args, "local_seat", 1)) - 1
    if here >= players:
        raise UserError(f"--local-seat {here + 1}: this game has {players} seats")
    return (here,), tuple(seat for seat in range(players) if seat != here)


def remote_play(args: argparse.Namespace | FleetFlags, profile: Profile) -> Any:
    """The settings this table plays ``--remote`` with (None without ``--remote``); UserError."""
    remote = getattr(args, "remote", None)
    if remote is None:
        return None
    from cogtable.fleet.remote import remote_settings

    fleet = fleet_settings(profile, None, None, None)
    return remote_settings(remote, getattr(args, "table_id", None), fleet)


@contextlib.contextmanager
def publishing_and_remote(
    flags: FleetFlags,
    remote: Any,
    table: Callable[[], Any],
    profile: Profile,
    state_dir: Path,
) -> Iterator[Any]:
    """The publisher (if any) and, with ``remote`` (:class:`RemoteTable` and this table's
    settings), the remote seats of the runtime ``table()`` gives, while the block runs."""
    from cogtable.fleet.remote import playing_remote
    from cogtable.game_choice import players_of
    from cogtable.tables import adapter_for

    runtime = table()
    choice = runtime.choice
    players = players_of(adapter_for(choice.game), choice.options)
    here, away = remote_seats(flags, players)
    with (
        publishing(flags, profile, state_dir),
        playing_remote(remote[1], remote[0], here, away, runtime),
    ):
        yield None


def _checked(check: Callable[[str], str]) -> Callable[[str], str]:
    """An argparse type: the check's UserError becomes argparse's one-line error (exit 2)."""

    def parse(text: str) -> str:
        try:
            return check(text)
        except Exception as error:
            said = str(error)  # "--flag 'value': why": argparse names the flag itself
            raise argparse.ArgumentTypeError(said.split(" ", 1)[-1]) from None

    return parse


def check_fleet_arguments(args: argparse.Namespace | FleetFlags, profile: Profile) -> None:
    """The flags together with the profile (UserError): call before anything is created."""
    fleet_settings(profile, *_flags(args))


@contextlib.contextmanager
def publishing(
    args: argparse.Namespace | FleetFlags, profile: Profile, state_dir: Path
) -> Iterator[Any]:
    """The table's publisher while the block runs (None when the table does not publish)."""
    settings = fleet_settings(profile, *_flags(args))
    if settings is None:
        yield None
        return
    from cogtable.fleet.connection import paho
    from cogtable.fleet.process import PublisherProcess

    paho()  # the extra missing: one line before anything runs
    quiet = logging.getLogger().getEffectiveLevel() > logging.WARNING
    publisher = PublisherProcess(settings, state_dir, profile, quiet).start()
    try:
        yield publisher
    finally:
        publisher.stop()


def _flags(args: argparse.Namespace | FleetFlags) -> tuple[str | None, str | None, str | None]:
    if getattr(args, "broker", None) is None and getattr(args, "remote", None) is not None:
        return (None, None, None)  # --table-id names this table to its --remote partner only
    return (
        getattr(args, "broker", None),
        getattr(args, "venue", None),
        getattr(args, "table_id", None),
    )
