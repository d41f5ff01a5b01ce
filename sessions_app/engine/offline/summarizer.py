"""The offline summarizer: a record of the WHOLE session in ≤ 1000 characters.

Context it reads: `locale`, `cbt_focus`, `pairs` [{question, answer}] in order — or `dialogue`
[{role, text}] where role "client" marks the client's words — `insights` (shown insights),
`token_budget` (for the client's words; default 200). When the words do not fit, the middle is
dropped (`budget.truncate_middle`), never the end.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from psychologist.llm.budget import clip_middle, truncate_middle
from sessions_app import texts
from sessions_app.engine import homework
from sessions_app.engine.agents.schemas import SUMMARY_MAX_CHARS
from sessions_app.engine.language import detectors
from sessions_app.engine.offline import common, listening
from sessions_app.engine.offline.banks import (
    FOCUS_LABELS,
    INSIGHT_BY_FOCUS,
    INSIGHT_BY_THEME,
    TECHNIQUES_BY_FOCUS,
    TECHNIQUES_BY_THEME,
    THEME_LABELS,
)
from sessions_app.engine.safety import detect_crisis

DEFAULT_TOKEN_BUDGET = 200
EXCERPT_CHARS = 140


def summarise(context: dict[str, Any]) -> dict[str, Any]:
    lang = common.lang_of(context)
    locale = str(context.get("locale") or "en")
    answers = _client_words(context)
    themes = common.themes_in(answers)
    focus = common.focus_for(context, themes)
    header = _header(lang, focus, answers, themes, locale, escalated=bool(context.get("crisis")))
    room_tokens = max(0, (SUMMARY_MAX_CHARS - len(header) - 40) // 4)
    budget = min(int(context.get("token_budget") or DEFAULT_TOKEN_BUDGET), room_tokens)
    # The client reads its summary: words the safety net marks are never quoted back in it.
    quotable = [answer for answer in answers if not detect_crisis(answer, locale)]
    excerpts = [common.clip_words(answer, EXCERPT_CHARS) for answer in quotable]
    kept = truncate_middle(excerpts, budget_tokens=budget, marker=lambda n: _omitted(n, lang))
    quoted = " / ".join(f"«{line}»" if line[:1] != "[" else line for line in kept)
    body = texts.say(_("In the client's words: {words}"), lang, words=quoted)
    summary = clip_middle(f"{header} {body}" if kept else header, max_chars=SUMMARY_MAX_CHARS)
    return {
        "summary": summary,
        "key_insights": _key_insights(
            context,
            lang,
            focus,
            themes,
            _trend(answers, str(context.get("locale") or "en")) == "improving",
        ),
        "cbt_techniques_used": _techniques(focus, themes),
        "tasks": _tasks(context, answers, focus, themes),
    }


def _omitted(count: int, lang: str) -> str:
    return texts.plural(OMITTED, count, lang)


def _tasks(
    context: dict[str, Any], answers: list[str], focus: str, themes: list[str]
) -> list[dict[str, str]]:
    """Homework from the banks: none in a crisis, or when the engine says none."""
    locale = str(context.get("locale") or "en")
    if context.get("homework") is False or any(detect_crisis(a, locale) for a in answers):
        return []
    return homework.offline_tasks(
        locale=locale,
        focus=focus,
        themes=themes,
        topic=common.clip_words(str(context.get("topic") or ""), 60),
        turn_count=int(context.get("turn_count") or len(answers)),
        fatigue=any(detectors.detect_fatigue(a, locale) for a in answers[-2:]),
    )


def _client_words(context: dict[str, Any]) -> list[str]:
    pairs = context.get("pairs")
    if pairs:
        return [str(p.get("answer", "")) for p in pairs if isinstance(p, dict) and p.get("answer")]
    return [
        str(line.get("text", ""))
        for line in context.get("dialogue") or []
        if isinstance(line, dict) and line.get("role") == "client" and line.get("text")
    ]


FOCUS_COUNT = ngettext_lazy(
    "Focus: {focus}. {count} answer.", "Focus: {focus}. {count} answers.", "count"
)
OMITTED = ngettext_lazy("[… {count} more …]", "[… {count} more …]", "count")
HEADER_WORDS = {
    "themes": _("Themes: {labels}."),
    "improving": _("Mood grew lighter towards the end."),
    "declining": _("Mood grew heavier towards the end."),
    "stable": _("Mood stayed even through the session."),
    "fatigue": _("The client asked to stop because of tiredness."),
    "crisis": _("A possible risk signal came up."),
    # The mood of a session that escalated: a crisis, whatever the words' trend read.
    "escalated": _("The conversation turned to a crisis, and a counselor was alerted."),
}


def _header(
    lang: str, focus: str, answers: list[str], themes: list[str], locale: str, *, escalated: bool
) -> str:
    labels = texts.listed([common.pick(lang, THEME_LABELS[t]) for t in themes[:4]], lang)
    fatigue = any(detectors.detect_fatigue(a, locale) for a in answers[-2:])
    crisis = any(detect_crisis(a, locale) for a in answers)
    focus_label = common.pick(lang, FOCUS_LABELS[focus])
    count = texts.plural(FOCUS_COUNT, len(answers), lang, focus=focus_label)
    if escalated:
        words = ["escalated"]
    else:
        words = [_trend(answers, locale), *(["fatigue"] if fatigue else [])]
        words += ["crisis"] if crisis else []
    parts = [count]
    parts += [texts.say(HEADER_WORDS["themes"], lang, labels=labels)] if labels else []
    parts += [texts.say(HEADER_WORDS[word], lang) for word in words]
    return " ".join(parts)


def _trend(answers: list[str], locale: str) -> str:
    # The same reading as the Analyst's and the closing's: they must not disagree.
    return detectors.session_mood(answers, locale)


def _key_insights(
    context: dict[str, Any], lang: str, focus: str, themes: list[str], improving: bool
) -> list[str]:
    shown = [
        common.clip_words(str(i), 200) for i in context.get("insights") or [] if str(i).strip()
    ]
    if shown:
        # An insight shown twice is one insight: stored once.
        return list(dict.fromkeys(shown))[:3]
    found = [common.pick(lang, INSIGHT_BY_THEME[t]) for t in themes if t in INSIGHT_BY_THEME]
    found.append(common.pick(lang, INSIGHT_BY_FOCUS[focus]))
    # "It gets lighter…" only when it did.
    supported = [i for i in found if improving or not listening.claims_improvement(i, lang)]
    # The banks' patterns speak of "the user": the client reads them as the Narrator says them.
    formal = context.get("address") == "formal"
    gender = str(context.get("gender") or "")
    return [
        common.second_person_statement(i, lang, formal=formal, gender=gender) for i in supported[:2]
    ]


def _techniques(focus: str, themes: list[str]) -> list[str]:
    techniques = list(TECHNIQUES_BY_FOCUS[focus])
    techniques += [TECHNIQUES_BY_THEME[t] for t in themes if t in TECHNIQUES_BY_THEME]
    return list(dict.fromkeys(techniques))[:4]
