"""Where a table publishes: the profile's ``[fleet]`` section, overridden by command-line flags.

The profile's section is checked when the profile is read
(:class:`hardware.profile.FleetProfile`); the flags ``--broker``, ``--venue``
and ``--table-id`` are checked here, each mistake one line naming the flag and
its value. The credentials file holds the broker user's name and password as
TOML (``username = "..."``, ``password = "..."``); it must belong to the user
the table runs as and be readable by no one else (``chmod 600``), or it is
refused before anything connects.
"""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path

from cogtable.errors import UserError
from hardware.broker import ID_EXPECTED, BrokerUrl, parse_broker_url, valid_id
from hardware.profile import FleetProfile, Profile

CREDENTIALS_LIMIT = 4096
"""Bytes a credentials file may hold (a name and a password)."""


@dataclass(frozen=True)
class Credentials:
    """The broker user this table logs in as."""

    username: str
    password: str = ""

    def __repr__(self) -> str:
        return f"Credentials(username={self.username!r}, password=...)"


@dataclass(frozen=True)
class FleetSettings:
    """Everything the publisher needs to connect and name its topics."""

    broker: BrokerUrl
    venue: str
    table: str
    ca_file: Path | None = None
    credentials: Credentials | None = None


def broker_flag(text: str, flag: str = "--broker") -> BrokerUrl:
    """``--broker URL`` as an address with no path; UserError naming the flag and value."""
    try:
        broker = parse_broker_url(text)
    except ValueError as error:
        raise UserError(f"{flag} {text!r}: {error}") from None
    if broker.path:
        raise UserError(f"{flag} {text!r}: a broker address has no path (mqtt://host:port)")
    return broker


def id_flag(text: str, flag: str) -> str:
    """A venue or table id given as ``flag``; UserError naming it."""
    if valid_id(text) is None:
        raise UserError(f"{flag} {text!r}: expected {ID_EXPECTED}")
    return text


def fleet_settings(
    profile: Profile,
    broker: str | None = None,
    venue: str | None = None,
    table_id: str | None = None,
) -> FleetSettings | None:
    """The settings the flags and the profile's ``[fleet]`` give; None if the table publishes not.

    A flag overrides the profile's key; ``--venue`` or ``--table-id`` without a
    broker (from the flag or the profile) is a mistake, and so is a broker
    without a venue and a table id.
    """
    section: FleetProfile | None = profile.fleet
    address = broker_flag(broker) if broker is not None else (section and section.broker)
    if not address:
        if venue is not None or table_id is not None:
            raise UserError("--venue and --table-id name this table on a broker: give --broker")
        return None
    venue_id = id_flag(venue, "--venue") if venue is not None else (section and section.venue)
    table = id_flag(table_id, "--table-id") if table_id is not None else (section and section.table)
    if not venue_id or not table:
        missing = " and ".join(
            name for name, v in (("--venue", venue_id), ("--table-id", table)) if not v
        )
        raise UserError(f"--broker {address}: give {missing} too (or a [fleet] section)")
    ca_file = Path(section.ca_file) if section and section.ca_file else None
    if address.tls and ca_file is None:
        raise UserError(
            f"--broker {address}: mqtts needs the broker's CA file ([fleet] ca_file in the profile)"
        )
    if ca_file is not None and not ca_file.is_file():
        raise UserError(f"fleet.ca_file = {str(ca_file)!r}: there is no such file")
    credentials = (
        read_credentials(Path(section.credentials)) if section and section.credentials else None
    )
    return FleetSettings(address, venue_id, table, ca_file if address.tls else None, credentials)


def read_credentials(path: Path) -> Credentials:
    """The credentials file's user; UserError if it is missing, readable by others, or garbage."""
    key = f"fleet.credentials = {str(path)!r}"
    try:
        with path.open("rb") as file:
            info = os.fstat(file.fileno())
            data = file.read(CREDENTIALS_LIMIT + 1)
    except OSError as error:
        raise UserError(f"{key}: cannot read it: {error.strerror}") from None
    if info.st_uid != os.geteuid():
        raise UserError(f"{key}: it belongs to another user (uid {info.st_uid}); chown it")
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        mode = stat.S_IMODE(info.st_mode)
        raise UserError(f"{key}: others may read it (mode {mode:04o}); chmod 600 {path}")
    if len(data) > CREDENTIALS_LIMIT:
        raise UserError(f"{key}: too big to be a name and a password")
    try:
        values = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        raise UserError(f'{key}: expected TOML: username = "...", password = "..."') from None
    username, password = values.pop("username", None), values.pop("password", "")
    if not isinstance(username, str) or not username or not isinstance(password, str) or values:
        raise UserError(f'{key}: expected exactly username = "..." and password = "..."')
    return Credentials(username, password)
