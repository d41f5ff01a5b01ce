"""The offline Analyst: the next questions, risk, pacing and mood from the session's facts.

Context it reads (all optional): `locale`, `cbt_focus`, `phase`, `turn_count` (completed
question+answer rounds), `recap` [{question, answer}] — the batch just answered,
`last_client_text`, `asked_questions` (every third-person question asked this session),
`earlier_questions` (those asked in the client's last sessions: not asked again),
`flow_step`, `allowed_next`, `slots`, `address` ("formal" for Russian "вы"), `gender` (the
client's grammatical gender, "femn" / "masc" / "" unknown), `counselor_guidance` (the steer
notes since the last batch: a topic they name leads the questions, nothing else is read).
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from sessions_app import texts
from sessions_app.engine.language import detectors
from sessions_app.engine.offline import common, grammar_ru, listening
from sessions_app.engine.offline.banks import (
    BANK,
    CLOSURE,
    INSIGHT_BY_FOCUS,
    INSIGHT_BY_THEME,
    LANGS,
    REFOCUS_QUESTION,
    SAFETY_QUESTION,
    STAGES,
    THEME_LABELS,
    BankQuestion,
)
from sessions_app.engine.safety import crisis_escalates

MAY_COMPLETE_AFTER = 4
MUST_COMPLETE_AFTER = 7
# Words about thinking, plans and choices run through every answer: they open no new topic.
GENERIC_THEMES = frozenset({"thought", "plan", "decision"})
MOOD = {
    "declining": pgettext_lazy("mood", "declining"),
    "stable": pgettext_lazy("mood", "stable"),
    "improving": pgettext_lazy("mood", "improving"),
}
BATCH_ANSWERS = ngettext_lazy(
    "{count} answer in this batch.", "{count} answers in this batch.", "count"
)
OBSERVED = {
    "fatigue": _("The user is tired and wants to stop; no new questions."),
    "meta": _("The user asked about the conversation itself; focus gently returned."),
    "crisis": _("The user's words contain a possible risk signal."),
}
_CLOSURE = tuple(re.compile(pattern) for pattern in CLOSURE)


def analyse(context: dict[str, Any]) -> dict[str, Any]:
    lang = common.lang_of(context)
    turn_count = int(context.get("turn_count") or 0)
    slots = dict(context.get("slots") or {})
    pairs = common.recap_pairs(context)
    answers = [answer for _, answer in pairs]
    locale = str(context.get("locale") or "en")
    crisis, fatigue, meta = _signals(context, answers, locale)
    batch_themes = common.themes_in(answers)
    known = [t for t in str(slots.get("themes") or "").split(",") if t]
    themes = batch_themes + [t for t in known if t not in batch_themes]
    focus = common.focus_for(context, themes)
    mood_delta, mood_now = _mood(answers, slots, locale, crisis=crisis)
    heard = _heard_themes(answers, slots, lang)

    candidates = _candidates(context, focus, themes, lang, turn_count, heard)
    complete = _session_complete(
        turn_count,
        fatigue=fatigue,
        crisis=crisis,
        meta=meta,
        exhausted=_exhausted(answers, batch_themes, known, candidates),
    )
    questions = _questions(
        lang, candidates, turn_count, complete=complete, crisis=crisis, meta=meta
    )
    insight = None
    if (complete and not fatigue and not crisis) or context.get("phase") == "insight":
        insight = _insight(lang, focus, themes, answers, improving=mood_delta == "improving")
    slots_updated = _slots_updated(
        context, slots, answers, themes, focus, mood_now, fatigue, crisis
    )
    if heard:
        slots_updated["heard_themes"] = ",".join(heard[:6])
    if answers and not isinstance(slots.get("mood_start"), int | float):
        slots_updated["mood_start"] = _mood_start(answers, locale)
    return {
        "questions": questions,
        "observation": _observation(lang, pairs, themes, mood_delta, fatigue, meta, crisis),
        "crisis_signal": crisis,
        "suggested_insight": insight,
        "session_complete": complete,
        "mood_delta": mood_delta,
        "state_after": _state_after(context, answers, complete=complete),
        "slots_updated": slots_updated,
    }


def _signals(context: dict[str, Any], answers: list[str], locale: str) -> tuple[bool, bool, bool]:
    """Crisis in anything the client wrote; fatigue in the last words; a meta question last."""
    latest = [*answers, str(context.get("last_client_text") or "")]
    latest = [text for text in latest if text.strip()]
    crisis = any(crisis_escalates(text, locale) for text in latest)
    fatigue = any(detectors.detect_fatigue(text, locale) for text in latest[-2:])
    meta = bool(latest) and detectors.detect_meta(latest[-1], locale)
    return crisis, fatigue, meta


def _stage(turn_count: int, phase: str) -> str:
    if phase == "insight" or turn_count >= 5:
        return "deepening"
    return "opening" if turn_count < 2 else "exploring"


def _candidates(
    context: dict[str, Any],
    focus: str,
    themes: list[str],
    lang: str,
    turn_count: int,
    heard: list[str],
) -> list[str]:
    """Unasked questions, best first: those that take up the client's last answer (a healthy
    step supported, a thinking trap looked at, the theme, a follow-up on the words — one of
    each kind first), then the bank's for this focus — the current stage, ranked by how many
    of the client's themes they touch, ties rotated by the turn — then its other stages as a
    reserve. Nothing asked this session or in the client's last sessions is asked again."""
    stage = _stage(turn_count, str(context.get("phase") or ""))
    asked = [str(q) for q in context.get("asked_questions") or []]
    asked += [str(q) for q in context.get("earlier_questions") or []]
    shown = [question for question, _ in common.recap_pairs(context)]
    formal = context.get("address") == "formal"
    gender = str(context.get("gender") or "")

    # Two texts are the same question when their squashed words are; each squashed once.
    asked_words = {common.squash(a) for a in asked}
    shown_words = {common.squash(s) for s in shown}

    def fresh(variants: tuple[str, ...], text: str) -> bool:
        # Asked in any language is asked: a client who changed language gets no repeat.
        if any(common.squash(v) in asked_words for v in variants):
            return False
        narrated = common.second_person_question(text, lang, formal=formal, gender=gender)
        return common.squash(narrated) not in shown_words

    ordered: list[str] = []
    # A counselor's steer note that names a topic: this batch asks from that topic's bank.
    for theme in steered_themes(context):
        variants = listening.DATA[lang]["listening"]["templates"]["theme"][theme]
        offset = turn_count % len(variants)
        for text in variants[offset:] + variants[:offset]:
            if text not in ordered and fresh((text,), text):
                ordered.append(text)
    later: list[str] = []
    tags: set[str] = set()
    quotes: set[str] = set()
    last = _last_answer(context)
    healthy = bool(listening.hear(last, lang).healthy)
    for text, tag in listening.questions(last, lang, known_themes=heard, turn=turn_count):
        if text in ordered or text in later or not fresh((text,), text):
            continue
        # One card of each kind, and the client's words read back once per batch.
        quoted = listening.quoted(text)
        again = tag in tags or bool(quoted and quoted in quotes)
        (later if again else ordered).append(text)
        tags.add(tag)
        quotes.update([quoted] if quoted and not again else [])
    # A later question does not read the same words back a second time.
    for text in later:
        text = listening.unframed(text, lang) if listening.quoted(text) in quotes else text
        if text not in ordered and fresh((text,), text):
            ordered.append(text)
    for name in (stage, *[s for s in STAGES if s != stage]):
        bank = BANK[focus][name]
        offset = turn_count % len(bank)
        rotated = bank[offset:] + bank[:offset]
        ranked = sorted(
            rotated, key=lambda q: (_gender_unknown(q, lang, context), -_relevance(q, themes))
        )
        for entry in ranked:
            text = getattr(entry, lang)
            # A healthy statement (a boundary, a plan) is supported, not put to the test.
            if "evidence" in entry.tags and healthy:
                continue
            if fresh((entry.en, entry.ru, entry.zh), text):
                ordered.append(text)
    return ordered


def steered_themes(context: dict[str, Any]) -> list[str]:
    """The topics the counselors' steer notes name ("talk about her mother" → family), read
    with the theme words of every language the offline engine speaks: a note may be written
    in another language than the client's. Nothing else in a note is followed."""
    notes = [str(note) for note in context.get("counselor_guidance") or [] if str(note).strip()]
    if not notes:
        return []
    found: list[str] = []
    for lang in LANGS:
        found += [t for t in listening.themes_of(notes, lang) if t not in found]
    return found


def _last_answer(context: dict[str, Any]) -> str:
    pairs = common.recap_pairs(context)
    answers = [answer for _, answer in pairs if answer.strip()]
    return answers[-1] if answers else str(context.get("last_client_text") or "")


def _heard_themes(answers: list[str], slots: dict[str, Any], lang: str) -> list[str]:
    """The session's themes (listening's: work, family, loss…): those heard first (the topic's)
    lead, new ones follow; the last answer's own themes are taken up before these anyway."""
    now = listening.themes_of(answers, lang)
    known = [t for t in str(slots.get("heard_themes") or "").split(",") if t]
    return known + [t for t in now if t not in known]


def _gender_unknown(question: BankQuestion, lang: str, context: dict[str, Any]) -> bool:
    """A Russian question that would agree in gender ("ты застрял"), while the client's gender
    is unknown: asked last, so that no card guesses it."""
    informal = lang == "ru" and context.get("address") != "formal"
    return informal and not context.get("gender") and grammar_ru.gendered(question.ru)


def _relevance(question: BankQuestion, themes: list[str]) -> int:
    return sum(1 for tag in question.tags if tag in themes[:3])


def _questions(
    lang: str, candidates: list[str], turn_count: int, *, complete: bool, crisis: bool, meta: bool
) -> list[str]:
    if crisis:
        return [SAFETY_QUESTION[lang]]
    if meta:
        return [REFOCUS_QUESTION[lang]]
    if complete:
        return []
    # Fewer questions per batch as the session matures: the conversation narrows.
    return candidates[: 1 if turn_count >= MAY_COMPLETE_AFTER else 2]


def _session_complete(
    turn_count: int, *, fatigue: bool, crisis: bool, meta: bool, exhausted: bool
) -> bool:
    if crisis:
        return False  # The crisis flow takes over; closing now would drop the client.
    if fatigue or turn_count >= MUST_COMPLETE_AFTER:
        return True
    return turn_count >= MAY_COMPLETE_AFTER and exhausted and not meta


def _exhausted(
    answers: list[str], batch_themes: list[str], known: list[str], candidates: list[str]
) -> bool:
    if not candidates:
        return True
    if not answers:
        return False
    opened = [t for t in batch_themes if t not in known and t not in GENERIC_THEMES]
    if opened and known:
        return False  # A new theme opened: keep going (session-design §8.2).
    closure = any(p.search(detectors.normalize(a)) for a in answers for p in _CLOSURE)
    short = all(len(detectors.words(answer)) < 4 for answer in answers)
    return closure or short


def _mood(
    answers: list[str], slots: dict[str, Any], locale: str, *, crisis: bool
) -> tuple[str, float | None]:
    """The trend from the session's start (its first answers) to this batch's last answers,
    as the summary and the closing read it (`detectors.mood_trend`)."""
    if not answers:
        return ("declining" if crisis else "stable"), None
    # Against the session's start; a session begun before it was kept, its previous batch.
    start = next(
        (slots[k] for k in ("mood_start", "mood_score") if isinstance(slots.get(k), int | float)),
        None,
    )
    start = float(start) if start is not None else _mood_start(answers, locale)
    now = round(detectors.mood_of(answers[-2:], locale), 2)
    trend = detectors.mood_trend(start, now)
    return ("declining" if crisis else trend), now


def _mood_start(answers: list[str], locale: str) -> float:
    return round(detectors.mood_of(answers[:2], locale), 2)


def _insight(
    lang: str, focus: str, themes: list[str], answers: list[str], *, improving: bool
) -> str:
    """The client's own words read back, then the pattern of its theme or focus; a pattern
    that says things got lighter only when the mood did improve."""
    patterns = [common.pick(lang, INSIGHT_BY_THEME[t]) for t in themes if t in INSIGHT_BY_THEME]
    patterns.append(common.pick(lang, INSIGHT_BY_FOCUS[focus]))
    supported = [p for p in patterns if improving or not listening.claims_improvement(p, lang)]
    pattern = supported[0] if supported else ""
    clause = next((c for a in reversed(answers) if (c := listening.quotable(a, lang))), "")
    if not clause:
        return pattern
    frame = listening.DATA[lang]["listening"]["frame"].format(quote=listening.quote(clause, lang))
    return texts.sentences(lang, pattern, frame) if pattern else frame


def _observation(
    lang: str,
    pairs: list[tuple[str, str]],
    themes: list[str],
    mood_delta: str,
    fatigue: bool,
    meta: bool,
    crisis: bool,
) -> str:
    labels = texts.listed([common.pick(lang, THEME_LABELS[t]) for t in themes[:3]], lang)
    parts = [texts.plural(BATCH_ANSWERS, len(pairs), lang)]
    parts += [texts.say(_("Themes: {labels}."), lang, labels=labels)] if labels else []
    parts.append(texts.say(_("Mood: {mood}."), lang, mood=texts.say(MOOD[mood_delta], lang)))
    parts += [texts.say(OBSERVED["fatigue"], lang)] if fatigue else []
    parts += [texts.say(OBSERVED["meta"], lang)] if meta else []
    parts += [texts.say(OBSERVED["crisis"], lang)] if crisis else []
    return " ".join(parts)


def _state_after(context: dict[str, Any], answers: list[str], *, complete: bool) -> str:
    step = str(context.get("flow_step") or "dialogue")
    allowed = context.get("allowed_next")
    allowed = list(allowed) if allowed is not None else ["topic", "dialogue", "insight", "closing"]
    if complete:
        return next((s for s in ("insight", "closing") if s in allowed), step)
    if step in ("intro", "topic") and answers and "dialogue" in allowed:
        return "dialogue"
    return step


def _slots_updated(
    context: dict[str, Any],
    slots: dict[str, Any],
    answers: list[str],
    themes: list[str],
    focus: str,
    mood_now: float | None,
    fatigue: bool,
    crisis: bool,
) -> dict[str, Any]:
    # Scalars only: slots share the conversation-variable limits (keys ≤ 30, values ≤ 200).
    updated: dict[str, Any] = {"cbt_focus": focus}
    if themes:
        updated["themes"] = ",".join(themes[:6])
    if mood_now is not None:
        updated["mood_score"] = mood_now
    if answers and not slots.get("topic") and context.get("flow_step") in ("intro", "topic"):
        updated["topic"] = common.clip_words(answers[0], 120)
    if fatigue:
        updated["fatigue"] = True
    if crisis:
        updated["crisis"] = True
    return updated
