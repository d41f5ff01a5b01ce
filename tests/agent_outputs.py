"""Valid tool inputs of the dialogue's agents, shared by the scripted, offline and anthropic
tests: a test names only the fields it cares about."""

from __future__ import annotations

from typing import Any


def analyst_output(**fields: Any) -> dict[str, Any]:
    """An Analyst tool input; defaults: two questions, stay in dialogue, nothing special."""
    return {
        "questions": ["The user avoids a hard talk at work.", "The user feels tense at night."],
        "observation": "Avoidance around work.",
        "crisis_signal": False,
        "suggested_insight": None,
        "session_complete": False,
        "mood_delta": "stable",
        "state_after": "dialogue",
        "slots_updated": {},
        **fields,
    }


def narrator_output(
    *texts: str, insight: str | None = None, closing: str | None = None
) -> dict[str, Any]:
    """A Narrator tool input: one open card per text, numbered from 1."""
    cards = [{"id": n, "text": text, "type": "open"} for n, text in enumerate(texts, 1)]
    return {"cards": cards, "insight": insight, "closing_line": closing}
