"""Crisis escalation (SPEC §3): the safety net (`engine/safety`) on every client text, plus the
Analyst's `crisis_signal`; the crisis lines of the client's language and region; and a person
paged when a model's silence leaves the risk unknown.

`crisis_escalate` runs inside the transaction that stores the client's words (or the Analyst's
reply), so the escalation commits with them: with the LLM, the worker and Redis all down, the
risk level, the `risk.escalated` event, the counselors' `crisis_alert` notifications and the
static resources card exist. Risk only ever goes up here; lowering it is a human decision.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.cards.dealer import CRISIS, SCREENING, Draft, Turn, new_card, profile_of
from sessions_app.engine.crisis.screening import screening_allowed, screening_start
from sessions_app.engine.flows.validator import CRISIS_FLOW, intent_detour
from sessions_app.engine.language import detectors
from sessions_app.engine.safety import Assessment, Finding, Verdict, detector_version, judge
from sessions_app.engine.safety.verdict import RECENT_MESSAGES
from sessions_app.engine.turn.titles import session_title_neutral
from sessions_app.events import EventSpec, EventType, actor_label
from sessions_app.models import (
    AskMessage,
    AskSession,
    CrisisResource,
    Notification,
    RiskLevel,
    SandboxSession,
)
from sessions_app.roles import Role

User = get_user_model()


def risk_now(session: AskSession) -> str:
    """The running risk level: the highest of the initial level and any escalation since."""
    return max(session.initial_risk_level, session.final_risk_level or RiskLevel.L0)


def risk_raise(turn: Turn, level: str) -> tuple[str, str]:
    previous = risk_now(turn.session)
    turn.set(final_risk_level=max(previous, level))
    return previous, turn.session.final_risk_level


# When ops have emptied the table for a language and its English: the emergency number stands.
LAST_RESORT = [{"name": "Emergency services", "contact": "112 · 911", "emergency": True}]
ZONE_TABLE = Path("/usr/share/zoneinfo/zone.tab")
MAX_SPANS = 5


@functools.cache
def _zone_countries() -> dict[str, str]:
    """IANA time zone → ISO 3166 country, from the system's tz database (empty without one)."""
    try:
        lines = ZONE_TABLE.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    rows = (line.split("\t") for line in lines if line and not line.startswith("#"))
    return {row[2]: row[0] for row in rows if len(row) >= 3}


def region_of(locale: str, time_zone: str = "") -> str:
    """Where the client is, as far as we know: the locale's region ("en-GB", "zh-Hant-TW",
    "ru_RU"), else the country of its time zone; "" when neither tells."""
    for part in (locale or "").replace("_", "-").split("-")[1:]:
        if len(part) == 2 and part.isalpha():
            return part.upper()
    return _zone_countries().get(time_zone or "", "")


def resources(locale: str, time_zone: str = "") -> list[dict[str, Any]]:
    """The crisis lines in the client's language for its region (ops edit them in admin): the
    region's own when we carry it, else the international list with the emergency number; in
    English when the language has none. One query."""
    language, region = texts.lang_of(locale), region_of(locale, time_zone)
    rows = list(
        CrisisResource.objects.filter(active=True, language__in={language, "en"})
        .order_by("-emergency", "position", "id")
        .values("language", "region", "name", "contact", "emergency")
    )
    for lang, where in ((language, region), (language, ""), ("en", region), ("en", "")):
        found = [row for row in rows if (row["language"], row["region"]) == (lang, where)]
        if found:
            return [{key: row[key] for key in ("name", "contact", "emergency")} for row in found]
    return LAST_RESORT


def resources_text(locale: str, items: list[dict[str, Any]]) -> str:
    lines = [f"{item['name']}: {item['contact']}" for item in items]
    return "\n".join([texts.text("crisis_intro", locale), *lines])


def _on_duty(session: AskSession) -> list[int]:
    """Who is paged about this session: the on-duty counselors — or, for a sandbox session (a
    test), only the counselor playing it."""
    player = (
        SandboxSession.objects.filter(session_id=session.pk)
        .values_list("counselor_id", flat=True)
        .first()
    )
    counselors = User.objects.filter(groups__name=Role.COUNSELOR, is_active=True)
    if player is None:
        counselors = counselors.filter(profile__on_duty=True)
    else:
        counselors = counselors.filter(pk=player)
    return list(counselors.values_list("pk", flat=True))


def _page(session: AskSession, users: list[int], kind: str, once: str, **facts: str) -> int:
    """One notification of `kind` per user, once per session (its dedupe key); no client words
    in it, ever. A second escalation of the same session does not page twice."""
    alerts = [
        Notification(
            user_id=user_id,
            kind=kind,
            session=session,
            payload={"session_id": str(session.pk), **facts},
            dedupe_key=f"{once}:{session.pk}",
        )
        for user_id in users
    ]
    Notification.objects.bulk_create(alerts, ignore_conflicts=True)
    return len(alerts)


def _alert_counselors(session: AskSession, level: str) -> int:
    alert = Notification.Kind.CRISIS_ALERT
    return _page(session, _on_duty(session), alert, "crisis", risk_level=level)


def risk_unassessed(turn: Turn, *, reason: str, agent: str) -> None:
    """A model refused or was cut off (`refusal`, `max_tokens`): nobody knows the risk, which is
    never read as "no risk" (SPEC §3). The risk goes to at least L2, the follow-up is due now (so
    the follow-up job fires), and a person is asked to look: the on-duty counselors, or ops when
    nobody is on duty."""
    previous, level = risk_raise(turn, RiskLevel.L2)
    turn.set(follow_up_needed=True, follow_up_at=timezone.now())
    alerted = _review_alert(turn.session, reason=reason)
    turn.event(
        EventType.RISK_UNASSESSED,
        reason=reason,
        agent=agent,
        previous=previous,
        level=level,
        alerted=alerted,
    )


def _review_alert(session: AskSession, *, reason: str) -> int:
    """Whoever is on duty looks at the session; ops when nobody is."""
    reviewers = _on_duty(session) or list(
        User.objects.filter(groups__name=Role.OPS, is_active=True).values_list("pk", flat=True)
    )
    return _page(session, reviewers, Notification.Kind.REVIEW_NEEDED, "review", reason=reason)


def screening_review(turn: Turn) -> None:
    """The screener's answers stayed unclear: whoever is on duty looks (not a crisis page)."""
    _review_alert(turn.session, reason="screening_unclear")


def _enter_crisis_flow(turn: Turn) -> None:
    session = turn.session
    slots = {**session.slots, "crisis": True}
    if session.current_intent_code == CRISIS_FLOW:
        turn.set(slots=slots)
        return
    # A detour: the interrupted intent is kept so that a counselor can let it resume.
    intent_detour(turn, CRISIS_FLOW, slots=slots)


def safety_net(
    turn: Turn,
    text: str,
    *,
    card: dict[str, Any] | None = None,
    message_id: int | None = None,
    counselor_present: bool = False,
) -> bool:
    """The safety net on what the client just wrote, before anything else reads it: the rules,
    the learned layer and the last few messages read together (`safety.judge`). True when the
    turn stops here: a crisis started (the resources and the safety card are dealt) or the
    screening card asks."""
    session = turn.session
    card = card or {}
    # Inside a crisis, the ambiguous cues ("I have a plan", "tonight") count on their own.
    context = session.intervention_triggered or risk_now(session) >= RiskLevel.L3
    # An answer to the screener is read on its own: the conversation before it is what the
    # screener asks about, and its answer settles it ("no, just tired" after a worrying line
    # is a no, not more of the same).
    recent = () if card.get("kind") == SCREENING else recent_client_texts(turn)
    verdict = judge(text, session.locale, recent=recent, context=context)
    if verdict.action is None:
        return False
    if session.current_intent_code == CRISIS_FLOW:
        if verdict.escalates and verdict.source != "conversation":
            # Crisis words again, inside the crisis flow (the conversation read together would
            # only find the words that started it).
            risk_raise(turn, RiskLevel.L4)
        return False
    if verdict.escalates:
        crisis_escalate(
            turn,
            source=_SOURCES.get(verdict.source, "keyword"),
            assessment=verdict.assessment,
            level=verdict.level,
            verdict=verdict,
            counselor_present=counselor_present,
        )
        return True
    # The words themselves worry the net (not only the conversation they close).
    turn.worried = verdict.source != "conversation"
    if verdict.source == "learned" and detectors.detect_fatigue(text, session.locale):
        return False  # "I'm exhausted, I don't want to continue": the session, not a life
    if counselor_present or not screening_allowed(session, verdict, card):
        return False
    screening_start(turn, verdict, card, message_id or 0)
    return True


# The verdict's source as `risk.escalated` names it ("keyword" for the rules, as before).
_SOURCES = {"rules": "keyword", "learned": "learned", "conversation": "conversation"}


CLIENT_WORDS = (AskMessage.Kind.ANSWER, AskMessage.Kind.TOPIC, AskMessage.Kind.TEXT)


def recent_client_texts(turn: Turn) -> tuple[str, ...]:
    """The client's last few messages on the path before this turn, oldest first — read from
    the ancestors the lock already joined (`session_locked(with_recent=True)`), so no query;
    none from before a screening the client answered (the screener settled those)."""
    settled = (turn.session.slots.get("screening") or {}).get("settled_after") or 0
    said: list[str] = []
    node = turn.began_at
    for _ in range(4):
        if node is None or node.pk <= settled:
            break
        if node.role == AskMessage.Role.CLIENT and node.kind in CLIENT_WORDS:
            said.append(node.text)
        if not AskMessage.parent.is_cached(node):
            break
        node = node.parent
    return tuple(reversed(said[:RECENT_MESSAGES]))


def crisis_escalate(
    turn: Turn,
    *,
    source: str,
    assessment: Assessment | None = None,
    level: str | None = None,
    verdict: Verdict | None = None,
    counselor_present: bool = False,
    categories: Iterable[str] = (),
) -> None:
    """Raise the risk, switch to the crisis flow, alert, and put the resources in front of the
    client. `source`: "keyword" (the net's rules), "learned" (its learned layer),
    "conversation" (the last few messages together), "screening" (a yes to the screening
    card), "model" (the safety model check, which names its own `level` and `categories`),
    "analyst" (crisis_signal) or "both"; `level`, when given, is the least it raises to.

    With `counselor_present` (a person holds the conversation) the risk and the flow are raised
    and recorded all the same, but nobody else is paged and no card is dealt: the counselor
    answers, and the resources stay in the state document's notice."""
    session = turn.session
    repeated = session.current_intent_code == CRISIS_FLOW or session.intervention_triggered
    named = level or (assessment.level if assessment is not None else None)
    severe = named == RiskLevel.L4
    raised = RiskLevel.L4 if repeated or severe or source == "both" else RiskLevel.L3
    # What the net saw, for staff (risk events never reach clients; anonymisation drops spans).
    seen = assessment.findings if assessment is not None else ()
    risk_escalate(
        turn,
        level=raised,
        source=source,
        findings=seen,
        categories=categories,
        detected={
            "rules": sorted({finding.rule for finding in seen}),
            "detector_version": detector_version(),
            **({"score": verdict.score} if verdict is not None else {}),
        },
        page=not counselor_present,
        deal=not counselor_present,
    )


def risk_escalated_payload(
    *,
    level: str,
    previous: str,
    source: str,
    notified: int,
    findings: Sequence[Finding] = (),
    categories: Iterable[str] = (),
    detected: dict[str, Any] | None = None,
    reason: str = "",
) -> dict[str, Any]:
    """The `risk.escalated` event as the log holds it: whoever writes one (the engine, the
    demo's history) writes this shape, which the staff pages read."""
    payload: dict[str, Any] = {
        "level": level,
        "previous": previous,
        "source": source,
        "notified": notified,
        "categories": sorted({str(finding.category) for finding in findings} | set(categories)),
        "spans": [finding.span for finding in findings[:MAX_SPANS]],
        **(detected or {}),
    }
    if reason:
        payload["reason"] = reason
    return payload


def risk_escalate(
    turn: Turn,
    *,
    level: str,
    source: str,
    by: Any = None,
    reason: str = "",
    findings: Sequence[Finding] = (),
    categories: Iterable[str] = (),
    detected: dict[str, Any] | None = None,
    page: bool = True,
    deal: bool = True,
) -> None:
    """The one path by which risk rises into a crisis (SPEC §3, QUALITY C2), whoever raised it:
    the net, the screener, the safety model or the Analyst (`crisis_escalate`), the service
    role, a counselor or ops (`risk_by_hand.risk_escalate_by`). Raises the level, switches the
    session to the crisis flow, starts the escalation clock, alerts the on-duty counselors and
    records one `risk.escalated` event (with `detected`: what the net saw — its rule ids, its
    version, its score); with `deal`, the client gets the crisis resources and the safety card.
    Without `page` (a person already holds the conversation) nobody else is paged and the clock
    does not start."""
    session = turn.session
    previous, current = risk_raise(turn, level)
    turn.set(
        intervention_triggered=True,
        session_type=AskSession.SessionType.CRISIS_INTERVENTION,
        ready_to_close=False,
    )
    if not session.title_by_client:
        turn.set(session_title=session_title_neutral(session))
    if session.alerted_at is None and page:
        turn.set(alerted_at=timezone.now())  # the escalation clock starts (jobs/escalation.py)
    if session.is_active:
        # A finished session (a person raising it on review) keeps its end; a live one enters
        # the crisis flow.
        if session.phase in (AskSession.Phase.CLOSING, AskSession.Phase.INTRO):
            # A crisis in the last words reopens the conversation: nobody is closed on.
            turn.set(phase=AskSession.Phase.DIALOGUE)
        _enter_crisis_flow(turn)
    notified = _alert_counselors(session, current) if page else 0
    if notified:
        turn.set(slots={**session.slots, "counselor_notified": True})
    payload = risk_escalated_payload(
        level=current,
        previous=previous,
        source=source,
        notified=notified,
        findings=findings,
        categories=categories,
        detected=detected,
        reason=reason,
    )
    if by is None:
        turn.event(EventType.RISK_ESCALATED, **payload)
    else:
        turn.events.append(
            EventSpec(EventType.RISK_ESCALATED, payload, actor_label(by), actor_user=by)
        )
    if deal:
        crisis_cards_deal(turn)


def session_resources(session: AskSession) -> list[dict[str, Any]]:
    return resources(session.locale, profile_of(session).time_zone)


def crisis_cards_deal(turn: Turn) -> None:
    locale = turn.session.locale
    items = session_resources(turn.session)
    turn.append(
        Draft(
            AskMessage.Role.SYSTEM,
            AskMessage.Kind.CRISIS_RESOURCES,
            resources_text(locale, items),
            {"resources": items, "locale": locale},
        )
    )
    card = new_card(texts.text("crisis_safety", locale), CRISIS)
    turn.open_batch([card], engine="engine")
