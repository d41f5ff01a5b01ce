"""Engine fixtures: a started session for alice, and helpers to script the agents."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from psychologist.llm.scripted import use_script
from sessions_app import services
from sessions_app.engine.agents.schemas import ANALYST_TOOL, NARRATOR_TOOL, SUMMARY_TOOL
from sessions_app.engine.selectors import session_state
from sessions_app.engine.services import answer_submit
from sessions_app.models import AskSession
from tests.agent_outputs import analyst_output, narrator_output
from tests.psychologist.conftest import fake_anthropic  # noqa: F401  (the fixture, reused)


def analyst(**fields: Any) -> dict[str, Any]:
    """A scripted Analyst reply; defaults: two questions, stay in dialogue, nothing special."""
    output = analyst_output(**fields)
    return {"agent": "analyst", "tool_calls": [{"name": ANALYST_TOOL, "input": output}]}


def narrator(*texts: str, insight: str | None = None, closing: str | None = None) -> dict:
    data = narrator_output(*texts, insight=insight, closing=closing)
    return {"agent": "narrator", "tool_calls": [{"name": NARRATOR_TOOL, "input": data}]}


def summary(text: str = "The client looked at avoidance at work.") -> dict[str, Any]:
    data = {"summary": text, "key_insights": ["Avoids hard talks."], "cbt_techniques_used": []}
    return {"agent": "summarizer", "tool_calls": [{"name": SUMMARY_TOOL, "input": data}]}


@pytest.fixture
def bind(settings: Settings) -> Callable[..., None]:
    """bind("analyst", "narrator") → those agents replay the installed script."""

    def to_script(*agents: str) -> None:
        settings.LLM_BINDINGS = {
            **settings.LLM_BINDINGS,
            **{agent: {"provider": "scripted", "model": "scripted"} for agent in agents},
        }

    return to_script


@contextmanager
def script(*responses: dict[str, Any]) -> Iterator[Any]:
    """Replay these responses in order and insist that every one was used."""
    with use_script(responses) as provider:
        yield provider
    assert provider.remaining == 0, f"{provider.remaining} scripted responses were not used"


@pytest.fixture
def session(alice: Any) -> AskSession:
    return services.session_create(owner=alice, actor=alice)


def card_of(session: AskSession) -> dict[str, Any]:
    return session_state(session)["current_card"]


def answer(session: AskSession, text: str) -> dict[str, Any]:
    """Answer whatever card is showing; returns the new state document."""
    answer_submit(session=session, card_id=card_of(session)["id"], text=text)
    return session_state(session)


def event_types(session: AskSession) -> list[str]:
    return list(session.events.order_by("seq").values_list("type", flat=True))
