"""The multilingual safety net (English, Russian, Chinese).

Pure Python: no Django, no database, no network. `judge(text, locale, recent=…)` runs on every
client message: the rules (`assess`, precision and severity), the learned layer (`learned`,
recall) and the last few messages read together. `normalize(text)` is the readable normal form
the rules match on.
"""

from __future__ import annotations

from functools import lru_cache

from sessions_app.engine.safety.detector import Assessment, Category, Finding, assess
from sessions_app.engine.safety.normal import normalize
from sessions_app.engine.safety.verdict import Verdict, detector_version, judge

__all__ = [
    "Assessment",
    "Category",
    "Finding",
    "Verdict",
    "assess",
    "crisis_escalates",
    "detect_crisis",
    "detector_version",
    "judge",
    "normalize",
]


def detect_crisis(text: str, locale: str = "en") -> bool:
    """Whether the safety net's rules mark `text` (any category, any language): words never to
    show a client again, never to quote."""
    return assess(text, locale).positive


@lru_cache(maxsize=1024)
def crisis_escalates(text: str, locale: str = "en") -> bool:
    """Whether `text` on its own is a crisis the net pages a person for (not the band where
    the screener asks): what the offline Analyst's `crisis_signal` and the flow router read."""
    return judge(text, locale).escalates
