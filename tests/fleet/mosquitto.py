"""A real Mosquitto for the fleet's tests and benchmark: a free loopback port, a temp config.

Debian's ``mosquitto`` (in ``/usr/sbin``) is started on 127.0.0.1 only, with a
configuration written into a temporary folder, and stopped again; it can be
restarted on the same port (a broker outage). Run as root (CI), it keeps
running as root instead of switching to the ``mosquitto`` user, which could
not write its persistence file into the test's private folder. Where Mosquitto is missing, the
test that needs it is skipped with the line that installs it, and fails
instead where ``COGTABLE_REQUIRE_SYSTEM_TOOLS`` is set (:mod:`tests.system_tools`).
"""

from __future__ import annotations

import contextlib
import getpass
import os
import socket
import subprocess
import time
from pathlib import Path

from tests.system_tools import system_tool

START_TIMEOUT_S = 10.0
"""A broker that does not accept a connection in this long fails the test instead of hanging it."""


def mosquitto_binary() -> str:
    """The broker to run; without one the calling test is skipped (on CI: fails)."""
    return system_tool("mosquitto", "/usr/sbin/mosquitto")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """One Mosquitto on 127.0.0.1:``port``, configured in ``folder``; start, stop, restart."""

    def __init__(self, folder: Path, *, persistence: bool = False, extra: str = "") -> None:
        self.binary = mosquitto_binary()
        self.folder = folder
        self.port = free_port()
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        lines = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous true",
            f"persistence {'true' if persistence else 'false'}",
            f"persistence_location {folder}/",
            *([f"user {getpass.getuser()}"] if os.geteuid() == 0 else []),
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            extra,
        ]
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``mqtt://127.0.0.1:PORT``."""
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        """Start the broker and wait until it accepts connections."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "-c", str(self.config)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited at start: {self.log.read_text()[-500:]}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port}")

    def stop(self) -> None:
        """Stop the broker (SIGTERM, then SIGKILL after 5 s)."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self, down_seconds: float = 0.0) -> None:
        """Stop, stay away ``down_seconds``, start again on the same port."""
        self.stop()
        time.sleep(down_seconds)
        self.start()
