"""Crisis escalation (SPEC §3): a deterministic keyword net on every client text, plus the
Analyst's `crisis_signal`.

`crisis_escalate` runs inside the transaction that stores the client's words (or the Analyst's
reply), so the escalation commits with them: with the LLM, the worker and Redis all down, the
risk level, the `risk.escalated` event, the counselors' `crisis_alert` notifications and the
static resources card exist. Risk only ever goes up here; lowering it is a human decision.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.dealer import CRISIS, Draft, Turn, new_card
from sessions_app.engine.flows import CRISIS_FLOW, flow_get
from sessions_app.engine.titles import session_title_neutral
from sessions_app.events import EventType
from sessions_app.models import AskMessage, AskSession, Notification, RiskLevel, SandboxSession
from sessions_app.roles import Role

User = get_user_model()


def risk_now(session: AskSession) -> str:
    """The running risk level: the highest of the initial level and any escalation since."""
    return max(session.initial_risk_level, session.final_risk_level or RiskLevel.L0)


def risk_raise(turn: Turn, level: str) -> tuple[str, str]:
    previous = risk_now(turn.session)
    turn.set(final_risk_level=max(previous, level))
    return previous, turn.session.final_risk_level


def resources(locale: str) -> list[dict[str, str]]:
    table: dict[str, list[dict[str, str]]] = settings.CRISIS_RESOURCES
    return table.get(texts.lang_of(locale)) or table.get(locale) or table["default"]


def resources_text(locale: str) -> str:
    lines = [f"{item['name']}: {item['contact']}" for item in resources(locale)]
    return "\n".join([texts.text("crisis_intro", locale), *lines])


def _alert_counselors(session: AskSession, level: str) -> int:
    """A crisis_alert for every on-duty counselor; no client words in it, ever. A sandbox
    session's crisis is a test: it alerts the counselor playing it, and pages nobody else."""
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
    counselors = counselors.values_list("pk", flat=True)
    alerts = [
        Notification(
            user_id=counselor_id,
            kind=Notification.Kind.CRISIS_ALERT,
            session=session,
            payload={"session_id": str(session.pk), "risk_level": level},
            dedupe_key=f"crisis:{session.pk}",
        )
        for counselor_id in counselors
    ]
    # ignore_conflicts: a second escalation of the same session does not alert twice.
    Notification.objects.bulk_create(alerts, ignore_conflicts=True)
    return len(alerts)


def _enter_crisis_flow(turn: Turn) -> None:
    session = turn.session
    slots = {**session.slots, "crisis": True}
    if session.current_intent_code == CRISIS_FLOW:
        turn.set(slots=slots)
        return
    # A detour: the interrupted intent is kept so that a counselor can let it resume.
    turn.set(
        suspended_intent=session.current_intent_code,
        resumable_step_code=session.current_step_code,
        resumable_slots=dict(session.slots),
        current_intent_code=CRISIS_FLOW,
        current_step_code=flow_get(CRISIS_FLOW).first_step,
        slots=slots,
    )
    turn.event(
        EventType.INTENT_SUSPENDED,
        suspended=session.suspended_intent,
        resumable_step=session.resumable_step_code,
        to=CRISIS_FLOW,
    )


def crisis_escalate(turn: Turn, *, source: str, counselor_present: bool = False) -> None:
    """Raise the risk, switch to the crisis flow, alert, and put the resources in front of the
    client. `source`: "keyword" (the net), "analyst" (crisis_signal) or "both".

    With `counselor_present` (a person holds the conversation) the risk and the flow are raised
    and recorded all the same, but nobody else is paged and no card is dealt: the counselor
    answers, and the resources stay in the state document's notice."""
    session = turn.session
    repeated = session.current_intent_code == CRISIS_FLOW or session.intervention_triggered
    level = RiskLevel.L4 if repeated or source == "both" else RiskLevel.L3
    previous, current = risk_raise(turn, level)
    turn.set(
        intervention_triggered=True,
        session_type=AskSession.SessionType.CRISIS_INTERVENTION,
        ready_to_close=False,
    )
    if not session.title_by_client:
        turn.set(session_title=session_title_neutral(session))
    if session.alerted_at is None and not counselor_present:
        turn.set(alerted_at=timezone.now())  # the escalation clock starts (jobs/escalation.py)
    if session.phase in (AskSession.Phase.CLOSING, AskSession.Phase.INTRO):
        # A crisis in the last words reopens the conversation: nobody is closed on.
        turn.set(phase=AskSession.Phase.DIALOGUE)
    _enter_crisis_flow(turn)
    notified = 0 if counselor_present else _alert_counselors(session, current)
    if notified:
        turn.set(slots={**session.slots, "counselor_notified": True})
    turn.event(
        EventType.RISK_ESCALATED, level=current, previous=previous, source=source, notified=notified
    )
    if not counselor_present:
        crisis_cards_deal(turn)


def crisis_cards_deal(turn: Turn) -> None:
    locale = turn.session.locale
    items: list[dict[str, Any]] = resources(locale)
    turn.append(
        Draft(
            AskMessage.Role.SYSTEM,
            AskMessage.Kind.CRISIS_RESOURCES,
            resources_text(locale),
            {"resources": items, "locale": locale},
        )
    )
    card = new_card(texts.text("crisis_safety", locale), CRISIS)
    turn.open_batch([card], engine="engine")
