"""QUALITY P4: the abandoned-session job costs what the abandoned sessions cost, not the table.

Builds 1k healthy sessions plus 100 abandoned ones, times one run of the job (selection and
processing: summary, close, profile, event, analysis request, reminder) and counts its queries
— the median of five runs, each over 100 fresh abandoned sessions; then grows the table to
100k healthy sessions and measures again, and prints both and the ratio. It also prints the plan
of the selection query (SQLite, or PostgreSQL with DATABASE_URL), which reads the partial index
on active rows' last activity.

"Healthy" sessions are what a live table holds: each healthy client has one active session
touched within the last hours (the database allows one active session per client, so these are
also one client each) and four closed ones — 20 % active, all of them in the partial index, but
outside the idle range. The abandoned clients have three answered cards each and two earlier
sessions, so the job does its real work: the offline summarizer, the profile's usual time, the
reminder. The analysis task is queued, as in production, not run.

Run: `python bench/cleanup.py` (SQLite) or `DATABASE_URL=postgres://… python bench/cleanup.py`.
It prints figures and never asserts them: timings on shared machines are noisy.
"""

from __future__ import annotations

import random
import time as clock
from datetime import timedelta

from _django import bench_database, table

SIZES = (1_000, 100_000)
REPEATS = 5
ABANDONED = 100
CLOSED_PER_CLIENT = 4
BATCH = 5_000


def users(prefix: str, count: int) -> list:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    built = [User(username=f"{prefix}{n}", password="!") for n in range(count)]
    User.objects.bulk_create(built, batch_size=BATCH)
    return list(User.objects.filter(username__startswith=prefix).order_by("pk"))


def add_healthy(count: int, round_no: int, now) -> None:
    from sessions_app.models import AskSession

    clients = users(f"healthy{round_no}-", count // (CLOSED_PER_CLIENT + 1))
    rng = random.Random(round_no)
    rows = []
    for user in clients:
        touched = now - timedelta(minutes=rng.randint(1, 19 * 60))
        rows.append(AskSession(user=user, created_at=touched, last_activity_at=touched))
        for _ in range(CLOSED_PER_CLIENT):
            past = now - timedelta(days=rng.randint(2, 300), minutes=rng.randint(0, 1439))
            rows.append(
                AskSession(
                    user=user,
                    created_at=past,
                    last_activity_at=past + timedelta(minutes=20),
                    ended_at=past + timedelta(minutes=20),
                    status=AskSession.Status.COMPLETED,
                )
            )
    AskSession.objects.bulk_create(rows, batch_size=BATCH)


def add_abandoned(round_no: int, now, count: int = ABANDONED) -> None:
    from sessions_app.engine.graph import tree as graph
    from sessions_app.models import AskMessage, AskSession, UserProfile

    clients = users(f"abandoned{round_no}-", count)
    UserProfile.objects.bulk_create(
        [UserProfile(user=user, time_zone="Europe/Berlin") for user in clients]
    )
    for n, user in enumerate(clients):
        for days in (3, 10):
            past = now - timedelta(days=days, hours=n % 5)
            AskSession.objects.create(
                user=user, created_at=past, last_activity_at=past, status="completed"
            )
        left = now - timedelta(hours=21 + n % 30)
        session = AskSession.objects.create(user=user, created_at=left, last_activity_at=left)
        for turn in range(3):
            graph.message_append(
                session=session,
                role=AskMessage.Role.NARRATOR,
                kind=AskMessage.Kind.QUESTION_CARD,
                text=f"What stayed with you from moment {turn} of the week?",
            )
            graph.message_append(
                session=session,
                role=AskMessage.Role.CLIENT,
                kind=AskMessage.Kind.ANSWER,
                text="I kept thinking about the meeting and felt tired, then a walk helped.",
            )


def measure() -> tuple[float, int, int]:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from sessions_app.jobs.lifecycle import sessions_abandoned_close

    reset_queries()  # the query log is bounded: a full one would count nothing
    with CaptureQueriesContext(connection) as queries:
        started = clock.perf_counter()
        report = sessions_abandoned_close()
        elapsed = clock.perf_counter() - started
    return elapsed, len(queries), report.counts["closed"]


def selection():
    from django.conf import settings
    from django.utils import timezone

    from sessions_app.jobs.lifecycle import ABANDON_BATCH
    from sessions_app.models import AskSession

    cutoff = timezone.now() - settings.SESSION_ABANDON_AFTER
    idle = AskSession.objects.idle_since(cutoff).order_by("last_activity_at")
    return idle.values_list("pk", flat=True)[:ABANDON_BATCH]


def selection_ms() -> float:
    """The selection alone, best of five: the part that would grow with the table."""
    timings = []
    for _ in range(5):
        started = clock.perf_counter()
        list(selection())
        timings.append(clock.perf_counter() - started)
    return min(timings) * 1000


def settle() -> None:
    """Vacuum and analyse after the bulk load, as autovacuum would have on a live table, so the
    run is not measured against the background work a fresh 100k-row load sets off."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def measure_median(round_no: int, now) -> tuple[float, int, int, float, int, str]:
    """(job s, queries, closed, selection ms, table rows, plan): the median of REPEATS runs,
    each over a fresh batch of abandoned sessions — one run on a shared machine is mostly noise."""
    from sessions_app.models import AskSession

    runs = []
    for repeat in range(REPEATS):
        add_abandoned(round_no * 10 + repeat, now)
        settle()
        rows, select, plan = AskSession.objects.count(), selection_ms(), selection().explain()
        runs.append((*measure(), select, rows, plan))
    return sorted(runs)[REPEATS // 2]


def main() -> None:
    from django.db import connection
    from django.utils import timezone
    from django_q.conf import Conf

    Conf.SYNC = False  # the analysis is queued in the closing transaction, as in production
    now = timezone.now()
    add_abandoned(0, now, count=10)
    measure()  # warm-up: imports, the offline engine's rules, connection set-up
    rows, total_healthy = [], 0
    for round_no, healthy in enumerate(SIZES, start=1):
        add_healthy(healthy - total_healthy, round_no, now)
        total_healthy = healthy
        elapsed, queries, closed, select, table_size, plan = measure_median(round_no, now)
        rows.append(
            (
                f"{healthy:,}",
                closed,
                f"{table_size:,}",
                f"{select:.2f}",
                f"{elapsed * 1000:.0f}",
                queries,
            )
        )
    print(f"P4 abandoned-session job on {connection.vendor}")
    header = ("healthy", "closed", "table rows", "selection ms", "job ms", "job queries")
    print(table(rows, header))
    small, large = rows
    print(
        f"ratio 100k/1k: job time {float(large[4]) / float(small[4]):.2f}×, "
        f"queries {large[5] / small[5]:.2f}×, selection {float(large[3]) / float(small[3]):.2f}×"
    )
    print("\nselection plan at 100k, with the abandoned sessions in the table:")
    print(plan)


if __name__ == "__main__":
    with bench_database():
        main()
