"""State follows the branch (SPEC §5): after "continue from here" or a workline switch, the
session's phase, flow step and slots (the fatigue slot among them), ready-to-close and turn
count are those of the path root → the new head — nothing of the abandoned branch leaks.

Every message the turn loop writes carries, in its payload, the session's state as it stood
just before it was written (`state_before`, part of the INSERT: no extra query). The state at a
message M is therefore what its first child saw. A message the head leaves with no child (the
head a fork moves away from, a parked workline's head) has the state stamped on it then
(`state_left`). A message written by other paths without a snapshot falls back to its own
`state_before`, then up the path.

A new, empty workline starts unpaced (no rounds, no offer to close, no fatigue) where the flow
stands. A finished session is never changed. A crisis is never undone by a fork: while the
session is in the crisis flow its flow state stays, and only the pacing figures follow the
branch (SPEC §3: risk never silently goes down).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from sessions_app.models import AskMessage, AskSession

BEFORE = "state_before"
LEFT = "state_left"
# flows.CRISIS_FLOW; the flow module sits above the graph, which calls this one.
CRISIS_INTENT = "crisis"
FLOW_FIELDS = (
    "phase",
    "current_intent_code",
    "current_step_code",
    "slots",
    "suspended_intent",
    "resumable_step_code",
    "resumable_slots",
)
PACING_FIELDS = ("ready_to_close", "turn_count")
# Slots that pace a line of talk rather than describe the client (the Analyst's fatigue flag).
PACING_SLOTS = ("fatigue",)
FIELDS = FLOW_FIELDS + PACING_FIELDS


# Left out of a snapshot while they hold these values (most of the time): every message
# carries one, so it stays small.
QUIET = {"suspended_intent": "", "resumable_step_code": "", "resumable_slots": {}}


def state_snapshot(session: AskSession) -> dict[str, Any]:
    """The branch-dependent state of the session now (copies, never the live dicts)."""
    snapshot = {name: getattr(session, name) for name in FIELDS}
    snapshot["slots"] = dict(session.slots or {})
    snapshot["resumable_slots"] = dict(session.resumable_slots or {})
    return {k: v for k, v in snapshot.items() if not (k in QUIET and v in ("", None, {}))}


def _known_at(message: AskMessage, children: dict[int, list[AskMessage]]) -> dict | None:
    """The state when `message` was the head: stamped when the head left it, else what its
    first child saw."""
    payload = message.payload if isinstance(message.payload, dict) else {}
    if isinstance(payload.get(LEFT), dict):
        return payload[LEFT]
    for child in children.get(message.pk, []):
        before = child.payload.get(BEFORE) if isinstance(child.payload, dict) else None
        if isinstance(before, dict):
            return before
    return None


def state_at(head: AskMessage, messages: dict[int, AskMessage]) -> dict | None:
    """The state of the path root → `head`, or None when no message on it tells."""
    children: dict[int, list[AskMessage]] = {}
    for message in sorted(messages.values(), key=lambda m: m.pk):
        if message.parent_id is not None:
            children.setdefault(message.parent_id, []).append(message)
    node: AskMessage | None = head
    while node is not None:
        known = _known_at(node, children)
        if known is not None:
            return known
        before = node.payload.get(BEFORE) if isinstance(node.payload, dict) else None
        if isinstance(before, dict):
            return before
        node = messages.get(node.parent_id) if node.parent_id else None
    return None


def head_left(message_id: int | None, session: AskSession) -> None:
    """The head moves away from `message_id`: keep the state it leaves there, so that coming
    back to it (a fork, a switch) finds it."""
    if message_id is None:
        return
    message = AskMessage.objects.filter(pk=message_id).only("payload").first()
    if message is None:
        return
    payload = dict(message.payload or {}) | {LEFT: state_snapshot(session)}
    AskMessage.objects.filter(pk=message_id).update(payload=payload)


def state_follow(session: AskSession, head_id: int | None, *also: AskSession) -> None:
    """Make the session's state that of the path root → the head `head_id` (the row, and the
    objects given). A finished session's record stays as it was closed."""
    if session.status != AskSession.Status.ACTIVE:
        return
    if head_id is None:
        # A new, empty workline: nothing said on it yet, so nothing to pace — the flow's place
        # and the session's other slots go on.
        slots = {k: v for k, v in (session.slots or {}).items() if k not in PACING_SLOTS}
        values: dict[str, Any] = {"ready_to_close": False, "turn_count": 0, "slots": slots}
    else:
        messages = {m.pk: m for m in AskMessage.objects.filter(session=session)}
        known = state_at(messages[head_id], messages) if head_id in messages else None
        if known is None:
            return
        values = {name: known.get(name, QUIET.get(name)) for name in FIELDS}
        values = {name: value for name, value in values.items() if value is not None}
    if session.current_intent_code == CRISIS_INTENT:
        values = {name: value for name, value in values.items() if name in PACING_FIELDS}
        values["ready_to_close"] = False  # a crisis conversation is never paced out
    AskSession.objects.filter(pk=session.pk).update(**values, updated_at=timezone.now())
    for target in (session, *also):
        for name, value in values.items():
            setattr(target, name, value)
