"""Request builders shared by the LLM-layer tests."""

from __future__ import annotations

from typing import Any

from psychologist.llm.schemas import TOOLS_BY_AGENT
from psychologist.llm.types import LLMRequest, Message


def agent_request(agent: str, **context: Any) -> LLMRequest:
    """A request shaped the way the engine sends it: the agent's tool, forced."""
    tool = TOOLS_BY_AGENT[agent]
    return LLMRequest(
        agent=agent,
        system_blocks=[f"You are the {agent}.", "Rules: be brief.", "Profile: none yet."],
        messages=[Message(role="user", content="Here is the recap of the batch.")],
        tools=[tool],
        tool_choice=tool.name,
        max_tokens=512,
        context=context,
    )


def recap(*answers: str) -> list[dict[str, str]]:
    return [{"question": f"Question {i}?", "answer": a} for i, a in enumerate(answers, 1)]
