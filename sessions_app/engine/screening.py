"""The screening card (SPEC §3): when the safety net is unsure, the engine asks as a counselor
would — the first questions of the C-SSRS screener, plainly and warmly, in the client's
language. Deterministic: no model writes or reads them.

1. "wish": thoughts of not being alive or of ending one's life? A yes asks 2; a no records
   `risk.screened` and the dialogue resumes where it was; an unclear answer is asked once more,
   more simply, and unclear again is taken as a yes (a person looks).
2. "how": thoughts of how, a plan, anything done to prepare? A yes escalates at L4, anything
   else at L3.

The answers are free text like any card's, and the safety net reads them first: a crisis in the
answer escalates at once. Asked at most once a session unless a clearly stronger signal comes
(`STRONGER`); never while a counselor holds the conversation (the counselor asks), never in
the crisis flow, never in the closing's scheduler or last thing.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.dealer import SCREENING, Turn, new_card
from sessions_app.engine.flows import CRISIS_FLOW
from sessions_app.engine.safety import Verdict, normalize
from sessions_app.events import EventType
from sessions_app.models import AskSession

WISH, HOW = "wish", "how"
YES, NO, UNCLEAR = "yes", "no", "unclear"
# A second screening in one session needs a score at least this much above the first's.
STRONGER = 0.15
SLOT = "screening"

# Words that answer a yes/no question, after `normalize` (lower case, ё → е, traditional → simplified,
# repeated letters squeezed). A "no" anywhere at the start wins over a yes later ("no, not
# really, yes I'm tired"); Russian typed on an English layout ("lf" = "да", "ytn" = "нет") too.
_NO_EN = (
    r"no|nope|nah|nay|naw|never|not really|not at all|not once|of course not|god no|"
    r"hell no|no way|definitely not|i haven'?t|i have not|havent|i don'?t think so|no never|"
    r"not that|not like that|noo?|n"
)
_YES_EN = (
    r"yes|yeah|yea|ye|yep|yup|ya|yas|yse|yess?|y|sure|sometimes|often|a lot|a bit|a little|"
    r"kind of|kinda|sort of|i have|i do|have|maybe a little|more than|honestly yes|"
    r"i guess|i think so|once|a few times|every day|all the time|lately|recently|true|correct|"
    r"mhm|uh huh|affirmative|ok yes"
)
_NO_RU = (
    r"нет|неа|не|ни ?разу|никогда|не было|не бывало|нету|вовсе нет|конечно нет|нет-нет|"
    r"ytn|ytf"
)
_YES_RU = (
    r"да|ага|угу|ну да|бывало|бывали|бывает|было|есть|есть такое|иногда|часто|случается|"
    r"думал|думала|думаю|конечно|честно да|возможно да|немного|lf|fuf"
)
_NO_ZH = r"没有|沒有|没|不|不是|从来没|從來沒|没想过|不会|没有过|没有啦|无|no"
_YES_ZH = r"有|有过|有的|嗯|恩|是|是的|对|對|想过|偶尔|經常|经常|有时候|有时|会|好像有|有吧|yes"

_START = r"^\W*(?:{})(?:\b|(?=\W)|$)"
_PATTERNS = {
    NO: [re.compile(_START.format(p)) for p in (_NO_EN, _NO_RU)],
    YES: [re.compile(_START.format(p)) for p in (_YES_EN, _YES_RU)],
}
_ZH_NO = re.compile(r"^\W*(?:" + _NO_ZH + ")")
_ZH_YES = re.compile(r"^\W*(?:" + _YES_ZH + ")")


def answer_of(text: str) -> str:
    """YES, NO or UNCLEAR: how `text` answers a yes/no question, in English, Russian or
    Chinese, typos and all."""
    said = normalize(text or "").strip()
    if not said:
        return UNCLEAR
    if _ZH_NO.match(said):
        return NO
    if _ZH_YES.match(said):
        return YES
    for pattern in _PATTERNS[NO]:
        if pattern.match(said):
            return NO
    for pattern in _PATTERNS[YES]:
        if pattern.match(said):
            return YES
    return UNCLEAR


def screening_allowed(session: AskSession, verdict: Verdict, card: dict[str, Any]) -> bool:
    """Whether the band's verdict may deal the screening card now."""
    if session.counselor_speaking or session.current_intent_code == CRISIS_FLOW:
        return False
    if session.intervention_triggered or card.get("kind") == SCREENING:
        return False
    if session.phase == AskSession.Phase.CLOSING:
        return False
    before = session.slots.get(SLOT)
    return before is None or verdict.score >= float(before.get("score", 0)) + STRONGER


def screening_start(turn: Turn, verdict: Verdict, card: dict[str, Any], message_id: int) -> None:
    """Deal the first screening question. The card carries what it interrupted (the rest of the
    batch, or the Analyst's turn), so that a "no" resumes exactly there."""
    session = turn.session
    turn.set(
        slots={
            **session.slots,
            SLOT: {
                "score": verdict.score,
                "source": verdict.source,
                "message_id": message_id,
                "at": timezone.now().isoformat(),
            },
        }
    )
    _ask(turn, WISH, card, asks=0, since=card.get("analysis") or card.get("batch") or message_id)


def _ask(turn: Turn, step: str, carried: dict[str, Any], *, asks: int, since: int) -> None:
    key = {WISH: "screening_wish", HOW: "screening_how"}[step]
    if asks:
        key = "screening_wish_again"
    question = new_card(texts.text(key, turn.session.locale), SCREENING)
    question |= {"step": step, "asks": asks}
    turn.deal(
        question,
        list(carried.get("queue") or []),
        batch=carried.get("batch") or since,
        analysis=carried.get("analysis"),
    )


def screening_answer(turn: Turn, text: str, card: dict[str, Any]) -> tuple[str, str | None]:
    """Read the client's answer to a screening card. Returns (outcome, level): ("ask", None)
    when another question was dealt, ("escalate", "L3"/"L4") when the screener says crisis,
    ("resume", None) when it says no — the caller resumes the interrupted dialogue."""
    answer = answer_of(text)
    step = card.get("step") or WISH
    asks = int(card.get("asks") or 0)
    since = card.get("batch") or card.get("message_id")
    if step == WISH:
        if answer == NO:
            _screened(turn, answers=[NO])
            return "resume", None
        if answer == UNCLEAR and asks == 0:
            _ask(turn, WISH, card, asks=1, since=since)
            return "ask", None
        _ask(turn, HOW, card, asks=0, since=since)
        return "ask", None
    return "escalate", "L4" if answer == YES else "L3"


def _screened(turn: Turn, *, answers: list[str]) -> None:
    screening = turn.session.slots.get(SLOT) or {}
    from sessions_app.engine.safety.verdict import detector_version

    turn.event(
        EventType.RISK_SCREENED,
        "client",
        result="negative",
        answers=answers,
        score=screening.get("score"),
        source=screening.get("source"),
        detector_version=detector_version(),
    )
