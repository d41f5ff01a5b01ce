"""The machinery every API view shares: the base view (idempotent POSTs), the token scheme
of the OpenAPI document, throttles and keyset pagination. Later apps' endpoints plug into the
same pieces."""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions, throttling
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.views import APIView

from sessions_app.idempotency import idempotent, idempotent_staged


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
            cls.post = idempotent_staged(post) if cls.idempotency_staged else idempotent(post)


class TokenScheme(OpenApiAuthenticationExtension):
    target_class = "sessions_app.api_plugins.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )


class LoginThrottle(throttling.AnonRateThrottle):
    scope = "login"


class WriteThrottle(throttling.UserRateThrottle):
    """Per user, only on unsafe methods: reads stay unthrottled."""

    scope = "write"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return super().allow_request(request, view)


class ExportThrottle(throttling.UserRateThrottle):
    scope = "export"


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
