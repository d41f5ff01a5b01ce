"""Test settings: the one place tests override the environment-driven settings."""

from __future__ import annotations

from config.settings import *  # noqa: F403
from config.settings import Q_CLUSTER

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
LLM_PROVIDER = "offline"
