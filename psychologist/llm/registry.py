"""Which provider serves which agent: the binding table, then `settings.LLM_BINDINGS`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from psychologist.llm.models import ModelBinding
from psychologist.llm.types import LLMError, LLMRequest, LLMResponse


class Provider(Protocol):
    """A provider bound to one model. Raises `LLMUnavailable` when it cannot answer."""

    name: str
    model: str

    def complete(self, request: LLMRequest) -> LLMResponse: ...


@dataclass(frozen=True)
class Binding:
    provider: str
    model: str


def binding_for_agent(agent: str) -> Binding:
    # Read on every call on purpose: an admin edit takes effect on the next call, in every
    # process, without a restart or a cache to invalidate. It is one indexed lookup.
    row = ModelBinding.objects.filter(agent=agent).values("provider", "model").first()
    if row is not None:
        return Binding(provider=row["provider"], model=row["model"])
    default = settings.LLM_BINDINGS.get(agent)
    if default is None:
        raise LLMError(f"no binding for agent {agent!r}", code="unknown_agent")
    return Binding(provider=default["provider"], model=default["model"])


def get_provider(name: str, *, model: str) -> Provider:
    # Imported here so that only a process that actually uses a provider loads its module.
    if name == "offline":
        from psychologist.llm.offline import OfflineProvider

        return OfflineProvider(model=model)
    if name == "scripted":
        from psychologist.llm.scripted import active_script

        return active_script().bound_to(model)
    if name == "anthropic":
        from psychologist.llm.anthropic_provider import AnthropicProvider

        return AnthropicProvider(model=model)
    raise LLMError(f"unknown provider {name!r}", code="unknown_provider")


# A per-call replacement of the binding table (the sandbox's per-session provider choice). A
# context variable, not a module global: each request thread sees only its own choice.
_replacement: ContextVar[Callable[[str], Provider] | None] = ContextVar(
    "llm_provider_replacement", default=None
)


@contextmanager
def providers_replaced(factory: Callable[[str], Provider]) -> Iterator[None]:
    """Within the block every agent is served by `factory(agent)` instead of its binding."""
    token = _replacement.set(factory)
    try:
        yield
    finally:
        _replacement.reset(token)


def provider_for_agent(agent: str) -> Provider:
    factory = _replacement.get()
    if factory is not None:
        return factory(agent)
    binding = binding_for_agent(agent)
    return get_provider(binding.provider, model=binding.model)


def provider_name_for_agent(agent: str) -> str:
    """The name of the provider that would serve `agent` now; "" when none is bound."""
    try:
        factory = _replacement.get()
        if factory is not None:
            return factory(agent).name
        return binding_for_agent(agent).provider
    except LLMError:
        return ""
