"""Every API error is `{"code": "E_…", "detail": "…"}`, plus `"fields"` for E_VALIDATION.

The DRF exception handler covers views; `page_not_found` and `server_error` cover what Django
answers itself for /api/ paths (no route, an unhandled crash), and `UnknownApiPath`, the API's
last route, covers an unknown path with DEBUG on.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import TooManyFilesSent
from django.views import defaults
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from sessions_app.errors import ApplicationError, ErrorCode

logger = logging.getLogger(__name__)

# A lost database (down, restarting, its pool exhausted) is worth a retry, not a traceback.
DATABASE_ERRORS = (OperationalError, InterfaceError)
LIMIT_ERRORS = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)
RETRY_AFTER_SECONDS = 5
UNAVAILABLE_PAGE = (
    "<!doctype html><title>Temporarily unavailable</title>"
    "<h1>Temporarily unavailable</h1><p>Please try again in a few seconds.</p>"
)

_CODES: list[tuple[type[exceptions.APIException], ErrorCode]] = [
    (exceptions.ValidationError, ErrorCode.VALIDATION),
    (exceptions.ParseError, ErrorCode.VALIDATION),
    (exceptions.NotAuthenticated, ErrorCode.UNAUTHENTICATED),
    (exceptions.AuthenticationFailed, ErrorCode.UNAUTHENTICATED),
    (exceptions.PermissionDenied, ErrorCode.FORBIDDEN),
    (exceptions.NotFound, ErrorCode.NOT_FOUND),
    (exceptions.MethodNotAllowed, ErrorCode.METHOD_NOT_ALLOWED),
    (exceptions.NotAcceptable, ErrorCode.NOT_ACCEPTABLE),
    (exceptions.UnsupportedMediaType, ErrorCode.UNSUPPORTED_MEDIA_TYPE),
    (exceptions.Throttled, ErrorCode.THROTTLED),
]


class ErrorOutput(serializers.Serializer):
    """The body of every error response."""

    code = serializers.CharField(help_text="A stable machine code, E_…")
    detail = serializers.CharField(help_text="A human-readable explanation.")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='E_VALIDATION only: the messages of each input field, {"name": ["…"]}.',
    )


def _unavailable(request: Any, exc: BaseException) -> dict[str, Any]:
    """Logs a lost database as one line by the error's type; the body of its 503."""
    path = getattr(request, "path", "")
    logger.warning("database.unavailable path=%s error=%s", path, type(exc).__name__)
    return error_body(
        ErrorCode.UNAVAILABLE, "The service is temporarily unavailable; retry shortly."
    )


def unavailable_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """503 with Retry-After for a lost database: JSON under /api/, a bare page elsewhere."""
    body = _unavailable(request, exc)
    if _is_api(request):
        response: HttpResponse = JsonResponse(body, status=ErrorCode.UNAVAILABLE.status)
    else:
        # A bare page: the site's templates read the signed-in user, i.e. the database.
        response = HttpResponse(UNAVAILABLE_PAGE, status=ErrorCode.UNAVAILABLE.status)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def error_body(code: ErrorCode, detail: str, fields: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "detail": detail}
    if fields:
        body["fields"] = fields
    return body


def _validation_fields(exc: exceptions.APIException) -> dict[str, list[str]]:
    if isinstance(exc, exceptions.ParseError):
        return {"body": [str(exc.detail)]}
    return _flat_fields(exc.detail, "non_field_errors")


def _flat_fields(detail: Any, name: str) -> dict[str, list[str]]:
    """DRF nests the errors of nested fields; clients get one level, `{"a.b": ["…"]}`, so that
    every validation error parses the same way."""
    if isinstance(detail, dict):
        prefix = "" if name == "non_field_errors" else f"{name}."
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            flat |= _flat_fields(value, f"{prefix}{key}")
        return flat
    if isinstance(detail, list) and any(isinstance(item, dict | list) for item in detail):
        flat = {}
        for index, item in enumerate(detail):
            flat |= _flat_fields(item, f"{name}.{index}") if item else {}
        return flat
    messages = detail if isinstance(detail, list) else [detail]
    return {name: [str(message) for message in messages]}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, ApplicationError):
        set_rollback()
        headers = {"WWW-Authenticate": "Token"} if exc.status == 401 else None
        body = error_body(exc.code, exc.detail, exc.fields) | exc.extra
        return Response(body, status=exc.status, headers=headers)
    if isinstance(exc, DATABASE_ERRORS):
        set_rollback()
        body = _unavailable(context.get("request"), exc)
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        return Response(body, status=ErrorCode.UNAVAILABLE.status, headers=headers)
    if isinstance(exc, LIMIT_ERRORS):
        # The edge middleware answers these first; a view that reads the body itself still
        # must not turn them into a 500.
        detail = "The request is too large."
        code = ErrorCode.PAYLOAD_TOO_LARGE
        return Response(error_body(code, detail), status=code.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        # Never an HTML page or a bare 500 from the API; the request body is not logged.
        logger.exception("unhandled API error view=%s", type(context.get("view")).__name__)
        set_rollback()
        code = ErrorCode.INTERNAL
        return Response(error_body(code, "Internal server error."), status=code.status)
    response = drf_exception_handler(exc, context)  # sets Retry-After / WWW-Authenticate
    assert response is not None
    code = next((c for cls, c in _CODES if isinstance(exc, cls)), ErrorCode.ERROR)
    if code == ErrorCode.VALIDATION:
        response.data = error_body(code, "Invalid input.", _validation_fields(exc))
    else:
        response.data = error_body(code, str(exc.detail))
    return response


def _json(code: ErrorCode, detail: str) -> JsonResponse:
    return JsonResponse(error_body(code, detail), status=code.status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


class UnknownApiPath(APIView):
    """Any path under /api/ that no route takes. With DEBUG on, Django answers an unmatched path
    with its technical HTML page and never reaches `page_not_found`; the API's last route is
    this view instead, so the answer is the same JSON `E_NOT_FOUND` whatever DEBUG says."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    schema = None  # not an endpoint: the document lists what exists

    def _not_found(self, request: Any, rest: str = "") -> Response:
        raise exceptions.NotFound("Not found.")

    get = post = put = patch = delete = _not_found


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _json(ErrorCode.NOT_FOUND, "Not found.")
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_ERRORS):
        # Lost in a middleware, before any view: still a 503, never a 500 page.
        return unavailable_response(request, exc)
    if _is_api(request):
        return _json(ErrorCode.INTERNAL, "Internal server error.")
    return defaults.server_error(request)
