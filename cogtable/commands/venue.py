"""``cogtable venue``: every table of a venue, live, from the MQTT broker they publish to.

A read-only page in the web view's style (tables needing staff first), served
on 127.0.0.1 unless ``--listen`` says otherwise; with ``--once`` the tables
as plain lines in the terminal, then exit. Needs the ``fleet`` extra (and the
``web`` extra for the page). It only subscribes: nothing is ever sent to a
table.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import Any

from cogtable.commands.web import LOCALHOST, open_listener
from cogtable.errors import UserError
from cogtable.fleet.settings import FleetSettings, broker_flag, id_flag, read_credentials

NAME = "venue"
HELP = "Show every table of a venue live (game, seats, turn, staff needed) from an MQTT broker."
DEFAULT_PORT = 8341
SETTLE_S = 1.0
"""--once: the tables are printed once no message came for this long (retained ones come first)."""
ONCE_LIMIT_S = 5.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The broker, the venue, where to listen, or --once."""
    parser.add_argument("--broker", required=True, help="the MQTT broker, mqtt://host[:port]")
    parser.add_argument("--venue", help="the venue's id (default: every venue on the broker)")
    parser.add_argument(
        "--listen", default=LOCALHOST, help=f"address to serve the page on (default {LOCALHOST})"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")
    parser.add_argument("--once", action="store_true", help="print the tables as lines and exit")
    parser.add_argument("--ca-file", type=Path, help="with mqtts://: the broker's CA certificate")
    parser.add_argument(
        "--credentials", type=Path, help="the broker user's file (as the table's [fleet])"
    )


def run(args: argparse.Namespace) -> int:
    """Print once, or serve the page until interrupted."""
    logging.basicConfig(level=logging.WARNING, format="cogtable %(message)s")
    broker = broker_flag(args.broker)
    if broker.tls and args.ca_file is None:
        raise UserError(f"--broker {args.broker}: mqtts needs --ca-file, the broker's CA")
    if args.ca_file is not None and not args.ca_file.is_file():
        raise UserError(f"--ca-file {args.ca_file}: there is no such file")
    settings = FleetSettings(
        broker,
        id_flag(args.venue, "--venue") if args.venue else "",
        "",
        args.ca_file if broker.tls else None,
        read_credentials(args.credentials) if args.credentials else None,
    )
    from cogtable.fleet.connection import BrokerUnavailable
    from cogtable.fleet.venue import Venue, VenueWatcher

    venue = Venue(args.venue or None)
    if args.once:
        watcher = VenueWatcher(settings, venue)
        try:
            watcher.start(wait=True)
        except BrokerUnavailable as error:
            raise UserError(f"--broker {args.broker}: cannot reach it: {error}") from None
        _settle(venue)
        watcher.stop()
        rows = venue.rows()
        for row in rows:
            print(line(row))
        if not rows:
            print(f"no table has published on {settings.broker}" + _of(args.venue))
        return 0
    return _serve(args, settings, venue)


def _of(venue: str | None) -> str:
    return f" for venue {venue}" if venue else ""


def _settle(venue: Any) -> None:
    """Wait until the retained messages have come (quiet for SETTLE_S), at most ONCE_LIMIT_S."""
    deadline = time.monotonic() + ONCE_LIMIT_S
    seen, quiet_since = -1, time.monotonic()
    while time.monotonic() < deadline:
        if venue.version != seen:
            seen, quiet_since = venue.version, time.monotonic()
        elif time.monotonic() - quiet_since >= SETTLE_S:
            return
        time.sleep(0.05)


def line(row: dict[str, Any]) -> str:
    """One table as a plain line: who, staff needed, game, seats, turn, what it waits for."""
    state = "STAFF: " + "; ".join(row["needs"]) if row["needs"] else "ok"
    game = f"{row['game']} #{row['game_id']} move {row['ply']}" if row["game"] else "no game"
    parts = [f"{row['venue']}/{row['table']}", state, game]
    if row["players"]:
        parts.append("seats: " + ", ".join(row["players"]))
    if row["turn"]:
        parts.append(f"turn: {row['turn']}")
    if row["waiting"]:
        parts.append(f"waits for: {row['waiting']}")
    return "  ".join(parts)


def _serve(args: argparse.Namespace, settings: FleetSettings, venue: Any) -> int:
    try:
        import uvicorn

        from cogtable.fleet.venue_page import create_venue_app
    except ImportError as error:
        raise UserError(
            f"the venue page needs the 'web' extra ({error.name} is missing): "
            "pip install 'cogtable[web,fleet]'"
        ) from error
    from cogtable.fleet.venue import VenueWatcher

    listener = open_listener(args.listen, args.port)
    host, port = listener.getsockname()[:2]
    watcher = VenueWatcher(settings, venue)
    watcher.start()
    shown = f"[{host}]" if ":" in host else host
    print(
        f"cogtable venue: {settings.broker}{_of(args.venue)} on http://{shown}:{port}/", flush=True
    )
    server: uvicorn.Server | None = None
    app = create_venue_app(
        venue,
        connected=watcher.connected.is_set,
        stopping=lambda: bool(server and server.should_exit),
    )
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=2, server_header=False
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listener])
    finally:
        watcher.stop()
    return 0
