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

from cogtable.fleet.settings import broker_flag, fleet_settings, id_flag
from hardware.profile import Profile


@dataclass(frozen=True)
class FleetFlags:
    """The three flags as given (None where not): what :func:`publishing` reads from ``args``."""

    broker: str | None = None
    venue: str | None = None
    table_id: str | None = None


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
    return (
        getattr(args, "broker", None),
        getattr(args, "venue", None),
        getattr(args, "table_id", None),
    )
