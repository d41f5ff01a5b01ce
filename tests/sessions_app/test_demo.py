from __future__ import annotations

import itertools
import uuid
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.db.models import Count
from django.test import Client, RequestFactory

from sessions_app.engine.selectors import risk_escalated_payload
from sessions_app.management.commands import _demo_data as data
from sessions_app.models import AskMessage, AskSession, SessionEvent, Workline
from sessions_app.roles import Role, role_of

pytestmark = pytest.mark.django_db


def run_demo(*args: str) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def row_counts() -> dict[str, int]:
    models = [*apps.get_app_config("sessions_app").get_models(), get_user_model()]
    counts = {model._meta.label: model.objects.count() for model in models}
    user_model = get_user_model()
    counts["user_groups"] = user_model.groups.through.objects.count()
    counts["user_permissions"] = user_model.user_permissions.through.objects.count()
    return counts


def test_running_it_twice_leaves_every_row_count_unchanged():
    run_demo()
    first = row_counts()
    output = run_demo()
    assert row_counts() == first
    assert "0 new sessions" in output
    assert first["sessions_app.AskSession"] == len(data.SCHEMA_EXAMPLES) + len(data.STORY_SESSIONS)


def test_it_leaves_no_duplicates():
    run_demo()
    run_demo()
    usernames = get_user_model().objects.values("username").annotate(n=Count("id"))
    assert all(row["n"] == 1 for row in usernames)
    agents = apps.get_model("sessions_app", "AskAgent").objects.values("external_agent_id")
    assert agents.annotate(n=Count("id")).filter(n__gt=1).count() == 0
    for session in AskSession.objects.all():
        seqs = list(session.events.values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
        assert session.event_seq == len(seqs)
        assert session.messages.count() == session.message_count
        assert session.worklines.count() == 1


def test_it_creates_every_session_type():
    run_demo()
    types = set(AskSession.objects.values_list("session_type", flat=True))
    assert types == set(AskSession.SessionType.values)


def test_it_recreates_the_three_schema_examples_faithfully():
    run_demo()
    for doc in data.SCHEMA_EXAMPLES:
        session = AskSession.objects.get(
            dify_conversation_id=uuid.UUID(doc["dify_conversation_id"])
        )
        assert session.user.username == data.SCHEMA_USERS[doc["user_id"]]
        for key in ("session_type", "trigger_source", "active_agent_key", "agent_origin"):
            assert getattr(session, key) == doc[key]
        assert session.agent_snapshot == doc["agent_snapshot"]
        assert session.session_summary == doc["session_summary"]
        assert session.key_insights == doc["key_insights"]
        assert session.cbt_techniques_used == doc["cbt_techniques_used"]
        assert session.message_count == doc["message_count"]
        assert session.duration_seconds == doc["duration_seconds"]
        assert session.created_at.isoformat() == doc["createdAt"].replace("Z", "+00:00")
        assert session.updated_at.isoformat() == doc["updatedAt"].replace("Z", "+00:00")
        assert session.ended_at.isoformat() == doc["endedAt"].replace("Z", "+00:00")
        assert session.session_title == doc.get("session_title", "")


def test_schema_example_columns_carry_the_documents_values():
    run_demo()
    anxious, crisis, sleep = (
        AskSession.objects.get(dify_conversation_id=uuid.UUID(doc["dify_conversation_id"]))
        for doc in data.SCHEMA_EXAMPLES
    )
    assert anxious.session_title == "焦虑情绪梳理"
    assert anxious.voice_config["tts_voice"] == "calm_female_cn"
    assert (anxious.initial_risk_level, anxious.final_risk_level) == ("L2", "L1")
    assert anxious.follow_up_needed
    assert anxious.follow_up_at.isoformat() == "2024-04-08T14:00:00+00:00"
    assert anxious.audio_message_count == 3 == anxious.messages.filter(modality="audio").count()
    assert crisis.conversation_variables == {"riskFlag": "high", "autoEscalated": True}
    assert crisis.attachment_count == 2 == crisis.messages.filter(modality="file").count()
    assert crisis.counselor_handoff["handoff_reason"] == "crisis_risk"
    assert crisis.handoff_counselor.username == "counselor"
    assert crisis.handoff_time.isoformat() == "2024-04-06T16:45:00+00:00"
    assert crisis.intervention_triggered
    assert sleep.custom_agent.name == "暖心导师"
    assert sleep.custom_agent.owner == sleep.user
    assert sleep.satisfaction_score == 5


def test_a_crisis_session_is_handed_off_with_its_log():
    run_demo()
    handed_off = AskSession.objects.filter(
        session_type="crisis_intervention", handoff_counselor__isnull=False
    )
    assert handed_off.count() >= 1
    for session in handed_off:
        # The psychologist's records follow the close: the session's own life ends there.
        types = list(
            session.events.exclude(type__startswith="psychologist.").values_list("type", flat=True)
        )
        assert types[0] == "session.created"
        assert "handoff.created" in types
        assert types[-1] == "session.closed"


def test_messages_form_a_chain_ending_at_the_main_workline_head():
    run_demo()
    for session in AskSession.objects.all():
        messages = list(session.messages.order_by("created_at", "id"))
        assert messages[0].parent_id is None
        assert all(m.parent_id == prev.pk for prev, m in itertools.pairwise(messages))
        main = Workline.objects.get(session=session, name="main")
        assert main.head_id == messages[-1].pk
        assert session.active_workline_id == main.pk


def test_only_alice_is_mid_session():
    run_demo()
    active = AskSession.objects.active()
    assert [s.user.username for s in active] == ["alice"]


def test_events_record_the_cards_and_answers():
    run_demo()
    cards = AskMessage.objects.filter(kind="question_card").count()
    answers = AskMessage.objects.filter(kind="answer").count()
    assert SessionEvent.objects.filter(type="card.dealt").count() == cards
    assert SessionEvent.objects.filter(type="answer.received").count() == answers


def test_the_printed_logins_work_and_carry_their_roles():
    output = run_demo()
    for role, username in [("ops", "ops"), ("counselor", "counselor2"), ("client", "mei")]:
        assert f"{username}" in output
        # As a sign-in page would: the lockout backend (django-axes) needs the request.
        request = RequestFactory().post("/login/")
        user = authenticate(request, username=username, password=data.PASSWORDS[role])
        assert user is not None
        assert role_of(user) == Role(role)
    ops = get_user_model().objects.get(username="ops")
    assert ops.is_staff
    assert ops.is_superuser
    counselor = get_user_model().objects.get(username="counselor")
    assert counselor.is_staff
    assert counselor.has_perm("sessions_app.view_asksession")


def test_logins_only_prints_the_table_and_loads_nothing():
    output = run_demo("--logins")
    lines = output.strip().splitlines()
    assert lines[0].split() == ["role", "username", "password"]
    assert len(lines) == 1 + 1 + len(data.COUNSELORS) + len(data.CLIENTS)
    assert AskSession.objects.count() == 0
    assert not get_user_model().objects.exists()


def test_every_demo_card_has_an_id_so_the_open_one_can_be_answered():
    # Found by `make fuzz`: alice's open demo card had no id, so `state` broke its own schema
    # (`current_card.id: null`) and the card could not be answered.
    run_demo()
    cards = AskMessage.objects.filter(kind=AskMessage.Kind.QUESTION_CARD)
    assert cards.exists()
    assert all(card.payload.get("card_id") for card in cards)


def test_it_shows_the_product_every_chart_has_data_and_every_hypothesis_state_exists():
    from insights import charts
    from psychologist.models import Hypothesis

    run_demo()
    ops = get_user_model().objects.get(username=data.OPS["username"])
    for chart in charts.charts(user=ops):
        assert not chart.empty, f"the demo leaves the {chart.id} chart empty"
    states = set(Hypothesis.objects.values_list("status", flat=True))
    assert states == {"proposed", "accepted", "dismissed"}
    assert all(h.evidence.exists() for h in Hypothesis.objects.all())


def test_it_has_a_claimed_crisis_and_follow_ups_ahead_and_one_overdue():
    from django.utils import timezone

    run_demo()
    claims = SessionEvent.objects.filter(
        type="handoff.created", payload__has_key="seconds_to_claim"
    )
    assert claims.exists()
    assert all(c.session.alerted_at is not None for c in claims)
    due = AskSession.objects.filter(follow_up_needed=True, follow_up_at__isnull=False)
    now = timezone.now()
    assert due.filter(follow_up_at__lt=now).exclude(created_at__year__lt=now.year).count() == 1
    assert due.filter(follow_up_at__gt=now).count() >= 2


def test_charlie_is_a_counselor_without_a_caseload():
    from sessions_app.models import CaseloadAssignment

    run_demo()
    charlie = get_user_model().objects.get(username="charlie")
    assert role_of(charlie) == Role.COUNSELOR
    assert not CaseloadAssignment.objects.filter(counselor=charlie).exists()


def test_its_crisis_sessions_open_for_ops_and_their_holders_as_the_engine_logs_them():
    run_demo()
    crises = AskSession.objects.filter(session_type="crisis_intervention").select_related(
        "handoff_counselor"
    )
    assert crises
    ops = get_user_model().objects.get(username="ops")
    for session in crises:
        for event in session.events.filter(type="risk.escalated"):
            shape = risk_escalated_payload(level="L4", previous="L0", source="net", notified=0)
            assert set(shape) <= set(event.payload), event.payload
        for user in filter(None, [ops, session.handoff_counselor]):
            client = Client()
            client.force_login(user)
            response = client.get(f"/sessions/{session.pk}/")
            assert response.status_code == 200, (user.username, response.content[:200])
