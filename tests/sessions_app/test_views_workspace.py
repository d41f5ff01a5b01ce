"""The counselor's workspace on the staff pages: the claim page an alerted counselor
gets instead of the session, the home's queue, follow-ups and caseload, the workspace panel."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sessions_app.engine.services import session_claim
from sessions_app.models import AskSession, Notification
from tests import factories

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alerted(alice: Any) -> tuple[AskSession, Any]:
    erin = factories.on_duty_counselor("erin", first_name="Erin")
    session = factories.CrisisSessionFactory(
        user=alice, status="active", session_title="I want to die", alerted_at=timezone.now()
    )
    Notification.objects.create(user=erin, kind="crisis_alert", session=session)
    return session, erin


def test_an_alerted_counselor_gets_403_with_a_claim_button_then_the_session(alerted):
    session, erin = alerted
    client = signed_in(erin)
    page = client.get(reverse("pages:session", kwargs={"session_id": session.pk}))
    assert page.status_code == 403
    html = page.content.decode()
    assert reverse("pages:session-claim", kwargs={"session_id": session.pk}) in html
    assert "I want to die" not in html  # a neutral label, never the client's words

    claimed = client.post(reverse("pages:session-claim", kwargs={"session_id": session.pk}))
    assert claimed.status_code == 302
    assert claimed.url == reverse("pages:session", kwargs={"session_id": session.pk})
    opened = client.get(claimed.url)
    assert opened.status_code == 200
    assert "<span data-holder>Erin</span>" in opened.content.decode()  # the header: held by
    assert "Take over from the AI" in opened.content.decode()


def test_an_htmx_claim_sends_the_browser_to_the_session(alerted):
    session, erin = alerted
    response = signed_in(erin).post(
        reverse("pages:session-claim", kwargs={"session_id": session.pk}), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("pages:session", kwargs={"session_id": session.pk})


def test_the_home_queue_shows_the_alert_with_claim_level_and_a_neutral_label(alerted):
    session, erin = alerted
    html = signed_in(erin).get(reverse("pages:home")).content.decode()
    assert reverse("pages:session-claim", kwargs={"session_id": session.pk}) in html
    assert "Support session · " in html
    assert "alice" not in html.lower().split("crisis queue")[1].split("follow-ups")[0]
    assert "I want to die" not in html


def test_follow_ups_mark_the_overdue_and_show_the_year_when_not_this_year(bob, alice):
    now = timezone.localtime()
    factories.AskSessionFactory(
        user=alice, follow_up_needed=True, follow_up_at=now.replace(year=now.year - 1)
    )
    html = signed_in(bob).get(reverse("pages:home")).content.decode()
    assert "overdue" in html
    assert str(now.year - 1) in html


def test_the_caseload_shows_the_last_sessions_risk_and_label(bob, alice):
    factories.AskSessionFactory(
        user=alice, final_risk_level="L2", created_at=timezone.now() - timedelta(days=1)
    )
    html = signed_in(bob).get(reverse("pages:home")).content.decode()
    assert "risk--l2" in html


def test_the_holder_writes_and_steers_from_the_page(bob, alice):
    session = factories.ActiveSessionFactory(user=alice)
    session_claim(session=session, counselor=bob)
    client = signed_in(bob)
    kwargs = {"session_id": session.pk}
    client.post(reverse("pages:session-take-over", kwargs=kwargs))
    client.post(reverse("pages:session-counselor-message", kwargs=kwargs), {"text": "Hi Alice"})
    client.post(reverse("pages:session-steer", kwargs=kwargs), {"text": "Ask about sleep."})
    html = client.get(reverse("pages:session", kwargs=kwargs)).content.decode()
    assert "Hi Alice" in html
    assert "Ask about sleep." in html
    assert "Hand back to the AI" in html
    assert "took over: the AI is paused" in html


@pytest.mark.parametrize(
    ("referer", "expected"),
    [
        ("https://evil.example/phish", "/"),
        ("//evil.example/phish", "/"),
        ("http://testserver/?tab=queue", "http://testserver/?tab=queue"),
    ],
)
def test_a_refused_move_goes_back_only_to_a_page_of_this_site(alerted, referer, expected):
    session, erin = alerted
    session_claim(session=session, counselor=erin)
    frank = factories.on_duty_counselor("frank")
    Notification.objects.create(user=frank, kind="crisis_alert", session=session)
    refused = signed_in(frank).post(
        reverse("pages:session-claim", kwargs={"session_id": session.pk}), HTTP_REFERER=referer
    )
    assert refused.status_code == 302
    assert refused.url == expected
