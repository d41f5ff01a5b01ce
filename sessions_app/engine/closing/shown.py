"""What a client may be shown of earlier material (SPEC §3 Opening, QUALITY C2): hooks, recaps,
key insights and summaries are drawn only from text that is safe to read back.

Safe means: the safety net does not mark it (crisis words are never quoted back), and it does
not speak of the client in the third person. The Analyst writes its notes about "the user";
such a note reaches a client only as the Narrator would say it (the offline Narrator's person
rules, the same for every provider's notes), and is dropped when that still leaves the third
person in it.
"""

from __future__ import annotations

import re

from sessions_app import texts
from sessions_app.engine.offline import common
from sessions_app.engine.safety import detect_crisis

# The subject of the Analyst's notes in en/ru/zh, any case ("пользователю", "用户的").
THIRD_PERSON = re.compile(r"\bthe users?\b|пользовател|用户", re.IGNORECASE)
# Sentences of a longer text (a summary): each is checked on its own.
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")


def marked(text: str, locale: str) -> bool:
    """Whether the safety net marks `text`: then it is never shown back."""
    return bool(text.strip()) and detect_crisis(text, locale)


def third_person(text: str) -> bool:
    return bool(THIRD_PERSON.search(text))


def shown_note(text: str, locale: str) -> str:
    """A note (an insight, a pattern) as the client may read it, or "" when it may not be."""
    text = " ".join(str(text or "").split())
    if not text or marked(text, locale):
        return ""
    if third_person(text):
        text = common.second_person_statement(text, texts.lang_of(locale), formal=False)
    return "" if third_person(text) or marked(text, locale) else text


def shown_summary(text: str, locale: str) -> str:
    """A summary without the sentences the net marks or that speak of "the user"."""
    kept = [
        sentence.strip()
        for sentence in _SENTENCE.findall(str(text or ""))
        if sentence.strip() and not marked(sentence, locale) and not third_person(sentence)
    ]
    return texts.sentences(locale, *kept)
