"""cogtable: the application that referees a game table (CLI, controller, adapters)."""

__version__ = "0.1.0"
