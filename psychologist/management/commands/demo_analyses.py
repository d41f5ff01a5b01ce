"""`manage.py demo_analyses`: the psychologist's side of the demo (`manage.py demo` runs it).

For the demo's sessions it records what the product would have by now: the metered LLM calls of
each conversation, and analyses with hypotheses — some still proposed, some accepted, some
dismissed, each citing events of its session — plus one run that failed, with its reason. The
calls are metered as if an Anthropic model had served them (the demo's conversations are
scripted), so the cost chart has something real-looking to draw.

Idempotent: a session that already has an analysis, a failed request or LLM calls is skipped.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from psychologist.evidence import HypothesisDraft
from psychologist.models import (
    Analysis,
    AnalysisRequest,
    Hypothesis,
    LLMCall,
)
from psychologist.services import analysis_hypotheses_store, hypothesis_accept, hypothesis_dismiss
from sessions_app.events import EventType, event_append
from sessions_app.management.commands import _demo_data as demo
from sessions_app.models import AskSession, SessionEvent

# Evidence is named by kind and order: ("answer", 1) is the session's first answer.
EVIDENCE_TYPES = {
    "answer": EventType.ANSWER_RECEIVED,
    "card": EventType.CARD_DEALT,
    "mood": EventType.ANALYST_RESPONDED,
    "handoff": EventType.HANDOFF_CREATED,
    "risk": EventType.RISK_ESCALATED,
    "closed": EventType.SESSION_CLOSED,
    "abandoned": EventType.SESSION_CLOSED_ABNORMALLY,
}

# session name → hypotheses: (target, confidence, statement, evidence, decision, termination).
# decision: "" (proposed), or (status, counselor username).
HYPOTHESES: dict[str, list[tuple[Any, ...]]] = {
    "alice-follow-up": [
        (
            "client",
            78,
            "Alice's energy follows small planned actions; rain breaks the plan.",
            [("answer", 1), ("answer", 2)],
            ("accepted", "counselor"),
            "",
        ),
        (
            "narrator",
            55,
            "The closing proposed a rainy-day option without asking Alice for one.",
            [("card", 2), ("closed", 1)],
            "",
            "",
        ),
    ],
    "alice-general": [
        (
            "client",
            70,
            "Frustration at work shows up in Alice's body (shoulders) before she names it.",
            [("answer", 1), ("answer", 2)],
            "",
            "",
        ),
        (
            "flow",
            45,
            "The flow closed after two answers; the reply she chose was never explored.",
            [("closed", 1)],
            ("dismissed", "counselor"),
            "",
        ),
    ],
    "alice-h14": [
        (
            "flow",
            62,
            "Alice left at the first question on a late weekday evening.",
            [("card", 1), ("abandoned", 1)],
            "",
            "Abandoned after the first card: the check-in came at 22:00 after a long day; "
            "an earlier slot or a lighter opener may keep her.",
        ),
    ],
    "mei-h16": [
        (
            "client",
            74,
            "Mei ties her worth to exam ranks ('let everyone down').",
            [("answer", 2)],
            ("accepted", "counselor"),
            "",
        ),
        (
            "analyst",
            48,
            "The Analyst reported a declining mood but proposed no grounding card.",
            [("mood", 1), ("card", 2)],
            "",
            "",
        ),
    ],
    "mei-h6": [
        (
            "client",
            66,
            "Balanced alternative thoughts come more easily to Mei now.",
            [("answer", 2), ("mood", 2)],
            "",
            "",
        ),
    ],
    "noor-h24": [
        (
            "client",
            72,
            "Noor says yes to avoid conflict; a script for saying no lowers the fear.",
            [("answer", 1), ("answer", 2)],
            ("accepted", "counselor"),
            "",
        ),
    ],
    "noor-h1": [
        (
            "client",
            84,
            "Conflicts at home precede Noor's sudden hopelessness.",
            [("answer", 1), ("handoff", 1)],
            "",
            "",
        ),
        (
            "narrator",
            41,
            "The Narrator asked about safety only after two general questions.",
            [("card", 1), ("card", 2)],
            ("dismissed", "counselor"),
            "",
        ),
    ],
    "dmitri-cbt": [
        (
            "client",
            82,
            "Dmitri catastrophises big changes; one concrete first step calms him.",
            [("answer", 1), ("answer", 2)],
            ("accepted", "counselor2"),
            "",
        ),
        (
            "analyst",
            50,
            "The Analyst did not name the catastrophising as a theme.",
            [("mood", 1)],
            "",
            "",
        ),
    ],
    "dmitri-crisis": [
        (
            "client",
            88,
            "Night hours carry Dmitri's highest risk; his safety plan must cover them.",
            [("answer", 1), ("handoff", 1)],
            "",
            "",
        ),
        (
            "narrator",
            40,
            "Crisis resources came before Dmitri had said whether he was safe.",
            [("card", 1)],
            ("dismissed", "counselor2"),
            "",
        ),
    ],
    "sam-follow-up": [
        (
            "client",
            75,
            "Reconnecting with one friend (Jo) is Sam's strongest protective factor.",
            [("answer", 1)],
            "",
            "",
        ),
    ],
}
# One run that ended without an analysis, as the budget would end it.
FAILED = {"dmitri-h8": ("budget_exceeded", "the light tier's budget of 50000 micro-USD ran out")}

# Metered as the Anthropic bindings would bill them (micro-USD per call, tokens in and out).
CALL_COSTS = {
    "analyst": (2_100, 1_900, 260),
    "narrator": (1_300, 1_100, 180),
    "summarizer": (1_800, 2_400, 220),
    "psychologist-light": (4_600, 5_200, 700),
}
MODELS = {
    "analyst": "claude-sonnet-4-5",
    "narrator": "claude-haiku-4-5",
    "summarizer": "claude-haiku-4-5",
    "psychologist-light": "claude-haiku-4-5",
}


class Command(BaseCommand):
    help = "Record the demo's analyses, hypotheses and metered LLM calls (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = load()
        self.stdout.write(f"Demo analyses: {created} new.")


@transaction.atomic
def load() -> int:
    sessions = {
        s.dify_conversation_id: s
        for s in AskSession.objects.filter(user__username__in=list(demo.CLIENTS))
    }
    counselors = {
        u.username: u
        for u in get_user_model().objects.filter(
            username__in=[c["username"] for c in demo.COUNSELORS]
        )
    }
    created = 0
    for spec in demo.STORY_SESSIONS:
        session = sessions.get(demo.demo_uuid(spec["name"]))
        if session is None or session.is_deleted:
            continue
        if not LLMCall.objects.filter(session=session).exists():
            _calls(session)
        name = spec["name"]
        if name in HYPOTHESES and not session.analyses.exists():
            _analysis(session, HYPOTHESES[name], counselors)
            created += 1
        if name in FAILED and not session.analysis_requests.exists():
            _failed(session, *FAILED[name])
    return created


def _at(session: AskSession) -> datetime:
    return session.ended_at or session.last_activity_at


def _calls(session: AskSession) -> None:
    answers = session.events.filter(type=EventType.ANSWER_RECEIVED).count()
    agents = ["analyst", "narrator"] * answers
    if session.status != AskSession.Status.ACTIVE:
        agents.append("summarizer")
    step = timedelta(seconds=(session.duration_seconds or 60) / max(len(agents), 1))
    for index, agent in enumerate(agents):
        _call(session, agent, session.created_at + step * index)


def _call(session: AskSession, agent: str, at: datetime) -> None:
    cost, tokens_in, tokens_out = CALL_COSTS[agent]
    call = LLMCall.objects.create(
        agent=agent,
        provider="anthropic",
        model=MODELS[agent],
        session=session,
        input_tokens=tokens_in,
        output_tokens=tokens_out,
        cost_micro_usd=cost,
        latency_ms=900,
    )
    # `created_at` is auto_now_add: a queryset update is the one way to date it in the story.
    LLMCall.objects.filter(pk=call.pk).update(created_at=at)


def _evidence(session: AskSession, refs: list[tuple[str, int]]) -> list[SessionEvent]:
    found = []
    for kind, number in refs:
        events = list(session.events.filter(type=EVIDENCE_TYPES[kind]).order_by("seq"))
        if len(events) >= number:
            found.append(events[number - 1])
    return found


def _analysis(session: AskSession, specs: list[tuple[Any, ...]], counselors: dict) -> None:
    at = _at(session) + timedelta(minutes=2)
    request = AnalysisRequest.objects.create(
        session=session, status=AnalysisRequest.Status.DONE, attempts=1
    )
    cost, tokens_in, tokens_out = CALL_COSTS["psychologist-light"]
    analysis = Analysis.objects.create(
        session=session,
        request=request,
        tier="light",
        agent="psychologist-light",
        provider="anthropic",
        model=MODELS["psychologist-light"],
        triggered_by="auto",
        termination_cause="abandoned_timeout" if session.termination_reason else "graceful",
        iterations=2 if len(specs) > 1 else 1,
        input_tokens=tokens_in * 2,
        output_tokens=tokens_out,
        cost_micro_usd=cost * 2,
    )
    for stamp in (request, analysis):
        type(stamp).objects.filter(pk=stamp.pk).update(created_at=at)
    _call(session, "psychologist-light", at)
    _call(session, "psychologist-light", at)
    drafts = tuple(
        HypothesisDraft(
            target=target,
            statement=statement,
            confidence=confidence,
            evidence=tuple(event.pk for event in _evidence(session, refs)),
            termination_analysis=ending,
        )
        for target, confidence, statement, refs, _decision, ending in specs
    )
    hypotheses = analysis_hypotheses_store(request=request, analysis=analysis, drafts=drafts)
    Hypothesis.objects.filter(pk__in=[h.pk for h in hypotheses]).update(created_at=at)
    # Decided later, the way a counselor decides: the service, its event, the anamnesis.
    for hypothesis, spec in zip(hypotheses, specs, strict=True):
        if not spec[4]:
            continue
        status, username = spec[4]
        decide = hypothesis_accept if status == "accepted" else hypothesis_dismiss
        decide(hypothesis=hypothesis, by=counselors[username])


def _failed(session: AskSession, code: str, detail: str) -> None:
    request = AnalysisRequest.objects.create(
        session=session,
        status=AnalysisRequest.Status.FAILED,
        attempts=1,
        last_error=f"{code}: {detail}"[:200],
    )
    event_append(
        session=session,
        type=EventType.PSYCHOLOGIST_ANALYSIS_FAILED,
        actor="psychologist",
        payload={"request": request.pk, "attempt": 1, "reason": code, "detail": detail},
    )
