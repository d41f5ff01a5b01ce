"""Helpers for websocket tests: connect as someone, append an event as the engine would.

Tests drive coroutines through `async_to_sync` from the test's own (main) thread, so the
consumers' `database_sync_to_async` calls run in that thread and see the test's transaction.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client, TestCase

from config.asgi import application
from sessions_app.events import event_append

ORIGIN = b"http://testserver"
# Every real handshake names the host it was sent to; the page's origin is compared with it.
HOST = b"testserver"


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def communicator(
    path: str,
    *,
    cookie: str | None = None,
    token: str | None = None,
    origin: bytes | None = ORIGIN,
    host: bytes = HOST,
    subprotocols: list[str] | None = None,
) -> WebsocketCommunicator:
    headers = [(b"host", host)]
    if origin is not None:
        headers.append((b"origin", origin))
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    protocols = list(subprotocols or [])
    if token is not None:
        protocols += ["naisei.v1", f"naisei.token.{token}"]
    return WebsocketCommunicator(application, path, headers=headers, subprotocols=protocols)


async def outcome(comm: WebsocketCommunicator) -> int | str:
    """ "open" for an accepted stream, else the close code (403 for a refused handshake)."""
    connected, detail = await comm.connect()
    if not connected:
        return 403 if detail == 1000 else detail
    if await comm.receive_nothing(timeout=0.05):
        return "open"
    message = await comm.receive_output()
    assert message["type"] == "websocket.close", message
    return message["code"]


async def frames(comm: WebsocketCommunicator, count: int, timeout: float = 2) -> list[Any]:
    received = []
    for _ in range(count):
        text = await comm.receive_from(timeout=timeout)
        received.append(json.loads(text) if text.startswith("{") else text)
    return received


def _append_committed(**kwargs: Any) -> Any:
    # The test's transaction never commits: run the on-commit push as a commit would.
    with TestCase.captureOnCommitCallbacks(execute=True):
        return event_append(**kwargs)


async def append(session: Any, type: str, payload: dict[str, Any] | None = None) -> Any:
    return await database_sync_to_async(_append_committed)(
        session=session, type=type, payload=payload or {}
    )
