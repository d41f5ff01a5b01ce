"""SPEC §3 / QUALITY C2: a refused or truncated model answer is never read as "no risk". Through
the real SDK against the fake Messages API: `risk.unassessed`, the follow-up due now, and a
human-review alert to the on-duty counselors — or to ops when nobody is on duty."""

from __future__ import annotations

import pytest
from django.utils import timezone

from sessions_app.engine.agents.schemas import ANALYST_TOOL
from sessions_app.jobs.outreach import follow_ups_notify
from sessions_app.models import Notification
from tests import factories
from tests import fake_anthropic as fake
from tests.engine.conftest import answer
from tests.engine.test_anthropic_engine import ANALYST

pytestmark = pytest.mark.django_db

INCOMPLETE = {
    "refusal": lambda: fake.text("I can't help with that.", stop_reason="refusal"),
    "max_tokens": lambda: fake.text("The user seems", stop_reason="max_tokens"),
}


@pytest.fixture
def on_duty(db):
    return factories.on_duty_counselor("nina")


@pytest.mark.parametrize("stop", list(INCOMPLETE))
def test_an_incomplete_analyst_answer_is_unassessed_risk_and_a_person_is_asked(
    session, fake_anthropic, on_duty, stop
):
    fake_anthropic.queue(INCOMPLETE[stop]())

    state = answer(session, "I don't know what to do any more with work")

    assert state["current_card"]["kind"] == "fallback"
    session.refresh_from_db()
    [event] = session.events.filter(type="risk.unassessed")
    assert event.payload["reason"] == stop
    assert event.payload["agent"] == "analyst"
    assert event.payload["alerted"] == 1
    assert session.final_risk_level == "L2"
    assert session.follow_up_needed is True
    assert session.follow_up_at is not None
    assert session.follow_up_at <= timezone.now()
    [review] = Notification.objects.filter(kind=Notification.Kind.REVIEW_NEEDED)
    assert review.user == on_duty
    assert review.payload == {"session_id": str(session.pk), "reason": stop}
    # and the follow-up job really fires for it
    assert follow_ups_notify().counts["sessions"] == 1


def test_with_nobody_on_duty_ops_are_asked(session, fake_anthropic, olga):
    fake_anthropic.queue(INCOMPLETE["refusal"]())
    answer(session, "Work stress")
    [review] = Notification.objects.filter(kind=Notification.Kind.REVIEW_NEEDED)
    assert review.user == olga


def test_a_truncated_narrator_after_a_calm_analyst_is_unassessed_too(
    session, fake_anthropic, on_duty
):
    fake_anthropic.queue(
        fake.tool_use(ANALYST_TOOL, ANALYST),
        fake.text("Do you", stop_reason="max_tokens"),
    )
    answer(session, "Work stress")
    [event] = session.events.filter(type="risk.unassessed")
    assert event.payload["agent"] == "narrator"
    assert Notification.objects.filter(kind=Notification.Kind.REVIEW_NEEDED).count() == 1
    assert len(fake_anthropic.requests) == 2  # no re-ask: a truncated answer is not retried
