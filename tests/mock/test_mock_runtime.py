"""The runtime as the service runner uses it: no mock world, real time, signals as inputs."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from cogtable.inputs import Shutdown
from cogtable.mock.camera import still_table
from cogtable.runtime import Runtime
from hardware.profile import load_profile


def test_the_service_api_starts_syncs_reports_and_stops(tmp_path: Path) -> None:
    runtime = Runtime(load_profile(), tmp_path / "state", quiet=True, synthetic=still_table)
    beats = []
    seen: dict[str, object] = {}

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status = runtime.status()
            if status["in_sync"] and status["parts"]["link"] == "connected":
                seen.update(status)
                break
            time.sleep(0.05)
        runtime.inputs.put(Shutdown("test over"))

    runtime.start()
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        assert runtime.run(heartbeat=lambda: beats.append(1)) == "test over"
    finally:
        runtime.stop()
        watcher.join()
    assert seen, "the mock board was read and the Pico link came up"
    assert seen["parts"] == {"camera": "ok", "link": "connected", "gpio": "ok"}
    assert json.loads(json.dumps(seen))["ply"] == 0
    assert beats, "the heartbeat was called"
    assert (tmp_path / "state" / "journal.sqlite3").exists()
