"""QUALITY R4: the django-q worker is SIGKILLed mid-analysis and restarted. The task is still in
the ORM broker (never acknowledged), so it is redelivered; the request counts the second attempt
itself; exactly one current analysis results, with no duplicate hypotheses.

A real `manage.py qcluster` runs as a subprocess against this test's PostgreSQL database and the
fake Messages API, which holds the first model call open so the kill lands mid-run.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from django_q.conf import Conf
from django_q.models import OrmQ

from psychologist.models import Analysis, AnalysisRequest, Hypothesis
from psychologist.schemas import EMIT_HYPOTHESES_TOOL
from tests import fake_anthropic as fake
from tests.fake_anthropic import FakeAnthropic
from tests.psychologist.builders import (
    TIRED_ENDING,
    event_ids,
    hypothesis_data,
    session_close,
    session_with_log,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PROCESSED = "Processed 'psychologist.tasks.analysis_run'"


def database_url() -> str:
    db = connection.settings_dict
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_env(fake_api: FakeAnthropic) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "Q_SYNC": "0",
        "Q_WORKERS": "1",
        # Long enough that neither django-q's timeout nor its redelivery interferes on its own:
        # the test decides when the worker dies and when the lease on the task runs out.
        "Q_TIMEOUT": "120",
        "Q_RETRY": "180",
        "LLM_PROVIDER": "anthropic",
        "ANTHROPIC_API_KEY": "test-key-not-secret",
        "ANTHROPIC_BASE_URL": fake_api.base_url,
        "ANTHROPIC_MAX_RETRIES": "0",
        "ANTHROPIC_TIMEOUT_SECONDS": "300",
        "LOG_LEVEL": "INFO",
    }


class Worker:
    """`manage.py qcluster` in its own process group, its log lines readable as they come."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line)

    def expect(self, fragment: str, *, timeout: float) -> None:
        """Wait for a log line containing `fragment` (the worker's own report)."""
        deadline = timezone.now() + timedelta(seconds=timeout)
        while (left := (deadline - timezone.now()).total_seconds()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(line)
            if fragment in line:
                return
        raise AssertionError(f"no {fragment!r} in the worker's log:\n{''.join(self.seen[-30:])}")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)  # qcluster stops its own children
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


@contextmanager
def worker(env: dict[str, str]) -> Iterator[Worker]:
    started = Worker(env)
    try:
        yield started
    finally:
        started.stop()


def emit(*hypotheses: dict[str, Any]) -> fake.Reply:
    return fake.tool_use(EMIT_HYPOTHESES_TOOL, {"hypotheses": list(hypotheses)})


def test_a_worker_killed_mid_analysis_and_restarted_leaves_one_analysis_and_no_duplicates(
    alice, fake_anthropic: FakeAnthropic, monkeypatch
):
    monkeypatch.setattr(Conf, "SYNC", False)  # enqueue into the ORM broker, as in production
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    ids = event_ids(session)
    batch = emit(
        hypothesis_data(ids[-1:], termination_analysis="The kill cut the last answer off."),
        hypothesis_data(ids[1:3], target="flow", statement="The pace held until the end."),
    )
    # The first call never gets its answer in time: the worker is killed while it waits.
    fake_anthropic.queue(fake.slow(600, then=batch), emit(*batch.content[0]["input"]["hypotheses"]))
    request = session_close(session, reason="killed")  # commits: the task is in the broker
    assert OrmQ.objects.count() == 1
    env = worker_env(fake_anthropic)

    with worker(env) as first:
        assert fake_anthropic.wait_for_requests(1, timeout=60), "the analysis never started"
        first.kill()

    request.refresh_from_db()
    assert (request.status, request.attempts) == (AnalysisRequest.Status.RUNNING, 1)
    assert not Analysis.objects.exists()
    assert OrmQ.objects.count() == 1  # never acknowledged: it will be redelivered
    # Time passes: the broker's lease on the task (Q_RETRY) runs out.
    OrmQ.objects.update(lock=timezone.now() - timedelta(seconds=1))

    with worker(env) as second:
        second.expect(PROCESSED, timeout=60)

    request.refresh_from_db()
    assert (request.status, request.attempts) == (AnalysisRequest.Status.DONE, 2)
    assert Analysis.objects.current().filter(session=session).count() == 1
    assert Analysis.objects.filter(session=session).count() == 1
    statements = list(
        Hypothesis.objects.filter(session=session).values_list("statement", flat=True)
    )
    assert sorted(statements) == sorted(
        ["The client tires as the session goes on.", "The pace held until the end."]
    )
    types = list(session.events.values_list("type", flat=True))
    assert types.count("psychologist.analysis_started") == 2
    assert types.count("psychologist.hypothesis_proposed") == 2
    assert types.count("psychologist.analysis_completed") == 1
    assert len(fake_anthropic.requests) == 2
    assert not OrmQ.objects.exists()
