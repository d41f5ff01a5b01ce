"""What a staff page answers when it does not render itself: an `ApplicationError` in the page's
flash slot, and the way back to the page the request came from — only ever a page of this site.
The sessions pages and the psychologist's moves (posted from the insights dashboard) share it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import reswap, retarget

from sessions_app.errors import ApplicationError

FLASH = "sessions_app/session_detail.html#flash"


def back_url(request: HttpRequest, target: str, *, fallback: str) -> str:
    """`target` when it is a page of this site, else `fallback` (a URL or a URL name). A target
    is the client's to write (a Referer, a `next` field): following any of them would be an open
    redirect. Answer with `HttpResponseRedirect`, never `redirect()`, which would try a bare word
    as a URL name and answer 500."""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else resolve_url(fallback)


def error_response(request: HttpRequest, exc: ApplicationError, *, back: str) -> HttpResponse:
    """The error fragment ({code, detail}) swapped into the page's flash slot, with the error's
    status; without htmx, a flash message and a redirect to `back` (a URL)."""
    if not request.htmx:
        messages.error(request, f"{exc.code}: {exc.detail}")
        return HttpResponseRedirect(back)
    response = render(request, FLASH, {"error": exc}, status=exc.status)
    return reswap(retarget(response, "#flash"), "innerHTML")
