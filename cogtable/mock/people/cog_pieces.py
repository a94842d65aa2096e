"""Where the pieces of a C.O.G. game lie, as the simulated people lay them out by hand.

The people know the game (its rules in :mod:`games.cog`, their memory of the
moves) and see the printed parts on the table, whose places are labelled as
printed (``top1-2``, ``cog-dice3``, ``r2c4``, ``reserve5``). From that alone they
say what lies where; they share no code with the referee, and a test checks
that they lay out what the referee expects to read.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.cog.actions import (
    Deconstruct,
    LettersForStar,
    MakeCellWild,
    MakeWild,
    PlaceWord,
    ReturnLetter,
    ReturnStar,
    StarsForLetter,
    TakeCard,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.layout import EDGE_SLOTS, Layout
from games.cog.state import CogState
from games.cog.supply import COLOURS, TURN_BONUSES
from vision.layout import EMPTY, STAR, WILD, pawn_label

Table = dict[str, dict[str, str]]
"""Part name -> place name -> what lies there (a letter, ``wild``, ``star``, a colour)."""

BOARD = "board"
"""The board's part, as printed on it."""
COG_COLOURS = tuple(colour.lower() for colour in COLOURS)
"""Each player's cogs and pawn, by seat: red, blue, green, yellow."""
COG_PLACEMENTS = (TakeLetters, TakeCard, TakeDie, TakeTurnOrder)
"""Moves made by standing a cog on a board space."""
MAT_MOVES = (ReturnLetter, ReturnStar, LettersForStar, StarsForLetter, MakeWild, MakeCellWild)
"""Moves made by changing tiles and stars on one's own mat."""
BY_HAND = (*COG_PLACEMENTS, *MAT_MOVES, TakeCentre, PlaceWord, Deconstruct)
"""What the people do with their hands for the camera to see (the rest they type)."""
DIE_ON_THE_BOARD = ("prepare", "collect")
"""The phases a rolled die lies in its slot (until a cog takes it)."""
BONUS_TILES = ("star", "letter")
"""Turn-order bonuses that are a tile on the board (a letter or a star token)."""


def mat_of(player: int) -> str:
    """The mat of ``player`` (0-based): ``mat1`` is Red's."""
    return f"mat{player + 1}"


def face(tile: str | None) -> str:
    """A tile as it lies: its letter face up, ``wild`` face down (the game's lower case)."""
    if tile is None or tile == "":
        return EMPTY
    return WILD if tile.islower() else tile


def lay_out(game: CogState, layout: Layout) -> Table:
    """Every piece of ``game`` where the people put it: the board, then each player's mat."""
    table = {BOARD: dict(_board(game))}
    for player in range(game.num_players):
        table[mat_of(player)] = dict(_mat(game, player, layout))
    return table


def _board(game: CogState) -> Iterator[tuple[str, str]]:
    yield from _top_slots(game)
    yield from _cogs(game)
    yield from _dice(game)
    for position in range(game.num_players):
        if TURN_BONUSES[position] in BONUS_TILES:
            yield f"bonus{position + 1}", _bonus(game.turn_bonus[position])
    yield from ((f"centre{n + 1}", face(letter)) for n, letter in enumerate(game.centre))
    yield from _pawns(game)


def _top_slots(game: CogState) -> Iterator[tuple[str, str]]:
    """A top slot holds its letters, then its star tokens, in its squares from the left."""
    for slot, letters in game.top.items():
        pieces = [face(letter) for letter in letters] + [STAR] * game.top_stars[slot]
        squares = sum(game.ed.top_slots[slot])
        pieces += [EMPTY] * (squares - len(pieces))
        yield from ((f"top{slot + 1}-{n + 1}", pieces[n]) for n in range(squares))


def _cogs(game: CogState) -> Iterator[tuple[str, str]]:
    """A cog of its owner's colour on every cog space taken (four spaces an edge)."""
    edges = {
        "top": [game.top_cogs.get(slot) for slot in range(EDGE_SLOTS)],
        "cabinet": _four(list(game.card_cogs)),
        "dice": [
            game.die_cogs[game.dice.index(colour)] if colour in game.dice else None
            for colour in game.ed.dice
        ],
        "turn": _four(list(game.turn_cogs)),
    }
    for edge, owners in edges.items():
        for n, owner in enumerate(owners):
            yield f"cog-{edge}{n + 1}", EMPTY if owner is None else COG_COLOURS[owner]


def _four(owners: list[int | None]) -> list[int | None]:
    """An edge's owners with its spaces no seat uses at a smaller table (empty)."""
    return owners + [None] * (EDGE_SLOTS - len(owners))


def _dice(game: CogState) -> Iterator[tuple[str, str]]:
    """A rolled die shows its value in its colour's slot until a cog takes it."""
    for slot, colour in enumerate(game.ed.dice):
        shown = EMPTY
        if colour in game.dice and game.phase in DIE_ON_THE_BOARD:
            die = game.dice.index(colour)
            if game.die_rolled(die) and game.die_cogs[die] is None:
                shown = str(game.die_values[die])
        yield f"die{slot + 1}", shown


def _bonus(bonus: str | None) -> str:
    if bonus == "star":
        return STAR
    return EMPTY if bonus in (None, "vp3") else str(bonus)


def _pawns(game: CogState) -> Iterator[tuple[str, str]]:
    """Every track space with the pawns on it (the unused colours are the neutral pawns)."""
    on: list[list[str]] = [[] for _ in game.ed.track]
    for player, mat in enumerate(game.mats):
        on[mat.pawn].append(COG_COLOURS[player])
    for colour, space in zip(COG_COLOURS[game.num_players :], game.neutral, strict=False):
        on[space].append(colour)
    yield from ((f"track{space + 1}", pawn_label(colours)) for space, colours in enumerate(on))


def _mat(game: CogState, player: int, layout: Layout) -> Iterator[tuple[str, str]]:
    """The grid as built, the reserve's tiles in order, star tokens in the star places.

    Stars beyond the star places lie in the reserve after its tiles; a reserve
    bigger than its places shows as many tiles as fit.
    """
    mat = game.mats[player]
    for row in range(mat.grid.rows):
        for col in range(mat.grid.cols):
            yield f"r{row + 1}c{col + 1}", face(mat.grid.tiles.get((row, col)))
    stars = len(layout.mat.stars)
    spare = [face(tile) for tile in mat.reserve] + [STAR] * max(0, mat.stars - stars)
    for n in range(len(layout.mat.reserve)):
        yield f"reserve{n + 1}", spare[n] if n < len(spare) else EMPTY
    for n in range(stars):
        yield f"star{n + 1}", STAR if n < mat.stars else EMPTY
