"""``cogtable web``: serve a read-only live view of the table to a web browser.

It runs as a process of its own (``cogtable-web.service``), reading the state
folder the table writes; it listens on 127.0.0.1 unless ``--listen`` says
otherwise. Needs the ``web`` extra (Starlette and uvicorn).
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
from pathlib import Path

from cogtable.errors import UserError
from cogtable.service.runner import default_state_dir, read_profile

NAME = "web"
HELP = "Serve a read-only live view of the table (board, turn, journal) to a web browser."
DEFAULT_PORT = 8340
LOCALHOST = "127.0.0.1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where the state folder is, the profile (for the LED layout) and where to listen."""
    parser.add_argument("--state-dir", type=Path, default=None, help="the table's state folder")
    parser.add_argument(
        "--profile", type=Path, default=None, help="table profile (default: mock table)"
    )
    parser.add_argument(
        "--listen",
        default=LOCALHOST,
        help=f"address to listen on (default {LOCALHOST}; 0.0.0.0 or :: for every network)",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (SIGINT, or SIGTERM from systemd)."""
    state_dir = _state_dir(args.state_dir or default_state_dir())
    profile = read_profile(args.profile)
    try:
        import uvicorn

        from cogtable.web.app import create_app
        from cogtable.web.table_view import TableFolder
    except ImportError as error:
        raise UserError(
            f"the web view needs the 'web' extra ({error.name} is missing): "
            "pip install 'cogtable[web]'"
        ) from error
    listener = open_listener(args.listen, args.port)
    host, port = listener.getsockname()[:2]
    print(f"cogtable web: serving {state_dir} on http://{_url_host(host)}:{port}/", flush=True)
    server: uvicorn.Server | None = None
    app = create_app(
        TableFolder(state_dir, profile), stopping=lambda: bool(server and server.should_exit)
    )
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=2, server_header=False
    )
    server = uvicorn.Server(config)
    server.run(sockets=[listener])
    return 0


def open_listener(address: str, port: int) -> socket.socket:
    """A listening TCP socket on ``address``:``port``; UserError for a bad or busy one."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        message = f"--listen {address!r}: not an IP address (e.g. 127.0.0.1, 0.0.0.0, ::)"
        raise UserError(message) from None
    if not 0 <= port <= 65535:
        raise UserError(f"--port {port}: a port is 0 to 65535")
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        return socket.create_server((str(ip), port), family=family, reuse_port=False)
    except OSError as error:
        raise UserError(f"cannot listen on {address} port {port}: {error.strerror}") from error


def _state_dir(path: Path) -> Path:
    """The state folder; it must exist (the table makes it), and be a folder."""
    if not path.exists():
        raise UserError(f"--state-dir {path}: there is no such folder (has the table run?)")
    if not path.is_dir():
        raise UserError(f"--state-dir {path}: it is a file, not a folder")
    return path


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
