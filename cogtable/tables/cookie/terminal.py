"""``cogtable play cookie``: The Cookie 2.0 in the terminal, pass-and-play.

Any seat is a human or a built-in player (``random``, ``strong``). With more
than one human at the keyboard, each player's secrets (role, hand, the card
they laid) are shown only after a "hand the screen to ..." prompt, and the
screen is cleared when they are done. Only what the whole table may know is
printed between turns: cards laid face down are announced, not named, until
everybody has laid theirs.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from cogtable.commands._seats import (
    HUMAN,
    add_players_argument,
    add_seat_arguments,
    play_seats,
    seat_kinds,
)
from cogtable.errors import UserError
from cogtable.files import check_output, write_file
from cogtable.tables.terminal import QUIT, InputEnded, input_ended_line, is_quit
from games import cookie
from games.cookie.actions import Hunt, Play, seat_name
from games.cookie.players import PLAYERS, Player, make_player
from games.cookie.reference import REFERENCES, Reference
from games.core import CHANCE, Action, State

HELP = "The Cookie 2.0: Every Man for Himself (4-6 players) or The Big Hunt (2-4 players)."

SEATS = play_seats("cookie", PLAYERS)
"""Who may sit, and who sits where the command line names nobody."""
CLEAR = "\033[2J\033[H" + "\n" * 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Variant, players, seed, who sits where, and an optional record file."""
    parser.add_argument("--variant", choices=tuple(cookie.PLAYER_COUNTS), default="hunt")
    add_players_argument(parser, 4, "hunt 4 to 6, big-hunt 2 to 4 (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed for deals and built-in players")
    parser.add_argument("--first-player", type=int, default=1, help="seat holding the token")
    add_seat_arguments(parser, SEATS)
    parser.add_argument("--record", type=Path, help="write the game record (JSON) here")


def run(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play one game; built-in-only games need no input. EOF or 'quit' ends cleanly."""
    seats = dict(enumerate(seat_kinds(args, args.players, SEATS)))
    if not 1 <= args.first_player <= args.players:
        raise UserError(f"--first-player {args.first_player}: expected 1 to {args.players}")
    if args.record is not None:
        check_output(args.record)
    options = {
        "variant": args.variant,
        "players": args.players,
        "first_player": args.first_player - 1,
    }
    state = cookie.new_game(options, args.seed)
    table = Table(state, seats, args.seed, stdin, out)
    ended = False
    try:
        table.play()
    except InputEnded:
        ended = True
    if args.record is not None:
        _write_record(args.record, state)
    if ended:
        table.say("\n" + input_ended_line(args.record))
    return 0


def _write_record(path: Path, state: State) -> None:
    write_file(path, (state.record().dumps() + "\n").encode("utf-8"))


class Table:
    """One game at the keyboard: asks humans, lets built-in players choose, prints."""

    def __init__(
        self,
        state: State,
        seats: dict[int, str],
        seed: int,
        stdin: TextIO | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.state, self.seats = state, seats
        self.stdin, self.out = stdin or sys.stdin, out or sys.stdout
        self.bots: dict[int, Player] = {
            seat: make_player(kind, seed * 10 + seat)
            for seat, kind in seats.items()
            if kind != HUMAN
        }
        self.shared_screen = list(seats.values()).count(HUMAN) > 1

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, prompt: str) -> str:
        """One line of input; the end of input is :class:`~cogtable.tables.terminal.InputEnded`."""
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if line == "":
            raise InputEnded(prompt)
        return line.strip()

    def play(self) -> bool:
        """Play to the end; ``False`` if a player quit first (:class:`InputEnded` at EOF)."""
        self.say(render(self.state))
        while not self.state.is_over():
            action = self._next_action()
            if action is None:
                self.say("Game left unfinished.")
                return False
            self._apply(action)
        self.say(render(self.state))
        return True

    def _next_action(self) -> Action | None:
        acting = self.state.to_act()
        if acting == (CHANCE,):
            return self.state.sample_chance()
        seat = acting[0]
        if seat in self.bots:
            return self.bots[seat].choose(self.state, seat)
        return self._ask_human(seat)

    def _apply(self, action: Action) -> None:
        round_before = self.state.view(None)["round"]
        events = self.state.apply(action)
        if isinstance(action, Play | Hunt):
            self.say(f"{seat_name(action.player)} laid a card face down.")
        for event in events:
            self.say(event.describe())
        if self.state.view(None)["round"] != round_before and not self.state.is_over():
            self.say(render(self.state))

    def _ask_human(self, seat: int) -> Action | None:
        name = seat_name(seat)
        if self.shared_screen:
            self.ask(f"Hand the screen to {name} and press Enter. ")
        self.say(render_private(self.state, seat))
        action = self._choose(seat)
        if action is not None and self.shared_screen:
            with contextlib.suppress(InputEnded):  # the choice stands; the next question stops
                self.ask("Press Enter, then hand the screen on. ")
            self.out.write(CLEAR)
        return action

    def _choose(self, seat: int) -> Action | None:
        legal = list(self.state.legal_actions(seat))
        for number, action in enumerate(legal, start=1):
            self.say(f"  {number:2d}. {action.notation()}")
        while True:
            answer = self.ask(f"{seat_name(seat)}, your choice (1-{len(legal)}, or {QUIT}): ")
            if is_quit(answer):
                return None
            chosen = _pick(answer, legal)
            if chosen is not None:
                return chosen
            self.say(f"Not understood: {answer!r}. Type a number from 1 to {len(legal)}.")


def _pick(answer: str, legal: list[Action]) -> Action | None:
    """The action a player typed: its number, its notation, or its last word (a card)."""
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    matches = [
        a
        for a in legal
        if answer.lower() in (a.notation().lower(), a.notation().split()[-1].lower())
    ]
    return matches[0] if len(matches) == 1 else None


# -- drawing -------------------------------------------------------------------


def render(state: State) -> str:
    """What the whole table may see, as text (also used by ``cogtable replay``)."""
    view = state.view(None)
    lines = [_heading(view), reference_line(_reference(view)), "Coins: " + _per_seat(view["coins"])]
    draw: Callable[[dict[str, Any]], list[str]] = (
        _hunt_lines if view["variant"] == "hunt" else _big_hunt_lines
    )
    lines += draw(view)
    lines += _last_round_lines(view)
    outcome = state.outcome()
    if outcome is not None:
        names = ", ".join(seat_name(s) for s in outcome.winners)
        lines.append(
            f"Game over: {names} {'win' if len(outcome.winners) > 1 else 'wins'} "
            f"({outcome.reason})."
        )
    return "\n".join(lines)


def _heading(view: dict[str, Any]) -> str:
    title = "Every Man for Himself" if view["variant"] == "hunt" else "The Big Hunt"
    shown_round = min(view["round"] + 1, view["rounds"])
    return (
        f"== The Cookie 2.0, {title}, {view['players']} players: round {shown_round} of "
        f"{view['rounds']}, first player {seat_name(view['first_player'])} =="
    )


def _reference(view: dict[str, Any]) -> Reference:
    """The Reference card on the table: one per player count, The Big Hunt always 6's."""
    return REFERENCES[view["players"] if view["variant"] == "hunt" else 6]


def reference_line(reference: Reference) -> str:
    """Who hunts whom, as the Reference card shows it: the hunting cycle in one line."""
    start = reference.characters[0]
    cycle, hunter = [start], reference.prey[start]
    while hunter != start:
        cycle.append(hunter)
        hunter = reference.prey[hunter]
    return f"Reference card: {' hunts '.join([*cycle, start])} (each hunts the next)"


def _per_seat(values: list[Any]) -> str:
    return ", ".join(f"{seat_name(seat)} {value}" for seat, value in enumerate(values))


def _aims(targets: list[int | None]) -> str:
    shown = [f"{seat_name(s)}->{seat_name(t)}" for s, t in enumerate(targets) if t is not None]
    return ", ".join(shown) or "none"


def _hunt_lines(view: dict[str, Any]) -> list[str]:
    played = [" ".join(cards) or "-" for cards in view["played"]]
    turn = f"Turn {view['turn'] + 1}. " if view["phase"] != "over" else ""
    return [
        f"{turn}Cards shown this round: " + _per_seat(played),
        f"Swords: {_aims(view['swords'])}; Shields: {_aims(view['shields'])}",
    ]


def _big_hunt_lines(view: dict[str, Any]) -> list[str]:
    claims = [" ".join(c) or "-" for c in view["claims"]]
    roles = [" ".join(r or "?" for r in rs) for rs in view["revealed_roles"]]
    lines = [f"Phase: {view['phase']}. Claims: " + _per_seat(claims)]
    lines.append("Role cards: " + _per_seat(roles))
    if view["open_exclusion"]:
        lines.append(f"Open exclusion card: {view['open_exclusion']}")
    return lines + [f"  {text}" for text in view["checks"]]


def _last_round_lines(view: dict[str, Any]) -> list[str]:
    last = view["last_round"]
    if not last:
        return []
    lines = [f"Round {last['round'] + 1} scored: " + _per_seat([f"+{g}" for g in last["gains"]])]
    reference = _reference(view)
    if "roles" in last:
        lines.append("  roles were: " + _per_seat(last["roles"]))
        explain = _hunt_score_words
    else:
        lines.append(f"  target {last['target']}; hunted with: " + _per_seat(last["hunts"]))
        explain = _big_hunt_score_words
    return lines + [f"  {explain(last, seat, reference)}" for seat in range(len(last["gains"]))]


def _hunt_score_words(last: dict[str, Any], seat: int, reference: Reference) -> str:
    """Why ``seat`` scored what it did in Every Man for Himself: Sword, Shield, Hill."""
    roles, gain = last["roles"], last["gains"][seat]
    role = roles[seat]
    sword = _aim_words("Sword", last["swords"][seat], roles, reference.prey[role], 3)
    shield = _aim_words("Shield", last["shields"][seat], roles, reference.hunter[role], 2)
    hill = gain - sword.coins - shield.coins
    kept = "; Hill kept in hand +1" if hill else ""
    return f"{seat_name(seat)} ({role}) +{gain}: {sword.words}; {shield.words}{kept}"


@dataclass(frozen=True)
class AimScore:
    """What one aimed card earned, and why in words."""

    coins: int
    words: str


def _aim_words(card: str, aim: int | None, roles: list[str], wanted: str, worth: int) -> AimScore:
    """A Sword (at your prey, 3) or a Shield (at your hunter, 2): hit or missed, in words."""
    goal = "prey" if card == "Sword" else "hunter"
    if aim is None:
        return AimScore(0, f"no {card} aimed (your {goal} was {wanted})")
    if roles[aim] == wanted:
        return AimScore(worth, f"{card} at {seat_name(aim)} ({wanted}, your {goal}) +{worth}")
    return AimScore(0, f"{card} at {seat_name(aim)} ({roles[aim]}, not your {goal} {wanted}) +0")


def _big_hunt_score_words(last: dict[str, Any], seat: int, reference: Reference) -> str:
    """Why ``seat`` scored what it did in The Big Hunt: guaranteed, victims, target, survivor."""
    hunts, out, gain = last["hunts"], last["eliminated"], last["gains"][seat]
    prey = reference.prey[hunts[seat]]
    victims = hunts.count(prey)
    parts = ["guaranteed +1", f"{victims} {prey} eliminated +{victims}" if victims else ""]
    if prey == last["target"]:
        parts.append("you were eliminated, so the target escaped you" if out[seat] else
                     f"the target {prey} +3")  # fmt: skip
    if not out[seat] and out.count(False) == 1:
        parts.append("only survivor +2")
    said = "; ".join(part for part in parts if part)
    return f"{seat_name(seat)} hunted with {hunts[seat]} (hunts {prey}) +{gain}: {said}"


def render_private(state: State, seat: int) -> str:
    """What only ``seat`` may see, for their turn at the keyboard."""
    view = state.view(seat)
    lines = [render(state), f"-- {seat_name(seat)} only --"]
    if view["variant"] == "hunt":
        lines.append(f"Your role: {view['role'] or 'face down (the table has not seen it)'}")
        if view["role"]:
            reference = _reference(view)
            prey, hunter = reference.prey[view["role"]], reference.hunter[view["role"]]
            lines.append(f"You hunt {prey} (Sword: 3 coins); {hunter} hunts you (Shield: 2 coins)")
    else:
        lines.append("Your role card(s): " + ", ".join(r or "?" for r in view["roles"]))
        if view["exclusion"]:
            lines.append(f"You saw the exclusion card: {view['exclusion']}")
    lines.append("Your hand: " + ", ".join(view["hand"]))
    return "\n".join(lines)
