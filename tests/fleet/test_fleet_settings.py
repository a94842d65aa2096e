"""Where a table publishes: the profile's [fleet], the flags, the credentials file; no listener."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from cogtable.errors import UserError
from cogtable.fleet.publisher import Publisher
from cogtable.fleet.settings import Credentials, fleet_settings, read_credentials
from cogtable.fleet.topics import Kind
from cogtable.journal import JOURNAL_NAME, Journal
from hardware.broker import parse_broker_url
from hardware.profile import ProfileError, default_profile_path, load_profile, parse_profile
from tests.fleet.mosquitto import Mosquitto

MOCK = default_profile_path().read_text(encoding="utf-8")


def with_fleet(section: str) -> str:
    return MOCK + "\n[fleet]\n" + section


def test_the_fleet_section_is_read_and_every_mistake_names_its_key_and_value() -> None:
    profile = parse_profile(with_fleet('broker = "mqtt://pi.lan"\nvenue = "bar"\ntable = "t1"\n'))
    assert profile.fleet is not None
    assert (str(profile.fleet.broker), profile.fleet.venue) == ("mqtt://pi.lan:1883", "bar")
    with pytest.raises(ProfileError) as caught:
        parse_profile(with_fleet('broker = "http://x"\nvenue = "b/r"\ntable = "t#"\nport = 1\n'))
    errors = caught.value.errors
    assert any(e.startswith('fleet.broker = "http://x": expected a broker address') for e in errors)
    assert any(e.startswith('fleet.venue = "b/r": expected') for e in errors)
    assert any(e.startswith('fleet.table = "t#": expected') for e in errors)
    assert any(e.startswith("fleet.port = 1: unknown key") for e in errors)
    with pytest.raises(ProfileError, match=r"mqtts needs fleet\.ca_file"):
        parse_profile(with_fleet('broker = "mqtts://x"\nvenue = "bar"\ntable = "t1"\n'))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"broker": "mqtt//oops"}, "--broker 'mqtt//oops': not an MQTT address"),
        ({"broker": "mqtt://h:70000"}, "its port is not a number 1-65535"),
        ({"broker": "mqtt://u:p@h"}, "they go in the credentials file"),
        ({"broker": "mqtt://h", "venue": "bar"}, "give --table-id too"),
        ({"broker": "mqtt://h", "venue": "a b", "table_id": "t"}, "--venue 'a b': expected"),
        ({"venue": "bar", "table_id": "t"}, "give --broker"),
        ({"broker": "mqtts://h", "venue": "bar", "table_id": "t"}, "mqtts needs the broker's CA"),
    ],
)
def test_bad_flags_are_one_line_naming_the_flag(flags: dict[str, str], message: str) -> None:
    with pytest.raises(UserError, match=re.escape(message)):
        fleet_settings(load_profile(), **flags)


def test_flags_override_the_profile_and_no_fleet_means_no_publisher() -> None:
    assert fleet_settings(load_profile()) is None
    profile = parse_profile(with_fleet('broker = "mqtt://pi.lan"\nvenue = "bar"\ntable = "t1"\n'))
    settings = fleet_settings(profile, table_id="t9")
    assert settings is not None
    assert (settings.broker, settings.venue, settings.table) == (
        parse_broker_url("mqtt://pi.lan"),
        "bar",
        "t9",
    )


def test_the_credentials_file_must_be_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "mqtt.credentials"
    path.write_text('username = "table1"\npassword = "s3cret"\n', encoding="utf-8")
    path.chmod(0o640)
    with pytest.raises(UserError, match=r"others may read it \(mode 0640\); chmod 600"):
        read_credentials(path)
    path.chmod(0o600)
    assert read_credentials(path) == Credentials("table1", "s3cret")
    assert "s3cret" not in repr(read_credentials(path))
    path.write_text("user: table1\n", encoding="utf-8")
    with pytest.raises(UserError, match="expected TOML"):
        read_credentials(path)
    with pytest.raises(UserError, match="cannot read it"):
        read_credentials(tmp_path / "missing")


def _socket_inodes() -> set[str]:
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        target = os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else ""
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def _tcp_sockets() -> dict[str, tuple[str, int]]:
    """Every TCP socket of the machine: inode -> (state, remote port)."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as file:
            for line in file.readlines()[1:]:
                fields = line.split()
                found[fields[9]] = (fields[3], int(fields[2].rsplit(":", 1)[1], 16))
    return found


def test_the_publisher_only_connects_out(broker: Mosquitto, tmp_path: Path) -> None:
    """While it publishes, this process has a connection to the broker and no listening socket."""
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.new_game("kogworks")
    settings = fleet_settings(load_profile(), broker.url, "bar", "t1")
    assert settings is not None
    publisher = Publisher(settings, tmp_path, load_profile()).start()
    try:
        state = game.state
        game.apply(random.Random(1).choice(list(state.legal_actions(0))), "simulation")
        deadline = time.monotonic() + 10
        while publisher.sent[Kind.STATE] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        ours = {inode: _tcp_sockets().get(inode) for inode in _socket_inodes()}
        tcp = [found for found in ours.values() if found is not None]
    finally:
        publisher.stop()
        journal.close()
    assert ("01", broker.port) in tcp  # ESTABLISHED, to the broker
    assert not [state for state, _ in tcp if state == "0A"]  # nothing LISTENing
