"""`ApiNoStoreMiddleware`: no response under /api/ is kept by any cache on the way.

An API answer is one caller's own data — its sessions, its export, a token — and a shared proxy,
the browser's disk or a phone's HTTP cache must not hold a copy of it. The header is set here,
for every path under /api/, rather than in the API's base view: the stream, the files, Django's
own 404/500/503 and the edge's 413 answer there too without passing through DRF. The public
OpenAPI document gains nothing from a cache worth a second rule.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import add_never_cache_headers
from django.utils.deprecation import MiddlewareMixin

API_PREFIX = "/api/"


class ApiNoStoreMiddleware(MiddlewareMixin):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if request.path.startswith(API_PREFIX):
            # no-store, no-cache, must-revalidate, private, max-age=0 and an Expires of now.
            add_never_cache_headers(response)
        return response
