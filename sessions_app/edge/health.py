"""Liveness and readiness (QUALITY R10).

`/healthz` says the process answers and touches nothing. `/readyz` probes each dependency and
says which is degraded: the database (without it nothing works: 503), and the ones the product
degrades without — Redis as cache/throttles and as the channel layer (pushes are best-effort,
throttles fail open), the django-q worker (tasks wait in the database until it is back), the LLM
(the engine answers with its offline fallback). Probes answer with the error's type, never a
message, a host or a password.

The worker and the model are read from what they did, not from a connect: the cluster's
scheduler moves every schedule's `next_run` on as it enqueues it, so a schedule overdue by more
than a margin is the missing heartbeat of a stopped cluster (and names what is not running); a
task queued long ago and still unclaimed means its workers are gone. The model is as healthy as
its last metered calls (`LLMCall`): a TCP connect succeeds while every call answers 500.

Two jobs must not wait for a worker: the crisis escalation (an unclaimed alert reaches ops) and
the delivery of what it writes. When their schedules are overdue, each probe runs them itself —
both are idempotent, so probes of several web processes and a worker coming back mid-run add up
to one escalation (QUALITY C2: "even when the worker is down").
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django_q.models import OrmQ, Schedule

from psychologist.llm.metering import recent_outcomes
from psychologist.llm.models import LLMProviderName
from sessions_app.jobs.delivery import notifications_deliver
from sessions_app.jobs.escalation import alerts_escalate
from sessions_app.jobs.lifecycle import JobReport
from sessions_app.jobs.schedules import JOBS

logger = logging.getLogger(__name__)

OK, DOWN, UNKNOWN, DEGRADED = "ok", "down", "unknown", "degraded"
PROBE_TIMEOUT_SECONDS = 1.0
# A task nobody picked up this long after it became due means no worker is running.
WORKER_STALL = timedelta(minutes=1)
# django-q's scheduler looks every 30 s or so; a schedule this late has no cluster behind it.
SCHEDULE_OVERDUE_AFTER = timedelta(minutes=2)
# The model: its last LLM_WINDOW calls within LLM_RECENT; degraded from this failed share.
LLM_WINDOW = 20
LLM_RECENT = timedelta(minutes=15)
LLM_FAILED_SHARE = 0.5
NETWORK_PROVIDERS = [LLMProviderName.ANTHROPIC]
# Run by the probe itself when their schedules are overdue, in this order: the escalation's
# pages, then their delivery.
WITHOUT_WORKER: tuple[tuple[str, Callable[..., JobReport]], ...] = (
    ("escalation", alerts_escalate),
    ("notifications", notifications_deliver),
)


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


def overdue_schedules(now: datetime) -> list[str]:
    late = Schedule.objects.filter(next_run__lt=now - SCHEDULE_OVERDUE_AFTER).exclude(repeats=0)
    return sorted(late.values_list("name", flat=True))


def run_without_worker(overdue: list[str], now: datetime) -> None:
    for job, run in WITHOUT_WORKER:
        if JOBS[job].name not in overdue:
            continue
        try:
            report = run(now=now)
        except Exception as exc:  # the probe answers whatever happens; the next probe retries
            logger.warning("worker.stand_in job=%s error=%s", job, type(exc).__name__)
            continue
        if any(report.counts.values()):
            logger.warning("worker.stand_in job=%s %s", job, report.summary)


def probe_worker(database_up: bool, now: datetime) -> dict[str, Any]:
    if not database_up:
        return {"status": UNKNOWN}
    try:
        overdue = overdue_schedules(now)
        run_without_worker(overdue, now)
        if settings.Q_CLUSTER.get("sync"):
            return {"status": OK, "mode": "sync"}
        stalled = OrmQ.objects.filter(lock__lt=now - WORKER_STALL).count()
    except Exception as exc:  # the broker and the schedules are tables of the database
        return _down(exc)
    status = DOWN if overdue or stalled else OK
    return {"status": status, "overdue_schedules": overdue, "stalled_tasks": stalled}


def probe_llm(now: datetime) -> dict[str, Any]:
    """From the last metered calls to a network provider (any agent, whatever its binding)."""
    try:
        calls, failed = recent_outcomes(
            since=now - LLM_RECENT, limit=LLM_WINDOW, providers=NETWORK_PROVIDERS
        )
    except Exception as exc:  # the meter is a table of the database
        return _down(exc)
    share = round(failed / calls, 2) if calls else 0.0
    # No recent call says nothing either way: not a reason to page anyone.
    status = DEGRADED if calls and share >= LLM_FAILED_SHARE else OK
    return {
        "status": status,
        "provider": settings.LLM_PROVIDER,
        "recent_calls": calls,
        "failed_share": share,
    }


def readiness() -> tuple[int, dict[str, Any]]:
    now = timezone.now()
    database = probe_database()
    up = database["status"] == OK
    dependencies = {
        "database": database,
        "cache": probe_cache(),
        "channel_layer": probe_channel_layer(),
        "worker": probe_worker(up, now),
        "llm": probe_llm(now) if up else {"status": UNKNOWN},
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
