"""The dialogue engine: everything a session says. Code outside it imports only `services` (its
writes), `selectors` (its reads) and `safety` (the pure net); import-linter holds that
(pyproject.toml, docs/architecture.md)."""
