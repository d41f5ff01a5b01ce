"""What a locked-out sign-in gets (django-axes calls `lockout_response`, settings.AXES_*).

One policy for the staff's pages (`/login/`, `/admin/login/`) and the REST token login: the
API answers `429 {"code": "E_LOCKED_OUT", "detail": …}`, a page answers a plain page saying
when to try again; both carry `Retry-After`. The message is the same whether the account or
the address is locked, so it tells an attacker nothing about which accounts exist.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_OUT = "E_LOCKED_OUT"
STATUS = 429


def cooloff_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def locked_out_detail() -> str:
    minutes = math.ceil(cooloff_seconds() / 60)
    return (
        f"Too many failed sign-ins. Signing in is locked for {minutes} minutes; "
        "ask an administrator if you need access sooner."
    )


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """axes' AXES_LOCKOUT_CALLABLE. It passes (request, response, credentials) on the sync path
    and (request, credentials) on the async one: neither is needed here."""
    detail = locked_out_detail()
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"code": LOCKED_OUT, "detail": detail}, status=STATUS)
    else:
        context = {"detail": detail}
        response = render(request, "registration/locked_out.html", context, status=STATUS)
    response["Retry-After"] = str(cooloff_seconds())
    return response
