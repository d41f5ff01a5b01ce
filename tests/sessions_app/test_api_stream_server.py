"""A session followed over HTTP through a real server — the dev server (daphne) and the
production one (uvicorn) — with one request running at a time per process (`REQUESTS_RUNNING=1`):
open streams and a waiting long poll hold no thread and no running slot, so the same process
still answers the client's reads and its answer; the answer wakes the long poll, and its card
reaches every stream."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from knox.models import AuthToken

from tests.server import daphne, database_url, uvicorn

pytestmark = pytest.mark.usefixtures("transactional_db")

SERVERS = {"daphne": daphne, "uvicorn": uvicorn}


class Server:
    def __init__(self, base: str, token: str) -> None:
        parts = urlsplit(base)
        self.host, self.port, self.token = parts.hostname, parts.port, token

    def send(self, method: str, path: str, body: Any = None) -> http.client.HTTPConnection:
        """The request sent on a connection of its own; its response not read yet."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body)
        connection.request(method, path, data, headers)
        return connection

    def call(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        connection = self.send(method, path, body)
        connection.sock.settimeout(timeout)
        response = connection.getresponse()
        payload = json.loads(response.read())
        connection.close()
        assert response.status in (200, 201), payload
        return payload


def next_event_data(response: http.client.HTTPResponse, event: str) -> Any:
    """The `data` of the next `event` on the stream."""
    lines: list[str] = []
    while len(lines) < 2 or lines[-2] != f"event: {event}":
        line = response.readline()
        assert line, f"the stream ended before {event}: {lines}"
        lines.append(line.decode().rstrip("\n"))
    return json.loads(lines[-1].removeprefix("data: "))


@pytest.mark.parametrize("server", list(SERVERS))
def test_open_streams_and_a_long_poll_hold_no_thread_and_hear_the_answer(alice, server):
    token = AuthToken.objects.create(alice)[1]
    env = {"REQUESTS_RUNNING": "1"}
    with SERVERS[server](db_url=database_url(), log_name=f"stream-{server}.log", env=env) as base:
        client = Server(base, token)
        created = client.call("POST", "/api/ask/sessions", {})
        path = f"/api/ask/sessions/{created['_id']}"
        card = client.call("GET", f"{path}/state")["current_card"]
        connections = [client.send("GET", f"{path}/stream") for _ in range(3)]
        streams = [connection.getresponse() for connection in connections]
        for response in streams:
            assert response.status == 200
            assert response.getheader("Content-Type") == "text/event-stream"
            assert "no-store" in response.getheader("Cache-Control")
            assert response.getheader("X-Accel-Buffering") == "no"
        poll = client.send("GET", f"{path}/state?wait=25")
        # Given time to reach the server and wait there: nothing outside shows it (daphne sends
        # the status with the body's first bytes, after the wait).
        time.sleep(0.3)
        # With the only running slot held by a waiting request, these would never start.
        began = time.monotonic()
        assert client.call("GET", f"{path}/state", timeout=5)["current_card"] == card
        answered = client.call(
            "POST", f"{path}/answers", {"card_id": card["id"], "text": "Work, mostly."}, timeout=5
        )
        assert time.monotonic() - began < 5
        for response in streams:
            dealt = next_event_data(response, "card.dealt")
            assert dealt["payload"]["card_id"] == answered["current_card"]["id"]
        poll.sock.settimeout(10)
        waited = poll.getresponse()
        # The answer's own commit wakes the poll (the batch's cards commit after it).
        assert json.loads(waited.read())["answered"] == answered["answered"]
        # Closed before the server stops: it would wait for open streams to end on their own.
        for connection in (*connections, poll):
            connection.close()
