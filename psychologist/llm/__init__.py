"""The LLM layer: the only code that knows about providers (SPEC §3).

Callers build an `LLMRequest` and call `psychologist.llm.service.complete(request=...)`; they get
an `LLMResponse` of our own dataclasses back, metered in `LLMCall`. `types.py` documents the
agents' output contract; `lexicon.py` holds the pure keyword detectors (crisis, fatigue, …).
Nothing is imported here, so the pure modules stay importable before the app registry is ready.
"""
