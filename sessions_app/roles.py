"""Roles are Django groups named exactly as SPEC §9 says; this module is the one place that
maps a user to its role."""

from __future__ import annotations

from typing import Any

from django.db import models


class Role(models.TextChoices):
    CLIENT = "client", "Client"
    COUNSELOR = "counselor", "Counselor"
    OPS = "ops", "Clinical operations"
    SERVICE = "service", "Service account"


# Most privileged first: a user in several groups acts with the strongest role.
_PRECEDENCE = (Role.OPS, Role.SERVICE, Role.COUNSELOR, Role.CLIENT)


def role_of(user: Any) -> Role | None:
    """The user's role, or None for anonymous users and users in no role group."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.OPS
    cached = getattr(user, "_naisei_role", "unset")
    if cached != "unset":
        return cached
    names = set(user.groups.values_list("name", flat=True))
    role = next((r for r in _PRECEDENCE if r.value in names), None)
    user._naisei_role = role
    return role
