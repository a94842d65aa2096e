"""``cogtable play commissars``: Cogs and Commissars in the terminal.

Seats are ``human`` or a built-in player (``random``, ``strong``). With more
than one human the screen is cleared and the next human is asked to take over
before their hand is shown (pass-and-play). Chance (draws, flips, deals) is
drawn from the seed, as a simulated table would.

Blitz cards may be played at any time: before the active player acts in a
phase, every other seat holding a playable Blitz is asked once in that phase of
that turn whether to play one now (a human by a prompt, a built-in player by
:func:`games.commissars.players.wants_to_interject`).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path

from cogtable.commands._seats import (
    add_players_argument,
    add_seat_arguments,
    play_seats,
    seat_kinds,
)
from cogtable.errors import UserError
from cogtable.files import check_output, write_file
from cogtable.tables.terminal import QUIT, InputEnded, input_ended_line, is_quit
from games import commissars
from games.commissars.cards import KIND_NAMES
from games.commissars.players import PLAYERS, wants_to_interject
from games.commissars.state import CommissarsState
from games.core import CHANCE, Action

HELP = "Cogs and Commissars for 2-6 players: humans (pass-and-play) and built-in players."
SEATS = play_seats("commissars", PLAYERS)
"""Who may sit, and who sits where the command line names nobody."""
CLEAR = "\033[2J\033[H"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Players, seats, deck building, leaders, seed and record file."""
    add_players_argument(parser, 2, "2 to 6 (default 2)")
    add_seat_arguments(parser, SEATS)
    parser.add_argument("--decks", default="preconstructed", choices=commissars.DECK_MODES)
    parser.add_argument(
        "--leaders",
        nargs="?",
        const="choose",
        choices=commissars.LEADER_DEALS,
        help="play with Faction Leaders: 'choose' (the default: each seat's faction) "
        "or 'random' (dealt at random; preconstructed decks follow the dealt leader)",
    )
    parser.add_argument("--factions", default="", help="comma-separated faction per seat")
    parser.add_argument(
        "--max-turns", type=int, default=0, help="end with no winner after N turns (0: never)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for chance and built-in players")
    parser.add_argument("--record", type=Path, help="write the game record (JSON) here")


@dataclass
class Session:
    """The seats of one terminal game and what the screen and the prompts remember."""

    seats: list[str]
    rng: random.Random
    shown: int = -1
    asked: set[tuple[int, str, int]] = field(default_factory=set)

    def is_human(self, player: int) -> bool:
        """True for a seat played at the keyboard."""
        return self.seats[player] == "human"

    def humans(self) -> int:
        """How many seats are played at the keyboard."""
        return self.seats.count("human")


def run(args: argparse.Namespace) -> int:
    """Play one game to its end (or until a human quits or the input ends); 0 in each case."""
    seats = _seats(args)
    if args.record is not None:
        check_output(args.record)
    options = {
        "players": args.players,
        "decks": args.decks,
        "leaders": args.leaders is not None,
        "leader_deal": args.leaders or "choose",
        "factions": args.factions,
        "max_turns": args.max_turns,
    }
    state = commissars.new_game(options, args.seed)
    session = Session(seats, random.Random(args.seed))
    try:
        _play(state, session)
    except Abandoned:
        print("Game abandoned.")
        _write_record(state, args.record)
        return 0
    except InputEnded:
        _write_record(state, args.record)
        print("\n" + input_ended_line(args.record))
        return 0
    _finish(state, args.record)
    return 0


class Abandoned(Exception):
    """A human typed the quit word: the game stops (exit status 0, as in every game)."""


def _play(state: CommissarsState, session: Session) -> None:
    """Apply one action after another until the game ends."""
    while not state.is_over():
        if state.to_act()[0] == CHANCE:
            _apply(state, state.sample_chance(), quiet=True)
            continue
        action = interjection(state, session) or _active_choice(state, session)
        _apply(state, action, quiet=False)


def _active_choice(state: CommissarsState, session: Session) -> Action:
    """The choice of the first player in ``to_act`` (the active player, or a responder)."""
    actor = state.to_act()[0]
    if session.is_human(actor):
        session.shown = _hand_over(state, actor, session.shown, session.humans())
        return _ask(state, actor)
    return PLAYERS[session.seats[actor]](state, actor, session.rng)


def interjection(state: CommissarsState, session: Session) -> Action | None:
    """A Blitz another seat plays before the active player acts, if any seat wants one.

    Each seat is asked at most once per phase of each turn, not before every
    single discard.
    """
    for player in _asked_to_blitz(state, session):
        key = (state.turn, state.phase, player)
        if key in session.asked:
            continue
        session.asked.add(key)
        action = _offer_blitz(state, session, player)
        if action is not None:
            return action
    return None


def _asked_to_blitz(state: CommissarsState, session: Session) -> list[int]:
    """The seats to ask: those who could Blitz; with several humans, every other human.

    Asking only the humans who hold a playable Blitz would tell the others
    (watching the pass-and-play hand-over) who holds one.
    """
    could = state.may_blitz()
    if session.humans() < 2 or not state.blitz_moment():
        return could
    return [p for p in state.others(state.active) if session.is_human(p) or p in could]


def _offer_blitz(state: CommissarsState, session: Session, player: int) -> Action | None:
    if not session.is_human(player):
        return wants_to_interject(state, player, session.rng, session.seats[player])
    session.shown = _hand_over(state, player, session.shown, session.humans())
    print(render(state, player))
    return _pick(state, player, "play a Blitz now? (number, or Enter to let the game go on)")


def _seats(args: argparse.Namespace) -> list[str]:
    """Each seat's kind (see :mod:`cogtable.commands._seats`); a bad one is a UserError."""
    if not 2 <= args.players <= 6:
        raise UserError(f"--players {args.players}: Cogs and Commissars is for 2 to 6 players")
    return list(seat_kinds(args, args.players, SEATS))


def _apply(state: CommissarsState, action: Action, quiet: bool) -> None:
    events = state.apply(action)
    if not quiet:
        print(f"{state.player_name(action.player)}: {action.notation()}")
    for event in events:
        if event.what not in ("draw",) or not quiet:  # type: ignore[attr-defined]
            print(f"  {event.describe()}")


def _hand_over(state: CommissarsState, player: int, shown: int, humans: int) -> int:
    """Pass-and-play: with several humans, hide the screen before showing a new hand."""
    if humans > 1 and player != shown:
        print(CLEAR + f"Pass to {state.player_name(player)} and press Enter.")
        _read("")
        print(CLEAR, end="")
    return player


def _ask(state: CommissarsState, player: int) -> Action:
    """Show the player's view and their choices; read a number until it is valid."""
    print(render(state, player))
    action = _pick(state, player, "")
    assert action is not None
    return action


def _pick(state: CommissarsState, player: int, question: str) -> Action | None:
    """List the player's choices and read one; with a ``question``, Enter declines.

    With one choice only (``pass`` while a card waits for answers), Enter takes
    it: there is nothing to choose between. ``cards`` and ``help CARD`` say
    what cards do; the quit word stops the game (:class:`Abandoned`).
    """
    actions = list(state.legal_actions(player))
    only = actions[0] if len(actions) == 1 and not question else None
    if only is None:
        for number, action in enumerate(actions, start=1):
            print(f"  {number:3d}. {action.notation()}")
    prompt = _prompt(state, player, question, actions)
    while True:
        answer = _read(prompt).strip()
        if is_quit(answer):
            raise Abandoned
        if answer_command(state, player, answer):
            continue
        if (question or only is not None) and not answer:
            return only
        chosen = _chosen(answer, actions)
        if chosen is not None:
            return chosen
        print(f"  '{answer}' is not a choice; {_what_to_type(actions, question)}.")


def _prompt(state: CommissarsState, player: int, question: str, actions: list[Action]) -> str:
    """The question put to ``player``, with what may be typed."""
    name = state.player_name(player)
    extra = f"cards, help CARD, {QUIT}"
    if question and not actions:
        question = "no Blitz you could play now; press Enter to let the game go on"
    if question:
        return f"{name.capitalize()}: {question} ({extra}) "
    if len(actions) == 1:
        return f"{name}, your only choice is {actions[0].notation()}: press Enter ({extra}): "
    return f"{name}, choose 1-{len(actions)} ({extra}): "


def _chosen(answer: str, actions: list[Action]) -> Action | None:
    """The action typed by its number or its notation (any case), if it is one."""
    if answer.isdigit() and 1 <= int(answer) <= len(actions):
        return actions[int(answer) - 1]
    typed = answer.casefold()
    return next((a for a in actions if a.notation().casefold() == typed), None)


def _what_to_type(actions: list[Action], question: str) -> str:
    if len(actions) == 1 and not question:
        return "press Enter for it"
    return f"type a number from 1 to {len(actions)}" + (", or Enter" if question else "")


# -- what cards do -----------------------------------------------------------------

PROMPT_HELP = f"""\
Type the number of a choice (or the choice itself, e.g. 'end phase').
  cards        what every card in your hand does
  help CARD    what a card does, e.g. 'help Propaganda'
  {QUIT}         stop the game"""


def answer_command(state: CommissarsState, player: int, text: str) -> bool:
    """Answer ``cards``, ``help`` or ``help CARD``; False for anything else."""
    word, _, rest = text.partition(" ")
    if word.casefold() == "cards" and not rest:
        print("\n".join(hand_lines(state, player)))
    elif word.casefold() in ("help", "?"):
        print(card_help(state, rest.strip()) if rest.strip() else PROMPT_HELP)
    else:
        return False
    return True


def hand_lines(state: CommissarsState, player: int) -> list[str]:
    """Each card in ``player``'s hand (once, with how many) and what it does."""
    hand = state.view(player)["hand"]
    if not hand:
        return ["Your hand is empty."]
    counts = {name: hand.count(name) for name in hand}
    return [
        f"  {count} x {card_words(state, name)}" if count > 1 else f"  {card_words(state, name)}"
        for name, count in counts.items()
    ]


def card_help(state: CommissarsState, asked: str) -> str:
    """What the card named ``asked`` (any case, or the start of its name) does."""
    names = list(state.cards.cards)
    typed = asked.casefold()
    exact = [name for name in names if name.casefold() == typed]
    found = exact or [name for name in names if name.casefold().startswith(typed)]
    if len(found) == 1:
        return card_words(state, found[0])
    if found:
        return f"'{asked}' could be {', '.join(found)}: type more of the name"
    return f"No card is called '{asked}'. Cards: {', '.join(names)}"


def card_words(state: CommissarsState, name: str) -> str:
    """One card in words: its name, type, any Blitz cost, what it does and how it is read."""
    card = state.card(name)
    cost = f", Blitz for one {KIND_NAMES[card.blitz_cost]}" if card.blitz_cost else ""
    reading = f" (read as: {card.reading})" if card.reading else ""
    return f"{card.name} [{card.type}{cost}]: {card.text}{reading}"


def _read(prompt: str) -> str:
    """One line of input; the end of input is an :class:`~cogtable.tables.terminal.InputEnded`."""
    try:
        return input(prompt)
    except EOFError as error:
        raise InputEnded(prompt) from error


def _write_record(state: CommissarsState, record: Path | None) -> None:
    """Write the game record, finished or not, if one was asked for."""
    if record is not None:
        write_file(record, state.record().dumps().encode("utf-8"))


def _finish(state: CommissarsState, record: Path | None) -> None:
    print(render(state))
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winners:
        print(f"{state.player_name(outcome.winners[0])} wins: the Revolution succeeds!")
    else:
        print(f"No winner ({outcome.reason}).")
    _write_record(state, record)


def render(state: CommissarsState, player: int | None = None) -> str:  # type: ignore[override]
    """The table as text: Citizens, piles, the stack, who is waited for (and a hand)."""
    view = state.view(player)
    lines = [f"Turn {view['turn']}, {state.player_name(view['active'])}, {view['phase']} phase"]
    gulag = ", ".join(f"{count} {KIND_NAMES[k]}" for k, count in view["gulag"].items())
    lines.append(f"Gulag: {gulag}")
    for number, seat in enumerate(view["players"]):
        lines.append(_seat_line(state, number, seat))
    for entry in view["stack"]:
        lines.append(f"  stack #{entry['id']}: {entry['card']} by player {entry['player'] + 1}"
                     + (" (duplicate)" if entry["copy"] else ""))  # fmt: skip
    if player is not None:
        lines.append("Your hand: " + (", ".join(view["hand"]) or "empty"))
        for key in ("deck", "intercepted_hand", "packet"):
            if view.get(key):
                lines.append(f"{key.replace('_', ' ').capitalize()}: {', '.join(view[key])}")
    lines.append("The game is over." if state.is_over() else f"Waiting for {view['waiting_for']}")
    return "\n".join(lines)


def _seat_line(state: CommissarsState, number: int, seat: dict[str, object]) -> str:
    citizens = seat["citizens"]
    assert isinstance(citizens, dict)
    discard = seat["discard"]
    assert isinstance(discard, list)
    top = f", discard top: {discard[-1]}" if discard else ""
    leader = f" [{seat['leader']}]" if seat["leader"] else ""
    return (
        f"{state.player_name(number)}{leader}: {seat['points']} points "
        f"(P{citizens['P']} B{citizens['B']} C{citizens['C']}), hand {seat['hand_size']}, "
        f"deck {seat['deck_size']}, discard {len(discard)}{top}"
    )
