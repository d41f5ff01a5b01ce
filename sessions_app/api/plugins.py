"""DRF plugins named in settings: authentication, parsing, rendering.

Kept apart from the views: DRF imports these while `rest_framework.views` is still loading.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions, parsers, renderers

_TOKEN_RE = re.compile(r"[A-Za-z0-9]{15,128}")


class TokenAuthentication(KnoxTokenAuthentication):
    """Knox tokens (stored hashed, expiring), hardened against malformed headers."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        # Knox decodes and queries whatever arrives; a NUL byte or non-UTF-8 would be a 500.
        try:
            text = token.decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        if not _TOKEN_RE.fullmatch(text):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token: Any) -> bool:
        # Knox also sweeps all the user's other tokens on every request: a query the list's
        # budget (QUALITY P3) cannot afford. Login sweeps expired tokens instead.
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:  # absurdly nested JSON is bad input, not a server error
            raise exceptions.ParseError("JSON nested too deeply.") from None


class JSONRenderer(renderers.JSONRenderer):
    """UTF-8 JSON; falls back to \\u escapes when a string cannot be encoded.

    An error message may quote the caller's input, and JSON may carry a lone surrogate that no
    UTF-8 encoder accepts: answering that with a 500 would let input crash the API.
    """

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            self.ensure_ascii = True
            return super().render(data, accepted_media_type, renderer_context)
