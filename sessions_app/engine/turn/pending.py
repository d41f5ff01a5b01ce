"""The batch as its own unit of work, off the answer's request (SPEC §3 One turn;
docs/decisions/0009-the-batch-off-the-request.md).

The answer that completes a batch records it on the session (`batch_record`: the answer's own
UPDATE carries `batch_pending`) and, once committed, hands it to the task queue
(`batch_dispatch`): the HTTP answer returns with the state's `pending` while a worker runs
`batch_prepare` — the safety model's opinion on the words first (an escalation takes the batch's
place), then the Analyst → flow validation → Narrator → cards of `cards.batch.batch_run`, whose
transaction clears the record. So a batch is dealt once whatever runs it. A run claims its
batch for `BATCH_LEASE_SECONDS`; a worker that dies lets the claim run out, and
`batches_resume` (every minute) hands the batch out again. After `BATCH_MAX_ATTEMPTS` runs the
client gets the gentle fallback card, never a session that waits forever.

With a model configured, a client message that completes no batch still gets the safety
model's opinion off the request (`opinion_dispatch` → `opinion_give`).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django_q.conf import Conf
from django_q.tasks import async_task

from sessions_app.engine.cards.batch import Pending, batch_abandon, batch_run
from sessions_app.engine.cards.dealer import Turn, TurnResult, current_card, session_fresh_read
from sessions_app.engine.crisis import safety_model
from sessions_app.models import AskMessage, AskSession

logger = logging.getLogger(__name__)

# The worker's entry points (sessions_app/tasks.py): they run a sandbox session's batch under
# the provider its counselor chose, which the engine knows nothing of.
BATCH_TASK = "sessions_app.tasks.batch_prepare"
OPINION_TASK = "sessions_app.tasks.safety_opinion"
# A batch recorded this long ago and never claimed lost its dispatch (a process died between
# the commit and the queue): the sweeper hands it out.
UNCLAIMED_GRACE = timedelta(seconds=30)


def batch_record(turn: Turn, pending: Pending) -> None:
    """Record the batch `pending` with the turn that completed it (before `turn.save()`: the
    session's UPDATE writes it). A batch recorded before and not dealt yet is replaced: the
    newest words make the batch. Its `since` is the seq of the turn's last event."""
    session = turn.session
    turn.set(
        batch_pending={
            "answer_id": pending.answer_id,
            "since_id": pending.since_id,
            "fatigue": pending.fatigue,
            "meta": pending.meta,
            "human": pending.human,
            "since": session.event_seq + len(turn.events),
        },
        batch_attempts=0,
        # Due to the sweeper if no worker has claimed it by then (a lost dispatch).
        batch_claimed_until=timezone.now() + UNCLAIMED_GRACE,
    )


def batch_dispatch(session_id: Any) -> bool:
    """Hand the session's recorded batch to a worker (after the answer's commit). Whether it
    was made already: by the queue running its tasks at once (`Q_SYNC`, the tests), or here,
    when there is no shared channel layer (`BATCH_OFF_REQUEST` off: the zero-configuration
    setup, where the worker's pushes could not reach this process's watchers). A queue that
    refuses it costs a minute: the record stays, and the sweeper hands it out."""
    _enqueue(BATCH_TASK, session_id)
    return bool(Conf.SYNC) or not settings.BATCH_OFF_REQUEST


def batch_handed_out(session: AskSession) -> TurnResult:
    """The result of the turn that recorded `session`'s batch, once it is handed to a worker:
    the state says `pending` — or, where the batch was made at once, the session as the batch
    left it, with its card."""
    if not batch_dispatch(session.pk):
        return TurnResult(session, None)
    made = session_fresh_read(session.pk)
    return TurnResult(made, current_card(made))


def opinion_dispatch(session: AskSession, message_id: int) -> None:
    """The safety model's opinion on a client message that completed no batch, off the
    request; nothing is queued when no model would be asked."""
    if safety_model.wanted(session):
        _enqueue(OPINION_TASK, session.pk, message_id)


def _enqueue(task: str, *args: Any) -> None:
    if not settings.BATCH_OFF_REQUEST:
        import_string(task)(*(str(arg) for arg in args))
        return
    try:
        async_task(task, *(str(arg) for arg in args), group="turns")
    except Exception as exc:  # the database that just committed went away: the sweeper's turn
        logger.warning("batch.dispatch_failed task=%s error=%s", task, type(exc).__name__)


def batch_prepare(session_id: Any) -> TurnResult | None:
    """Run the session's recorded batch, if it has one nobody else is running. The session as
    the batch left it, or None when there was nothing to run."""
    session = _claimed(session_id)
    if session is None:
        return None
    record = session.batch_pending
    pending = Pending(
        record["answer_id"],
        record["since_id"],
        fatigue=record["fatigue"],
        meta=record["meta"],
        human=record["human"],
    )
    if session.batch_attempts > settings.BATCH_MAX_ATTEMPTS:
        logger.warning("batch.abandoned session=%s", session_id)
        return batch_abandon(session_id, pending)
    if not pending.human:
        escalated = _second_opinion(session, pending.answer_id)
        if escalated is not None:
            # The crisis card is showing: the batch it replaced is not dealt.
            _unrecorded(session_id, pending.answer_id)
            return TurnResult(escalated, None)
    return batch_run(session, pending)


def _claimed(session_id: Any) -> AskSession | None:
    """The session, once this run has claimed its recorded batch for `BATCH_LEASE_SECONDS` —
    or None: no batch is recorded, or another run holds it."""
    now = timezone.now()
    claimable = Q(batch_attempts=0) | Q(batch_claimed_until__lt=now)
    lease = now + timedelta(seconds=settings.BATCH_LEASE_SECONDS)
    claimed = AskSession.objects.filter(
        claimable, pk=session_id, batch_pending__isnull=False
    ).update(batch_claimed_until=lease, batch_attempts=F("batch_attempts") + 1)
    if not claimed:
        return None
    return session_fresh_read(session_id)


def _unrecorded(session_id: Any, answer_id: int) -> None:
    AskSession.objects.filter(pk=session_id, batch_pending__answer_id=answer_id).update(
        batch_pending=None, batch_claimed_until=None, batch_attempts=0
    )


def opinion_give(session_id: Any, message_id: Any) -> AskSession | None:
    """The safety model's opinion on one client message (a task); the session it escalated."""
    return _second_opinion(session_fresh_read(session_id), int(message_id))


def _second_opinion(session: AskSession, message_id: int) -> AskSession | None:
    if not safety_model.wanted(session):
        return None  # no model to ask (the offline engine): no query either
    text = (
        AskMessage.objects.filter(pk=message_id, session=session, role=AskMessage.Role.CLIENT)
        .values_list("text", flat=True)
        .first()
    )
    if not text:
        return None
    return safety_model.second_opinion(session, text)


def batches_resume() -> int:
    """Hand out again every batch whose run died (its claim ran out) or whose dispatch was lost
    (never claimed within `UNCLAIMED_GRACE`); the sweeper's job, every minute. How many."""
    due = AskSession.objects.filter(
        batch_claimed_until__lt=timezone.now(), batch_pending__isnull=False
    )
    session_ids = list(due.values_list("pk", flat=True)[:500])
    for session_id in session_ids:
        batch_dispatch(session_id)
    return len(session_ids)
