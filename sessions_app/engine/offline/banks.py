"""The offline engine's data: question banks, insights, themes, labels and closing lines, one
file per language in `banks/` (en, ru, zh). Every question is written in the third person,
exactly as the Analyst must write it; the Narrator's grammar rules turn it into the card the
client reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

FOCI = (
    "cognitive_restructuring",
    "behavioral_activation",
    "emotion_regulation",
    "problem_solving",
)
STAGES = ("opening", "exploring", "deepening")


LANGS = ("en", "ru", "zh")
_DIR = Path(__file__).with_name("banks")


def _load(lang: str) -> dict[str, Any]:
    with open(_DIR / f"{lang}.json", encoding="utf-8") as handle:
        return json.load(handle)


DATA = {lang: _load(lang) for lang in LANGS}


class BankQuestion(NamedTuple):
    tags: tuple[str, ...]
    en: str
    ru: str
    zh: str


def _bank() -> dict[str, dict[str, tuple[BankQuestion, ...]]]:
    """The three files' questions side by side: the same focus, stage and place is the same
    question, so a session's "already asked" holds across a change of language."""
    bank: dict[str, dict[str, tuple[BankQuestion, ...]]] = {}
    for focus in FOCI:
        bank[focus] = {}
        for stage in STAGES:
            rows = zip(*(DATA[lang]["bank"][focus][stage] for lang in LANGS), strict=True)
            bank[focus][stage] = tuple(
                BankQuestion(tuple(en["tags"]), en["text"], ru["text"], zh["text"])
                for en, ru, zh in rows
            )
    return bank


def _by_lang(key: str) -> dict[str, tuple[str, ...]]:
    """{name: (en, ru, zh)} from each file's table `key`."""
    return {name: tuple(DATA[lang][key][name] for lang in LANGS) for name in DATA["en"][key]}


BANK = _bank()
REFOCUS_QUESTION = {lang: DATA[lang]["refocus_question"] for lang in LANGS}
SAFETY_QUESTION = {lang: DATA[lang]["safety_question"] for lang in LANGS}
# Insights by theme first, then by focus; third person, like everything the Analyst writes.
INSIGHT_BY_THEME = _by_lang("insight_by_theme")
INSIGHT_BY_FOCUS = _by_lang("insight_by_focus")
# Theme detection: regexes over normalized client text, every language's at once (clients mix).
THEMES: dict[str, tuple[str, ...]] = {
    theme: tuple(p for lang in LANGS for p in DATA[lang]["themes"][theme])
    for theme in DATA["en"]["themes"]
}
CLOSING_LINES = {lang: DATA[lang]["closing_lines"] for lang in LANGS}

# The theme that most points at a focus, used when the session has no CBT focus yet.
FOCUS_BY_THEME = {
    "thought": "cognitive_restructuring",
    "selfcrit": "cognitive_restructuring",
    "evidence": "cognitive_restructuring",
    "energy": "behavioral_activation",
    "sleep": "behavioral_activation",
    "avoid": "behavioral_activation",
    "anxiety": "emotion_regulation",
    "anger": "emotion_regulation",
    "sadness": "emotion_regulation",
    "body": "emotion_regulation",
    "decision": "problem_solving",
    "plan": "problem_solving",
    "work": "problem_solving",
}

# Closure: the client signals the topic has landed ("now I see it", "понятно", "我明白了").
CLOSURE = tuple(p for lang in LANGS for p in DATA[lang]["closure"])
THEME_LABELS = _by_lang("theme_labels")
FOCUS_LABELS = _by_lang("focus_labels")

# Canonical English technique names, so statistics can group them across locales.
TECHNIQUES_BY_FOCUS = {
    "cognitive_restructuring": ("Socratic questioning", "Identifying automatic thoughts"),
    "behavioral_activation": ("Activity monitoring", "Activity scheduling"),
    "emotion_regulation": ("Emotion labelling", "Mindful observation of feelings"),
    "problem_solving": ("Problem definition", "Generating alternatives"),
}
TECHNIQUES_BY_THEME = {
    "evidence": "Examining the evidence",
    "selfcrit": "Compassionate self-talk",
    "plan": "Action planning",
    "body": "Body awareness",
    "avoid": "Approaching avoided situations",
}
