"""QUALITY P1 and P7: what one answer costs, early and late in a session.

Prints median milliseconds and SQL queries per answer at turns 1, 10 and 50, for an answer with
a next card in its batch (the Dealer, no model) and for a batch-completing one (recap → Analyst
→ flow validation → Narrator, offline engine). On PostgreSQL (DATABASE_URL=postgres://…) it also
prints the WAL bytes written per answer at turns 10, 100 and 200 (pg_current_wal_lsn() diffs).

Runs in a throwaway test database; the schema's 100-message limit is lifted for the measurement
only (turn 200 needs ~600 messages). A benchmark, not a test: it reports, it asserts nothing.

    .venv/bin/python bench/turn.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/naisei .venv/bin/python bench/turn.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

import logging  # noqa: E402

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from sessions_app import models as session_models  # noqa: E402
from sessions_app import services  # noqa: E402
from sessions_app.engine.dealer import Turn, new_card, session_locked  # noqa: E402
from sessions_app.engine.services import answer_submit, session_state  # noqa: E402
from sessions_app.models import UserProfile  # noqa: E402

SAMPLES = 7
TURNS = (1, 10, 50)
WAL_TURNS = (10, 100, 200)
WAL_SAMPLES = 3
_users = iter(range(1_000_000))


def new_session() -> Any:
    user = get_user_model().objects.create_user(username=f"bench-{next(_users)}")
    user.groups.add(Group.objects.get_or_create(name="client")[0])
    UserProfile.objects.create(user=user, schedule_weekdays=[4])
    return services.session_create(owner=user, actor=user)


def open_two_cards(session: Any) -> tuple[str, str]:
    """A two-card batch, opened as the engine opens one after the Narrator."""
    cards = [new_card("What happened next?"), new_card("How did it feel?")]
    with transaction.atomic():
        turn = Turn(session_locked(session.pk))
        turn.open_batch(cards, engine="offline")
        turn.save()
    return cards[0]["id"], cards[1]["id"]


def session_at(turns: int) -> Any:
    session = new_session()
    card = session_state(session)["current_card"]
    answer_submit(session=session, card_id=card["id"], text="Work stress")
    while session_state(session)["turn_count"] < turns - 1:
        first, second = open_two_cards(session)
        answer_submit(session=session, card_id=first, text="It went on at work, as usual.")
        answer_submit(session=session, card_id=second, text="Tense, but I coped with it.")
    return session


def measured(call: Callable[[], Any]) -> tuple[float, int]:
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        call()
        elapsed = (time.perf_counter() - started) * 1000
    return elapsed, len(queries)


def per_answer[T](
    measure: Callable[[Callable[[], Any]], T], turns: int, samples: int
) -> dict[str, list[T]]:
    """`measure` of each kind of answer, on a fresh session at `turns`, `samples` times over."""
    costs: dict[str, list[T]] = {"next card": [], "batch-completing": []}
    for _ in range(samples):
        session = session_at(turns)
        first, second = open_two_cards(session)
        costs["next card"].append(
            measure(lambda s=session, c=first: answer_submit(session=s, card_id=c, text="Yes."))
        )
        costs["batch-completing"].append(
            measure(lambda s=session, c=second: answer_submit(session=s, card_id=c, text="No."))
        )
    return costs


def answer_costs(turns: int) -> dict[str, list[tuple[float, int]]]:
    return per_answer(measured, turns, SAMPLES)


def wal_lsn() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        return cursor.fetchone()[0]


def wal_bytes(call: Callable[[], Any]) -> int:
    before = wal_lsn()
    call()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", [before])
        return int(cursor.fetchone()[0])


def wal_costs(turns: int) -> dict[str, float]:
    written = per_answer(wal_bytes, turns, WAL_SAMPLES)
    return {kind: statistics.median(values) for kind, values in written.items()}


def main() -> None:
    logging.disable(logging.INFO)
    session_models.SESSION_MESSAGES_MAX = 100_000
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"== bench/turn.py — {connection.vendor}, offline engine, median of {SAMPLES}")
        print(f"{'turn':>5}  {'answer':<17} {'median ms':>10} {'queries':>8}")
        for turns in TURNS:
            for kind, samples in answer_costs(turns).items():
                ms = statistics.median(s[0] for s in samples)
                queries = sorted({s[1] for s in samples})
                shown = "/".join(str(q) for q in queries)
                print(f"{turns:>5}  {kind:<17} {ms:>10.1f} {shown:>8}")
        if connection.vendor == "postgresql":
            print(f"\nWAL bytes written per answer (median of {WAL_SAMPLES}; whole cluster):")
            print(f"{'turn':>5}  {'answer':<17} {'bytes':>8}")
            for turns in WAL_TURNS:
                for kind, median in wal_costs(turns).items():
                    print(f"{turns:>5}  {kind:<17} {median:>8.0f}")
        else:
            print("\n(WAL bytes per answer: run with DATABASE_URL=postgres://… to measure)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
