"""Fixtures the fleet tests share: a real Mosquitto on a free loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fleet.mosquitto import Mosquitto


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A running Mosquitto (127.0.0.1 only, temp config), stopped after the test."""
    folder = tmp_path / "broker"
    folder.mkdir()
    running = Mosquitto(folder).start()
    try:
        yield running
    finally:
        running.stop()
