"""The MQTT topics of a venue's tables: ``cogtable/v1/<venue>/<table>/{status,state,event}``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

ROOT: Final = "cogtable/v1"
"""Every topic starts here; ``v1`` changes when the messages change incompatibly."""


class Kind(Enum):
    """The three topics of one table."""

    STATUS = "status"
    """Retained: online (game, whose turn, what the table waits for) or offline (last will)."""
    STATE = "state"
    """Retained: the public snapshot of the game, ``seq`` = the journal's ply."""
    EVENT = "event"
    """QoS 1, not retained: one per journaled action or take-back."""


@dataclass(frozen=True)
class TableTopics:
    """The topics of table ``table`` in venue ``venue``."""

    venue: str
    table: str

    def topic(self, kind: Kind) -> str:
        """The full topic of ``kind``."""
        return f"{ROOT}/{self.venue}/{self.table}/{kind.value}"

    @property
    def everything(self) -> str:
        """The filter for all of this table's topics."""
        return f"{ROOT}/{self.venue}/{self.table}/#"


def venue_filter(venue: str) -> str:
    """The filter for every table's topics in ``venue``."""
    return f"{ROOT}/{venue}/+/+"


@dataclass(frozen=True)
class Address:
    """Where a message came from: a table of a venue, and which of its topics."""

    venue: str
    table: str
    kind: Kind


def parse_topic(topic: str) -> Address | None:
    """The venue, table and kind of ``topic``; None for a topic that is not a table's."""
    prefix = ROOT + "/"
    if not topic.startswith(prefix):
        return None
    levels = topic[len(prefix) :].split("/")
    if len(levels) != 3 or not all(levels):
        return None
    try:
        kind = Kind(levels[2])
    except ValueError:
        return None
    return Address(levels[0], levels[1], kind)
