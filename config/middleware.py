"""`OneThreadMiddleware`: the whole middleware chain in one thread under ASGI.

Under ASGI Django runs every async-capable middleware in the event loop, and Django's own
(`MiddlewareMixin`) then calls each `process_request` and `process_response` through
`sync_to_async`: some twenty hand-overs between the loop and the request's thread per request,
each waiting for the GIL while other requests compute. A sync-only middleware at the end of
MIDDLEWARE makes every middleware before it run synchronously (Django adapts the chain once, at
its top), so a request enters its thread once; the view resolver still runs in the loop, the
view back in the same thread. The middleware themselves behave as under WSGI.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase


class OneThreadMiddleware:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)
