"""SPEC §3: risk never silently goes down. A counselor or ops lowers it only with a written
reason, and the log keeps the old level, the new one, who and why; clients may not touch it."""

from __future__ import annotations

import pytest

from sessions_app.models import SessionEvent
from tests import factories

pytestmark = pytest.mark.django_db


def risk_url(session):
    return f"/api/ask/sessions/{session.pk}/risk"


@pytest.fixture
def escalated(alice):
    return factories.ActiveSessionFactory(
        user=alice, initial_risk_level="L0", final_risk_level="L4", intervention_triggered=True
    )


def test_lowering_without_a_reason_is_refused_and_changes_nothing(api_as, bob, escalated):
    response = api_as(bob).post(risk_url(escalated), {"level": "L1"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "E_VALIDATION"
    assert "reason" in body["fields"]
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L4"
    assert not SessionEvent.objects.filter(session=escalated, type="risk.changed").exists()


def test_lowering_with_a_reason_records_old_and_new_level_and_the_author(api_as, bob, escalated):
    reason = "False alarm: a quote from a film, confirmed with the client."
    response = api_as(bob).post(
        risk_url(escalated), {"level": "L1", "reason": reason}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json() == {"previous": "L4", "level": "L1", "reason": reason}
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L1"
    event = SessionEvent.objects.get(session=escalated, type="risk.changed")
    assert event.payload == {"previous": "L4", "level": "L1", "reason": reason}
    assert event.actor_user == bob
    assert event.actor == "counselor"


def test_a_patch_may_raise_the_risk_but_not_lower_it(api_as, bob, escalated):
    url = f"/api/ask/sessions/{escalated.pk}"
    response = api_as(bob).patch(url, {"final_risk_level": "L2"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert "final_risk_level" in response.json()["fields"]
    calm = factories.ActiveSessionFactory(user=factories.ClientFactory())
    factories.CaseloadAssignmentFactory(counselor=bob, client=calm.user)
    response = api_as(bob).patch(
        f"/api/ask/sessions/{calm.pk}", {"final_risk_level": "L3"}, format="json"
    )
    assert response.status_code == 200, response.content
    # Into a crisis: the one escalation path, whoever raised it (test_risk_paths.py).
    event = SessionEvent.objects.get(session=calm, type="risk.escalated")
    assert (event.payload["previous"], event.payload["level"]) == ("L0", "L3")
    assert event.actor_user == bob


def test_a_patch_may_not_clear_a_raised_risk_with_null(api_as, bob, escalated):
    # Found by make fuzz: `{"final_risk_level": null}` compared None with a level (a 500).
    url = f"/api/ask/sessions/{escalated.pk}"
    response = api_as(bob).patch(url, {"final_risk_level": None}, format="json")
    assert response.status_code == 400, response.content
    assert "final_risk_level" in response.json()["fields"]
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L4"


def test_a_patch_may_leave_an_unassessed_risk_unassessed(api_as, bob):
    calm = factories.ActiveSessionFactory(user=factories.ClientFactory(), final_risk_level=None)
    factories.CaseloadAssignmentFactory(counselor=bob, client=calm.user)
    response = api_as(bob).patch(
        f"/api/ask/sessions/{calm.pk}", {"final_risk_level": None}, format="json"
    )
    assert response.status_code == 200, response.content


def test_clients_may_not_change_a_risk_level(api_as, alice, escalated):
    response = api_as(alice).post(
        risk_url(escalated), {"level": "L1", "reason": "I'm fine"}, format="json"
    )
    assert response.status_code == 403


def test_the_session_page_shows_who_lowered_the_risk_and_why(client, api_as, bob, escalated):
    reason = "Spoke with her; the plan was a line from a novel."
    api_as(bob).post(risk_url(escalated), {"level": "L2", "reason": reason}, format="json")
    client.force_login(bob)
    page = client.get(f"/sessions/{escalated.pk}/").content.decode()
    assert "L4 → L2" in page
    assert reason in page


INVISIBLE = [
    "\u200b\u200b\u200b",
    "\u200b \u2060\ufeff",
    "\u00a0\u3000",
    "\u0301\u0302",
    "\x01\x02",
]


@pytest.mark.parametrize("reason", INVISIBLE)
def test_a_reason_that_shows_nothing_is_no_reason(api_as, bob, escalated, reason):
    response = api_as(bob).post(
        risk_url(escalated), {"level": "L1", "reason": reason}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert "reason" in response.json()["fields"]
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L4"


def test_the_session_page_refuses_a_reason_of_zero_width_spaces(client, bob, escalated):
    client.force_login(bob)
    url = f"/sessions/{escalated.pk}/risk/"
    client.post(url, {"level": "L1", "reason": "\u200b" * 5}, HTTP_HX_REQUEST="true")
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L4"
    client.post(url, {"level": "L1", "reason": "A line from a film."}, HTTP_HX_REQUEST="true")
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L1"  # the same form, with a reason, is heard
