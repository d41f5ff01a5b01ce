"""The safety net's verdict on one client message: the rules, the learned layer and the recent
conversation read together (SPEC §3).

- **escalate**: a person is paged. A rule's finding the learned layer does not contradict
  (score ≥ `trust`), or the learned layer sure on its own (≥ `escalate`), or the last few
  messages read together sure (≥ `conversation_escalate`).
- **screen**: unsure. A rule's finding the learned layer doubts, an act found alone (things
  given away, a means named: `ACTS`), or a score in the band (≥ `screen`; together, ≥
  `conversation_screen`): the screening card asks.
- nothing, otherwise.

Severity is the rules' (`detector.severity`) when a rule found the crisis; otherwise the
learned layer's reading of it (imminent or not), never below what the rules saw. Pure: no
Django, no database.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sessions_app.engine.safety import learned
from sessions_app.engine.safety.detector import Assessment, Category, _language_of, assess

ESCALATE, SCREEN = "escalate", "screen"
# Acts that mean one thing beside a wish to die and another on their own (giving things away
# before a move, a bottle of pills in the cupboard): found alone, the screener asks.
ACTS = frozenset({Category.PREPARATORY, Category.METHOD})
# The recent conversation: this many earlier client messages, each by its last characters, so
# that the messages together fit in one window of the learned layer (one encoder pass, not two).
RECENT_MESSAGES = 2
RECENT_CHARS = 130


@dataclass(frozen=True, slots=True)
class Verdict:
    action: str | None  # ESCALATE, SCREEN or None
    level: str | None  # L3 / L4 with ESCALATE
    source: str  # "rules", "learned", "conversation" or ""
    assessment: Assessment
    score: float
    conversation_score: float | None
    version: str

    @property
    def escalates(self) -> bool:
        return self.action == ESCALATE


def window_text(earlier: list[str], text: str) -> str:
    """The last few messages as one text, each by its last RECENT_CHARS characters."""
    return " ".join(" ".join(m.split())[-RECENT_CHARS:] for m in [*earlier, text])


@cache
def detector_version() -> str:
    """The hash of the rules, the head and its thresholds: what read a message, on record in
    every `risk.escalated` and `risk.screened`."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("patterns_*.py")):
        digest.update(path.read_bytes())
    for name in ("detector.py", "rules.py"):
        digest.update((Path(__file__).parent / name).read_bytes())
    digest.update(learned.head().version.encode())
    return digest.hexdigest()[:12]


def judge(
    text: str, locale: str, *, recent: tuple[str, ...] = (), context: bool = False
) -> Verdict:
    """The verdict on `text`; `recent` are the client's earlier messages, oldest first."""
    assessment = assess(text, locale, context=context)
    head = learned.head()
    language = _language_of(locale) or "en"
    limits = head.thresholds_for(language)
    earlier = [m for m in recent[-RECENT_MESSAGES:] if m and m.strip()]
    texts = [text]
    if earlier:
        texts.append(window_text(earlier, text))
    # A rule's finding is weighed on the full score (`trust`), whatever the gate says.
    readings = learned.read(texts, deep=assessment.positive)
    reading = readings[0]
    together = readings[1] if earlier else None

    def verdict(action, level=None, source=""):
        return Verdict(
            action,
            level,
            source,
            assessment,
            round(reading.crisis, 4),
            round(together.crisis, 4) if together else None,
            detector_version(),
        )

    def level_of(severe: float, rules_level: str | None = None) -> str:
        imminent = severe >= head.severe_threshold
        return "L4" if rules_level == "L4" or imminent else (rules_level or "L3")

    # An act alone is ambiguous; an act with a time or an explicit plan is not: "bought the
    # pills, taking them all tonight".
    ambiguous = not (assessment.categories - ACTS) and not (assessment.timed or assessment.planned)
    if assessment.positive and (context or (reading.crisis >= limits.trust and not ambiguous)):
        return verdict(ESCALATE, assessment.level, "rules")  # the rules' severity is SPEC's
    if reading.crisis >= limits.escalate:
        return verdict(ESCALATE, level_of(reading.severe, assessment.level), "learned")
    if together is not None and together.crisis >= limits.conversation_escalate:
        return verdict(ESCALATE, level_of(together.severe), "conversation")
    if assessment.positive or reading.crisis >= limits.screen:
        return verdict(SCREEN, source="rules" if assessment.positive else "learned")
    if together is not None and together.crisis >= limits.conversation_screen:
        return verdict(SCREEN, source="conversation")
    return verdict(None)
