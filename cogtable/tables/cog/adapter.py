"""C.O.G. at the table: the camera reads the board and every mat; the LEDs guide each phase.

The camera reads the board (cog spaces, top-slot and centre letters, the
turn-order bonus letter, dice in their slots, pawns on the track) and one mat
per player (the grid, the reserve, star tokens), each by its own markers
(:mod:`cogtable.tables.cog.parts`). A settled reading is compared with the
game, place by place, and explained (docs/ARCHITECTURE.md, "Reading the physical board"):

- Phase I: a letter appearing in a top slot, a centre square, the turn-order
  bonus slot or a player's reserve answers the bag draw the engine waits for
  (a letter the bag holds no more of is refused); a die appearing in its slot
  answers the roll, where the profile's dice are read by the camera;
- Phase II: a cog appearing on a space is the current player's placement,
  accepted only if legal; otherwise that space blinks red until the cog is
  moved. Placements a star power may change (a re-roll, a swap, a protected
  turn-order space) are a choice: the seat's confirm button takes the plain
  one, the console any. A bump is the bumped cog moved down and the new one
  put in its place. A letter taken from a centre square answers the plus icon;
- Phase IV: new tiles on a mat's grid are the word they spell (the engine
  decides: a permitted word, the crossword rules, wild tiles); tiles taken off
  are a deconstruction. The reserve must have given exactly those tiles. A
  word not allowed blinks that seat red, and the status names the cells and
  the reason, until the tiles are moved;
- anything else that differs (letters still on their way to a reserve, a pawn
  not yet moved) is shown, not refused: the status says what to put where,
  and a pawn that is not where it must go blinks its space on the track.

What the camera may see next, for the commit decision, is in
:mod:`cogtable.tables.cog.explain`; Phase IV's mat changes in :mod:`cogtable.tables.cog.words`;
the LEDs in :mod:`cogtable.tables.cog.leds`.

Cabinet-card draws and every other choice (activations, item cards, the
limits of Phase V) go to the console. Victory points are never shown.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from cogtable.commit_decision import Explanations
from cogtable.tables.base import (
    PRINTED_PARTS,
    CameraRegion,
    Scene,
    TableAdapter,
    Verdict,
)
from cogtable.tables.cog.explain import PLACEMENTS, draw_place, explanations
from cogtable.tables.cog.leds import placement_space, show_clock, show_pawns, show_spaces
from cogtable.tables.cog.parts import (
    BOARD,
    EDGES,
    PIECE_COLOURS,
    CogSpace,
    Observation,
    die_slot_of,
    expected_contents,
    expected_view,
    mat_name,
    mat_player,
    part_layouts,
    seen_contents,
    track_space,
)
from cogtable.tables.cog.terminal import render
from cogtable.tables.cog.words import MAT_CHANGES, mat_change, reserve_words, try_action, word
from games.cog.actions import (
    DrawLetter,
    RollDie,
    TakeCard,
    TakeCentre,
    TakeDie,
    TakeLetters,
    TakeTurnOrder,
)
from games.cog.edition import load_edition
from games.cog.effects import (
    Choice,
    DieRoll,
    Effect,
    LetterDraw,
    LetterFor,
    PickCentre,
)
from games.cog.state import CogState
from games.core import CHANCE, Action, Request, State
from hardware.leds import Frame
from vision.layout import EMPTY, LETTERS, WILD, pawn_colours

SEGMENTS = ("cog-spaces", "track", "clock")
"""The LED segments C.O.G. draws on where the profile has them (none is required)."""


class CogAdapter(TableAdapter):
    """C.O.G. for 2 to 4 players: the board and the mats read by the camera."""

    game = "cog"
    places_segment = "cog-spaces"
    player_counts: Mapping[str, Sequence[int]] = {"": (2, 3, 4)}

    def draw(self, state: State) -> str:
        """The public position as the terminal draws it."""
        return render(state)

    def camera_regions(self) -> tuple[CameraRegion, ...]:
        """The board and the four mats (a game uses the mats of its players)."""
        return _regions()

    def regions_for(self, state: State) -> tuple[CameraRegion, ...]:
        """The parts this game reads: the board and its players' mats."""
        names = {BOARD, *(mat_name(player) for player in range(state.num_players))}
        return tuple(region for region in self.camera_regions() if region.name in names)

    def segments_needed(self) -> tuple[str, ...]:
        """No segment is required: the seats say whose turn, the rest is shown where it exists."""
        return ()

    def segments_drawn(self) -> tuple[str, ...]:
        """The segments the terminal shows for C.O.G. (those of the profile)."""
        return SEGMENTS

    def camera_reads(self, state: State, request: Request) -> bool:
        """Letters drawn onto the board or into a reserve, dice in their slots, and the choices
        made with pieces: cogs placed (Phase II), words laid, a centre letter taken, the
        limits of Phase V. Activations (Phase III) and card draws go to the console."""
        assert isinstance(state, CogState)
        head = state.waiting()
        if request.kind == "choice":
            return state.phase in ("collect", "construct") or isinstance(head, Choice)
        return isinstance(head, LetterDraw | DieRoll)

    # -- a settled reading ---------------------------------------------------------

    def judge(
        self,
        state: State,
        observation: Any,
        before: State | None,
        camera_requests: Sequence[Request] = (),
    ) -> Verdict:
        """A settled reading of the board and mats against the game (see the module docstring)."""
        assert isinstance(state, CogState)
        seen: Observation = observation
        if not _complete(state, seen):
            return Verdict(
                "nothing", reason="waiting for the camera to see the board and every mat"
            )
        differing = _differing(expected_view(state), seen) or _contents_differ(state, seen)
        if not differing:
            return Verdict("in-sync")
        if _taken_back(state, seen, before):
            return Verdict("take-back", reason="the last move was taken back")
        if not state.is_over():
            verdict = _explain(state, seen, camera_requests)
            if verdict is not None:
                return verdict
        return _out_of_sync(state, seen)

    def explanations(self, state: State, before: State | None) -> Explanations:
        """What the board and mats may show next, for the commit decision
        (:mod:`cogtable.tables.cog.explain`; places named ``(part, place)``)."""
        assert isinstance(state, CogState)
        return explanations(state, before if isinstance(before, CogState) else None)

    def differing(self, state: State, observation: Any) -> tuple[int, ...]:
        """The cog spaces where the board differs from the game (mats are named in the status)."""
        assert isinstance(state, CogState)
        if not _complete(state, observation):
            return ()
        return _cog_leds(_differing(expected_view(state), observation))

    def resync(self, state: State, observation: Any) -> Verdict:
        """In sync once every part matches the game; until then, what to put where."""
        assert isinstance(state, CogState)
        if not _complete(state, observation):
            return Verdict(
                "out-of-sync", reason="waiting for the camera to see the board and every mat"
            )
        if _differing(expected_view(state), observation) or _contents_differ(state, observation):
            return _out_of_sync(state, observation)
        return Verdict("in-sync", reason="the table matches the game")

    def places_of(self, action: Action) -> tuple[int, ...]:
        """The cog space a placement took, to flash green."""
        edge_slot = placement_space(action)
        return (edge_slot.led,) if edge_slot else ()

    # -- LEDs ----------------------------------------------------------------------------

    def frame(self, state: State, scene: Scene, template: Frame) -> Frame:
        """Seats for the turn order, cog spaces for where a cog may go, the track, the clock."""
        assert isinstance(state, CogState)
        leds = super().frame(state, scene, template)  # whose turn, who is asked, who won
        if not state.is_over():
            show_clock(leds, state)
            show_pawns(leds, state, scene)
            show_spaces(leds, state, scene)
        return leds


@functools.cache
def _regions() -> tuple[CameraRegion, ...]:
    """The built-in edition's parts as camera regions, built once (the edition never changes)."""
    edition = load_edition()
    if edition.layout is None:
        return ()
    return tuple(
        CameraRegion(part.name, PRINTED_PARTS, ("draw", "die", "choice"), part)
        for part in part_layouts(edition, 4)
    )


# -- explaining a difference -------------------------------------------------------


def _complete(state: CogState, seen: Observation) -> bool:
    return BOARD in seen and all(mat_name(p) in seen for p in range(state.num_players))


def _differing(
    expected: Mapping[str, Mapping[str, str]], seen: Observation
) -> list[tuple[str, str]]:
    """Every (part, place) whose label differs from the game (reserves and stars aside)."""
    return [
        (part, place)
        for part, places in expected.items()
        for place, label in places.items()
        if seen.get(part, {}).get(place, EMPTY) != label
    ]


def _contents_differ(state: CogState, seen: Observation) -> list[tuple[str, str]]:
    """The mats whose reserve or stars differ from the game."""
    return [
        (mat_name(p), "reserve")
        for p in range(state.num_players)
        if seen_contents(seen[mat_name(p)]) != expected_contents(state, p)
    ]


def _taken_back(state: CogState, seen: Observation, before: State | None) -> bool:
    """The table is back as it was before the last action, a player's (not a draw)."""
    if not isinstance(before, CogState) or not state.history:
        return False
    if state.history[-1].player == CHANCE:
        return False
    return not _differing(expected_view(before), seen) and not _contents_differ(before, seen)


def _explain(state: CogState, seen: Observation, asked: Sequence[Request]) -> Verdict | None:
    """The action (or the refusal) a change stands for, if any explainer finds one."""
    if state.to_act() == (CHANCE,):
        return _chance(state, seen, asked) if asked else None
    refusals = []
    for player in state.to_act():
        for explainer in (_placement, _centre_taken, mat_change, word):
            verdict = explainer(state, seen, player)
            if verdict is not None and verdict.kind in ("move", "choose"):
                return verdict
            if verdict is not None:
                refusals.append(verdict)
    return refusals[0] if refusals else None


def _chance(state: CogState, seen: Observation, asked: Sequence[Request]) -> Verdict | None:
    """A letter laid where the bag draw goes, or a die in the slot the roll is for."""
    head = state.waiting()
    if head is None or state.chance_request() not in asked:
        return None
    if isinstance(head, DieRoll):
        value = seen[BOARD].get(die_slot_of(state, head.die), EMPTY)
        return (
            try_action(state, RollDie(player=CHANCE, value=int(value))) if value.isdigit() else None
        )
    letter = _drawn_letter(state, seen, head)
    if letter == WILD:
        return Verdict("illegal", reason="lay the drawn letter face up, then turn it over")
    return None if letter is None else try_action(state, DrawLetter(player=CHANCE, letter=letter))


def _drawn_letter(state: CogState, seen: Observation, head: Effect) -> str | None:
    """The letter seen where the waiting draw goes (None: nothing new there yet)."""
    if isinstance(head, LetterFor):
        extra = (
            seen_contents(seen[mat_name(head.player)]).reserve
            - expected_contents(state, head.player).reserve
        )
        return next(iter(extra)) if sum(extra.values()) == 1 else None
    place = draw_place(state)
    if place is None:
        return None
    label = seen[BOARD].get(place, EMPTY)
    return (
        label if label in (*LETTERS, WILD) and expected_view(state)[BOARD][place] != label else None
    )


def _cog_labels(view: Mapping[str, str]) -> dict[str, str]:
    return {place: label for place, label in view.items() if CogSpace.of(place)}


def _placement(state: CogState, seen: Observation, player: int) -> Verdict | None:
    """A cog put on a space: the legal placements it stands for, or why it is refused.

    A placement is recognised by the whole row of cog spaces it leaves (a
    bump moves the bumped cogs down), so exactly the legal placements whose
    result is what the camera sees are offered.
    """
    cogs = _cog_labels(seen[BOARD])
    expected = _cog_labels(expected_view(state)[BOARD])
    if cogs == expected or state.phase != "collect":
        return None
    matching = [
        action
        for action in state.legal_actions(player)
        if isinstance(action, PLACEMENTS) and _cogs_after(state, action) == cogs
    ]
    if matching:
        return _placements_seen(sorted(matching, key=lambda action: action.pays_star))
    added = [place for place, label in cogs.items() if label and expected.get(place) != label]
    if len(added) != 1:
        return None
    space, led = added[0], _led_of(added[0])
    if cogs[space] != PIECE_COLOURS[player]:
        return Verdict("illegal", places=led, reason=f"it is {state.player_name(player)}'s turn")
    return _refused_placement(state, player, space, led)


def _placements_seen(matching: list[Action]) -> Verdict:
    """One placement: the move; several (with or without a star power): a choice."""
    plain = matching[0]
    space = placement_space(plain)
    led = (space.led,) if space else ()
    if len(matching) == 1:
        return Verdict("move", action=plain, reason=plain.safe_notation())
    choices = " or ".join(action.safe_notation() for action in matching)
    return Verdict(
        "choose",
        places=led,
        options=tuple(matching),
        reason=f"confirm for {plain.safe_notation()}, or type {choices}",
    )


def _cogs_after(state: CogState, action: Action) -> dict[str, str]:
    twin = state.clone()
    twin.apply(action)
    return _cog_labels(expected_view(twin)[BOARD])


def _refused_placement(state: CogState, player: int, space: str, led: tuple[int, ...]) -> Verdict:
    """Why a cog on ``space`` is not a legal placement, in the engine's words."""
    plain = _plain_placement(state, player, space)
    if plain is None:
        return Verdict("illegal", places=led, reason=f"{space} is not a space in this game")
    verdict = try_action(state, plain, led)
    if verdict.kind == "move":  # legal alone, but the rest of the board does not follow
        return Verdict(
            "illegal", action=plain, places=led, reason="move the other cogs back as they were"
        )
    return verdict


def _plain_placement(state: CogState, player: int, space: str) -> Action | None:
    cog_space = CogSpace.of(space)
    assert cog_space is not None, space
    edge, slot = cog_space
    if edge == "top":
        return TakeLetters(player=player, slot=slot)
    if edge == "cabinet":
        return TakeCard(player=player, slot=slot)
    if edge == "turn":
        return TakeTurnOrder(player=player, position=slot)
    colour = state.ed.dice[slot]
    return TakeDie(player=player, slot=state.dice.index(colour)) if colour in state.dice else None


def _led_of(space: str) -> tuple[int, ...]:
    """The LED under a board place that is a cog space (none under any other place)."""
    cog_space = CogSpace.of(space)
    return (cog_space.led,) if cog_space else ()


def _cog_leds(places: Sequence[tuple[str, str]]) -> tuple[int, ...]:
    return tuple(sorted(led for part, place in places if part == BOARD for led in _led_of(place)))


def _centre_taken(state: CogState, seen: Observation, player: int) -> Verdict | None:
    """A letter lifted off a centre square when the player must take one (a plus icon)."""
    if not isinstance(state.waiting(), PickCentre):
        return None
    expected = expected_view(state)[BOARD]
    for square in range(len(state.centre)):
        place = f"centre{square + 1}"
        if expected[place] and not seen[BOARD].get(place):
            return try_action(state, TakeCentre(player=player, square=square))
    return None


# -- Phase IV: words -------------------------------------------------------------------


# -- out of sync, in words ---------------------------------------------------------------


def _out_of_sync(state: CogState, seen: Observation) -> Verdict:
    """What still differs, said so a person can put it right; a pawn elsewhere blinks its space."""
    expected = expected_view(state)
    differing = _differing(expected, seen)
    words = [_difference_words(state, expected, seen, part, place) for part, place in differing]
    for part, _ in _contents_differ(state, seen):
        words.append(_contents_words(state, seen, part))
    reason = "; ".join(dict.fromkeys(words[:4])) + (" ..." if len(words) > 4 else "")
    spaces = [track_space(place) for part, place in differing if part == BOARD]
    pawns = tuple(sorted(space for space in spaces if space is not None))
    return Verdict(
        "out-of-sync",
        places=_cog_leds(differing),
        reason=reason,
        other_places=(("track", pawns),) if pawns else (),
    )


def _difference_words(
    state: CogState,
    expected: Mapping[str, Mapping[str, str]],
    seen: Observation,
    part: str,
    place: str,
) -> str:
    want, have = expected[part][place], seen[part].get(place, EMPTY)
    space = track_space(place) if part == BOARD else None
    if space is not None:
        return _pawn_words(space, want, have)
    where = f"{part} {place}"
    if not want:
        return f"take {have} off {where}"
    if not have:
        return f"put {want} on {where}"
    return f"{where} should show {want}, not {have}"


def _pawn_words(space: int, want: str, have: str) -> str:
    """Which pawns to move onto or off track ``space`` (0-based), in words."""
    missing = set(pawn_colours(want)) - set(pawn_colours(have))
    if missing:
        return f"move the {' and '.join(sorted(missing))} pawn to track space {space + 1}"
    return (
        f"move the {' and '.join(sorted(set(pawn_colours(have)) - set(pawn_colours(want))))} "
        f"pawn off track space {space + 1}"
    )


def _contents_words(state: CogState, seen: Observation, part: str) -> str:
    player = mat_player(part)
    assert player is not None, part
    held, want = seen_contents(seen[part]), expected_contents(state, player)
    parts = []
    if held.reserve != want.reserve:
        parts.append(reserve_words(held.reserve, want.reserve).split(": ", 1)[1])
    if held.stars != want.stars:
        parts.append(f"{want.stars} stars, not {held.stars}")
    return f"{state.player_name(player)}'s mat: " + "; ".join(parts)


__all__ = ["EDGES", "MAT_CHANGES", "PLACEMENTS", "CogAdapter", "CogSpace"]
