"""mqtts://: the table publishes over TLS to a broker whose certificate its CA file signed."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import pytest

from cogtable.fleet.publisher import Publisher
from cogtable.fleet.settings import FleetSettings
from cogtable.fleet.topics import Kind, TableTopics
from cogtable.journal import JOURNAL_NAME, Journal
from hardware.broker import parse_broker_url
from hardware.profile import load_profile
from tests.fleet.mosquitto import Mosquitto
from tests.system_tools import system_tool


def openssl(folder: Path, *argv: str) -> None:
    """Run Debian's openssl (skipped with its install line where missing; CI requires it)."""
    subprocess.run([system_tool("openssl"), *argv], cwd=folder, check=True, capture_output=True)


def certificates(folder: Path) -> Path:
    """A CA and a server certificate for 127.0.0.1 signed by it; the CA file's path."""
    openssl(
        folder,
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-subj",
        "/CN=cogtable test CA",
    )
    openssl(
        folder,
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    )
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n", encoding="utf-8")
    openssl(
        folder,
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "san.ext",
    )
    return folder / "ca.crt"


def test_a_table_publishes_over_tls_with_its_ca_file(tmp_path: Path) -> None:
    (tmp_path / "broker").mkdir()
    ca = certificates(tmp_path / "broker")
    folder = tmp_path / "broker"
    extra = f"certfile {folder / 'server.crt'}\nkeyfile {folder / 'server.key'}\n"
    broker = Mosquitto(folder, extra=extra).start()
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    state = game.state
    game.apply(random.Random(1).choice(list(state.legal_actions(0))), "simulation")
    url = parse_broker_url(f"mqtts://127.0.0.1:{broker.port}")
    try:
        publisher = Publisher(FleetSettings(url, "bar", "t1", ca), tmp_path, load_profile())
        publisher.start()
        deadline = time.monotonic() + 30
        while publisher.sent[Kind.STATE] == 0:
            assert time.monotonic() < deadline, "nothing published over TLS"
            time.sleep(0.05)
        publisher.stop()
        assert publisher.sent[Kind.EVENT] == 1
    finally:
        broker.stop()
        journal.close()
    assert TableTopics("bar", "t1").topic(Kind.STATE).endswith("/bar/t1/state")


def test_a_certificate_the_ca_did_not_sign_is_refused_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "broker").mkdir()
    (tmp_path / "other").mkdir()
    certificates(tmp_path / "broker")
    stranger = certificates(tmp_path / "other")
    folder = tmp_path / "broker"
    extra = f"certfile {folder / 'server.crt'}\nkeyfile {folder / 'server.key'}\n"
    broker = Mosquitto(folder, extra=extra).start()
    journal = Journal(tmp_path / JOURNAL_NAME)
    journal.new_game("kogworks")
    url = parse_broker_url(f"mqtts://127.0.0.1:{broker.port}")
    try:
        publisher = Publisher(FleetSettings(url, "bar", "t1", stranger), tmp_path, load_profile())
        publisher.start()
        time.sleep(1.0)
        publisher.stop()
    finally:
        broker.stop()
        journal.close()
    lines = [record.getMessage() for record in caplog.records if record.name == "cogtable.fleet"]
    assert publisher.sent[Kind.STATUS] == 0
    assert lines and "(TLS failed: unable to get local issuer certificate)" in lines[0], lines
    assert "Traceback" not in caplog.text
