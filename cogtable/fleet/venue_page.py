"""The venue's read-only page (Starlette): the web view's style, every table live.

Every route is a GET. ``/`` is the static page (``venue.html``, ``venue.js``
beside the web view's ``style.css``), ``/api/venue`` the tables as JSON, and
``/events`` a server-sent event stream that sends the whole venue again
whenever a message came in (looked at :data:`POLL_SECONDS` apart) and every
:data:`REFRESH_SECONDS` (the ages and a silent table's "stuck" move on).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cogtable.fleet.venue import Venue
from cogtable.web.app import SECURITY_HEADERS, static_folder

POLL_SECONDS = 0.2
REFRESH_SECONDS = 5.0


def venue_view(venue: Venue, connected: Callable[[], bool]) -> dict[str, Any]:
    """What the page shows: the venue's id, whether the broker is there, every table."""
    return {"venue": venue.venue, "connected": connected(), "tables": venue.rows()}


def create_venue_app(
    venue: Venue, connected: Callable[[], bool], stopping: Callable[[], bool] = lambda: False
) -> Starlette:
    """The page of ``venue``; ``stopping`` ends every event stream at shutdown."""

    async def index(request: Request) -> Response:
        return FileResponse(static_folder() / "venue.html", headers=SECURITY_HEADERS)

    async def tables(request: Request) -> Response:
        return JSONResponse(venue_view(venue, connected), headers=SECURITY_HEADERS)

    async def events(request: Request) -> Response:
        return StreamingResponse(
            _stream(request),
            media_type="text/event-stream",
            headers={**SECURITY_HEADERS, "x-accel-buffering": "no"},
        )

    async def _stream(request: Request) -> AsyncIterator[str]:
        seen, quiet = -1, 0.0
        while not (stopping() or await request.is_disconnected()):
            if venue.version != seen or quiet >= REFRESH_SECONDS:
                seen, quiet = venue.version, 0.0
                data = json.dumps(venue_view(venue, connected), separators=(",", ":"))
                yield f"event: venue\ndata: {data}\n\n"
            await asyncio.sleep(POLL_SECONDS)
            quiet += POLL_SECONDS

    routes = [
        Route("/", index),
        Route("/api/venue", tables),
        Route("/events", events),
        Mount("/static", StaticFiles(directory=static_folder()), name="static"),
    ]
    return Starlette(routes=routes)
