"""QUALITY R10 and SPEC §3: with Redis unreachable (a closed port), a real server still signs a
client in, creates the session, serves the turn loop (state, answers, the history list) and
answers a crisis message with the static crisis resources — the answers, the risk level and the
escalation committed; throttles fail open and log; `/readyz` says Redis is down. With the
database unreachable, the API answers 503 E_UNAVAILABLE with Retry-After, never a traceback."""

from __future__ import annotations

import json
import socket
import urllib.request
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect as ws_connect

from sessions_app.models import AskMessage, AskSession, Notification, SessionEvent
from tests import factories
from tests.server import ARTIFACTS, daphne, database_url, free_port

pytestmark = pytest.mark.usefixtures("committed_db")

PASSWORD = "a long test password"


@pytest.fixture
def committed_db(transactional_db: Any) -> None:
    """Committed rows, visible to the server subprocess."""


def call(url: str, method: str, body: dict[str, Any] | None = None, token: str = "") -> Any:
    status, payload, _ = call_with_headers(url, method, body, token)
    return status, payload


def call_with_headers(
    url: str, method: str, body: dict[str, Any] | None = None, token: str = ""
) -> Any:
    request = urllib.request.Request(
        url,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Token {token}"} if token else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read() or b"null"), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


def client_who_signs_in(username: str) -> Any:
    client = factories.ClientFactory(username=username)
    client.set_password(PASSWORD)
    client.save()
    factories.UserProfileFactory(user=client)
    return client


def redis_down_server(log_name: str) -> Any:
    """A real server on the test database whose Redis is a closed port."""
    closed_redis = f"redis://127.0.0.1:{free_port()}/0"
    return daphne(db_url=database_url(), log_name=log_name, env={"REDIS_URL": closed_redis})


def sign_in_and_create_a_session(url: str, username: str) -> tuple[str, dict[str, Any]]:
    status, login = call(
        f"{url}/api/auth/token", "POST", {"username": username, "password": PASSWORD}
    )
    assert status == 200, login
    token = login["token"]
    status, created = call(f"{url}/api/ask/sessions", "POST", {}, token)
    assert status == 201, created
    return token, created


def test_with_redis_down_the_turn_loop_is_served_stored_and_readyz_says_so():
    client_who_signs_in("erin")

    with redis_down_server("outage-turns.log") as url:
        token, created = sign_in_and_create_a_session(url, "erin")
        base = f"{url}/api/ask/sessions/{created['_id']}"
        answers = []
        for number in range(3):
            status, state = call(f"{base}/state", "GET", token=token)
            assert status == 200, state
            card = state["current_card"]
            assert card is not None, state
            text = f"Work has been heavy, part {number}."
            status, after = call(
                f"{base}/answers", "POST", {"card_id": card["id"], "text": text}, token
            )
            assert status == 200, after
            answers.append(text)
        status, page = call(f"{url}/api/ask/sessions", "GET", token=token)
        assert status == 200, page
        assert [item["_id"] for item in page["results"]] == [created["_id"]]
        status, ready = call(f"{url}/readyz", "GET")
        status_live, live = call(f"{url}/healthz", "GET")

    assert status == 200, ready  # degraded, not down: the database answers
    assert ready["status"] == "degraded"
    assert ready["dependencies"]["database"]["status"] == "ok"
    assert ready["dependencies"]["cache"]["status"] == "down"
    assert ready["dependencies"]["channel_layer"]["status"] == "down"
    assert (status_live, live) == (200, {"status": "ok"})
    # Every answer the client was acknowledged for is in the database (the first card is the
    # topic, stored as the client's opening message, the rest as answers).
    stored = AskMessage.objects.filter(session_id=created["_id"], role="client")
    assert sorted(stored.values_list("text", flat=True)) == sorted(answers)
    log = (ARTIFACTS / "outage-turns.log").read_text()
    assert "throttle.unavailable" in log
    assert "Traceback" not in log


def test_with_the_database_down_the_api_answers_503_with_retry_after():
    closed_db = f"postgres://postgres@127.0.0.1:{free_port()}/naisei"
    with daphne(db_url=closed_db, log_name="outage-db.log") as url:
        login = call_with_headers(
            f"{url}/api/auth/token", "POST", {"username": "erin", "password": PASSWORD}
        )
        listing = call_with_headers(f"{url}/api/ask/sessions", "GET", token="a" * 64)
        ready = call_with_headers(f"{url}/readyz", "GET")
        live = call(f"{url}/healthz", "GET")

    for status, body, headers in (login, listing):
        assert status == 503, body
        assert body["code"] == "E_UNAVAILABLE"
        assert int(headers["Retry-After"]) > 0
    status, body, headers = ready
    assert status == 503
    assert body["dependencies"]["database"]["status"] == "down"
    assert live == (200, {"status": "ok"})
    assert "Traceback" not in (ARTIFACTS / "outage-db.log").read_text()


def test_with_redis_down_a_crisis_message_is_answered_and_escalated(settings):
    client_who_signs_in("dora")
    counselor = factories.on_duty_counselor("cora")

    with redis_down_server("outage.log") as url:
        token, created = sign_in_and_create_a_session(url, "dora")
        session_id = created["_id"]
        status, state = call(
            f"{url}/api/ask/sessions/{session_id}/messages",
            "POST",
            {"text": "I want to kill myself tonight"},
            token,
        )

    assert status == 200, state
    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level in {"L3", "L4"}
    assert session.intervention_triggered
    assert SessionEvent.objects.filter(session=session, type="risk.escalated").exists()
    assert Notification.objects.filter(
        session=session, user=counselor, kind=Notification.Kind.CRISIS_ALERT
    ).exists()
    assert AskMessage.objects.filter(session=session, text="I want to kill myself tonight").exists()
    resources = AskMessage.objects.get(session=session, kind=AskMessage.Kind.CRISIS_RESOURCES)
    assert resources.payload["resources"]
    assert (
        "crisis" in json.dumps(state).lower() or state["current_card"]["kind"] == "crisis_resources"
    )


def websocket_outcome(url: str, path: str, token: str) -> Any:
    """How a token client's handshake ends: ("open", None) or ("closed", code) — or the HTTP
    status of a refused handshake."""
    ws_url = url.replace("http://", "ws://") + path
    try:
        with ws_connect(
            ws_url, subprotocols=["naisei.v1", f"naisei.token.{token}"], open_timeout=15
        ) as socket:
            try:
                socket.recv(timeout=8)
            except ConnectionClosed as closed:
                return "closed", closed.rcvd.code if closed.rcvd else None
            except TimeoutError:
                return "open", None
            return "open", None
    except InvalidStatus as refused:
        return "http", refused.response.status_code


@pytest.fixture
def silent_redis() -> Any:
    """A port that accepts connections (the kernel's backlog) and never answers: a Redis that
    hangs rather than refuses."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    listener.close()


@pytest.mark.parametrize("redis", ["closed", "silent"])
def test_with_the_channel_layer_failing_a_websocket_handshake_never_answers_500(
    redis: str, silent_redis: str
) -> None:
    client_who_signs_in("wendy")
    url_of_redis = silent_redis if redis == "silent" else f"redis://127.0.0.1:{free_port()}/0"
    log_name = f"outage-ws-{redis}.log"
    with daphne(db_url=database_url(), log_name=log_name, env={"REDIS_URL": url_of_redis}) as url:
        token, created = sign_in_and_create_a_session(url, "wendy")
        outcomes = [
            websocket_outcome(url, path, token)
            for path in ("/ws/notifications/", f"/ws/sessions/{created['_id']}/")
        ]

    # Refused cleanly after the handshake: 4503, try again later.
    assert outcomes == [("closed", 4503), ("closed", 4503)]
    assert "Traceback" not in (ARTIFACTS / log_name).read_text()
