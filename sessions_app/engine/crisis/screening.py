"""The screening card (SPEC §3): when the safety net is unsure, the engine asks as a counselor
would — the first questions of the C-SSRS screener, plainly and warmly, in the client's
language. Deterministic: no model writes or reads them.

1. "wish": thoughts of not being alive or of ending one's life? A yes asks 2; a no records
   `risk.screened` and the dialogue resumes where it was; an unclear answer is asked once more,
   more simply, and unclear again resumes the dialogue too, with `risk.screened` saying so and
   the on-duty counselors asked to look (a review, not a crisis page: the net goes on reading
   every word, and a counselor decides).
2. "how": thoughts of how, a plan, anything done to prepare? A yes escalates at L4, anything
   else at L3.

The answers are free text like any card's, and the safety net reads them first: a crisis in the
answer escalates at once. Asked at most once a session unless a clearly stronger signal comes
(`STRONGER`); never in a session a counselor has claimed (the counselor asks), never in
the crisis flow, never in the closing's scheduler or last thing.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.cards.dealer import SCREENING, Turn, new_card
from sessions_app.engine.flows.validator import CRISIS_FLOW
from sessions_app.engine.safety import Verdict, detector_version, normalize
from sessions_app.events import EventType
from sessions_app.models import AskSession

WISH, HOW = "wish", "how"
YES, NO, UNCLEAR = "yes", "no", "unclear"
# A second screening in one session needs a score at least this much above the first's.
STRONGER = 0.15
SLOT = "screening"

# How a yes/no question is answered, after `normalize` (lower case, ё → е, traditional →
# simplified, repeated letters squeezed), clause by clause: the first clause that says
# anything decides, by what it says first ("no, I'd never hurt myself" is a no, "не, просто
# устала" too, "honestly? yes" a yes, "не знаю" unclear). Russian typed on an English layout
# ("lf" = "да", "ytn" = "нет") and in Latin letters ("da", "net") too.
_UNCLEAR = (
    r"\b(?:i )?(?:don'?t|dont|do not) know\b|\bidk\b|\bnot sure\b|\bhard to say\b|"
    r"\bno idea\b|\bwhy do you ask|\bi'?d rather not\b|\bcan'?t say\b|"
    r"не знаю|не уверен|сложно сказать|трудно сказать|без понятия|не помню|не могу сказать|"
    r"не хочу об этом|не готов|зачем (?:вы|ты) спрашива|"
    r"不知道|不好说|说不清|说不好|不清楚|不记得|不太想回答|不想说|怎么说呢|为什么问|可能有|也不算|"
    r"may ?be|perhaps|может быть|может, а|наверное нет|что будет|what happens if"
)
_NO = (
    r"\b(?:no|nope|nah|nay|naw|never|not really|not at all|not once|absolutely not|"
    r"definitely not|of course not|no way|haven'?t|have not|not me|net|nikogda)\b|"
    r"\bno+p?e?\b|\bnot (?:even|ever|once)\b|"
    r"(?<![а-я])(?:нет|неа|неть|нету|никогда|ни разу|не было|не бывало|не бывает|"
    r"не думал|не думала|не думаю|такого нет|ytn)(?![а-я])|^\W*не(?![а-я])|"
    r"没有|沒有|没想过|没想|没呢|从没|从来没|木有|不会|不是|不至于|完全没|真没|还没到|mei ?you|"
    r"^\W*(?:没|不)\W*$"
)
_YES = (
    r"\b(?:yes|yeah|yea|ye|yep|yup|ya|yh|yas|yse|sure|sometimes|often|occasionally|"
    r"at times|daily|every day|all the time|a lot|a bit|a little|kind of|kinda|sort of|"
    r"i have|i did|i had|i've had|i've thought|crossed my mind|thought about it|constantly|"
    r"lately|recently|mhm|uh huh|on and off|more often than not|more than|few times|"
    r"true|da|uhu|yes+)\b|"
    r"(?<![а-я])(?:да+|ага|угу|уг|бывало|бывали|бывает|бывают|было|были|есть|иногда|часто|"
    r"частенько|случается|думал|думала|думаю|постоянно|регулярно|каждый день|увы|"
    r"к сожалению|немного|сегодня|последнее время|lf|дп|дв)(?![а-я])|"
    r"(?<![没沒])有|嗯|恩|是的|^\W*是|对|(?<![没沒])想过|会|偶尔|经常|有时|一直|确实|dui"
)
_UNCLEAR_RE, _NO_RE, _YES_RE = (re.compile(p) for p in (_UNCLEAR, _NO, _YES))
_CLAUSES = re.compile(r"[,.;!?…，。；！？、]+|\s+(?:but|но|а|但是|但)\s+")


def answer_of(text: str) -> str:
    """YES, NO or UNCLEAR: how `text` answers a yes/no question, in English, Russian or
    Chinese, typos and all."""
    said = normalize(text or "").strip()
    for clause in _CLAUSES.split(said):
        cues = [
            (match.start(), rank, answer)  # at one place: unclear, then no, then yes
            for rank, (answer, pattern) in enumerate(
                ((UNCLEAR, _UNCLEAR_RE), (NO, _NO_RE), (YES, _YES_RE))
            )
            for match in pattern.finditer(clause.strip())
        ]
        if cues:
            return min(cues)[2]
    return UNCLEAR


def screening_allowed(session: AskSession, verdict: Verdict, card: dict[str, Any]) -> bool:
    """Whether the band's verdict may deal the screening card now."""
    if session.counselor_speaking or session.handoff_counselor_id is not None:
        return False  # a counselor holds or has claimed the session: the counselor asks
    if session.current_intent_code == CRISIS_FLOW:
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
    ("resume", None) when it says no and ("review", None) when it stays unclear — the caller
    resumes the interrupted dialogue (and, on "review", asks a counselor to look)."""
    # An answer that worries the safety net (the band) says yes, unless it says no plainly.
    said = answer_of(text)
    answer = YES if turn.worried and said != NO else said
    step = card.get("step") or WISH
    asks = int(card.get("asks") or 0)
    since = card.get("batch") or card.get("message_id")
    if step == WISH:
        if answer == NO:
            _screened(turn, result="negative", answers=[NO])
            return "resume", None
        if answer == UNCLEAR and asks == 0:
            _ask(turn, WISH, card, asks=1, since=since)
            return "ask", None
        if answer == UNCLEAR:
            _screened(turn, result="unclear", answers=[UNCLEAR, UNCLEAR])
            return "review", None
        _ask(turn, HOW, card, asks=0, since=since)
        return "ask", None
    return "escalate", "L4" if answer == YES else "L3"


def _screened(turn: Turn, *, result: str, answers: list[str]) -> None:
    """The screener settled it: recorded, and the conversation read together starts afresh
    after this answer (what came before was asked about)."""
    session = turn.session
    screening = session.slots.get(SLOT) or {}
    answered = turn.messages[-1].pk if turn.messages else None
    turn.set(slots={**session.slots, SLOT: {**screening, "settled_after": answered}})
    turn.event(
        EventType.RISK_SCREENED,
        "client",
        result=result,
        answers=answers,
        score=screening.get("score"),
        source=screening.get("source"),
        detector_version=detector_version(),
    )
