"""The flow validator (SPEC §4): models propose, code decides.

A move is `state_after` + `slots_updated`, proposed by the Analyst (structured output, or a
trailing `STATE_JSON:` line of a plain-text model) or by the engine's own deterministic agents
(the scheduler). Validation order: merge `slots_updated` → `validate_transition` → `check_guards`.
A rejected move keeps the step; the reply that came with it is still shown. Flows are read from
the database on every turn, so an admin edit applies on the next turn without a restart.

Everything here is pure except `flow_get` (one query); the turn code persists the outcome.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from sessions_app.engine.cards.dealer import Turn
from sessions_app.engine.flows.files import BUILTIN_FLOWS, FLOWS_DIR, flow_files_load
from sessions_app.engine.language import detectors
from sessions_app.engine.safety import crisis_escalates
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.events import EventSpec, EventType
from sessions_app.models import (
    CONVERSATION_VARIABLE_KEY_MAX,
    CONVERSATION_VARIABLE_VALUE_MAX,
    FlowStep,
)

SESSION_FLOW = "reflection_session"
SCHEDULER_FLOW = "scheduler"
CRISIS_FLOW = "crisis"


@dataclass(frozen=True)
class GuardDef:
    code: str
    description: str
    trigger_slot: str
    trigger_value: Any
    required_slots: tuple[str, ...]


@dataclass(frozen=True)
class StepDef:
    code: str
    order: int
    allowed_next: tuple[str, ...]
    prompt_fragment: str
    guards: tuple[GuardDef, ...] = ()
    # Resolved: the step's own choice, else the flow's.
    reply_as_written: bool = False


@dataclass(frozen=True)
class FlowDef:
    code: str
    steps: dict[str, StepDef]
    reply_as_written: bool = False

    @property
    def first_step(self) -> str:
        return min(self.steps.values(), key=lambda step: step.order).code

    def step(self, code: str) -> StepDef | None:
        return self.steps.get(code)


def flow_get(code: str) -> FlowDef:
    """The flow `code` as stored now: one query (steps left-joined with their guards).

    A built-in flow the engine cannot run without is reinstalled from its shipped file when it
    is missing (deleted in admin, or a flushed test database)."""
    flow = _flow_read(code)
    if flow is None and code in BUILTIN_FLOWS:
        flow_files_load([FLOWS_DIR / f"{code}.json"])
        flow = _flow_read(code)
    if flow is None:
        raise ApplicationError(ErrorCode.FLOW_MISSING, f"The flow {code!r} is not installed.")
    return flow


def intent_detour(turn: Turn, code: str, *, slots: dict[str, Any]) -> None:
    """Enter flow `code` at its first step, keeping the interrupted intent, step and slots so
    that it can resume (after the scheduler, or when a counselor lets a crisis end)."""
    session = turn.session
    turn.set(
        suspended_intent=session.current_intent_code,
        resumable_step_code=session.current_step_code,
        resumable_slots=dict(session.slots),
        current_intent_code=code,
        current_step_code=flow_get(code).first_step,
        slots=slots,
    )
    turn.event(
        EventType.INTENT_SUSPENDED,
        suspended=session.suspended_intent,
        resumable_step=session.resumable_step_code,
        to=code,
    )


def _flow_read(code: str) -> FlowDef | None:
    rows = (
        FlowStep.objects.filter(flow__code=code)
        .order_by("order", "id", "guards__id")
        .values(
            "code",
            "order",
            "allowed_next",
            "prompt_fragment",
            "reply_as_written",
            "flow__reply_as_written",
            "guards__code",
            "guards__description",
            "guards__trigger_slot",
            "guards__trigger_value",
            "guards__required_slots",
        )
    )
    steps: dict[str, StepDef] = {}
    as_written = False
    for row in rows:
        as_written = bool(row["flow__reply_as_written"])
        own = row["reply_as_written"]
        step = steps.get(row["code"]) or StepDef(
            code=row["code"],
            order=row["order"],
            allowed_next=tuple(row["allowed_next"] or ()),
            prompt_fragment=row["prompt_fragment"],
            reply_as_written=as_written if own is None else bool(own),
        )
        if row["guards__code"]:
            guard = GuardDef(
                code=row["guards__code"],
                description=row["guards__description"],
                trigger_slot=row["guards__trigger_slot"],
                trigger_value=row["guards__trigger_value"],
                required_slots=tuple(row["guards__required_slots"] or ()),
            )
            step = StepDef(**{**step.__dict__, "guards": (*step.guards, guard)})
        steps[row["code"]] = step
    return FlowDef(code=code, steps=steps, reply_as_written=as_written) if steps else None


# --- guards -----------------------------------------------------------------------------------


def slot_missing(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def guard_active(guard: GuardDef, slots: dict[str, Any]) -> bool:
    return slots.get(guard.trigger_slot) == guard.trigger_value


def guard_missing(guard: GuardDef, slots: dict[str, Any]) -> list[str]:
    return [name for name in guard.required_slots if slot_missing(slots.get(name))]


def pending_guard(flow: FlowDef, step_code: str, slots: dict[str, Any]) -> dict[str, Any] | None:
    """The first active guard of the step with its missing slots, or None (derived, not stored)."""
    step = flow.step(step_code)
    for guard in step.guards if step else ():
        missing = guard_missing(guard, slots) if guard_active(guard, slots) else []
        if missing:
            return {"code": guard.code, "description": guard.description, "missing_slots": missing}
    return None


# --- moves ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    state_after: Any
    slots_updated: Any = None
    # The intent the proposer believed current; None when it did not say.
    intent: str | None = None
    source: str = "analyst"
    malformed: str = ""


@dataclass(frozen=True)
class MoveOutcome:
    accepted: bool
    intent: str
    from_step: str
    step: str
    slots: dict[str, Any]
    attempted_step: Any
    reason: str = ""
    guard: str | None = None
    missing_slots: list[str] = field(default_factory=list)
    slot_keys: list[str] = field(default_factory=list)
    source: str = "analyst"

    def event(self) -> EventSpec:
        """transition.applied or validation.blocked — slot names only: values may be the
        client's own words, and events never carry message text."""
        if self.accepted:
            payload = {
                "intent": self.intent,
                "from_step": self.from_step,
                "to_step": self.step,
                "slots_updated": self.slot_keys,
                "source": self.source,
            }
            return EventSpec(type=EventType.TRANSITION_APPLIED, payload=payload, actor="engine")
        payload = {
            "intent": self.intent,
            "step": self.from_step,
            "attempted_step": self.attempted_step if isinstance(self.attempted_step, str) else None,
            "reason": self.reason,
            "guard": self.guard,
            "missing_slots": self.missing_slots,
            "source": self.source,
        }
        return EventSpec(type=EventType.VALIDATION_BLOCKED, payload=payload, actor="engine")


def _clean_slots(update: Any) -> dict[str, Any] | None:
    """The update as storable slots, or None when it is not a flat object of scalars."""
    if update is None:
        return {}
    if not isinstance(update, dict):
        return None
    clean: dict[str, Any] = {}
    for key, value in update.items():
        if not isinstance(key, str) or not key or len(key) > CONVERSATION_VARIABLE_KEY_MAX:
            return None
        if isinstance(value, dict | list):
            return None
        if isinstance(value, str):
            value = value[:CONVERSATION_VARIABLE_VALUE_MAX]
        clean[key] = value
    return clean


def move_validate(
    *, flow: FlowDef, intent: str, step: str, slots: dict[str, Any], move: Move
) -> MoveOutcome:
    """Merge the slots, then check the transition, then the guards of the step being left."""
    blocked = {"accepted": False, "intent": intent, "from_step": step, "step": step}
    blocked |= {"attempted_step": move.state_after, "source": move.source}
    if move.malformed:
        return MoveOutcome(slots=dict(slots), reason=f"malformed_{move.malformed}", **blocked)
    if move.intent is not None and move.intent != intent:
        return MoveOutcome(slots=dict(slots), reason="wrong_intent", **blocked)
    update = _clean_slots(move.slots_updated)
    if update is None:
        return MoveOutcome(slots=dict(slots), reason="malformed_slots", **blocked)
    merged = {key: value for key, value in {**slots, **update}.items() if value is not None}
    blocked |= {"slots": merged, "slot_keys": sorted(update)}
    target = move.state_after
    if not isinstance(target, str) or flow.step(target) is None:
        return MoveOutcome(reason="unknown_step", **blocked)
    current = flow.step(step)
    if target != step and (current is None or target not in current.allowed_next):
        return MoveOutcome(reason="illegal_transition", **blocked)
    for guard in current.guards if current and target != step else ():
        missing = guard_missing(guard, merged) if guard_active(guard, merged) else []
        if missing:
            return MoveOutcome(reason="guard", guard=guard.code, missing_slots=missing, **blocked)
    return MoveOutcome(
        accepted=True,
        intent=intent,
        from_step=step,
        step=target,
        slots=merged,
        attempted_step=target,
        slot_keys=sorted(update),
        source=move.source,
    )


# --- STATE_JSON: the move of a plain-text model ------------------------------------------------

STATE_JSON_RE = re.compile(r"^\s*STATE_JSON\s*:\s*(?P<body>.*?)\s*$")


def session_move_validate(session: Any, move: Move, *, flow: FlowDef | None = None) -> MoveOutcome:
    """`move_validate` against where the session stands now (its intent, step and slots)."""
    return move_validate(
        flow=flow or flow_get(session.current_intent_code),
        intent=session.current_intent_code,
        step=session.current_step_code,
        slots=dict(session.slots),
        move=move,
    )


def state_json_split(text: str) -> tuple[str, dict[str, Any] | None, bool]:
    """(text without its trailing STATE_JSON line, the parsed object or None, malformed?).

    Only the last non-empty line counts; it is stripped from the text shown even when it cannot
    be parsed, so a client never sees protocol."""
    lines = (text or "").rstrip().split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    match = STATE_JSON_RE.match(lines[-1]) if lines else None
    if match is None:
        return text, None, False
    shown = "\n".join(lines[:-1]).rstrip()
    try:
        data = json.loads(match.group("body"))
    except ValueError:
        return shown, None, True
    return (shown, data, False) if isinstance(data, dict) else (shown, None, True)


# --- the router -------------------------------------------------------------------------------


def route(*, text: str, locale: str, intent: str) -> str:
    """Which intent handles this client message: crisis first (safety) from any flow, then — in
    a reflection session — a wish to move the next session, else the current intent. A flow of
    another domain (a booking, a check-in) keeps its own words about days and times."""
    if intent != CRISIS_FLOW and crisis_escalates(text, locale):
        return CRISIS_FLOW
    if intent == SESSION_FLOW and detectors.detect_reschedule(text, locale):
        return SCHEDULER_FLOW
    return intent
