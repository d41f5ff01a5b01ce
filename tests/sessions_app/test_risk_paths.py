"""SPEC §3, QUALITY C2: every way risk rises to L3/L4 (the net, the Analyst, the service role, a
counselor, ops) goes through one path: the crisis flow, the on-duty counselors alerted, the
escalation clock started, one `risk.escalated` event; and an on-duty counselor may claim it."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from sessions_app.models import AskSession, Notification, SandboxSession, SessionEvent
from tests import factories

pytestmark = pytest.mark.django_db


def alerted(counselor: Any, session: AskSession) -> bool:
    return Notification.objects.filter(
        user=counselor, session=session, kind=Notification.Kind.CRISIS_ALERT
    ).exists()


def assert_in_the_crisis_loop(session: AskSession, level: str, source: str) -> None:
    session.refresh_from_db()
    assert session.alerted_at is not None
    assert session.intervention_triggered
    assert session.session_type == AskSession.SessionType.CRISIS_INTERVENTION
    [event] = SessionEvent.objects.filter(session=session, type="risk.escalated")
    assert (event.payload["level"], event.payload["source"]) == (level, source)
    assert event.payload["notified"] >= 1


def claim(api_as: Any, counselor: Any, session: AskSession) -> Any:
    return api_as(counselor).post(f"/api/ask/sessions/{session.pk}/claim", format="json")


def test_a_service_create_at_l4_alerts_on_duty_counselors_who_may_claim_it(
    api_as, alice, erin, service_account
):
    body = {
        "user_id": alice.pk,
        "session_type": "crisis_intervention",
        "initial_risk_level": "L4",
    }
    response = api_as(service_account).post("/api/ask/sessions", body, format="json")
    assert response.status_code == 201, response.content
    session = AskSession.objects.get(pk=response.json()["_id"])

    assert alerted(erin, session)
    assert_in_the_crisis_loop(session, "L4", "service")
    response = claim(api_as, erin, session)
    assert response.status_code == 200, response.content
    assert response.json()["handoff_reason"] == "crisis_alert"


def test_a_service_patch_raising_the_risk_to_l3_alerts_and_starts_the_clock(
    api_as, alice, erin, service_account
):
    session = factories.ActiveSessionFactory(user=alice)
    url = f"/api/ask/sessions/{session.pk}"
    response = api_as(service_account).patch(url, {"final_risk_level": "L3"}, format="json")
    assert response.status_code == 200, response.content

    assert alerted(erin, session)
    assert_in_the_crisis_loop(session, "L3", "service")
    assert claim(api_as, erin, session).status_code == 200


def test_a_counselor_raising_the_risk_by_hand_alerts_the_on_duty_counselors(
    api_as, alice, bob, erin
):
    session = factories.ActiveSessionFactory(user=alice)
    response = api_as(bob).post(
        f"/api/ask/sessions/{session.pk}/risk", {"level": "L4", "reason": "a plan"}, format="json"
    )
    assert response.status_code == 200, response.content

    assert alerted(erin, session)
    assert_in_the_crisis_loop(session, "L4", "counselor")
    event = SessionEvent.objects.get(session=session, type="risk.escalated")
    assert event.actor_user == bob
    assert event.payload["reason"] == "a plan"


def test_ops_raising_the_risk_in_a_patch_goes_the_same_way(api_as, alice, olga, erin):
    session = factories.ActiveSessionFactory(user=alice)
    url = f"/api/ask/sessions/{session.pk}"
    response = api_as(olga).patch(url, {"final_risk_level": "L3"}, format="json")
    assert response.status_code == 200, response.content
    assert alerted(erin, session)
    assert_in_the_crisis_loop(session, "L3", "ops")


def test_a_counselor_who_came_on_duty_after_the_alert_may_claim_it(
    api_as, alice, erin, service_account
):
    session = factories.ActiveSessionFactory(user=alice)
    api_as(service_account).patch(
        f"/api/ask/sessions/{session.pk}", {"final_risk_level": "L3"}, format="json"
    )
    late = factories.on_duty_counselor("gail")
    assert not alerted(late, session)
    assert claim(api_as, late, session).status_code == 200


def test_an_off_duty_stranger_still_may_not_claim(api_as, alice, erin, dana, service_account):
    session = factories.ActiveSessionFactory(user=alice)
    api_as(service_account).patch(
        f"/api/ask/sessions/{session.pk}", {"final_risk_level": "L3"}, format="json"
    )
    assert claim(api_as, dana, session).status_code in (403, 404)


def test_raising_below_l3_is_only_a_recorded_change(api_as, alice, erin, service_account):
    session = factories.ActiveSessionFactory(user=alice)
    url = f"/api/ask/sessions/{session.pk}"
    response = api_as(service_account).patch(url, {"final_risk_level": "L2"}, format="json")
    assert response.status_code == 200, response.content
    session.refresh_from_db()
    assert session.alerted_at is None
    assert not alerted(erin, session)
    assert SessionEvent.objects.filter(session=session, type="risk.changed").exists()


def test_raising_the_risk_of_a_finished_session_records_it_without_reopening_it(
    api_as, alice, bob, erin
):
    session = factories.AskSessionFactory(user=alice, phase=AskSession.Phase.CLOSING)
    response = api_as(bob).post(
        f"/api/ask/sessions/{session.pk}/risk",
        {"level": "L3", "reason": "read later"},
        format="json",
    )
    assert response.status_code == 200, response.content
    session.refresh_from_db()
    assert session.final_risk_level == "L3"
    assert session.status == AskSession.Status.COMPLETED
    assert session.phase == AskSession.Phase.CLOSING
    assert session.alerted_at is None  # nobody to claim: the client has gone
    assert SessionEvent.objects.filter(session=session, type="risk.escalated").exists()


def test_a_service_patch_of_the_initial_level_into_a_crisis_escalates_too(
    api_as, alice, erin, service_account
):
    session = factories.ActiveSessionFactory(user=alice)
    url = f"/api/ask/sessions/{session.pk}"
    response = api_as(service_account).patch(url, {"initial_risk_level": "L4"}, format="json")
    assert response.status_code == 200, response.content
    assert alerted(erin, session)
    assert_in_the_crisis_loop(session, "L4", "service")
    event = SessionEvent.objects.get(session=session, type="risk.escalated")
    assert event.payload["previous"] == "L0"
    assert session.initial_risk_level == "L4"


def test_a_service_patch_may_not_lower_the_initial_level_under_the_running_risk(
    api_as, alice, service_account
):
    session = factories.ActiveSessionFactory(user=alice, initial_risk_level="L4")
    url = f"/api/ask/sessions/{session.pk}"
    response = api_as(service_account).patch(url, {"initial_risk_level": "L0"}, format="json")
    assert response.status_code == 400, response.content
    assert "initial_risk_level" in response.json()["fields"]
    session.refresh_from_db()
    assert session.initial_risk_level == "L4"


def test_a_sandbox_crisis_stays_with_the_counselor_playing_it(api_as, alice, bob, erin):
    session = factories.ActiveSessionFactory(user=bob, alerted_at=timezone.now())
    SandboxSession.objects.create(session=session, counselor=bob)
    assert claim(api_as, erin, session).status_code in (403, 404)


@pytest.fixture
def crisis(alice):
    return factories.ActiveSessionFactory(
        user=alice,
        initial_risk_level="L4",
        final_risk_level="L4",
        intervention_triggered=True,
        session_type=AskSession.SessionType.CRISIS_INTERVENTION,
    )


@pytest.mark.parametrize(
    "change",
    [
        {"initial_risk_level": "L0"},
        {"final_risk_level": "L2"},
        {"final_risk_level": None},
        {"intervention_triggered": False},
        {"session_type": "general"},
        {"initial_risk_level": "L0", "intervention_triggered": False, "session_type": "general"},
    ],
)
def test_a_service_patch_lowers_no_field_that_carries_risk(api_as, crisis, service_account, change):
    url = f"/api/ask/sessions/{crisis.pk}"
    response = api_as(service_account).patch(url, change, format="json")
    assert response.status_code == 400, response.content
    assert set(change) <= set(response.json()["fields"])
    crisis.refresh_from_db()
    assert (crisis.initial_risk_level, crisis.final_risk_level) == ("L4", "L4")
    assert crisis.intervention_triggered
    assert crisis.session_type == AskSession.SessionType.CRISIS_INTERVENTION
    assert not SessionEvent.objects.filter(session=crisis, type="session.updated").exists()


def test_a_counselor_patch_lowers_the_final_level_under_the_initial_one_neither(api_as, alice, bob):
    session = factories.ActiveSessionFactory(
        user=alice, initial_risk_level="L2", final_risk_level="L1"
    )
    response = api_as(bob).patch(
        f"/api/ask/sessions/{session.pk}", {"final_risk_level": "L0"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "final_risk_level" in response.json()["fields"]
    session.refresh_from_db()
    assert session.final_risk_level == "L1"


def test_a_patch_repeating_the_crisis_markers_is_no_lowering(api_as, crisis, service_account):
    unchanged = {
        "initial_risk_level": "L4",
        "final_risk_level": "L4",
        "intervention_triggered": True,
        "session_type": "crisis_intervention",
        "session_summary": "Safety plan agreed.",
    }
    response = api_as(service_account).patch(
        f"/api/ask/sessions/{crisis.pk}", unchanged, format="json"
    )
    assert response.status_code == 200, response.content
