"""``cogtable profile``: check a table profile, or show the default (mock table) one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hardware.profile import ProfileError, default_profile_path, load_profile

NAME = "profile"
HELP = "Check a table profile (TOML) or show the default mock table profile."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Two actions: ``check FILE`` and ``show``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="check a profile; list every mistake")
    check.add_argument("file", type=Path, help="the profile to check")
    check.set_defaults(handler=_check)
    show = actions.add_parser("show", help="print the default (mock table) profile")
    show.set_defaults(handler=_show)


def run(args: argparse.Namespace) -> int:
    """Hand over to the chosen action."""
    return int(args.handler(args))


def _check(args: argparse.Namespace) -> int:
    """OK and a summary; or exit status 2 with one mistake in one line, several one a line."""
    try:
        profile = load_profile(args.file)
    except ProfileError as error:
        if len(error.errors) == 1:
            print(f"cogtable profile: {error.source}: {error.errors[0]}", file=sys.stderr)
            return 2
        print(f"{error.source}: {len(error.errors)} mistakes", file=sys.stderr)
        for line in error.errors:
            print(f"  {line}", file=sys.stderr)
        return 2
    print(f"OK {args.file}")
    print(profile.summary())
    return 0


def _show(args: argparse.Namespace) -> int:
    """The default profile's path as a comment line, then its text."""
    path = default_profile_path()
    print(f"# {path}")
    print(path.read_text(encoding="utf-8"), end="")
    return 0
