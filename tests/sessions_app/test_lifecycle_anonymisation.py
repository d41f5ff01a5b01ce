"""QUALITY R9: anonymisation leaves no trace of the client's words anywhere in the database, while
the CBT statistics survive — through the nightly retention sweep and through soft delete, on
SQLite and on PostgreSQL (where the event log's trigger allows exactly this one rewrite)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from psychologist.models import AnalysisRequest, Hypothesis
from psychologist.services import hypothesis_accept
from sessions_app import events, redaction, services
from sessions_app.engine.graph import tree as graph
from sessions_app.engine.services import workline_create
from sessions_app.jobs import lifecycle
from sessions_app.models import (
    AskMessage,
    AskSession,
    IdempotencyRecord,
    Notification,
    SessionEvent,
    Task,
    UserProfile,
    Workline,
)
from tests import factories
from tests.sessions_app.lifecycle_support import converse, database_columns_containing

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 9, 30, 3, 0, tzinfo=UTC)
CANARY = "CANARYzq7x41"

STATISTICS = {
    "session_type": "cbt_guided",
    "cbt_focus": "cognitive_restructuring",
    "cbt_techniques_used": ["thought_record", "socratic_questioning"],
    "initial_risk_level": "L2",
    "final_risk_level": "L1",
    "satisfaction_score": 4,
    "turn_count": 3,
    "duration_seconds": 900,
    "intervention_triggered": False,
}


def say(session: AskSession, kind: str, text: str, **payload) -> AskMessage:
    role = AskMessage.Role.CLIENT if kind in ("answer", "last_thing") else AskMessage.Role.ANALYST
    return graph.message_append(session=session, role=role, kind=kind, text=text, payload=payload)


def plant(user, *, created_at: datetime) -> AskSession:
    """A closed session with the canary in every place a client's words can end up."""
    session = factories.AskSessionFactory(
        user=user,
        created_at=created_at,
        last_activity_at=created_at + timedelta(minutes=15),
        ended_at=created_at + timedelta(minutes=15),
        session_title=f"About {CANARY}",
        session_summary=f"The client spoke about {CANARY} at length.",
        key_insights=[f"Noticing {CANARY} helps"],
        conversation_variables={"mood_word": CANARY},
        slots={"guardian_name": f"Ms {CANARY}", "is_minor": False, "topic_chosen": True},
        **STATISTICS,
    )
    converse(session, [(f"What is {CANARY} to you?", f"{CANARY} is my sister's dog")])
    say(session, "analysis", "", questions=[f"the user mentions {CANARY}"], mood_delta="improving")
    say(session, "insight", f"You light up when {CANARY} comes up")
    say(session, "last_thing", f"One last thing: {CANARY} again")
    say(session, "note", f"Noted: {CANARY}")
    session.refresh_from_db()
    Workline.objects.filter(session=session).update(
        compaction_summary=f"Earlier: {CANARY}",
        compacted_questions=[f"the user mentions {CANARY}"],
    )
    workline_create(session=session, name=f"{CANARY} worries")
    for event_type, payload in (
        ("answer.received", {"card_id": 3, "answer": f"{CANARY} is my sister's dog"}),
        ("analyst.responded", {"questions": [f"does {CANARY} matter"], "mood_delta": "declining"}),
        ("risk.escalated", {"from": "L1", "level": "L2", "reason": "keyword"}),
        ("validation.blocked", {"guard": "require_safety_plan", "missing": ["safety_plan"]}),
    ):
        events.event_append(session=session, type=event_type, payload=payload)
    plant_elsewhere(session)
    return session


def plant_elsewhere(session: AskSession) -> None:
    """The canary copied out of the session: a notification, a replayable response, a profile
    entry learned from it, and a row of another app registered with the scrub hook."""
    factories.NotificationFactory(
        user=session.user, session=session, payload={"title": f"Re {CANARY}"}, sent_at=NOW
    )
    IdempotencyRecord.objects.create(
        user=session.user,
        key="k-1",
        fingerprint="f" * 64,
        response_status=200,
        response_body={"answered": [{"answer": CANARY}]},
        created_at=session.created_at + timedelta(minutes=5),
    )
    UserProfile.objects.filter(user=session.user).update(
        observed_patterns=[
            {"session_id": str(session.pk), "text": f"mentions {CANARY}"},
            {"text": "walks help"},
        ]
    )
    hypothesis = factories.HypothesisFactory(
        analysis__session=session,
        evidence=list(session.events.filter(type="answer.received")),
        statement=f"The client lights up about {CANARY}.",
        termination_analysis=f"Ended while talking about {CANARY}.",
    )
    hypothesis_accept(hypothesis=hypothesis, by=None)
    plant_homework(session)


def plant_homework(session: AskSession) -> None:
    """CBT homework the session proposed, filled in with the canary, reminded of."""
    task = factories.TaskFactory(
        session=session,
        status="done",
        title=f"A thought record about {CANARY}",
        instructions=f"When {CANARY} comes up, write it down.",
        entries={
            "situation": f"{CANARY} at the park",
            "automatic_thought": f"{CANARY} hates me",
            "intensity": 70,
            "rerated_intensity": 30,
        },
        rating_before=70,
        rating_after=30,
        completion_note=f"Done, {CANARY} was fine",
    )
    factories.NotificationFactory(
        user=session.user,
        session=session,
        kind=Notification.Kind.TASK_REMINDER,
        dedupe_key=f"task:{task.pk}",
        payload={"title": f"Today: {CANARY}", "task_id": str(task.pk)},
        sent_at=NOW,
    )


@pytest.fixture
def hook_with_analysis_requests(monkeypatch):
    """Another model registered with the scrub hook, to show what the hook does to any model."""
    registry = {**redaction.SESSION_TEXT_MODELS, "psychologist.AnalysisRequest": "session"}
    monkeypatch.setattr(redaction, "SESSION_TEXT_MODELS", registry)


def assert_statistics_survive(session: AskSession) -> None:
    session.refresh_from_db()
    for name, value in STATISTICS.items():
        assert getattr(session, name) == value, name
    assert session.message_count == 6
    assert session.anonymised_at == NOW
    events = {e.type: e.payload for e in session.events.all()}
    assert events["answer.received"] == {"card_id": 3, "answer": "[redacted]"}
    assert events["analyst.responded"]["mood_delta"] == "declining"
    assert events["risk.escalated"] == {"from": "L1", "level": "L2", "reason": "keyword"}
    assert events["validation.blocked"]["missing"] == ["safety_plan"]
    analysis = session.messages.get(kind="analysis").payload
    assert analysis == {"questions": ["[redacted]"], "mood_delta": "improving"}
    assert session.slots == {"guardian_name": "[redacted]", "is_minor": False, "topic_chosen": True}
    profile = UserProfile.objects.get(user=session.user)
    assert profile.observed_patterns == [{"text": "walks help"}]
    assert profile.accepted_hypotheses == []
    hypothesis = Hypothesis.objects.get(session=session)
    assert (hypothesis.status, hypothesis.confidence) == ("accepted", 60)
    task = Task.objects.get(session=session)  # the homework's statistics stay
    assert (task.kind, task.status, task.rating_before, task.rating_after) == (
        "thought_record",
        "done",
        70,
        30,
    )
    assert task.entries["intensity"] == 70


def test_after_retention_the_canary_is_in_no_column_of_any_table_and_the_statistics_survive(
    alice,
):
    with time_machine.travel(NOW, tick=False):
        session = plant(alice, created_at=NOW - timedelta(days=200))
        assert len(database_columns_containing(CANARY)) >= 10  # the probe finds what is there

        report = lifecycle.retention_apply()

    assert report.counts["general"] == 1
    assert database_columns_containing(CANARY) == []
    assert_statistics_survive(session)
    [event] = session.events.filter(type="session.anonymised")
    assert event.payload["reason"] == "retention_general"
    assert event.created_at == NOW


def test_after_a_soft_delete_the_canary_is_in_no_column_of_any_table(
    alice, django_capture_on_commit_callbacks
):
    with time_machine.travel(NOW, tick=False):
        session = plant(alice, created_at=NOW - timedelta(days=2))
        with django_capture_on_commit_callbacks(execute=True):
            services.session_delete(session=session, actor=alice)

    assert database_columns_containing(CANARY) == []
    assert_statistics_survive(session)
    assert session.is_deleted
    assert session.events.get(type="session.anonymised").payload["reason"] == "deleted"


def test_anonymising_twice_records_it_once_and_scrubs_what_was_written_since(alice):
    session = factories.AskSessionFactory(user=alice)
    assert services.session_anonymise(session_id=session.pk) is True
    events.event_append(session=session, type="psychologist.iteration", payload={"text": CANARY})
    assert services.session_anonymise(session_id=session.pk) is False
    assert database_columns_containing(CANARY) == []
    assert session.events.filter(type="session.anonymised").count() == 1


def test_an_active_session_is_not_anonymised(alice):
    session = factories.ActiveSessionFactory(user=alice, session_summary=CANARY)
    assert services.session_anonymise(session_id=session.pk) is False
    session.refresh_from_db()
    assert session.session_summary == CANARY


def test_pending_notifications_about_an_anonymised_session_are_withdrawn(alice):
    session = factories.AskSessionFactory(user=alice)
    factories.NotificationFactory(user=alice, session=session, scheduled_for=NOW)
    services.session_anonymise(session_id=session.pk)
    assert not Notification.objects.filter(session=session).exists()


def test_the_scrub_hook_blanks_free_text_and_keeps_enums_of_registered_models(
    alice, hook_with_analysis_requests
):
    session = factories.AskSessionFactory(user=alice)
    request = AnalysisRequest.objects.create(session=session, last_error=CANARY, status="failed")
    services.session_anonymise(session_id=session.pk)
    request.refresh_from_db()
    assert (request.last_error, request.status, request.triggered_by) == ("", "failed", "auto")


def test_the_scrub_hook_skips_models_that_are_not_installed_yet(alice, monkeypatch):
    monkeypatch.setattr(redaction, "SESSION_TEXT_MODELS", {"psychologist.NotBuiltYet": "session"})
    session = factories.AskSessionFactory(user=alice)
    assert services.session_anonymise(session_id=session.pk) is True


def test_every_installed_model_of_the_scrub_hook_reaches_a_session_and_has_free_text():
    from django.apps import apps

    for label, lookup in redaction.SESSION_TEXT_MODELS.items():
        try:
            model = apps.get_model(label)
        except LookupError:
            continue
        assert redaction.free_text_fields(model), label
        # The lookup must lead to a session: a wrong one raises FieldError here, not at night.
        model.objects.filter(**{lookup: "00000000-0000-0000-0000-000000000000"}).exists()


def test_payload_redaction_keeps_codes_numbers_and_structure_and_drops_words():
    payload = {
        "answer": "yes",
        "card_id": 4,
        "crisis_signal": False,
        "state_after": "dialogue",
        "reason": "I felt bad",  # a code key, but words: dropped
        "techniques": ["thought_record"],
        "slots_updated": {"guardian_name": "Mary", "is_minor": True, "score": 2.5},
        "handoff_time": "2026-03-10T09:00:00+00:00",
        "nothing": None,
        "empty": "",
    }
    assert redaction.payload_redact(payload) == {
        "answer": "[redacted]",
        "card_id": 4,
        "crisis_signal": False,
        "state_after": "dialogue",
        "reason": "[redacted]",
        "techniques": ["thought_record"],
        "slots_updated": {"guardian_name": "[redacted]", "is_minor": True, "score": 2.5},
        "handoff_time": "2026-03-10T09:00:00+00:00",
        "nothing": None,
        "empty": "",
    }


@pytest.mark.django_db(transaction=True)
def test_the_event_payloads_can_be_rewritten_only_inside_the_anonymisation_transaction(alice):
    session = factories.AskSessionFactory(user=alice)
    events.event_append(session=session, type="answer.received", payload={"answer": CANARY})
    with pytest.raises(RuntimeError, match="only inside"):
        redaction.event_payloads_redact(session)
    assert SessionEvent.objects.get(session=session).payload == {"answer": CANARY}


def test_what_staff_and_the_client_sent_with_idempotency_keys_goes_with_the_session(
    alice, erin, api_as, django_capture_on_commit_callbacks
):
    """Stored replays of every writer (the counselor's message, a risk change's reason, a steer
    note, the client's own words) are copies of the session's text: scrubbed with it."""
    client, counselor = api_as(alice), api_as(erin)
    session_id = client.post("/api/ask/sessions", {}, format="json").json()["_id"]
    url = f"/api/ask/sessions/{session_id}"
    client.post(f"{url}/messages", {"text": "Work"}, format="json")
    client.post(f"{url}/messages", {"text": "I want to kill myself"}, format="json")
    keyed = {"format": "json", "HTTP_IDEMPOTENCY_KEY": "k"}
    sent = [
        counselor.post(f"{url}/claim", **{**keyed, "HTTP_IDEMPOTENCY_KEY": "claim"}),
        counselor.post(f"{url}/take-over", **{**keyed, "HTTP_IDEMPOTENCY_KEY": "take-over"}),
        counselor.post(f"{url}/counselor-messages", {"text": f"I am here, {CANARY}"}, **keyed),
        counselor.post(
            f"{url}/steer",
            {"text": f"Ask about {CANARY}"},
            **{**keyed, "HTTP_IDEMPOTENCY_KEY": "s"},
        ),
        counselor.post(
            f"{url}/risk",
            {"level": "L2", "reason": f"Safety plan with {CANARY}"},
            **{**keyed, "HTTP_IDEMPOTENCY_KEY": "r"},
        ),
        client.post(f"{url}/messages", {"text": f"Thank you, {CANARY}"}, **keyed),
    ]
    assert [response.status_code for response in sent] == [200, 200, 201, 201, 200, 200], [
        response.content for response in sent
    ]
    assert "sessions_app_idempotencyrecord.response_body" in database_columns_containing(CANARY)

    with django_capture_on_commit_callbacks(execute=True):
        assert client.delete(url).status_code == 204

    assert database_columns_containing(CANARY) == []


def test_the_probe_reads_encoded_columns_decoded(alice):
    """A needle pickled into a job's arguments is found: the scan cannot be fooled by encoding."""
    from django_q.models import Task as Job

    Job.objects.create(
        id="a" * 32,
        name="probe",
        func="sessions_app.tasks.session_anonymise",
        args=(f"words: {CANARY}",),
        started=NOW,
        stopped=NOW,
        success=True,
    )
    assert database_columns_containing(CANARY) == ["django_q_task.args"]
