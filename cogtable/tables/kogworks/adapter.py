"""Kogworks at the table: a settled camera reading becomes a move; a state becomes LEDs.

This is the one module that knows both the Kogworks engine and the sensors.
A committed reading is compared with the game (docs/ARCHITECTURE.md, "Reading the
physical board"):

- the same as the game: in sync;
- the position before the last move: the player took it back (undo);
- one of the mover's cogs added (from the reserve), or one moved: the move,
  applied only if the engine says it is legal; otherwise the pegs that make
  it illegal blink red until the board is put back;
- one of the mover's cogs lifted and not yet put down: its legal
  destinations light white;
- anything else: out of sync, the differing pegs blink amber.

Pegs are the engine's peg numbers (0..54, apex first, row by row), which are
also the indices of the ``pegs`` LED segment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cogtable.commit_decision import Explanations
from cogtable.tables.base import (
    AMBER,
    DIM,
    GREEN,
    PEG_DISK,
    RED,
    WHITE,
    CameraRegion,
    Flash,
    Scene,
    TableAdapter,
    Verdict,
)
from cogtable.tables.kogworks.explain import explanations
from cogtable.tables.kogworks.terminal import render
from games.core import Action, Request, State
from games.kogworks import BASES, TOP, KogworksState, Move, Place, parse, peg_at, peg_name
from games.kogworks.board import ROWS
from hardware.leds import Frame, blink, flash, pulse

PIECES: Final = ("red", "blue")
"""The colour the camera reads for each player's cogs."""
PEG_ROWS: Final = tuple(tuple(peg_at(row, col) for col in range(row + 1)) for row in range(ROWS))
"""The peg LEDs as the triangle they sit in, apex first (the terminal's layout)."""

__all__ = ["AMBER", "DIM", "GREEN", "PIECES", "RED", "WHITE", "Flash", "KogworksAdapter", "Verdict"]


def pieces_of(state: KogworksState) -> dict[int, str]:
    """Every occupied peg and the colour the camera should see there."""
    pieces = {TOP: "gold"}
    for player, colour in enumerate(PIECES):
        pieces.update(dict.fromkeys(state.cogs(player), colour))
    return pieces


def pieces_from_reading(position: Mapping[tuple[int, int], str | None]) -> dict[int, str]:
    """A vision position ((row, column) -> colour or None) as peg numbers -> colour."""
    return {peg_at(row, col): colour for (row, col), colour in position.items() if colour}


def judge(
    state: KogworksState, seen: Mapping[int, str], before: KogworksState | None = None
) -> Verdict:
    """What the settled board ``seen`` means, given the game and the position before it."""
    expected = pieces_of(state)
    if dict(seen) == expected:
        return Verdict("in-sync")
    if before is not None and dict(seen) == pieces_of(before):
        return Verdict("take-back", reason="the last move was taken back")
    added = {peg: colour for peg, colour in seen.items() if expected.get(peg) != colour}
    removed = {peg for peg in expected if seen.get(peg) != expected[peg]}
    return _explain(state, added, removed - set(added))


def differing(state: KogworksState, seen: Mapping[int, str]) -> tuple[int, ...]:
    """The pegs where the board ``seen`` differs from the game."""
    expected = pieces_of(state)
    return tuple(sorted(peg for peg in {*expected, *seen} if expected.get(peg) != seen.get(peg)))


def _cog_words(colour: str | None, none: str = "no cog") -> str:
    """A peg's cog in words: "a red cog", or ``none``."""
    return f"a {colour} cog" if colour else none


def pegs_of_action(action: Action) -> tuple[int, ...]:
    """The pegs an action touches: the placed peg, or a move's source and target."""
    if isinstance(action, Place):
        return (action.peg,)
    if isinstance(action, Move):
        return (action.source, action.target)
    return ()


def parse_move(text: str, player: int) -> Action:
    """A move typed in Kogworks notation (``+7.3``, ``7.3-8.4``) for ``player``."""
    return parse(text, player)


def _explain(state: KogworksState, added: dict[int, str], removed: set[int]) -> Verdict:
    """Turn the difference into the mover's move, a lifted cog, or out of sync."""
    if state.is_over():
        return _out_of_sync(added, removed, "the game is over: put the board back")
    colour = PIECES[state.mover]
    own_removed = {peg for peg in removed if state.owner(peg) == state.mover}
    lifted = own_removed - {BASES[state.mover]}
    if set(added.values()) <= {colour} and len(added) <= 1 and removed == own_removed:
        if not added and len(lifted) == 1 == len(removed):
            source = next(iter(lifted))
            return Verdict("lifted", places=(source,), reason=f"{peg_name(source)} lifted")
        if added and len(removed) <= 1:
            return _try(state, _action(state.mover, next(iter(added)), removed))
    return _out_of_sync(added, removed, "the board does not match the game")


def _action(player: int, target: int, removed: set[int]) -> Action:
    if removed:
        return Move(next(iter(removed)), target, player=player)
    return Place(target, player=player)


def _try(state: KogworksState, action: Action) -> Verdict:
    """The move if it is legal; else the pegs that make it illegal, and why."""
    violations = state.why_illegal(action)
    if not violations:
        return Verdict("move", action=action, reason=action.notation())
    pegs = {*pegs_of_action(action), *(peg for violation in violations for peg in violation.pegs)}
    reason = "; ".join(violation.text for violation in violations)
    return Verdict("illegal", action=action, places=tuple(sorted(pegs)), reason=reason)


def _out_of_sync(added: dict[int, str], removed: set[int], reason: str) -> Verdict:
    return Verdict("out-of-sync", places=tuple(sorted({*added, *removed})), reason=reason)


def frame(
    state: KogworksState,
    verdict: Verdict,
    seat_colours: tuple[tuple[int, int, int], ...],
    template: Frame,
    accepted: Flash | None = None,
) -> Frame:
    """The LED frame for the state and the latest verdict (docs/ARCHITECTURE.md, LEDs)."""
    leds = template.copy()
    leds.clear()
    if verdict.kind == "carry-out" and verdict.action is not None:
        _show_carry_out(leds, verdict.action)  # the other table's move first, even a winning one
        player = verdict.action.player
        leds.set("seats", player, seat_colours[player], pulse(1.5))  # their move, made there
        return leds
    if state.is_over():
        _show_winner(leds, state, seat_colours)
        return leds
    mover_colour = seat_colours[state.mover]
    leds.set("seats", state.mover, mover_colour)
    _show_verdict(leds, state, verdict, mover_colour)
    _show_locked_bases(leds, state)
    if accepted is not None:
        leds.fill("pegs", GREEN, flash(accepted.start), indices=accepted.places)
    return leds


def _show_verdict(
    leds: Frame, state: KogworksState, verdict: Verdict, mover_colour: tuple[int, int, int]
) -> None:
    pegs = list(verdict.places)
    if verdict.kind == "lifted":
        leds.fill("pegs", WHITE, indices=state.destinations(verdict.places[0]))
    elif verdict.kind == "illegal":
        leds.fill("pegs", RED, blink(0.4), indices=pegs)
    elif verdict.kind == "out-of-sync":
        leds.fill("pegs", AMBER, blink(0.8), indices=pegs)
        leds.set("status", 0, AMBER)
    else:
        dim = tuple(int(channel * DIM) for channel in mover_colour)
        leds.fill("pegs", dim, indices=state.destinations(None))  # type: ignore[arg-type]


def _show_carry_out(leds: Frame, action: Action) -> None:
    """The other table's move to make here: the peg to take from blinks white, the peg to
    fill shows white (a placement: only the peg to fill)."""
    if isinstance(action, Move):
        leds.set("pegs", action.source, WHITE, blink(0.8))
        leds.set("pegs", action.target, WHITE)
    elif isinstance(action, Place):
        leds.set("pegs", action.peg, WHITE)


def _show_locked_bases(leds: Frame, state: KogworksState) -> None:
    for player, base in enumerate(BASES):
        if not state.base_turns(player):
            leds.set("pegs", base, AMBER, pulse(1.5))


def _show_winner(
    leds: Frame, state: KogworksState, seat_colours: tuple[tuple[int, int, int], ...]
) -> None:
    outcome = state.outcome()
    if outcome is None or not outcome.winners:
        return
    winner = outcome.winners[0]
    path = state.winning_group() or [BASES[winner]]
    leds.chase("pegs", seat_colours[winner], period=1.5, indices=path)
    leds.chase("seats", seat_colours[winner], period=1.5, indices=[winner])


class KogworksAdapter(TableAdapter):
    """Kogworks: the camera reads the peg disk; a settled board is a move, LEDs under the pegs."""

    game = "kogworks"
    places_segment = "pegs"
    player_counts: Mapping[str, Sequence[int]] = {"": (2,)}

    def draw(self, state: State) -> str:
        """The public position as the terminal draws it."""
        return render(state)

    def camera_regions(self) -> tuple[CameraRegion, ...]:
        """The peg disk, read peg by peg."""
        return (CameraRegion("disk", PEG_DISK),)

    def judge(
        self,
        state: State,
        observation: Any,
        before: State | None,
        camera_requests: Sequence[Request] = (),
    ) -> Verdict:
        """A settled reading of the disk ((row, column) -> colour) against the game."""
        assert isinstance(state, KogworksState)
        return judge(state, pieces_from_reading(observation), before)  # type: ignore[arg-type]

    def explanations(self, state: State, before: State | None) -> Explanations:
        """The disk's next positions: in sync, every move (legal or not), a take-back, a cog
        lifted, the other colour placed (:mod:`cogtable.tables.kogworks.explain`)."""
        assert isinstance(state, KogworksState)
        return explanations(state, before if isinstance(before, KogworksState) else None)

    def differing(self, state: State, observation: Any) -> tuple[int, ...]:
        """The pegs where the disk differs from the game."""
        assert isinstance(state, KogworksState)
        return differing(state, pieces_from_reading(observation))

    def difference_words(self, state: State, observation: Any) -> str:
        """Each differing peg, what the disk shows there and what the game has ("9.1: a red
        cog, the game has none")."""
        assert isinstance(state, KogworksState)
        seen, expected = pieces_from_reading(observation), pieces_of(state)
        return "; ".join(
            f"{peg_name(peg)}: {_cog_words(seen.get(peg))},"
            f" the game has {_cog_words(expected.get(peg), 'none')}"
            for peg in differing(state, seen)
        )

    def places_of(self, action: Action) -> tuple[int, ...]:
        """The pegs a placement or move touches."""
        return pegs_of_action(action)

    def put_right(self, state: State, action: Action) -> str:
        """A placement taken back: lift its cog; a move: carry the cog back."""
        if isinstance(action, Move):
            return f"move the cog back from {peg_name(action.target)} to {peg_name(action.source)}"
        return "lift the cog"

    def parse(self, text: str, state: State, player: int) -> Action | None:
        """A move typed in Kogworks notation; a ValueError says what is wrong with it."""
        return parse_move(text, player)

    def frame(self, state: State, scene: Scene, template: Frame) -> Frame:
        """The peg LEDs and seat LEDs in the LED language (docs/ARCHITECTURE.md)."""
        assert isinstance(state, KogworksState)
        return frame(state, scene.verdict, scene.seat_colours, template, scene.accepted)

    def arrangement(self) -> dict[str, Sequence[Sequence[int]]]:
        """The peg LEDs drawn as the triangle."""
        return {"pegs": PEG_ROWS}
