"""``cogtable service run`` publishes when its profile has a [fleet] section (or the flags say)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from cogtable.fleet.topics import Kind, TableTopics
from tests.fleet.listener import Listener
from tests.fleet.mosquitto import Mosquitto
from tests.service.conftest import camera_less_profile

ROOT = Path(__file__).resolve().parents[2]


def service(profile: Path, state_dir: Path, *flags: str) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "cogtable", "service", "run", "--profile", str(profile)]
    return subprocess.Popen(
        [*argv, "--state-dir", str(state_dir), *flags],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_the_service_publishes_from_its_profile_and_says_offline_at_sigterm(
    broker: Mosquitto, tmp_path: Path
) -> None:
    profile = camera_less_profile(tmp_path)
    section = f'\n[fleet]\nbroker = "{broker.url}"\nvenue = "club"\ntable = "north"\n'
    profile.write_text(profile.read_text(encoding="utf-8") + section, encoding="utf-8")
    listener = Listener(broker.port, TableTopics("club", "north").everything)
    running = service(profile, tmp_path / "state")
    try:
        listener.wait_for(lambda heard: heard.latest(Kind.STATUS) is not None, "the status")
        status = listener.latest(Kind.STATUS)
        assert (status["state"], status["game"], status["ply"]) == ("online", "kogworks", 0)
        assert status["players"] == ["Red", "Blue"]
        assert listener.latest(Kind.STATE)["seq"] == 0
    finally:
        running.send_signal(signal.SIGTERM)
        out, _ = running.communicate(timeout=60)
    assert running.returncode == 0, out
    listener.wait_for(lambda heard: heard.said() == "offline", "offline")
    assert "Traceback" not in out
    listener.close()


def test_the_flags_override_the_profile_and_a_bad_one_stops_nothing(
    broker: Mosquitto, tmp_path: Path
) -> None:
    profile = camera_less_profile(tmp_path)
    flags = ("--broker", broker.url, "--venue", "club", "--table-id", "south")
    listener = Listener(broker.port, TableTopics("club", "south").everything)
    running = service(profile, tmp_path / "state", *flags)
    try:
        listener.wait_for(lambda heard: heard.latest(Kind.STATUS) is not None, "a status")
    finally:
        running.send_signal(signal.SIGTERM)
        running.communicate(timeout=60)
    listener.close()
    refused = service(profile, tmp_path / "refused", "--broker", broker.url)
    out, _ = refused.communicate(timeout=60)
    assert refused.returncode == 2
    assert out.count("\n") == 1 and "give --venue and --table-id too" in out, out
    assert not (tmp_path / "refused").exists()
