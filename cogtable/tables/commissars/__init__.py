"""Cogs and Commissars at the table.

The adapter, the cards the camera counts on the mat (cards), the judge of a
settled mat (judge), the terminal front end.
"""

from cogtable.tables.commissars import terminal
from cogtable.tables.commissars.adapter import CommissarsAdapter as Adapter

__all__ = ["Adapter", "terminal"]
