"""Template filters of the staff's pages."""

from __future__ import annotations

import json
from collections.abc import Hashable
from datetime import datetime
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from sessions_app.access import receives_crisis_alerts
from sessions_app.models import EventType, SessionStatus

register = template.Library()


@register.filter
def receives_alerts(user: Any) -> bool:
    """Whether the page carries the crisis banner: ops, and counselors while on duty."""
    return bool(getattr(user, "is_authenticated", False)) and receives_crisis_alerts(user)


@register.filter
def payload_value(value: Any) -> str:
    """An event payload value as a reader expects it: text as is, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """`mapping[key]` or None: the template language has no item access by variable. A key
    that cannot be one (a list from an event payload) finds nothing."""
    if not isinstance(mapping, dict) or not isinstance(key, Hashable):
        return None
    return mapping.get(key)


@register.filter
def pretty_json(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


@register.filter
def usd(micro_usd: Any) -> str:
    """Micro-USD as dollars, precise enough for one call's cost ("—" for what is no number)."""
    if micro_usd is None:
        micro_usd = 0
    if isinstance(micro_usd, bool) or not isinstance(micro_usd, int | float):
        return "—"
    return f"${micro_usd / 1_000_000:.4f}"


# SPEC §3: the offline engine is labelled as such wherever its output is shown.
ENGINE_LABELS = {
    "offline": gettext_lazy("offline engine"),
    "engine": gettext_lazy("rules, no model"),
    "": "—",
}


@register.filter
def engine_label(provider: Any) -> str:
    return str(ENGINE_LABELS.get(str(provider or ""), str(provider)))


# Django's date format letters, translated like any text, so weekday and month names come in the
# page's language, in each language's order: `Mon 2 Mar, 14:05`, `Пн, 2 марта, 14:05`,
# `3月2日 星期一 14:05`.
DAY_THIS_YEAR = pgettext_lazy("day and time format", "D j M, H:i")
DAY_OTHER_YEAR = pgettext_lazy("day, year and time format", "D j M Y, H:i")


@register.filter
def day(moment: Any) -> str:
    """A date as a busy reader wants it: `Mon 2 Mar, 14:05`, with the year when not this year.
    Anything else (an event payload's malformed time) is shown as it is."""
    if not isinstance(moment, datetime):
        return "" if moment is None else str(moment)
    local = timezone.localtime(moment)
    layout = DAY_THIS_YEAR if local.year == timezone.localtime().year else DAY_OTHER_YEAR
    return date_format(local, str(layout))


@register.filter
def when(moment: Any) -> str:
    """A message's time: `14:05` today, otherwise the day too (with the year when not this
    year), so a transcript from years ago does not read as this afternoon."""
    if not isinstance(moment, datetime):
        return "" if moment is None else str(moment)
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        return local.strftime("%H:%M")
    return day(moment)


# The event log for a person: what happened, in words (the type stays in the markup).
EVENT_NAMES = {
    EventType.SESSION_CREATED: gettext_lazy("session started"),
    EventType.SESSION_STARTED: gettext_lazy("engine started"),
    EventType.SESSION_UPDATED: gettext_lazy("session updated"),
    EventType.SESSION_MODALITY_UPDATED: gettext_lazy("modalities changed"),
    EventType.SESSION_ENDING: gettext_lazy("client chose to end"),
    EventType.SESSION_SUMMARIZED: gettext_lazy("summary written"),
    EventType.SESSION_CLOSED: gettext_lazy("session closed"),
    EventType.SESSION_CLOSED_ABNORMALLY: gettext_lazy("session ended unfinished"),
    EventType.SESSION_DELETED: gettext_lazy("deleted"),
    EventType.SESSION_ANONYMISED: gettext_lazy("anonymised"),
    EventType.ANSWER_RECEIVED: gettext_lazy("client answered"),
    EventType.MESSAGE_RECEIVED: gettext_lazy("client wrote"),
    EventType.LAST_THING_RECEIVED: gettext_lazy("client's last words"),
    EventType.CARD_DEALT: gettext_lazy("card shown"),
    EventType.ANALYST_RESPONDED: gettext_lazy("Analyst read the answers"),
    EventType.ANALYST_FAILED: gettext_lazy("Analyst failed"),
    EventType.PACING_READY_TO_CLOSE: gettext_lazy("ready to close"),
    EventType.PACING_CONTINUED: gettext_lazy("client chose to continue"),
    EventType.CLOSING_DELIVERED: gettext_lazy("closing shown"),
    EventType.TRANSITION_APPLIED: gettext_lazy("flow step changed"),
    EventType.VALIDATION_BLOCKED: gettext_lazy("step refused"),
    EventType.INTENT_SUSPENDED: gettext_lazy("flow paused"),
    EventType.INTENT_RESUMED: gettext_lazy("flow resumed"),
    EventType.SCHEDULE_CHANGED: gettext_lazy("schedule changed"),
    EventType.RISK_ESCALATED: gettext_lazy("risk raised, counselors alerted"),
    EventType.RISK_UNASSESSED: gettext_lazy("risk could not be assessed"),
    EventType.RISK_CHANGED: gettext_lazy("risk changed by hand"),
    EventType.HANDOFF_CREATED: gettext_lazy("claimed by a counselor"),
    EventType.ALERT_ESCALATED: gettext_lazy("alert escalated"),
    EventType.COUNSELOR_TOOK_OVER: gettext_lazy("counselor took over"),
    EventType.COUNSELOR_MESSAGE: gettext_lazy("counselor wrote"),
    EventType.COUNSELOR_HANDED_BACK: gettext_lazy("handed back to the AI"),
    EventType.PSYCHOLOGIST_ANALYSIS_STARTED: gettext_lazy("analysis started"),
    EventType.PSYCHOLOGIST_ITERATION: gettext_lazy("analysis iteration"),
    EventType.PSYCHOLOGIST_ANALYSIS_COMPLETED: gettext_lazy("analysis completed"),
    EventType.PSYCHOLOGIST_ANALYSIS_FAILED: gettext_lazy("analysis failed"),
    EventType.PSYCHOLOGIST_HYPOTHESIS_PROPOSED: gettext_lazy("hypothesis proposed"),
    EventType.PSYCHOLOGIST_HYPOTHESIS_ACCEPTED: gettext_lazy("hypothesis accepted"),
    EventType.PSYCHOLOGIST_HYPOTHESIS_DISMISSED: gettext_lazy("hypothesis dismissed"),
    EventType.PSYCHOLOGIST_HYPOTHESIS_ACCEPTED_FOR_ANAMNESIS: gettext_lazy(
        "added to the client's profile"
    ),
    EventType.PSYCHOLOGIST_REANALYSIS_REQUESTED: gettext_lazy("reanalysis requested"),
}

# Payload keys as a reader says them; unknown keys are spelt out from their name.
PAYLOAD_LABELS = {
    "message_id": gettext_lazy("message"),
    "card_id": gettext_lazy("card"),
    "occurred_at": gettext_lazy("at"),
    "seconds_to_claim": gettext_lazy("seconds from alert to claim"),
    "counselor_id": gettext_lazy("counselor"),
    "handoff_reason": gettext_lazy("reason"),
    "mood_delta": gettext_lazy("mood"),
    "cost_micro_usd": gettext_lazy("cost"),
    "termination_reason": gettext_lazy("why it ended"),
    "final_risk_level": gettext_lazy("final risk"),
}


@register.filter
def event_name(event_type: Any) -> str:
    text = str(event_type or "")
    return str(EVENT_NAMES.get(text, text.replace(".", ": ").replace("_", " ")))


@register.filter
def payload_label(key: Any) -> str:
    text = str(key)
    return str(PAYLOAD_LABELS.get(text, text.replace("_", " ")))


@register.filter
def payload_text(value: Any) -> str:
    """A payload value in words: yes/no, lists joined, nested objects as `key: value` pairs."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, list):
        return ", ".join(payload_text(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{payload_label(k)}: {payload_text(v)}" for k, v in value.items())
    return str(value)


@register.filter
def parse_when(value: Any) -> Any:
    """An ISO timestamp stored in a payload as a datetime (or the value when it is not one)."""
    parsed = parse_datetime(value) if isinstance(value, str) else None
    return parsed or value


# What a card or message is, in the client's words; plain questions and answers need no label.
SAID_LABELS = {
    "intro": "",
    "question": "",
    "question_card": "",
    "answer": "",
    "text": "",
    "insight": gettext_lazy("Insight"),
    "completion": gettext_lazy("End or continue?"),
    "closing": gettext_lazy("Closing"),
    "last_thing": gettext_lazy("One last thing"),
    "note": gettext_lazy("Note"),
    "reply": gettext_lazy("Reply"),
    "crisis_resources": gettext_lazy("Crisis resources"),
    "topic": gettext_lazy("Topic"),
    "hook": "",
}


@register.filter
def said_label(message: Any) -> str:
    kind = message.payload.get("kind") if isinstance(message.payload, dict) else None
    return kind_label(kind or message.kind)


MOOD_LABELS = {
    "declining": gettext_lazy("declining"),
    "stable": gettext_lazy("stable"),
    "improving": gettext_lazy("improving"),
    # A session that escalated (selectors.latest_mood).
    "crisis": pgettext_lazy("mood", "crisis"),
}


@register.filter
def mood_label(mood: Any) -> str:
    """The Analyst's `mood_delta` in the page's language; an unknown value as it is."""
    text = str(mood or "")
    return str(MOOD_LABELS.get(text, text))


@register.filter
def status_label(status: Any) -> str:
    """A session status value as its label in the page's language (`completed` → "Completed")."""
    text = str(status or "")
    return str(SessionStatus(text).label) if text in SessionStatus.values else text


@register.filter
def kind_label(kind: Any) -> str:
    """A card's kind as the client would name it (`last_thing` → "One last thing")."""
    text = str(kind or "")
    return str(SAID_LABELS.get(text, text.replace("_", " ").capitalize()))
