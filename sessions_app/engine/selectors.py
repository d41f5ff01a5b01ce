"""The dialogue engine's reads: what the pages, the API, the jobs and `sessions_app.selectors` may
know of a session without changing it. It never imports the engine's writes (`services`): the
import-linter contracts keep reads below writes (pyproject.toml).

State documents
    session_state(session) -> dict        (SPEC §9 state document)
    turn_state(result) -> dict            (the same, from what the turn holds)
    thread_state(session) -> dict         (SPEC §4 thread state; never for clients)

The session graph (SPEC §5)
    session_tree, worklines_index, scope_strip, session_messages, workline_path
    SessionTree, TreeNode, WorklineSummary, ScopeStrip

Risk (SPEC §3)
    risk_now(session) -> level            (the highest of the initial level and any escalation)
    is_crisis_raise(previous, level)      (a change into L3/L4: only the escalation path may)
    risk_escalated_payload(...)           (the `risk.escalated` event as the log holds it)

Names and what a client may be shown
    session_label(session), person_name(user)
    shown_note(text, locale), shown_summary(text, locale)   (earlier material, safe to read back)

CBT homework
    template_for(kind, locale), offline_tasks(...), reminder_key(task)

Flows and agents
    SESSION_FLOW, BUILTIN_FLOWS, flow_get(code), TOOLS_BY_AGENT, SUMMARY_MAX_CHARS

A client's words, read (pure)
    detect_fatigue, mood_value, session_mood, words
"""

from __future__ import annotations

from sessions_app.engine.agents.schemas import SUMMARY_MAX_CHARS, TOOLS_BY_AGENT
from sessions_app.engine.closing.shown import shown_note, shown_summary
from sessions_app.engine.counselor.handoff import person_name
from sessions_app.engine.crisis.escalation import risk_escalated_payload, risk_now
from sessions_app.engine.crisis.risk_by_hand import is_crisis_raise
from sessions_app.engine.flows.files import BUILTIN_FLOWS
from sessions_app.engine.flows.validator import SESSION_FLOW, flow_get
from sessions_app.engine.graph.tree import (
    ScopeStrip,
    SessionTree,
    TreeNode,
    WorklineSummary,
    scope_strip,
    session_messages,
    session_tree,
    workline_path,
    worklines_index,
)
from sessions_app.engine.homework import offline_tasks, reminder_key, template_for
from sessions_app.engine.language.detectors import detect_fatigue, mood_value, session_mood, words
from sessions_app.engine.turn.state import session_state, thread_state, turn_state
from sessions_app.engine.turn.titles import session_label

__all__ = [
    "BUILTIN_FLOWS",
    "SESSION_FLOW",
    "SUMMARY_MAX_CHARS",
    "TOOLS_BY_AGENT",
    "ScopeStrip",
    "SessionTree",
    "TreeNode",
    "WorklineSummary",
    "detect_fatigue",
    "flow_get",
    "is_crisis_raise",
    "mood_value",
    "offline_tasks",
    "person_name",
    "reminder_key",
    "risk_escalated_payload",
    "risk_now",
    "scope_strip",
    "session_label",
    "session_messages",
    "session_mood",
    "session_state",
    "session_tree",
    "shown_note",
    "shown_summary",
    "template_for",
    "thread_state",
    "turn_state",
    "words",
    "workline_path",
    "worklines_index",
]
