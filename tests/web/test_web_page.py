"""The live view in a real headless Chromium: it loads, draws the table, and follows a move.

The table is a real one (a Cookie game on the mock table's profile, its
journal and status file in the test's state folder); the page is served by
uvicorn as ``cogtable web`` serves it, and Chromium is driven over its
DevTools pipe (tests/web/chromium.py). How fast a move reaches the page is
measured by benchmarks/bench_web.py, not asserted here.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cogtable.game_choice import GameChoice
from cogtable.inputs import ConsoleCommand
from cogtable.sensors import Sensors
from cogtable.service.runner import StatusWriter
from cogtable.waits import WAIT_SHOWN_S
from cogtable.web.table_view import CAMERA_PICTURE, TableFolder
from hardware.profile import load_profile
from tests.runtime.neutral_helpers import make_table
from tests.web.chromium import Chromium, Page
from tests.web.serving import serving

COOKIE = GameChoice("cookie", {"players": 4})
CAMERA_SIZE = (240, 320)


def camera_picture(path: Path) -> None:
    """A stand-in for the camera's overlay picture: a grey frame with a green box."""
    picture = np.full((*CAMERA_SIZE, 3), 90, np.uint8)
    cv2.rectangle(picture, (40, 30), (280, 210), (0, 200, 0), 3)
    assert cv2.imwrite(str(path), picture)


def shown(page: Page, element: str, what: str = "textContent") -> object:
    return page.evaluate(f"document.getElementById({element!r}).{what}")


def test_the_page_draws_the_table_and_follows_a_move(tmp_path: Path) -> None:
    table, _ = make_table(tmp_path / "journal.sqlite3", COOKIE, Sensors(dice=True))
    write_status = StatusWriter(tmp_path, lambda: table.status().to_json())
    write_status(force=True)
    folder = TableFolder(tmp_path, load_profile())
    board = folder.live()["board"]
    with serving(folder) as url, Chromium(tmp_path / "chromium") as browser:
        page = browser.open(url + "/")
        page.wait_for("document.body.dataset.ply === '0'")
        assert shown(page, "board") == "\n".join(board["lines"])
        leds = sum(len(row) for segment in board["leds"] for row in segment["rows"])
        assert page.evaluate("document.querySelectorAll('#leds .led').length") == leds
        assert shown(page, "no-camera", "hidden") is False
        assert shown(page, "camera", "hidden") is True

        camera_picture(tmp_path / CAMERA_PICTURE)
        assert page.wait_for("document.getElementById('camera').naturalWidth") == CAMERA_SIZE[1]
        assert shown(page, "no-camera", "hidden") is True

        asked = table.asking()[0]
        table.handle(ConsoleCommand("Strontium", answers=asked.key), 1.0)
        write_status(force=True)  # what the controller's next heartbeat does
        page.wait_for("document.body.dataset.ply === '1'")
        assert shown(page, "last") == "deal for P1's role card"
        assert shown(page, "board") == "\n".join(folder.live()["board"]["lines"])

        page.evaluate("document.querySelector('#games tbody tr[data-game=\"1\"]').click()")
        page.wait_for("document.querySelectorAll('#moves li').length === 1")
        assert page.wait_for("document.getElementById('replay-board').textContent") == shown(
            page, "board"
        )
        picture = cv2.imread(str(page.screenshot(tmp_path / "page.png")))

        assert shown(page, "wait") == ""
        table.tick(1.0 + WAIT_SHOWN_S)  # nobody answered the next request for a few seconds
        write_status(force=True)
        said = str(page.wait_for("document.getElementById('wait').textContent"))
        assert table.status().asking in said and "to go on: " in said
        page.screenshot(tmp_path / "waiting.png")
    assert picture is not None and picture.shape[1] == 1280 and picture.std() > 10
