"""The detector's labelled phrase sets (the corpus and the fresh set) and what the tests read off
them: one row a line, each with its language, expected level, category and kind."""

from __future__ import annotations

import json
from pathlib import Path

from sessions_app.engine.safety import assess

SAFETY_DIR = Path(__file__).resolve().parents[3] / "sessions_app/engine/safety"
LANGUAGES = ("en", "ru", "zh")


def load(name: str) -> list[dict]:
    text = (SAFETY_DIR / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def rows_of(rows: list[dict], lang: str, *, crisis: bool) -> list[dict]:
    return [r for r in rows if r["lang"] == lang and (r["expected"] != "negative") == crisis]


def missed_lines(crisis_rows: list[dict]) -> list[str]:
    """The crisis lines the detector lets through."""
    return [r["text"] for r in crisis_rows if not assess(r["text"], r["lang"]).positive]


def false_alarms(negatives: list[dict]) -> list[str]:
    """The non-crisis lines the detector flags, each with what it found."""
    return [
        f"{r['text']}  ← {[(f.category.value, f.span) for f in a.findings]}"
        for r in negatives
        if (a := assess(r["text"], r["lang"])).positive
    ]
