"""Table mode (``hands = "unknown"``): Cogs and Commissars as a camera and seat buttons see it.

Nobody reports the card a player draws, so a draw is an unseen card and the
engine refuses only what a hand could not hold; records made with known hands
replay here. How each rule that looks at a hand works: ``table_mode.md`` beside this file.
"""

from __future__ import annotations

import dataclasses

from games.core import Action, BadRecord, IllegalAction, Record, replay

from .actions import Choose, TopCard, UnseenDraw
from .state import CommissarsState
from .tasks import Search


def table_mode_record(record: Record) -> Record:
    """``record`` with ``hands = "unknown"``: the same game followed as the table sees it.

    Every draw the record names stays a draw the table saw.
    """
    return dataclasses.replace(record, options={**record.options, "hands": "unknown"})


def unseen_draws_record(record: Record) -> Record:
    """A known-hands ``record`` as a table sees the game: in table mode, every draw unseen.

    Each ``TopCard`` that answers a draw becomes an :class:`UnseenDraw`; flips and
    deals stay named. Where the known deck held nothing a search could take, the
    engine skipped the search, but the table cannot know the deck: there the
    player answers ``Choose("done")``, as at a real table. The record is replayed
    in both modes to find these places, so a record that does not replay raises
    :class:`~games.core.BadRecord`.
    """
    known = _started(record)
    seen = _started(table_mode_record(record))
    actions: list[Action] = []
    for number, action in enumerate(record.actions, start=1):
        while (search := _search_found_nothing(known, seen)) is not None:
            actions.append(_applied(seen, Choose("done", player=search.player), number))
        drawn = isinstance(action, TopCard) and known.pending_draw() is not None
        _applied(known, action, number)
        actions.append(
            _applied(seen, UnseenDraw(player=action.player) if drawn else action, number)
        )
    return dataclasses.replace(table_mode_record(record), actions=tuple(actions))


def _started(record: Record) -> CommissarsState:
    """The game ``record`` starts, before its first action."""
    state = replay(dataclasses.replace(record, actions=()))
    assert isinstance(state, CommissarsState)
    return state


def _search_found_nothing(known: CommissarsState, seen: CommissarsState) -> Search | None:
    """A search table mode asks for where known hands skipped it (the deck had none to take)."""
    task = seen.tasks[0] if seen.tasks else None
    if isinstance(task, Search) and not (known.tasks and known.tasks[0] == task):
        return task
    return None


def _applied(state: CommissarsState, action: Action, number: int) -> Action:
    """Apply the record's action ``number`` (or what it became); BadRecord if it does not apply."""
    try:
        state.apply(action)
    except IllegalAction as error:
        where = f"action {number} ({action.safe_notation()})"
        raise BadRecord(f"{where} does not apply: {error}") from error
    return action
