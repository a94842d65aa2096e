"""``cogtable play cog``: C.O.G. in the terminal, each seat a human or a built-in player.

Chance (dice, bag and deck draws) is sampled from the seed. Humans see the
board and every mat with only their own VPs, and pick an action by its number
or by typing its notation. ``--record FILE`` writes the game record for
``cogtable replay``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from cogtable.errors import UserError
from games import cog
from games.cog.players import PLAYERS
from games.cog.state import COLOURS, CogState
from games.core import CHANCE, Action, State

HELP = "C.O.G.: collect letters with your cogs and spell goal words on your grid."
SEAT_KINDS = ("human", *PLAYERS)
MAX_PLIES = 20_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Players, seed, seats, edition file and record file."""
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="2 to 4")
    parser.add_argument("--seed", type=int, default=0, help="seed for dice and draws")
    parser.add_argument(
        "--seats",
        default="",
        help="comma list, one per seat: human, random or greedy (default: human,random,...)",
    )
    parser.add_argument("--edition", default="", help="your own edition data file (TOML)")
    parser.add_argument("--record", type=Path, help="write the game record (JSON) here")
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def parse_seats(text: str, players: int) -> list[str]:
    """The kind of each seat; a wrong name or count is a :class:`UserError`."""
    seats = [s.strip() for s in text.split(",")] if text else ["human"] + ["random"] * (players - 1)
    if len(seats) != players:
        raise UserError(f"--seats names {len(seats)} seats for {players} players")
    for seat in seats:
        if seat not in SEAT_KINDS:
            raise UserError(f"unknown seat kind {seat!r}; use one of {', '.join(SEAT_KINDS)}")
    return seats


def run(args: argparse.Namespace) -> int:
    """Play one game to the end and print the result."""
    seats = parse_seats(args.seats, args.players)
    options = {"players": args.players, "edition": args.edition}
    state = cog.new_game(options, args.seed)
    rng = random.Random(args.seed)
    out = sys.stdout
    for _ in range(MAX_PLIES):
        if state.is_over():
            break
        action = _next_action(state, seats, rng, args.quiet, out)
        if action is None:
            out.write("Game abandoned.\n")
            break
        state.apply(action)
    if args.record:
        _write_record(state, args.record)
    out.write(render(state) + "\n")
    return 0


def _write_record(state: State, path: Path) -> None:
    try:
        path.write_text(state.record().dumps(), encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write the record to {path}: {error}") from error


def _next_action(
    state: CogState, seats: list[str], rng: random.Random, quiet: bool, out: TextIO
) -> Action | None:
    acting = state.to_act()
    if acting == (CHANCE,):
        return state.sample_chance()
    humans = [p for p in acting if seats[p] == "human"]
    if humans:
        return _ask(state, humans[0], out)
    player = rng.choice(acting)
    action = PLAYERS[seats[player]](state, player, rng)
    if not quiet:
        out.write(f"{COLOURS[player]}: {action.notation()}\n")
    return action


def _ask(state: CogState, player: int, out: TextIO) -> Action | None:
    """Show the position and the numbered choices; read one until it is valid."""
    out.write(render(state, player) + "\n")
    legal = list(state.legal_actions(player))
    for number, action in enumerate(legal, start=1):
        out.write(f"  {number:3d}. {action.notation()}\n")
    while True:
        out.write(f"{COLOURS[player]}, your choice (number or notation, q to quit): ")
        out.flush()
        answer = sys.stdin.readline()
        if not answer or answer.strip() == "q":
            return None
        chosen = _match(answer.strip(), legal)
        if chosen is not None:
            return chosen
        out.write("  not one of the choices above\n")


def _match(answer: str, legal: list[Action]) -> Action | None:
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    return next((action for action in legal if action.notation() == answer), None)


def render(state: State, player: int | None = None) -> str:
    """The board and every mat as text; VPs only for ``player`` (all of them at the end)."""
    view = state.view(player)
    lines = [_board_line(view), *_board_details(view)]
    for seat, mat in enumerate(view["mats"]):
        lines.extend(_mat_lines(seat, mat))
    if view["final"]:
        lines.append(_final_line(view["final"]))
    return "\n".join(lines)


def _board_line(view: dict[str, Any]) -> str:
    order = " ".join(COLOURS[p] for p in view["order"])
    return (
        f"C.O.G. round {view['round']}/{view['rounds']}, phase {view['phase']}, "
        f"turn order {order}, goal card {view['removed_goal']} removed, bag {view['bag_size']}"
    )


def _board_details(view: dict[str, Any]) -> list[str]:
    centre = " ".join(letter or "_" for letter in view["centre"])
    top = " | ".join(f"{tiles or '-'}{'*' * stars}" for tiles, stars, _ in view["top"].values())
    cards = " ".join(f"#{card}" if card is not None else "-" for card, _ in view["cards"])
    dice = " ".join(f"{colour}:{value}" for colour, value, _ in view["dice"])
    return [f"  centre {centre}   top {top}   cabinet {cards}   dice {dice}"]


def _mat_lines(seat: int, mat: dict[str, Any]) -> list[str]:
    vp = "hidden" if mat["vp"] is None else mat["vp"]
    head = (
        f"{COLOURS[seat]}: reserve {mat['reserve'] or '-'}  stars {mat['stars']}  VP {vp}  "
        f"pawn {mat['pawn']}  cards {mat['cards']}  items {len(mat['items'])}  "
        f"cubes {sorted(mat['cubes'])}  goals done {mat['goals_done']}"
    )
    grid = ["    " + row for row in mat["grid"]["rows"]] if mat["grid"]["words"] else []
    return [head, *grid]


def _final_line(final: list[dict[str, int]]) -> str:
    parts = [
        f"{COLOURS[p]} {e['total']} (vp {e['vp']}, goals {e['goals']}, items {e['items']}, "
        f"letters {e['letters']})"
        for p, e in enumerate(final)
    ]
    return "Final: " + "; ".join(parts)
