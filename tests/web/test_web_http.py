"""The web view over HTTP: what each address answers, bad state folders, read-only, live events."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.sensors import Sensors
from cogtable.service.runner import StatusWriter
from cogtable.table import GameTable
from cogtable.waits import WAIT_SHOWN_S
from cogtable.web.app import SECURITY_HEADERS, create_app
from cogtable.web.table_view import CAMERA_PICTURE, TableFolder
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import make_table
from tests.web.serving import serving

ADDRESSES = (
    "/",
    "/static/app.js",
    "/api/live",
    "/api/games",
    "/api/games/1",
    "/api/games/1/board/0",
    "/camera.png",
    "/events",
)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(64)


def client_for(state_dir: Path) -> TestClient:
    return TestClient(create_app(TableFolder(state_dir, load_profile())))


def cookie_table(state_dir: Path) -> tuple[GameTable, StatusWriter]:
    table, _ = make_table(
        state_dir / "journal.sqlite3", GameChoice("cookie", {"players": 4}), Sensors(dice=True)
    )
    writer = StatusWriter(state_dir, lambda: table.status().to_json())
    writer(force=True)
    return table, writer


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and modification time: what a reader must leave as it was."""
    return {
        str(path.relative_to(folder)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_page_and_its_files_are_served_with_their_types(tmp_path: Path) -> None:
    client = client_for(tmp_path)
    page = client.get("/")
    assert page.status_code == 200 and "As the camera read it" in page.text
    assert page.headers["content-type"].startswith("text/html")
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200 and kind in answer.headers["content-type"]
    for header, value in SECURITY_HEADERS.items():
        assert page.headers[header] == value


def test_no_table_yet_is_said_not_failed(tmp_path: Path) -> None:
    live = client_for(tmp_path).get("/api/live").json()
    assert live["status"]["problem"].startswith("no table has run here yet")
    assert live["board"] is None and live["camera"]["present"] is False
    assert client_for(tmp_path).get("/api/games").json() == {"games": []}


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe\x00", b"[1, 2, 3]"])
def test_a_garbage_status_file_is_said_in_words(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "status.json").write_bytes(content)
    live = client_for(tmp_path).get("/api/live").json()
    assert "the status file" in live["status"]["problem"] and live["board"] is None


def test_the_live_view_has_the_status_and_board_but_not_the_seed(tmp_path: Path) -> None:
    table, _ = cookie_table(tmp_path)
    live = client_for(tmp_path).get("/api/live").json()
    assert live["status"]["game"] == "cookie" and live["status"]["ply"] == 0
    assert live["board"]["lines"] == table.adapter.screen(table.state, table.scene())
    assert live["board"]["players"] == ["P1", "P2", "P3", "P4"]
    assert "seed" not in live["status"] and "seed" not in json.dumps(
        client_for(tmp_path).get("/api/games").json()
    )


def test_the_live_view_says_what_the_table_has_waited_for(tmp_path: Path) -> None:
    table, writer = cookie_table(tmp_path)
    assert client_for(tmp_path).get("/api/live").json()["status"]["wait"] is None
    table.tick(WAIT_SHOWN_S)  # nobody answered for a few seconds of the table's clock
    writer(force=True)
    wait = client_for(tmp_path).get("/api/live").json()["status"]["wait"]
    assert wait["kind"] == "request"
    assert wait["expected"] == table.status().asking
    assert wait["seen"] and wait["remedy"]


def test_the_camera_picture_is_served_when_there_is_one(tmp_path: Path) -> None:
    client = client_for(tmp_path)
    missing = client.get("/camera.png")
    assert missing.status_code == 404 and missing.json() == {"problem": "no camera picture yet"}
    (tmp_path / CAMERA_PICTURE).write_bytes(PNG)
    found = client.get("/camera.png")
    assert found.status_code == 200 and found.content == PNG
    assert found.headers["content-type"] == "image/png"
    assert client.get("/api/live").json()["camera"]["present"] is True


def test_a_game_or_move_that_is_not_there_is_a_404_in_words(tmp_path: Path) -> None:
    cookie_table(tmp_path)
    client = client_for(tmp_path)
    assert "no game 7" in client.get("/api/games/7").json()["problem"]
    assert client.get("/api/games/1/board/5").json() == {"problem": "game 1 has 0 actions, not 5"}
    assert client.get("/api/games/x").status_code == 404


def test_the_view_changes_nothing_and_takes_no_writes(tmp_path: Path) -> None:
    table, writer = cookie_table(tmp_path)
    table.handle(ConsoleCommand("Blue", answers=table.asking()[0].key), 1.0)
    writer(force=True)
    table.journal.close()
    (tmp_path / CAMERA_PICTURE).write_bytes(PNG)
    before = files_of(tmp_path)
    client = client_for(tmp_path)
    for address in ADDRESSES:
        if address != "/events":
            assert client.get(address).status_code in (200, 404), address
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert client.request(method, address).status_code == 405, (method, address)
    assert files_of(tmp_path) == before


def test_the_event_stream_sends_the_view_then_each_change(tmp_path: Path) -> None:
    table, writer = cookie_table(tmp_path)
    folder = TableFolder(tmp_path, load_profile())
    with serving(folder) as url:
        host, port = url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("GET", "/events")
        stream = connection.getresponse()
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert _next_event(stream)["status"]["ply"] == 0
        table.handle(ConsoleCommand("37", answers=table.asking()[0].key), 1.0)
        writer(force=True)
        changed = _next_event(stream)
        while changed["status"].get("ply") != 1:  # the journal may change before the status
            changed = _next_event(stream)
        assert changed["status"]["last"] == "deal for P1's role card"
        connection.close()


def _next_event(stream: http.client.HTTPResponse) -> dict[str, object]:
    """The data of the next ``live`` event (comments skipped)."""
    name = ""
    while True:
        line = stream.readline().decode("utf-8").rstrip("\n")
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: ") and name == "live":
            return json.loads(line.removeprefix("data: "))


def test_the_event_stream_ends_when_the_server_stops(tmp_path: Path) -> None:
    """A page left open must not hold up a shutdown (systemd's stop, Ctrl-C)."""
    cookie_table(tmp_path)
    folder = TableFolder(tmp_path, load_profile())
    answer = TestClient(create_app(folder, stopping=lambda: True)).get("/events")
    assert answer.status_code == 200 and answer.text == ""
