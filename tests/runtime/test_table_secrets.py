"""Secrets stay secret: what the table shows (status, screen) never names a hidden card.

A deal, a draw from a player's deck and a card laid face down are answered at
the console, but the status file and the screen the whole table reads say
them by purpose only (docs/ARCHITECTURE.md, "What the table must sense").
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.sensors import Sensors
from cogtable.table import GameTable
from games.core import Action
from tests.runtime.neutral_helpers import make_table

COOKIE = GameChoice("cookie", {"players": 4})
ROLES = ("Cookie", "Blue", "Strontium", "37")


def shown(table: GameTable) -> str:
    """Everything the table shows to all: the status (as the status file has it), the screen."""
    return json.dumps(table.status().to_json()) + "\n" + "\n".join(table.screen_lines())


def cookie_table(tmp_path: Path) -> GameTable:
    tmp_path.mkdir(parents=True, exist_ok=True)
    table, _ = make_table(tmp_path / "journal.sqlite3", COOKIE, Sensors(dice=True))
    return table


def deal(table: GameTable, label: str) -> Action:
    asked = table.asking()[0]
    assert asked.request.kind == "deal", asked
    before = len(table.state.history)
    table.handle(ConsoleCommand(label, answers=asked.key), 1.0)
    assert len(table.state.history) == before + 1, table.status().message
    return table.state.history[-1]


def test_a_dealt_role_card_is_not_named_in_the_status(tmp_path: Path) -> None:
    """Two tables that differ only in the role dealt show the same (the reference card names
    every role, so the role's name alone is no test)."""
    table, other = cookie_table(tmp_path / "a"), cookie_table(tmp_path / "b")
    dealt = deal(table, "Strontium")
    deal(other, "Cookie")
    assert shown(table) == shown(other)
    assert dealt.notation() not in shown(table)
    assert table.status().last == "deal for P1's role card"


def test_a_refused_deal_does_not_list_the_cards_left(tmp_path: Path) -> None:
    """Listing the roles still to deal would name, by elimination, the roles already dealt."""
    table = cookie_table(tmp_path)
    deal(table, "37")
    table.handle(ConsoleCommand("zzz", answers=table.asking()[0].key), 2.0)
    message = table.status().message
    assert "not possible for P2's role card" in message and "zzz" not in message
    for role in ROLES:
        assert role not in message, f"the refusal names {role}: {message}"


def test_a_card_laid_face_down_is_not_named(tmp_path: Path) -> None:
    table = cookie_table(tmp_path)
    for role in ROLES:
        deal(table, role)
    rng = random.Random(0)
    asked = table.asking()[0]
    assert asked.request.kind == "choice"
    play = rng.choice(asked.request.options)
    table.handle(ConsoleCommand(play.label, seat=asked.request.player, answers=asked.key), 3.0)
    assert table.state.history[-1] == play.action
    assert table.status().last == "P1 laid a card face down"
    assert play.action.notation() not in shown(table), table.status()


def test_a_card_drawn_from_a_players_deck_is_not_named(tmp_path: Path) -> None:
    table, _ = make_table(
        tmp_path / "journal.sqlite3", GameChoice("commissars", {"players": 2}), Sensors()
    )
    asked = table.asking()[0]
    assert (asked.request.kind, asked.request.player) == ("draw", 0)
    table.handle(ConsoleCommand("Revolution", answers=asked.key), 1.0)
    assert len(table.state.history) == 1
    assert "Revolution" not in shown(table), table.status()
    table.handle(ConsoleCommand("no such card", answers=table.asking()[0].key), 2.0)
    message = table.status().message
    assert "is not possible for player 1's deck" in message
    for label in asked.request.labels():
        assert label not in message, f"the refusal lists player 1's deck: {message}"
