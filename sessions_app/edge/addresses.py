"""The client's address, the one the login throttle and the lockout count by (QUALITY R11).

`X-Forwarded-For` is written by whoever sends the request, so it is believed only as far as
proxies we run appended to it: with `TRUSTED_PROXY_HOPS = N`, each of our N proxies appended
the address it received from, and the Nth entry from the right is the one our outermost proxy
saw — everything left of it is the client's own claim. With 0 (the default) the header is
ignored and the socket's address (`REMOTE_ADDR`) is the client.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    """`request` is a Django or DRF request (anything with `.META`)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    hops = settings.TRUSTED_PROXY_HOPS
    if hops <= 0:
        return remote
    forwarded = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [entry for entry in forwarded if entry]
    if len(forwarded) < hops:
        # Fewer entries than proxies: the request did not come through all of them.
        return remote
    candidate = forwarded[-hops]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
