"""The LLM layer: the only code that knows about providers (SPEC §3), and a leaf that knows no
agent and no session (import-linter holds it to that).

Callers build an `LLMRequest` and call `psychologist.llm.service.complete(request=...)`; they get
an `LLMResponse` of our own dataclasses back, metered in `LLMCall`. Providers: `anthropic_provider`
(the official SDK), `offline` (a dispatcher to the rules each app registers for its agents at
start-up) and `scripted` (recorded replays). Also here: the binding table (`registry`), metering,
the token budget, and the one `opaque_user_id`. Nothing is imported here, so the pure modules
stay importable before the app registry is ready.
"""
