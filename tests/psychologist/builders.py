"""Builders shared by the psychologist tests: LLM requests, and sessions with an event log."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.test import TestCase
from django.utils import timezone

from psychologist.llm.types import LLMRequest, Message
from psychologist.models import AnalysisRequest
from psychologist.schemas import EMIT_HYPOTHESES_TOOL, SEARCH_EVENTS_TOOL
from psychologist.services import analysis_request
from sessions_app.engine.selectors import TOOLS_BY_AGENT
from sessions_app.events import event_append
from sessions_app.models import AskSession
from tests import factories


def agent_request(agent: str, **context: Any) -> LLMRequest:
    """A request shaped the way the engine sends it: the agent's tool, forced."""
    tool = TOOLS_BY_AGENT[agent]
    return LLMRequest(
        agent=agent,
        system_blocks=[f"You are the {agent}.", "Rules: be brief.", "Profile: none yet."],
        messages=[Message(role="user", content="Here is the recap of the batch.")],
        tools=[tool],
        tool_choice=tool.name,
        max_tokens=512,
        context=context,
    )


def recap(*answers: str) -> list[dict[str, str]]:
    return [{"question": f"Question {i}?", "answer": a} for i, a in enumerate(answers, 1)]


# --- sessions with an event log, closed the way the engine closes them ---------------------

TIRED_ENDING = [
    "Work has been busy but I managed a walk on Sunday and it was good.",
    "I keep replaying the meeting with my manager, it makes me anxious.",
    "I felt worse on Monday, sad and stuck, I could not sleep.",
    "I'm tired. Can we stop? That's enough for today.",
]


def session_with_log(*, user: Any = None, answers: list[str], **fields: Any) -> AskSession:
    """An active session whose log holds a card and an answer per entry of `answers`, written
    through the one event writer, with the message ids the engine puts in the payloads."""
    session = factories.ActiveSessionFactory(**({"user": user} if user else {}), **fields)
    event_append(session=session, type="session.created", payload={}, actor="client")
    for number, answer in enumerate(answers, 1):
        card = factories.AskMessageFactory(
            session=session, role="narrator", kind="question_card", text=f"Question {number}?"
        )
        event_append(
            session=session, type="card.dealt", payload={"message_id": card.pk}, actor="engine"
        )
        reply = factories.AskMessageFactory(
            session=session, role="client", kind="answer", text=answer
        )
        event_append(
            session=session,
            type="answer.received",
            payload={"message_id": reply.pk},
            actor="client",
        )
    return session


def session_of_size(events: int, *, user: Any = None) -> AskSession:
    """A session whose closed log will hold exactly `events` events (an even number ≥ 2)."""
    answers = [f"Answer number {n}: the week was ordinary." for n in range((events - 2) // 2)]
    return session_with_log(user=user, answers=answers)


def session_close(session: AskSession, *, reason: str | None = None) -> AnalysisRequest:
    """Close the session as the engine does: status, reason and close event, and the analysis
    request in the same transaction."""
    abnormal = reason is not None
    status = AskSession.Status.CLOSED_ABNORMALLY if abnormal else AskSession.Status.COMPLETED
    if reason == AskSession.TerminationReason.ABANDONED_TIMEOUT:
        status = AskSession.Status.COMPLETED_PARTIAL
    with transaction.atomic():
        AskSession.objects.filter(pk=session.pk).update(
            status=status, termination_reason=reason, ended_at=timezone.now()
        )
        session.refresh_from_db()
        event_append(
            session=session,
            type="session.closed_abnormally" if abnormal else "session.closed",
            payload={"termination_reason": reason} if abnormal else {"status": status},
            actor="engine",
        )
        return analysis_request(session=session)


def session_analysed(*, user: Any, reason: str) -> AskSession:
    """A session of `TIRED_ENDING` closed by `reason`, its analysis run by the offline engine
    from the on-commit callback the close enqueued (run here, inside the test's transaction)."""
    session = session_with_log(user=user, answers=TIRED_ENDING)
    with TestCase.captureOnCommitCallbacks(execute=True):
        session_close(session, reason=reason)
    return session


def event_ids(session: AskSession) -> list[int]:
    return list(
        session.events.exclude(type__startswith="psychologist.")
        .order_by("seq")
        .values_list("pk", flat=True)
    )


def hypothesis_data(evidence: list[int], **overrides: Any) -> dict[str, Any]:
    return {
        "target": "client",
        "statement": "The client tires as the session goes on.",
        "confidence": 70,
        "evidence": evidence,
        **overrides,
    }


def emit_recording(*hypotheses: dict[str, Any]) -> dict[str, Any]:
    """A scripted reply that calls emit_hypotheses with this batch."""
    call = {"name": EMIT_HYPOTHESES_TOOL, "input": {"hypotheses": list(hypotheses)}}
    return {"tool_calls": [call], "usage": {"input_tokens": 100, "output_tokens": 20}}


def read_recording(query: str = "tired") -> dict[str, Any]:
    call = {"name": SEARCH_EVENTS_TOOL, "input": {"query": query}}
    return {"tool_calls": [call], "usage": {"input_tokens": 100, "output_tokens": 10}}
