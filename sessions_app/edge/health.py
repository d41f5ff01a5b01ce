"""Liveness and readiness (QUALITY R10).

`/healthz` says the process answers and touches nothing. `/readyz` probes each dependency and
says which is degraded: the database (without it nothing works: 503), and the ones the product
degrades without — Redis as cache/throttles and as the channel layer (pushes are best-effort,
throttles fail open), the django-q worker (tasks wait in the database until it is back), the LLM
(the engine answers with its offline fallback). Probes answer with the error's type, never a
message, a host or a password.
"""

from __future__ import annotations

import socket
import uuid
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django_q.models import OrmQ

OK, DOWN, UNKNOWN = "ok", "down", "unknown"
PROBE_TIMEOUT_SECONDS = 1.0
# A task nobody picked up this long after it became due means no worker is running.
WORKER_STALL = timedelta(minutes=1)
ANTHROPIC_DEFAULT_URL = "https://api.anthropic.com"


def _down(exc: BaseException) -> dict[str, Any]:
    return {"status": DOWN, "error": type(exc).__name__}


def probe_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any driver's connection error
        return _down(exc)
    return {"status": OK, "vendor": connection.vendor}


def probe_cache() -> dict[str, Any]:
    key = f"naisei:readyz:{uuid.uuid4().hex}"
    try:
        cache.set(key, "1", timeout=5)
        healthy = cache.get(key) == "1"
        cache.delete(key)
    except Exception as exc:  # the cache backend's connection error
        return _down(exc)
    return {"status": OK if healthy else DOWN}


def probe_channel_layer() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"status": OK, "backend": "memory"}
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
        socket_timeout=PROBE_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except Exception as exc:  # redis-py's connection and timeout errors
        return _down(exc)
    finally:
        client.close()
    return {"status": OK, "backend": "redis"}


def probe_worker(database_up: bool) -> dict[str, Any]:
    if not database_up:
        return {"status": UNKNOWN}
    if settings.Q_CLUSTER.get("sync"):
        return {"status": OK, "mode": "sync"}
    try:
        stalled = OrmQ.objects.filter(lock__lt=timezone.now() - WORKER_STALL).count()
    except Exception as exc:  # the broker table is the database
        return _down(exc)
    return {"status": DOWN if stalled else OK, "stalled_tasks": stalled}


def probe_llm() -> dict[str, Any]:
    if settings.LLM_PROVIDER != "anthropic":
        return {"status": OK, "provider": settings.LLM_PROVIDER}
    # Reachability only: a real call on every probe would cost money.
    url = urlsplit(settings.ANTHROPIC_BASE_URL or ANTHROPIC_DEFAULT_URL)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        socket.create_connection((url.hostname, port), timeout=PROBE_TIMEOUT_SECONDS).close()
    except OSError as exc:
        return {**_down(exc), "provider": "anthropic"}
    return {"status": OK, "provider": "anthropic"}


def readiness() -> tuple[int, dict[str, Any]]:
    database = probe_database()
    up = database["status"] == OK
    dependencies = {
        "database": database,
        "cache": probe_cache(),
        "channel_layer": probe_channel_layer(),
        "worker": probe_worker(up),
        "llm": probe_llm(),
    }
    if not up:
        return 503, {"status": DOWN, "dependencies": dependencies}
    degraded = any(probe["status"] != OK for probe in dependencies.values())
    return 200, {"status": "degraded" if degraded else OK, "dependencies": dependencies}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": OK})


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    status, body = readiness()
    response = JsonResponse(body, status=status)
    if status == 503:
        response["Retry-After"] = "5"
    return response
