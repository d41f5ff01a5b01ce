"""What the client writes, read before anything else answers it (SPEC §3): the text checked,
then routed — the safety net, a guard's slot, the scheduler, the next card of the batch, or the
Analyst (a `Pending` batch). Called by the turn loop and by the closing's last thing.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sessions_app import texts
from sessions_app.engine.cards.batch import Pending
from sessions_app.engine.cards.dealer import SCHEDULER, SCREENING, Turn
from sessions_app.engine.closing.end import session_close_in
from sessions_app.engine.crisis import escalation, screening
from sessions_app.engine.flows import scheduler
from sessions_app.engine.flows.validator import (
    SCHEDULER_FLOW,
    Move,
    route,
    session_move_validate,
)
from sessions_app.engine.language import detectors, identify
from sessions_app.errors import invalid
from sessions_app.events import EventType
from sessions_app.models import AskMessage, AskSession

TEXT_MAX = 4000


def visible(text: str) -> bool:
    """Whether `text` shows anything: a letter, digit, punctuation or symbol (an emoji), not
    only spaces, zero-width or format characters, controls, or marks on nothing
    (docs/decisions/0007-hostile-input-is-bounded.md)."""
    return any(unicodedata.category(ch)[0] in "LNPS" for ch in text)


def text_clean(text: Any, field: str = "text") -> str:
    if not isinstance(text, str) or not visible(text):
        raise invalid("Write something first.", **{field: "must not be empty"})
    text = text.strip()
    if len(text) > TEXT_MAX:
        raise invalid(f"At most {TEXT_MAX} characters.", **{field: f"over {TEXT_MAX} characters"})
    if "\x00" in text:
        raise invalid("The text holds a character that cannot be stored.", **{field: "NUL"})
    return text


def client_words(
    turn: Turn, text: str, message: AskMessage, card: dict[str, Any] | None
) -> Pending | None:
    """Route what the client just said: crisis, a slot, the scheduler, or the dialogue."""
    session = turn.session
    card = card or {"queue": [], "kind": "", "slot": ""}
    if not card.get("slot"):  # a name or a phone number for a slot says nothing of language
        language_follow(turn, text)
    if escalation.safety_net(turn, text, card=card, message_id=message.pk):
        return None
    if card["kind"] == SCREENING:
        return _screening_answered(turn, text, card, message)
    intent = route(text=text, locale=session.locale, intent=session.current_intent_code)
    if card.get("slot"):
        _slot_fill(turn, card["slot"], text)
    scheduling = card["kind"] == SCHEDULER or intent == SCHEDULER_FLOW
    if scheduling and not _schedule(turn, text, card):
        return None
    fatigue = detectors.detect_fatigue(text, session.locale)
    meta = detectors.detect_meta(text, session.locale)
    queue = card.get("queue") or []
    if queue and not (fatigue or meta):
        links = {"batch": card.get("batch"), "analysis": card.get("analysis")}
        turn.deal(queue[0], queue[1:], **links)
        return None
    since = card.get("analysis") or card.get("batch") or message.pk
    return Pending(message.pk, since, fatigue=fatigue, meta=meta)


def _screening_answered(
    turn: Turn, text: str, card: dict[str, Any], message: AskMessage
) -> Pending | None:
    """The client answered the screener: another question, an escalation at the level the
    answers give, or — on a no — the dialogue resumes where the screening card interrupted it."""
    outcome, level = screening.screening_answer(turn, text, card)
    if outcome == "ask":
        return None
    if outcome == "escalate":
        escalation.crisis_escalate(turn, source="screening", level=level)
        return None
    if outcome == "review":
        escalation.screening_review(turn)
    queue = card.get("queue") or []
    if queue:
        turn.deal(queue[0], queue[1:], batch=card.get("batch"), analysis=card.get("analysis"))
        return None
    return Pending(message.pk, card.get("analysis") or card.get("batch") or message.pk)


def escalated(turn: Turn) -> bool:
    """Whether this turn raised a crisis: then the client's words were the crisis, and the card
    they answered keeps its purpose open."""
    return any(event.type == EventType.RISK_ESCALATED for event in turn.events)


def language_follow(turn: Turn, text: str) -> None:
    """A client who writes in another language than the session's is answered in the language
    it writes (SPEC §3): from this text on, every card, reply and crisis line. Text too short to
    tell ("ok") keeps the session's language."""
    written = identify.detect(text)
    if written and written != texts.lang_of(turn.session.locale):
        turn.set(locale=written)


def _slot_fill(turn: Turn, slot: str, text: str) -> None:
    """A card the engine dealt to fill a guard's slot: the answer is the slot's value, checked
    like any move (staying on the step)."""
    session = turn.session
    outcome = session_move_validate(
        session,
        Move(state_after=session.current_step_code, slots_updated={slot: text}, source="engine"),
    )
    turn.set(slots=outcome.slots)
    turn.events.append(outcome.event())


def _schedule(turn: Turn, text: str, card: dict[str, Any]) -> bool:
    """The scheduler detour. False when it dealt its own card (the turn stops there)."""
    session = turn.session
    if session.current_intent_code != SCHEDULER_FLOW:
        scheduler.scheduler_enter(turn)
    carry = {"queue": card.get("queue") or [], "analysis": card.get("analysis")}
    asks = int(card.get("asks") or 0) if card["kind"] == SCHEDULER else 0
    if not scheduler.scheduler_handle(turn, text, asks=asks, carry=carry):
        return False
    if session.phase == AskSession.Phase.CLOSING:
        # From the closing the session ends in the scheduler (session design §3).
        session_close_in(turn, ended_in=SCHEDULER_FLOW)
        return False
    scheduler.scheduler_resume(turn)
    return True
