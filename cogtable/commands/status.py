"""``cogtable status``: what the running table is doing."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cogtable.service.runner import default_state_dir, read_status
from cogtable.service.waiting import WAITING

NAME = "status"
HELP = "Show the running table's state: game, turn, camera/link/GPIO, last error."
STALE_SECONDS = 30.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the service keeps its state."""
    parser.add_argument("--state-dir", type=Path, default=None, help="the service's state folder")


def run(args: argparse.Namespace) -> int:
    """Print the status the service last wrote; exit 1 if it is stale."""
    status = read_status(args.state_dir or default_state_dir())
    for line in format_status(status, time.time()):
        print(line)
    return 1 if time.time() - float(status.get("updated", 0)) > STALE_SECONDS else 0


def _wait_lines(wait: Any) -> list[str]:
    """What the table has waited for long enough to say so: expected, seen, how to go on."""
    if not isinstance(wait, dict):
        return []
    return [
        f"waited:     {float(wait.get('seconds', 0)):.0f} s for {wait.get('expected', '?')}",
        f"sees:       {wait.get('seen', '?')}",
        f"to go on:   {wait.get('remedy', '?')}",
    ]


def format_status(status: dict[str, Any], now: float) -> list[str]:
    """The status as lines a person reads."""
    age = now - float(status.get("updated", 0))
    parts = status.get("parts", {})
    if status.get("state") == WAITING:  # no table yet: what it waits for and how to give it
        lines = [f"state:      {status.get('message') or WAITING}"]
        lines += [f"calibrate:  sudo {status['calibrate']}"] if status.get("calibrate") else []
    else:
        lines = [
            f"game:       {status.get('game', '?')} #{status.get('game_id', '?')},"
            f" ply {status.get('ply', '?')}",
            f"turn:       {status.get('turn') or 'game over'}",
            f"board:      {'in sync' if status.get('in_sync') else 'not in sync'}"
            + (f" ({status['waiting']})" if status.get("waiting") else ""),
        ]
    if status.get("asking"):
        lines.append(f"waiting for: {status['asking']}")
    lines += _wait_lines(status.get("wait"))
    if status.get("last"):
        lines.append(f"last:       {status['last']}")
    lines += [f"{part + ':':<12}{parts[part]}" for part in sorted(parts)]
    if status.get("message") and status.get("state") != WAITING:
        lines.append(f"message:    {status['message']}")
    if status.get("outcome"):
        lines.append(f"result:     {status['outcome']}")
    lines.append(f"last error: {status.get('last_error') or 'none'}")
    lines.append(
        f"updated:    {age:.0f} s ago"
        + ("  (stale: stopped or hung?)" if age > STALE_SECONDS else "")
    )
    return lines
