"""Who sits where: the one way ``cogtable play GAME`` and ``cogtable sim GAME`` choose seats.

The convention, the same for every game and both commands:

- ``--players N`` says how many play (where the game lets you choose);
- ``--seat N=KIND``, repeated, says who plays seat ``N`` (seats count from 1
  in the game's seat order: Kogworks' seat 1 is Red, seat 2 Blue; C.O.G.'s
  colours and the other games' player numbers follow the seats);
- ``KIND`` is ``human`` (``play`` only), ``random`` or ``strong`` (the best
  built-in player each game has);
- a seat no ``--seat`` names takes the command's default, said in its --help.

Older spellings keep working for the scripts people have: ``--seats a,b,c``
(one kind per seat, in order), Kogworks' ``--red KIND`` and ``--blue KIND``,
and ``greedy`` or ``reasoner`` for ``strong``. A bad spelling of any of them
is one line naming what is allowed (exit status 2).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cogtable.errors import UserError

HUMAN = "human"
"""A seat played at the keyboard."""
STRONG = "strong"
"""The best built-in player of every game."""
SEAT_DEST = "seat"
"""Where ``--seat`` (and ``--red``, ``--blue``) are kept: ``args.seat``, a list of SeatText."""
CONVENTION = (
    "Seats: --players N says how many play; --seat N=KIND (repeatable) says who plays seat N, "
    "counted from 1 in seat order; KIND is human (play only), random or strong (the best "
    "built-in player). The older --seats KIND,KIND,... and Kogworks' --red/--blue still work, "
    "and so do greedy and reasoner for strong. Typing quit at any prompt of play ends the "
    "game (exit status 0); a bad option is one line (exit status 2)."
)
"""The convention in words, shown at the end of each ``play`` and ``sim`` game's --help."""
SEAT_LIST_DEST = "seat_list"
"""Where an old ``--seats a,b,c`` is kept: ``args.seat_list``, a SeatText or None."""
OLD_NAMES: Mapping[str, Mapping[str, str]] = {
    "kogworks": {"greedy": STRONG},
    "cog": {"greedy": STRONG},
    "commissars": {"greedy": STRONG},
    "cookie": {"reasoner": STRONG},
}
"""Per game, a name older scripts use for a built-in player and the name it has now: the one
place the old names live (the games and the table know present names only)."""


@dataclass(frozen=True)
class SeatText:
    """A seat option as typed, kept until the number of players is known."""

    text: str
    """``N=KIND`` (``--seat``, ``--red``) or ``KIND,KIND,...`` (``--seats``)."""
    spelled: str
    """The whole option as typed, for messages: ``--red greedy``."""


@dataclass(frozen=True)
class SeatChoice:
    """One seat's player as the command line chose it."""

    seat: int
    """The seat, counted from 1."""
    kind: str
    """``human`` or a built-in player's present name (an old name already translated)."""
    spelled: str
    """The option as it was typed, for messages."""


@dataclass(frozen=True)
class SeatKinds:
    """The kinds of player one game's command seats, and the old names it still takes."""

    built_in: tuple[str, ...]
    """The game's built-in players, present names only (``random``, ``strong``)."""
    old_names: Mapping[str, str]
    """An old name of a built-in player and its present name (``greedy`` -> ``strong``)."""
    humans: bool = True
    """Whether a seat may be ``human`` (``play``: yes; ``sim``: no)."""

    @classmethod
    def of_game(cls, game: str, players: Mapping[str, Any], humans: bool) -> SeatKinds:
        """The kinds ``game``'s built-in ``players`` offer, and the old names it still takes."""
        return cls(tuple(players), dict(OLD_NAMES.get(game, {})), humans)

    def names(self) -> tuple[str, ...]:
        """Every present name a seat may take, ``human`` first where allowed."""
        return ((HUMAN,) if self.humans else ()) + self.built_in

    def describe(self) -> str:
        """For a help text or a message: 'human, random, strong (old name: greedy = strong)'."""
        old = ", ".join(f"{old} = {new}" for old, new in self.old_names.items())
        return ", ".join(self.names()) + (f" (old name: {old})" if old else "")

    def present_name(self, name: str, spelled: str) -> str:
        """The present name of ``name``; an unknown one is a :class:`UserError`."""
        typed = name.strip().casefold()
        kind = self.old_names.get(typed, typed)
        if kind not in self.names():
            raise UserError(f"{spelled}: {name!r} is no player; use one of {self.describe()}")
        return kind


@dataclass(frozen=True)
class SeatDefaults:
    """Who sits in a seat the command line leaves open."""

    first: str
    """Seat 1's kind."""
    others: str
    """Every other seat's kind."""
    per_seat: tuple[str, ...] = ()
    """Kinds for the first seats, overriding ``first`` and ``others`` (sim kogworks)."""

    def kinds(self, players: int) -> list[str]:
        """The default kind of each of ``players`` seats."""
        kinds = [self.first] + [self.others] * (players - 1)
        return [*self.per_seat[:players], *kinds[len(self.per_seat) :]]

    def describe(self) -> str:
        """In words, for a help text."""
        if self.per_seat:
            return ", ".join(f"seat {n} {kind}" for n, kind in enumerate(self.per_seat, 1))
        if self.first == self.others:
            return f"every seat {self.first}"
        return f"seat 1 {self.first}, the others {self.others}"


@dataclass(frozen=True)
class SeatRule:
    """One command's seats: the kinds it takes and who sits where nobody is named."""

    kinds: SeatKinds
    defaults: SeatDefaults


PLAY_DEFAULTS = SeatDefaults(first=HUMAN, others=STRONG)
"""Who sits where ``cogtable play`` names nobody: a human in seat 1, strong players elsewhere."""


def play_seats(game: str, players: Mapping[str, Any]) -> SeatRule:
    """The seats of ``cogtable play GAME``: a human or one of the game's built-in ``players``."""
    return SeatRule(SeatKinds.of_game(game, players, humans=True), PLAY_DEFAULTS)


def add_seat_arguments(
    parser: argparse.ArgumentParser, rule: SeatRule, colours: Sequence[str] = ()
) -> None:
    """``--seat N=KIND`` (repeatable), the old ``--seats a,b,c`` and ``--COLOUR KIND``.

    What they say is checked by :func:`seat_kinds` once the number of players
    is known; the convention is put at the end of the command's --help.
    """
    parser.epilog = CONVENTION
    parser.add_argument(
        "--seat",
        dest=SEAT_DEST,
        action="append",
        default=[],
        type=lambda text: SeatText(text, f"--seat {text}"),
        metavar="N=KIND",
        help=f"who plays seat N (from 1), repeatable; KIND: {rule.kinds.describe()}; "
        f"default: {rule.defaults.describe()}",
    )
    parser.add_argument(
        "--seats",
        dest=SEAT_LIST_DEST,
        type=lambda text: SeatText(text, f"--seats {text}"),
        metavar="KIND,KIND,...",
        help="older spelling: one KIND per seat, in seat order",
    )
    for number, colour in enumerate(colours, start=1):
        parser.add_argument(
            f"--{colour}",
            dest=SEAT_DEST,
            action="append",
            type=lambda kind, n=number, c=colour: SeatText(f"{n}={kind}", f"--{c} {kind}"),
            metavar="KIND",
            help=f"older spelling of --seat {number}=KIND ({colour.capitalize()})",
        )


def add_players_argument(
    parser: argparse.ArgumentParser, default: int | None, what: str, choices: Sequence[int] = ()
) -> None:
    """``--players N``: a whole number, one line when it is not (the game checks the range)."""
    parser.add_argument(
        "--players",
        type=player_count,
        default=default,
        choices=list(choices) or None,
        metavar="N",
        help=f"how many play: {what}",
    )


def player_count(text: str) -> int:
    """A whole number of players, at least 1; else an ``argparse.ArgumentTypeError``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of players, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"a game needs at least 1 player, not {value}")
    return value


def parse_seat(typed: SeatText, kinds: SeatKinds) -> SeatChoice:
    """``N=KIND`` as a :class:`SeatChoice`; anything else a :class:`UserError`."""
    number, sep, name = typed.text.partition("=")
    if not sep or not number.strip().isdigit() or int(number) < 1:
        raise UserError(f"{typed.spelled}: expected N=KIND, N a seat number from 1")
    return SeatChoice(int(number), kinds.present_name(name, typed.spelled), typed.spelled)


def parse_seat_list(typed: SeatText, kinds: SeatKinds) -> list[SeatChoice]:
    """``a,b,c``: one kind per seat, in seat order; a bad one a :class:`UserError`."""
    names = [name for name in typed.text.split(",") if name.strip()]
    if not names:
        raise UserError(f"{typed.spelled}: expected KIND,KIND,... one KIND per seat")
    return [
        SeatChoice(seat, kinds.present_name(name, typed.spelled), typed.spelled)
        for seat, name in enumerate(names, start=1)
    ]


def seat_kinds(args: argparse.Namespace, players: int, rule: SeatRule) -> tuple[str, ...]:
    """Each seat's kind: the defaults, then an old ``--seats`` list, then each ``--seat``.

    ``--seat``, ``--red`` and ``--blue`` apply in the order typed, the last
    one for a seat wins. A bad kind, a list naming another number of seats
    than play, or a seat past the last is a :class:`UserError` in one line.
    """
    kinds = rule.defaults.kinds(players)
    listed_text: SeatText | None = getattr(args, SEAT_LIST_DEST, None)
    listed = parse_seat_list(listed_text, rule.kinds) if listed_text else []
    if listed and len(listed) != players:
        count = f"{len(listed)} seat{'' if len(listed) == 1 else 's'}"
        raise UserError(f"{listed[0].spelled} names {count} for {players} players")
    named = [parse_seat(typed, rule.kinds) for typed in getattr(args, SEAT_DEST, None) or []]
    for choice in [*listed, *named]:
        if choice.seat > players:
            raise UserError(f"{choice.spelled}: there are seats 1 to {players} only")
        kinds[choice.seat - 1] = choice.kind
    return tuple(kinds)
