"""C.O.G. at the table.

The adapter, the printed parts the camera reads (parts), the terminal front end.
"""

from cogtable.tables.cog import terminal
from cogtable.tables.cog.adapter import CogAdapter as Adapter

__all__ = ["Adapter", "terminal"]
