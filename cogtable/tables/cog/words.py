"""C.O.G.'s Phase IV at the table: the mat changes a settled reading stands for.

New tiles on a mat's grid are the word they spell (the engine decides: a permitted word,
the crossword rules, wild tiles); tiles taken off are a deconstruction; the reserve must
have given exactly those tiles. Returning a letter or a star, trading letters for a star
or stars for a letter, turning a tile face down: each is recognised by the mat it leaves.
A word not allowed blinks that seat red, and the status names the cells and the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from cogtable.tables.base import Verdict
from cogtable.tables.cog.parts import (
    Cell,
    Observation,
    expected_contents,
    expected_view,
    mat_name,
    seen_contents,
)
from games.cog.actions import (
    Deconstruct,
    LettersForStar,
    MakeCellWild,
    MakeWild,
    ReturnLetter,
    ReturnStar,
    StarsForLetter,
)
from games.cog.grid import line_through
from games.cog.state import CogState
from games.core import Action, IllegalAction
from vision.layout import EMPTY, LETTERS, WILD

MAT_CHANGES = (ReturnLetter, ReturnStar, LettersForStar, StarsForLetter, MakeWild, MakeCellWild)
"""Actions the camera recognises by the mat they leave (reserve, stars, a tile turned over)."""


def try_action(state: CogState, action: Action, places: tuple[int, ...] = ()) -> Verdict:
    """``action`` if the engine takes it; else refused with the engine's reason."""
    try:
        state.clone().apply(action)
    except IllegalAction as error:
        return Verdict("illegal", action=action, places=places, reason=str(error))
    return Verdict("move", action=action, reason=action.safe_notation())


def mat_change(state: CogState, seen: Observation, player: int) -> Verdict | None:
    """A change of the reserve, the stars or a tile turned over that one legal action explains.

    Returning a letter or a star, trading letters for a star or stars for a
    letter, turning a tile face down with a star: each is recognised by the
    mat it leaves, compared with the mat each such legal action would leave.
    """
    mat = seen[mat_name(player)]
    if _mat_matches(state, player, mat):
        return None
    matching = [
        action
        for action in state.legal_actions(player)
        if isinstance(action, MAT_CHANGES) and _mat_matches(_after(state, action), player, mat)
    ]
    if len(matching) == 1:
        return Verdict("move", action=matching[0], reason=matching[0].safe_notation())
    if matching:
        choices = " or ".join(action.safe_notation() for action in matching)
        return Verdict("choose", options=tuple(matching), reason=f"type {choices}")
    return None


def _after(state: CogState, action: Action) -> CogState:
    twin = state.clone()
    twin.apply(action)
    return twin


def _mat_matches(state: CogState, player: int, mat: Mapping[str, str]) -> bool:
    """Whether a mat reading shows ``player``'s grid, reserve and stars as ``state`` has them."""
    grid = expected_view(state)[mat_name(player)]
    same_grid = all(mat.get(name, EMPTY) == label for name, label in grid.items())
    return same_grid and seen_contents(mat) == expected_contents(state, player)


def word(state: CogState, seen: Observation, player: int) -> Verdict | None:
    """New tiles on ``player``'s grid spell a word; tiles taken off deconstruct one.

    Words are laid in Phase IV; a word may be taken off whenever the player
    may act.
    """
    expected = expected_view(state)[mat_name(player)]
    mat = seen[mat_name(player)]
    cells = [cell for cell in map(Cell.of, expected) if cell is not None]
    added = [cell for cell in cells if mat.get(cell.name, EMPTY) and not expected[cell.name]]
    removed = [cell for cell in cells if expected[cell.name] and not mat.get(cell.name, EMPTY)]
    changed = [
        cell.name
        for cell in cells
        if expected[cell.name]
        and mat.get(cell.name, EMPTY)
        and mat[cell.name] != expected[cell.name]
    ]
    if changed:
        return _word_refused(state, player, f"{_cells(changed)} changed: put the tiles back")
    if added and not removed and state.phase == "construct":
        return _new_word(state, seen, player, added)
    if removed and not added:
        return _deconstruction(state, player, set(removed))
    return None


def _cells(names: Sequence[str]) -> str:
    return ", ".join(names)


def _word_refused(
    state: CogState, player: int, reason: str, action: Action | None = None
) -> Verdict:
    """Refused on ``player``'s mat: their seat LED blinks red (``other_places``: the seat)."""
    return Verdict(
        "illegal",
        action=action,
        reason=f"{state.player_name(player)}'s grid: {reason}",
        other_places=(("seats", (player,)),),
    )


def _new_word(state: CogState, seen: Observation, player: int, added: list[Cell]) -> Verdict:
    """The permitted words the new tiles and the grid's tiles spell in one line."""
    line = line_through(_seen_cells(seen, player), added)
    if line is None:
        return _word_refused(
            state, player, f"{_cells([cell.name for cell in added])} are not in one row or column"
        )
    candidates = state.words_from_tiles(player, line)
    if not candidates:
        shown = "".join(tile if tile in LETTERS else "?" for tile, _ in line.tiles)
        return _word_refused(state, player, f"{shown} is no permitted word")
    verdicts = [_try_word(state, seen, player, action) for action in candidates]
    legal = [verdict.action for verdict in verdicts if verdict.kind == "move" and verdict.action]
    if len(legal) == 1:
        return Verdict("move", action=legal[0], reason=legal[0].safe_notation())
    if legal:
        return Verdict(
            "choose",
            options=tuple(legal),
            reason="the wild tiles spell " + " or ".join(a.safe_notation() for a in legal),
        )
    return verdicts[0]


def _seen_cells(seen: Observation, player: int) -> dict[Cell, str | None]:
    """The grid cells of ``player``'s mat that hold a tile: its letter, None face down."""
    mat = seen[mat_name(player)]
    cells = {Cell.of(name): label for name, label in mat.items() if label}
    return {cell: None if label == WILD else label for cell, label in cells.items() if cell}


def _try_word(state: CogState, seen: Observation, player: int, action: Action) -> Verdict:
    """The word if the engine takes it and the reserve gave exactly its tiles."""
    verdict = try_action(state, action)
    if verdict.kind != "move":
        return _word_refused(state, player, verdict.reason, action)
    twin = state.clone()
    twin.apply(action)
    held = seen_contents(seen[mat_name(player)]).reserve
    left = expected_contents(twin, player).reserve
    if held != left:
        return _word_refused(state, player, reserve_words(held, left), action)
    return verdict


def reserve_words(held: Counter[str], left: Counter[str]) -> str:
    """Why the reserve does not match the word: what it still holds, or lacks."""
    extra, lacking = held - left, left - held
    parts = []
    if extra:
        parts.append(f"the reserve still holds {_tiles(extra)}")
    if lacking:
        parts.append(f"the reserve lacks {_tiles(lacking)}")
    return "take the word's tiles from your reserve: " + "; ".join(parts)


def _tiles(tiles: Counter[str]) -> str:
    return " ".join(sorted(tiles.elements()))


def _deconstruction(state: CogState, player: int, removed: set[Cell]) -> Verdict | None:
    """Tiles taken off the grid: the word whose removal leaves exactly that."""
    placed = state.mats[player].grid.word_emptying(removed)
    if placed is not None:
        return try_action(state, Deconstruct(player=player, word=placed.word))
    names = [cell.name for cell in sorted(removed)]
    return _word_refused(state, player, f"{_cells(names)} taken off: that is no whole word")
