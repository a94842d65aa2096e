"""The peg and move notation: round trips and clear errors."""

from __future__ import annotations

import pytest

from games.core import BadRecord, decode
from games.kogworks import ACTIONS, NUM_PEGS, Move, Place, parse, parse_peg, peg_at, peg_name


def test_every_peg_prints_and_parses_back() -> None:
    names = [peg_name(peg) for peg in range(NUM_PEGS)]
    assert names[0] == "1.1" and names[-1] == "10.10" and len(set(names)) == NUM_PEGS
    assert [parse_peg(name) for name in names] == list(range(NUM_PEGS))


def test_peg_numbers_run_row_by_row_from_the_apex() -> None:
    assert peg_at(0, 0) == 0 and peg_at(9, 0) == 45 and peg_at(9, 9) == 54
    assert parse_peg("7.3") == peg_at(6, 2)


@pytest.mark.parametrize("player", [0, 1])
def test_every_action_round_trips_through_notation_and_json(player: int) -> None:
    actions = [Place(p, player=player) for p in range(NUM_PEGS)] + [
        Move(a, b, player=player) for a in range(NUM_PEGS) for b in range(NUM_PEGS) if a != b
    ]
    for action in actions:
        assert parse(action.notation(), player) == action
        assert decode(action.to_json(), ACTIONS) == action


def test_notation_examples_from_the_issue() -> None:
    assert parse("+7.3", 0) == Place(peg_at(6, 2), player=0)
    assert parse(" 7.3-8.4 ", 1) == Move(peg_at(6, 2), peg_at(7, 3), player=1)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "nothing written"),
        ("hello", "neither a placement"),
        ("+", "not a peg"),
        ("+11.1", "row 11 does not exist"),
        ("+0.1", "row 0 does not exist"),
        ("+3.4", "row 3 has positions 1 to 3"),
        ("+3.0", "row 3 has positions 1 to 3"),
        ("+3.x", "not a peg"),
        ("7.3-", "not a peg"),
        ("7.3-7.3", "different peg"),
        ("7.3-8.4-9.5", "neither a placement"),
        ("+-3.1", "not a peg"),
    ],
)
def test_bad_text_gets_a_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse(text, 0)


def test_parse_needs_a_real_player() -> None:
    with pytest.raises(ValueError, match="player"):
        parse("+7.3", 2)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Place", "peg": 55, "player": 0},
        {"type": "Place", "peg": -1, "player": 0},
        {"type": "Place", "peg": "7.3", "player": 0},
        {"type": "Place", "peg": True, "player": 0},
        {"type": "Move", "source": 3, "target": 99, "player": 1},
        {"type": "Move", "source": 3, "player": 1},
        {"type": "Jump", "peg": 3, "player": 1},
    ],
)
def test_bad_action_json_is_a_bad_record(data: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(BadRecord):
        decode(data, ACTIONS)
