"""Reads on sessions, notifications and exports, with their joins built in."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from psychologist.llm.models import LLMCall
from sessions_app.access import (
    receives_crisis_alerts,
    sandbox_of,
    sessions_alertable_to,
    sessions_visible_to,
    tasks_visible_to,
)
from sessions_app.engine import services as graph
from sessions_app.engine.services import (
    session_messages,
    session_state,
    thread_state,
    workline_path,
)
from sessions_app.engine.titles import session_label
from sessions_app.errors import ApplicationError
from sessions_app.events import EventType
from sessions_app.models import (
    AskMessage,
    AskSession,
    CaseloadAssignment,
    Notification,
    RiskLevel,
    SandboxSession,
    Task,
    TaskStatus,
    UserProfile,
)
from sessions_app.privacy import STAFF_MAX_PRIVACY
from sessions_app.realtime.frames import event_view
from sessions_app.roles import Role, role_of

# Filters over a P3 column; only callers allowed to read P3 may use them (else E_VALIDATION).
RISK_FILTERS = ("initial_risk_level", "final_risk_level")


def session_list(
    *,
    user: Any,
    session_type: str | None = None,
    trigger_source: str | None = None,
    initial_risk_level: str | None = None,
    final_risk_level: str | None = None,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
    include_deleted: bool = False,
) -> QuerySet[AskSession]:
    """The caller's history, newest first; one query whatever the role (QUALITY P3)."""
    sessions = sessions_visible_to(user, include_deleted=include_deleted)
    exact = {
        "session_type": session_type,
        "trigger_source": trigger_source,
        "initial_risk_level": initial_risk_level,
        "final_risk_level": final_risk_level,
    }
    sessions = sessions.filter(**{field: value for field, value in exact.items() if value})
    if created_after is not None:
        sessions = sessions.filter(created_at__gte=created_after)
    if created_before is not None:
        sessions = sessions.filter(created_at__lt=created_before)
    return sessions.order_by("-created_at", "-id")


def session_by_dify(*, user: Any, dify_conversation_id: uuid.UUID) -> AskSession:
    """The session mapped to an orchestrator conversation, among those `user` may read."""
    session = (
        sessions_visible_to(user, include_deleted=True)
        .filter(dify_conversation_id=dify_conversation_id)
        .select_related("user")
        .first()
    )
    if session is None:
        raise ApplicationError(
            "E_DIFY_SESSION_NOT_FOUND",
            "No session is mapped to this dify_conversation_id.",
            status=404,
        )
    return session


def notification_list(*, user: Any, unread_only: bool = False) -> QuerySet[Notification]:
    """The caller's inbox: notifications that are due, newest first."""
    notifications = Notification.objects.filter(user=user, scheduled_for__lte=timezone.now())
    if unread_only:
        notifications = notifications.filter(read_at__isnull=True)
    return notifications.order_by("-scheduled_for", "-id")


def notification_for(user: Any, notification_id: int) -> Notification:
    notification = Notification.objects.filter(user=user, pk=notification_id).first()
    if notification is None:
        raise ApplicationError("E_NOT_FOUND", "Notification not found.", status=404)
    return notification


def export_sessions(*, user: Any) -> QuerySet[AskSession]:
    """Everything a client may take away: its live sessions with their messages."""
    messages = AskMessage.objects.order_by("created_at", "id")
    return (
        AskSession.objects.filter(user=user, is_deleted=False)
        .prefetch_related(Prefetch("messages", queryset=messages))
        .order_by("-created_at", "-id")
    )


def export_profile(*, user: Any) -> UserProfile | None:
    return UserProfile.objects.filter(user=user).first()


# --- the counselor's home (SPEC §8) --------------------------------------------------------------

CRISIS_LEVELS = (RiskLevel.L3, RiskLevel.L4)
HOME_LIST_LIMIT = 50


def crisis_queue(*, user: Any) -> list[AskSession]:
    """Active sessions at L3/L4 that nobody holds, among those `user` may open or was alerted
    about; the longest-waiting alert first. Each row carries `may_open` (the caller may read it,
    so the client's name may be shown) and `label` (a neutral title, never the client's words).
    """
    at_risk = Q(initial_risk_level__in=CRISIS_LEVELS) | Q(final_risk_level__in=CRISIS_LEVELS)
    if role_of(user) is Role.COUNSELOR:
        caseload = CaseloadAssignment.objects.filter(counselor=user, client=OuterRef("user"))
        may_open: Any = Exists(caseload)
    else:
        may_open = Value(True)
    rows = list(
        sessions_alertable_to(user)
        .filter(at_risk, status=AskSession.Status.ACTIVE, handoff_counselor__isnull=True)
        .select_related("user")
        .annotate(may_open=may_open)
        .order_by(F("alerted_at").asc(nulls_last=True), "created_at", "id")[:HOME_LIST_LIMIT]
    )
    for session in rows:
        session.label = session_label(session)
    return rows


def open_crisis_alerts(*, user: Any) -> list[AskSession]:
    """The crisis alerts waiting for a claim that `user` receives (ops, on-duty counselors),
    the longest-waiting first: what the banner on every staff page shows. Each row carries
    `label` (neutral, never the client's words) and `risk` (the running level)."""
    if not receives_crisis_alerts(user):
        return []
    rows = list(
        sessions_alertable_to(user)
        .filter(
            status=AskSession.Status.ACTIVE,
            handoff_counselor__isnull=True,
            alerted_at__isnull=False,
        )
        .order_by("alerted_at", "id")[:HOME_LIST_LIMIT]
    )
    for session in rows:
        session.label = session_label(session)
        session.risk = graph.risk_now(session)
    return rows


def follow_ups_due(*, user: Any, now: datetime | None = None) -> QuerySet[AskSession]:
    return (
        sessions_visible_to(user)
        .filter(follow_up_needed=True, follow_up_at__lte=now or timezone.now())
        .select_related("user")
        .order_by("follow_up_at", "id")[:HOME_LIST_LIMIT]
    )


def caseload(*, counselor: Any) -> list[CaseloadAssignment]:
    """The counselor's clients, each with its latest session: its neutral label, status, risk
    and when (one query)."""
    latest = AskSession.objects.filter(user=OuterRef("client"), is_deleted=False).order_by(
        "-created_at", "-id"
    )
    fields = (
        "pk",
        "session_title",
        "session_type",
        "cbt_focus",
        "locale",
        "status",
        "created_at",
        "last_activity_at",
        "initial_risk_level",
        "final_risk_level",
    )
    rows = list(
        CaseloadAssignment.objects.filter(counselor=counselor)
        .select_related("client")
        .annotate(**{f"latest_{name}": Subquery(latest.values(name)[:1]) for name in fields})
        .annotate(**task_counts("client"))
        .order_by("client__username")
    )
    for row in rows:
        row.latest_id = row.latest_pk
        row.latest_activity = row.latest_last_activity_at
        row.latest_risk = row.latest_final_risk_level or row.latest_initial_risk_level
        row.latest_label = ""
        if row.latest_pk is not None:
            shape = AskSession(
                session_title=row.latest_session_title,
                session_type=row.latest_session_type,
                cbt_focus=row.latest_cbt_focus,
                created_at=row.latest_created_at,
            )
            row.latest_label = session_label(shape)
    return rows


def active_sessions(*, user: Any) -> QuerySet[AskSession]:
    return (
        sessions_visible_to(user)
        .filter(status=AskSession.Status.ACTIVE)
        .select_related("user")
        .order_by("-last_activity_at", "-id")[:HOME_LIST_LIMIT]
    )


# --- the session page (SPEC §5 projections, §8 live inspection) ----------------------------------

MOODS = ("declining", "stable", "improving")


CRISIS_MOOD = "crisis"


def latest_mood(session: AskSession) -> str | None:
    """The latest `mood_delta` found at the top of an event's or a message's payload — or
    "crisis" for a session that escalated: its mood never reads as "stable" after that."""
    if session.intervention_triggered:
        return CRISIS_MOOD
    found = [
        row
        for row in (
            session.events.filter(payload__has_key="mood_delta")
            .order_by("-seq")
            .values_list("payload", "created_at")
            .first(),
            session.messages.filter(payload__has_key="mood_delta")
            .order_by("-created_at", "-id")
            .values_list("payload", "created_at")
            .first(),
        )
        if row is not None and row[0].get("mood_delta") in MOODS
    ]
    return max(found, key=lambda row: row[1])[0]["mood_delta"] if found else None


def tree_rows(tree: graph.SessionTree) -> list[tuple[str, graph.TreeNode | None]]:
    """The tree as open/close rows for a template: nested lists where it branches only.

    A run of single-child messages is one chain; a message with several children opens a list
    of forks, one branch each. Built with a stack, not recursion: depth is the session's.
    """
    if not tree.roots:
        return []
    rows: list[tuple[str, graph.TreeNode | None]] = [("forks", None)]
    stack: list[tuple[str, int | None]] = [("end_forks", None)]
    stack.extend(("branch", root) for root in reversed(tree.roots))
    while stack:
        action, node_id = stack.pop()
        if action != "branch" or node_id is None:
            rows.append((action, None))
            continue
        node = tree.nodes[node_id]
        rows.extend([("branch", None), ("node", node)])
        while len(node.children) == 1:
            node = tree.nodes[node.children[0]]
            rows.append(("node", node))
        rows.append(("end_chain", None))
        stack.append(("end_branch", None))
        if node.children:
            rows.append(("forks", None))
            stack.append(("end_forks", None))
            stack.extend(("branch", child) for child in reversed(node.children))
    return rows


@dataclass(frozen=True)
class SessionPage:
    session: AskSession
    timeline: list[AskMessage]
    tree: list[tuple[str, graph.TreeNode | None]]
    active_path: frozenset[int]
    head_id: int | None
    worklines: list[graph.WorklineSummary]
    workline_names: dict[int, str]
    scope: graph.ScopeStrip
    events: list[dict[str, Any]]
    last_seq: int
    mood: str | None
    # The engine's side, for the state panel (SPEC §8 sandbox; staff only).
    state: dict[str, Any]
    thread: dict[str, Any]
    blocked: dict[int, list[dict[str, Any]]]
    narration: dict[int, list[dict[str, Any]]]
    llm_calls: list[LLMCall]
    llm_totals: dict[str, int]
    sandbox: SandboxSession | None
    # Every hand change of the risk level, oldest first: who, when, from what, to what, why.
    risk_changes: list[dict[str, Any]]
    # The counselor's workspace: the alert chain, who holds the session, steer notes.
    chain: list[dict[str, Any]] = field(default_factory=list)
    steers: list[dict[str, Any]] = field(default_factory=list)
    # The clinical record: the conversation as the client saw it, the risk it reached, the
    # psychologist's current analysis and its hypotheses, and message texts for the event log.
    conversation: list[AskMessage] = field(default_factory=list)
    peak_risk: str = ""
    analysis: Any = None
    hypotheses: list[Any] = field(default_factory=list)
    message_texts: dict[int, str] = field(default_factory=dict)
    # CBT homework: what this session proposed, and what its opening picked up.
    tasks: list[Task] = field(default_factory=list)
    reviewed_tasks: list[Task] = field(default_factory=list)


def blocked_by_message(events: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """`validation.blocked` events by the message whose move they refused.

    A move is validated right after the message that carried it is recorded (the Analyst's
    analysis, or the client's answer to a slot card), in the same unit of work, so the message
    is the one named by the nearest earlier event that names a message.
    """
    found: dict[int, list[dict[str, Any]]] = {}
    last_message: int | None = None
    for event in events:
        if event.type == EventType.VALIDATION_BLOCKED and last_message is not None:
            found.setdefault(last_message, []).append({"id": event.pk, **event.payload})
        elif isinstance(event.payload.get("message_id"), int):
            last_message = event.payload["message_id"]
    return found


def narration_by_analysis(messages: list[AskMessage]) -> dict[int, list[dict[str, Any]]]:
    """The Narrator's cards of each batch, by the Analyst's analysis they rephrase."""
    return {
        m.parent_id: m.payload["cards"]
        for m in messages
        if m.parent_id is not None and isinstance(m.payload.get("cards"), list)
    }


def llm_calls(session: AskSession) -> tuple[list[LLMCall], dict[str, int]]:
    calls = list(LLMCall.objects.filter(session=session).order_by("created_at", "id"))
    totals = {
        "input_tokens": sum(c.input_tokens for c in calls),
        "output_tokens": sum(c.output_tokens for c in calls),
        "cost_micro_usd": sum(c.cost_micro_usd for c in calls),
    }
    return calls, totals


# The alert's story on the session page: alerted → escalated → claimed by whom, when → who spoke.
CHAIN_EVENTS = (
    EventType.RISK_ESCALATED,
    EventType.ALERT_ESCALATED,
    EventType.HANDOFF_CREATED,
    EventType.COUNSELOR_TOOK_OVER,
    EventType.COUNSELOR_HANDED_BACK,
)


def _names(events: list[Any]) -> dict[int, str]:
    ids = {e.actor_user_id for e in events if e.actor_user_id}
    ids |= {_counselor_id(e) for e in events if _counselor_id(e)}
    users = get_user_model().objects.filter(pk__in=ids).only("first_name", "username")
    return {u.pk: u.first_name or u.username for u in users}


def _counselor_id(event: Any) -> int | None:
    return _count(event.payload.get("counselor_id"))


def alert_chain(events: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(chain, steer notes) from the session's events, oldest first, with people's names."""
    wanted = [e for e in events if e.type in (*CHAIN_EVENTS, EventType.STEER_NOTED)]
    names = _names(wanted) if wanted else {}
    chain, steers = [], []
    for event in wanted:
        who = names.get(_counselor_id(event) or event.actor_user_id or 0, "")
        item = {"id": event.pk, "type": event.type, "at": event.created_at, "who": who}
        # The log keeps what each writer of its day wrote: a count the page pluralises on is
        # read here, and one missing or malformed is unknown (None), never a failed page.
        item |= {"payload": event.payload, "notified": _count(event.payload.get("notified"))}
        (steers if event.type == EventType.STEER_NOTED else chain).append(item)
    return chain, steers


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def risk_changes(events: list[Any]) -> list[dict[str, Any]]:
    """Every hand change of the risk level, oldest first (staff only: the reason is P3): the
    `risk.changed` events and the escalations a person (or the service role) made."""
    changes = [
        e
        for e in events
        if e.type == EventType.RISK_CHANGED
        or (e.type == EventType.RISK_ESCALATED and e.actor_user_id is not None)
    ]
    names = _names(changes) if changes else {}
    return [
        {
            "at": event.created_at,
            "previous": event.payload.get("previous"),
            "level": event.payload.get("level"),
            "reason": event.payload.get("reason", ""),
            "by": names.get(event.actor_user_id or 0, event.actor),
        }
        for event in changes
    ]


# What the client's app shows of a conversation: cards, answers, what a counselor wrote. Not the
# engine's machinery (the Analyst's output, batch openers, markers), which the engine details show.
SPOKEN_KINDS = frozenset(
    {
        AskMessage.Kind.INTRO,
        AskMessage.Kind.HOOK,
        AskMessage.Kind.TOPIC,
        AskMessage.Kind.QUESTION_CARD,
        AskMessage.Kind.ANSWER,
        AskMessage.Kind.INSIGHT,
        AskMessage.Kind.COMPLETION,
        AskMessage.Kind.CLOSING,
        AskMessage.Kind.LAST_THING,
        AskMessage.Kind.NOTE,
        AskMessage.Kind.REPLY,
        AskMessage.Kind.CRISIS_RESOURCES,
        AskMessage.Kind.TEXT,
    }
)


def conversation(timeline: list[AskMessage]) -> list[AskMessage]:
    """The active branch as the client saw it: each card once (the card itself, not the batch
    that carried it), every answer and word from a person, nothing of the engine's own."""
    said = []
    for message in timeline:
        if message.kind not in SPOKEN_KINDS or not message.text:
            continue
        if message.role == AskMessage.Role.ANALYST:
            continue
        if message.role == AskMessage.Role.SYSTEM and message.kind != AskMessage.Kind.QUESTION_CARD:
            continue
        said.append(message)
    return said


RISK_EVENTS = (EventType.RISK_ESCALATED, EventType.RISK_CHANGED)


def peak_risk(session: AskSession, events: list[Any]) -> str:
    """The highest level the session reached: at the start, the end, or any change between."""
    levels = [session.initial_risk_level, session.final_risk_level]
    levels += [e.payload.get("level") for e in events if e.type in RISK_EVENTS]
    known = [level for level in levels if level in RiskLevel.values]
    return max(known) if known else ""


def clinical_analysis(session: AskSession) -> tuple[Any, list[Any]]:
    """The psychologist's current analysis of the session and its hypotheses with evidence.

    Read through the session's reverse relations: this app does not import the psychologist's
    modules (import-linter), and the page only shows what the analysis already recorded."""
    # A live session has no analysis yet (the psychologist runs after the close): no query.
    analysis = None if session.is_active else session.analyses.filter(superseded=False).first()
    if analysis is None:
        return None, []
    hypotheses = list(
        session.hypotheses.filter(analysis=analysis)
        .select_related("decided_by")
        .prefetch_related("evidence__event")
        .order_by("position", "id")
    )
    return analysis, hypotheses


def session_page(session: AskSession) -> SessionPage:
    """Every projection the session page shows, read at one moment."""
    workline = session.active_workline
    messages = graph.session_messages(session)
    timeline = graph.workline_path(workline, messages=messages) if workline is not None else []
    worklines = graph.worklines_index(session)
    events = list(session.events.order_by("seq"))
    calls, totals = llm_calls(session)
    chain, steers = alert_chain(events)
    analysis, hypotheses = clinical_analysis(session)
    return SessionPage(
        session=session,
        timeline=timeline,
        tree=tree_rows(graph.session_tree(session)),
        active_path=frozenset(m.pk for m in timeline),
        head_id=workline.head_id if workline is not None else None,
        worklines=worklines,
        workline_names={w.id: w.name for w in worklines},
        scope=graph.scope_strip(session),
        events=[event_view(event, STAFF_MAX_PRIVACY) for event in events],
        last_seq=events[-1].seq if events else 0,
        mood=latest_mood(session),
        state=session_state(session),
        thread=thread_state(session),
        blocked=blocked_by_message(events),
        narration=narration_by_analysis(list(messages.values())),
        llm_calls=calls,
        llm_totals=totals,
        sandbox=sandbox_of(session),
        risk_changes=risk_changes(events),
        chain=chain,
        steers=steers,
        conversation=conversation(timeline),
        peak_risk=peak_risk(session, events),
        analysis=analysis,
        hypotheses=hypotheses,
        message_texts={pk: m.text for pk, m in messages.items() if m.text},
        **session_homework(session, events),
    )


def sandbox_sessions(*, counselor: Any) -> QuerySet[SandboxSession]:
    """The sandbox sessions `counselor` started, newest first."""
    return (
        SandboxSession.objects.filter(counselor=counselor, session__is_deleted=False)
        .select_related("session")
        .order_by("-created_at")[:HOME_LIST_LIMIT]
    )


@dataclass(frozen=True)
class Transcript:
    """What was said on a session's active line of work, in order."""

    topic: str = ""
    pairs: list[tuple[str, str]] = field(default_factory=list)
    insights: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Every answer the client gave besides the topic, in order: the answered cards and the
    # words written without a card ("" for their question).
    answers: list[tuple[str, str]] = field(default_factory=list)


def session_transcript(session: AskSession) -> Transcript:
    """The topic, the answered question → answer pairs, the insights shown and the last-thing
    notes, read from the active workline's path (a session without a graph: all messages)."""
    messages = session_messages(session)
    if session.active_workline is not None:
        path = workline_path(session.active_workline, messages=messages)
    else:
        path = sorted(messages.values(), key=lambda m: (m.created_at, m.pk))
    kind = AskMessage.Kind
    topics, pairs, insights, notes, answers = [], [], [], [], []
    question: str | None = None
    for message in path:
        if message.kind == kind.QUESTION_CARD:
            question = message.text
        elif message.kind == kind.ANSWER and question is not None:
            pairs.append((question, message.text))
            answers.append((question, message.text))
            question = None
        elif message.kind == kind.TEXT and message.role == AskMessage.Role.CLIENT:
            if message.text:
                answers.append(("", message.text))
        elif message.kind == kind.TOPIC:
            topics.append(message.text)
        elif message.kind == kind.INSIGHT and message.text:
            insights.append(message.text)
        elif message.kind in (kind.LAST_THING, kind.NOTE) and message.text:
            notes.append(message.text)
    return Transcript(next(iter(topics), ""), pairs, insights, notes, answers)


# --- CBT homework --------------------------------------------------------------------------------

# How the caseload row and the insights chart group a task's status.
TASK_GROUPS = {
    "done": (TaskStatus.DONE,),
    "open": (TaskStatus.PROPOSED, TaskStatus.ACCEPTED),
    "skipped": (TaskStatus.SKIPPED, TaskStatus.EXPIRED),
}


def task_counts(client_path: str) -> dict[str, Any]:
    """Annotations `tasks_done`, `tasks_open`, `tasks_skipped` (skipped or expired) for rows
    whose client is `client_path`: one subquery each, no duplicate rows."""
    counts = {}
    for group, statuses in TASK_GROUPS.items():
        rows = (
            Task.objects.filter(
                user=OuterRef(client_path), status__in=statuses, session__is_deleted=False
            )
            .order_by()
            .values("user")
            .annotate(n=Count("pk"))
            .values("n")
        )
        counts[f"tasks_{group}"] = Coalesce(Subquery(rows[:1]), 0, output_field=IntegerField())
    return counts


def session_homework(session: AskSession, events: list[Any]) -> dict[str, list[Task]]:
    """The tasks the session proposed and those its opening picked up, in one query — and none
    when its log names no task at all (most sessions)."""
    if not any(event.type.startswith("task.") for event in events):
        return {"tasks": [], "reviewed_tasks": []}
    rows = list(
        Task.objects.filter(Q(session=session) | Q(review_session=session))
        .select_related("review_message")
        .order_by("position", "created_at")
    )
    return {
        "tasks": [task for task in rows if task.session_id == session.pk],
        "reviewed_tasks": [task for task in rows if task.review_session_id == session.pk],
    }


def task_list(*, user: Any, status: str | None = None) -> QuerySet[Task]:
    """The tasks `user` may read (access.tasks_visible_to), newest first."""
    tasks = tasks_visible_to(user)
    if status:
        tasks = tasks.filter(status=status)
    return tasks.order_by("-created_at", "position", "pk")


def export_tasks(*, user: Any) -> QuerySet[Task]:
    """A client's homework for its export: every task of its live sessions."""
    return Task.objects.filter(user=user, session__is_deleted=False).order_by("created_at", "pk")
