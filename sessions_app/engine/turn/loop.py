"""The turn loop (SPEC §3): the client answers → the answer is committed with `answer.received`
BEFORE anything else → the next card of the batch is dealt with no model call, or, when the batch
is complete, the batch is recorded with the answer and made off the request (`pending`): the
numbered recap goes to the Analyst, its move through the flow validator, its questions through
the Narrator, and the new cards are committed in the batch's own transaction. With a model
configured, the safety model gives its opinion on the committed words first (`safety_model`):
an escalation it makes takes the place of the batch.

No model is ever called inside a transaction or in the answer's request; a model that fails,
refuses or runs out of tokens costs the client nothing but a gentle card, and the answer is
already stored.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from sessions_app import texts
from sessions_app.engine import homework
from sessions_app.engine.cards.batch import Pending
from sessions_app.engine.cards.dealer import (
    CLOSING_RESERVE,
    COMPLETION,
    LAST_THING,
    OPEN,
    SCHEDULER,
    SCREENING,
    TOPIC,
    Draft,
    Turn,
    TurnResult,
    current_card,
    head_of,
    new_card,
    require_active,
    session_fresh_read,
    session_locked,
    undealt_card,
)
from sessions_app.engine.closing.stages import last_thing_submit
from sessions_app.engine.counselor import handoff
from sessions_app.engine.language import detectors
from sessions_app.engine.turn.pending import batch_handed_out, batch_record, opinion_dispatch
from sessions_app.engine.turn.routing import client_words, escalated, text_clean
from sessions_app.engine.turn.titles import session_title_neutral
from sessions_app.errors import ApplicationError, ErrorCode, invalid
from sessions_app.events import EventType, session_length_check
from sessions_app.models import AskMessage, AskSession

TOPIC_SLOT_CHARS = 120
CARD_ANSWERED = ErrorCode.CARD_ANSWERED
_YES = ("yes", "ok", "okay", "sure", "fine", "да", "ок", "давай", "хорошо", "конечно")


def _result(session: AskSession, pending: Pending | None) -> TurnResult:
    """The words are committed. A batch they completed goes to a worker, which asks the safety
    model first (with a model configured: its escalation takes the batch's place). Words that
    completed no batch get the model's opinion off the request too."""
    if pending is not None:
        return batch_handed_out(session)
    message = head_of(session)
    if message is not None and message.role == AskMessage.Role.CLIENT:
        opinion_dispatch(session, message.pk)
    return TurnResult(session, current_card(session))


def answer_submit(*, session: AskSession, card_id: Any, text: Any) -> TurnResult:
    """Answer the current card. Committed first; then the next card, or the batch is made off
    the request."""
    text = text_clean(text)
    locked, pending = _answer_store(session.pk, str(card_id or ""), text)
    return _result(locked, pending)


def _client_turn(session_id: Any, text: str) -> tuple[AskSession, Turn | None]:
    """The locked session and a turn for what the client wrote — or no turn when a counselor
    speaks: then the words went to the counselor (stored, checked by the safety net, not lost)
    and nothing else answers them."""
    locked = session_locked(session_id, with_recent=True)
    require_active(locked)
    turn = Turn(locked)
    if not locked.counselor_speaking:
        return locked, turn
    handoff.client_words_to_counselor(turn, text)
    turn.save()
    return locked, None


@transaction.atomic
def _answer_store(session_id: Any, card_id: str, text: str) -> tuple[AskSession, Pending | None]:
    locked, turn = _client_turn(session_id, text)
    if turn is None:
        return locked, None
    card = current_card(locked)
    if card is None or card["id"] != card_id:
        virtual = undealt_card(locked) if card is None else None
        if virtual is None or virtual["id"] != card_id:
            if _answered(locked, card_id):
                raise card_answered()
            raise invalid("Answer the card that is shown now.", card_id="not the current card")
        turn.deal(virtual, virtual["queue"], batch=virtual["batch"], analysis=virtual["analysis"])
        card = {**virtual, "message_id": turn.messages[-1].pk}
    if card["kind"] == COMPLETION:
        raise invalid("This card is answered with End or Continue.", card_id="use end/continue")
    if card["kind"] == LAST_THING:
        raise invalid("Use one-last-thing for this card.", card_id="use last-thing")
    pending = _client_answer(turn, card, text)
    if pending is not None:
        batch_record(turn, pending)
    turn.save()
    return locked, pending


def _answered(session: AskSession, card_id: str) -> bool:
    """The card was answered already: a second tap, a retry, a concurrent answer that won."""
    return AskMessage.objects.filter(
        session=session, role=AskMessage.Role.CLIENT, payload__card_id=card_id
    ).exists()


def card_answered() -> ApplicationError:
    """One card takes exactly one answer (SPEC §9); the API adds the current state."""
    return ApplicationError(
        CARD_ANSWERED,
        gettext("This card has already been answered; the current state is attached."),
    )


def _client_answer(turn: Turn, card: dict[str, Any], text: str) -> Pending | None:
    session = turn.session
    topic = card["kind"] == TOPIC
    kind = AskMessage.Kind.TOPIC if topic else AskMessage.Kind.ANSWER
    [answer] = turn.append(Draft(AskMessage.Role.CLIENT, kind, text, {"card_id": card["id"]}))
    turn.event(
        EventType.ANSWER_RECEIVED,
        "client",
        card_id=card["id"],
        message_id=answer.pk,
        chars=len(text),
    )
    if card["kind"] == SCREENING:
        pass  # the screener's questions are not the dialogue's rounds
    elif not topic:
        turn.set(turn_count=session.turn_count + 1)
    else:
        # Recorded before the words are routed: a detour (the scheduler) keeps it to resume.
        _topic_record(turn, card, text)
    pending = client_words(turn, text, answer, card)
    if escalated(turn):
        # The crisis is the message, whatever card it answered: the card's purpose stays open
        # (the homework is not reviewed, the words are not the session's topic).
        if topic:
            _topic_withdraw(turn)
        return pending
    if card.get("task_id"):
        homework.task_review_link(turn, card["task_id"], answer)
    return pending


def _topic_withdraw(turn: Turn) -> None:
    """Crisis words given as the topic are not the topic: out of the slots, and out of the
    slots the crisis detour keeps for the interrupted flow to resume with."""
    session = turn.session
    turn.set(
        slots={k: v for k, v in session.slots.items() if k != "topic"},
        resumable_slots={k: v for k, v in session.resumable_slots.items() if k != "topic"},
    )


def _topic_record(turn: Turn, card: dict[str, Any], text: str) -> None:
    session = turn.session
    chosen = card.get("suggestion") if _accepts(text) and card.get("suggestion") else text
    topic = " ".join(chosen.split())[:TOPIC_SLOT_CHARS]
    turn.set(slots={**session.slots, "topic": topic}, phase=AskSession.Phase.DIALOGUE)
    if not session.title_by_client:
        # A neutral label, never the client's words: titles show on lists others read.
        turn.set(session_title=session_title_neutral(session))


def _accepts(text: str) -> bool:
    return detectors.normalize(text).strip(" .!") in _YES


def message_submit(*, session: AskSession, text: Any) -> TurnResult:
    """Free text: the topic, the answer to a scheduler card, one last thing, or words said
    without a card — which the Analyst answers with a new batch."""
    text = text_clean(text)
    card = current_card(session_fresh_read(session.pk))
    if card and card["kind"] in (TOPIC, SCHEDULER, SCREENING):
        return answer_submit(session=session, card_id=card["id"], text=text)
    if card and card["kind"] == LAST_THING:
        return last_thing_submit(session=session, text=text)
    locked, pending = _free_text_store(session.pk, text)
    return _result(locked, pending)


@transaction.atomic
def _free_text_store(session_id: Any, text: str) -> tuple[AskSession, Pending | None]:
    locked, turn = _client_turn(session_id, text)
    if turn is None:
        return locked, None
    if locked.phase == AskSession.Phase.CLOSING:
        raise invalid("The session is closing: use one-last-thing.", text="session closing")
    [message] = turn.append(Draft(AskMessage.Role.CLIENT, AskMessage.Kind.TEXT, text))
    turn.event(EventType.MESSAGE_RECEIVED, "client", message_id=message.pk, chars=len(text))
    turn.set(ready_to_close=False)
    pending = client_words(turn, text, message, None)
    if pending is not None:
        batch_record(turn, pending)
    turn.save()
    return locked, pending


@transaction.atomic
def session_continue(*, session: AskSession) -> TurnResult:
    """Continue after the completion card: the signal is cleared and the dialogue goes on."""
    locked = session_locked(session.pk)
    require_active(locked)
    handoff.counselor_speaking_refuse(locked)
    card = current_card(locked)
    if locked.phase == AskSession.Phase.CLOSING or (card and card["kind"] != COMPLETION):
        raise invalid("There is nothing to continue: answer the card shown.", session="no")
    # Room for one more batch and the closing, or no continuing.
    session_length_check(session=locked, adding=CLOSING_RESERVE + 1)
    turn = Turn(locked)
    turn.set(ready_to_close=False)
    turn.event(EventType.PACING_CONTINUED, "client", turn_count=locked.turn_count)
    turn.open_batch([new_card(texts.text("open", locked.locale), OPEN)], engine="engine")
    turn.save()
    return TurnResult(locked, current_card(locked))
