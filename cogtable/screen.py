"""The table's terminal screen: the game as the table knows it, beside the LED frame.

:class:`TableScreen` draws what :meth:`cogtable.table.GameTable.screen_lines`
says (the game, whose turn, the last event, what the table waits for and why
something was refused, then the game's public position), the LED frame as
dots and a one-line legend. On a terminal it is redrawn in place, with the
last few notes (what the simulated people say) under it; in a pipe every
changed screen is printed as plain lines, and notes as they come.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TextIO

from hardware.leds import Frame, TerminalRenderer, wants_colour

LEGEND = (
    "LEDs: seat lit = whose turn, pulsing = may respond, white pulse = roll or draw, "
    "red blink = illegal, amber = out of sync or waiting, green = accepted"
)
PLAIN_LEGEND = (
    "letters: R red, G green, B blue, Y yellow, A amber, C cyan, M magenta, W white, . off"
)
NOTES_KEPT = 8
CLEAR = "\x1b[H\x1b[J"


class TableScreen:
    """Writes the screen when what it shows changed; in place on a terminal."""

    def __init__(self, stream: TextIO | None = None, colour: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.colour = wants_colour(self.stream) if colour is None else colour
        isatty = getattr(self.stream, "isatty", None)
        self.in_place = bool(isatty and isatty())
        self.notes: deque[str] = deque(maxlen=NOTES_KEPT)
        self._last: tuple[tuple[str, ...], Frame] | None = None
        self._text = ""

    def show(
        self,
        lines: Sequence[str],
        frame: Frame,
        now: float,
        arrangement: Mapping[str, Sequence[Sequence[int]]] | None = None,
    ) -> None:
        """Draw ``lines`` and ``frame`` unless both look exactly as last time."""
        key = (tuple(lines), frame)
        if self._last is not None and key == self._last:
            return
        self._last = (key[0], frame.copy())
        leds = TerminalRenderer(self.stream, self.colour, arrangement).render(frame, now)
        legend = LEGEND if self.colour else f"{LEGEND}; {PLAIN_LEGEND}"
        self._text = "\n".join([*lines, "", leds, legend])
        self._write()

    def note(self, text: str) -> None:
        """A line said beside the screen: kept under it on a terminal, printed in a pipe."""
        if self.in_place:
            self.notes.append(text)
            self._write()
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def _write(self) -> None:
        if self.in_place:
            notes = "\n".join(self.notes)
            self.stream.write(f"{CLEAR}{self._text}\n\n{notes}\n")
        else:
            self.stream.write(self._text + "\n\n")
        self.stream.flush()
