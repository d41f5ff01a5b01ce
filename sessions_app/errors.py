"""The one error type services raise; the API and HTML layers render it as {"code", "detail"}."""

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
        self.fields = fields or {}
        if status is not None:
            self.status = status
