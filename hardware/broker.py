"""An MQTT broker's address as the profile and the command line give it: ``mqtt://host:port``.

``mqtt://`` is plain MQTT (port 1883 by default), ``mqtts://`` MQTT over TLS
(port 8883), which a table uses with the CA file that signed the broker's
certificate. A remote table (two tables playing one game) is named by a path
after the address: ``mqtt://host/<venue>/<table>``.

>>> parse_broker_url("mqtts://broker.lan")
BrokerUrl(scheme='mqtts', host='broker.lan', port=8883, path=())
>>> parse_broker_url("mqtt://10.0.0.5:1884/bar/t2").path
('bar', 't2')
>>> parse_broker_url("http://x")
Traceback (most recent call last):
...
ValueError: not an MQTT address: it starts mqtt:// or mqtts://
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass
from typing import Final

DEFAULT_PORTS: Final = {"mqtt": 1883, "mqtts": 8883}
ID_PATTERN: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
"""A venue or table id: letters, digits, '-', '_' (no '/', '+' or '#': it is a topic level)."""
ID_EXPECTED: Final = "1-64 letters, digits, '-' or '_', starting with a letter or digit"


@dataclass(frozen=True)
class BrokerUrl:
    """A parsed broker address; ``path`` holds the levels after it (a remote table's venue, id)."""

    scheme: str
    host: str
    port: int
    path: tuple[str, ...] = ()

    @property
    def tls(self) -> bool:
        """Whether the connection is MQTT over TLS (``mqtts://``)."""
        return self.scheme == "mqtts"

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}" + "".join(f"/{p}" for p in self.path)


def parse_broker_url(text: str) -> BrokerUrl:
    """``text`` as a broker address; ValueError saying what is wrong (one line)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("an empty address: expected mqtt://host[:port] or mqtts://host[:port]")
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError("not an MQTT address: it starts mqtt:// or mqtts://")
    if parts.username or parts.password:
        raise ValueError("no user or password in the address: they go in the credentials file")
    if parts.query or parts.fragment:
        raise ValueError("an MQTT address has no ?query or #fragment")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("its port is not a number 1-65535") from None
    if not parts.hostname:
        raise ValueError("no host: expected mqtt://host[:port]")
    if port == 0:
        raise ValueError("its port is not a number 1-65535")
    path = tuple(level for level in parts.path.split("/") if level)
    for level in path:
        if not ID_PATTERN.match(level):
            raise ValueError(f"{level!r} after the address is no venue or table id ({ID_EXPECTED})")
    return BrokerUrl(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme], path)


def valid_id(text: object) -> str | None:
    """``text`` if it is a usable venue or table id, else None."""
    return text if isinstance(text, str) and ID_PATTERN.match(text) else None
