"""What a client needs to render or resume a session (SPEC §9 `GET …/state`), derived from the
persisted graph alone: the head of the active workline is the resume point, so leaving at any
moment and coming back returns exactly the card that was showing.

`thread_state` is the flow's side (intent, step, slots, pending guard) for the sandbox, the
scenario runner and tests; clients never see it.
"""

from __future__ import annotations

from typing import Any

from psychologist.llm.registry import binding_for_agent
from sessions_app import texts
from sessions_app.engine.cards.dealer import TurnResult, answered_pairs, current_card, undealt_card
from sessions_app.engine.crisis.escalation import resources_text, session_resources
from sessions_app.engine.flows.validator import CRISIS_FLOW, flow_get, pending_guard
from sessions_app.engine.graph.tree import StateNode, path_nodes, workline_path
from sessions_app.engine.homework import closing_homework
from sessions_app.models import AskMessage, AskSession

CARD_FIELDS = ("id", "text", "type", "kind")
CLIENT_KINDS = {
    AskMessage.Kind.ANSWER,
    AskMessage.Kind.TOPIC,
    AskMessage.Kind.TEXT,
    AskMessage.Kind.NOTE,
}
NOTICE_KINDS = {
    AskMessage.Kind.INTRO: "intro",
    AskMessage.Kind.HOOK: "intro",
    AskMessage.Kind.INSIGHT: "insight",
    AskMessage.Kind.CLOSING: "closing",
    AskMessage.Kind.REPLY: "reply",
}


def session_state(session: AskSession) -> dict[str, Any]:
    """{phase, status, turn_count, ready_to_close, current_card, pending, answered, workline,
    notice, homework, engine, counselor, counselor_messages} — the same document after every turn
    endpoint."""
    session = AskSession.objects.select_related(
        "active_workline__head", "handoff_counselor__profile"
    ).get(pk=session.pk)
    return _document(session)


def turn_state(result: TurnResult) -> dict[str, Any]:
    """The state document after a turn, from the rows the turn already holds: its locked
    session, as committed, with the active workline and its new head. Nothing is read again but
    the path (one query), so the HTTP answer costs what the engine costs (QUALITY P1)."""
    return _document(result.session)


def _document(session: AskSession) -> dict[str, Any]:
    workline = session.active_workline
    path = workline_path(workline, messages=path_nodes(workline, StateNode)) if workline else []
    card = pending = None
    # While a person speaks no card is current: the client writes to the counselor.
    if session.is_active and not session.counselor_speaking:
        pending = _pending(session)
        # A batch in the making has no card yet (and none undealt to look for).
        card = None if pending else current_card(session) or undealt_card(session)
    return {
        "phase": session.phase,
        "status": session.status,
        "turn_count": session.turn_count,
        "ready_to_close": session.ready_to_close,
        "current_card": {key: card[key] for key in CARD_FIELDS} if card else None,
        "pending": pending,
        "answered": answered_pairs(path),
        "workline": {"id": workline.pk, "name": workline.name} if workline else None,
        "notice": _notice(session, path),
        # The closing's homework offer, accepted or declined through the tasks API.
        "homework": closing_homework(session),
        "engine": _engine(path),
        "counselor": _counselor(session),
        "counselor_messages": [
            {"id": m.pk, "text": m.text, "createdAt": m.created_at}
            for m in path
            if m.role == AskMessage.Role.COUNSELOR and m.kind == AskMessage.Kind.TEXT
        ],
    }


def _pending(session: AskSession) -> dict[str, Any] | None:
    """The next batch is being made off the request: the client shows the character's brief
    animation until the cards arrive — the first event after `since`."""
    record = session.batch_pending
    if not record:
        return None
    head = session.active_workline.head_id if session.active_workline else None
    if head != record["answer_id"]:
        return None  # the session moved on (End, a message): the batch will be dropped
    return {"kind": "batch", "since": record["since"]}


def _counselor(session: AskSession) -> dict[str, Any] | None:
    """The person who joined the conversation, while they speak; None while the AI does."""
    if not session.counselor_speaking:
        return None
    person = session.handoff_counselor
    profile = getattr(person, "profile", None)
    name = (profile.display_name if profile else "") or person.get_short_name()
    return {
        "name": name or texts.text("counselor_default_name", session.locale),
        "since": session.counselor_speaking_since,
    }


def _notice(session: AskSession, path: list[StateNode]) -> dict[str, Any] | None:
    """What the agents said since the client last spoke; crisis resources whenever the session
    is in the crisis flow, so they never scroll out of sight."""
    if session.current_intent_code == CRISIS_FLOW:
        found = session_resources(session)
        items = [f"{r['name']}: {r['contact']}" for r in found]
        text = resources_text(session.locale, found)
        return {"kind": "crisis_resources", "text": text, "items": items}
    said: list[StateNode] = []
    for message in reversed(path):
        if message.role == AskMessage.Role.CLIENT and message.kind in CLIENT_KINDS:
            break
        if message.kind in NOTICE_KINDS:
            said.append(message)
    if not said:
        return None
    said.reverse()
    kind = NOTICE_KINDS[said[-1].kind]
    lines = [m.text for m in said if NOTICE_KINDS[m.kind] == kind]
    return {"kind": kind, "text": lines[0], "items": lines[1:]}


def _engine(path: list[StateNode]) -> str:
    """Which engine produced the dialogue: the provider of the latest agent output on the
    branch — "offline" for the offline engine, as SPEC §3 asks — else the current binding."""
    for message in reversed(path):
        if message.engine and message.engine != "engine":
            return message.engine
    return binding_for_agent("narrator").provider


def thread_state(session: AskSession) -> dict[str, Any]:
    """The flow's view (SPEC §4), with `pending_guard` derived now from the stored flow."""
    session = AskSession.objects.get(pk=session.pk)
    flow = flow_get(session.current_intent_code)
    return {
        "intent": session.current_intent_code,
        "step": session.current_step_code,
        "slots": dict(session.slots),
        "pending_guard": pending_guard(flow, session.current_step_code, session.slots),
        "suspended_intent": session.suspended_intent or None,
        "resumable_step_code": session.resumable_step_code or None,
        "resumable_slots": dict(session.resumable_slots),
        "handoff_count": session.handoff_count,
        "soft_insertion_count": session.soft_insertion_count,
    }
