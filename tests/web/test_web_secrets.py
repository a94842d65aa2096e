"""Secrets never reach the web page: a hand, victory points, a role, a card laid face down.

Every answer the page can ask for (the live view, the journal's list, a
game's moves and its board after every move) is gathered. Two tables that
differ only in a secret (the roles dealt, the card laid face down, the card
drawn into a hand) must serve the very same answers; C.O.G.'s victory points
are looked for directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.journal import Journal
from cogtable.sensors import Sensors
from cogtable.service.runner import StatusWriter
from cogtable.table import GameTable
from cogtable.web.app import create_app
from cogtable.web.table_view import TableFolder
from games.core import State
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import find_state, make_table

VARYING = ("updated", "age", "version")
"""Keys whose values are times or file versions: the only things two folders may differ in."""


def served(state_dir: Path) -> list[Any]:
    """Every answer the page can get for every game in ``state_dir`` (times left out)."""
    client = TestClient(create_app(TableFolder(state_dir, load_profile())))
    answers = [client.get("/api/live").json(), client.get("/api/games").json()]
    for game in client.get("/api/games").json()["games"]:
        answers.append(client.get(f"/api/games/{game['id']}").json())
        answers += [
            client.get(f"/api/games/{game['id']}/board/{ply}").json()
            for ply in range(game["actions"] + 1)
        ]
    return _without_times(answers)


def _without_times(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_times(v) for k, v in data.items() if k not in VARYING}
    if isinstance(data, list):
        return [_without_times(value) for value in data]
    return data


def table_in(folder: Path, choice: GameChoice, sensors: Sensors) -> GameTable:
    folder.mkdir()
    table, _ = make_table(folder / "journal.sqlite3", choice, sensors)
    return table


def answer(table: GameTable, text: str) -> None:
    asked = table.asking()[0]
    before = len(table.state.history)
    seat = asked.request.player if asked.request.kind == "choice" else None
    table.handle(ConsoleCommand(text, seat=seat, answers=asked.key), 1.0)
    assert len(table.state.history) == before + 1, table.status().message


def cookie_served(folder: Path, roles: tuple[str, ...], card: int) -> tuple[list[Any], State]:
    """A Cookie game with ``roles`` dealt and P1's ``card``-th choice laid face down."""
    table = table_in(folder, GameChoice("cookie", {"players": 4}), Sensors(dice=True))
    for role in roles:
        answer(table, role)
    answer(table, table.asking()[0].request.options[card].label)
    StatusWriter(folder, table.status().to_json)(force=True)
    return served(folder), table.state


def test_cookie_roles_and_a_card_laid_face_down_change_nothing_served(tmp_path: Path) -> None:
    """Two tables that differ only in secrets serve the very same answers."""
    first, state = cookie_served(tmp_path / "a", ("Strontium", "Blue", "Cookie", "37"), 0)
    second, other = cookie_served(tmp_path / "b", ("37", "Cookie", "Blue", "Strontium"), 1)
    assert state.view(0)["role"] != other.view(0)["role"]
    assert state.view(0)["face_down"] != other.view(0)["face_down"]
    assert first == second
    assert "P1 laid a card face down" in json.dumps(first)


def test_a_commissars_hand_changes_nothing_served(tmp_path: Path) -> None:
    answers = []
    for which in (0, -1):
        folder = tmp_path / str(which)
        table = table_in(folder, GameChoice("commissars", {"players": 2}), Sensors())
        card = table.asking()[0].request.labels()[which]  # the first and last card of the deck
        answer(table, card)
        StatusWriter(folder, table.status().to_json)(force=True)
        assert card in table.state.view(0)["hand"]
        answers.append(served(folder))
    assert answers[0] == answers[1]
    assert "draw for player 1's deck" in json.dumps(answers[0])  # said by its purpose only


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
    answers = served(tmp_path)
    text = json.dumps(answers)
    for mats in _all_mats(answers):
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
