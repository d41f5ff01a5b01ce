"""Request limits and database outages, answered by the edge instead of a traceback.

`RequestLimitsMiddleware` runs before sessions, CSRF and authentication: a body over
`DATA_UPLOAD_MAX_MEMORY_SIZE` (env `REQUEST_MAX_BODY_BYTES`), too many fields or too many files
answer `413 {"code": "E_PAYLOAD_TOO_LARGE"}` on every route, anonymous or not, logged as one
line. Django would raise these lazily wherever the body is first read — inside a DRF view (a
500) or in the CSRF middleware (a 400 with a traceback in the log) — so the body and form are
read here, once, where the answer is ours.

`DatabaseUnavailableMiddleware` turns a lost database in an HTML view into 503 with
`Retry-After`; the API's exception handler does the same for API views (QUALITY R10).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError, TooManyFilesSent
from django.utils.deprecation import MiddlewareMixin

from sessions_app.api.errors import unavailable_response

logger = logging.getLogger(__name__)

TOO_LARGE = "E_PAYLOAD_TOO_LARGE"
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


def too_large(request: HttpRequest, reason: str) -> HttpResponse:
    # One line, no traceback, no body: the path and the limit that was hit.
    logger.warning(
        "request.too_large method=%s path=%s reason=%s", request.method, request.path, reason
    )
    body = {"code": TOO_LARGE, "detail": f"The request is too large ({reason})."}
    return JsonResponse(body, status=413)


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
