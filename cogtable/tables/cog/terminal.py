"""``cogtable play cog``: C.O.G. in the terminal, each seat a human or a built-in player.

Chance (dice, bag and deck draws) is sampled from the seed, or with
``--table`` typed by a person who rolls the real dice and draws from the real
bag and deck: the terminal says what to roll or draw and for what, and takes
only an outcome the game allows. Humans see the board and every mat with only
their own VPs, cabinet cards in words, and pick an action by its number or by
typing its notation. ``--record FILE`` writes the game record for
``cogtable replay`` (also when the input ends before the game does).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from cogtable.commands._seats import (
    add_players_argument,
    add_seat_arguments,
    play_seats,
    seat_kinds,
)
from cogtable.files import check_output, write_file
from cogtable.tables.terminal import QUIT, InputEnded, input_ended_line, is_quit
from games import cog
from games.cog.actions import (
    Activate,
    CompleteItem,
    DrawCard,
    DrawLetter,
    MakeWild,
    RollDie,
    TakeCard,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.edition import describe_card, describe_icons
from games.cog.players import PLAYERS
from games.cog.state import CogState
from games.cog.supply import COLOURS
from games.core import CHANCE, Action, State

HELP = "C.O.G.: collect letters with your cogs and spell goal words on your grid."
SEATS = play_seats("cog", PLAYERS)
"""Who may sit, and who sits where the command line names nobody."""
MAX_PLIES = 20_000
CHOICE_HELP = f"""\
Type a choice's number, or its words as listed. The kinds of choice:
  top slot 2             put your cog on top slot 2: take its letters and stars
  cabinet slot 1         put your cog on cabinet slot 1: take its card
  cabinet slot 1 swap    pay a star: discard that card and take the deck's top card
  die 1                  put your cog on die 1: your pawn moves that many spaces and
                         takes what the space it lands on shows (nothing if occupied);
                         in phase III the die is what powers your cards
  die 1 reroll           pay a star to roll that die again first
  turn order #1          put your cog on turn-order place 1 (the order next round;
                         #2 gives a star, #3 3 VP, #4 a letter); taking a place that
                         is held costs a star and moves the cogs there down one
  turn order #1 protect  pay a star so your cog there cannot be moved down
  centre 3               take the letter on centre square 3
  activate #12           use your die on power card #12 (once a round)
  spell GEAR r1c2 across spell a goal word on your grid from row 1, column 2,
                         across or down; '... wild 2' puts a wild tile at letter 2
  item #5 cube           complete item card #5 and put a cube on its word
  item #5 bonus          complete item card #5 and take its bonus instead
  wild A                 pay a star: your A turns face down, a wild tile that
                         counts as any letter (two at a crossing)
  wild r2c3              pay a star: the tile on row 2, column 3 of your grid goes wild
  2 stars for a letter   give back 2 stars, draw a letter from the bag
  AN for a star          give back the letters A and N, take a star
  deconstruct GEAR       take GEAR off your grid (its letters go back to the bag)
  return A, return a star  more than 7 letters or 3 stars at the round's end: give one back
  done                   end your part of this phase
Also: goals (the goal words in play), help, {QUIT}"""
TABLE_HELP = (
    f"Type what the table rolled or drew at each question; '{QUIT}' stops the game "
    "(a single letter, q too, is always a letter drawn)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Players, seed, seats, table mode, edition file and record file."""
    add_players_argument(parser, 2, "2 to 4 (default 2)", choices=(2, 3, 4))
    add_seat_arguments(parser, SEATS)
    parser.add_argument("--seed", type=int, default=0, help="seed for dice and draws")
    parser.add_argument(
        "--table",
        action="store_true",
        help="a person types every die roll and every letter and card drawn (default: seeded)",
    )
    parser.add_argument("--edition", default="", help="your own edition data file (TOML)")
    parser.add_argument("--record", type=Path, help="write the game record (JSON) here")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print only the result (with --table also the questions and what happened)",
    )


def run(args: argparse.Namespace) -> int:
    """Play one game to the end (or until a human quits) and print the result."""
    seats = list(seat_kinds(args, args.players, SEATS))
    if args.record:
        check_output(args.record)
    state = cog.new_game({"players": args.players, "edition": args.edition}, args.seed)
    out = sys.stdout
    try:
        _play(state, seats, args, out)
    except InputEnded:
        if args.record:
            _write_record(state, args.record)
        out.write("\n" + input_ended_line(args.record) + "\n")
        return 0
    if args.record:
        _write_record(state, args.record)
    out.write(render(state) + "\n")
    return 0


def _play(state: CogState, seats: list[str], args: argparse.Namespace, out: TextIO) -> None:
    """Apply one action after another until the game ends or a human quits."""
    rng = random.Random(args.seed)
    if args.table:
        out.write(TABLE_HELP + "\n")
    for _ in range(MAX_PLIES):
        if state.is_over():
            return
        action = _next_action(state, seats, rng, args, out)
        if action is None:
            out.write("Game abandoned.\n")
            return
        events = state.apply(action)
        if args.table or not args.quiet:  # the table must hear "the spare tiles go in"
            out.writelines(f"  . {event.describe()}\n" for event in events)


def _write_record(state: State, path: Path) -> None:
    write_file(path, state.record().dumps().encode("utf-8"))


def _next_action(
    state: CogState, seats: list[str], rng: random.Random, args: argparse.Namespace, out: TextIO
) -> Action | None:
    acting = state.to_act()
    if acting == (CHANCE,):
        return ask_chance(state, out) if args.table else state.sample_chance()
    humans = [p for p in acting if seats[p] == "human"]
    if humans:
        return ask_choice(state, humans[0], out)
    player = rng.choice(acting)
    action = PLAYERS[seats[player]](state, player, rng)
    if not args.quiet:
        out.write(f"{COLOURS[player]}: {action.notation()}{_explained(state, action)}\n")
    return action


def _read_answer(waiting_for: str) -> str:
    """One line of input, stripped; the end of input is an :class:`InputEnded`."""
    line = sys.stdin.readline()
    if not line:
        raise InputEnded(f"the input ended while waiting for {waiting_for}")
    return line.strip()


# -- a human's choice ----------------------------------------------------------


def ask_choice(state: CogState, player: int, out: TextIO) -> Action | None:
    """Show the position and the numbered choices; read one until it is valid."""
    out.write(render(state, player) + "\n")
    legal = list(state.legal_actions(player))
    for number, action in enumerate(legal, start=1):
        out.write(f"  {number:3d}. {action.notation()}{_explained(state, action)}\n")
    while True:
        out.write(f"{COLOURS[player]}, your choice (number or notation; help, goals, {QUIT}): ")
        out.flush()
        answer = _read_answer(f"{COLOURS[player]}'s choice")
        if is_quit(answer):
            return None
        if answer.casefold() in ("help", "?"):
            out.write(CHOICE_HELP + "\n")
            continue
        if answer.casefold() == "goals":
            out.write("\n".join(goal_lines(state, player)) + "\n")
            continue
        chosen = _match(answer, legal)
        if chosen is not None:
            out.write(f"{COLOURS[player]}: {chosen.notation()}{_explained(state, chosen)}\n")
            return chosen
        out.write("  not one of the choices above (type help to see what each kind means)\n")


def _match(answer: str, legal: list[Action]) -> Action | None:
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    return next((action for action in legal if action.notation() == answer), None)


def _explained(state: CogState, action: Action) -> str:
    """What an action takes or does, in words (empty for actions that say it themselves)."""
    if isinstance(action, Activate | CompleteItem):
        return f"  = {describe_card(state.card(action.card))}"
    if isinstance(action, TakeCard):
        return f"  = {_card_slot_words(state, action)}"
    if isinstance(action, TakeDie):
        return f"  = {_die_words(state, action)}"
    if isinstance(action, TakeLetters):
        tiles, stars, _ = state.view()["top"][str(action.slot)]
        return f"  = letters {tiles or 'none'}, {stars} star{'' if stars == 1 else 's'}"
    if isinstance(action, TakeCentre):
        return f"  = the {state.view()['centre'][action.square]}"
    if isinstance(action, TakeTurnOrder):
        return f"  = {_turn_order_words(state, action)}"
    if isinstance(action, MakeWild):
        return f"  = pay a star: your {action.letter} becomes a wild tile"
    return ""


def _die_words(state: CogState, action: TakeDie) -> str:
    """The die's colour and number, and where the pawn lands and what it takes there."""
    view = state.view()
    colour, value, _ = view["dice"][action.slot]
    if action.reroll:
        return f"pay a star, re-roll the {colour} die (now {value}), then move the pawn"
    track = state.ed.track
    pawn = view["mats"][action.player]["pawn"]
    landing = (pawn + value) % len(track)
    others = [m["pawn"] for p, m in enumerate(view["mats"]) if p != action.player]
    gains = "occupied, no bonus" if landing in others + view["neutral"] else None
    return (
        f"the {colour} die, {value}: the pawn moves {pawn} -> {landing}, "
        f"{gains or describe_icons(track[landing])}"
    )


def _turn_order_words(state: CogState, action: TakeTurnOrder) -> str:
    """Which place next round, whether it bumps a cog (a star) and whether it is protected."""
    held, _, bonus = state.view()["turn"][action.position]
    words = [f"place {action.position + 1} in next round's turn order"]
    if bonus:
        words.append(f"bonus {describe_icons((bonus,))}")
    if held is not None:
        words.append(f"pay a star to move {COLOURS[held]}'s cog down")
    if action.protect:
        words.append("pay a star so no cog can move yours")
    return ", ".join(words)


def _card_slot_words(state: CogState, action: TakeCard) -> str:
    card_id = state.card_slots[action.slot]
    if card_id is None:
        return "an empty slot: no card"
    name = describe_card(state.card(card_id))
    return f"discard {name.split(':')[0]}, draw the deck's top card" if action.swap else name


# -- chance typed by a person at the table -----------------------------------


def ask_chance(state: CogState, out: TextIO) -> Action | None:
    """Ask what the table rolled or drew; only an outcome the game allows is taken.

    ``None`` when the person types the quit word (a single letter is a letter).
    """
    outcomes = [action for action, _ in state.chance_outcomes()]
    question = chance_question(state)
    while True:
        out.write(f"{question} ")
        out.flush()
        answer = _read_answer("what the table rolled or drew")
        if is_quit(answer):
            return None
        chosen = _chance_match(state, answer, outcomes)
        if chosen is not None:
            return chosen
        out.write(f"  {_refusal(state, answer, outcomes)}\n")


def chance_question(state: CogState) -> str:
    """What the table must roll or draw now and what for, with the answers allowed.

    Every question names the quit word beside the answers (a letter, q too, is a draw).
    """
    view = state.view()
    head = view["queue"][0]
    kind, args = head[0], head[1:]
    if kind in ("goal", "roll", "reroll", "neutral"):
        return f"{_roll_purpose(view, kind, args)} (1 to 6, or {QUIT}):"
    if kind in ("card_slot", "card"):
        where = f"cabinet slot {args[0] + 1}" if kind == "card_slot" else COLOURS[args[0]]
        deck = f"{view['deck_size']} in the deck"
        return f"Draw a cabinet card for {where} (name or number, or {QUIT}; {deck}):"
    purpose = _letter_purpose(view, kind, args)
    return f"Draw a letter from the bag for {purpose} ({_bag_words(state)}; or {QUIT}):"


def _roll_purpose(view: dict[str, Any], kind: str, args: list[Any]) -> str:
    if kind == "goal":
        return "Roll a die to remove the goal card of that number"
    if kind == "neutral":
        return "Roll a die for the neutral pawns (both move that far)"
    if kind == "roll":
        return f"Roll the {view['dice'][args[0]][0]} die for die slot {args[0] + 1}"
    die = view["mats"][args[0]]["die"]
    return f"Re-roll the {view['dice'][die][0]} die for {COLOURS[args[0]]}"


def _letter_purpose(view: dict[str, Any], kind: str, args: list[Any]) -> str:
    if kind == "centre_fill":
        return f"centre square {args[0] + 1}"
    if kind == "slot":
        return f"top slot {args[0] + 1}" + (" (face down: wild)" if args[1] else "")
    if kind == "tobonus":
        return f"the turn-order #{view['players']} bonus"
    return COLOURS[args[0]]


def _bag_words(state: CogState) -> str:
    bag = state.snapshot()["bag"]
    return "letters left: " + " ".join(f"{letter}:{count}" for letter, count in bag.items())


def _chance_match(state: CogState, answer: str, outcomes: list[Action]) -> Action | None:
    """The outcome ``answer`` names (die face, letter, card number or name), if allowed."""
    text = answer.strip().lstrip("#").casefold()
    for action in outcomes:
        if _names(state, action, text):
            return action
    return None


def _names(state: CogState, action: Action, text: str) -> bool:
    if isinstance(action, RollDie):
        return text == str(action.value)
    if isinstance(action, DrawLetter):
        return text == action.letter.casefold()
    assert isinstance(action, DrawCard)
    card = state.card(action.card)
    names = (str(card.id), card.name.casefold(), card.word.casefold())
    return bool(text) and text in names


def _refusal(state: CogState, answer: str, outcomes: list[Action]) -> str:
    """One line: why ``answer`` is refused and what is allowed."""
    first = outcomes[0]
    if isinstance(first, RollDie):
        return f"{answer!r} is not a die face: type a number 1 to 6"
    if isinstance(first, DrawLetter):
        letters = " ".join(action.letter for action in outcomes)  # type: ignore[attr-defined]
        if len(answer) == 1 and answer.isalpha():
            return f"there is no {answer.upper()} left in the bag: type one of {letters}"
        return f"{answer!r} is not a letter: type one of {letters}"
    deck = ", ".join(f"#{a.card} {state.card(a.card).name}" for a in outcomes)  # type: ignore[attr-defined]
    return f"{answer!r} is not a card in the deck: type its number or name, one of {deck}"


# -- drawing a position ------------------------------------------------------


def render(state: State, player: int | None = None) -> str:
    """The board and every mat as text; VPs only for ``player`` (all of them at the end)."""
    assert isinstance(state, CogState)
    view = state.view(player)
    lines = [_board_line(view), *_board_details(view), *goal_lines(state, player)]
    lines += _cabinet_lines(state, view)
    for seat, mat in enumerate(view["mats"]):
        lines.extend(_mat_lines(state, seat, mat, own=seat == player))
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
    top = " ".join(
        f"{int(slot) + 1}:{tiles or '-'}{'*' * stars}"
        for slot, (tiles, stars, _) in view["top"].items()
    )
    dice = " ".join(f"{colour}:{value}" for colour, value, _ in view["dice"])
    return [f"  centre {centre}   top {top}   dice {dice}   deck {view['deck_size']}"]


def _cabinet_lines(state: CogState, view: dict[str, Any]) -> list[str]:
    """One line per cabinet slot: the card in words and whose cog is on it."""
    lines = []
    for slot, (card_id, cog_of) in enumerate(view["cards"], start=1):
        card = describe_card(state.card(card_id)) if card_id is not None else "-"
        taken = f"  [{COLOURS[cog_of]}'s cog]" if cog_of is not None else ""
        lines.append(f"  cabinet slot {slot}: {card}{taken}")
    return lines


def goal_lines(state: CogState, player: int | None = None) -> list[str]:
    """The goal cards in play, their words and bonus; ``player``'s cubed words marked ``+``."""
    view = state.view(player)
    cubed = set(view["mats"][player]["cubes"]) if player is not None else set()
    lines = ["  goal words in play (the only words you may spell):"]
    for number in state.goals_in_play():
        goal = state.ed.goal(number)
        words = " ".join(word + ("+" if word in cubed else "") for word in goal.words)
        lines.append(f"    card {number}: {words}  (all three cubed: {describe_icons(goal.bonus)})")
    return lines + (["    (+ : you have a cube on that word)"] if cubed else [])


def _mat_lines(state: CogState, seat: int, mat: dict[str, Any], own: bool = False) -> list[str]:
    vp = "hidden" if mat["vp"] is None else mat["vp"]
    items = ", ".join(state.card(card_id).word for card_id in mat["items"]) or "-"
    cubed = " ".join(mat["cubes"]) or "-"
    head = (
        f"{COLOURS[seat]}: reserve {mat['reserve'] or '-'}  stars {mat['stars']}  VP {vp}  "
        f"pawn {mat['pawn']}  items {len(mat['items'])} ({items})  "
        f"cubes beside {cubed}  cubes left {mat['cubes_left']}  goals done {mat['goals_done']}"
    )
    shown = own or mat["grid"]["words"]
    return [head, *_held_cards(state, mat), *(_grid_lines(mat["grid"]["rows"]) if shown else [])]


def _grid_lines(rows: list[str]) -> list[str]:
    """A grid with its row and column numbers (as ``spell WORD r1c2 across`` counts them)."""
    header = "".join(str(col % 10) for col in range(1, len(rows[0]) + 1)) if rows else ""
    return [f"       {header}", *(f"    {n:>2} {row}" for n, row in enumerate(rows, start=1))]


def _held_cards(state: CogState, mat: dict[str, Any]) -> list[str]:
    """The cabinet cards a player holds, one line each (used ones marked for this round)."""
    return [
        f"    card: {describe_card(state.card(card_id))}"
        + (" (used this round)" if card_id in mat["used"] else "")
        for card_id in mat["cards"]
    ]


def _final_line(final: list[dict[str, int]]) -> str:
    parts = [
        f"{COLOURS[p]} {e['total']} (vp {e['vp']}, goals {e['goals']}, items {e['items']}, "
        f"letters {e['letters']})"
        for p, e in enumerate(final)
    ]
    return "Final: " + "; ".join(parts)
