"""Template filters of the staff's pages."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.core.serializers.json import DjangoJSONEncoder

register = template.Library()


@register.filter
def payload_value(value: Any) -> str:
    """An event payload value as a reader expects it: text as is, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)
