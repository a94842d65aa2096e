"""``cogtable service``: install, remove and run the kiosk service."""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

from cogtable.errors import UserError
from cogtable.fleet.attach import (
    FleetFlags,
    add_fleet_arguments,
    add_remote_arguments,
    check_fleet_arguments,
    publishing,
    publishing_and_remote,
    remote_play,
)
from cogtable.mock.camera import still_table
from cogtable.service import install, logs
from cogtable.service.notify import Notifier
from cogtable.service.runner import Service, default_state_dir, read_profile

NAME = "service"
HELP = "Install, uninstall or run cogtable as a systemd kiosk service."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Sub-commands install, uninstall and run."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, text in (
        ("install", "Create the cogtable user, install the unit, udev rule and profile, enable."),
        ("uninstall", "Disable and remove the service (the profile and journal stay)."),
    ):
        sub = actions.add_parser(name, help=text, description=text)
        sub.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")
        sub.add_argument("--root", type=Path, default=Path("/"), help="install into this root")
        sub.set_defaults(service_action=_install if name == "install" else _uninstall)
    install_parser = actions.choices["install"]
    install_parser.add_argument(
        "--web", action="store_true", help="also install and start the web live view (cogtable web)"
    )
    install_parser.add_argument(
        "--listen",
        default=None,
        help="with --web: the address the page is served on (default 127.0.0.1, this Pi only)",
    )
    run_parser = actions.add_parser(
        "run", help="Run the table (systemd's ExecStart).", description="Run the table."
    )
    run_parser.add_argument("--profile", type=Path, help="table profile (default: mock table)")
    run_parser.add_argument(
        "--state-dir", type=Path, default=None, help="journal and status folder"
    )
    run_parser.add_argument(
        "--game", help="the game to referee (default: the profile's [table] game)"
    )
    add_fleet_arguments(run_parser)
    add_remote_arguments(run_parser)
    run_parser.set_defaults(service_action=_run)
    uninstall = actions.choices["uninstall"]
    uninstall.add_argument("--purge", action="store_true", help="also remove profile and journal")


def run(args: argparse.Namespace) -> int:
    """Carry out the chosen action."""
    return int(args.service_action(args) or 0)


def _install(args: argparse.Namespace) -> int:
    if args.listen is not None and not args.web:
        raise UserError("--listen is the web view's address: give it with --web")
    web = (args.listen or install.WEB_LOCALHOST) if args.web else None
    plan = install.install_plan(_root(args.root), install.installed_executable(), web=web)
    install.carry_out(plan, args.dry_run)
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    plan = install.uninstall_plan(_root(args.root), args.purge)
    install.carry_out(plan, args.dry_run)
    return 0


def _root(root: Path) -> Path:
    """The ``--root`` folder, resolved; one that does not exist or is a file is refused.

    Checked for ``--dry-run`` too: a plan for a root that cannot be is no plan.
    """
    if not root.exists():
        raise UserError(f"--root {root}: there is no such folder")
    if not root.is_dir():
        raise UserError(f"--root {root}: it is a file, not a folder")
    return root.resolve()


def _run(args: argparse.Namespace) -> int:
    logs.configure()
    state_dir = args.state_dir or default_state_dir()
    fleet = FleetFlags(args.broker, args.venue, args.table_id, args.remote, args.local_seat)
    profile = read_profile(args.profile)
    check_fleet_arguments(fleet, profile)  # one line, before anything starts
    remote = remote_play(fleet, profile)
    service = Service(
        args.profile,
        state_dir,
        Notifier(),
        game=args.game,
        synthetic=still_table,
        beside=functools.partial(publishing, fleet),
    )
    if remote is not None:  # the other table's events reach the runtime the service runs
        other = (args.remote, remote)
        service.beside = functools.partial(
            publishing_and_remote, fleet, other, lambda: service.runtime
        )
    return service.run()
