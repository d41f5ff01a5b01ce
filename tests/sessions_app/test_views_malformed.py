"""SPEC §9: no input to any staff page produces a 500. Every POST page and the GET
pages that read a query, as the counselor who may act and as ops, with hostile values in every
field the pages read."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sessions_app.engine.graph import tree as graph
from sessions_app.engine.services import workline_create
from sessions_app.events import EventType
from tests import factories
from tests.sessions_app.test_access_matrix import HTML_TABLE

pytestmark = pytest.mark.django_db

NASTY = ["", "\x00", "a\x00b", "x" * 5000, "9" * 40, "-1", "L9", "<script>", "null", "[]", "{}"]
FIELDS = (
    "card_id",
    "text",
    "message_id",
    "level",
    "reason",
    "agent",
    "flow",
    "cbt_focus",
    "locale",
    "provider",
    "script",
    "is_minor",
    "finish",
    "username",
    "password",
    "language",
    "next",
)
POST_ROUTES = sorted(route for route, method in HTML_TABLE if method == "POST")


@pytest.fixture
def live_session(alice):
    session = factories.AskSessionFactory(user=alice, status="active")
    graph.message_append(session=session, role="narrator", kind="question_card", text="Q?")
    return session


def kwargs_for(route: str, session) -> dict:
    if route in ("login", "logout", "pages:sandbox-start", "set_language"):
        return {}
    if route.startswith("review:hypothesis-"):
        return {"hypothesis_id": factories.HypothesisFactory(analysis__session=session).pk}
    kwargs = {"session_id": session.pk}
    if route == "pages:session-workline-activate":
        kwargs["workline_id"] = workline_create(session=session, name="other", activate=False).pk
    return kwargs


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize("who", ["bob", "olga"])
@pytest.mark.parametrize("value", NASTY, ids=range(len(NASTY)))
def test_no_hostile_field_makes_a_staff_page_answer_500(request, live_session, route, who, value):
    user = request.getfixturevalue(who)
    client = Client()
    client.force_login(user)
    url = reverse(route, kwargs=kwargs_for(route, live_session))
    response = client.post(url, dict.fromkeys(FIELDS, value))
    assert response.status_code < 500, (route, response.content[:300])


@pytest.mark.parametrize("query", ["?view=tree&highlightEvent=%00", "?highlightEvent=" + "9" * 40])
def test_no_hostile_query_makes_the_session_page_answer_500(live_session, olga, query):
    client = Client()
    client.force_login(olga)
    url = reverse("pages:session", kwargs={"session_id": live_session.pk})
    assert client.get(url + query).status_code < 500


@pytest.mark.parametrize("event_type", EventType.values)
def test_a_session_page_renders_any_event_payload_the_log_can_hold(live_session, olga, event_type):
    # The log keeps whatever a writer of its day put there: a key missing renders, never a 500.
    factories.SessionEventFactory(session=live_session, type=event_type, payload={})
    live_session.alerted_at = timezone.now()
    live_session.save(update_fields=["alerted_at"])
    client = Client()
    client.force_login(olga)
    url = reverse("pages:session", kwargs={"session_id": live_session.pk})
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]


HOSTILE_PAYLOAD = {
    "notified": "x",
    "message_id": [1],
    "occurred_at": 5,
    "cost_micro_usd": "x",
    "seconds_to_claim": "x",
    "waited_minutes": None,
    "stage": 1,
    "level": None,
    "counselor_id": "x",
    "text": {"a": 1},
    "mood_delta": 3,
}


@pytest.mark.parametrize("event_type", EventType.values)
def test_a_session_page_renders_a_payload_of_unexpected_types(live_session, olga, event_type):
    factories.SessionEventFactory(session=live_session, type=event_type, payload=HOSTILE_PAYLOAD)
    live_session.alerted_at = timezone.now()
    live_session.save(update_fields=["alerted_at"])
    client = Client()
    client.force_login(olga)
    url = reverse("pages:session", kwargs={"session_id": live_session.pk})
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
