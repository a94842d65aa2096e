"""Secrets never reach the web page: a hand, victory points, a card laid face down.

Every answer the page can ask for (the live view, the journal's list, a
game's moves and its board after every move) is gathered and searched for
what only one player may know, taken from that player's own ``view(player)``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.journal import Journal
from cogtable.sensing import Sensors
from cogtable.service.runner import StatusWriter
from cogtable.table import GameTable
from cogtable.web.app import create_app
from cogtable.web.table_view import TableFolder
from games.core import State
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import find_state, make_table

COOKIE_ROLES = ("Strontium", "Blue", "Cookie", "37")


def served(state_dir: Path) -> str:
    """Every answer the page can get for every game in ``state_dir``, as one text."""
    client = TestClient(create_app(TableFolder(state_dir, load_profile())))
    answers = [client.get("/api/live").text, client.get("/api/games").text]
    for game in client.get("/api/games").json()["games"]:
        answers.append(client.get(f"/api/games/{game['id']}").text)
        answers += [
            client.get(f"/api/games/{game['id']}/board/{ply}").text
            for ply in range(game["actions"] + 1)
        ]
    return "\n".join(answers)


def table_in(tmp_path: Path, choice: GameChoice, sensors: Sensors) -> GameTable:
    table, _ = make_table(tmp_path / "journal.sqlite3", choice, sensors)
    return table


def answer(table: GameTable, text: str) -> None:
    asked = table.asking()[0]
    before = len(table.state.history)
    seat = asked.request.player if asked.request.kind == "choice" else None
    table.handle(ConsoleCommand(text, seat=seat, answers=asked.key), 1.0)
    assert len(table.state.history) == before + 1, table.status()["message"]


def test_a_cookie_role_and_a_card_laid_face_down_are_never_served(tmp_path: Path) -> None:
    table = table_in(tmp_path, GameChoice("cookie", {"players": 4}), Sensors(dice=True))
    for role in COOKIE_ROLES:
        answer(table, role)
    asked = table.asking()[0]
    play = random.Random(0).choice(asked.request.options)
    answer(table, play.label)
    StatusWriter(tmp_path, table.status)(force=True)
    secret = table.state.view(0)
    assert secret["face_down"] is not None and secret["role"] == "Strontium"
    text = served(tmp_path)
    assert "laid a card face down" in text
    assert play.action.notation() not in text
    for role in ("Strontium", "37"):  # "Blue" and "Cookie" are words the screen uses anyway
        assert role not in text, role


def test_a_commissars_hand_is_never_served(tmp_path: Path) -> None:
    table = table_in(tmp_path, GameChoice("commissars", {"players": 2}), Sensors())
    answer(table, "Revolution")
    StatusWriter(tmp_path, table.status)(force=True)
    assert "Revolution" in table.state.view(0)["hand"]
    text = served(tmp_path)
    assert "Revolution" not in text
    assert "draw for player 1's deck" in text  # the move is said by its purpose only


def _some_vp(state: State) -> bool:
    return any(state.view(player)["mats"][player]["vp"] for player in range(state.num_players))


def test_cog_victory_points_are_never_served(tmp_path: Path) -> None:
    state = find_state("cog", {"players": 2}, _some_vp)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        game = journal.new_game("cog", state.options, seed=state.seed)
        for action in state.history:
            game.apply(action, "simulation")
    status = {"game": "cog", "game_id": game.id, "ply": len(state.history), "updated": 0}
    (tmp_path / "status.json").write_text(json.dumps(status), encoding="utf-8")
    text = served(tmp_path)
    for answer_text in text.splitlines():
        for mats in _all_mats(json.loads(answer_text)):
            assert all(mat["vp"] is None for mat in mats), mats
    points = [state.view(p)["mats"][p]["vp"] for p in range(state.num_players)]
    assert any(points) and "VP hidden" in text
    for value in points:
        assert f"VP {value}" not in text


def _all_mats(data: Any) -> list[list[dict[str, Any]]]:
    """Every ``mats`` list anywhere in an answer."""
    if isinstance(data, dict):
        found = [data["mats"]] if isinstance(data.get("mats"), list) else []
        return found + [mats for value in data.values() for mats in _all_mats(value)]
    if isinstance(data, list):
        return [mats for value in data for mats in _all_mats(value)]
    return []
