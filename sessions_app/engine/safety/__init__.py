"""The deterministic multilingual crisis detector (English, Russian, Chinese).

Pure Python: no Django, no database, no network. `assess(text, locale)` runs on every client
message; `normalize(text)` is the readable normal form it matches on.
"""

from __future__ import annotations

from sessions_app.engine.safety.detector import Assessment, Category, Finding, assess
from sessions_app.engine.safety.normal import normalize

__all__ = ["Assessment", "Category", "Finding", "assess", "detect_crisis", "normalize"]


def detect_crisis(text: str, locale: str = "en") -> bool:
    """Whether the safety net marks `text` positive (any category, any language)."""
    return assess(text, locale).positive
