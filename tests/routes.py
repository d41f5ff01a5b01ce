"""URLs of the routes that take one object's id, for the API and page tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse


def object_url(name: str, key: str = "session_id") -> Callable[[Any], str]:
    """The URL of route `name` for an object: its primary key passed as `key`."""

    def url(obj: Any) -> str:
        return reverse(name, kwargs={key: obj.pk})

    return url
