"""The session's event log (SPEC §2): the one writer of `SessionEvent`, its seq reservation,
the actor label and the message-length rule. It refuses a type that `EventType` (in the models,
where every layer may read it) does not list.

Events are append-only (the model refuses update and delete; on PostgreSQL a trigger does too).
An append joins its caller's transaction and pushes to watchers only after that commits.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from sessions_app import models as session_models
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.models import AskSession, EventType, IdempotencyRecord, SessionEvent
from sessions_app.realtime import push as realtime
from sessions_app.roles import role_of


@dataclass(frozen=True)
class EventSpec:
    """One event to append with `events_append`."""

    type: str
    payload: dict[str, Any] = field(default_factory=dict)
    actor: str = "system"
    actor_user: Any = None


def event_append(
    *,
    session: AskSession,
    type: str,
    payload: dict[str, Any] | None = None,
    actor: str = "system",
    actor_user: Any = None,
) -> SessionEvent:
    """Append one event to the session's log (see `events_append`)."""
    spec = EventSpec(type=type, payload=payload or {}, actor=actor, actor_user=actor_user)
    return events_append(session=session, events=[spec])[0]


def event_by(
    *, session: AskSession, type: str, by: Any, payload: dict[str, Any] | None = None
) -> SessionEvent:
    """Append one event done by a person (or the system when `by` is None), labelled by role."""
    return event_append(
        session=session, type=type, payload=payload, actor=actor_label(by), actor_user=by
    )


def events_append(
    *, session: AskSession, events: list[EventSpec], seq_reserved: bool = False
) -> list[SessionEvent]:
    """Append events to the session's log; the only writer of `SessionEvent`.

    The push to watchers goes out after the surrounding transaction commits, so nobody is told
    about an event that was rolled back. With `seq_reserved`, the caller has already advanced
    `event_seq` by `len(events)` in its own UPDATE of the session row (`event_seq_reserve`) and
    `session.event_seq` holds the value that UPDATE returned: one statement fewer per turn.
    """
    for spec in events:
        if spec.type not in EventType.values:
            raise ApplicationError(ErrorCode.VALIDATION, f"{spec.type!r} is not an EventType")
    return _events_insert(session, events, seq_reserved=seq_reserved)


def event_seq_reserve(session: AskSession, count: int) -> None:
    """Make the caller's next `session.save(update_fields=[…, "event_seq"])` reserve `count`
    seqs: the UPDATE adds them in the database (under the row lock it takes) and RETURNING
    brings the new value back into `session.event_seq`."""
    session.event_seq = F("event_seq") + count


# The `Idempotency-Key` claim of the request being served, when its work runs in transactions
# of its own (a staged POST, api/idempotency.py). Every unit of work appends events, so the
# append marks the claim applied inside the transaction that commits the work: a retry after
# the process died finds that the work is in and replays its result instead of doing it again.
_claim: ContextVar[int | None] = ContextVar("idempotency_claim", default=None)


@contextmanager
def idempotency_claim_scope(record_id: int) -> Iterator[None]:
    """Appends made inside mark the claim `record_id` applied, with their session."""
    token = _claim.set(record_id)
    try:
        yield
    finally:
        _claim.reset(token)


def _claim_mark(session: AskSession) -> None:
    claim = _claim.get()
    if claim is not None:
        IdempotencyRecord.objects.filter(pk=claim, applied_at__isnull=True).update(
            applied_at=timezone.now(), session=session
        )


# No savepoint of its own: an append is always part of its caller's unit of work, and a failure
# here must roll that whole unit back anyway. Saving the savepoint keeps a turn's query count
# within QUALITY P1.
@transaction.atomic(savepoint=False)
def _events_insert(
    session: AskSession, events: list[EventSpec], *, seq_reserved: bool = False
) -> list[SessionEvent]:
    _claim_mark(session)
    last = session.event_seq if seq_reserved else _event_seq_advance(session, len(events))
    first = last - len(events) + 1
    session.event_seq = last
    rows = SessionEvent.objects.bulk_create(
        [
            SessionEvent(
                session=session,
                seq=first + offset,
                type=spec.type,
                payload=spec.payload,
                actor=spec.actor,
                actor_user=spec.actor_user,
            )
            for offset, spec in enumerate(events)
        ]
    )
    published = [(row.pk, row.seq, row.type) for row in rows]
    transaction.on_commit(lambda: realtime.publish_events(session_id=session.pk, events=published))
    return rows


def _event_seq_advance(session: AskSession, count: int) -> int:
    """Reserve `count` seqs and return the last one, in one statement.

    The UPDATE takes the session's row lock and holds it to the end of the transaction, so
    concurrent appends to one session queue here and each reads the seq it just wrote.
    UPDATE … RETURNING works on PostgreSQL and on SQLite ≥ 3.35.
    """
    table = AskSession._meta.db_table
    pk = AskSession._meta.pk.get_db_prep_value(session.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET event_seq = event_seq + %s WHERE id = %s RETURNING event_seq",
            [count, pk],
        )
        return cursor.fetchone()[0]


def actor_label(user: Any) -> str:
    role = role_of(user)
    return role.value if role is not None else "system"


def session_length_check(*, session: AskSession, adding: int = 1) -> None:
    """Refuse growing a session past the schema's message limit (schema §10).

    The API calls it when a service sets `message_count`; the dialogue engine calls it before
    appending messages.
    """
    # Read at call time: the schema's limit (100), lifted only by scaling measurements.
    limit = session_models.SESSION_MESSAGES_MAX
    if session.message_count + adding > limit:
        raise ApplicationError(
            ErrorCode.SESSION_TOO_LONG, f"A session holds at most {limit} messages."
        )
