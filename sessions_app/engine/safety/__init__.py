"""The multilingual safety net (English, Russian, Chinese).

Pure Python: no Django, no database, no network. `judge(text, locale, recent=…)` runs on every
client message: the rules (`assess`, precision and severity), the learned layer (`learned`,
recall) and the last few messages read together. `normalize(text)` is the readable normal form
the rules match on.
"""

from __future__ import annotations

from sessions_app.engine.safety.detector import Assessment, Category, Finding, assess
from sessions_app.engine.safety.normal import normalize
from sessions_app.engine.safety.verdict import Verdict, detector_version, judge

__all__ = [
    "Assessment",
    "Category",
    "Finding",
    "Verdict",
    "assess",
    "detect_crisis",
    "detector_version",
    "judge",
    "normalize",
]


def detect_crisis(text: str, locale: str = "en") -> bool:
    """Whether the safety net marks `text` positive (any category, any language)."""
    return assess(text, locale).positive
