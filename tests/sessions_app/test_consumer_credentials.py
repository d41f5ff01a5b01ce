"""A live websocket is only as good as the credentials that opened it: a logout, a revoked or
expired token, a browser session that ended close it within seconds; one user holds a bounded
number of tokens and of open websockets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client, TestCase
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests import factories
from tests.ws import append, communicator, frames

pytestmark = pytest.mark.usefixtures("channel_layer_kind", "keep_test_connection")

PASSWORD = "a long test password"
CLOSED_FOR_CREDENTIALS = 4401
TOO_MANY = 4429


def run(coroutine_function):
    return async_to_sync(coroutine_function)()


@pytest.fixture
def session(alice):
    return factories.ActiveSessionFactory(user=alice)


@pytest.fixture
def token(alice):
    return AuthToken.objects.create(alice)[1]


async def close_code(comm, timeout: float = 3) -> int:
    message = await comm.receive_output(timeout=timeout)
    while message["type"] == "websocket.send":  # frames that were on their way
        message = await comm.receive_output(timeout=timeout)
    assert message["type"] == "websocket.close", message
    await comm.disconnect()  # as a client does once the server closed
    return message["code"]


def _logout(token: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/api/auth/logout").status_code


def test_logout_closes_the_tokens_open_websocket_at_once(session, token):
    async def scenario():
        comm = communicator(f"/ws/sessions/{session.pk}/", token=token)
        assert (await comm.connect())[0]
        await append(session, "session.updated", {"field": "title"})
        assert len(await frames(comm, 1)) == 1

        assert await database_sync_to_async(_logout)(token) == 204
        assert await close_code(comm, timeout=1) == CLOSED_FOR_CREDENTIALS

    run(scenario)


def test_logout_leaves_the_users_other_tokens_connected(session, alice, token):
    other = AuthToken.objects.create(alice)[1]

    async def scenario():
        mine = communicator(f"/ws/sessions/{session.pk}/", token=token)
        theirs = communicator("/ws/notifications/", token=other)
        assert (await mine.connect())[0]
        assert (await theirs.connect())[0]
        await database_sync_to_async(_logout)(token)
        assert await close_code(mine, timeout=1) == CLOSED_FOR_CREDENTIALS
        assert await theirs.receive_nothing(timeout=0.3)
        await theirs.disconnect()

    run(scenario)


def test_an_expiring_token_closes_its_websocket_when_it_expires(session, alice):
    _, short = AuthToken.objects.create(alice, expiry=timedelta(seconds=1))

    async def scenario():
        comm = communicator(f"/ws/sessions/{session.pk}/", token=short)
        assert (await comm.connect())[0]
        assert await comm.receive_nothing(timeout=0.5)
        assert await close_code(comm, timeout=3) == CLOSED_FOR_CREDENTIALS

    run(scenario)


def test_a_token_deleted_without_a_logout_is_noticed_by_the_periodic_check(
    session, alice, token, settings
):
    settings.WEBSOCKET_CREDENTIALS_CHECK_SECONDS = 0.2

    async def scenario():
        comm = communicator("/ws/notifications/", token=token)
        assert (await comm.connect())[0]
        # An admin deletes the token: no logout, no broadcast.
        await database_sync_to_async(AuthToken.objects.filter(user=alice).delete)()
        assert await close_code(comm, timeout=2) == CLOSED_FOR_CREDENTIALS

    run(scenario)


def signed_in_browser(user):
    browser = Client()
    browser.force_login(user)
    return browser, browser.cookies["sessionid"].value


def test_a_browser_logout_closes_the_pages_websocket_at_once(session, bob):
    browser, cookie = signed_in_browser(bob)
    _, other_cookie = signed_in_browser(bob)  # bob's other browser stays signed in

    async def scenario():
        comm = communicator(f"/ws/sessions/{session.pk}/", cookie=cookie)
        other = communicator(f"/ws/sessions/{session.pk}/", cookie=other_cookie)
        assert (await comm.connect())[0]
        assert (await other.connect())[0]
        await database_sync_to_async(browser.post)("/logout/")
        assert await close_code(comm, timeout=1) == CLOSED_FOR_CREDENTIALS
        assert await other.receive_nothing(timeout=0.3)
        await other.disconnect()

    run(scenario)


def test_a_browser_session_that_ends_otherwise_is_noticed_by_the_periodic_check(
    session, bob, settings
):
    settings.WEBSOCKET_CREDENTIALS_CHECK_SECONDS = 0.2
    browser, cookie = signed_in_browser(bob)

    async def scenario():
        comm = communicator(f"/ws/sessions/{session.pk}/", cookie=cookie)
        assert (await comm.connect())[0]
        await database_sync_to_async(browser.session.flush)()  # e.g. expired and cleared
        assert await close_code(comm, timeout=2) == CLOSED_FOR_CREDENTIALS

    run(scenario)


# --- bounds per user ---------------------------------------------------------------------------


def test_one_user_holds_at_most_the_token_limit_and_the_oldest_goes(alice, settings):
    settings.TOKENS_PER_USER = 3
    alice.set_password(PASSWORD)
    alice.save()
    tokens = []
    for _ in range(5):
        response = APIClient().post(
            "/api/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
        )
        assert response.status_code == 200
        tokens.append(response.json()["token"])
    assert AuthToken.objects.filter(user=alice).count() == 3
    for position, value in enumerate(tokens):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {value}")
        expected = 200 if position >= 2 else 401
        assert client.get("/api/ask/sessions").status_code == expected


def test_an_evicted_tokens_websocket_is_closed(alice, settings):
    settings.TOKENS_PER_USER = 1
    alice.set_password(PASSWORD)
    alice.save()
    first = AuthToken.objects.create(alice)[1]

    def sign_in() -> int:
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = APIClient().post(
                "/api/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
            )
        return response.status_code

    async def scenario():
        comm = communicator("/ws/notifications/", token=first)
        assert (await comm.connect())[0]
        assert await database_sync_to_async(sign_in)() == 200
        assert await close_code(comm, timeout=1) == CLOSED_FOR_CREDENTIALS

    run(scenario)


def test_one_user_holds_at_most_the_websocket_limit_and_the_oldest_is_closed(
    session, token, settings
):
    settings.WEBSOCKETS_PER_USER = 3

    async def scenario():
        comms = []
        for _ in range(5):
            comm = communicator(f"/ws/sessions/{session.pk}/", token=token)
            assert (await comm.connect())[0]
            comms.append(comm)
        for oldest in comms[:2]:
            assert await close_code(oldest, timeout=1) == TOO_MANY
        for live in comms[2:]:
            assert await live.receive_nothing(timeout=0.2)
        await append(session, "session.updated", {"field": "title"})
        for live in comms[2:]:
            assert len(await frames(live, 1)) == 1
            await live.disconnect()

    run(scenario)


def test_a_closed_websocket_frees_its_place(session, token, settings):
    settings.WEBSOCKETS_PER_USER = 1

    async def scenario():
        first = communicator(f"/ws/sessions/{session.pk}/", token=token)
        assert (await first.connect())[0]
        await first.disconnect()
        second = communicator("/ws/notifications/", token=token)
        assert (await second.connect())[0]
        third = communicator(f"/ws/sessions/{session.pk}/", token=token)
        assert (await third.connect())[0]
        assert await close_code(second, timeout=1) == TOO_MANY
        assert await third.receive_nothing(timeout=0.2)
        await third.disconnect()

    run(scenario)
