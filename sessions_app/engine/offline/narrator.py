"""The offline Narrator: the Analyst's third-person questions become the client's cards.

Context it reads: `locale`, `address` ("formal" for Russian "вы"; default "ты"), `questions`
(third person), `insight` (third person, optional), `closing` (bool: write the closing line),
`next_session_date` (ISO date, optional), `today` (ISO date, optional), `mood_delta`,
`fatigue` (bool).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from sessions_app.engine.offline import common
from sessions_app.texts import WEEKDAY_PHRASES

MONTHS = {
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "ru": (
        "января",
        "февраля",
        "марта",
        "апреля",
        "мая",
        "июня",
        "июля",
        "августа",
        "сентября",
        "октября",
        "ноября",
        "декабря",
    ),
}
# Warm, plain, no jargon, no praise of the client (anti-sycophancy), never the insight again.
# Each line: (English, Russian "ты", Russian "вы").
CLOSING_LINES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "declining": (
        (
            "Thank you for staying with this today, even when it was heavy.",
            "Спасибо, что остался с этим сегодня, даже когда было тяжело.",
            "Спасибо, что остались с этим сегодня, даже когда было тяжело.",
        ),
        (
            "It was not an easy conversation, and you still stayed with it.",
            "Разговор был непростым, и ты всё равно в нём остался.",
            "Разговор был непростым, и вы всё равно в нём остались.",
        ),
    ),
    "stable": (
        (
            "That was honest work today. Take from it what feels useful.",
            "Сегодня был честный разговор. Возьми из него то, что кажется полезным.",
            "Сегодня был честный разговор. Возьмите из него то, что кажется полезным.",
        ),
        (
            "Some of this will keep settling over the next days, and that is fine.",
            "Что-то из этого ещё уляжется в ближайшие дни, и это нормально.",
            "Что-то из этого ещё уляжется в ближайшие дни, и это нормально.",
        ),
    ),
    "improving": (
        (
            "Something seems a little lighter than at the start. Notice it over the next days.",
            "Кажется, сейчас чуть легче, чем в начале. Заметь это в ближайшие дни.",
            "Кажется, сейчас чуть легче, чем в начале. Заметьте это в ближайшие дни.",
        ),
        (
            "It sounds like a bit more room opened up today. Let it be there.",
            "Похоже, сегодня стало чуть больше пространства. Пусть оно побудет.",
            "Похоже, сегодня стало чуть больше пространства. Пусть оно побудет.",
        ),
    ),
    "fatigue": (
        (
            "Let's leave it here for today. Rest matters too.",
            "Давай на этом остановимся. Отдых тоже важен.",
            "Давайте на этом остановимся. Отдых тоже важен.",
        ),
        (
            "It is fine to stop here. Rest is part of this.",
            "Здесь можно остановиться. Отдых — тоже часть пути.",
            "Здесь можно остановиться. Отдых — тоже часть пути.",
        ),
    ),
}


def narrate(context: dict[str, Any]) -> dict[str, Any]:
    lang = common.lang_of(context)
    formal = context.get("address") == "formal"
    cards = []
    for text in [str(q) for q in context.get("questions") or [] if str(q).strip()][:2]:
        card = common.second_person_question(text, lang, formal=formal)
        cards.append({"id": len(cards) + 1, "text": card, "type": "open"})
    insight = context.get("insight")
    return {
        "cards": cards,
        "insight": common.second_person_statement(str(insight), lang, formal=formal)
        if insight
        else None,
        "closing_line": _closing_line(context, lang, formal) if context.get("closing") else None,
    }


def _closing_line(context: dict[str, Any], lang: str, formal: bool) -> str:
    mood = "fatigue" if context.get("fatigue") else str(context.get("mood_delta") or "stable")
    variants = CLOSING_LINES.get(mood, CLOSING_LINES["stable"])
    english, informal, formal_ru = variants[_stable_index(context, len(variants))]
    line = english if lang == "en" else (formal_ru if formal else informal)
    return f"{line} {_see_you(context, lang)}"


def _stable_index(context: dict[str, Any], size: int) -> int:
    # Deterministic variety: the same session facts always pick the same line.
    facts = (context.get("next_session_date"), context.get("turn_count"), context.get("mood_delta"))
    seed = "|".join(str(fact) for fact in facts)
    return int(hashlib.sha256(seed.encode()).hexdigest(), 16) % size


def _see_you(context: dict[str, Any], lang: str) -> str:
    date = _parse_date(context.get("next_session_date"))
    if date is None:
        return "До встречи в следующий раз." if lang == "ru" else "See you next time."
    weekday = WEEKDAY_PHRASES[lang][date.weekday()]
    today = _parse_date(context.get("today"))
    far = today is not None and (date - today).days >= 7
    when = f"{weekday}, {date.day} {MONTHS[lang][date.month - 1]}" if far else weekday
    return f"До встречи {when}." if lang == "ru" else f"See you on {when}."


def _parse_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None
