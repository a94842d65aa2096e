"""The Cookie 2.0 at the table.

The adapter, the cards on the mat (cards), the judge of a settled mat (judge),
the layout the game expects (layout), the terminal front end.
"""

from cogtable.tables.cookie import terminal
from cogtable.tables.cookie.adapter import CookieAdapter as Adapter

__all__ = ["Adapter", "terminal"]
