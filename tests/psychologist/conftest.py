from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings

from tests.fake_anthropic import FakeAnthropic

ANTHROPIC_MODEL = "claude-haiku-4-5"


@pytest.fixture
def fake_anthropic(settings: Settings) -> Iterator[FakeAnthropic]:
    """The fake Messages API on a free loopback port, with every agent bound to anthropic —
    but the safety model check, which stays offline (not called) unless a test binds it
    (`tests/engine/test_safety_model.py`): the agents' request sequences stay as they were.

    Timeouts and retries are small so fault tests stay fast; the fake answers 429/529/5xx with
    `retry-after-ms` when a test wants the SDK's backoff shortened."""
    fake = FakeAnthropic().start()
    settings.ANTHROPIC_BASE_URL = fake.base_url
    settings.ANTHROPIC_API_KEY = "test-key-not-secret"
    settings.ANTHROPIC_MAX_RETRIES = 2
    settings.ANTHROPIC_TIMEOUT_SECONDS = 1.0
    settings.LLM_BINDINGS = {
        agent: binding if agent == "safety" else {"provider": "anthropic", "model": ANTHROPIC_MODEL}
        for agent, binding in settings.LLM_BINDINGS.items()
    }
    try:
        yield fake
    finally:
        fake.stop()


HEAVY_MODEL = "claude-opus-4-6"


@pytest.fixture
def tiered_anthropic(fake_anthropic: FakeAnthropic, settings: Settings) -> FakeAnthropic:
    """The fake Messages API with the tiers bound as in production: the heavy psychologist to
    Opus, the light one to Haiku."""
    settings.LLM_BINDINGS = {
        **settings.LLM_BINDINGS,
        "psychologist": {"provider": "anthropic", "model": HEAVY_MODEL},
        "psychologist-light": {"provider": "anthropic", "model": ANTHROPIC_MODEL},
    }
    return fake_anthropic


@pytest.fixture
def scripted_psychologist(settings: Settings) -> None:
    """Both psychologist tiers bound to the scripted provider (install a script per test)."""
    settings.LLM_BINDINGS = {
        **settings.LLM_BINDINGS,
        "psychologist": {"provider": "scripted", "model": "scripted"},
        "psychologist-light": {"provider": "scripted", "model": "scripted"},
    }
