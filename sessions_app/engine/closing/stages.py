"""Closing in three stages (SPEC §3, session design §3 and §10):

1. invisible: the summary over the WHOLE dialogue (its middle shortened to a token budget), key
   insights, CBT techniques; the profile is updated;
2. the Narrator's warm line with the next session's day from the client's schedule;
3. "one last thing": a note with a short reply, the scheduler (the session ends there), or
   Finish. `session.closed` and the analysis request commit together.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import ngettext_lazy

from sessions_app import texts
from sessions_app.engine import homework
from sessions_app.engine.agents import calls, prompts
from sessions_app.engine.agents.hygiene import client_text
from sessions_app.engine.cards.dealer import (
    LAST_THING,
    SCHEDULER,
    Draft,
    Turn,
    TurnResult,
    answered_pairs,
    current_card,
    new_card,
    profile_of,
    require_active,
    session_locked,
)
from sessions_app.engine.closing.end import session_close_in
from sessions_app.engine.closing.shown import marked, shown_note, shown_summary
from sessions_app.engine.counselor.handoff import counselor_speaking_refuse
from sessions_app.engine.flows.scheduler import next_session_date, scheduler_resume
from sessions_app.engine.flows.validator import SCHEDULER_FLOW, flow_get, pending_guard
from sessions_app.engine.graph.tree import session_messages, workline_path
from sessions_app.engine.language import detectors, identify
from sessions_app.engine.turn.opening import last_sessions
from sessions_app.engine.turn.routing import client_words, escalated, text_clean
from sessions_app.errors import invalid
from sessions_app.events import EventType
from sessions_app.models import (
    SESSION_SUMMARY_MAX,
    AskMessage,
    AskSession,
    UserProfile,
    Workline,
    profile_zone,
)

PATTERNS_KEPT = 20
# The plain record of a session whose summarizer failed.
ANSWERED = ngettext_lazy("{count} question answered.", "{count} questions answered.", "count")
ANSWERED_TOPIC = ngettext_lazy(
    "{count} question answered; the topic: «{topic}».",
    "{count} questions answered; the topic: «{topic}».",
    "count",
)


def session_end(*, session: AskSession) -> TurnResult:
    """End (the button, or accepting the completion card): stages 1 and 2, then the last-thing
    card. Safe to call again if a crash left the closing half done."""
    locked = _closing_begin(session.pk)
    facts, pairs, profile = _closing_inputs(locked)
    summary = calls.summarizer_ask(locked, profile=profile, facts=facts, pairs=pairs)
    line = calls.narrator_ask(locked, facts={**facts, "closing": True, "questions": []})
    return _closing_deliver(locked.pk, summary, line, facts)


@transaction.atomic
def _closing_begin(session_id: Any) -> AskSession:
    locked = session_locked(session_id)
    require_active(locked)
    counselor_speaking_refuse(locked)  # the summary and the closing line are agents' work
    card = current_card(locked)
    if card and card["kind"] in (LAST_THING, SCHEDULER) and locked.phase == "closing":
        raise invalid("The session is already closing.", session="closing")
    if locked.phase == AskSession.Phase.CLOSING:
        return locked  # a closing cut short: deliver it again
    turn = Turn(locked)
    if locked.current_intent_code == SCHEDULER_FLOW:
        scheduler_resume(turn)
    flow = flow_get(locked.current_intent_code)
    if "closing" in flow.steps and locked.current_step_code != "closing":
        # The client's End is theirs to give: never blocked by a guard, but what was still
        # pending is on record.
        turn.event(
            EventType.TRANSITION_APPLIED,
            "client",
            intent=locked.current_intent_code,
            from_step=locked.current_step_code,
            to_step="closing",
            source="client",
            forced=True,
            pending_guard=pending_guard(flow, locked.current_step_code, locked.slots),
        )
        turn.set(current_step_code="closing")
    turn.set(phase=AskSession.Phase.CLOSING, ready_to_close=False)
    turn.event(EventType.SESSION_ENDING, "client", turn_count=locked.turn_count)
    turn.save()
    return locked


def _dialogue(session: AskSession) -> tuple[list[dict[str, str]], list[str], str]:
    """Every answered card of every workline, the insights shown, the last mood."""
    messages = session_messages(session)
    pairs: list[dict[str, str]] = []
    for workline in Workline.objects.filter(session=session).order_by("created_at", "id"):
        pairs += answered_pairs(workline_path(workline, messages=messages))
    ordered = sorted(messages.values(), key=lambda m: m.pk)
    insights = [m.text for m in ordered if m.kind == AskMessage.Kind.INSIGHT]
    moods = [m.payload.get("mood_delta") for m in ordered if m.kind == AskMessage.Kind.ANALYSIS]
    return pairs, insights, next((m for m in reversed(moods) if m), "stable")


def _closing_inputs(session: AskSession) -> tuple[dict[str, Any], list[dict[str, str]], str]:
    pairs, insights, _last_mood = _dialogue(session)
    profile = profile_of(session)
    when = next_session_date(profile)
    answers = [pair["answer"] for pair in pairs]
    # The whole session's trend, read as the summary reads it: the closing line says "lighter"
    # only when the client's words did get lighter.
    mood = detectors.session_mood(answers, session.locale)
    # A session that escalated was a crisis, whatever the words' trend: never "even".
    escalated = session.intervention_triggered
    facts = {
        "locale": session.locale,
        "cbt_focus": session.cbt_focus or session.slots.get("cbt_focus") or "",
        "insights": insights,
        "turn_count": session.turn_count,
        "mood_delta": "declining" if escalated else mood,
        "crisis": escalated,
        "topic": _shown_topic(session),
        "fatigue": any(detectors.detect_fatigue(a, session.locale) for a in answers[-2:]),
        "next_session_date": when.isoformat() if when else None,
        "today": timezone.now().astimezone(profile_zone(profile)).date().isoformat(),
        "gender": identify.russian_gender(answers),
    }
    return facts, pairs, prompts.profile_block(profile, last_sessions(session))


def _shown_topic(session: AskSession) -> str:
    """The topic the closing line names: never words the safety net marks."""
    topic = session.slots.get("topic") or ""
    return "" if marked(topic, session.locale) else topic


@transaction.atomic
def _closing_deliver(
    session_id: Any, summary: calls.AgentReply, line: calls.AgentReply, facts: dict[str, Any]
) -> TurnResult:
    locked = session_locked(session_id)
    card = current_card(locked)
    if locked.status != AskSession.Status.ACTIVE or locked.phase != AskSession.Phase.CLOSING:
        return TurnResult(locked, card, failure="superseded")
    if card and card["kind"] in (LAST_THING, SCHEDULER):
        return TurnResult(locked, card)  # delivered by a concurrent End
    turn = Turn(locked)
    _record(turn, summary, facts)
    homework.tasks_propose_in(turn, (summary.output or {}).get("tasks"), facts)
    closing = _closing_line(line, facts, locked.locale)
    turn.append(
        Draft(
            AskMessage.Role.NARRATOR,
            AskMessage.Kind.CLOSING,
            closing,
            {"next_session_date": facts["next_session_date"], "engine": line.provider or "engine"},
        )
    )
    turn.event(EventType.CLOSING_DELIVERED, next_session_date=facts["next_session_date"])
    turn.open_batch(
        [new_card(texts.text("last_thing", locked.locale), LAST_THING)], engine="engine"
    )
    turn.save()
    return TurnResult(locked, current_card(locked), failure=summary.failure or line.failure)


def _record(turn: Turn, summary: calls.AgentReply, facts: dict[str, Any]) -> None:
    """Stage 1: the session's record and the profile. A summarizer that failed leaves a plain
    factual record instead; the session still closes."""
    session = turn.session
    topic = _shown_topic(session)
    output = summary.output or {
        "summary": texts.plural(ANSWERED_TOPIC, session.turn_count, session.locale, topic=topic)
        if topic
        else texts.plural(ANSWERED, session.turn_count, session.locale),
        "key_insights": [i[:200] for i in dict.fromkeys(facts["insights"])][:3],
        "cbt_techniques_used": [],
    }
    # The client reads both: nothing the safety net marks, nothing said about "the user".
    locale = session.locale
    insights = [shown_note(client_text(str(i)), locale)[:200] for i in output["key_insights"]]
    insights = list(dict.fromkeys(i for i in insights if i))[:5]
    summary_text = shown_summary(client_text(output["summary"]), session.locale)
    turn.set(
        session_summary=summary_text[:SESSION_SUMMARY_MAX],
        key_insights=[i for i in insights if i],
        cbt_techniques_used=[str(t)[:80] for t in output["cbt_techniques_used"]][:8],
    )
    _profile_update(session, insights)
    turn.event(
        EventType.SESSION_SUMMARIZED,
        provider=summary.provider,
        failure=summary.failure,
        insights=len(insights),
    )


def _profile_update(session: AskSession, insights: list[str]) -> None:
    profile = profile_of(session)
    if profile.pk is None:
        profile.save()
    learned = [{"session_id": str(session.pk), "text": insight} for insight in insights]
    patterns = [
        p for p in profile.observed_patterns or [] if UserProfile.entry_text(p) not in insights
    ]
    UserProfile.objects.filter(pk=profile.pk).update(
        session_count=F("session_count") + 1,
        missed_in_row=0,
        observed_patterns=[*patterns, *learned][-PATTERNS_KEPT:],
        updated_at=timezone.now(),
    )


def _closing_line(line: calls.AgentReply, facts: dict[str, Any], locale: str) -> str:
    """Stage 2: the Narrator's warm line — and the next session's day, always."""
    text = client_text((line.output or {}).get("closing_line")) if line.ok else ""
    when = facts["next_session_date"]
    if when:
        from datetime import date

        weekday = texts.weekday_name(date.fromisoformat(when).isoweekday(), locale)
        see_you = texts.text("see_you", locale, weekday=weekday)
    else:
        weekday, see_you = "", texts.text("see_you_later", locale)
    if not text:
        return texts.sentences(locale, texts.text("closing_fallback", locale), see_you)
    if weekday and weekday.lower() not in text.lower():
        return texts.sentences(locale, text, see_you)
    return text


def last_thing_submit(*, session: AskSession, text: Any = None, finish: bool = False) -> TurnResult:
    """Stage 3: Finish closes; words become a note with a short reply and close, unless they
    ask to move the next session (the scheduler) or carry a crisis (which keeps it open)."""
    if finish and text is None:
        return _finish(session.pk)
    if finish:
        raise invalid("Send either text or finish.", finish="not with text")
    return _last_thing_store(session.pk, text_clean(text))


def _closing_card(locked: AskSession) -> dict[str, Any]:
    require_active(locked)
    card = current_card(locked)
    if locked.phase != AskSession.Phase.CLOSING or card is None:
        raise invalid("One last thing comes after the closing.", session="not closing")
    if card["kind"] not in (LAST_THING, SCHEDULER):
        raise invalid("One last thing comes after the closing.", session="not closing")
    return card


@transaction.atomic
def _finish(session_id: Any) -> TurnResult:
    locked = session_locked(session_id)
    _closing_card(locked)
    turn = Turn(locked)
    session_close_in(turn, ended_in="finish")
    turn.save()
    return TurnResult(locked, None)


@transaction.atomic
def _last_thing_store(session_id: Any, text: str) -> TurnResult:
    locked = session_locked(session_id)
    card = _closing_card(locked)
    turn = Turn(locked)
    kind = AskMessage.Kind.ANSWER if card["kind"] == SCHEDULER else AskMessage.Kind.NOTE
    [note] = turn.append(Draft(AskMessage.Role.CLIENT, kind, text, {"card_id": card["id"]}))
    turn.event(EventType.LAST_THING_RECEIVED, "client", message_id=note.pk, chars=len(text))
    client_words(turn, text, note, card)
    if escalated(turn) and note.kind == AskMessage.Kind.NOTE:
        # Crisis words are the crisis, not a note for the session's record.
        AskMessage.objects.filter(pk=note.pk).update(kind=AskMessage.Kind.TEXT)
        note.kind = AskMessage.Kind.TEXT
    # Nothing else took the words (no crisis card, no scheduler): a note, a reply, closed.
    if locked.is_active and locked.active_workline.head_id == note.pk:
        reply = texts.text("note_reply", locked.locale, see_you=_see_you(locked))
        turn.append(Draft(AskMessage.Role.NARRATOR, AskMessage.Kind.REPLY, reply))
        session_close_in(turn, ended_in="last_thing")
    turn.save()
    return TurnResult(locked, current_card(locked) if locked.is_active else None)


def _see_you(session: AskSession) -> str:
    when = next_session_date(profile_of(session))
    if when is None:
        return texts.text("see_you_later", session.locale)
    weekday = texts.weekday_name(when.isoweekday(), session.locale)
    return texts.text("see_you", session.locale, weekday=weekday)


def summary_partial_ask(
    *, session: AskSession, facts: dict[str, Any], pairs: list[dict[str, str]]
) -> calls.AgentReply:
    """The summarizer over a session that never reached its closing (the abandoned-session job):
    the client's profile with no earlier sessions, and the facts and pairs the caller read."""
    profile = prompts.profile_block(profile_of(session), [])
    return calls.summarizer_ask(session, profile=profile, facts=facts, pairs=pairs)
