"""Kogworks at the table.

The adapter (the peg disk, the LEDs) and the terminal front end.
"""

from cogtable.tables.kogworks import terminal
from cogtable.tables.kogworks.adapter import KogworksAdapter as Adapter

__all__ = ["Adapter", "terminal"]
