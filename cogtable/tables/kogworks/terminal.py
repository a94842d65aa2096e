"""``cogtable play kogworks``: Kogworks in the terminal, humans and built-in players.

The board is drawn as the triangle it is: row 1 (the gold top wheel) at the
top, row 10 with both bases at the bottom. Red's wheels are ``R`` (base) and
``r``, Blue's ``B`` and ``b``, the top wheel ``G``, an empty peg ``.``; after a
win the group that turns the top wheel is highlighted. Colour is used when the
output is a terminal and ``NO_COLOR`` is not set.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from cogtable.commands._seats import (
    add_players_argument,
    add_seat_arguments,
    play_seats,
    seat_kinds,
)
from cogtable.files import check_output, write_file
from cogtable.tables.terminal import QUIT, InputEnded, input_ended_line, is_quit
from games.core import IllegalAction, State
from games.kogworks import BASES, PLAYERS, TOP, new_game, parse, peg_at
from games.kogworks.players import PLAYERS as BUILT_IN
from games.kogworks.state import KogworksState

HELP = "Kogworks: link your base wheel to the gold top wheel (Red vs Blue)."
SEATS = play_seats("kogworks", BUILT_IN)
"""Who may sit, and who sits where the command line names nobody."""

PROMPT_HELP = f"""\
Moves:   +7.3      place a cog from your reserve on row 7, position 3
         7.3-8.4   move your cog from 7.3 to the empty peg 8.4
Rows count 1 (top wheel) to 10 (bases); positions count from the left.
Commands: moves (list your legal moves), help, {QUIT}"""

_ANSI = {"red": "\033[31;1m", "blue": "\033[34;1m", "gold": "\033[33;1m", "dim": "\033[2m"}
_RESET = "\033[0m"
_REVERSE = "\033[7m"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Seats (1 is Red, 2 is Blue), seed, record file and the game's options."""
    add_players_argument(parser, 2, "always 2 (seat 1 Red, seat 2 Blue)", choices=(2,))
    add_seat_arguments(parser, SEATS, colours=("red", "blue"))
    parser.add_argument("--seed", type=int, default=0, help="seed for built-in players")
    parser.add_argument("--record", type=Path, metavar="FILE", help="write the JSON record")
    parser.add_argument("--first", choices=("red", "blue"), default="red", help="who starts")
    parser.add_argument(
        "--repetition-draw",
        action="store_true",
        help="house rule: a draw on the third repetition of a position",
    )


def run(args: argparse.Namespace) -> int:
    """Play one game to its end (or until a human quits); write the record if asked."""
    red, blue = seat_kinds(args, 2, SEATS)
    options = {"first": args.first, "repetition_draw": args.repetition_draw}
    if args.record is not None:
        check_writable(args.record)
    state = new_game(options, args.seed)
    rng = random.Random(args.seed)
    seats = (red, blue)
    colour = wants_colour(sys.stdout)
    ended = finished = False
    try:
        finished = play(state, seats, rng, colour)
    except InputEnded:
        ended = True
    if args.record is not None:
        write_record(state, args.record)
    if ended:
        print("\n" + input_ended_line(args.record))
    if finished:
        print(render(state, colour))
        print(f"Result: {result_line(state)}")
    return 0


def play(state: KogworksState, seats: tuple[str, str], rng: random.Random, colour: bool) -> bool:
    """Take turns until the game ends (True) or a human quits (False); :class:`InputEnded`."""
    while not state.is_over():
        player = state.mover
        if seats[player] == "human":
            print(render(state, colour))
            if not human_turn(state):
                return False
        else:
            action = BUILT_IN[seats[player]](state, rng)
            events = state.apply(action)
            print(f"{len(state.history):3d}. {PLAYERS[player]} ({seats[player]}): {action}")
            for event in events[1:]:
                print(f"     {event.describe()}")
    return True


def human_turn(state: KogworksState, ask: Callable[[str], str] = input) -> bool:
    """Prompt until the human makes a legal move (True) or quits (False).

    The end of input is an :class:`~cogtable.tables.terminal.InputEnded`: the person left.
    """
    name = PLAYERS[state.mover]
    while True:
        try:
            reserve = state.reserves()[state.mover]
            text = ask(f"{name} ({reserve} in reserve; help, {QUIT})> ").strip()
        except EOFError as error:
            raise InputEnded(f"{name} was asked for a move") from error
        if is_quit(text):
            print("Game abandoned.")
            return False
        if answer_command(state, text):
            continue
        try:
            events = state.apply(parse(text, state.mover))
        except (IllegalAction, ValueError) as error:
            print(f"Not that: {error}. Type 'help' or 'moves'.")
            continue
        for event in events:
            print(f"     {event.describe()}")
        return True


def answer_command(state: KogworksState, text: str) -> bool:
    """Answer ``help``, ``moves`` or an empty line; False for anything else."""
    if text in ("help", "?"):
        print(PROMPT_HELP)
    elif text == "moves":
        print(" ".join(action.notation() for action in state.legal_actions()))
    elif text:
        return False
    return True


def check_writable(path: Path) -> None:
    """Refuse, before any move, a record file that cannot be written (creating nothing)."""
    check_output(path)


def write_record(state: State, path: Path) -> None:
    """Write the game's JSON record (atomically); one that cannot be written is a UserError."""
    write_file(path, (state.record().dumps() + "\n").encode("utf-8"))
    print(f"Record written to {path}")


def wants_colour(stream: TextIO) -> bool:
    """ANSI colour only for a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def render(state: State, colour: bool | None = None) -> str:
    """The board as a triangle, then whose turn, the reserves and any result."""
    assert isinstance(state, KogworksState)
    use_colour = wants_colour(sys.stdout) if colour is None else colour
    lines = [_row_line(state, row, use_colour) for row in range(10)]
    return "\n".join([*lines, _status_line(state)])


def _row_line(state: KogworksState, row: int, colour: bool) -> str:
    """One row of pegs, indented so the rows form a triangle, labelled with its number."""
    cells = [_cell(state, peg_at(row, col), colour) for col in range(row + 1)]
    return f"{row + 1:>2} " + " " * (2 * (9 - row)) + "   ".join(cells)


def _cell(state: KogworksState, peg: int, colour: bool) -> str:
    """The glyph of one peg, coloured if asked, reversed when in the winning group."""
    owner = state.owner(peg)
    if peg == TOP:
        glyph, tone = "G", "gold"
    elif owner is None:
        glyph, tone = ".", "dim"
    else:
        letter = "RB"[owner]
        glyph = letter if peg == BASES[owner] else letter.lower()
        tone = ("red", "blue")[owner]
    if not colour:
        return glyph
    winning = peg in state.winning_group()
    return (_REVERSE if winning else "") + _ANSI[tone] + glyph + _RESET


def _status_line(state: KogworksState) -> str:
    """Whose turn (or the result), the reserves, and whether each base turns."""
    red, blue = state.reserves()
    turning = ", ".join(
        f"{PLAYERS[p]}'s base {'turns' if state.base_turns(p) else 'is LOCKED'}" for p in (0, 1)
    )
    now = result_line(state) if state.is_over() else f"{PLAYERS[state.mover]} to move"
    return f"   {now} | reserves: Red {red}, Blue {blue} | {turning}"


def result_line(state: KogworksState) -> str:
    """How the game ended, in words."""
    outcome = state.outcome()
    if outcome is None:
        return "Game not finished"
    if not outcome.winners:
        return f"Draw ({outcome.reason})"
    return f"{PLAYERS[outcome.winners[0]]} wins ({outcome.reason})"
