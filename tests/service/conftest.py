"""Fixtures the service tests share: a stand-in for systemd's notify socket."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.profile import default_profile_path

NOTIFY_TIMEOUT_S = 90.0
"""A datagram the service never sends fails the test after this long, instead of hanging it."""


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A datagram socket standing in for systemd's notify socket, and its path."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify.sock")
    sock.bind(path)
    sock.settimeout(NOTIFY_TIMEOUT_S)
    yield sock, path
    sock.close()


def camera_less_profile(tmp_path: Path, calibration: Path | None = None) -> Path:
    """The mock table's profile with no camera attached (and a calibration file, if named)."""
    text = default_profile_path().read_text(encoding="utf-8")
    text = text.replace('source = "synthetic"', 'source = "/nonexistent/camera.mp4"')
    if calibration is not None:
        text = text.replace("[camera]\n", f'[camera]\ncalibration = "{calibration}"\n', 1)
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path
