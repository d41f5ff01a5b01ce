"""The dialogue engine's public face: what the REST views, the pages, the sandbox, the selectors
and the tests call. Each service owns its transactions; none calls a model inside one.

The turn loop (SPEC §3)
    session_start(*, session) -> AskSession            (called by services.session_create)
    answer_submit(*, session, card_id, text) -> TurnResult   (a card answered already: 409
                                                       CARD_ANSWERED, one card, one answer)
    message_submit(*, session, text) -> TurnResult
    session_continue(*, session) -> TurnResult
    session_end(*, session) -> TurnResult
    last_thing_submit(*, session, text=None, finish=False) -> TurnResult
    session_state(session) -> dict                    (SPEC §9 state document)
    turn_state(result) -> dict                        (the same, from what the turn holds)
    thread_state(session) -> dict                     (SPEC §4 thread state; never for clients)

The session graph (SPEC §5)
    message_fork, workline_create, workline_activate, spin_off_propose, spin_off_decide
    session_tree, worklines_index, scope_strip, session_messages, workline_path   (reads)

CBT homework
    task_accept, task_skip, task_done(*, task, by[, completion_note]) -> Task
    task_entries_update(*, task, by, change: EntriesChange) -> Task

Safety (SPEC §3)
    risk_level_set(*, session, level, reason, by) -> AskSession   (a person, with a reason)
"""

from __future__ import annotations

from sessions_app.engine.cards.dealer import TurnResult
from sessions_app.engine.closing.stages import last_thing_submit, session_end
from sessions_app.engine.crisis.escalation import risk_now
from sessions_app.engine.crisis.risk_by_hand import risk_level_set
from sessions_app.engine.graph.spin_off import spin_off_decide, spin_off_propose
from sessions_app.engine.graph.tree import (
    ScopeStrip,
    SessionTree,
    TreeNode,
    WorklineSummary,
    message_fork,
    scope_strip,
    session_messages,
    session_tree,
    workline_activate,
    workline_create,
    workline_path,
    worklines_index,
)
from sessions_app.engine.homework import (
    EntriesChange,
    task_accept,
    task_done,
    task_entries_update,
    task_skip,
)
from sessions_app.engine.turn.loop import (
    CARD_ANSWERED,
    answer_submit,
    message_submit,
    session_continue,
)
from sessions_app.engine.turn.opening import session_start
from sessions_app.engine.turn.routing import TEXT_MAX
from sessions_app.engine.turn.state import session_state, thread_state, turn_state

__all__ = [
    "CARD_ANSWERED",
    "TEXT_MAX",
    "EntriesChange",
    "ScopeStrip",
    "SessionTree",
    "TreeNode",
    "TurnResult",
    "WorklineSummary",
    "answer_submit",
    "last_thing_submit",
    "message_fork",
    "message_submit",
    "risk_level_set",
    "risk_now",
    "scope_strip",
    "session_continue",
    "session_end",
    "session_messages",
    "session_start",
    "session_state",
    "session_tree",
    "spin_off_decide",
    "spin_off_propose",
    "task_accept",
    "task_done",
    "task_entries_update",
    "task_skip",
    "thread_state",
    "turn_state",
    "workline_activate",
    "workline_create",
    "workline_path",
    "worklines_index",
]
