"""One table, every game: the adapter protocol, the LED frame of each game, choosing a game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cogtable.cli import main
from cogtable.errors import UserError
from cogtable.game_choice import GameChoice, choose, missing, refereeable, unavailable
from cogtable.sensing import open_requests
from cogtable.sensors import Sensors
from cogtable.tables import adapter_for, table_games
from cogtable.tables.base import Scene, TableAdapter, Verdict
from games.core import CHANCE, State, new_game
from hardware.leds import SOLID, Frame
from hardware.profile import default_profile_path, load_profile
from tests.runtime.neutral_helpers import (
    GAMES,
    colours_of,
    find_state,
    hidden_blitz,
    lit_seats,
    past_chance,
    play_until,
)

MOCK = load_profile()
TWO_SEATS_PATH = default_profile_path().parent / "two-seat.toml"
TWO_SEATS = load_profile(TWO_SEATS_PATH)
COLOURS = colours_of(MOCK)
OPTIONS: dict[str, dict[str, Any]] = {
    "cog": {"players": 3},
    "commissars": {"players": 4},
    "cookie": {"players": 5},
    "kogworks": {},
}


def frame_of(state: State, sensors: Sensors | None = None) -> Frame:
    """The adapter's frame for ``state``, with the requests the table would ask for."""
    adapter = adapter_for(state.game)
    asked = open_requests(state, 1, adapter, sensors or Sensors.of(MOCK))
    scene = Scene(
        verdict=Verdict("in-sync"),
        seat_colours=COLOURS,
        requests=tuple(ask.request for ask in asked),
        routes=tuple(ask.route for ask in asked),
    )
    return adapter.frame(state, scene, Frame.for_profile(MOCK))


# -- the adapters ------------------------------------------------------------------


def test_every_game_has_an_adapter_named_after_it() -> None:
    assert table_games() == list(GAMES)
    for game in GAMES:
        adapter = adapter_for(game)
        assert isinstance(adapter, TableAdapter)
        assert adapter.game == game
        assert type(adapter_for(game)) is type(adapter)


def test_a_game_without_an_adapter_is_one_line_naming_the_known_games() -> None:
    with pytest.raises(ValueError, match="no table adapter for the game 'chess'") as error:
        adapter_for("chess")
    assert "\n" not in str(error.value)
    assert all(game in str(error.value) for game in GAMES)
    with pytest.raises(ValueError):
        adapter_for("base")  # the shared module is no game


def test_kogworks_and_cog_read_the_camera_the_card_games_say_why_not() -> None:
    readers = {"kogworks": ["peg-disk"], "cog": ["parts"] * 5}
    for game in GAMES:
        adapter = adapter_for(game)
        if game in readers:
            assert [region.reader for region in adapter.camera_regions()] == readers[game]
            assert adapter.start_in_sync() is False
            assert "adapter" not in adapter.camera_note
        else:
            assert adapter.camera_regions() == ()
            assert adapter.start_in_sync() is True
            assert "camera" in adapter.camera_note


# -- the seat LEDs: whose turn, who won -------------------------------------------------


@pytest.mark.parametrize("game", ["cog", "commissars", "cookie"])
def test_a_fresh_game_lights_the_seat_of_the_player_who_acts(game: str) -> None:
    state = past_chance(new_game(game, OPTIONS[game], seed=3))
    adapter = adapter_for(game)
    acting = adapter.waited_for(state)
    assert acting, "a player must act once the opening chance is done"
    leds = frame_of(state)
    first = leds.look("seats", acting[0])
    assert (first.colour, first.animation) == (COLOURS[acting[0]], SOLID)
    assert set(lit_seats(leds)) <= set(acting), "only acting seats are lit"
    for player in acting[1:]:
        look = leds.look("seats", player)
        assert look.colour == COLOURS[player] and look.animation.kind == "pulse"


def test_a_fresh_kogworks_game_lights_the_mover_solid() -> None:
    state = new_game("kogworks", {}, seed=0)
    leds = frame_of(state)
    mover = state.mover  # type: ignore[attr-defined]
    assert lit_seats(leds) == {mover: leds.look("seats", mover)}
    assert leds.look("seats", mover).colour == COLOURS[mover]
    assert leds.look("seats", mover).animation == SOLID
    state.apply(state.legal_actions()[0])
    assert set(lit_seats(frame_of(state))) == {1 - mover}


def test_a_die_for_the_table_pulses_the_status_led_and_no_seat() -> None:
    state = new_game("cog", {"players": 2}, seed=1)
    assert state.to_act() == (CHANCE,)
    leds = frame_of(state)
    assert lit_seats(leds) == {}
    status = leds.look("status", 0)
    assert status.animation.kind == "pulse" and status.colour != (0, 0, 0)


def test_commissars_never_lights_a_hidden_blitz_holder() -> None:
    state = find_state("commissars", {"players": 4}, hidden_blitz)
    waited = tuple(state.view()["to_act"])
    hidden = set(state.to_act()) - set(waited)
    assert adapter_for("commissars").waited_for(state) == waited
    leds = frame_of(state)
    assert set(lit_seats(leds)) == set(waited)
    for seat in hidden:
        assert leds.look("seats", seat).colour == (0, 0, 0), f"seat {seat} may Blitz: secret"
    asked = open_requests(state, 1, adapter_for("commissars"), Sensors.of(MOCK))
    assert {ask.request.player for ask in asked} == set(waited)
    assert not hidden & {entry["player"] for entry in (ask.to_json() for ask in asked)}


def test_commissars_response_window_lights_only_the_responder() -> None:
    def responding(state: State) -> bool:
        return state.window is not None and not state.tasks  # type: ignore[attr-defined]

    state = find_state("commissars", {"players": 5}, responding)
    (responder,) = state.view()["to_act"]
    leds = frame_of(state)
    assert set(lit_seats(leds)) == {responder}
    assert leds.look("seats", responder).animation == SOLID


def finished_with_a_winner(game: str, options: dict[str, Any]) -> State:
    for seed in range(30):
        state = play_until(game, options, seed, lambda s: s.is_over())
        outcome = state.outcome() if state is not None else None
        if outcome is not None and outcome.winners:
            return state  # type: ignore[return-value]
    raise AssertionError(f"no seeded {game} game had a winner")


@pytest.mark.parametrize("game", GAMES)
def test_the_winners_seats_chase_in_their_colours_at_the_end(game: str) -> None:
    state = finished_with_a_winner(game, OPTIONS[game])
    winners = state.outcome().winners  # type: ignore[union-attr]
    leds = frame_of(state)
    assert set(lit_seats(leds)) == set(winners)
    for winner in winners:
        look = leds.look("seats", winner)
        assert (look.colour, look.animation.kind) == (COLOURS[winner], "chase")
    assert open_requests(state, 1, adapter_for(game), Sensors(dice=True)) == []


# -- which games this table can referee ----------------------------------------------------


def test_a_two_seat_table_names_the_game_it_cannot_referee() -> None:
    cookie = adapter_for("cookie")
    assert missing(cookie, TWO_SEATS, {"variant": "hunt", "players": 4}) == [
        "cookie hunt: needs 4 seats, this table has 2"
    ]
    assert unavailable(TWO_SEATS) == ["cookie hunt: needs 4 seats, this table has 2"]
    labels = [choice.label() for choice in refereeable(TWO_SEATS)]
    assert labels == ["cog", "commissars", "cookie big-hunt", "kogworks"]
    assert all(choice.options.get("players", 2) == 2 for choice in refereeable(TWO_SEATS))


def test_the_missing_parts_name_the_player_count_and_the_led_segment() -> None:
    assert missing(adapter_for("cog"), TWO_SEATS, {"players": 5}) == [
        "cog: is for 2 to 4 players, not 5"
    ]
    assert missing(adapter_for("commissars"), TWO_SEATS, {"players": 3}) == [
        "commissars: needs 3 seats, this table has 2"
    ]
    assert missing(adapter_for("commissars"), MOCK, {"players": 6}) == []
    segments = tuple(segment for segment in MOCK.leds.segments if segment.name != "pegs")
    no_pegs = replace(MOCK, leds=replace(MOCK.leds, segments=segments))
    assert missing(adapter_for("kogworks"), no_pegs, {}) == [
        "kogworks: no LED segment 'pegs' in this profile"
    ]
    assert missing(adapter_for("cog"), no_pegs, {"players": 4}) == []


def test_the_six_seat_mock_table_referees_all_five_choices() -> None:
    choices = refereeable(MOCK)
    assert [choice.label() for choice in choices] == [
        "cog",
        "commissars",
        "cookie hunt",
        "cookie big-hunt",
        "kogworks",
    ]
    assert unavailable(MOCK) == []
    players = {choice.label(): choice.options.get("players") for choice in choices}
    assert players == {
        "cog": 4,
        "commissars": 6,
        "cookie hunt": 6,
        "cookie big-hunt": 4,
        "kogworks": None,
    }
    for choice in choices:
        new_game(choice.game, choice.options, 0)  # every fitted choice is a valid game


def test_choose_fits_the_players_to_the_seats_and_keeps_given_options() -> None:
    assert choose(MOCK) == GameChoice("kogworks", {})
    assert choose(MOCK, "cog") == GameChoice("cog", {"players": 4})
    assert choose(TWO_SEATS, "commissars") == GameChoice("commissars", {"players": 2})
    assert choose(MOCK, "commissars", {"players": 3, "max_turns": 5}).options == {
        "players": 3,
        "max_turns": 5,
        "hands": "unknown",  # the mock profile's card mat: table mode
    }
    assert choose(MOCK, "cookie", {"variant": "big-hunt"}).label() == "cookie big-hunt"


@pytest.mark.parametrize(
    ("profile", "game", "options", "words"),
    [
        (MOCK, "chess", {}, "no such game 'chess'"),
        (MOCK, "cog", {"players": 5}, "2 to 4 players"),
        (MOCK, "commissars", {"players": 7}, "2 to 6"),
        (TWO_SEATS, "commissars", {"players": 3}, "needs 3 seats, this table has 2"),
        (TWO_SEATS, "cookie", {"variant": "hunt"}, "cookie hunt: needs 4 seats"),
        (MOCK, "cog", {"bogus": 1}, "unknown option 'bogus'"),
        (MOCK, "cog", {"players": "two"}, "option 'players'"),
        (MOCK, "cookie", {"variant": "small-hunt"}, "option 'variant'"),
    ],
)
def test_choose_refuses_in_one_line(
    profile: Any, game: str, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(UserError) as error:
        choose(profile, game, options)
    assert words in str(error.value)
    assert "\n" not in str(error.value)


def test_games_available_names_what_a_two_seat_table_lacks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games", "--available", "--profile", str(TWO_SEATS_PATH)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:4]] == ["cog", "commissars", "cookie", "kogworks"]
    assert lines[2].split()[:2] == ["cookie", "big-hunt"]
    assert lines[4:] == ["not on this table:", "  cookie hunt: needs 4 seats, this table has 2"]
    assert main(["games", "--available"]) == 0
    assert "not on this table" not in capsys.readouterr().out
