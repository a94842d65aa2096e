"""The sd_notify protocol: a few datagrams to the socket systemd names in NOTIFY_SOCKET.

No libsystemd: the protocol is a Unix datagram per message, text lines of
``KEY=value``. A socket name starting with ``@`` is in the abstract namespace.
Outside systemd (no NOTIFY_SOCKET) every call does nothing, so the same code
runs on a laptop.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends READY, STATUS, WATCHDOG and STOPPING messages to systemd, if it listens."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = _socket_address(env.get("NOTIFY_SOCKET", ""))
        self.watchdog_seconds = _watchdog_seconds(env)

    @property
    def enabled(self) -> bool:
        """True when started by systemd with a notify socket."""
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send one message; False if there is no socket or it refused (never raises)."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto("\n".join(lines).encode(), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        """Tell systemd start-up is complete (profile loaded, journal open, game ready)."""
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        """A one-line status that ``systemctl status`` shows."""
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        """Tell systemd the controller loop is alive."""
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """Tell systemd a clean shutdown has begun."""
        return self.send("STOPPING=1")

    def reloading(self) -> bool:
        """Tell systemd the profile is being reloaded."""
        return self.send("RELOADING=1")

    def ping_interval(self) -> float | None:
        """How often to ping: half the watchdog time-out, or None without a watchdog."""
        return None if self.watchdog_seconds is None else self.watchdog_seconds / 2


def _socket_address(name: str) -> str | bytes | None:
    if not name:
        return None
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def _watchdog_seconds(env: Mapping[str, str]) -> float | None:
    """WATCHDOG_USEC in seconds, if it is meant for this process."""
    usec, pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 1_000_000
