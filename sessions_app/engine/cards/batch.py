"""A completed batch: recap → Analyst → flow validation → Narrator → new cards (SPEC §3), and the
pacing rules that decide when to offer closing (session design §8).

`batch_run` is the batch's unit of work (`turn/pending.py` runs it off the request). It reads
what the agents need, calls them with no transaction open, then persists everything in one new
transaction that also clears the batch's record (`AskSession.batch_pending`) — unless another
run dealt it, or the session moved on meanwhile (another tap, End), in which case the late
reply is dropped (its cost is metered all the same).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy

from sessions_app import texts
from sessions_app.engine.agents import calls, prompts
from sessions_app.engine.agents.hygiene import client_text
from sessions_app.engine.cards.dealer import (
    CLOSING_RESERVE,
    COMPLETION,
    FALLBACK,
    OPEN,
    QUESTION,
    Draft,
    Turn,
    TurnResult,
    answered_pairs,
    batch_messages,
    current_card,
    head_of,
    message_limit,
    new_card,
    profile_of,
    session_locked,
)
from sessions_app.engine.counselor import analyst_context
from sessions_app.engine.crisis import escalation
from sessions_app.engine.flows.validator import (
    CRISIS_FLOW,
    SESSION_FLOW,
    FlowDef,
    Move,
    flow_get,
    pending_guard,
    session_move_validate,
)
from sessions_app.engine.graph.tree import QUESTIONS, Materialized, asked_in, materialize
from sessions_app.engine.language import identify
from sessions_app.engine.turn.opening import last_sessions
from sessions_app.events import EventType
from sessions_app.models import AskMessage, AskSession

TIRED = gettext_lazy("The client is tired and wants to stop.")
MAY_COMPLETE_AFTER = 4
HARD_LIMIT = 8
# The failure of a batch whose every run died (`BATCH_MAX_ATTEMPTS`).
ABANDONED = "batch_abandoned"
ASKED_KEPT = 30
# Questions asked in the client's last three sessions are not asked again.
EARLIER_SESSIONS = 3
PHASE_OF_STEP = {
    "intro": AskSession.Phase.INTRO,
    "topic": AskSession.Phase.INTRO,
    "dialogue": AskSession.Phase.DIALOGUE,
    "insight": AskSession.Phase.INSIGHT,
}


@dataclass(frozen=True)
class Pending:
    """A batch the client has just completed, waiting for the Analyst."""

    answer_id: int
    since_id: int
    fatigue: bool = False
    meta: bool = False
    # A counselor handed the conversation back: the batch is the human part, from the
    # counselor's joining marker to its leaving marker.
    human: bool = False


@dataclass
class Inputs:
    flow: FlowDef
    pairs: list[dict[str, str]]
    asked: list[str]
    facts: dict[str, Any]
    context: dict[str, Any]
    profile: str
    # The step shows the agent's reply as written (a booking flow), not the Narrator's cards.
    as_written: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def _inputs(session: AskSession, pending: Pending, branch: Materialized) -> Inputs:
    chain = batch_messages(session, pending.since_id)
    pairs = analyst_context.human_recap(chain) if pending.human else answered_pairs(chain)
    first = chain[0] if chain else None
    asked = list(first.payload.get("asked") or []) if first and first.kind == "analysis" else []
    # Every question on the path root → head, whichever batch asked it: none is asked twice
    # (a branch is its own conversation: what an abandoned branch asked does not count).
    asked = list(dict.fromkeys([*branch.asked, *asked]))
    flow = flow_get(session.current_intent_code)
    step = flow.step(session.current_step_code)
    guard = pending_guard(flow, session.current_step_code, session.slots)
    focus = session.cbt_focus or session.slots.get("cbt_focus") or ""
    facts = {
        "turn_count": session.turn_count,
        "phase": session.phase,
        "locale": session.locale,
        "cbt_focus": focus,
        "flow": {
            "intent": session.current_intent_code,
            "step": session.current_step_code,
            "allowed_next": list(step.allowed_next) if step else [],
            "prompt_fragment": step.prompt_fragment if step else "",
            "slots": session.slots,
            "pending_guard": guard,
            "reply_as_written": bool(step and step.reply_as_written),
        },
        "client_seems_tired": pending.fatigue,
        "client_asks_about_the_system": pending.meta,
        **analyst_context.guidance_facts(session, handed_back=pending.human),
    }
    context = {
        "locale": session.locale,
        "cbt_focus": focus,
        "phase": session.phase,
        "turn_count": session.turn_count,
        "recap": pairs,
        "last_client_text": pairs[-1]["answer"] if pairs else "",
        "asked_questions": asked,
        "earlier_questions": earlier_questions(session),
        "flow_step": session.current_step_code,
        "allowed_next": list(step.allowed_next) if step else [],
        "slots": session.slots,
        # The offline Analyst reads a topic from the counselors' notes (and nothing else).
        "counselor_guidance": facts.get("counselor_guidance") or [],
    }
    profile = prompts.profile_block(profile_of(session), last_sessions(session))
    as_written = bool(step and step.reply_as_written)
    return Inputs(flow, pairs, asked, facts, context, profile, as_written=as_written)


def earlier_questions(session: AskSession) -> list[str]:
    """The questions the Analyst asked in the client's last EARLIER_SESSIONS other sessions:
    a client should not meet last week's question again
    (docs/decisions/0003-an-offline-engine-that-listens.md). One query."""
    earlier = (
        AskSession.objects.filter(user_id=session.user_id, is_deleted=False)
        .exclude(pk=session.pk)
        .order_by("-created_at")
        .values("pk")[:EARLIER_SESSIONS]
    )
    questions = (
        AskMessage.objects.filter(session_id__in=earlier, kind=AskMessage.Kind.ANALYSIS)
        .order_by("created_at", "id")
        .values_list(QUESTIONS, flat=True)
    )
    return asked_in(questions)


def batch_run(session: AskSession, pending: Pending) -> TurnResult:
    branch = materialize(session)
    inputs = _inputs(session, pending, branch)
    # Russian cards agree with the client ("ты застряла"): its gender from its own words.
    gender = identify.russian_gender(m["content"] for m in branch.messages if m["role"] == "user")
    inputs.context["gender"] = gender
    analyst = calls.analyst_ask(
        session,
        profile=inputs.profile,
        facts=inputs.facts,
        pairs=inputs.pairs,
        context=inputs.context,
        branch=branch,
    )
    output = _enforced(analyst.output, pending, session.locale) if analyst.ok else None
    # An agent that wrote no reply (the offline engine asks in the third person) still gets
    # its questions rephrased, whatever the step says.
    inputs.as_written = inputs.as_written and bool(output and output.get("reply"))
    narration = None
    wanted = output and (output["questions"] or output.get("suggested_insight"))
    if wanted and not inputs.as_written:
        facts = {
            "locale": session.locale,
            "questions": output["questions"],
            "insight": output.get("suggested_insight"),
            "closing": False,
            "mood_delta": output["mood_delta"],
            "fatigue": pending.fatigue,
            "turn_count": session.turn_count,
            "gender": gender,
        }
        narration = calls.narrator_ask(session, facts=facts, branch=branch)
    return _batch_persist(session.pk, pending, inputs, analyst, output, narration)


def _enforced(
    output: dict[str, Any] | None, pending: Pending, locale: str
) -> dict[str, Any] | None:
    """The engine's own reading of the client, over the model's (SPEC §3 fatigue): a client who
    wants to stop gets no next question, whatever the model proposed."""
    if output is None or not pending.fatigue:
        return output
    observation = output.get("observation") or ""
    if not any(word in observation.lower() for word in ("tired", "устал", "累")):
        tired = texts.say(TIRED, locale)
        observation = texts.sentences(locale, observation, tired)
    stop = {"questions": [], "reply": None, "session_complete": True}
    return {**output, **stop, "observation": observation}


@transaction.atomic
def _batch_persist(
    session_id: Any,
    pending: Pending,
    inputs: Inputs,
    analyst: calls.AgentReply,
    output: dict[str, Any] | None,
    narration: calls.AgentReply | None,
) -> TurnResult:
    locked = session_locked(session_id)
    turn = _dealing(locked, pending)
    if turn is None:
        return TurnResult(locked, current_card(locked), failure="superseded")
    if output is None:
        _failed(turn, analyst, pending)
    else:
        _applied(turn, pending, inputs, analyst, output, narration)
    turn.save()
    failure = analyst.failure or (narration.failure if narration else "")
    return TurnResult(locked, current_card(locked), failure=failure)


def _dealing(locked: AskSession, pending: Pending) -> Turn | None:
    """The turn that deals `pending`'s cards, under the session's lock, with the batch's record
    cleared in the same write — or None: the batch was dealt by another run (its record is
    gone), or the session moved on while the agents were thinking (another tap, End; a
    counselor who took over speaks now, and no card is dealt under a person), and the late
    reply is dropped."""
    recorded = (locked.batch_pending or {}).get("answer_id") == pending.answer_id
    if not recorded:
        return None
    turn = Turn(locked)
    turn.set(batch_pending=None, batch_claimed_until=None, batch_attempts=0)
    head = head_of(locked)
    moved_on = head is None or head.pk != pending.answer_id
    if locked.status != AskSession.Status.ACTIVE or moved_on or locked.counselor_speaking:
        turn.save()  # the record goes; nothing is dealt
        return None
    return turn


@transaction.atomic
def batch_abandon(session_id: Any, pending: Pending) -> TurnResult:
    """A batch whose every run died: the gentle fallback card, so the client can go on."""
    locked = session_locked(session_id)
    turn = _dealing(locked, pending)
    if turn is None:
        return TurnResult(locked, current_card(locked), failure="superseded")
    _failed(turn, calls.AgentReply(None, failure=ABANDONED), pending)
    turn.save()
    return TurnResult(locked, current_card(locked), failure=ABANDONED)


def _failed(turn: Turn, analyst: calls.AgentReply, pending: Pending) -> None:
    turn.event(EventType.ANALYST_FAILED, code=analyst.failure)
    if analyst.incomplete:
        escalation.risk_unassessed(turn, reason=analyst.failure, agent="analyst")
    card = new_card(texts.text("fallback", turn.session.locale), FALLBACK)
    cards = _checked_in(turn.session, pending, [card])
    turn.open_batch(cards, engine="engine", failure=analyst.failure)


def _checked_in(
    session: AskSession, pending: Pending, cards: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """After a counselor handed the conversation back, the AI's first card acknowledges the
    pause and checks in — a fixed text in the client's language, never a model's — and the
    batch's questions wait behind it."""
    if not pending.human:
        return cards
    return [new_card(texts.text("handback_check_in", session.locale), OPEN), *cards]


def _applied(
    turn: Turn,
    pending: Pending,
    inputs: Inputs,
    analyst: calls.AgentReply,
    output: dict[str, Any],
    narration: calls.AgentReply | None,
) -> None:
    session = turn.session
    analysis = _analysis_record(turn, inputs, analyst, output)
    if output["crisis_signal"] and session.current_intent_code != CRISIS_FLOW:
        escalation.crisis_escalate(turn, source="analyst")
        return
    if narration is not None and narration.incomplete:
        escalation.risk_unassessed(turn, reason=narration.failure, agent="narrator")
    _move(turn, inputs.flow, output)
    ready, reason = pacing_decide(session, output, pending)
    if inputs.as_written:
        cards = _reply_cards(turn, output)
    else:
        cards = _cards(turn, inputs.flow, output, pending, narration)
    if reason == "length":
        cards = []  # what room is left belongs to the closing
    if ready:
        turn.set(ready_to_close=True)
        turn.event(EventType.PACING_READY_TO_CLOSE, reason=reason, turn_count=session.turn_count)
        key = "completion_tired" if reason == "fatigue" else "completion"
        cards.append(new_card(texts.text(key, session.locale), COMPLETION))
    if not cards:
        cards = [new_card(texts.text("open", session.locale), OPEN)]
    cards = _checked_in(session, pending, cards)
    engine = narration.provider if narration and narration.ok else analyst.provider
    turn.open_batch(cards, engine=engine or "engine", analysis=analysis.pk)


def _analysis_record(
    turn: Turn, inputs: Inputs, analyst: calls.AgentReply, output: dict[str, Any]
) -> AskMessage:
    """The Analyst's raw output, kept beside the cards (the sandbox shows both); its mood."""
    asked = [*inputs.asked, *output["questions"]][-ASKED_KEPT:]
    payload = {"output": output, "recap": inputs.pairs, "asked": asked}
    payload |= {"provider": analyst.provider, "mood_delta": output["mood_delta"]}
    text = output.get("observation") or ""
    [analysis] = turn.append(
        Draft(AskMessage.Role.ANALYST, AskMessage.Kind.ANALYSIS, text, payload)
    )
    turn.event(
        EventType.ANALYST_RESPONDED,
        message_id=analysis.pk,
        provider=analyst.provider,
        mood_delta=output["mood_delta"],
        session_complete=output["session_complete"],
        crisis_signal=output["crisis_signal"],
        questions=len(output["questions"]),
        turn_count=turn.session.turn_count,
    )
    return analysis


def _move(turn: Turn, flow: FlowDef, output: dict[str, Any]) -> None:
    session = turn.session
    move = Move(state_after=output.get("state_after"), slots_updated=output.get("slots_updated"))
    outcome = session_move_validate(session, move, flow=flow)
    turn.set(current_step_code=outcome.step, slots=outcome.slots)
    if session.current_intent_code == SESSION_FLOW and outcome.step in PHASE_OF_STEP:
        turn.set(phase=PHASE_OF_STEP[outcome.step])
    turn.events.append(outcome.event())


def pacing_decide(
    session: AskSession, output: dict[str, Any], pending: Pending
) -> tuple[bool, str]:
    """Offer closing? The model's signal counts after 4 turns; at 8 the engine offers it
    whatever the model said; fatigue at any time. A crisis conversation is never paced out."""
    if session.current_intent_code == CRISIS_FLOW:
        return False, ""
    turns = session.turn_count
    if pending.fatigue or session.slots.get("fatigue") is True:
        return True, "fatigue"
    if turns >= HARD_LIMIT:
        return True, "hard_limit"
    if output["session_complete"] and turns >= MAY_COMPLETE_AFTER:
        return True, "analyst"
    if session.message_count + CLOSING_RESERVE >= message_limit():
        return True, "length"
    return False, ""


def _cards(
    turn: Turn,
    flow: FlowDef,
    output: dict[str, Any],
    pending: Pending,
    narration: calls.AgentReply | None,
) -> list[dict[str, Any]]:
    session = turn.session
    cards = _guard_cards(flow, session)
    if narration is not None and narration.ok:
        insight = client_text(narration.output.get("insight"))
        if insight:
            turn.append(Draft(AskMessage.Role.NARRATOR, AskMessage.Kind.INSIGHT, insight))
        for card in narration.output.get("cards") or []:
            shown = client_text(card.get("text"))
            if shown:
                cards.append(new_card(shown, QUESTION))
    elif output["questions"]:
        cards.append(new_card(texts.text("fallback", session.locale), FALLBACK))
    if pending.meta and not cards:
        cards.append(new_card(texts.text("refocus", session.locale), QUESTION))
    return cards


def _reply_cards(turn: Turn, output: dict[str, Any]) -> list[dict[str, Any]]:
    """A step that shows the agent's reply as written: one card with the reply, through the
    output filter like every agent text. The agent asks for what a guard misses in its own
    words, so no engine card is added."""
    insight = client_text(output.get("suggested_insight"))
    if insight:
        turn.append(Draft(AskMessage.Role.ANALYST, AskMessage.Kind.INSIGHT, insight))
    shown = client_text(output.get("reply"))
    return [new_card(shown, QUESTION)] if shown else []


def _guard_cards(flow: FlowDef, session: AskSession) -> list[dict[str, Any]]:
    """A guard waiting on a slot the client can give: ask for it, first in the batch."""
    guard = pending_guard(flow, session.current_step_code, session.slots)
    askable = [s for s in (guard or {}).get("missing_slots", []) if s in texts.ASKABLE_SLOTS]
    if not askable:
        return []
    return [new_card(texts.text(askable[0], session.locale), QUESTION, slot=askable[0])]
