"""Template filters of the staff's pages."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone
from django.utils.dateparse import parse_datetime

register = template.Library()


@register.filter
def payload_value(value: Any) -> str:
    """An event payload value as a reader expects it: text as is, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """`mapping[key]` or None: the template language has no item access by variable."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def pretty_json(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


@register.filter
def usd(micro_usd: Any) -> str:
    """Micro-USD as dollars, precise enough for one call's cost."""
    return f"${(micro_usd or 0) / 1_000_000:.4f}"


# SPEC §3: the offline engine is labelled as such wherever its output is shown.
ENGINE_LABELS = {"offline": "offline engine", "engine": "rules, no model", "": "—"}


@register.filter
def engine_label(provider: Any) -> str:
    return ENGINE_LABELS.get(str(provider or ""), str(provider))


@register.filter
def day(moment: Any) -> str:
    """A date as a busy reader wants it: `Mon 2 Mar, 14:05`, with the year when not this year."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    layout = (
        "%a %-d %b, %H:%M" if local.year == timezone.localtime().year else "%a %-d %b %Y, %H:%M"
    )
    return local.strftime(layout)


@register.filter
def when(moment: Any) -> str:
    """A message's time: `14:05` today, otherwise the day too (with the year when not this
    year), so a transcript from years ago does not read as this afternoon."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        return local.strftime("%H:%M")
    return day(moment)


# The event log for a person: what happened, in words (the type stays in the markup).
EVENT_NAMES = {
    "session.created": "session started",
    "session.started": "engine started",
    "session.updated": "session updated",
    "session.modality_updated": "modalities changed",
    "session.ending": "client chose to end",
    "session.summarized": "summary written",
    "session.closed": "session closed",
    "session.closed_abnormally": "session ended unfinished",
    "session.deleted": "deleted",
    "session.anonymised": "anonymised",
    "answer.received": "client answered",
    "message.received": "client wrote",
    "last_thing.received": "client's last words",
    "card.dealt": "card shown",
    "analyst.responded": "Analyst read the answers",
    "analyst.failed": "Analyst failed",
    "pacing.ready_to_close": "ready to close",
    "pacing.continued": "client chose to continue",
    "closing.delivered": "closing shown",
    "transition.applied": "flow step changed",
    "validation.blocked": "step refused",
    "intent.suspended": "flow paused",
    "intent.resumed": "flow resumed",
    "schedule.changed": "schedule changed",
    "risk.escalated": "risk raised, counselors alerted",
    "risk.unassessed": "risk could not be assessed",
    "risk.changed": "risk changed by hand",
    "handoff.created": "claimed by a counselor",
    "alert.escalated": "alert escalated",
    "counselor.took_over": "counselor took over",
    "counselor.message": "counselor wrote",
    "counselor.handed_back": "handed back to the AI",
    "psychologist.analysis_started": "analysis started",
    "psychologist.iteration": "analysis iteration",
    "psychologist.analysis_completed": "analysis completed",
    "psychologist.analysis_failed": "analysis failed",
    "psychologist.hypothesis_proposed": "hypothesis proposed",
    "psychologist.hypothesis_accepted": "hypothesis accepted",
    "psychologist.hypothesis_dismissed": "hypothesis dismissed",
    "psychologist.hypothesis_accepted_for_anamnesis": "added to the client's profile",
    "psychologist.reanalysis_requested": "reanalysis requested",
}

# Payload keys as a reader says them; unknown keys are spelt out from their name.
PAYLOAD_LABELS = {
    "message_id": "message",
    "card_id": "card",
    "occurred_at": "at",
    "seconds_to_claim": "seconds from alert to claim",
    "counselor_id": "counselor",
    "handoff_reason": "reason",
    "mood_delta": "mood",
    "cost_micro_usd": "cost",
    "termination_reason": "why it ended",
    "final_risk_level": "final risk",
}


@register.filter
def event_name(event_type: Any) -> str:
    text = str(event_type or "")
    return EVENT_NAMES.get(text, text.replace(".", ": ").replace("_", " "))


@register.filter
def payload_label(key: Any) -> str:
    text = str(key)
    return PAYLOAD_LABELS.get(text, text.replace("_", " "))


@register.filter
def payload_text(value: Any) -> str:
    """A payload value in words: yes/no, lists joined, nested objects as `key: value` pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
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
    "insight": "Insight",
    "completion": "End or continue?",
    "closing": "Closing",
    "last_thing": "One last thing",
    "note": "Note",
    "reply": "Reply",
    "crisis_resources": "Crisis resources",
    "topic": "Topic",
    "hook": "",
}


@register.filter
def said_label(message: Any) -> str:
    kind = message.payload.get("kind") if isinstance(message.payload, dict) else None
    return kind_label(kind or message.kind)


@register.filter
def kind_label(kind: Any) -> str:
    """A card's kind as the client would name it (`last_thing` → "One last thing")."""
    text = str(kind or "")
    return SAID_LABELS.get(text, text.replace("_", " ").capitalize())
