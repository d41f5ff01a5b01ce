"""Who may see and act on which session (SPEC §1). The one place access is decided.

REST views, websocket consumers and HTML views all call `session_for` first and list through
`sessions_visible_to`; nothing here knows about DRF or HTTP beyond the status on the error.
"""

from __future__ import annotations

import uuid
from enum import StrEnum
from typing import Any

from django.db.models import Q

from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.models import (
    AgentOrigin,
    AskAgent,
    AskSession,
    CaseloadAssignment,
    Notification,
    SandboxSession,
    Task,
)
from sessions_app.privacy import CLIENT_MAX_PRIVACY, STAFF_MAX_PRIVACY, Privacy
from sessions_app.roles import Role, role_of


class SessionAction(StrEnum):
    """Operations on a session that not every reader may perform (SPEC §9)."""

    UPDATE = "update"
    MODALITY = "modality"
    DELETE = "delete"
    GRAPH = "graph"  # fork, worklines, spin-off (SPEC §9: owner and counselors)
    ANALYSE = "analyse"  # the psychologist's hypotheses and reanalyse (SPEC §9: counselor, ops)
    # "Continue from here" on the session page. Watching is read-only: moving the head of a
    # live session would redirect the client's next answer, so counselors who watch may not;
    # the owner (through the API) and ops may.
    CONTINUE_FROM = "continue from a message of"
    # Answering, free text, End/Continue, one last thing: the client's own moves. In the API
    # only the owner makes them; on the pages only the counselor playing a sandbox session.
    PLAY = "play the client of"
    # Raising or lowering the risk level by hand (SPEC §3: never silently, never by a client).
    RISK = "change the risk level of"
    # The counselor's workspace (SPEC §9): claim (alerted, caseload), take over / write / hand
    # back (the holder only, checked by the service), steer (anyone on staff who may read it).
    CLAIM = "claim"
    TAKE_OVER = "take over"
    STEER = "steer"


_ACTION_ROLES: dict[SessionAction, frozenset[Role]] = {
    SessionAction.UPDATE: frozenset({Role.CLIENT, Role.COUNSELOR, Role.OPS, Role.SERVICE}),
    SessionAction.MODALITY: frozenset({Role.CLIENT, Role.SERVICE}),
    SessionAction.DELETE: frozenset({Role.CLIENT, Role.OPS}),
    SessionAction.RISK: frozenset({Role.COUNSELOR, Role.OPS}),
    SessionAction.GRAPH: frozenset({Role.CLIENT, Role.COUNSELOR, Role.SERVICE}),
    SessionAction.ANALYSE: frozenset({Role.COUNSELOR, Role.OPS}),
    SessionAction.CONTINUE_FROM: frozenset({Role.CLIENT, Role.OPS}),
    SessionAction.PLAY: frozenset({Role.CLIENT}),
    SessionAction.CLAIM: frozenset({Role.COUNSELOR, Role.OPS}),
    SessionAction.TAKE_OVER: frozenset({Role.COUNSELOR, Role.OPS}),
    SessionAction.STEER: frozenset({Role.COUNSELOR, Role.OPS}),
}

# What the counselor who started a sandbox session may do to it beyond reading: it plays the
# test client, so it steers the session like an owner. Nobody else gains anything: a sandbox
# session is a test, and §1 stays as it is for every real client's session.
SANDBOX_PLAYER_ACTIONS = frozenset({SessionAction.PLAY, SessionAction.CONTINUE_FROM})

# The browser pages are the staff's (SPEC §1: clients and services come in through REST).
PAGE_ROLES = frozenset({Role.COUNSELOR, Role.OPS})


def not_found() -> ApplicationError:
    return ApplicationError(ErrorCode.NOT_FOUND, "Session not found.")


def forbidden(detail: str) -> ApplicationError:
    return ApplicationError(ErrorCode.FORBIDDEN, detail)


def max_privacy_for(user: Any) -> Privacy:
    """The highest privacy class `user` may read; anyone not staff gets the client's view."""
    if role_of(user) in {Role.COUNSELOR, Role.OPS, Role.SERVICE}:
        return STAFF_MAX_PRIVACY
    return CLIENT_MAX_PRIVACY


def _counselor_scope(user: Any) -> Q:
    # A subquery rather than a join: no duplicate rows, and the list stays one query.
    caseload = CaseloadAssignment.objects.filter(counselor=user).values("client_id")
    return Q(user_id__in=caseload) | Q(handoff_counselor=user) | Q(sandbox__counselor=user)


def _alerted_sessions(user: Any) -> Any:
    return Notification.objects.filter(
        user=user, kind=Notification.Kind.CRISIS_ALERT, session__isnull=False
    ).values("session_id")


def _on_duty(user: Any) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.on_duty)


def _alerted_to(user: Any) -> Q:
    """The sessions `user` (a counselor) was alerted about: those it holds an alert for and,
    while it is on duty, every live alerted one — a counselor who came on duty after the alert
    went out may claim it too (SPEC §1). A sandbox session is a test: only its player is
    alerted about it."""
    alerted = Q(pk__in=_alerted_sessions(user))
    if _on_duty(user):
        live = Q(alerted_at__isnull=False, status=AskSession.Status.ACTIVE)
        alerted |= live & Q(sandbox__isnull=True)
    return alerted


def receives_crisis_alerts(user: Any) -> bool:
    """Ops always; counselors while on duty (their profile says so)."""
    role = role_of(user)
    return role is Role.OPS or (role is Role.COUNSELOR and _on_duty(user))


def sessions_alertable_to(user: Any) -> Any:
    """What the crisis queue and the live alerts may name to `user`: the sessions it may read
    plus, for a counselor, those it was alerted about — which it may claim but not open until it
    has (SPEC §1). Names and words stay behind `session_for`."""
    sessions = sessions_visible_to(user)
    if role_of(user) is Role.COUNSELOR:
        alerted = AskSession.objects.filter(_alerted_to(user), is_deleted=False)
        sessions = sessions | alerted
    return sessions


def session_alerted_for(user: Any, session_id: Any) -> AskSession | None:
    """The session if `user` is a counselor alerted about it, else None."""
    if role_of(user) is not Role.COUNSELOR:
        return None
    try:
        pk = uuid.UUID(str(session_id))
    except ValueError:
        return None
    return (
        AskSession.objects.select_related("user")
        .filter(_alerted_to(user), pk=pk, is_deleted=False)
        .first()
    )


def session_for_claim(user: Any, session_id: Any) -> AskSession:
    """The session if `user` may claim it: a counselor alerted about it, or one who may already
    read it (caseload, handoff), or ops. Otherwise as `session_for`: 404, or 403 E_FORBIDDEN for
    a crisis session outside the counselor's caseload, or 403 for a role that never claims."""
    alerted = session_alerted_for(user, session_id)
    if alerted is not None:
        return alerted
    session = session_for(user, session_id, write=True)
    session_require(user, session, SessionAction.CLAIM)
    return session


def sessions_visible_to(user: Any, *, include_deleted: bool = False) -> Any:
    """Every session `user` may read. Soft-deleted rows only for ops who ask for them."""
    role = role_of(user)
    sessions = AskSession.objects.all()
    if role is None:
        return sessions.none()
    if role is Role.CLIENT:
        sessions = sessions.filter(user=user)
    elif role is Role.COUNSELOR:
        sessions = sessions.filter(_counselor_scope(user))
    if not (include_deleted and role is Role.OPS):
        sessions = sessions.filter(is_deleted=False)
    return sessions


def agents_visible_to(user: Any) -> Any:
    """The agents `user` may list: ops every one; anyone else the shared ones (system defaults,
    templates) and the custom agents of the clients it may read — itself, or for a counselor
    its caseload and the owners of sessions handed off to it. A custom agent names its client,
    so another client's is as unknown as that client's sessions (SPEC §1)."""
    agents = AskAgent.objects.all()
    role = role_of(user)
    if role is Role.OPS:
        return agents
    if role is None:
        return agents.none()
    readable = Q(owner=user) | Q(owner_id__in=sessions_visible_to(user).values("user_id"))
    if role is Role.COUNSELOR:
        caseload = CaseloadAssignment.objects.filter(counselor=user).values("client_id")
        readable |= Q(owner_id__in=caseload)
    return agents.filter(~Q(origin=AgentOrigin.USER_CUSTOM) | readable)


def _may_read(user: Any, role: Role | None, session: AskSession) -> bool:
    if role in {Role.OPS, Role.SERVICE}:
        return True
    if role is Role.CLIENT:
        return session.user_id == user.pk
    if role is Role.COUNSELOR:
        return (
            session.handoff_counselor_id == user.pk
            or CaseloadAssignment.objects.filter(counselor=user, client_id=session.user_id).exists()
            or sandbox_player(user, session)
        )
    return False


def sandbox_of(session: AskSession) -> SandboxSession | None:
    """The session's sandbox row, or None for a real client's session (cached on the instance
    either way, so asking twice costs one query at most)."""
    try:
        return session.sandbox
    except SandboxSession.DoesNotExist:
        return None


def sandbox_player(user: Any, session: AskSession) -> bool:
    """Whether `user` started `session` in the sandbox (and so plays its test client)."""
    if user is None or not user.is_authenticated:
        return False
    sandbox = sandbox_of(session)
    return sandbox is not None and sandbox.counselor_id == user.pk


def session_for(user: Any, session_id: Any, *, write: bool = False) -> AskSession:
    """The session `session_id` if `user` may read it (and, with `write`, change it).

    Raises `E_NOT_FOUND` (404) for anything the caller may not know exists, and `E_FORBIDDEN`
    (403) for a counselor reaching a crisis session outside its caseload and handoffs: the
    schema names that denial explicitly. Soft-deleted sessions exist only for ops, and only to
    read.
    """
    try:
        pk = uuid.UUID(str(session_id))
    except ValueError:
        raise not_found() from None
    role = role_of(user)
    # The sandbox row comes along: whether the caller plays the session is asked next.
    session = AskSession.objects.select_related("user", "sandbox").filter(pk=pk).first()
    if session is None or role is None:
        raise not_found()
    if not _may_read(user, role, session):
        if session.is_crisis and role is Role.COUNSELOR:
            raise forbidden("Crisis sessions are open only to their counselors.")
        raise not_found()
    if session.is_deleted and (write or role is not Role.OPS):
        raise not_found()
    return session


def session_allows(user: Any, action: SessionAction) -> bool:
    return role_of(user) in _ACTION_ROLES[action]


def session_may(user: Any, session: AskSession, action: SessionAction) -> bool:
    """`action` on a session `user` can already see: by role, or as its sandbox player."""
    if session_allows(user, action):
        return True
    return action in SANDBOX_PLAYER_ACTIONS and sandbox_player(user, session)


def session_require(user: Any, session: AskSession, action: SessionAction) -> None:
    """Refuse `action` on a session the caller can already see (so 403, not 404)."""
    if not session_allows(user, action):
        raise forbidden(f"Your role may not {action.value} this session.")


def role_require(user: Any, action: SessionAction) -> None:
    """Refuse `action` to a role that may never perform it, before any object is looked up:
    the answer is the same for every id, so it tells the caller nothing about what exists."""
    if role_of(user) not in _ACTION_ROLES[action]:
        raise forbidden(f"Your role may not {action.value} sessions.")


# --- CBT homework (SPEC §9 "client (own), counselor (caseload, read)") ----------------


def tasks_visible_to(user: Any) -> Any:
    """Every task `user` may read: a client its own, a counselor its caseload's and those of
    sessions handed off to it, ops and services all. Never a deleted session's."""
    role = role_of(user)
    tasks = Task.objects.filter(session__is_deleted=False)
    if role is Role.CLIENT:
        return tasks.filter(user=user)
    if role is Role.COUNSELOR:
        caseload = CaseloadAssignment.objects.filter(counselor=user).values("client_id")
        return tasks.filter(Q(user_id__in=caseload) | Q(session__handoff_counselor=user))
    if role in (Role.OPS, Role.SERVICE):
        return tasks
    return tasks.none()


def task_not_found() -> ApplicationError:
    return ApplicationError(ErrorCode.NOT_FOUND, "Task not found.")


def task_for(user: Any, task_id: Any, *, write: bool = False) -> Task:
    """The task if `user` may read it; with `write`, only its own client may act on it (others
    who may read it get 403). Anything else is 404: a stranger learns nothing."""
    try:
        pk = uuid.UUID(str(task_id))
    except ValueError:
        raise task_not_found() from None
    task = tasks_visible_to(user).select_related("session").filter(pk=pk).first()
    if task is None:
        raise task_not_found()
    if write and task.user_id != user.pk:
        raise forbidden("Only the client does its homework.")
    return task


def pages_allowed(user: Any) -> bool:
    return role_of(user) in PAGE_ROLES


# --- which fields a role may write (schema §7; no mass assignment) -----------------------------

# PATCH /api/ask/sessions/{id}: the owner's own settings …
OWNER_PATCH_FIELDS = frozenset(
    {
        "session_title",
        "satisfaction_score",
        "follow_up_needed",
        "voice_config",
        "custom_agent_id",
        "agent_origin",
    }
)
# … clinical fields for counselors and ops (the client's title or rating are not theirs) …
STAFF_PATCH_FIELDS = frozenset({"final_risk_level", "session_summary", "follow_up_needed"})
# … and every writable schema field for the orchestrator (schema §7 "sessionManager: all").
SERVICE_PATCH_FIELDS = frozenset(
    {
        *OWNER_PATCH_FIELDS,
        *STAFF_PATCH_FIELDS,
        "dify_conversation_id",
        "session_type",
        "trigger_source",
        "active_agent_key",
        "agent_snapshot",
        "conversation_variables",
        "modality_flags",
        "cbt_focus",
        "initial_risk_level",
        "key_insights",
        "cbt_techniques_used",
        "generated_task_ids",
        "counselor_handoff",
        "follow_up_at",
        "message_count",
        "audio_message_count",
        "attachment_count",
        "duration_seconds",
        "intervention_triggered",
        "endedAt",
    }
)
CLIENT_CREATE_FIELDS = frozenset(
    {
        "session_type",
        "trigger_source",
        "dify_conversation_id",
        "active_agent_key",
        "custom_agent_id",
        "agent_origin",
    }
)
SERVICE_CREATE_FIELDS = CLIENT_CREATE_FIELDS | {"initial_risk_level", "user_id"}

_PATCH_FIELDS_BY_ROLE = {
    Role.CLIENT: OWNER_PATCH_FIELDS,
    Role.COUNSELOR: STAFF_PATCH_FIELDS,
    Role.OPS: STAFF_PATCH_FIELDS,
    Role.SERVICE: SERVICE_PATCH_FIELDS,
}


def patchable_fields(user: Any) -> frozenset[str]:
    return _PATCH_FIELDS_BY_ROLE.get(role_of(user), frozenset())


def creatable_fields(user: Any) -> frozenset[str]:
    role = role_of(user)
    if role is Role.SERVICE:
        return SERVICE_CREATE_FIELDS
    return CLIENT_CREATE_FIELDS if role is Role.CLIENT else frozenset()
