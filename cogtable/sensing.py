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

from cogtable.adapters.base import TableAdapter, is_public
from games.core import CHANCE, Request, State
from hardware.profile import Profile

Route = Literal["camera", "dice", "console"]
SHOWN_LABELS = 40
"""At most this many answers are listed in the status (a choice may have hundreds)."""


@dataclass(frozen=True)
class Sensors:
    """The sensors a profile declares that can answer requests."""

    dice: bool = False
    """Electronic dice on the Pico, or a GPIO roll button."""
    seat_buttons: bool = False
    """Confirm or pass buttons at the seats (Pico or GPIO)."""

    @classmethod
    def of(cls, profile: Profile) -> Sensors:
        """What ``profile`` declares."""
        dice = bool(profile.dice.pico) or profile.dice.roll_pin is not None
        buttons = any(
            button is not None
            for seat in profile.seats
            for button in (seat.confirm_button, seat.pass_button, seat.confirm_pin, seat.pass_pin)
        )
        return cls(dice=dice, seat_buttons=buttons)


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


def open_requests(
    state: State, game_id: int, adapter: TableAdapter, sensors: Sensors
) -> list[Asked]:
    """The requests the table asks for now, public ones only, each routed."""
    if state.is_over():
        return []
    acting = state.to_act()
    ply = len(state.history)
    if acting == (CHANCE,):
        request = state.chance_request()
        return [Asked(f"{game_id}/{ply}/chance", request, route(request, adapter, sensors))]
    return [
        Asked(f"{game_id}/{ply}/{player}", request, route(request, adapter, sensors))
        for player in adapter.waited_for(state)
        for request in [state.choice_request(player)]
    ]


def route(request: Request, adapter: TableAdapter, sensors: Sensors) -> Route:
    """Where the answer to ``request`` comes from on this table."""
    if request.kind == "die" and sensors.dice:
        return "dice"
    if any(request.kind in region.answers for region in adapter.camera_regions()):
        return "camera"
    return "console"
