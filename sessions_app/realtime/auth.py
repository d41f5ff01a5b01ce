"""Who is on the other end of a websocket (SPEC §8): a token client or a browser.

- **Token** (mobile and API clients): the knox token travels as a subprotocol. The client offers
  `Sec-WebSocket-Protocol: naisei.v1, naisei.token.<token>` and the server selects `naisei.v1`.
  A subprotocol rather than `?token=`: query strings end up in proxy and server access logs.
  Such a connection is authenticated by the token alone — cookies are ignored, an invalid token
  is an anonymous user — and its Origin is not checked: native apps send none, and a forged
  page cannot present a token it does not have.
- **Cookie** (the browser pages): the Origin must be the page's own — scheme, host and port
  equal to the connection's (its Host header, ws → http, wss → https), the host one of
  ALLOWED_HOSTS — or one of CSRF_TRUSTED_ORIGINS, else the handshake is refused (HTTP 403)
  before any cookie is read: the websocket's CSRF defence. Host names alone are not enough:
  another site on an allowed host, on another port or scheme, is another origin.

Either way the connection lasts only as long as what opened it (`credentials_valid`, checked by
the consumers periodically and when a logout or a revoked token is broadcast).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from django.utils.http import is_same_domain
from knox.models import AuthToken
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
def credentials_for_token(token: str) -> dict[str, Any]:
    """The scope's `user`, and the token's digest and expiry that keep it valid."""
    try:
        user, auth_token = TokenAuthentication().authenticate_credentials(token.encode("ascii"))
    except (AuthenticationFailed, UnicodeEncodeError):
        return {"user": AnonymousUser()}
    return {"user": user, "token_digest": auth_token.digest, "token_expiry": auth_token.expiry}


def credentials_valid(scope: dict[str, Any]) -> bool:
    """Whether what opened this connection still holds: its token is neither revoked nor
    expired, or its browser session still exists and names the same user (a logout flushes
    it) — and the user is still active."""
    user = scope["user"]
    if scope.get("auth_method") == "token":
        live = AuthToken.objects.filter(digest=scope["token_digest"], user__is_active=True)
        expiry = scope.get("token_expiry")
        return live.exists() and (expiry is None or expiry > timezone.now())
    session_key = scope["session"].session_key
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    data = store.load()
    active = get_user_model().objects.filter(pk=user.pk, is_active=True).exists()
    return data.get(SESSION_KEY) == str(user.pk) and active


Origin = tuple[str, str, int]  # scheme, host, port
DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_origin(value: str) -> Origin | None:
    """(scheme, host, port) of an http(s) origin; None for anything else ("null", garbage)."""
    try:
        parts = urlsplit(value.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _connection_scheme(scope: dict[str, Any]) -> str:
    proxy = settings.SECURE_PROXY_SSL_HEADER  # ("HTTP_X_FORWARDED_PROTO", "https") in production
    if proxy:
        name = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if _header(scope, name) == proxy[1]:
            return "https"
    return "https" if scope.get("scheme") == "wss" else "http"


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the page this connection belongs to, if its Host is one of ours."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = _connection_scheme(scope)
    return scheme, domain, int(port) if port else DEFAULT_PORTS[scheme]


def _trusted(origin: Origin) -> bool:
    """One of CSRF_TRUSTED_ORIGINS, compared as Django's CSRF check does (`*.` for subdomains)."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = parse_origin(entry.replace("://*.", "://", 1))
        if trusted is None or (trusted[0], trusted[2]) != (scheme, port):
            continue
        if host == trusted[1] or (wildcard and is_same_domain(host, f".{trusted[1]}")):
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = parse_origin(_header(scope, b"origin") or "")
    if origin is None:
        return False
    return origin == own_origin(scope) or _trusted(origin)


class SameOrigin:
    """Refuses a browser's handshake from any origin but the page's own or a trusted one."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


class WebsocketAuthMiddleware:
    """Token connections straight through; cookie connections origin-checked, then the
    session cookie authenticates them. Sets `scope["user"]` and `scope["auth_method"]`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.browser = SameOrigin(AuthMiddlewareStack(inner))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        token = token_from_subprotocols(scope.get("subprotocols") or [])
        if token is None:
            return await self.browser({**scope, "auth_method": "cookie"}, receive, send)
        credentials = await credentials_for_token(token)
        return await self.inner({**scope, **credentials, "auth_method": "token"}, receive, send)
