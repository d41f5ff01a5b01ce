"""`manage.py demo`: load the demo data; `manage.py demo --logins`: print the demo logins.

Idempotent: every row is looked up by a stable natural key (usernames, external agent ids, fixed
conversation UUIDs), and a session's messages and events are written only in the run that
created the session — so a second run adds nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from sessions_app.engine.selectors import offline_tasks, risk_escalated_payload, template_for
from sessions_app.events import EventType, event_append
from sessions_app.management.commands import _demo_data as data
from sessions_app.models import (
    AgentOrigin,
    AskAgent,
    AskMessage,
    AskSession,
    CaseloadAssignment,
    Notification,
    RiskLevel,
    Task,
    UserProfile,
    Workline,
)
from sessions_app.roles import Role

User = get_user_model()
People = dict[str, Any]
Agents = dict[str, AskAgent]


@dataclass
class SessionPlan:
    """One session to load: its columns, its message chain and how it ended."""

    conversation_id: uuid.UUID
    fields: dict[str, Any]
    script: data.Script
    outcome: str  # completed | abnormal | active
    updated_at: datetime
    handoff_at: datetime | None = None
    # The Analyst's mood readings over the session (its `analyst.responded` events), in order.
    moods: tuple[str, ...] = ()
    # For a claimed crisis: seconds from the alert to the claim (`handoff.created`).
    seconds_to_claim: int | None = None


class Command(BaseCommand):
    help = "Load the demo data (idempotent). With --logins, only print the demo logins."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--logins", action="store_true", help="Print the demo logins and load nothing."
        )

    def handle(self, *args: Any, logins: bool = False, **options: Any) -> None:
        if not logins:
            created, total = load_demo()
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo data loaded: {created} new sessions, {total - created} already there."
                )
            )
            # The psychologist's part (analyses, hypotheses, metered calls) is its app's own.
            call_command("demo_analyses", stdout=self.stdout)
        self.write_logins()

    def write_logins(self) -> None:
        self.stdout.write(f"{'role':<10} {'username':<11} password")
        for role, username in login_rows():
            self.stdout.write(f"{role:<10} {username:<11} {data.PASSWORDS[role]}")


def login_rows() -> list[tuple[str, str]]:
    rows = [("ops", data.OPS["username"])]
    rows += [("counselor", c["username"]) for c in data.COUNSELORS]
    rows += [("client", username) for username in data.CLIENTS]
    return rows


@transaction.atomic
def load_demo() -> tuple[int, int]:
    """Load everything; returns (sessions created in this run, demo sessions in total)."""
    people = load_people()
    agents = load_agents(people)
    plans = [schema_plan(doc, people, agents) for doc in data.SCHEMA_EXAMPLES]
    plans += [story_plan(spec, people, agents) for spec in data.STORY_SESSIONS]
    created = sum(session_ensure(plan) for plan in plans)
    load_notifications(people)
    load_homework()
    refresh_session_counts(people)
    return created, len(plans)


# --- people --------------------------------------------------------------------------------


def user_ensure(username: str, role: str, **fields: Any) -> Any:
    user, _ = User.objects.update_or_create(username=username, defaults=fields)
    # Reset the documented password too, so the printed logins always work.
    if not user.check_password(data.PASSWORDS[role]):
        user.set_password(data.PASSWORDS[role])
        user.save(update_fields=["password"])
    user.groups.add(Group.objects.get(name=role))
    return user


def load_people() -> People:
    people: People = {}
    ops = data.OPS
    people[ops["username"]] = user_ensure(
        ops["username"], Role.OPS, is_staff=True, is_superuser=True, **_names(ops)
    )
    # Counselors browse the admin read-only; its changelists narrow them to their caseload.
    view_perms = Permission.objects.filter(
        content_type__app_label="sessions_app", codename__startswith="view_"
    )
    for counselor in data.COUNSELORS:
        user = user_ensure(
            counselor["username"], Role.COUNSELOR, is_staff=True, **_names(counselor)
        )
        user.user_permissions.add(*view_perms)
        UserProfile.objects.update_or_create(
            user=user, defaults={"display_name": counselor["first_name"], "on_duty": True}
        )
        people[user.username] = user
    for username, client in data.CLIENTS.items():
        user = user_ensure(username, Role.CLIENT, **_names({"username": username, **client}))
        UserProfile.objects.update_or_create(user=user, defaults=client["profile"])
        people[username] = user
    for counselor, clients in data.CASELOADS.items():
        for client in clients:
            CaseloadAssignment.objects.get_or_create(
                counselor=people[counselor], client=people[client]
            )
    return people


def _names(person: dict[str, Any]) -> dict[str, str]:
    email = person.get("email") or f"{person['username']}@demo.naisei.test"
    return {"first_name": person["first_name"], "email": email}


def load_agents(people: People) -> Agents:
    agents: Agents = {}
    for agent in data.SYSTEM_AGENTS:
        agents[agent["external_agent_id"]], _ = AskAgent.objects.update_or_create(
            external_agent_id=agent["external_agent_id"],
            origin=AgentOrigin.SYSTEM_DEFAULT,
            owner=None,
            defaults={"key": agent["key"], "name": agent["name"], "persona": agent["persona"]},
        )
    custom = dict(data.CUSTOM_AGENT)
    owner = people[custom.pop("owner")]
    external_id = custom.pop("external_agent_id")
    agents[external_id], _ = AskAgent.objects.update_or_create(
        external_agent_id=external_id,
        origin=AgentOrigin.USER_CUSTOM,
        owner=owner,
        defaults=custom,
    )
    return agents


# --- session plans -------------------------------------------------------------------------

# Schema §8 keys that are model columns of the same name and meaning.
SCHEMA_COLUMNS = (
    "session_title",
    "session_type",
    "trigger_source",
    "active_agent_key",
    "agent_origin",
    "agent_snapshot",
    "conversation_variables",
    "modality_flags",
    "voice_config",
    "cbt_focus",
    "initial_risk_level",
    "final_risk_level",
    "session_summary",
    "key_insights",
    "cbt_techniques_used",
    "generated_task_ids",
    "satisfaction_score",
    "follow_up_needed",
    "message_count",
    "audio_message_count",
    "attachment_count",
    "duration_seconds",
    "intervention_triggered",
)


def _when(value: str) -> datetime:
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"not an ISO datetime: {value!r}")
    return parsed


def schema_plan(doc: dict[str, Any], people: People, agents: Agents) -> SessionPlan:
    """Schema §8 example → columns: mapped users, `counselor_handoff` as three columns."""
    fields = {key: doc[key] for key in SCHEMA_COLUMNS if key in doc}
    fields["user"] = people[data.SCHEMA_USERS[doc["user_id"]]]
    fields["locale"] = "zh"
    if "custom_agent_id" in doc:
        fields["custom_agent"] = agents[doc["agent_snapshot"]["dify_agent_id"]]
    if "follow_up_at" in doc:
        fields["follow_up_at"] = _when(doc["follow_up_at"])
    handoff = doc.get("counselor_handoff")
    if handoff:
        fields["handoff_reason"] = handoff["handoff_reason"]
        fields["handoff_counselor"] = people[data.SCHEMA_COUNSELORS[handoff["counselor_id"]]]
        fields["handoff_time"] = _when(handoff["handoff_time"])
    fields["created_at"] = _when(doc["createdAt"])
    fields["ended_at"] = _when(doc["endedAt"])
    fields.update(_engine_state("completed", fields["created_at"], fields["ended_at"]))
    return SessionPlan(
        conversation_id=uuid.UUID(doc["dify_conversation_id"]),
        fields=fields,
        script=data.SCHEMA_SCRIPTS[doc["_id"]],
        outcome="completed",
        updated_at=_when(doc["updatedAt"]),
        handoff_at=fields.get("handoff_time"),
    )


def story_plan(spec: dict[str, Any], people: People, agents: Agents) -> SessionPlan:
    """A demo story session, dated relative to now; counts are derived from its script."""
    days, hours = spec["ago"]
    start = timezone.now().replace(second=0, microsecond=0) - timedelta(days=days, hours=hours)
    end = start + timedelta(minutes=spec["minutes"])
    agent = agents[spec["agent"]]
    modalities = [line[3] if len(line) > 3 else "text" for line in spec["script"]]
    fields: dict[str, Any] = {
        "user": people[spec["user"]],
        "agent_origin": agent.origin,
        "agent_snapshot": agent.snapshot(),
        "modality_flags": {
            "text": True,
            "audio": "audio" in modalities,
            "file": "file" in modalities,
        },
        "message_count": len(modalities),
        "audio_message_count": modalities.count("audio"),
        "attachment_count": modalities.count("file"),
        "duration_seconds": spec["minutes"] * 60,
        "created_at": start,
        **spec["fields"],
        **_engine_state(spec["outcome"], start, end),
    }
    if spec.get("deleted"):
        fields.update(is_deleted=True, deleted_at=end + timedelta(days=1))
    handoff_at = None
    if "handoff" in spec:
        counselor, reason, after_minutes = spec["handoff"]
        handoff_at = start + timedelta(minutes=after_minutes)
        fields.update(
            handoff_reason=reason, handoff_counselor=people[counselor], handoff_time=handoff_at
        )
        if "claim_seconds" in spec:
            fields["alerted_at"] = handoff_at - timedelta(seconds=spec["claim_seconds"])
    if "follow_up_in" in spec:
        # Relative to the day the demo is loaded: due later, or (negative) already overdue.
        fields.update(
            follow_up_needed=True,
            follow_up_at=timezone.now().replace(minute=0, second=0, microsecond=0)
            + timedelta(days=spec["follow_up_in"]),
        )
    return SessionPlan(
        conversation_id=data.demo_uuid(spec["name"]),
        fields=fields,
        script=spec["script"],
        outcome=spec["outcome"],
        updated_at=end,
        handoff_at=handoff_at,
        moods=tuple(spec.get("moods", ())),
        seconds_to_claim=spec.get("claim_seconds"),
    )


def _engine_state(outcome: str, start: datetime, end: datetime) -> dict[str, Any]:
    if outcome == "active":
        return {
            "status": AskSession.Status.ACTIVE,
            "phase": AskSession.Phase.QUESTIONNAIRE,
            "current_step_code": "questionnaire",
            "last_activity_at": end,
            "ended_at": None,
        }
    if outcome == "abnormal":
        return {
            "status": AskSession.Status.CLOSED_ABNORMALLY,
            "phase": AskSession.Phase.QUESTIONNAIRE,
            "termination_reason": AskSession.TerminationReason.ABANDONED_TIMEOUT,
            "last_activity_at": start,
            "ended_at": end,
        }
    return {
        "status": AskSession.Status.COMPLETED,
        "phase": AskSession.Phase.CLOSING,
        "current_step_code": "closing",
        "ready_to_close": True,
        "last_activity_at": end,
        "ended_at": end,
    }


# --- sessions, their message trees and event logs -------------------------------------------


def session_ensure(plan: SessionPlan) -> bool:
    """Create the session with its tree and log, unless a previous run already did."""
    answers = sum(1 for line in plan.script if line[1] == AskMessage.Kind.ANSWER)
    session, created = AskSession.objects.get_or_create(
        dify_conversation_id=plan.conversation_id,
        defaults={**plan.fields, "turn_count": answers},
    )
    if not created:
        return False
    messages = tree_build(session, plan)
    events_append(session, plan, messages)
    # `updated_at` is auto_now: a queryset update is the one way to give it the document's value.
    AskSession.objects.filter(pk=session.pk).update(updated_at=plan.updated_at)
    return True


def tree_build(session: AskSession, plan: SessionPlan) -> list[AskMessage]:
    """The script as a chain (each message's parent is the one before) on a 'main' workline."""
    main = Workline.objects.create(
        session=session,
        name="main",
        status=Workline.Status.ACTIVE if plan.outcome == "active" else Workline.Status.CLOSED,
        created_at=session.created_at,
    )
    step = timedelta(seconds=(session.duration_seconds or 60) / len(plan.script))
    messages: list[AskMessage] = []
    parent = None
    for index, (role, kind, text, *rest) in enumerate(plan.script):
        payload: dict[str, Any] = {"step": index + 1}
        if kind == AskMessage.Kind.QUESTION_CARD:
            # As the dealer stores it: without a card id, the open card of an active demo session
            # could be neither shown (`state` documents an id) nor answered.
            payload["card_id"] = uuid.uuid4().hex[:12]
        parent = AskMessage.objects.create(
            session=session,
            workline=main,
            parent=parent,
            role=role,
            kind=kind,
            text=text,
            modality=rest[0] if rest else AskMessage.Modality.TEXT,
            payload=payload,
            created_at=session.created_at + step * index,
        )
        messages.append(parent)
    main.head = parent
    main.save(update_fields=["head", "updated_at"])
    AskSession.objects.filter(pk=session.pk).update(active_workline=main)
    return messages


# Message kinds that the engine logs as they happen, and who the actor is.
MESSAGE_EVENTS: dict[str, tuple[str, str]] = {
    AskMessage.Kind.QUESTION_CARD: (EventType.CARD_DEALT, "engine"),
    AskMessage.Kind.ANSWER: (EventType.ANSWER_RECEIVED, "client"),
}


def events_append(session: AskSession, plan: SessionPlan, messages: list[AskMessage]) -> None:
    """The session's log through the one event writer. `occurred_at` carries the story's time,
    since `created_at` of an event is always the moment it was appended."""
    client = session.user
    first_at = session.created_at.isoformat()
    event_append(
        session=session,
        type=EventType.SESSION_CREATED,
        payload={"session_type": session.session_type, "occurred_at": first_at},
        actor="client",
        actor_user=client,
    )
    if session.initial_risk_level in {"L3", "L4"}:
        # Created at a crisis level by the orchestrator: what `services.session_create` logs
        # then, every demo counselor (all on duty) paged.
        payload = risk_escalated_payload(
            level=session.initial_risk_level,
            previous=RiskLevel.L0,
            source=Role.SERVICE.value,
            notified=len(data.COUNSELORS),
        )
        event_append(
            session=session,
            type=EventType.RISK_ESCALATED,
            payload={**payload, "occurred_at": first_at},
            actor=Role.SERVICE.value,
        )
    for message in messages:
        if message.kind not in MESSAGE_EVENTS:
            continue
        event_type, actor = MESSAGE_EVENTS[message.kind]
        event_append(
            session=session,
            type=event_type,
            payload={"message_id": message.pk, "occurred_at": message.created_at.isoformat()},
            actor=actor,
            actor_user=client if actor == "client" else None,
        )
    _append_moods(session, plan, messages)
    if plan.handoff_at is not None:
        _append_handoff(session, plan.handoff_at, plan.seconds_to_claim)
    _append_close(session, plan)


def _append_moods(session: AskSession, plan: SessionPlan, messages: list[AskMessage]) -> None:
    """The Analyst's readings as the engine logs them, one after each of the last answers."""
    answers = [m for m in messages if m.kind == AskMessage.Kind.ANSWER]
    for answer, mood in zip(answers[-len(plan.moods) :], plan.moods, strict=False):
        payload = {
            "mood_delta": mood,
            "provider": "demo",
            "occurred_at": answer.created_at.isoformat(),
        }
        event_append(
            session=session, type=EventType.ANALYST_RESPONDED, payload=payload, actor="analyst"
        )


def _append_handoff(session: AskSession, at: datetime, seconds_to_claim: int | None) -> None:
    payload: dict[str, Any] = {
        "counselor_id": session.handoff_counselor_id,
        "handoff_reason": session.handoff_reason,
        "occurred_at": at.isoformat(),
    }
    if seconds_to_claim is not None:
        payload["seconds_to_claim"] = seconds_to_claim
    event_append(session=session, type=EventType.HANDOFF_CREATED, payload=payload, actor="engine")


def _append_close(session: AskSession, plan: SessionPlan) -> None:
    if plan.outcome == "active":
        return
    at = session.ended_at.isoformat() if session.ended_at else None
    if plan.outcome == "abnormal":
        event_type = EventType.SESSION_CLOSED_ABNORMALLY
        payload = {"termination_reason": session.termination_reason, "occurred_at": at}
    else:
        event_type = EventType.SESSION_CLOSED
        payload = {"status": session.status, "occurred_at": at}
        payload["final_risk_level"] = session.final_risk_level
    event_append(session=session, type=event_type, payload=payload, actor="engine")


# --- notifications and profile counters ----------------------------------------------------


def load_notifications(people: People) -> None:
    """A few inbox rows; `dedupe_key` is their natural key, as it is for the jobs."""
    sessions = {
        s.dify_conversation_id: s
        for s in AskSession.objects.filter(user__username__in=list(data.CLIENTS))
    }
    crisis = sessions[uuid.UUID(data.SCHEMA_EXAMPLES[1]["dify_conversation_id"])]
    follow_up = sessions[uuid.UUID(data.SCHEMA_EXAMPLES[0]["dify_conversation_id"])]
    night = sessions[data.demo_uuid("dmitri-crisis")]
    active = sessions[data.demo_uuid("alice-active")]
    rows = [
        (people["counselor"], Notification.Kind.CRISIS_ALERT, crisis, crisis.handoff_time, True),
        (people["counselor2"], Notification.Kind.CRISIS_ALERT, night, night.handoff_time, True),
        (people["mei"], Notification.Kind.FOLLOW_UP, follow_up, follow_up.follow_up_at, True),
        (people["alice"], Notification.Kind.RESUME_SESSION, active, active.last_activity_at, False),
    ]
    for user, kind, session, when, sent in rows:
        Notification.objects.get_or_create(
            user=user,
            kind=kind,
            dedupe_key=f"{kind}:{session.pk}",
            defaults={
                "session": session,
                "payload": {"session_title": session.session_title},
                "scheduled_for": when,
                "sent_at": when if sent else None,
            },
        )


# The homework of the latest finished, non-crisis demo sessions: one task each, from
# the offline banks in the session's language, due over the last days in these states.
HOMEWORK_STATES = ("done", "done", "accepted", "skipped", "expired", "done", "proposed", "done")


def load_homework() -> None:
    sessions = (
        AskSession.objects.filter(user__username__in=list(data.CLIENTS), is_deleted=False)
        .exclude(status=AskSession.Status.ACTIVE)
        .exclude(session_type=AskSession.SessionType.CRISIS_INTERVENTION)
        .exclude(intervention_triggered=True)
        .order_by("-created_at", "pk")[: len(HOMEWORK_STATES)]
    )
    today = timezone.localdate()
    for offset, (session, status) in enumerate(zip(sessions, HOMEWORK_STATES, strict=False)):
        [proposal] = offline_tasks(
            locale=session.locale,
            focus=session.cbt_focus,
            themes=[],
            topic="",
            turn_count=0,
            fatigue=False,
        )
        finished = (
            timezone.now() - timedelta(days=offset)
            if status in ("done", "skipped", "expired")
            else None
        )
        Task.objects.get_or_create(
            session=session,
            position=1,
            defaults={
                "user_id": session.user_id,
                "template": template_for(proposal["kind"], session.locale),
                "due_date": today - timedelta(days=offset + 1),
                "status": status,
                "accepted_at": session.ended_at if status != "proposed" else None,
                "finished_at": finished,
                **proposal,
            },
        )


def refresh_session_counts(people: People) -> None:
    for username in data.CLIENTS:
        finished = AskSession.objects.filter(user=people[username]).exclude(
            status=AskSession.Status.ACTIVE
        )
        UserProfile.objects.filter(user=people[username]).update(session_count=finished.count())
