"""Debian's Chromium, headless, driven over the DevTools protocol on a pipe (stdlib only).

``--remote-debugging-pipe`` makes Chromium read protocol commands from its
file descriptor 3 and write answers and events to 4, each message JSON ended
by a NUL byte: no websocket client and no open port are needed. Where
Chromium is missing, the test that needs it is skipped, saying how to install
it, so the README's test command works on a fresh machine; CI's ``.ci/run``
installs Chromium and requires it (:mod:`tests.system_tools`).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from tests.system_tools import system_tool

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-pipe",
)
ANSWER_TIMEOUT_S = 30.0
"""A protocol command that gets no answer in this long fails the test instead of hanging it."""


def chromium_binary() -> str:
    """The Chromium to run; without one the calling test is skipped (on CI: fails)."""
    return system_tool("chromium", "chromium-browser")


class ProtocolError(RuntimeError):
    """Chromium answered a command with an error, or a script threw."""


class Chromium:
    """One headless Chromium; :meth:`open` gives a :class:`Page` to drive."""

    def __init__(self, user_data: Path) -> None:
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()
        script = f'exec "$0" "$@" 3<&{commands_read} 4>&{answers_write}'
        self.process = subprocess.Popen(
            ["bash", "-c", script, chromium_binary(), *FLAGS, f"--user-data-dir={user_data}"],
            pass_fds=(commands_read, answers_write),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(commands_read)
        os.close(answers_write)
        self._next_id = 0
        self._answered: dict[int, dict[str, Any]] = {}
        self._arrived = threading.Condition()
        threading.Thread(target=self._read_answers, daemon=True).start()

    def send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> Any:
        """Run one protocol command; its result, or ProtocolError."""
        with self._arrived:
            self._next_id += 1
            number = self._next_id
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        with self._arrived:
            if not self._arrived.wait_for(lambda: number in self._answered, ANSWER_TIMEOUT_S):
                raise ProtocolError(f"no answer to {method} in {ANSWER_TIMEOUT_S} s")
            answer = self._answered.pop(number)
        if "error" in answer:
            raise ProtocolError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def open(self, url: str, width: int = 1280, height: int = 1000) -> Page:
        """A new tab showing ``url``, its window ``width`` x ``height`` CSS pixels."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        page = Page(self, session["sessionId"])
        page.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        page.send("Page.navigate", {"url": url})
        return page

    def close(self) -> None:
        """Close the browser (killed if it does not go within a few seconds)."""
        with contextlib.suppress(OSError):  # its answer may never come: the browser is gone
            os.write(self._commands, b'{"id": 0, "method": "Browser.close"}\0')
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read_answers(self) -> None:
        buffer = b""
        while chunk := os.read(self._answers, 1 << 16):
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            answers = [json.loads(m) for m in messages if m]
            with self._arrived:
                self._answered.update({a["id"]: a for a in answers if "id" in a})
                self._arrived.notify_all()
        os.close(self._answers)


class Page:
    """One tab: run scripts in it, wait for what it shows, take its picture."""

    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """A protocol command for this tab."""
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise ProtocolError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10.0, every: float = 0.01) -> Any:
        """The expression's first truthy value; AssertionError after ``timeout`` (a guard).

        A script that throws (the page is still loading: no body yet) counts as not yet.
        """
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except ProtocolError as error:
                value, last = None, f" (last: {error})"
            if value:
                return value
            time.sleep(every)
        raise AssertionError(f"the page never showed {expression} in {timeout} s{last}")

    def screenshot(self, path: Path) -> Path:
        """The tab as a PNG at ``path`` (the whole page, not only the window)."""
        metrics = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": metrics["width"], "height": metrics["height"], "scale": 1}
        shot = {"format": "png", "clip": clip, "captureBeyondViewport": True}
        data = self.send("Page.captureScreenshot", shot)["data"]
        path.write_bytes(base64.b64decode(data))
        return path
