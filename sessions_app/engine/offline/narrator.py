"""The offline Narrator: the Analyst's third-person questions become the client's cards.

Context it reads: `locale`, `address` ("formal" for Russian "вы"; default "ты"), `gender`
(the client's grammatical gender for Russian "ты": "femn", "masc", "" unknown), `questions`
(third person), `insight` (third person, optional), `closing` (bool: write the closing line),
`next_session_date` (ISO date, optional), `today` (ISO date, optional), `mood_delta`,
`fatigue` (bool), `topic` (the client's topic, quoted in the closing line).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from sessions_app import texts
from sessions_app.engine.offline import common
from sessions_app.engine.offline.banks import CLOSING_LINES


def narrate(context: dict[str, Any]) -> dict[str, Any]:
    lang = common.lang_of(context)
    formal = context.get("address") == "formal"
    gender = str(context.get("gender") or "")
    cards = []
    for text in [str(q) for q in context.get("questions") or [] if str(q).strip()][:2]:
        card = common.second_person_question(text, lang, formal=formal, gender=gender)
        cards.append({"id": len(cards) + 1, "text": card, "type": "open"})
    insight = context.get("insight")
    return {
        "cards": cards,
        "insight": common.second_person_statement(str(insight), lang, formal=formal, gender=gender)
        if insight
        else None,
        "closing_line": _closing_line(context, lang, formal) if context.get("closing") else None,
    }


def _closing_line(context: dict[str, Any], lang: str, formal: bool) -> str:
    mood = "fatigue" if context.get("fatigue") else str(context.get("mood_delta") or "stable")
    lines = CLOSING_LINES[lang]
    variants = lines.get(mood, lines["stable"])
    line = variants[_stable_index(context, len(variants))]["formal" if formal else "informal"]
    # What the client brought, in its own words: the line is about this session, not any.
    topic = common.clip_words(str(context.get("topic") or ""), TOPIC_CHARS).strip(" .")
    opening = texts.text("closing_topic", lang, topic=topic) if topic else ""
    return texts.sentences(lang, opening, line, _see_you(context, lang))


TOPIC_CHARS = 60


def _stable_index(context: dict[str, Any], size: int) -> int:
    # Deterministic variety: the same session facts always pick the same line.
    facts = (context.get("next_session_date"), context.get("turn_count"), context.get("mood_delta"))
    seed = "|".join(str(fact) for fact in facts)
    return int(hashlib.sha256(seed.encode()).hexdigest(), 16) % size


def _see_you(context: dict[str, Any], lang: str) -> str:
    date = _parse_date(context.get("next_session_date"))
    if date is None:
        return texts.text("see_you_later", lang)
    weekday = texts.weekday_name(date.isoweekday(), lang)
    today = _parse_date(context.get("today"))
    if today is not None and (date - today).days >= 7:
        return texts.text("see_you_date", lang, weekday=weekday, date=texts.day_month(date, lang))
    return texts.text("see_you", lang, weekday=weekday)


def _parse_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None
