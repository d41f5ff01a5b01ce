"""The machinery every API view shares: the base view (idempotent POSTs), the OpenAPI
document's schema class and extensions, throttles and keyset pagination. Later apps' endpoints
plug into the same pieces."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.urls import URLPattern, path
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.extensions import (
    OpenApiAuthenticationExtension,
    OpenApiSerializerExtension,
)
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, throttling
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sessions_app.api.errors import ErrorOutput
from sessions_app.api.idempotency import HEADER, KEY_PATTERN, idempotent, idempotent_staged
from sessions_app.edge.addresses import client_address
from sessions_app.errors import ErrorCode

logger = logging.getLogger(__name__)


class ApiView(APIView):
    """Base of every Naisei API view.

    Every `post` handler of a subclass is wrapped in `idempotent`, so no POST endpoint can
    forget `Idempotency-Key`. A view opts out only by naming why in `idempotency_exempt`.
    """

    idempotency_exempt: str = ""
    # Handlers that call a model: the key is claimed and the response stored in transactions of
    # their own, never one transaction around the model call (see `idempotent_staged`).
    idempotency_staged: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        post = cls.__dict__.get("post")
        if post is not None and not cls.idempotency_exempt:
            if cls.idempotency_staged and cls.idempotent_result is ApiView.idempotent_result:
                raise TypeError(f"{cls.__name__} is staged: it must define idempotent_result")
            cls.post = idempotent_staged(post) if cls.idempotency_staged else idempotent(post)

    def idempotent_result(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Staged views: the answer to a keyed retry of a request whose work committed but whose
        process died before its response was stored (see `idempotent_staged`)."""
        raise NotImplementedError


IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    {"type": "string", "pattern": f"^{KEY_PATTERN}$"},
    OpenApiParameter.HEADER,
    required=False,
    description="A retry with the same key returns the first response and changes nothing.",
)


# A failure an operation documents: a code, or a code with what causes it on this operation.
Failure = ErrorCode | tuple[ErrorCode, str]
# Any operation but login may answer these; an operation documents them again only to say more.
ANY_OPERATION = (ErrorCode.UNAUTHENTICATED, ErrorCode.THROTTLED)
# What any request may be answered with, whatever its operation: a server fault, a lost database,
# the edge's limits, DRF's content negotiation. The document's description lists them once.
ANY_REQUEST = (
    ErrorCode.METHOD_NOT_ALLOWED,
    ErrorCode.NOT_ACCEPTABLE,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INTERNAL,
    ErrorCode.ERROR,
    ErrorCode.FLOW_MISSING,
    ErrorCode.UNAVAILABLE,
)


def _split(failure: Failure) -> tuple[ErrorCode, str]:
    return failure if isinstance(failure, tuple) else (failure, "")


def described(*failures: Failure) -> str:
    """One status's description in the OpenAPI document, written from the codes' own:
    `E_FORBIDDEN: the caller may not do this (clients only); E_…`."""
    return _described("", failures)


def _described(before: str, failures: tuple[Failure, ...]) -> str:
    text = before
    for failure in failures:
        code, cause = _split(failure)
        # A code explained once is not explained again: only another cause of it is named.
        explained = re.search(rf"(^|; ){code}: ", text) is not None
        if explained and (not cause or f"{code} ({cause})" in text):
            continue
        part = str(code) if explained else f"{code}: {code.description}"
        part = f"{part} ({cause})" if cause else part
        text = f"{text}; {part}" if text else part
    return text


def errors(*failures: Failure) -> dict[int, OpenApiResponse]:
    """An operation's error responses, each status described from its codes:
    `errors(ErrorCode.NOT_FOUND, (ErrorCode.FORBIDDEN, "clients only"))` → {401, 429, 404, 403}.
    """
    named = {_split(failure)[0] for failure in failures}
    by_status: dict[int, list[Failure]] = {}
    for failure in (*(code for code in ANY_OPERATION if code not in named), *failures):
        by_status.setdefault(_split(failure)[0].status, []).append(failure)
    return {
        status: OpenApiResponse(ErrorOutput, description=described(*listed))
        for status, listed in by_status.items()
    }


def any_request_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the errors any request may get, appended to the
    document's description from their codes."""
    rows = "".join(f"\n- `{code}` ({code.status}): {code.description}" for code in ANY_REQUEST)
    result["info"]["description"] += f"\nAny request may also be answered with:\n{rows}\n"
    return result


SESSION_ID = OpenApiParameter(
    "session_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The session's `_id`."
)


def session_path(route: str, view: type[APIView], name: str) -> URLPattern:
    """The URL of an operation on one session: `ask/sessions/<session_id>/<route>`."""
    return path(f"ask/sessions/<uuid:session_id>/{route}", view.as_view(), name=name)


def session_operation(
    operation_id: str,
    output: Any,
    failures: dict[int, OpenApiResponse],
    *,
    status: int = 200,
    parameters: tuple[OpenApiParameter, ...] = (),
    **schema: Any,
) -> Any:
    """`extend_schema` for an operation on one session: the `session_id` path parameter first,
    `output` answered with `status`, then the documented `failures` (see `errors`)."""
    return extend_schema(
        operation_id=operation_id,
        parameters=[SESSION_ID, *parameters],
        responses={status: output, **failures},
        **schema,
    )


class ApiSchema(AutoSchema):
    """Documents what `ApiView` adds to every idempotent POST — the `Idempotency-Key` header and
    the errors it can cause — so no operation's schema can forget them, as no view can."""

    def _idempotent(self) -> bool:
        handler = getattr(self.view, "post", None)
        return self.method == "POST" and getattr(handler, "idempotent", False)

    def get_override_parameters(self) -> list[Any]:
        parameters = super().get_override_parameters()
        return [*parameters, IDEMPOTENCY_PARAMETER] if self._idempotent() else parameters

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        # Added to the finished operation: `extend_schema` overrides the response hooks.
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return operation
        if "requestBody" in operation and getattr(self.get_request_serializer(), "min_fields", 0):
            # drf-spectacular leaves a PATCH body optional; one that must name a field is not.
            operation["requestBody"]["required"] = True
        if not self._idempotent():
            return operation
        added: list[Failure] = [
            (ErrorCode.VALIDATION, "a malformed Idempotency-Key"),
            ErrorCode.IDEMPOTENCY_KEY_REUSED,
        ]
        if getattr(self.view, "idempotency_staged", False):
            added.append(ErrorCode.IDEMPOTENCY_IN_PROGRESS)
        error = {
            "application/json": {"schema": self.resolve_serializer(ErrorOutput, "response").ref}
        }
        responses = operation["responses"]
        for failure in added:
            status = str(_split(failure)[0].status)
            response = responses.setdefault(status, {"content": error, "description": ""})
            response["description"] = _described(response["description"], (failure,))
        return operation


class StrictInputSchema(OpenApiSerializerExtension):
    """A `StrictSerializer` rejects keys it does not declare: its request schema says so."""

    target_class = "sessions_app.api.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        if direction == "request":
            schema["additionalProperties"] = False
            if self.target.min_fields:
                schema["minProperties"] = self.target.min_fields
        return schema


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "sessions_app.api.plugins.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )


class FailOpen:
    """A throttle whose cache (Redis) is down lets the request through and logs the failure by
    type: a throttle must never cost a client its answer, nor a crisis its escalation (R10).
    Anonymous requests are counted by the client's address as `client_address` reads it."""

    scope: str

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception as exc:  # any cache backend's connection error
            logger.warning("throttle.unavailable scope=%s error=%s", self.scope, type(exc).__name__)
            return True

    def get_ident(self, request: Request) -> str:
        # DRF's own trusts any X-Forwarded-For when NUM_PROXIES is unset: a spoofed address per
        # try would reset the login throttle. Ours believes only the trusted proxy hops (R11).
        return client_address(request)


class LoginThrottle(FailOpen, throttling.AnonRateThrottle):
    scope = "login"


class WriteThrottle(FailOpen, throttling.UserRateThrottle):
    """Per user, only on unsafe methods: reads stay unthrottled."""

    scope = "write"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)


class ExportThrottle(FailOpen, throttling.UserRateThrottle):
    scope = "export"


# What any list takes besides its filters: the keyset cursor and DRF's format override.
LIST_PARAMETERS = frozenset({"cursor", "format"})


def list_filters(request: Request, filters: type) -> dict[str, Any]:
    """A list's query, validated by the `filters` serializer. A parameter the list does not
    know is refused, named (400 E_VALIDATION): a typo ("?risk_level=L3") must never return an
    unfiltered list (SPEC §9)."""
    query = query_of(request)
    unknown = sorted(set(query) - set(filters().fields) - LIST_PARAMETERS)
    if unknown:
        raise exceptions.ValidationError(
            {name: [_("Unknown query parameter.")] for name in unknown}
        )
    return validated(filters(data=query))


def query_of(request: Request) -> dict[str, str]:
    """The query string for a filter serializer. Given the QueryDict itself, DRF reads it with
    HTML-form rules, where `?risk=` means "risk omitted": an empty or malformed-by-omission
    filter would be ignored instead of refused as the schema (an enum, a date) says."""
    return request.query_params.dict()


class KeysetPagination(CursorPagination):
    """Cursor pagination over a (datetime, id) ordering: stable while rows are inserted."""

    page_size = 20
    max_page_size = 20

    def decode_cursor(self, request: Request) -> Any:
        try:
            cursor = super().decode_cursor(request)
        except exceptions.NotFound:
            cursor = None
            self._invalid_cursor()
        if cursor is not None and cursor.position is not None:
            # DRF would hand an unchecked string to the ORM, where a bad datetime is a 500.
            try:
                valid = parse_datetime(cursor.position) is not None
            except ValueError:
                valid = False
            if not valid:
                self._invalid_cursor()
        return cursor

    def _invalid_cursor(self) -> None:
        raise exceptions.ValidationError({self.cursor_query_param: ["Invalid cursor."]})


class SessionPagination(KeysetPagination):
    ordering = ("-created_at", "-id")


class NotificationPagination(KeysetPagination):
    ordering = ("-scheduled_for", "-id")


def validated(serializer: Any) -> dict[str, Any]:
    """The serializer's validated data; invalid input raises (answered as E_VALIDATION)."""
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
