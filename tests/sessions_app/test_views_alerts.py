"""The crisis banner's resync endpoint and its place on every staff page (QUALITY C2): what
the on-duty counselors and ops see, what an off-duty counselor does not, and that the banner
names the session neutrally. The live behaviour is proved in tests/browser/test_crisis_alerts.py."""

from __future__ import annotations

import pytest
from django.test import Client

from tests import factories

pytestmark = pytest.mark.django_db

CRISIS_WORDS = "I want to kill myself"


@pytest.fixture
def crisis(alice, erin, api_as):
    client = api_as(alice)
    session_id = client.post("/api/ask/sessions", {}, format="json").json()["_id"]
    client.post(f"/api/ask/sessions/{session_id}/messages", {"text": CRISIS_WORDS}, format="json")
    return session_id


def page_for(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def test_an_on_duty_counselor_gets_the_open_alert_with_a_claim_form(crisis, erin):
    html = page_for(erin).get("/alerts/").content.decode()
    assert f'data-session="{crisis}"' in html
    assert "Support session" in html
    assert CRISIS_WORDS not in html
    assert f'action="/sessions/{crisis}/claim/"' in html
    assert "csrfmiddlewaretoken" in html


def test_a_claimed_alert_leaves_the_banner(crisis, erin, api_as):
    api_as(erin).post(f"/api/ask/sessions/{crisis}/claim", format="json")
    other = factories.on_duty_counselor("frank")
    assert "crisis-alert" not in page_for(other).get("/alerts/").content.decode()


def test_an_off_duty_counselor_has_no_banner(crisis, bob):
    client = page_for(bob)
    assert "crisis-alert" not in client.get("/alerts/").content.decode()
    assert 'id="crisis-alerts"' not in client.get("/insights/").content.decode()


def test_every_staff_page_carries_the_banner_for_whoever_receives_alerts(crisis, erin, olga):
    for user in (erin, olga):
        for path in ("/", "/insights/", "/sandbox/"):
            html = page_for(user).get(path).content.decode()
            assert 'id="crisis-alerts"' in html, (user, path)
            assert 'ws-connect="/ws/counselors/"' in html
            assert "naisei/alerts.js" in html


# --- the risk form on the session page -----------------------------------------------------------


def risk_form(html: str) -> str:
    start = html.index('<form class="risk-form"')
    return html[start : html.index("</form>", start)]


def test_the_risk_form_shows_the_current_level_selected(bob, alice):
    session = factories.ActiveSessionFactory(user=alice, final_risk_level="L3")
    form = risk_form(page_for(bob).get(f"/sessions/{session.pk}/").content.decode())
    assert '<option value="L3" selected>' in form
    assert '<option value="L0" selected>' not in form
    assert 'data-current="L3"' in form


def test_the_risk_form_warns_before_a_lowering_and_asks_for_the_reason(bob, alice):
    session = factories.ActiveSessionFactory(user=alice, final_risk_level="L3")
    form = risk_form(page_for(bob).get(f"/sessions/{session.pk}/").content.decode())
    assert 'class="risk-lowering"' in form
    assert "Lower than the current level (L3)" in form
    assert 'id="risk-reason"' in form


def test_lowering_from_the_page_without_a_reason_is_still_refused(bob, alice):
    session = factories.ActiveSessionFactory(user=alice, final_risk_level="L3")
    client = Client()
    client.force_login(bob)
    client.post(f"/sessions/{session.pk}/risk/", {"level": "L1"})
    session.refresh_from_db()
    assert session.final_risk_level == "L3"


def test_a_raise_by_a_person_is_in_the_risk_trail_with_who_and_why(bob, alice, api_as):
    session = factories.ActiveSessionFactory(user=alice)
    reason = "She named a date and a place."
    api_as(bob).post(
        f"/api/ask/sessions/{session.pk}/risk", {"level": "L4", "reason": reason}, format="json"
    )
    html = page_for(bob).get(f"/sessions/{session.pk}/").content.decode()
    trail = html[html.index('class="risk-changes"') :]
    assert "L0 → L4" in trail
    assert reason in trail
