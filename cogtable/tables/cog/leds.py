"""C.O.G.'s LEDs: the round on the clock, the pawns on the track, the cog spaces.

Where the profile has these segments (none is required): the rounds played on the clock,
where each pawn must be on the track (blinking where the camera sees it is not), and the
cog spaces where the current player may go (dim), refused (red) or differing (amber).
"""

from __future__ import annotations

from cogtable.tables.base import AMBER, DIM, RED, Scene
from cogtable.tables.cog.parts import CogSpace
from games.cog.actions import TakeCard, TakeDie, TakeLetters, TakeTurnOrder
from games.cog.state import CogState
from games.core import CHANCE, Action
from hardware.leds import Frame, blink


def placement_space(action: Action) -> CogSpace | None:
    """The cog space a placement takes (None: not a placement, or a die's)."""
    if isinstance(action, TakeLetters):
        return CogSpace("top", action.slot)
    if isinstance(action, TakeCard):
        return CogSpace("cabinet", action.slot)
    if isinstance(action, TakeTurnOrder):
        return CogSpace("turn", action.position)
    return None  # a die's cog space depends on the game's dice: not flashed


def _size(leds: Frame, segment: str) -> int:
    """How many LEDs the profile gives ``segment`` (0: it has none)."""
    return len(leds.looks.get(segment, ()))


def show_clock(leds: Frame, state: CogState) -> None:
    """The round on the clock segment: rounds played dim, this round bright."""
    for space in range(min(state.rounds, _size(leds, "clock"))):
        if space < state.round - 1:
            leds.set("clock", space, tuple(int(c * DIM) for c in (255, 255, 255)))
        elif space == state.round - 1:
            leds.set("clock", space, (255, 255, 255))


def show_pawns(leds: Frame, state: CogState, scene: Scene) -> None:
    """Where each pawn must be on the track, blinking where the camera sees it is not."""
    if not _size(leds, "track"):
        return
    blinking = dict(scene.verdict.other_places).get("track", ())
    for player, mat in enumerate(state.mats):
        if mat.pawn < _size(leds, "track"):
            colour = scene.seat_colours[player] if player < len(scene.seat_colours) else AMBER
            animation = blink(0.6) if mat.pawn in blinking else None
            if animation is None:
                leds.set("track", mat.pawn, tuple(int(c * DIM) for c in colour))
            else:
                leds.set("track", mat.pawn, colour, animation)


def show_spaces(leds: Frame, state: CogState, scene: Scene) -> None:
    """Cog spaces: where the current player may go (dim), refused (red), differing (amber)."""
    verdict = scene.verdict
    if verdict.kind == "illegal":
        for seat in dict(verdict.other_places).get("seats", ()):
            if 0 <= seat < _size(leds, "seats"):
                leds.set("seats", seat, RED, blink(0.4))  # a word refused: that player's seat
    if not _size(leds, "cog-spaces"):
        return
    if verdict.kind == "illegal":
        leds.fill("cog-spaces", RED, blink(0.4), indices=list(verdict.places))
    elif verdict.kind == "out-of-sync":
        leds.fill("cog-spaces", AMBER, blink(0.8), indices=list(verdict.places))
    elif state.phase == "collect" and state.to_act() != (CHANCE,):
        player = state.to_act()[0]
        colour = scene.seat_colours[player] if player < len(scene.seat_colours) else AMBER
        dim = tuple(int(channel * DIM) for channel in colour)
        leds.fill("cog-spaces", dim, indices=_legal_leds(state, player))


def _legal_leds(state: CogState, player: int) -> list[int]:
    spaces = set()
    for action in state.legal_actions(player):
        if isinstance(action, TakeDie):
            spaces.add(CogSpace("dice", state.ed.dice.index(state.dice[action.slot])).led)
        elif (space := placement_space(action)) is not None:
            spaces.add(space.led)
    return sorted(spaces)
