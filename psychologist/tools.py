"""The psychologist's tools: two read helpers over the analysed log and the mandatory emit.

Each returns a `ToolOutcome`; only `emit_hypotheses` with a valid batch carries drafts. The read
helpers answer from the log already in memory, and never reveal anything outside this session.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from psychologist.evidence import BatchRules, HypothesisDraft, batch_validate, cited_ids
from psychologist.llm.types import ToolCall, ToolResult
from psychologist.prompt import AnalysisContext, event_line
from psychologist.schemas import EMIT_HYPOTHESES_TOOL, FETCH_EVENT_TOOL, SEARCH_EVENTS_TOOL
from psychologist.selectors import event_owners

SEARCH_LIMIT = 20
REJECTED = (
    "REJECTED: nothing was recorded. Fix every problem below and call emit_hypotheses again "
    "with the complete batch."
)


@dataclass(frozen=True)
class ToolOutcome:
    kind: str  # read | accepted | rejected | unknown
    result: ToolResult
    drafts: tuple[HypothesisDraft, ...] = ()


def tool_run(call: ToolCall, *, context: AnalysisContext) -> ToolOutcome:
    if call.name == EMIT_HYPOTHESES_TOOL:
        return _emit(call, context)
    if call.name == FETCH_EVENT_TOOL:
        return _read(call, _fetch(call.input, context))
    if call.name == SEARCH_EVENTS_TOOL:
        return _read(call, _search(call.input, context))
    known = ", ".join([FETCH_EVENT_TOOL, SEARCH_EVENTS_TOOL, EMIT_HYPOTHESES_TOOL])
    result = ToolResult(call.id, f"Unknown tool {call.name!r}; the tools are {known}.", True)
    return ToolOutcome("unknown", result)


def _read(call: ToolCall, answer: tuple[str, bool]) -> ToolOutcome:
    content, is_error = answer
    return ToolOutcome("read", ToolResult(call.id, content, is_error))


def _fetch(data: dict[str, Any], context: AnalysisContext) -> tuple[str, bool]:
    event_id = data.get("event_id")
    event = context.log.by_id.get(event_id) if isinstance(event_id, int) else None
    if event is None:
        # The same answer for a foreign id as for a missing one: nothing leaks across sessions.
        return f"No event {event_id!r} in this session's log.", True
    return json.dumps(event.as_dict(), ensure_ascii=False, default=str), False


def _search(data: dict[str, Any], context: AnalysisContext) -> tuple[str, bool]:
    query = str(data.get("query") or "").casefold()
    prefix = str(data.get("type") or "")
    found = [
        event
        for event in context.log.events
        if event.type.startswith(prefix)
        and (query in event.type.casefold() or query in event.text.casefold())
    ]
    if not found:
        return "No matching events.", False
    lines = [event_line(event) for event in found[:SEARCH_LIMIT]]
    if len(found) > SEARCH_LIMIT:
        lines.append(f"… and {len(found) - SEARCH_LIMIT} more; narrow the search.")
    return "\n".join(lines), False


def _emit(call: ToolCall, context: AnalysisContext) -> ToolOutcome:
    rules = BatchRules(
        session_id=context.session.pk,
        owners=event_owners(event_ids=cited_ids(call.input)),
        analysed=context.log.by_id.keys(),
        abnormal=context.termination.abnormal,
        max_hypotheses=context.tier.max_hypotheses,
    )
    drafts, errors = batch_validate(call.input, rules=rules)
    if errors:
        content = "\n".join([REJECTED, *(f"- {error}" for error in errors)])
        return ToolOutcome("rejected", ToolResult(call.id, content, True))
    result = ToolResult(call.id, f"Recorded {len(drafts)} hypotheses.")
    return ToolOutcome("accepted", result, tuple(drafts))
