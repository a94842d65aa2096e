"""The web live view's ASGI application (Starlette): static page, JSON, camera picture, events.

Every route is a GET (a POST gets 405): the view changes nothing. The page
itself is static files (``static/``) with no build step; it fetches JSON and
listens to ``/events``, a server-sent event stream that sends the whole live
view again whenever the state folder's status, journal or camera picture
changes (looked at :data:`POLL_SECONDS` apart), so a move shows within a
fraction of a second.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from cogtable.journal import JournalError
from cogtable.web.table_view import TableFolder
from games.core import BadRecord

POLL_SECONDS = 0.2
"""How often each event stream looks at the state folder's files (their times and sizes)."""
KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps a quiet stream from being dropped by a proxy or browser."""
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
"""Sent with every answer: the page loads only its own files and is never framed or cached."""


def static_folder() -> Path:
    """The page's files (``index.html``, ``app.js``, ``style.css``), shipped in the package."""
    return Path(str(resources.files("cogtable.web").joinpath("static")))


def create_app(folder: TableFolder, stopping: Callable[[], bool] = lambda: False) -> Starlette:
    """The live view of the table whose state folder ``folder`` reads.

    ``stopping`` says when the server shuts down: every event stream then
    ends, so a page left open does not hold the shutdown up.
    """
    views = _Views(folder, stopping)
    routes = [
        Route("/", views.index),
        Route("/api/live", views.live),
        Route("/api/games", views.games),
        Route("/api/games/{game_id:int}", views.moves),
        Route("/api/games/{game_id:int}/board/{ply:int}", views.board),
        Route("/camera.png", views.camera),
        Route("/events", views.events),
        Mount("/static", StaticFiles(directory=static_folder()), name="static"),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(_SecurityHeaders)
    return app


class _Views:
    """The route handlers, sharing one :class:`TableFolder`."""

    def __init__(self, folder: TableFolder, stopping: Callable[[], bool]) -> None:
        self.folder = folder
        self.stopping = stopping

    async def index(self, request: Request) -> Response:
        return FileResponse(static_folder() / "index.html")

    async def live(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(self.folder.live))

    async def games(self, request: Request) -> Response:
        return JSONResponse({"games": await run_in_threadpool(self.folder.games)})

    async def moves(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            moves = await run_in_threadpool(self.folder.moves, game_id)
        except (JournalError, BadRecord) as error:
            return _problem(str(error))
        return JSONResponse({"game_id": game_id, "moves": [move.to_json() for move in moves]})

    async def board(self, request: Request) -> Response:
        game_id, ply = request.path_params["game_id"], request.path_params["ply"]
        try:
            picture = await run_in_threadpool(self.folder.board_at, game_id, ply)
        except (JournalError, BadRecord) as error:
            return _problem(str(error))
        return JSONResponse({"game_id": game_id, "ply": ply, "board": picture.to_json()})

    async def camera(self, request: Request) -> Response:
        path = self.folder.camera_path
        if not path.is_file():
            return _problem("no camera picture yet")
        return FileResponse(path, media_type="image/png")

    async def events(self, request: Request) -> Response:
        return StreamingResponse(
            self._stream(request),
            media_type="text/event-stream",
            headers={"x-accel-buffering": "no"},
        )

    async def _stream(self, request: Request) -> AsyncIterator[str]:
        """The live view now, then again after every change, until the page goes away."""
        seen: tuple[int, ...] | None = None
        quiet = 0.0
        while not (self.stopping() or await request.is_disconnected()):
            version = await run_in_threadpool(self.folder.version)
            if version != seen:
                seen, quiet = version, 0.0
                yield _event("live", await run_in_threadpool(self.folder.live))
            elif quiet >= KEEPALIVE_SECONDS:
                quiet = 0.0
                yield ": still here\n\n"
            await asyncio.sleep(POLL_SECONDS)
            quiet += POLL_SECONDS


def _event(name: str, data: dict[str, Any]) -> str:
    """One server-sent event; its JSON is on one line, as the format wants."""
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _problem(message: str) -> Response:
    """A 404 whose JSON says what is missing, in words the page shows as they are."""
    return JSONResponse({"problem": message}, status_code=404)


class _SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
