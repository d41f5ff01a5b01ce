"""QUALITY P3: `GET /api/ask/sessions` (a page of 20) over 100k sessions of 1k clients.

Side by side in one run: the real endpoint (DRF, access rules, privacy classes, keyset cursor)
against the floor — a bare Django view returning the same page's columns with `.values()` —
for a client (its own history) and for ops (everyone's), first page and a deep page. Prints the
median ms, the ratio to the floor and the SQL queries per request. Best run on PostgreSQL:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/naisei_bench python bench/api_list.py
"""

from __future__ import annotations

import statistics
import time
import uuid
from datetime import timedelta

from _django import bench_database, table

CLIENTS, PER_CLIENT, REPEAT = 1_000, 100, 60
COLUMNS = (
    "id",
    "session_title",
    "session_type",
    "trigger_source",
    "session_summary",
    "satisfaction_score",
    "modality_flags",
    "created_at",
    "updated_at",
    "ended_at",
)


def populate() -> tuple[object, object]:
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from sessions_app.models import AskSession

    clients = Group.objects.get(name="client")
    users = User.objects.bulk_create(User(username=f"bench{i}") for i in range(CLIENTS))
    clients.user_set.add(*users)
    ops = User.objects.create(username="bench-ops", is_superuser=True)
    start = timezone.now() - timedelta(days=365)
    for user in users:
        AskSession.objects.bulk_create(
            AskSession(
                id=uuid.uuid4(),
                user=user,
                status="completed",
                session_title=f"Session {n}",
                session_summary="A short summary of what was said.",
                created_at=start + timedelta(minutes=n * 97 + user.pk),
            )
            for n in range(PER_CLIENT)
        )
    return users[CLIENTS // 2], ops


def floor_view(request):  # the bare view: same page, same columns, no DRF, no serializers
    from django.http import JsonResponse

    from sessions_app.access import sessions_visible_to

    rows = sessions_visible_to(request.user).order_by("-created_at", "-id").values(*COLUMNS)
    return JsonResponse({"results": list(rows[:20])}, json_dumps_params={"default": str})


def timed(client, url: str) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.content[:200]
    return elapsed, len(queries)


def measure_pair(api, api_url: str, bare, floor_url: str) -> tuple[float, int, float, int]:
    """Both medians, the two requests interleaved: on a shared machine, load that comes and
    goes then weighs on both sides alike instead of on whichever ran during it."""
    real, floor = [], []
    for _ in range(REPEAT):
        real.append(timed(api, api_url))
        floor.append(timed(bare, floor_url))
    return (
        statistics.median(t for t, _ in real),
        real[-1][1],
        statistics.median(t for t, _ in floor),
        floor[-1][1],
    )


def main() -> None:
    from django.db import connection
    from django.test import Client, override_settings
    from django.urls import path
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    from config import urls

    print(f"P3 — {CLIENTS * PER_CLIENT:,} sessions of {CLIENTS:,} clients on {connection.vendor}")
    client_user, ops = populate()
    urls.urlpatterns.append(path("bench/floor", floor_view))
    rows = []
    with override_settings(ROOT_URLCONF="config.urls"):
        for role, user in (("client", client_user), ("ops", ops)):
            # The real path: a knox token, looked up (hashed) on every request.
            _, token = AuthToken.objects.create(user)
            api = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
            bare = Client()
            bare.force_login(user)
            page = api.get("/api/ask/sessions").json()
            deep = page["next"].split("/api/ask/sessions", 1)[1]
            for label, suffix in (("first page", ""), ("second page", deep)):
                real_ms, real_q, floor_ms, floor_q = measure_pair(
                    api, "/api/ask/sessions" + suffix, bare, "/bench/floor"
                )
                rows.append(
                    (
                        role,
                        label,
                        f"{real_ms:.2f}",
                        real_q,
                        f"{floor_ms:.2f}",
                        floor_q,
                        f"{real_ms / floor_ms:.2f}×",
                    )
                )
    print(
        table(
            rows,
            ("role", "page", "API ms", "API queries", "floor ms", "floor queries", "API / floor"),
        )
    )
    print("targets: ≤ 3 queries; median ≤ 1.5× the floor (reported, not asserted)")


if __name__ == "__main__":
    with bench_database():
        main()
