"""The one error type services raise, and the codes it carries. The API and HTML layers render it
as {"code", "detail"}, with `"fields": {"name": ["message", …]}` for E_VALIDATION and what the
API layer adds to a conflict in `extra` (the current `state` of a card answered already)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every code an error body carries, with the HTTP status it is answered with and what it
    means. The OpenAPI document's error descriptions are written from these
    (`sessions_app.api.base.errors`); a member's value is the wire format, `E_…`."""

    status: int
    description: str

    def __new__(cls, code: str, status: int, description: str) -> ErrorCode:
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        member.description = description
        return member

    # Any operation
    VALIDATION = (
        "E_VALIDATION",
        400,
        "the request is invalid as sent, `fields` names the inputs at fault",
    )
    UNAUTHENTICATED = (
        "E_UNAUTHENTICATED",
        401,
        "the credentials are missing, expired, revoked or wrong",
    )
    FORBIDDEN = "E_FORBIDDEN", 403, "the caller may not do this"
    NOT_FOUND = "E_NOT_FOUND", 404, "no such resource, or none the caller may see"
    METHOD_NOT_ALLOWED = "E_METHOD_NOT_ALLOWED", 405, "the path does not take this HTTP method"
    NOT_ACCEPTABLE = "E_NOT_ACCEPTABLE", 406, "the API answers application/json only"
    PAYLOAD_TOO_LARGE = (
        "E_PAYLOAD_TOO_LARGE",
        413,
        "the request has too large a body, or too many fields or files",
    )
    UNSUPPORTED_MEDIA_TYPE = "E_UNSUPPORTED_MEDIA_TYPE", 415, "a body must be application/json"
    THROTTLED = "E_THROTTLED", 429, "too many requests, retry after `Retry-After` seconds"
    INTERNAL = "E_INTERNAL", 500, "an unexpected failure of the server"
    ERROR = "E_ERROR", 500, "a failure of the API with no code of its own"
    UNAVAILABLE = (
        "E_UNAVAILABLE",
        503,
        "the database cannot be reached, retry after `Retry-After` seconds",
    )
    # Signing in, idempotency
    LOCKED_OUT = (
        "E_LOCKED_OUT",
        429,
        "too many failed sign-ins, the account is locked from this address for a while",
    )
    PASSWORD_INVALID = "E_PASSWORD_INVALID", 403, "the password re-entered is wrong"
    IDEMPOTENCY_KEY_REUSED = (
        "E_IDEMPOTENCY_KEY_REUSED",
        422,
        "this Idempotency-Key was used with another request",
    )
    IDEMPOTENCY_IN_PROGRESS = (
        "E_IDEMPOTENCY_IN_PROGRESS",
        409,
        "the first request with this Idempotency-Key still runs, retry shortly",
    )
    # Sessions
    SESSION_AGENT_INVALID = (
        "E_SESSION_AGENT_INVALID",
        400,
        "the agent named does not exist or may not run this session",
    )
    SESSION_ACTIVE_EXISTS = (
        "E_SESSION_ACTIVE_EXISTS",
        409,
        "the client already has an active session",
    )
    DIFY_SESSION_NOT_FOUND = (
        "E_DIFY_SESSION_NOT_FOUND",
        404,
        "no session is mapped to that orchestrator conversation",
    )
    SESSION_TOO_LONG = (
        "E_SESSION_TOO_LONG",
        409,
        "the session holds as many messages as a session may",
    )
    SESSION_VOICE_DISABLED = (
        "E_SESSION_VOICE_DISABLED",
        409,
        "voice is off for the session, so its audio count cannot change",
    )
    SESSION_FILE_MISMATCH = (
        "E_SESSION_FILE_MISMATCH",
        409,
        "the attachment count differs from the attachments the session stores",
    )
    FLOW_MISSING = "E_FLOW_MISSING", 500, "a flow the session needs is not installed"
    # The turn loop
    CARD_ANSWERED = "E_CARD_ANSWERED", 409, "the card was answered already"
    COUNSELOR_SPEAKING = (
        "E_COUNSELOR_SPEAKING",
        409,
        "a counselor is speaking with the client, who writes to them instead",
    )
    # The counselor's workspace
    SESSION_CLOSED = "E_SESSION_CLOSED", 409, "the session is no longer active"
    SESSION_CLOSING = "E_SESSION_CLOSING", 409, "the session is closing"
    ALREADY_CLAIMED = "E_ALREADY_CLAIMED", 409, "another counselor holds the session"
    NOT_HOLDER = "E_NOT_HOLDER", 409, "the caller does not hold the session"
    NOT_TAKEN_OVER = "E_NOT_TAKEN_OVER", 409, "the AI is speaking, take the conversation over first"
    # Homework
    TASK_STATE = "E_TASK_STATE", 409, "the task's status does not allow this"
    # The psychologist
    SESSION_STILL_ACTIVE = (
        "E_SESSION_STILL_ACTIVE",
        409,
        "the session is still active, it is analysed when it closes",
    )
    HYPOTHESIS_DECIDED = (
        "E_HYPOTHESIS_DECIDED",
        409,
        "the hypothesis was accepted or dismissed already",
    )


class ApplicationError(Exception):
    """A refusal a service raises; answered with its code's HTTP status."""

    def __init__(
        self,
        code: ErrorCode,
        detail: str,
        *,
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = code.status
        # One shape for every client: {"name": ["message", …]}.
        self.fields = {
            name: list(value) if isinstance(value, list | tuple) else [str(value)]
            for name, value in (fields or {}).items()
        }
        # Keys the API layer adds to the body, e.g. the current state with a 409.
        self.extra: dict[str, Any] = {}


def invalid(detail: str, **fields: Any) -> ApplicationError:
    """E_VALIDATION with the offending fields: `invalid("…", text="must not be empty")`."""
    return ApplicationError(ErrorCode.VALIDATION, detail, fields=fields)
