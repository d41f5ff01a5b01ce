"""The dialogue engine's writes: with `selectors` (its reads) and `safety` (the pure net), the only
module of `sessions_app/engine/` that code outside it may import — an import-linter contract
holds that (pyproject.toml). Each service owns its transactions; none calls a model inside one.
The limits and codes a caller checks its input against come with the writes they bound.

The turn loop (SPEC §3)
    session_start(*, session, flow=None) -> AskSession   (called by services.session_create)
    answer_submit(*, session, card_id, text) -> TurnResult   (a card answered already: 409
                                                       CARD_ANSWERED, one card, one answer)
    message_submit(*, session, text) -> TurnResult
    session_continue(*, session) -> TurnResult
    session_end(*, session) -> TurnResult
    last_thing_submit(*, session, text=None, finish=False) -> TurnResult
    TEXT_MAX, visible(text)                           (what a client's text may be)

The batch off the request (SPEC §3 One turn; a worker runs these)
    batch_prepare(session_id) -> TurnResult | None     (the recorded batch, if nobody runs it)
    batches_resume() -> int                           (the sweeper: batches whose run died)
    safety_opinion_give(session_id, message_id)       (the safety model on words without a batch)

The session graph (SPEC §5)
    message_fork, workline_create, workline_activate, spin_off_propose, spin_off_decide

The counselor's workspace (SPEC §1, §3 Crisis, §9)
    session_claim, session_take_over, counselor_message_send, session_hand_back, steer_note_add
    STEER_MAX

Risk, set by a person (SPEC §3)
    risk_level_set(*, session, level, reason, by) -> AskSession   (with a reason; REASON_MAX)
    risk_escalate_by(*, session, level, by, reason="") -> AskSession   (into a crisis: the one
                                                       escalation path)

CBT homework between sessions
    task_accept, task_skip, task_done(*, task, by[, completion_note]) -> Task
    task_entries_update(*, task, by, change: EntriesChange) -> Task
    task_expire(*, task_id, last_due) -> bool          (the expiry job)

Flows (SPEC §4)
    flow_files_load(paths, *, models=None) -> codes   (FlowFileError; a migration passes its
                                                       historical FlowModels, builtin_flow_paths)
    flow_data_load(data, *, source) -> Flow           (an evaluation scenario's own flow)

An agent outside a turn
    summary_partial_ask(*, session, facts, pairs) -> AgentReply   (the abandoned-session job)

The process
    offline_agents_register()    (AppConfig.ready: the offline provider answers as the agents)
    language_tools_warm()        (the ASGI application, before its first connection)
"""

from __future__ import annotations

from psychologist.llm.offline import offline_agent_register
from sessions_app.engine.agents.schemas import ANALYST_TOOL, NARRATOR_TOOL, SUMMARY_TOOL
from sessions_app.engine.cards.dealer import TurnResult
from sessions_app.engine.closing.stages import last_thing_submit, session_end, summary_partial_ask
from sessions_app.engine.counselor.handoff import (
    STEER_MAX,
    counselor_message_send,
    session_claim,
    session_hand_back,
    session_take_over,
    steer_note_add,
)
from sessions_app.engine.crisis.risk_by_hand import REASON_MAX, risk_escalate_by, risk_level_set
from sessions_app.engine.flows.files import (
    FlowFileError,
    FlowModels,
    builtin_flow_paths,
    flow_data_load,
    flow_files_load,
)
from sessions_app.engine.graph.spin_off import spin_off_decide, spin_off_propose
from sessions_app.engine.graph.tree import message_fork, workline_activate, workline_create
from sessions_app.engine.homework import (
    EntriesChange,
    task_accept,
    task_done,
    task_entries_update,
    task_expire,
    task_skip,
)
from sessions_app.engine.language.identify import warm as language_tools_warm
from sessions_app.engine.offline.analyst import analyse
from sessions_app.engine.offline.narrator import narrate
from sessions_app.engine.offline.summarizer import summarise
from sessions_app.engine.turn.loop import (
    CARD_ANSWERED,
    answer_submit,
    message_submit,
    session_continue,
)
from sessions_app.engine.turn.opening import session_start
from sessions_app.engine.turn.pending import batch_prepare, batches_resume
from sessions_app.engine.turn.pending import opinion_give as safety_opinion_give
from sessions_app.engine.turn.routing import TEXT_MAX, visible

__all__ = [
    "CARD_ANSWERED",
    "REASON_MAX",
    "STEER_MAX",
    "TEXT_MAX",
    "EntriesChange",
    "FlowFileError",
    "FlowModels",
    "TurnResult",
    "answer_submit",
    "batch_prepare",
    "batches_resume",
    "builtin_flow_paths",
    "counselor_message_send",
    "flow_data_load",
    "flow_files_load",
    "language_tools_warm",
    "last_thing_submit",
    "message_fork",
    "message_submit",
    "offline_agents_register",
    "risk_escalate_by",
    "risk_level_set",
    "safety_opinion_give",
    "session_claim",
    "session_continue",
    "session_end",
    "session_hand_back",
    "session_start",
    "session_take_over",
    "spin_off_decide",
    "spin_off_propose",
    "steer_note_add",
    "summary_partial_ask",
    "task_accept",
    "task_done",
    "task_entries_update",
    "task_expire",
    "task_skip",
    "visible",
    "workline_activate",
    "workline_create",
]


def offline_agents_register() -> None:
    """The LLM layer knows no agent: the engine tells its offline provider how to answer as the
    Analyst, the Narrator and the Summarizer."""
    offline_agent_register("analyst", tool=ANALYST_TOOL, rules=analyse)
    offline_agent_register("narrator", tool=NARRATOR_TOOL, rules=narrate)
    offline_agent_register("summarizer", tool=SUMMARY_TOOL, rules=summarise)
