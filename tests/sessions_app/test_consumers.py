"""The websocket streams (SPEC §8): authentication, access by role, delivery after commit, replay
with `?since=`, origin rules and privacy — on the in-memory layer and, when REDIS_URL is set, on
channels-redis."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from knox.models import AuthToken

from sessions_app.realtime import push as realtime
from tests import factories
from tests.ws import append, communicator, frames, outcome, session_cookie

pytestmark = pytest.mark.usefixtures("channel_layer_kind", "keep_test_connection")


def run(coroutine_function):
    return async_to_sync(coroutine_function)()


def stream_path(session, query: str = "") -> str:
    return f"/ws/sessions/{session.pk}/{query}"


@asynccontextmanager
async def watching(path: str, token: str) -> AsyncIterator[WebsocketCommunicator]:
    """A token client connected to the stream at `path`, disconnected when the block is done."""
    comm = communicator(path, token=token)
    await comm.connect()
    yield comm
    await comm.disconnect()


@pytest.fixture
def session(alice):
    return factories.ActiveSessionFactory(user=alice)


@pytest.fixture
def token(alice):
    return AuthToken.objects.create(alice)[1]


# --- authentication and origin ---------------------------------------------------------------


def test_a_token_client_without_an_origin_header_is_accepted(session, token):
    async def scenario():
        comm = communicator(stream_path(session), token=token, origin=None)
        connected, subprotocol = await comm.connect()
        assert connected
        assert subprotocol == "naisei.v1"  # the token itself is never echoed back
        await comm.disconnect()

    run(scenario)


def test_a_token_client_from_any_origin_is_accepted(session, token):
    async def scenario():
        comm = communicator(stream_path(session), token=token, origin=b"https://app.example.net")
        assert await outcome(comm) == "open"
        await comm.disconnect()

    run(scenario)


def test_a_wrong_token_is_refused_even_with_a_valid_session_cookie(session, alice):
    cookie = session_cookie(alice)

    async def scenario():
        comm = communicator(stream_path(session), token="f" * 64, cookie=cookie)
        assert await outcome(comm) == 4401

    run(scenario)


def test_an_expired_token_is_refused(session, alice):
    from datetime import timedelta

    _, expired = AuthToken.objects.create(alice, expiry=timedelta(seconds=-1))

    async def scenario():
        assert await outcome(communicator(stream_path(session), token=expired)) == 4401

    run(scenario)


def test_a_browser_connection_from_an_allowed_origin_is_accepted(session, bob):
    cookie = session_cookie(bob)

    async def scenario():
        comm = communicator(stream_path(session), cookie=cookie)
        assert await outcome(comm) == "open"
        await comm.disconnect()

    run(scenario)


@pytest.mark.parametrize("origin", [b"https://evil.example", None, b"null"])
def test_a_browser_connection_from_another_or_no_origin_is_refused_at_the_handshake(
    session, bob, origin
):
    cookie = session_cookie(bob)

    async def scenario():
        comm = communicator(stream_path(session), cookie=cookie, origin=origin)
        connected, _code = await comm.connect()
        assert not connected  # refused before accept: an HTTP 403 to the browser

    run(scenario)


# The origin is scheme + host + port: another site on an allowed host is another origin.
WRONG_ORIGINS = [
    pytest.param(b"localhost:8000", b"http://localhost:9999", id="wrong-port"),
    pytest.param(b"localhost:8000", b"https://localhost:8000", id="wrong-scheme"),
    pytest.param(b"testserver", b"http://testserver:8080", id="wrong-port-default"),
    pytest.param(b"testserver", b"https://testserver", id="wrong-scheme-default"),
    pytest.param(b"evil.example", b"http://evil.example", id="host-not-allowed"),
    pytest.param(b"testserver", b"http://testserver:99999", id="malformed-port"),
]


@pytest.mark.parametrize("path", ["session", "/ws/counselors/"])
@pytest.mark.parametrize(("host", "origin"), WRONG_ORIGINS)
def test_a_browser_connection_from_another_port_or_scheme_is_refused_at_the_handshake(
    session, bob, host, origin, path
):
    cookie = session_cookie(bob)
    url = stream_path(session) if path == "session" else path

    async def scenario():
        comm = communicator(url, cookie=cookie, origin=origin, host=host)
        connected, code = await comm.connect()
        assert not connected
        assert code == 1000  # the denier's close before accept: HTTP 403 to a browser

    run(scenario)


@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        (b"localhost:8000", b"http://localhost:8000", "ws"),
        (b"localhost", b"https://localhost", "wss"),
        (b"localhost:8443", b"https://localhost:8443", "wss"),
    ],
)
def test_a_browser_connection_from_the_pages_own_origin_is_accepted(
    session, bob, host, origin, scheme
):
    cookie = session_cookie(bob)

    async def scenario():
        comm = communicator(stream_path(session), cookie=cookie, origin=origin, host=host)
        comm.scope["scheme"] = scheme
        assert await outcome(comm) == "open"
        await comm.disconnect()

    run(scenario)


@pytest.mark.parametrize(
    ("trusted", "origin", "expected"),
    [
        ("https://app.example.com", b"https://app.example.com", "open"),
        ("https://app.example.com", b"https://app.example.com:444", 403),
        ("https://app.example.com", b"http://app.example.com", 403),
        ("https://*.example.com", b"https://staff.example.com", "open"),
        ("https://*.example.com", b"https://example.org", 403),
    ],
)
def test_csrf_trusted_origins_are_compared_by_scheme_host_and_port(
    settings, session, bob, trusted, origin, expected
):
    settings.CSRF_TRUSTED_ORIGINS = [trusted]
    cookie = session_cookie(bob)

    async def scenario():
        comm = communicator(stream_path(session), cookie=cookie, origin=origin)
        assert await outcome(comm) == expected
        if expected == "open":
            await comm.disconnect()

    run(scenario)


def test_an_anonymous_browser_is_refused_with_4401(session):
    async def scenario():
        assert await outcome(communicator(stream_path(session))) == 4401

    run(scenario)


@pytest.mark.parametrize("query", ["?since=abc", "?since=-1", "?format=xml", "?since=²"])
def test_a_malformed_query_is_refused_with_4400(session, token, query):
    async def scenario():
        assert await outcome(communicator(stream_path(session, query), token=token)) == 4400

    run(scenario)


# --- access, for every role (SPEC §1) ---------------------------------------------------------


@pytest.fixture
def crisis(alice):
    return factories.CrisisSessionFactory(user=alice)


@pytest.mark.parametrize(
    ("persona", "variant", "expected"),
    [
        ("alice", "normal", "open"),  # the owner
        ("charlie", "normal", 4404),  # another client
        ("bob", "normal", "open"),  # counselor with alice in the caseload
        ("dana", "normal", 4404),  # counselor without
        ("dana", "crisis", 4403),  # crisis session, not handed off to her: E_FORBIDDEN
        ("bob", "crisis", "open"),  # crisis session of bob's own caseload
        ("olga", "normal", "open"),  # ops
        ("olga", "crisis", "open"),
        ("service_account", "normal", "open"),
    ],
)
def test_each_role_reaches_exactly_the_sessions_section_1_gives_it(
    request, session, crisis, persona, variant, expected
):
    user = request.getfixturevalue(persona)
    target = crisis if variant == "crisis" else session
    token = AuthToken.objects.create(user)[1]

    async def scenario():
        comm = communicator(stream_path(target), token=token)
        assert await outcome(comm) == expected
        await comm.disconnect()

    run(scenario)


def test_a_crisis_session_handed_off_to_a_counselor_opens_for_her(crisis, dana):
    from django.utils import timezone

    crisis.handoff_counselor, crisis.handoff_time = dana, timezone.now()
    crisis.save()
    cookie = session_cookie(dana)

    async def scenario():
        comm = communicator(stream_path(crisis), cookie=cookie)
        assert await outcome(comm) == "open"
        await comm.disconnect()

    run(scenario)


def test_an_unknown_session_is_4404(token):
    async def scenario():
        path = "/ws/sessions/00000000-0000-0000-0000-000000000000/"
        assert await outcome(communicator(path, token=token)) == 4404

    run(scenario)


# --- delivery -----------------------------------------------------------------------------------


def test_an_event_reaches_the_watcher_after_commit_with_its_seq(session, token):
    async def scenario():
        async with watching(stream_path(session), token) as comm:
            event = await append(session, "answer.received", {"message_id": 7})
            (frame,) = await frames(comm, 1)
            assert frame == {
                "seq": event.seq,
                "id": event.pk,
                "type": "answer.received",
                "created_at": frame["created_at"],
                "actor": "system",
                "payload": {"message_id": 7},
            }
            assert await comm.receive_nothing(timeout=0.05)

    run(scenario)


def test_a_rolled_back_event_is_never_pushed(session, token):
    from django.db import transaction

    from sessions_app.events import event_append

    def append_then_roll_back():
        from django.test import TestCase

        with TestCase.captureOnCommitCallbacks(execute=True), transaction.atomic():
            event_append(session=session, type="answer.received")
            transaction.set_rollback(True)

    async def scenario():
        async with watching(stream_path(session), token) as comm:
            await database_sync_to_async(append_then_roll_back)()
            assert await comm.receive_nothing(timeout=0.2)

    run(scenario)


def test_events_arrive_in_seq_order_to_every_watcher(session, alice, bob, olga):
    tokens = [AuthToken.objects.create(user)[1] for user in (alice, bob, olga)]

    async def scenario():
        watchers = [communicator(stream_path(session), token=t) for t in tokens]
        for comm in watchers:
            await comm.connect()
        for n in range(5):
            await append(session, "card.dealt", {"n": n})
        for comm in watchers:
            received = await frames(comm, 5)
            assert [f["payload"]["n"] for f in received] == [0, 1, 2, 3, 4]
            assert [f["seq"] for f in received] == [1, 2, 3, 4, 5]
            await comm.disconnect()

    run(scenario)


def test_since_replays_what_was_missed_then_streams_live_without_gap_or_duplicate(session, token):
    async def scenario():
        for n in range(3):
            await append(session, "card.dealt", {"n": n})
        async with watching(stream_path(session, "?since=1"), token) as comm:
            replayed = await frames(comm, 2)
            await append(session, "answer.received", {"n": 3})
            (live,) = await frames(comm, 1)
            assert [f["seq"] for f in [*replayed, live]] == [2, 3, 4]
            assert await comm.receive_nothing(timeout=0.05)

    run(scenario)


# A since beyond the log streams from now, as no since does, instead of dropping events.
@pytest.mark.parametrize("query", ["", "?since=999"], ids=["no-since", "since-beyond-the-log"])
def test_without_since_or_past_the_log_only_new_events_are_streamed(session, token, query):
    async def scenario():
        await append(session, "card.dealt")
        async with watching(stream_path(session, query), token) as comm:
            assert await comm.receive_nothing(timeout=0.05)
            await append(session, "answer.received")
            assert [f["seq"] for f in await frames(comm, 1)] == [2]

    run(scenario)


def test_a_lost_push_is_repaired_from_the_database_when_the_next_one_arrives(session, token):
    from sessions_app.events import event_append

    async def scenario():
        async with watching(stream_path(session), token) as comm:
            # Appended without its push (as if the layer dropped it) …
            await database_sync_to_async(event_append)(session=session, type="card.dealt")
            # … the next push shows the gap, and the consumer reads seq 1 before seq 2.
            await append(session, "answer.received")
            assert [f["seq"] for f in await frames(comm, 2)] == [1, 2]

    run(scenario)


def test_a_push_reaches_a_watcher_without_a_hop_to_close_connections(session, token, monkeypatch):
    import channels.consumer

    async def hop():
        raise AssertionError("a thread hop per message per watcher (QUALITY P5)")

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", hop)

    async def scenario():
        async with watching(stream_path(session), token) as comm:
            await append(session, "card.dealt")
            assert [f["seq"] for f in await frames(comm, 1)] == [1]

    run(scenario)


def test_a_duplicate_push_is_dropped(session, token):
    async def scenario():
        async with watching(stream_path(session), token) as comm:
            event = await append(session, "card.dealt")
            await frames(comm, 1)
            await database_sync_to_async(realtime.publish_events)(
                session_id=session.pk, events=[(event.pk, event.seq, event.type)]
            )
            assert await comm.receive_nothing(timeout=0.1)

    run(scenario)


def test_a_watcher_of_another_session_hears_nothing(session, alice, token):
    other = factories.AskSessionFactory(user=alice)

    async def scenario():
        async with watching(stream_path(other), token) as comm:
            await append(session, "card.dealt")
            assert await comm.receive_nothing(timeout=0.1)

    run(scenario)


# --- privacy (QUALITY R8) -----------------------------------------------------------------------


def test_a_client_never_receives_p3_data(session, token, bob):
    staff_token = AuthToken.objects.create(bob)[1]

    async def scenario():
        client = communicator(stream_path(session), token=token)
        staff = communicator(stream_path(session), token=staff_token)
        await client.connect()
        await staff.connect()
        await append(session, "risk.escalated", {"level": "L4", "crisis_signal": True})
        await append(session, "session.updated", {"fields": ["final_risk_level", "session_title"]})
        await append(session, "answer.received", {"message_id": 3, "risk_level": "L3"})
        seen_by_client = await frames(client, 3)
        seen_by_staff = await frames(staff, 3)
        assert seen_by_client[0] == {
            "seq": 1,
            "id": seen_by_client[0]["id"],
            "type": "redacted",
            "created_at": seen_by_client[0]["created_at"],
            "actor": "",
            "payload": {},
        }
        assert seen_by_client[1]["payload"] == {"fields": ["session_title"]}
        assert seen_by_client[2]["payload"] == {"message_id": 3}
        assert "L4" not in json.dumps(seen_by_client)
        assert "L3" not in json.dumps(seen_by_client)
        assert seen_by_staff[0]["type"] == "risk.escalated"
        assert seen_by_staff[0]["payload"] == {"level": "L4", "crisis_signal": True}
        await client.disconnect()
        await staff.disconnect()

    run(scenario)


def test_browser_watchers_get_html_fragments_swapped_out_of_band(session, bob):
    cookie = session_cookie(bob)

    async def scenario():
        comm = communicator(stream_path(session, "?format=html"), cookie=cookie)
        await comm.connect()
        event = await append(session, "answer.received", {"message_id": 5})
        (html,) = await frames(comm, 1)
        assert 'hx-swap-oob="beforeend:#event-log-list"' in html
        assert f'id="event-{event.pk}"' in html
        assert 'id="live-seq" hx-swap-oob="true" data-seq="1"' in html
        assert "answer.received" in html
        await comm.disconnect()

    run(scenario)


# --- the counselors' stream -----------------------------------------------------------------------


@pytest.fixture
def on_duty_bob(bob):
    factories.UserProfileFactory(user=bob, on_duty=True)
    return bob


@pytest.mark.parametrize(
    ("persona", "expected"),
    [
        ("alice", 4403),
        ("service_account", 4403),
        ("bob", "open"),
        ("dana", "open"),
        ("olga", "open"),
    ],
)
def test_only_counselors_and_ops_may_open_the_counselors_stream(request, persona, expected):
    token = AuthToken.objects.create(request.getfixturevalue(persona))[1]

    async def scenario():
        comm = communicator("/ws/counselors/", token=token)
        assert await outcome(comm) == expected
        await comm.disconnect()

    run(scenario)


def test_the_anonymous_are_refused_the_counselors_stream():
    async def scenario():
        assert await outcome(communicator("/ws/counselors/")) == 4401

    run(scenario)


def test_an_escalation_alerts_on_duty_counselors_who_may_see_the_session(
    session, on_duty_bob, dana, olga
):
    tokens = {user: AuthToken.objects.create(user)[1] for user in (on_duty_bob, dana, olga)}

    async def scenario():
        streams = {u: communicator("/ws/counselors/", token=t) for u, t in tokens.items()}
        for comm in streams.values():
            await comm.connect()
        event = await append(session, "risk.escalated", {"level": "L3"})
        for user in (on_duty_bob, olga):
            (notice,) = await frames(streams[user], 1)
            assert notice == {
                "type": "crisis.alert",
                "session_id": str(session.pk),
                "event_id": event.pk,
                "seq": event.seq,
                "event_type": "risk.escalated",
            }
        # Dana may not open alice's session, so she hears nothing of it.
        assert await streams[dana].receive_nothing(timeout=0.1)
        for comm in streams.values():
            await comm.disconnect()

    run(scenario)


def test_a_counselor_off_duty_gets_only_a_queue_change(session, bob):
    token = AuthToken.objects.create(bob)[1]

    async def scenario():
        comm = communicator("/ws/counselors/", token=token)
        await comm.connect()
        await append(session, "risk.escalated", {"level": "L3"})
        (notice,) = await frames(comm, 1)
        assert notice["type"] == "queue.changed"
        await comm.disconnect()

    run(scenario)


def test_a_handoff_is_a_queue_change_and_ordinary_events_are_not_on_this_stream(
    session, on_duty_bob
):
    token = AuthToken.objects.create(on_duty_bob)[1]

    async def scenario():
        comm = communicator("/ws/counselors/", token=token)
        await comm.connect()
        await append(session, "card.dealt")
        await append(session, "handoff.created", {"counselor_id": on_duty_bob.pk})
        (notice,) = await frames(comm, 1)
        assert (notice["type"], notice["event_type"]) == ("queue.changed", "handoff.created")
        await comm.disconnect()

    run(scenario)


def test_browser_alerts_are_html_that_htmx_prepends_to_the_alert_list(session, on_duty_bob):
    cookie = session_cookie(on_duty_bob)

    async def scenario():
        comm = communicator("/ws/counselors/?format=html", cookie=cookie)
        await comm.connect()
        await append(session, "risk.escalated", {"level": "L4"})
        (html,) = await frames(comm, 1)
        assert 'hx-swap-oob="afterbegin:#alerts-list"' in html
        assert f"/sessions/{session.pk}/" in html
        assert "L4" not in html  # an alert names the session, not its clinical details
        await comm.disconnect()

    run(scenario)


def test_the_layer_under_test_is_the_one_configured(channel_layer_kind):
    from channels.layers import get_channel_layer

    expected = {"memory": "InMemoryChannelLayer", "redis": "RedisChannelLayer"}
    assert type(get_channel_layer()).__name__ == expected[channel_layer_kind]
