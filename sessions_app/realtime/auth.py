"""Who is on the other end of a websocket (SPEC §8): a token client or a browser.

- **Token** (mobile and API clients): the knox token travels as a subprotocol. The client offers
  `Sec-WebSocket-Protocol: naisei.v1, naisei.token.<token>` and the server selects `naisei.v1`.
  A subprotocol rather than `?token=`: query strings end up in proxy and server access logs.
  Such a connection is authenticated by the token alone — cookies are ignored, an invalid token
  is an anonymous user — and its Origin is not checked: native apps send none, and a forged
  page cannot present a token it does not have.
- **Cookie** (the browser pages): the Origin header must name one of ALLOWED_HOSTS, else the
  handshake is refused (HTTP 403) before any cookie is read — the websocket's CSRF defence.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import AuthenticationFailed

from sessions_app.api.plugins import TokenAuthentication

PROTOCOL = "naisei.v1"
TOKEN_PROTOCOL_PREFIX = "naisei.token."


def token_from_subprotocols(subprotocols: list[str]) -> str | None:
    for offered in subprotocols:
        if offered.startswith(TOKEN_PROTOCOL_PREFIX):
            return offered.removeprefix(TOKEN_PROTOCOL_PREFIX)
    return None


def accepted_subprotocol(scope: dict[str, Any]) -> str | None:
    """The subprotocol to accept with: ours when offered (browsers fail a handshake that
    ignores the protocols they offered), never the token itself."""
    return PROTOCOL if PROTOCOL in (scope.get("subprotocols") or []) else None


@database_sync_to_async
def user_for_token(token: str) -> Any:
    try:
        user, _ = TokenAuthentication().authenticate_credentials(token.encode("ascii"))
    except (AuthenticationFailed, UnicodeEncodeError):
        return AnonymousUser()
    return user


class AllowedHostsOrigin(OriginValidator):
    """Channels' origin check against ALLOWED_HOSTS, read per connection (not at import)."""

    def __init__(self, application: Any) -> None:
        super().__init__(application, [])

    def valid_origin(self, parsed_origin: Any) -> bool:
        if parsed_origin is None:
            return False
        return any(
            pattern == "*" or self.match_allowed_origin(parsed_origin, pattern)
            for pattern in settings.ALLOWED_HOSTS
        )


class WebsocketAuthMiddleware:
    """Token connections straight through; cookie connections origin-checked, then the
    session cookie authenticates them. Sets `scope["user"]` and `scope["auth_method"]`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.browser = AllowedHostsOrigin(AuthMiddlewareStack(inner))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        token = token_from_subprotocols(scope.get("subprotocols") or [])
        if token is None:
            return await self.browser({**scope, "auth_method": "cookie"}, receive, send)
        user = await user_for_token(token)
        return await self.inner({**scope, "user": user, "auth_method": "token"}, receive, send)
