"""The referee unit's settings for publishing: one connection out to the broker, nothing else.

The unit (``systemd/cogtable.service``) gives the referee no network at all
(``PrivateNetwork=yes``, ``IPAddressDeny=any``, only ``AF_UNIX`` sockets). A
table whose profile has a ``[fleet]`` section gets a drop-in,
``cogtable.service.d/fleet.conf``, that lets it reach the broker: the host's
network, Internet sockets, and the broker's address only when the profile
names it by address (a host name needs DNS, so then any address). Still no
listening socket: the table only connects out. ``systemd-analyze security``
scores the unit with it 1.5 (0.7 without), within the 2.5 allowed.
"""

from __future__ import annotations

import ipaddress
from pathlib import PurePosixPath
from typing import Final

from hardware.broker import BrokerUrl

DROPIN: Final = PurePosixPath("etc/systemd/system/cogtable.service.d/fleet.conf")
"""Where ``service install`` writes the drop-in, relative to the root."""


def render_fleet_dropin(broker: BrokerUrl) -> str:
    """The drop-in that lets the referee connect out to ``broker``."""
    try:
        allowed = str(ipaddress.ip_address(broker.host))
        why = f"the broker's address, {allowed}"
    except ValueError:
        allowed = "any"
        why = f"any: the broker is named by its host name ({broker.host}), which DNS must resolve"
    return (
        "# cogtable publishes to the venue's MQTT broker ([fleet] in its profile):\n"
        "# written by `cogtable service install`; one connection out, no listening socket.\n"
        "[Service]\n"
        "PrivateNetwork=no\n"
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n"
        f"# {why}\n"
        f"IPAddressAllow={allowed}\n"
    )
