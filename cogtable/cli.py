"""The ``cogtable`` command line: one subcommand per module in :mod:`cogtable.commands`.

A subcommand module defines ``NAME`` and ``HELP`` (one line for ``--help``),
``add_arguments(parser)`` and ``run(args) -> int``. Modules are found by
name, so adding a subcommand touches no other file.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import signal
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

import cogtable
from cogtable import commands
from cogtable.errors import UserError
from games.core import BadOptions, BadRecord, IllegalAction

USER_ERRORS = (UserError, BadOptions, BadRecord, IllegalAction)
"""Errors a user can cause: reported as one line, never as a traceback."""


def command_modules() -> list[ModuleType]:
    """Every subcommand module, sorted by command name."""
    found = [
        importlib.import_module(f"{commands.__name__}.{info.name}")
        for info in pkgutil.iter_modules(commands.__path__)
        if not info.name.startswith("_")
    ]
    return sorted(found, key=lambda module: module.NAME)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that reports a mistake in one line (exit status 2), not a usage block.

    Sub-command parsers are made of the same class, so every level says it so.
    """

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 after one line: the command, the mistake, where help is."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand."""
    parser = OneLineParser(
        prog="cogtable",
        description="Referee a game table: camera, Pico, buttons, rules engines and LEDs.",
    )
    parser.add_argument("--version", action="version", version=f"cogtable {cogtable.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in command_modules():
        sub = subparsers.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (2 for a usage or input error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except USER_ERRORS as error:
        print(f"cogtable {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """The program reading the output stopped (``cogtable games | head -1``): stop quietly.

    Standard output is pointed at /dev/null so that flushing it at exit does
    not fail again; the status is the shell's for a command killed by SIGPIPE.
    """
    with contextlib.suppress(OSError):  # io.UnsupportedOperation: stdout is no file
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return 128 + signal.SIGPIPE
