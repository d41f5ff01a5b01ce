"""Request limits and database outages, answered by the edge instead of a traceback.

`RequestLimitsMiddleware` runs before sessions, CSRF and authentication: a body over
`DATA_UPLOAD_MAX_MEMORY_SIZE` (env `REQUEST_MAX_BODY_BYTES`), too many fields or too many files
answer `413 {"code": "E_PAYLOAD_TOO_LARGE"}` on every route, anonymous or not, logged as one
line. Django would raise these lazily wherever the body is first read — inside a DRF view (a
500) or in the CSRF middleware (a 400 with a traceback in the log) — so the body and form are
read here, once, where the answer is ours.

The body is bounded where its bytes arrive, before Django would spool all of it to a temporary
file (docs/decisions/0007-hostile-input-is-bounded.md): `BodyLimitMiddleware` wraps the ASGI
application (uvicorn, `make serve-prod`,
hands it the body as it is read): a declared `Content-Length` over the limit is answered before
a byte of the body is read, a chunked body once it passes the limit. Daphne (the dev server,
runserver) reads a whole body through Twisted before the application sees any of it, so
`daphne_body_limit()` bounds its request class the same way.

`DatabaseUnavailableMiddleware` turns a lost database in an HTML view into 503 with
`Retry-After`; the API's exception handler does the same for API views (QUALITY R10).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError, TooManyFilesSent
from django.utils.deprecation import MiddlewareMixin

from sessions_app.api.errors import unavailable_response
from sessions_app.errors import ErrorCode

logger = logging.getLogger(__name__)

TOO_LARGE = ErrorCode.PAYLOAD_TOO_LARGE
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


def too_large(request: HttpRequest, reason: str) -> HttpResponse:
    # One line, no traceback, no body: the path and the limit that was hit.
    logger.warning(
        "request.too_large method=%s path=%s reason=%s", request.method, request.path, reason
    )
    body = {"code": TOO_LARGE, "detail": f"The request is too large ({reason})."}
    return JsonResponse(body, status=TOO_LARGE.status)


def _too_large_bytes(method: str, path: str) -> bytes:
    logger.warning("request.too_large method=%s path=%s reason=body", method, path)
    return json.dumps({"code": TOO_LARGE, "detail": "The request is too large (body)."}).encode()


def _declared(value: bytes | str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0


Scope = dict[str, Any]
Message = dict[str, Any]


class BodyLimitMiddleware:
    """ASGI: an HTTP body over DATA_UPLOAD_MAX_MEMORY_SIZE is refused as its bytes arrive."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(
        self,
        scope: Scope,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if scope["type"] != "http" or limit is None:
            return await self.app(scope, receive, send)

        async def refuse() -> None:
            body = _too_large_bytes(scope.get("method", ""), scope.get("path", ""))
            headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
            headers.append((b"content-length", str(len(body)).encode()))
            await send(
                {"type": "http.response.start", "status": TOO_LARGE.status, "headers": headers}
            )
            await send({"type": "http.response.body", "body": body})

        declared = dict(scope.get("headers") or []).get(b"content-length")
        if _declared(declared) > limit:
            return await refuse()
        taken, refused = 0, False

        async def bounded_receive() -> Message:
            nonlocal taken, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                taken += len(message.get("body", b""))
                if taken > limit:
                    # Answered here; Django sees the client gone and stops reading.
                    refused = True
                    await refuse()
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, bounded_receive, send)


def daphne_body_limit() -> None:
    """Bound daphne's request class (the dev server's): Twisted otherwise writes a whole body
    to a temporary file before daphne hands it to the application. Idempotent."""
    try:
        from daphne import http_protocol
    except ImportError:  # not serving through daphne
        return
    if getattr(http_protocol.WebRequest, "body_bounded", False):
        return
    http_protocol.WebRequest = _bounded_request(http_protocol.WebRequest)


def _bounded_request(base: type) -> type:
    class BoundedWebRequest(base):
        body_bounded = True
        _taken = 0
        _refused = False

        def gotLength(self, length: int | None) -> None:
            super().gotLength(length)
            if (length or 0) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                self._refuse()

        def handleContentChunk(self, data: bytes) -> None:
            if self._refused:
                return
            self._taken += len(data)
            if self._taken > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                self._refuse()
                return
            super().handleContentChunk(data)

        def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
            if not self._refused:
                super().requestReceived(command, path, version)

        def _refuse(self) -> None:
            # The request line is parsed, the body is not: answer on the wire and hang up.
            self._refused = True
            method = getattr(self.channel, "_command", b"").decode("latin-1")
            path = getattr(self.channel, "_path", b"").split(b"?")[0].decode("latin-1")
            body = _too_large_bytes(method, path)
            transport = self.channel.transport
            transport.write(
                b"HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\n"
                b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            transport.loseConnection()

    return BoundedWebRequest


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RequestLimitsMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and _declared_length(request) > limit:
            return too_large(request, "body")
        try:
            request.GET  # noqa: B018  (parsing counts the query's fields)
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                request.body  # noqa: B018  (reading checks the real size of a chunked body)
                if request.content_type in FORM_TYPES:
                    request.POST  # noqa: B018  (counts fields and files)
        except RequestDataTooBig:
            return too_large(request, "body")
        except TooManyFieldsSent:
            return too_large(request, "fields")
        except TooManyFilesSent:
            return too_large(request, "files")
        except MultiPartParserError:
            pass  # a malformed form is the view's 400, as before
        return None


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError | InterfaceError):
            return unavailable_response(request, exception)
        return None
