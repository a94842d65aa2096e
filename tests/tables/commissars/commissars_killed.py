"""A Commissars table SIGKILLed the moment the journal holds a play that opens a response window.

    python -m tests.tables.commissars.commissars_killed FOLDER

Builds a table at FOLDER in the Propaganda phase (seeded play, as the table
tests do), writes the cards on the mat to ``FOLDER/cards.json`` as the
player lays Propaganda on the stack, and lets the camera see it: the
journal commits the play and the process kills itself at once
(:func:`tests.mock.killed_sim.kill_after`), with the window open. Exits 3 if
it was not killed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.mock.killed_sim import kill_after
from tests.tables.commissars.commissars_helpers import table_at
from tests.tables.commissars.test_commissars_at_the_table import propaganda_phase

CARDS_FILE = "cards.json"


def main(folder: Path) -> int:
    at = table_at(folder, propaganda_phase)
    at.cards.play(at.state.active, "Propaganda")
    cards = at.cards
    saved = {"piles": cards.piles, "stack": cards.stack, "decks": cards.decks}
    (folder / CARDS_FILE).write_text(json.dumps(saved), encoding="utf-8")
    kill_after("move", 1)
    at.see()
    return 3


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
