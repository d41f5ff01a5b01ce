"""QUALITY P1 and P7: what one answer costs, early and late in a session.

Prints median milliseconds and SQL queries per answer at turns 1, 10, 50 and 200, for an answer
with a next card in its batch (the Dealer, no model), for a batch-completing one (it records the
batch and queues it), and for that batch's own unit of work as a worker runs it (recap → Analyst
→ flow validation → Narrator, offline engine), and the unit's turn-200 / turn-1 ratio beside its
target. On PostgreSQL (DATABASE_URL=postgres://…) it also prints the WAL bytes written per answer
at turns 10, 100 and 200, and how many of the answers' row updates were HOT.

WAL of this database only: the cluster's WAL position (`pg_current_wal_lsn()`, or
`pg_stat_wal`) moves with every other database's writes on a shared server. The bench reads the
WAL records between its two positions with `pg_walinspect` (PostgreSQL ≥ 15) and sums those that
touch a page of its own throw-away database, plus the commit records of those transactions; it
prints the total and the part that is full-page images (a checkpoint in between makes the next
write of each page log the whole page: noise, not the answer's own cost).

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
from django_q.conf import Conf  # noqa: E402

from sessions_app import models as session_models  # noqa: E402
from sessions_app import services  # noqa: E402
from sessions_app.engine.cards.dealer import Turn, new_card, session_locked  # noqa: E402
from sessions_app.engine.selectors import session_state  # noqa: E402
from sessions_app.engine.services import answer_submit  # noqa: E402
from sessions_app.models import UserProfile  # noqa: E402
from tests.queue import TaskQueue  # noqa: E402

SAMPLES = 7
TURNS = (1, 10, 50, 200)
WAL_TURNS = (10, 100, 200)
WAL_SAMPLES = 3
_users = iter(range(1_000_000))
# Tasks are queued as in production, and run here as a worker runs them: each measured alone.
QUEUE = TaskQueue()
BATCH = "its batch (worker)"


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
        QUEUE.run()
    QUEUE.run()  # the topic's batch, when no turn came after it
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
    """`measure` of each kind of answer in `samples` consecutive batches of a session from turn
    `turns` on: consecutive, so that the median is the usual answer there and not wherever the
    prompt's compaction cycle happens to stand at exactly that turn (once in a while a
    batch-completing answer compacts the prompt anew and reads the whole path)."""
    costs: dict[str, list[T]] = {"next card": [], "batch-completing": [], BATCH: []}
    session = session_at(turns)
    for _ in range(samples):
        first, second = open_two_cards(session)
        costs["next card"].append(
            measure(lambda s=session, c=first: answer_submit(session=s, card_id=c, text="Yes."))
        )
        costs["batch-completing"].append(
            measure(lambda s=session, c=second: answer_submit(session=s, card_id=c, text="No."))
        )
        [unit_of_work] = QUEUE.take()
        costs[BATCH].append(measure(unit_of_work))
    return costs


def answer_costs(turns: int) -> dict[str, list[tuple[float, int]]]:
    return per_answer(measured, turns, SAMPLES)


def wal_lsn() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        return cursor.fetchone()[0]


# WAL records of this database between two positions: those whose blocks are in it, and the
# commit (Transaction) records of the same transactions.
OWN_WAL = """
WITH records AS (SELECT * FROM pg_get_wal_records_info(%(before)s, %(after)s)),
     own AS (SELECT * FROM records WHERE block_ref LIKE %(pattern)s)
SELECT coalesce(sum(record_length), 0), coalesce(sum(fpi_length), 0)
FROM records
WHERE block_ref LIKE %(pattern)s
   OR (resource_manager = 'Transaction' AND xid IN (SELECT xid FROM own WHERE xid <> 0))
"""


def wal_bytes(call: Callable[[], Any]) -> tuple[int, int]:
    """(bytes of WAL this database's answer wrote, of which full-page images)."""
    before = wal_lsn()
    call()
    after = wal_lsn()
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        pattern = f"%/{cursor.fetchone()[0]}/%"
        cursor.execute(OWN_WAL, {"before": before, "after": after, "pattern": pattern})
        total, images = cursor.fetchone()
    return int(total), int(images)


def wal_costs(turns: int) -> dict[str, tuple[float, float]]:
    written = per_answer(wal_bytes, turns, WAL_SAMPLES)
    return {
        kind: (statistics.median(v[0] for v in values), statistics.median(v[1] for v in values))
        for kind, values in written.items()
    }


def hot_updates() -> list[tuple[str, int, int]]:
    """(table, updates, HOT updates) of the two rows every answer rewrites."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute(
            "SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
            " WHERE relname IN ('ask_sessions', 'sessions_app_workline') ORDER BY relname"
        )
        return [tuple(row) for row in cursor.fetchall()]


def print_wal() -> None:
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
    print(f"\nWAL bytes written per answer, this database only (median of {WAL_SAMPLES}):")
    print(f"{'turn':>5}  {'answer':<17} {'bytes':>8} {'of which FPI':>13}")
    costs = {turns: wal_costs(turns) for turns in WAL_TURNS}
    for turns, kinds in costs.items():
        for kind, (total, images) in kinds.items():
            print(f"{turns:>5}  {kind:<19} {total:>8.0f} {images:>13.0f}")
    for kind in ("next card", "batch-completing", BATCH):
        first, last = costs[WAL_TURNS[0]][kind][0], costs[WAL_TURNS[-1]][kind][0]
        print(
            f"P7 {kind}: turn {WAL_TURNS[-1]} / turn {WAL_TURNS[0]} = {last / first:.2f}x"
            " (target <= 1.2x)"
        )
    kb = costs[WAL_TURNS[-1]]["next card"][0] / 1024
    print(f"P7 next card at turn {WAL_TURNS[-1]}: {kb:.1f} KB (target <= 5 KB)")
    time.sleep(1)
    for table, updates, hot in hot_updates():
        print(f"HOT updates of {table} during the run: {hot} of {updates}")


def main() -> None:
    logging.disable(logging.INFO)
    Conf.SYNC = False  # the test settings run tasks at once; production queues them
    session_models.SESSION_MESSAGES_MAX = 100_000
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"== bench/turn.py — {connection.vendor}, offline, median of {SAMPLES} batches")
        print(f"{'turn':>5}  {'answer':<19} {'median ms':>10} {'queries':>8}")
        medians: dict[tuple[int, str], float] = {}
        for turns in TURNS:
            for kind, samples in answer_costs(turns).items():
                ms = medians[turns, kind] = statistics.median(s[0] for s in samples)
                queries = sorted({s[1] for s in samples})
                shown = "/".join(str(q) for q in queries)
                print(f"{turns:>5}  {kind:<19} {ms:>10.1f} {shown:>8}")
        ratio = medians[TURNS[-1], BATCH] / medians[TURNS[0], BATCH]
        print(
            f"P8 the batch-completing unit of work, ms, turn {TURNS[-1]} / turn {TURNS[0]}:"
            f" {ratio:.2f}x (target <= 1.1x)"
        )
        if connection.vendor == "postgresql":
            print_wal()
        else:
            print("\n(WAL bytes per answer: run with DATABASE_URL=postgres://… to measure)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
