"""What the table must sense: the engine's requests, routed to a sensor or the console.

An engine says what it waits for as :class:`games.core.Request` data: a die,
a draw, a deal, a reveal or a player's choice. :func:`open_requests` turns
the state's requests into :class:`Asked` entries, each with a stable key
(so an answer to a request no longer asked is refused, and a request
answered twice is applied once) and a route: the sensor the profile declares
for its kind, or the console, where a person answers (the terminal asks, the
status file says what the table waits for, and a seat's confirm button
accepts a default where the game has one).

Routes:

- ``camera``: the game's adapter reads it from a camera region (a Kogworks move);
- ``dice``: the profile's dice (the Pico's electronic dice, a GPIO roll button);
- ``console``: everything no sensor serves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cogtable.sensors import Sensors
from cogtable.tables.base import TableAdapter, is_public
from games.core import CHANCE, Request, State

Route = Literal["camera", "dice", "console"]
SHOWN_LABELS = 40
"""At most this many answers are listed in the status (a choice may have hundreds)."""


@dataclass(frozen=True)
class Asked:
    """One open request, its key and where its answer comes from."""

    key: str
    request: Request
    route: Route

    def question(self, state: State) -> str:
        """The request in words, for the screen and the status file."""
        request = self.request
        whose = "" if request.player is None else f"{state.player_name(request.player)}: "
        how = {
            "camera": "on the board",
            "dice": "roll the die",
            "console": "type it at the console",
        }[self.route]
        if request.kind == "choice":
            default = request.default
            button = f", or press confirm for {default.notation()}" if default is not None else ""
            return f"{whose}{request.purpose} ({how}{button})"
        return f"{whose}{request.kind} for {request.purpose} ({how})"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready for the status file: the request, its key and route.

        The answers are listed only where the whole table may see them (a die,
        the letter bag); a hand, a deal or a deck's contents are only counted.
        """
        data = {"key": self.key, "route": self.route, **self.request.to_json()}
        labels = data["options"]
        if not is_public(self.request):
            data["options"] = []
            data["more_options"] = len(labels)
        elif len(labels) > SHOWN_LABELS:
            data["options"] = labels[:SHOWN_LABELS]
            data["more_options"] = len(labels) - SHOWN_LABELS
        return data


class KeyBook:
    """Gives each open request a key that stays while it is open and is never given again.

    A request keeps its key from the moment it opens until it is answered:
    with several players asked at once, one player's answer leaves the
    others' keys as they were. An answered request's key is retired (the next
    draw from the same slot gets a new one), and an undo or a new game
    retires every key, so an answer typed for a question already answered,
    or taken back, is never applied to the next one.
    """

    def __init__(self) -> None:
        self.epoch = 0
        self.open: dict[str, str] = {}

    def key(self, game_id: int, ply: int, whose: str) -> str:
        """The key of the request ``whose`` (a player number, or ``chance``) open at ``ply``."""
        if whose not in self.open:
            self.open[whose] = f"{game_id}/{ply}/{self.epoch}/{whose}"
        return self.open[whose]

    def answered(self, player: int) -> None:
        """``player`` (or chance) acted: their key and any chance key are retired."""
        self.open.pop(str(player), None)
        self.open.pop("chance", None)

    def retire_all(self) -> None:
        """After an undo or a new game: no key given so far stands any more."""
        self.epoch += 1
        self.open.clear()


def open_requests(
    state: State,
    game_id: int,
    adapter: TableAdapter,
    sensors: Sensors,
    keys: KeyBook | None = None,
) -> list[Asked]:
    """The requests the table asks for now, public ones only, each routed and keyed."""
    keys = keys or KeyBook()
    if state.is_over():
        return []
    ply = len(state.history)
    if state.to_act() == (CHANCE,):
        request = state.chance_request()
        key = keys.key(game_id, ply, "chance")
        return [Asked(key, request, route(state, request, adapter, sensors))]
    return [
        Asked(keys.key(game_id, ply, str(player)), request, route(state, request, adapter, sensors))
        for player in adapter.waited_for(state)
        for request in [state.choice_request(player)]
    ]


def route(state: State, request: Request, adapter: TableAdapter, sensors: Sensors) -> Route:
    """Where the answer to ``request`` comes from on this table.

    A die goes to the camera only where the profile says the camera reads the
    dice and the game's camera sees that die (a die in a board slot, not a
    re-roll in a player's hand); else to the Pico's dice or a roll button.
    """
    on_camera = adapter.camera_reads(state, request)
    if request.kind == "die":
        if sensors.camera_dice and on_camera:
            return "camera"
        return "dice" if sensors.dice else "console"
    return "camera" if on_camera else "console"
