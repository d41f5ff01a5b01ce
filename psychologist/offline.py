"""The offline Psychologist: hypotheses derived from the session's event log, citing real ids.

Context it reads (built by `psychologist.prompt.offline_context`): `events` [{id, seq, type,
actor, payload, message_role, message_kind, text}] in order, `termination` {cause, abnormal},
`locale`, `max_hypotheses`. It looks for what a careful reader of the log would: fatigue and
where it showed, a mood that declined, risk language or escalations, agent output blocked by
validation, very short answers, and — after an abnormal end — what happened just before it. Every
hypothesis cites the events it was derived from. Same log, same hypotheses.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sessions_app.engine import selectors as engine
from sessions_app.engine.safety import detect_crisis
from sessions_app.events import EventType

CLOSE_TYPES = frozenset({EventType.SESSION_CLOSED, EventType.SESSION_CLOSED_ABNORMALLY})
SHORT_ANSWER_WORDS = 3
Hypothesis = dict[str, Any]


def hypothesise(context: dict[str, Any]) -> dict[str, Any]:
    events = [event for event in context.get("events") or [] if isinstance(event, dict)]
    locale = str(context.get("locale") or "en")
    answers = [e for e in events if e.get("message_role") == "client" and e.get("text")]
    fatigue = _fatigue(answers, locale)
    decline = _mood_decline(events, answers, locale)
    found = [h for h in (fatigue, decline, _risk(events, answers, locale)) if h]
    found += _blocked(events)
    found += [h for h in (_brevity(answers),) if h]
    termination = context.get("termination") or {}
    if termination.get("abnormal") and events:
        # First, so that the cap below never drops the one the rules require.
        found.insert(0, _termination(events, str(termination.get("cause")), fatigue, decline))
    if not found and events:
        found.append(_baseline(events, answers, locale))
    limit = int(context.get("max_hypotheses") or 8)
    return {"hypotheses": found[:limit]}


def _hypothesis(
    target: str, statement: str, confidence: int, evidence: list[dict[str, Any]]
) -> Hypothesis:
    return {
        "target": target,
        "statement": statement,
        "confidence": max(0, min(100, confidence)),
        "evidence": list(dict.fromkeys(event["id"] for event in evidence)),
        "termination_analysis": None,
    }


def _seqs(events: list[dict[str, Any]]) -> str:
    return ", ".join(str(event["seq"]) for event in events)


def _fatigue(answers: list[dict[str, Any]], locale: str) -> Hypothesis | None:
    tired = [a for a in answers if engine.detect_fatigue(a["text"], locale)]
    if not tired:
        return None
    late = answers.index(tired[0]) >= len(answers) * 2 // 3
    statement = f"The client showed fatigue and a wish to stop (seq {_seqs(tired)})" + (
        "; it came late, so the session's length outran their energy." if late else "."
    )
    return _hypothesis("client", statement, 55 + 10 * (len(tired) - 1) + 10 * late, tired)


def _mood_decline(
    events: list[dict[str, Any]], answers: list[dict[str, Any]], locale: str
) -> Hypothesis | None:
    flagged = [
        e
        for e in events
        if isinstance(e.get("payload"), dict) and e["payload"].get("mood_delta") == "declining"
    ]
    # The session's trend as its summary and closing read it (engine.session_mood): the
    # hypotheses and the record agree.
    worse = engine.session_mood([a["text"] for a in answers], locale) == "declining"
    later = answers[len(answers) // 2 :]
    negative = [a for a in later if engine.mood_value(a["text"], locale) < 0] if worse else []
    if not flagged and not negative:
        return None
    cited = sorted(flagged + negative, key=lambda event: event["seq"])
    statement = (
        f"The client's mood declined during the session: negative turns at seq {_seqs(cited)}."
    )
    return _hypothesis("client", statement, 45 + 8 * len(cited) + 10 * bool(flagged), cited)


def _risk(
    events: list[dict[str, Any]], answers: list[dict[str, Any]], locale: str
) -> Hypothesis | None:
    escalations = [
        e for e in events if e.get("type") in {EventType.RISK_ESCALATED, EventType.HANDOFF_CREATED}
    ]
    words = [a for a in answers if detect_crisis(a["text"], locale)]
    cited = sorted(escalations + words, key=lambda event: event["seq"])
    if not cited:
        return None
    statement = (
        f"Risk signals appeared in this session (seq {_seqs(cited)}); a counselor should "
        "review how they were handled and whether follow-up is in place."
    )
    return _hypothesis("client", statement, 80 + 5 * bool(words and escalations), cited)


def _blocked(events: list[dict[str, Any]]) -> list[Hypothesis]:
    by_agent: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for event in events:
        if event.get("type") == EventType.VALIDATION_BLOCKED:
            payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
            agent = payload.get("agent")
            by_agent[agent if agent in {"analyst", "narrator"} else "flow"].append(event)
    found = []
    for agent in sorted(by_agent):
        blocked = by_agent[agent]
        who = "the flow's guards" if agent == "flow" else f"the {agent}'s output"
        statement = (
            f"Validation blocked {who} {len(blocked)} time(s) (seq {_seqs(blocked)}); its "
            "prompt or rules may need adjusting."
        )
        found.append(_hypothesis(agent, statement, 50 + 10 * len(blocked), blocked))
    return found


def _brevity(answers: list[dict[str, Any]]) -> Hypothesis | None:
    short = [a for a in answers if len(engine.words(a["text"])) <= SHORT_ANSWER_WORDS]
    if len(answers) < 3 or len(short) * 3 < len(answers) * 2:
        return None
    statement = (
        f"The client answered in very few words ({len(short)} of {len(answers)} answers): low "
        "engagement, or questions that did not land."
    )
    return _hypothesis("client", statement, 45, short)


_ENDINGS = {
    "abandoned_timeout": (
        "The client left without closing the session: after {last} (seq {seq}) nothing "
        "happened until the idle timeout.",
        60,
    ),
    "heartbeat_timeout": (
        "The client's app stopped responding after {last} (seq {seq}); the session ended on a "
        "heartbeat timeout, not necessarily by choice.",
        55,
    ),
    "killed": (
        "The session was killed from outside after {last} (seq {seq}); the client did not "
        "choose to end it.",
        80,
    ),
    "error": ("A system error ended the session after {last} (seq {seq}).", 80),
}
_DESCRIPTIONS = {
    EventType.CARD_DEALT: "a question card was dealt",
    EventType.ANSWER_RECEIVED: "the client answered",
    EventType.SESSION_CREATED: "the session was opened",
}


def _termination(
    events: list[dict[str, Any]],
    cause: str,
    fatigue: Hypothesis | None,
    decline: Hypothesis | None,
) -> Hypothesis:
    body = [event for event in events if event.get("type") not in CLOSE_TYPES] or events
    last = body[-1]
    closes = [event for event in events if event.get("type") in CLOSE_TYPES]
    template, confidence = _ENDINGS.get(cause, _ENDINGS["error"])
    describe = _DESCRIPTIONS.get(last["type"], f"a {last['type']} event")
    hypothesis = _hypothesis(
        "flow",
        template.format(last=describe, seq=last["seq"]),
        confidence + 10 * bool(fatigue and cause == "abandoned_timeout"),
        [last, *closes[-1:]],
    )
    hypothesis["termination_analysis"] = _termination_analysis(cause, last, fatigue, decline)
    return hypothesis


# What fatigue or a declining mood before the end says, depending on who ended the session:
# the client (leaving, closing the app) or the system (a kill, an error).
_CONTEXT = {
    "left": (
        "Fatigue showed before the end, so leaving most likely reflects tiredness rather than "
        "the topic.",
        "The mood had been declining; stepping away may have spared a hard moment.",
    ),
    "cut": (
        "The client was already tired when the session was cut off; a shorter session may "
        "suit the follow-up.",
        "The mood had been declining when the session was cut off; check in on how they are.",
    ),
}


def _termination_analysis(
    cause: str, last: dict[str, Any], fatigue: Hypothesis | None, decline: Hypothesis | None
) -> str:
    client_ended = cause in {"abandoned_timeout", "heartbeat_timeout"}
    on_fatigue, on_decline = _CONTEXT["left" if client_ended else "cut"]
    lines = [f"Classified cause: {cause}."]
    lines += [on_fatigue] if fatigue else []
    lines += [on_decline] if decline else []
    if last["type"] == EventType.CARD_DEALT:
        lines.append("The last card went unanswered.")
    elif last["type"] == EventType.ANSWER_RECEIVED and not client_ended:
        lines.append("The client's last answer got no reply; follow up so it is not lost.")
    lines.append(
        "Offer to resume where it stopped rather than start over."
        if client_ended
        else "Check that nothing the client wrote was lost, and apologise for the interruption."
    )
    return " ".join(lines)


def _baseline(
    events: list[dict[str, Any]], answers: list[dict[str, Any]], locale: str
) -> Hypothesis:
    if engine.session_mood([a["text"] for a in answers], locale) == "improving":
        later = answers[len(answers) // 2 :]
        better = [a for a in later if engine.mood_value(a["text"], locale) > 0]
        if better:
            return _hypothesis(
                "client",
                f"The client's mood improved during the session (seq {_seqs(better)}).",
                50 + 5 * len(better),
                better,
            )
    closes = [event for event in events if event.get("type") in CLOSE_TYPES]
    cited = closes[-1:] or events[-1:]
    statement = (
        f"The session ran to a graceful close after {len(answers)} answer(s) without signs of "
        "fatigue, mood decline or risk."
    )
    return _hypothesis("flow", statement, 40, cited)
