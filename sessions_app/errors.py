"""The one error type services raise; the API and HTML layers render it as {"code", "detail"},
with `"fields": {"name": ["message", …]}` for E_VALIDATION and what the API layer adds to a
conflict in `extra` (the current `state` of a card answered already)."""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    status = 400

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status: int | None = None,
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        # One shape for every client: {"name": ["message", …]}.
        self.fields = {
            name: list(value) if isinstance(value, list | tuple) else [str(value)]
            for name, value in (fields or {}).items()
        }
        if status is not None:
            self.status = status
        # Keys the API layer adds to the body, e.g. the current state with a 409.
        self.extra: dict[str, Any] = {}


def invalid(detail: str, **fields: Any) -> ApplicationError:
    """E_VALIDATION with the offending fields: `invalid("…", text="must not be empty")`."""
    return ApplicationError("E_VALIDATION", detail, status=400, fields=fields)
