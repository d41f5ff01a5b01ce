"""Evaluation scenarios (SPEC §4): a flow, scripted model outputs per turn, the client's actions,
and the state expected after each turn — replayed through the real engine with the scripted
provider. `manage.py run_scenarios FILE…` prints the table and fails on any mismatch.

A scenario file:
    {"name": "…", "flow": "reflection_session" | {a flow file object},
     "profile": {"is_minor": true, "locale": "en", "schedule_weekdays": [4], …},
     "session_type": "general", "counselors_on_duty": 1,
     "turns": [{"client": {"answer": "…"} | {"message": "…"} | {"continue": true} |
                          {"end": true} | {"last_thing": "…"} | {"finish": true},
                "model": [{"agent": "analyst", "output": {…}} |
                          {"agent": "analyst", "text": "…", "stop_reason": "end_turn"}],
                "expect": {…}}]}

A model `text` is what a plain-text model wrote: its reply, and a last line
`STATE_JSON: {"state_after": …, "slots_updated": {…}}` holding the move (the other fields take
their defaults). What `expect` may check after a turn, each field on its own row:
    intent, step, status, phase, ready_to_close, risk, error, card_kind — equal;
    slots         — a subset: the named slots have these values (null = absent);
    slots_exact   — all the slots, exactly;
    pending_guard — {code, missing_slots} or null;
    events        — these types in this order among the turn's events (others may come between);
    no_events     — none of these types among the turn's events;
    event_payloads — [{"type": "validation.blocked", "payload": {"guard": …, "missing_slots":
                    […]}}]: for each, one of the turn's events of that type whose payload holds
                    these fields with these values;
    shown         — the text shown to the client now (the notice, then the current card):
                    {"contains": "…" | […], "excludes": "…" | […], "regex": "…", "equals": "…"}.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings

from psychologist.llm.scripted import use_script
from sessions_app import services
from sessions_app.engine import services as engine
from sessions_app.engine.selectors import TOOLS_BY_AGENT, flow_get, session_state, thread_state
from sessions_app.errors import ApplicationError
from sessions_app.models import AskSession, SessionEvent, UserProfile
from sessions_app.roles import Role

AGENTS = ("analyst", "narrator", "summarizer", "psychologist", "psychologist-light")
SCRIPTED = {agent: {"provider": "scripted", "model": "scripted"} for agent in AGENTS}


@dataclass(frozen=True)
class Row:
    scenario: str
    turn: int
    field: str
    expected: Any
    got: Any

    @property
    def ok(self) -> bool:
        return self.expected == self.got


def scenario_load(path: Path | str) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for key in ("name", "flow", "turns"):
        if key not in data:
            raise ValueError(f"{path}: the scenario needs {key!r}")
    return data


def _recording(item: dict[str, Any]) -> dict[str, Any]:
    if "output" not in item:
        return item
    tool = TOOLS_BY_AGENT[item["agent"]].name
    return {"agent": item["agent"], "tool_calls": [{"name": tool, "input": item["output"]}]}


def _people(scenario: dict[str, Any], index: int) -> Any:
    from django.contrib.auth.models import Group

    User = get_user_model()
    client = User.objects.create_user(username=f"scenario-client-{index}")
    client.groups.add(Group.objects.get_or_create(name=Role.CLIENT)[0])
    profile = {"schedule_weekdays": [4], **scenario.get("profile", {})}
    UserProfile.objects.create(user=client, **profile)
    for n in range(int(scenario.get("counselors_on_duty", 0))):
        counselor = User.objects.create_user(username=f"scenario-counselor-{index}-{n}")
        counselor.groups.add(Group.objects.get_or_create(name=Role.COUNSELOR)[0])
        UserProfile.objects.create(user=counselor, on_duty=True)
    return client


def _session(scenario: dict[str, Any], index: int) -> AskSession:
    flow = scenario["flow"]
    if isinstance(flow, dict):
        engine.flow_data_load(flow, source=scenario["name"])
        flow = flow["code"]
    client = _people(scenario, index)
    session_type = scenario.get("session_type", AskSession.SessionType.GENERAL)
    session = services.session_create(owner=client, actor=client, session_type=session_type)
    if session.current_intent_code != flow:
        AskSession.objects.filter(pk=session.pk).update(
            current_intent_code=flow, current_step_code=flow_get(flow).first_step
        )
        session.refresh_from_db()
    return session


def _act(session: AskSession, client: dict[str, Any]) -> None:
    if "answer" in client:
        card = session_state(session)["current_card"]
        card_id = client.get("card_id") or (card["id"] if card else "")
        engine.answer_submit(session=session, card_id=card_id, text=client["answer"])
    elif "message" in client:
        engine.message_submit(session=session, text=client["message"])
    elif client.get("continue"):
        engine.session_continue(session=session)
    elif client.get("end"):
        engine.session_end(session=session)
    elif "last_thing" in client:
        engine.last_thing_submit(session=session, text=client["last_thing"])
    elif client.get("finish"):
        engine.last_thing_submit(session=session, finish=True)
    else:
        raise ValueError(f"unknown client action {sorted(client)}")
    # The worker's part: a batch the action completed is made here, in the runner's process and
    # under its replay, as a cluster's worker would (with `Q_SYNC` it was made already).
    engine.batch_prepare(session.pk)


def _subsequence(wanted: list[str], got: list[str]) -> bool:
    position = 0
    for item in got:
        if position < len(wanted) and item == wanted[position]:
            position += 1
    return position == len(wanted)


def _observed(session: AskSession, since_seq: int, error: str) -> dict[str, Any]:
    thread = thread_state(session)
    state = session_state(session)
    session.refresh_from_db()
    guard = thread["pending_guard"]
    logged = list(
        SessionEvent.objects.filter(session=session, seq__gt=since_seq)
        .order_by("seq")
        .values_list("type", "payload")
    )
    return {
        "intent": thread["intent"],
        "step": thread["step"],
        "slots": thread["slots"],
        "pending_guard": {"code": guard["code"], "missing_slots": guard["missing_slots"]}
        if guard
        else None,
        "events": [kind for kind, _ in logged],
        "event_log": logged,
        "shown": _shown(state),
        "card_kind": state["current_card"]["kind"] if state["current_card"] else None,
        "status": state["status"],
        "phase": state["phase"],
        "ready_to_close": state["ready_to_close"],
        "risk": session.final_risk_level or session.initial_risk_level,
        "error": error,
    }


def _shown(state: dict[str, Any]) -> str:
    """What the client sees now: the notice (intro, insight, reply…) above the current card."""
    notice, card = state.get("notice") or {}, state.get("current_card") or {}
    parts = [notice.get("text") or "", *(notice.get("items") or []), card.get("text") or ""]
    return "\n".join(part for part in parts if part)


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _shown_check(wanted: dict[str, Any], shown: str) -> Any:
    """`wanted` itself when the shown text meets it, else the shown text (the row shows it)."""
    unknown = sorted(set(wanted) - {"contains", "excludes", "regex", "equals"})
    if unknown:
        return f"<unknown shown checks {unknown}>"
    fine = all(part in shown for part in _listed(wanted.get("contains", [])))
    fine &= not any(part in shown for part in _listed(wanted.get("excludes", [])))
    if "regex" in wanted:
        fine &= re.search(wanted["regex"], shown) is not None
    if "equals" in wanted:
        fine &= shown == wanted["equals"]
    return wanted if fine else shown


def _holds(payload: Any, fields: dict[str, Any]) -> bool:
    return isinstance(payload, dict) and all(
        key in payload and payload[key] == value for key, value in fields.items()
    )


def _payloads_check(wanted: list[dict[str, Any]], log: list[tuple[str, Any]]) -> Any:
    """`wanted` when each item has a matching event this turn, else the events of the types
    asked for, with their payloads (the row shows what was there)."""
    found = all(
        any(
            kind == item["type"] and _holds(payload, item.get("payload", {}))
            for kind, payload in log
        )
        for item in wanted
    )
    types = {item["type"] for item in wanted}
    return wanted if found else [{"type": k, "payload": p} for k, p in log if k in types]


def _compare(name: str, turn: int, expect: dict[str, Any], got: dict[str, Any]) -> list[Row]:
    rows = []
    for field, wanted in expect.items():
        if field == "slots":
            value = {key: got["slots"].get(key) for key in wanted}
        elif field == "slots_exact":
            value = got["slots"]
        elif field == "shown":
            value = _shown_check(wanted, got["shown"])
        elif field == "event_payloads":
            value = _payloads_check(wanted, got["event_log"])
        elif field == "events":
            value = wanted if _subsequence(wanted, got["events"]) else got["events"]
        elif field == "no_events":
            value = [e for e in wanted if e in got["events"]]
            wanted = []
        else:
            value = got.get(field, f"<unknown field {field}>")
        rows.append(Row(name, turn, field, wanted, value))
    return rows


def _turn(session: AskSession, turn: dict[str, Any]) -> tuple[dict[str, Any], int]:
    session.refresh_from_db()
    since = session.event_seq
    error = ""
    with use_script([_recording(item) for item in turn.get("model", [])]) as script:
        try:
            _act(session, turn["client"])
        except ApplicationError as exc:
            error = exc.code
    return _observed(session, since, error), script.remaining


def scenario_run(scenario: dict[str, Any], index: int = 0) -> list[Row]:
    """Replay one scenario in a transaction that is rolled back: it leaves nothing behind."""
    rows: list[Row] = []
    with override_settings(LLM_BINDINGS=SCRIPTED), transaction.atomic():
        session = _session(scenario, index)
        for number, turn in enumerate(scenario["turns"], 1):
            got, unused = _turn(session, turn)
            rows += _compare(scenario["name"], number, turn.get("expect", {}), got)
            rows.append(Row(scenario["name"], number, "model outputs used", 0, unused))
        transaction.set_rollback(True)
    return rows
