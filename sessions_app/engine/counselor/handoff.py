"""The counselor's workspace (SPEC §1, §3 Crisis, §9): claim a session, take the conversation
over from the AI, write to the client, hand back, steer the Analyst.

One lock on the session row says who is speaking: `counselor_speaking_since`, set only for the
counselor the session is handed off to (`handoff_counselor`, a database constraint). While it is
set the engine calls no agent and deals no card: what the client writes goes to the counselor
(after the safety net), and the turn endpoints that would deal a card are refused.

    session_claim(*, session, counselor) -> AskSession
    session_take_over(*, session, counselor) -> AskSession
    counselor_message_send(*, session, counselor, text) -> AskMessage
    session_hand_back(*, session, counselor) -> TurnResult
    steer_note_add(*, session, counselor, text) -> SessionEvent
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from sessions_app.engine.cards.batch import Pending
from sessions_app.engine.cards.dealer import (
    CLOSING_RESERVE,
    Draft,
    Turn,
    TurnResult,
    current_card,
    message_limit,
    session_locked,
)
from sessions_app.engine.crisis import escalation
from sessions_app.engine.turn.pending import batch_handed_out, batch_record
from sessions_app.engine.turn.routing import text_clean
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.events import EventSpec, EventType, actor_label, event_append
from sessions_app.models import AskMessage, AskSession, SessionEvent

User = get_user_model()

STEER_MAX = 1000
# How the marker messages that open and close the human part say so (payload, never text: a
# marker with no text costs the models nothing).
JOINED, LEFT = "joined", "left"


def person_name(user: Any) -> str:
    """How a counselor is named to a client and to colleagues: first name, else username."""
    return user.get_short_name() or user.get_username()


def _closed() -> ApplicationError:
    return ApplicationError(ErrorCode.SESSION_CLOSED, "This session is no longer active.")


def _already_claimed(session: AskSession) -> ApplicationError:
    holder = User.objects.filter(pk=session.handoff_counselor_id).first()
    name = person_name(holder) if holder is not None else "another counselor"
    since = timezone.localtime(session.handoff_time).strftime("%H:%M")
    return ApplicationError(
        ErrorCode.ALREADY_CLAIMED, f"{name} already holds this session (claimed at {since})."
    )


def _require_holder(session: AskSession, counselor: Any) -> None:
    if session.handoff_counselor_id != counselor.pk:
        if session.handoff_counselor_id is None:
            detail = "Claim the session first: only the counselor who holds it may do this."
        else:
            detail = f"{_already_claimed(session).detail} Only its holder may do this."
        raise ApplicationError(ErrorCode.NOT_HOLDER, detail)


def _require_live(session: AskSession) -> None:
    if not session.is_active or session.is_deleted:
        raise _closed()


def counselor_speaking_refuse(session: AskSession) -> None:
    """Refuse a client's move that would deal a card or call an agent while a person speaks."""
    if session.counselor_speaking:
        raise ApplicationError(
            ErrorCode.COUNSELOR_SPEAKING,
            "A counselor is talking with you now: write to them with POST …/messages.",
        )


# --- claim ---------------------------------------------------------------------------------------


@transaction.atomic
def session_claim(*, session: AskSession, counselor: Any) -> AskSession:
    """Hand the session off to `counselor`. Of concurrent claims exactly one wins; the others
    get `E_ALREADY_CLAIMED` naming the holder. A repeat by the holder changes nothing."""
    # Locked: a second claim waits here for the first to commit, then reads its holder.
    locked = AskSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    _require_live(locked)
    if locked.handoff_counselor_id == counselor.pk:
        return locked
    if locked.handoff_counselor_id is not None:
        raise _already_claimed(locked)
    now = timezone.now()
    seconds = max(0, int((now - locked.alerted_at).total_seconds())) if locked.alerted_at else None
    reason = "crisis_alert" if locked.alerted_at else "counselor_claim"
    locked.handoff_reason, locked.handoff_counselor, locked.handoff_time = reason, counselor, now
    locked.save(update_fields=["handoff_reason", "handoff_counselor", "handoff_time", "updated_at"])
    event_append(
        session=locked,
        type=EventType.HANDOFF_CREATED,
        payload={
            "via": "claim",
            "handoff_reason": reason,
            "counselor_id": counselor.pk,
            "seconds_to_claim": seconds,
            "escalations": locked.alert_escalations,
        },
        actor=actor_label(counselor),
        actor_user=counselor,
    )
    return locked


# --- take over, write, hand back -----------------------------------------------------------------


def _counselor_event(type: str, counselor: Any, **payload: Any) -> EventSpec:
    return EventSpec(type=type, payload=payload, actor=actor_label(counselor), actor_user=counselor)


@transaction.atomic
def session_take_over(*, session: AskSession, counselor: Any) -> AskSession:
    """The holder takes the conversation over: from now on the AI is silent. A repeat by the
    one already speaking changes nothing."""
    locked = session_locked(session.pk)
    _require_live(locked)
    _require_holder(locked, counselor)
    if locked.counselor_speaking:
        return locked
    if locked.phase == AskSession.Phase.CLOSING:
        raise ApplicationError(
            ErrorCode.SESSION_CLOSING,
            "The session is closing: it can no longer be taken over.",
        )
    turn = Turn(locked, unlimited=True)  # people talking: never refused by the length
    # The marker becomes the head: an agent reply still in flight finds the session moved on
    # (batch `_batch_persist`), and no card of the open batch is current any more.
    joined = Draft(AskMessage.Role.SYSTEM, AskMessage.Kind.MARKER, "", {"counselor": JOINED})
    [marker] = turn.append(joined)
    turn.set(counselor_speaking_since=timezone.now(), ready_to_close=False)
    turn.events.append(
        _counselor_event(EventType.COUNSELOR_TOOK_OVER, counselor, message_id=marker.pk)
    )
    turn.save()
    return locked


def _require_speaking(session: AskSession, counselor: Any) -> None:
    _require_holder(session, counselor)
    if not session.counselor_speaking:
        raise ApplicationError(
            ErrorCode.NOT_TAKEN_OVER, "Take the conversation over first: the AI is speaking."
        )


@transaction.atomic
def counselor_message_send(*, session: AskSession, counselor: Any, text: Any) -> AskMessage:
    """The speaking counselor writes to the client."""
    text = text_clean(text)
    locked = session_locked(session.pk)
    _require_live(locked)
    _require_speaking(locked, counselor)
    turn = Turn(locked, unlimited=True)  # people talking: never refused by the length
    [message] = turn.append(Draft(AskMessage.Role.COUNSELOR, AskMessage.Kind.TEXT, text))
    turn.events.append(
        _counselor_event(
            EventType.COUNSELOR_MESSAGE, counselor, message_id=message.pk, chars=len(text)
        )
    )
    turn.save()
    return message


def client_words_to_counselor(turn: Turn, text: str) -> AskMessage:
    """What the client writes while a person speaks: stored for the counselor, read by the
    safety net like every client text (risk raised and recorded, nobody else paged, no card),
    never routed to an agent. Called by the turn loop under its row lock."""
    turn.unlimited = True  # people talking: never refused by the length (dealer.Turn)
    [message] = turn.append(Draft(AskMessage.Role.CLIENT, AskMessage.Kind.TEXT, text))
    turn.event(
        EventType.MESSAGE_RECEIVED, "client", message_id=message.pk, chars=len(text), to="counselor"
    )
    escalation.safety_net(turn, text, message_id=message.pk, counselor_present=True)
    return message


def session_hand_back(*, session: AskSession, counselor: Any) -> TurnResult:
    """The AI resumes at the flow step and slots where it stood, with the human part of the
    conversation as the Analyst's recap: its batch is made off the request, like a client's."""
    locked, pending = _hand_back_store(session.pk, counselor)
    if pending is None:
        return TurnResult(locked, current_card(locked))
    return batch_handed_out(locked)


@transaction.atomic
def _hand_back_store(session_id: Any, counselor: Any) -> tuple[AskSession, Pending | None]:
    locked = session_locked(session_id)
    _require_speaking(locked, counselor)
    joined = (
        AskMessage.objects.filter(
            session=locked, kind=AskMessage.Kind.MARKER, payload__counselor=JOINED
        )
        .order_by("-id")
        .values_list("pk", flat=True)
        .first()
    )
    turn = Turn(locked, unlimited=True)  # people talking: never refused by the length
    turn.set(counselor_speaking_since=None)
    if not locked.is_active:  # closed meanwhile: the lock is released, nobody resumes
        turn.save()
        return locked, None
    left = Draft(AskMessage.Role.SYSTEM, AskMessage.Kind.MARKER, "", {"counselor": LEFT})
    [marker] = turn.append(left)
    turn.events.append(
        _counselor_event(EventType.COUNSELOR_HANDED_BACK, counselor, message_id=marker.pk)
    )
    if locked.message_count + CLOSING_RESERVE >= message_limit():
        # No room left for the AI to go on: what is left belongs to the closing, which the
        # client is offered (End) instead of a batch the length limit would refuse.
        turn.set(ready_to_close=True)
        turn.event(EventType.PACING_READY_TO_CLOSE, reason="length", turn_count=locked.turn_count)
        turn.save()
        return locked, None
    pending = Pending(marker.pk, joined or marker.pk, human=True)
    batch_record(turn, pending)
    turn.save()
    return locked, pending


# --- steer ---------------------------------------------------------------------------------------


def steer_note_add(*, session: AskSession, counselor: Any, text: Any) -> SessionEvent:
    """Guidance for the Analyst's next call. Kept only in the event log, whose `steer.noted`
    events no client ever receives."""
    text = text_clean(text)
    if len(text) > STEER_MAX:
        raise ApplicationError(
            ErrorCode.VALIDATION,
            f"At most {STEER_MAX} characters.",
            fields={"text": [f"over {STEER_MAX} characters"]},
        )
    with transaction.atomic():
        # The append locks the row; read under it, the status is current.
        locked = AskSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
        _require_live(locked)
        return event_append(
            session=locked,
            type=EventType.STEER_NOTED,
            payload={"text": text, "counselor_id": counselor.pk},
            actor=actor_label(counselor),
            actor_user=counselor,
        )
