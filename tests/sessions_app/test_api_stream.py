"""A session followed over plain HTTP (SPEC §8, §9): `GET …/stream` (Server-Sent Events) and the
long poll `GET …/state?wait=N`, through the project's real ASGI application — the client signs
in with a token, plays its session over REST and reads the stream as it arrives — on the
in-memory channel layer and, when REDIS_URL is set, on channels-redis.

The application runs each request's synchronous part in a thread of its own, as a server does,
so these tests commit what they write (`transactional_db`).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.db.backends import utils as db_utils
from knox.models import AuthToken

from config.asgi import application
from sessions_app.models import LiveSocket
from sessions_app.realtime import push
from sessions_app.realtime.follow import session_seq
from tests import factories
from tests.server import free_port
from tests.ws import append, communicator, frames

pytestmark = pytest.mark.usefixtures("transactional_db", "channel_layer_kind")

TIMEOUT = 10


def run(coroutine_function: Callable[[], Any]) -> Any:
    return async_to_sync(coroutine_function)()


# The log's last seq, read from a coroutine.
seq_now = database_sync_to_async(session_seq)


class _AnyText:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and bool(other)


ANY_TEXT = _AnyText()


class Exchange:
    """One HTTP request to the ASGI application; its response read as it arrives."""

    def __init__(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        url = urlsplit(path)
        self.request_body = b"" if body is None else json.dumps(body).encode()
        head = [(b"host", b"testserver")]
        if token is not None:
            head.append((b"authorization", f"Token {token}".encode()))
        if body is not None:
            head.append((b"content-type", b"application/json"))
            head.append((b"content-length", str(len(self.request_body)).encode()))
        head += [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": url.path,
            "raw_path": url.path.encode(),
            "query_string": url.query.encode(),
            "root_path": "",
            "headers": head,
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.comm = ApplicationCommunicator(application, scope)
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""
        self.finished = False

    async def start(self) -> int:
        await self.comm.send_input(
            {"type": "http.request", "body": self.request_body, "more_body": False}
        )
        start = await self.comm.receive_output(TIMEOUT)
        assert start["type"] == "http.response.start", start
        self.status = start["status"]
        self.headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
        return self.status

    async def read(self, timeout: float = TIMEOUT) -> None:
        """One more piece of the body."""
        assert not self.finished, "the response has ended"
        message = await self.comm.receive_output(timeout)
        assert message["type"] == "http.response.body", message
        self.body += message.get("body", b"")
        self.finished = not message.get("more_body", False)

    async def json(self) -> Any:
        if not self.status:
            await self.start()
        while not self.finished:
            await self.read()
        await self.comm.wait(TIMEOUT)
        return json.loads(self.body)

    async def close(self) -> None:
        if not self.finished:
            await self.comm.send_input({"type": "http.disconnect"})
        await self.comm.wait(TIMEOUT)


class Stream(Exchange):
    """`GET …/stream`, its body read as Server-Sent Events."""

    def blocks(self) -> list[dict[str, str]]:
        """Each complete block as {field: value}; a comment's field is ""."""
        parsed = []
        for block in self.body.decode().split("\n\n")[:-1]:
            fields: dict[str, str] = {}
            for line in block.split("\n"):
                name, _, value = line.partition(":")
                fields.setdefault(name, value.removeprefix(" "))
            parsed.append(fields)
        return parsed

    def events(self) -> list[dict[str, Any]]:
        return [
            {"id": int(b["id"]), "event": b["event"], "data": json.loads(b["data"])}
            for b in self.blocks()
            if "event" in b
        ]

    def ids(self) -> list[int]:
        return [event["id"] for event in self.events()]

    async def until(self, done: Callable[[Stream], bool], timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not done(self):
            assert not self.finished, f"the stream ended first: {self.body!r}"
            await self.read(max(0.01, deadline - time.monotonic()))


async def call(method: str, path: str, token: str, body: Any = None) -> Any:
    exchange = Exchange(method, path, token=token, body=body)
    answer = await exchange.json()
    assert exchange.status in (200, 201), answer
    return answer


async def open_stream(
    session_id: Any, token: str | None, *, query: str = "", headers: dict[str, str] | None = None
) -> Stream:
    stream = Stream(
        "GET", f"/api/ask/sessions/{session_id}/stream{query}", token=token, headers=headers
    )
    await stream.start()
    return stream


async def started_session(token: str) -> tuple[str, str]:
    """A session created over REST: its id and the card it shows."""
    created = await call("POST", "/api/ask/sessions", token, {})
    state = await call("GET", f"/api/ask/sessions/{created['_id']}/state", token)
    return created["_id"], state["current_card"]["id"]


async def answer(session_id: str, card_id: str, token: str) -> dict[str, Any]:
    return await call(
        "POST",
        f"/api/ask/sessions/{session_id}/answers",
        token,
        {"card_id": card_id, "text": ANSWER},
    )


ANSWER = "Work, mostly. I keep putting things off."


def token_of(user: Any) -> str:
    return AuthToken.objects.create(user)[1]


@pytest.fixture
def client_token(alice) -> str:
    return token_of(alice)


# --- the stream ------------------------------------------------------------------------------


def test_a_client_answering_a_card_sees_the_next_card_dealt_on_its_stream(client_token):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        stream = await open_stream(session_id, client_token)
        assert stream.status == 200
        assert stream.headers["content-type"] == "text/event-stream"
        assert "no-store" in stream.headers["cache-control"]
        assert stream.headers["x-accel-buffering"] == "no"
        state = await answer(session_id, card_id, client_token)
        await stream.until(lambda s: "card.dealt" in [e["event"] for e in s.events()])
        await stream.close()
        assert stream.blocks()[0] == {"retry": "3000"}
        events = stream.events()
        kinds = [event["event"] for event in events]
        assert kinds.index("answer.received") < kinds.index("card.dealt")
        dealt = events[kinds.index("card.dealt")]
        assert dealt["data"]["payload"]["card_id"] == state["current_card"]["id"]
        assert dealt["data"]["type"] == "card.dealt"
        assert dealt["data"]["seq"] == dealt["id"]
        # From now on: nothing of what happened before the stream opened.
        assert stream.ids() == list(range(stream.ids()[0], stream.ids()[-1] + 1))
        assert stream.ids()[0] > 1

    run(scenario)


@pytest.mark.parametrize("resume", ["header", "query"])
def test_a_resumed_stream_misses_nothing_and_repeats_nothing(client_token, resume):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        first = await open_stream(session_id, client_token, query="?since=0")
        at_start = await seq_now(session_id)
        await first.until(lambda s: s.ids() and s.ids()[-1] == at_start)
        await first.close()
        last = first.ids()[-1]
        # The client was away while it answered (from another device, say).
        state = await answer(session_id, card_id, client_token)
        await answer(session_id, state["current_card"]["id"], client_token)
        now = await seq_now(session_id)
        assert now > last
        if resume == "header":
            second = await open_stream(
                session_id, client_token, headers={"Last-Event-ID": str(last)}
            )
        else:
            second = await open_stream(session_id, client_token, query=f"?since={last}")
        await second.until(lambda s: s.ids() and s.ids()[-1] == now)
        await second.close()
        assert first.ids() == list(range(1, last + 1))
        assert second.ids() == list(range(last + 1, now + 1))

    run(scenario)


def test_a_quiet_stream_sends_keep_alive_comments(client_token, settings):
    settings.STREAM_HEARTBEAT_SECONDS = 0.2

    async def scenario():
        session_id, _ = await started_session(client_token)
        stream = await open_stream(session_id, client_token)
        await stream.until(lambda s: sum(b == {"": "keep-alive"} for b in s.blocks()) >= 2)
        await stream.close()
        assert stream.events() == []

    run(scenario)


def test_another_client_gets_404_and_an_anonymous_caller_401(alice, charlie):
    session = factories.ActiveSessionFactory(user=alice)
    sse = {"Accept": "text/event-stream"}
    charlie_token = token_of(charlie)

    async def scenario():
        stranger = await open_stream(session.pk, charlie_token, headers=sse)
        await stranger.until(lambda s: s.finished)
        anonymous = await open_stream(session.pk, None, headers=sse)
        await anonymous.until(lambda s: s.finished)
        return stranger, anonymous

    stranger, anonymous = run(scenario)
    # The same answers as every other session route, in JSON whatever the client accepts.
    assert (stranger.status, json.loads(stranger.body)["code"]) == (404, "E_NOT_FOUND")
    assert (anonymous.status, json.loads(anonymous.body)["code"]) == (401, "E_UNAUTHENTICATED")
    assert anonymous.headers["www-authenticate"].startswith("Token")


@pytest.mark.parametrize("value", ["x", "-1", "1" * 11])
def test_a_malformed_last_event_id_is_refused(client_token, alice, value):
    session = factories.ActiveSessionFactory(user=alice)

    async def scenario():
        stream = await open_stream(session.pk, client_token, headers={"Last-Event-ID": value})
        await stream.until(lambda s: s.finished)
        return stream

    stream = run(scenario)
    assert stream.status == 400
    assert json.loads(stream.body)["fields"] == {"Last-Event-ID": [ANY_TEXT]}


def test_counselor_only_events_reach_a_client_only_as_redacted_markers(alice, bob):
    session = factories.ActiveSessionFactory(user=alice)
    alice_token, bob_token = token_of(alice), token_of(bob)

    async def scenario():
        client = await open_stream(session.pk, alice_token, query="?since=0")
        counselor = await open_stream(session.pk, bob_token, query="?since=0")
        await append(session, "card.dealt", {"card_id": "c1", "kind": "question"})
        await append(session, "steer.noted", {"text": "Ask about her sister."})
        await append(session, "risk.escalated", {"level": "L3", "crisis_signal": True})
        await append(session, "answer.received", {"card_id": "c1", "risk_level": "L3"})
        for stream in (client, counselor):
            await stream.until(lambda s: len(s.events()) == 4)
            await stream.close()
        # The websocket's frames for the same reader, for comparison.
        socket = communicator(f"/ws/sessions/{session.pk}/?since=0", token=alice_token)
        await socket.connect()
        socket_frames = await frames(socket, 4)
        await socket.disconnect()
        return client, counselor, socket_frames

    client, counselor, socket_frames = run(scenario)
    assert [e["event"] for e in client.events()] == [
        "card.dealt",
        "redacted",
        "redacted",
        "answer.received",
    ]
    assert [e["data"] for e in client.events()] == socket_frames
    for private in (b"sister", b"L3", b"crisis_signal", b"risk_level"):
        assert private not in client.body
    assert [e["event"] for e in counselor.events()] == [
        "card.dealt",
        "steer.noted",
        "risk.escalated",
        "answer.received",
    ]
    assert counselor.events()[1]["data"]["payload"] == {"text": "Ask about her sister."}


def test_the_stream_ends_after_the_session_closes(client_token):
    async def scenario():
        session_id, _ = await started_session(client_token)
        stream = await open_stream(session_id, client_token)
        await call("POST", f"/api/ask/sessions/{session_id}/end", client_token, {})
        await call(
            "POST", f"/api/ask/sessions/{session_id}/last-thing", client_token, {"finish": True}
        )
        await stream.until(lambda s: s.finished)
        await stream.close()
        # A closed session's stream replays and ends at once.
        replay = await open_stream(session_id, client_token, query="?since=0")
        await replay.until(lambda s: s.finished)
        return stream, replay, await seq_now(session_id)

    stream, replay, last = run(scenario)
    kinds = [event["event"] for event in stream.events()]
    assert "session.closed" in kinds
    assert stream.ids() == list(range(stream.ids()[0], stream.ids()[-1] + 1))
    assert replay.ids() == list(range(1, last + 1))


def test_signing_out_ends_the_stream(client_token, alice):
    session = factories.ActiveSessionFactory(user=alice)

    async def scenario():
        stream = await open_stream(session.pk, client_token)
        await stream.until(lambda s: s.blocks() != [])
        logout = Exchange("POST", "/api/auth/logout", token=client_token, body={})
        assert await logout.start() == 204
        await logout.read()
        await logout.close()
        await stream.until(lambda s: s.finished, timeout=5)

    run(scenario)


def test_a_stream_counts_among_the_users_live_connections_the_oldest_goes(
    client_token, alice, settings
):
    """Streams are live connections like websockets: beyond WEBSOCKETS_PER_USER the user's
    oldest one ends, and a stream that ends gives its place back."""
    settings.WEBSOCKETS_PER_USER = 2
    session = factories.ActiveSessionFactory(user=alice)

    async def scenario():
        first = await open_stream(session.pk, client_token)
        await first.until(lambda s: s.blocks() != [])
        second = await open_stream(session.pk, client_token)
        await second.until(lambda s: s.blocks() != [])
        third = await open_stream(session.pk, client_token)
        await third.until(lambda s: s.blocks() != [])
        await first.until(lambda s: s.finished, timeout=5)
        assert not second.finished
        assert not third.finished
        await second.close()
        await third.close()
        return await database_sync_to_async(LiveSocket.objects.filter(user=alice).count)()

    assert run(scenario) == 0


def test_an_event_whose_push_was_lost_arrives_by_the_poll(
    client_token, alice, settings, monkeypatch
):
    settings.STREAM_POLL_SECONDS = 0.3
    session = factories.ActiveSessionFactory(user=alice)

    async def scenario():
        stream = await open_stream(session.pk, client_token)
        # Appended and committed without its push, as if the layer had dropped it.
        with monkeypatch.context() as patched:
            patched.setattr(push, "get_channel_layer", lambda *args: None)
            await append(session, "card.dealt", {"card_id": "c1", "kind": "question"})
        await stream.until(lambda s: s.ids() == [1], timeout=3)
        await stream.close()

    run(scenario)


def test_with_the_channel_layer_down_the_stream_and_the_poll_still_deliver(
    client_token, alice, settings
):
    settings.STREAM_POLL_SECONDS = 0.3
    settings.CHANNEL_LAYERS = {  # Redis on a port nobody listens on
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }
    session = factories.ActiveSessionFactory(user=alice)

    async def scenario():
        stream = await open_stream(session.pk, client_token)
        await stream.until(lambda s: s.blocks() != [])
        poll = Exchange("GET", f"/api/ask/sessions/{session.pk}/state?wait=10", token=client_token)
        await poll.start()
        began = time.monotonic()
        await append(session, "card.dealt", {"card_id": "c1", "kind": "question"})
        await stream.until(lambda s: s.ids() == [1], timeout=5)
        await stream.close()
        state = await poll.json()
        return state, time.monotonic() - began

    state, elapsed = run(scenario)
    assert state["status"] == "active"
    assert elapsed < 5  # the poll's look at the log, not its 10 s


@pytest.fixture
def queries_off_the_main_thread(monkeypatch) -> list[str]:
    """The SQL every thread but the test's own runs: what the application's request threads
    read. (Each thread has its own connection; this counts across them.)"""
    main = threading.get_ident()
    seen: list[str] = []
    execute = db_utils.CursorWrapper.execute

    def counted(self: Any, sql: str, params: Any = None) -> Any:
        if threading.get_ident() != main:
            seen.append(sql)
        return execute(self, sql, params)

    monkeypatch.setattr(db_utils.CursorWrapper, "execute", counted)
    return seen


def test_the_stream_reads_the_log_once_per_wakeup(
    client_token, alice, settings, queries_off_the_main_thread
):
    settings.STREAM_POLL_SECONDS = 1
    session = factories.ActiveSessionFactory(user=alice)

    def log_reads(queries: list[str]) -> list[str]:
        return [sql for sql in queries if "ORDER BY" in sql]  # a replay, a gap or a poll

    async def scenario():
        stream = await open_stream(session.pk, client_token)
        await stream.until(lambda s: s.blocks() != [])  # `retry`: joined and replayed
        queries_off_the_main_thread.clear()
        began = time.monotonic()
        for n in range(3):
            await append(session, "card.dealt", {"card_id": f"c{n}", "kind": "question"})
        await stream.until(lambda s: len(s.events()) == 3)
        pushed, seconds = list(queries_off_the_main_thread), time.monotonic() - began
        queries_off_the_main_thread.clear()
        # Nothing new: wait for two of the stream's polls (one a second).
        deadline = time.monotonic() + 10
        while len(log_reads(queries_off_the_main_thread)) < 2:
            assert time.monotonic() < deadline, "the stream did not poll"
            await asyncio.sleep(0.05)
        polled = list(queries_off_the_main_thread)
        await stream.close()
        return pushed, seconds, polled

    pushed, seconds, polled = run(scenario)
    # Each pushed event is one read of that event (none when another watcher rendered it), and
    # the polls that fell in that time one read each.
    assert len(pushed) - len(log_reads(pushed)) <= 3, pushed
    assert len(log_reads(pushed)) <= int(seconds) + 1, pushed
    # A quiet poll is one read of the log.
    assert 1 <= len(polled) <= 3, polled
    assert log_reads(polled) == polled


# --- the long poll -----------------------------------------------------------------------------


def test_a_long_poll_answers_as_soon_as_the_session_moves_on(client_token):
    async def scenario():
        session_id, card_id = await started_session(client_token)
        since = await seq_now(session_id)
        began = time.monotonic()
        poll = Exchange(
            "GET", f"/api/ask/sessions/{session_id}/state?wait=20&since={since}", token=client_token
        )
        await poll.start()
        assert poll.status == 200
        assert await poll.comm.receive_nothing(timeout=0.3)
        answered = await answer(session_id, card_id, client_token)
        state = await poll.json()
        return answered, state, time.monotonic() - began

    answered, state, elapsed = run(scenario)
    assert elapsed < 5
    # The answer's own commit woke the poll: it comes first, the batch's cards after it.
    assert state["answered"] == answered["answered"]
    assert state["answered"][-1]["answer"] == ANSWER


def test_a_long_poll_answers_with_the_current_state_when_nothing_happens(client_token):
    async def scenario():
        session_id, _ = await started_session(client_token)
        now = await call("GET", f"/api/ask/sessions/{session_id}/state", client_token)
        began = time.monotonic()
        waited = await Exchange(
            "GET", f"/api/ask/sessions/{session_id}/state?wait=1", token=client_token
        ).json()
        return now, waited, time.monotonic() - began

    now, waited, elapsed = run(scenario)
    assert waited == now
    assert 1 <= elapsed < 4


def test_a_long_poll_behind_the_log_answers_at_once(client_token):
    async def scenario():
        session_id, _ = await started_session(client_token)
        began = time.monotonic()
        state = await Exchange(
            "GET", f"/api/ask/sessions/{session_id}/state?wait=30&since=0", token=client_token
        ).json()
        return state, time.monotonic() - began

    state, elapsed = run(scenario)
    assert state["current_card"] is not None
    assert elapsed < 2


@pytest.mark.parametrize("query", ["wait=31", "wait=-1", "wait=soon", "wait=5&since=x"])
def test_a_malformed_long_poll_is_refused(client_token, alice, query):
    session = factories.ActiveSessionFactory(user=alice)

    async def scenario():
        poll = Exchange("GET", f"/api/ask/sessions/{session.pk}/state?{query}", token=client_token)
        return poll, await poll.json()

    poll, body = run(scenario)
    assert (poll.status, body["code"]) == (400, "E_VALIDATION")


def test_a_stranger_long_polling_gets_404(alice, charlie):
    session = factories.ActiveSessionFactory(user=alice)
    charlie_token = token_of(charlie)

    async def scenario():
        poll = Exchange("GET", f"/api/ask/sessions/{session.pk}/state?wait=5", token=charlie_token)
        return poll, await poll.json()

    poll, body = run(scenario)
    assert (poll.status, body["code"]) == (404, "E_NOT_FOUND")
