"""QUALITY R10 and SPEC §3: with Redis unreachable (a closed port), a real server still signs a
client in, creates the session, and answers a crisis message with the static crisis resources —
the answer, the risk level and the escalation committed. Throttles fail open and log."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from sessions_app.models import AskMessage, AskSession, Notification, SessionEvent
from tests import factories
from tests.server import daphne, database_url, free_port

pytestmark = pytest.mark.usefixtures("committed_db")

PASSWORD = "a long test password"


@pytest.fixture
def committed_db(transactional_db: Any) -> None:
    """Committed rows, visible to the server subprocess."""


def call(url: str, method: str, body: dict[str, Any] | None = None, token: str = "") -> Any:
    request = urllib.request.Request(
        url,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Token {token}"} if token else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_with_redis_down_a_crisis_message_is_answered_and_escalated(settings):
    client = factories.ClientFactory(username="dora")
    client.set_password(PASSWORD)
    client.save()
    factories.UserProfileFactory(user=client)
    counselor = factories.CounselorFactory(username="cora")
    factories.UserProfileFactory(user=counselor, on_duty=True)
    closed_redis = f"redis://127.0.0.1:{free_port()}/0"

    with daphne(
        db_url=database_url(), log_name="outage.log", env={"REDIS_URL": closed_redis}
    ) as url:
        status, login = call(
            f"{url}/api/auth/token", "POST", {"username": "dora", "password": PASSWORD}
        )
        assert status == 200, login
        token = login["token"]
        status, created = call(f"{url}/api/ask/sessions", "POST", {}, token)
        assert status == 201, created
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
