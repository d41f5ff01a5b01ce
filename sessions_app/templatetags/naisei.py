"""Template filters of the staff's pages."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import timezone

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
