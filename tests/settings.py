"""Test settings: the one place tests override the environment-driven settings."""

from __future__ import annotations

from config.settings import *  # noqa: F403
from config.settings import Q_CLUSTER

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
LLM_PROVIDER = "offline"
# Whatever the environment holds, tests never reach a real model: every agent runs offline
# unless a test binds it elsewhere (the fake Messages API fixture, a scripted replay).
LLM_BINDINGS = {
    agent: {"provider": "offline", "model": "offline-rules-v1"}
    for agent in ("analyst", "narrator", "summarizer", "psychologist", "psychologist-light")
}
ANTHROPIC_API_KEY = ""
ANTHROPIC_BASE_URL = ""
