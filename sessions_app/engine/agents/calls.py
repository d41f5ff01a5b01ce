"""Calling the Analyst, the Narrator and the summarizer: requests built from the materialized
branch, validated structured output, bounded re-asks, and failures turned into a code.

Nothing here touches a transaction: the caller has committed before it calls, and persists the
result in a new transaction afterwards (SPEC §3, STYLE "never call an LLM inside a
transaction"). A failure is never raised into the turn: it comes back as `AgentReply.failure`,
and the turn shows a gentle card instead. `refusal` and `max_tokens` come back as themselves, so
that the caller can refuse to read them as "no risk".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings

from psychologist.llm.budget import truncate_middle
from psychologist.llm.identity import opaque_user_id
from psychologist.llm.schemas import tool_input_errors
from psychologist.llm.service import complete
from psychologist.llm.types import (
    LLMError,
    LLMOutputInvalid,
    LLMRequest,
    Message,
    ToolResult,
    ToolSpec,
)
from sessions_app import texts
from sessions_app.engine import homework
from sessions_app.engine.agents import prompts
from sessions_app.engine.agents.schemas import (
    ANALYST_DEFAULTS,
    ANALYST_OUTPUT,
    NARRATOR_OUTPUT,
    SUMMARY_OUTPUT,
)
from sessions_app.engine.flows.validator import state_json_split
from sessions_app.engine.graph.tree import Materialized, materialize
from sessions_app.models import AskSession

logger = logging.getLogger(__name__)

# Bounded re-asks after schema-violating output (SPEC §3): the model sees its own invalid call
# and the errors, and tries again — at most this many more times.
REASKS = 2
# Stop reasons that are not "invalid output" but "no real answer": never retried, never read as
# an all-clear.
INCOMPLETE = frozenset({"refusal", "max_tokens", "model_context_window_exceeded"})
SUMMARY_INPUT_TOKENS = 1500


@dataclass(frozen=True)
class AgentReply:
    output: dict[str, Any] | None
    provider: str = ""
    failure: str = ""

    @property
    def ok(self) -> bool:
        return self.output is not None

    @property
    def incomplete(self) -> bool:
        return self.failure in INCOMPLETE


def _ask(
    session: AskSession,
    *,
    agent: str,
    tool: ToolSpec,
    system: list[str],
    final: str,
    context: dict[str, Any],
    branch: Materialized | None = None,
    budget_tokens: int | None = None,
) -> AgentReply:
    """Ask `agent` for `tool`'s output about the session's active branch."""
    # Every engine call sees only the active branch (SPEC §5); a turn that calls two agents
    # materializes once and hands the same branch to both.
    branch = branch or materialize(session, budget_tokens=budget_tokens)
    scope = f"(Scope: {branch.scope_summary}.)"
    request = LLMRequest(
        agent=agent,
        system_blocks=system,
        messages=prompts.conversation(branch.messages, f"{final}\n{scope}"),
        tools=[tool],
        tool_choice=tool.name,
        max_tokens=1024,
        context=context,
        session_id=str(session.pk),
        opaque_user_id=opaque_user_id(session.user_id),
    )
    return ask(request, tool)


def _reask(request: LLMRequest, error: LLMOutputInvalid, tool: ToolSpec) -> LLMRequest:
    response = error.response
    call = next((c for c in response.tool_calls if c.name == tool.name), None) if response else None
    if call is None:
        said = Message(role="assistant", content=(response.text if response else "") or "…")
        ask = Message(role="user", content=f"Please answer by calling {tool.name}.")
    else:
        errors = "; ".join(tool_input_errors(tool, call.input)[:5]) or str(error.detail)
        said = Message(role="assistant", content="", tool_calls=(call,))
        result = ToolResult(call.id, f"Invalid input: {errors}. Call {tool.name} again.", True)
        ask = Message(role="user", content="", tool_results=(result,))
    return replace(request, messages=[*request.messages, said, ask])


def _plain_text_output(error: LLMOutputInvalid, tool: ToolSpec) -> dict[str, Any] | None:
    """A plain-text Analyst: its reply (questions one per line), then a trailing STATE_JSON
    line that need hold only the move — what it leaves out takes a safe default."""
    if tool is not ANALYST_OUTPUT or error.response is None or not error.response.text:
        return None
    shown, data, malformed = state_json_split(error.response.text)
    if data is None or malformed:
        return None
    lines = [line.strip() for line in shown.splitlines() if line.strip()]
    questions = [line.strip(" -•\t") for line in lines][:2]
    given = {k: v for k, v in data.items() if k not in ("questions", "reply")}
    output = {**ANALYST_DEFAULTS, "slots_updated": {}, "questions": questions, **given}
    output["reply"] = "\n".join(lines)
    return output if not tool_input_errors(tool, output) else None


def ask(request: LLMRequest, tool: ToolSpec) -> AgentReply:
    """Call the agent; re-ask on invalid output; never raise."""
    for attempt in range(REASKS + 1):
        try:
            response = complete(request=request)
        except LLMOutputInvalid as exc:
            provider = exc.response.provider if exc.response else ""
            if exc.code in INCOMPLETE:
                return AgentReply(None, provider, exc.code)
            recovered = _plain_text_output(exc, tool)
            if recovered is not None:
                return AgentReply(recovered, provider)
            if attempt == REASKS:
                return AgentReply(None, provider, exc.code)
            request = _reask(request, exc, tool)
        except LLMError as exc:
            logger.warning("engine.agent_failed agent=%s code=%s", request.agent, exc.code)
            return AgentReply(None, "", exc.code)
        except Exception as exc:  # a provider bug must not cost the client its turn
            # The class only: an exception's message or traceback may quote the prompt.
            logger.error(
                "engine.agent_crashed agent=%s error=%s", request.agent, type(exc).__name__
            )
            return AgentReply(None, "", "error")
        else:
            return AgentReply(response.tool_input(tool.name), response.provider)
    return AgentReply(None, "", "output_invalid")


def analyst_ask(
    session: AskSession,
    *,
    profile: str,
    facts: dict[str, Any],
    pairs: list[dict[str, str]],
    context: dict[str, Any],
    branch: Materialized | None = None,
) -> AgentReply:
    facts = {**facts, "client_language": texts.lang_of(session.locale)}
    return _ask(
        session,
        agent="analyst",
        tool=ANALYST_OUTPUT,
        system=[prompts.ANALYST_SYSTEM, prompts.analyst_rules(session.locale), profile],
        final=prompts.analyst_turn(facts, pairs),
        context=context,
        branch=branch,
    )


def narrator_ask(
    session: AskSession, *, facts: dict[str, Any], branch: Materialized | None = None
) -> AgentReply:
    facts = {**facts, "client_language": texts.lang_of(session.locale)}
    return _ask(
        session,
        agent="narrator",
        tool=NARRATOR_OUTPUT,
        system=[prompts.narrator_system(session.locale)],
        final=prompts.narrator_turn(facts),
        context=facts,
        branch=branch,
    )


def summarizer_ask(
    session: AskSession, *, profile: str, facts: dict[str, Any], pairs: list[dict[str, str]]
) -> AgentReply:
    # The whole dialogue, its middle shortened to the budget — never only its beginning
    # (session design §11.5: the earlier app summarised the first 500 characters).
    lines = truncate_middle(
        [prompts.pair_line(n, pair) for n, pair in enumerate(pairs, 1)],
        budget_tokens=SUMMARY_INPUT_TOKENS,
    )
    facts = {
        **facts,
        "client_language": texts.lang_of(session.locale),
        "homework": not homework.proposes_none(session),
    }
    context = {
        **facts,
        "pairs": pairs,
        "token_budget": SUMMARY_INPUT_TOKENS // 4,
        "topic": session.slots.get("topic", ""),
    }
    return _ask(
        session,
        agent="summarizer",
        tool=SUMMARY_OUTPUT,
        system=[prompts.SUMMARIZER_SYSTEM, homework.SUMMARIZER_RULES, profile],
        final=prompts.summarizer_turn(facts, lines),
        context=context,
        budget_tokens=settings.LLM_CONTEXT_BUDGET_TOKENS,
    )
