"""What every game's terminal front end shares: the quit word and the end of input.

A front end (``cogtable.tables.<game>.terminal``) defines ``HELP`` (one line),
``add_arguments(parser)`` for its ``cogtable play <game>`` options, ``run(args) -> int``
to play, and ``render(state) -> str`` to draw a state (used by ``cogtable replay``).
"""

from __future__ import annotations

from pathlib import Path

QUIT = "quit"
"""The one word that stops a game, at every prompt of every game.

Nothing shorter: at a table a single letter is always an answer (``q`` draws
the Q from the bag), so quitting can never be typed by mistake.
"""


def is_quit(answer: str) -> bool:
    """The answer is the quit word (any case, spaces around it allowed)."""
    return answer.strip().casefold() == QUIT


INPUT_ENDED = "Input ended; the game stops here."
"""What every game says when its input ends while it waits for a person."""


class InputEnded(Exception):
    """The input ended while the game waited for a person: they left the game.

    Not an error: like the quit word, it stops the game with exit status 0,
    saying one line (:func:`input_ended_line`), in every game.
    """


def input_ended_line(record: Path | None = None) -> str:
    """The one line said when the input ends (where the record of the game so far went).

    >>> input_ended_line()
    'Input ended; the game stops here.'
    >>> input_ended_line(Path("game.json"))
    'Input ended; the game stops here (the game so far is in game.json).'
    """
    if record is None:
        return INPUT_ENDED
    return f"{INPUT_ENDED.removesuffix('.')} (the game so far is in {record})."
