"""``cogtable play commissars``: Cogs and Commissars in the terminal.

Seats are ``human`` or a built-in player (``random``, ``greedy``). With more
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

from cogtable.errors import UserError
from cogtable.files import check_output, write_file
from cogtable.terminal import QUIT, is_quit
from games import commissars
from games.commissars.cards import KIND_NAMES
from games.commissars.players import PLAYERS, wants_to_interject
from games.commissars.state import CommissarsState
from games.core import CHANCE, Action

HELP = "Cogs and Commissars for 2-6 players: humans (pass-and-play) and built-in players."
SEAT_KINDS = ("human", *PLAYERS)
CLEAR = "\033[2J\033[H"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Players, seats, deck building, leaders, seed and record file."""
    parser.add_argument("--players", type=int, default=2, help="number of players, 2-6")
    parser.add_argument(
        "--seats",
        default="",
        help="comma-separated seat kinds: human, random, greedy "
        "(default: human for player 1, greedy for the rest)",
    )
    parser.add_argument("--decks", default="preconstructed", choices=commissars.state.DECK_MODES)
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
    """Play one game to its end; 0 when it finished."""
    seats = _seats(args.seats, args.players)
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
    while not state.is_over():
        if state.to_act()[0] == CHANCE:
            _apply(state, state.sample_chance(), quiet=True)
            continue
        action = interjection(state, session) or _active_choice(state, session)
        _apply(state, action, quiet=False)
    _finish(state, args.record)
    return 0


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


def _seats(text: str, players: int) -> list[str]:
    if not 2 <= players <= 6:
        raise UserError(f"--players {players}: Cogs and Commissars is for 2 to 6 players")
    seats = [s.strip() for s in text.split(",")] if text else ["human"] + ["greedy"] * (players - 1)
    bad = [seat for seat in seats if seat not in SEAT_KINDS]
    if bad or len(seats) != players:
        raise UserError(
            f"--seats {text!r}: give {players} of {', '.join(SEAT_KINDS)}, separated by commas"
        )
    return seats


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
    """List the player's choices and read one; with a ``question``, Enter declines."""
    actions = list(state.legal_actions(player))
    for number, action in enumerate(actions, start=1):
        print(f"  {number:3d}. {action.notation()}")
    name = state.player_name(player)
    if question and not actions:
        question = "no Blitz you could play now; press Enter to let the game go on"
    prompt = (
        f"{name.capitalize()}: {question} ({QUIT} stops the game) "
        if question
        else f"{name}, choose 1-{len(actions)} (or {QUIT}): "
    )
    while True:
        answer = _read(prompt).strip()
        if is_quit(answer):
            raise UserError("game abandoned")
        if question and not answer:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        print(f"  '{answer}' is not a choice; type a number from 1 to {len(actions)}.")


def _read(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError as error:
        raise UserError("input ended before the game did") from error


def _finish(state: CommissarsState, record: Path | None) -> None:
    print(render(state))
    outcome = state.outcome()
    assert outcome is not None
    if outcome.winners:
        print(f"{state.player_name(outcome.winners[0])} wins: the Revolution succeeds!")
    else:
        print(f"No winner ({outcome.reason}).")
    if record is not None:
        write_file(record, state.record().dumps().encode("utf-8"))


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
