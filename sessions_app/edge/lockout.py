"""The sign-in lockout (django-axes, settings.AXES_*) and what a locked-out sign-in gets.

Who is locked: one account *from one address* after LOGIN_FAILURE_LIMIT failures, and one
address for every account after LOGIN_ADDRESS_FAILURE_LIMIT failures across accounts, both for
LOGIN_LOCKOUT_MINUTES. Never an account from everywhere: that would give anyone who knows a
counselor's username a switch to lock her out during a shift, from any address. Never an
address after a handful of failures: behind a NAT, a few colleagues' typos would lock them all.
The address count (`LockoutHandler`) stops one address from guessing across many accounts.

One policy for the staff's pages (`/login/`, `/admin/login/`) and the REST token login: the
API answers `429 {"code": "E_LOCKED_OUT", "detail": …}`, a page answers a plain page saying
when to try again; both carry `Retry-After`. The message is the same whether the account or
the address is locked, so it tells an attacker nothing about which accounts exist.
"""

from __future__ import annotations

import math
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from sessions_app.errors import ErrorCode

LOCKED_OUT = ErrorCode.LOCKED_OUT


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
        response: HttpResponse = JsonResponse(
            {"code": LOCKED_OUT, "detail": detail}, status=LOCKED_OUT.status
        )
    else:
        context = {"detail": detail}
        response = render(
            request, "registration/locked_out.html", context, status=LOCKED_OUT.status
        )
    response["Retry-After"] = str(cooloff_seconds())
    return response


class LockoutHandler(AxesDatabaseHandler):
    """axes' database handler (AXES_HANDLER) with the address's own, higher bound on top of
    its per account-and-address one."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        """Before the password is checked (axes' backend)."""
        if super().is_locked(request, credentials):
            return True
        return address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        """After a failure is recorded: axes re-decides from its own count alone (and a refused
        attempt is recorded too), so the address's count is applied here as well."""
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            request.axes_locked_out = True
            request.axes_credentials = credentials


def address_failures(request: Any) -> int:
    """Failed sign-ins from the request's address, for any account, within the lockout time."""
    attempts = AccessAttempt.objects.filter(
        ip_address=get_client_ip_address(request),
        attempt_time__gte=get_cool_off_threshold(request),
    )
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
