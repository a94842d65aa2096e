"""The web view served for real (uvicorn on a free localhost port) in a background thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from cogtable.commands.web import open_listener
from cogtable.web.app import create_app
from cogtable.web.table_view import TableFolder

START_TIMEOUT_S = 10.0


@contextmanager
def serving(folder: TableFolder) -> Iterator[str]:
    """The page's address while uvicorn serves ``folder``; stopped on leaving."""
    listener = open_listener("127.0.0.1", 0)
    port = listener.getsockname()[1]
    server: uvicorn.Server | None = None
    app = create_app(folder, stopping=lambda: bool(server and server.should_exit))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        listener.close()
