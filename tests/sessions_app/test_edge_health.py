"""QUALITY R10: /healthz (liveness) and /readyz (each dependency's state)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import OperationalError
from django.test import Client
from django.utils import timezone
from django_q.brokers import get_broker
from django_q.models import OrmQ
from django_q.scheduler import scheduler

from psychologist.llm.service import complete
from psychologist.llm.types import LLMUnavailable
from sessions_app.edge import health
from sessions_app.engine.agents.schemas import ANALYST_TOOL
from sessions_app.models import Notification, SessionEvent
from tests import factories
from tests import fake_anthropic as fake
from tests.agent_outputs import analyst_output
from tests.psychologist import conftest as psychologist_fixtures
from tests.psychologist.builders import agent_request

pytestmark = pytest.mark.django_db

fake_anthropic = psychologist_fixtures.fake_anthropic


def test_healthz_answers_without_touching_a_dependency(django_assert_num_queries):
    with django_assert_num_queries(0):
        response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_reports_every_dependency_ok_in_the_embedded_setup():
    response = Client().get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["dependencies"]) == {"database", "cache", "channel_layer", "worker", "llm"}
    assert all(probe["status"] == "ok" for probe in body["dependencies"].values())


def test_readyz_is_degraded_not_down_when_the_cache_fails(monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(health.cache, "set", refuse)
    response = Client().get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["dependencies"]["cache"] == {"status": "down", "error": "ConnectionError"}


def test_readyz_reports_a_stalled_worker(settings):
    settings.Q_CLUSTER = {**settings.Q_CLUSTER, "sync": False}
    OrmQ.objects.create(key="naisei", payload="x", lock=timezone.now() - timedelta(minutes=5))
    worker = Client().get("/readyz").json()["dependencies"]["worker"]
    assert (worker["status"], worker["stalled_tasks"]) == ("down", 1)


def test_readyz_is_503_when_the_database_is_down(monkeypatch):
    monkeypatch.setattr(health, "probe_database", lambda: health._down(OperationalError()))
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["dependencies"]["database"] == {"status": "down", "error": "OperationalError"}
    assert body["dependencies"]["worker"]["status"] == "unknown"


# --- the worker: its scheduler's heartbeat ------------------------------------------------------


@pytest.fixture
def worker_expected(settings):
    """A deployment with a django-q cluster (not the tests' inline mode)."""
    settings.Q_CLUSTER = {**settings.Q_CLUSTER, "sync": False}


def stopped_worker(minutes: int = 10):
    """The clock `minutes` on, with no cluster having run: every minute job is overdue."""
    return time_machine.travel(timezone.now() + timedelta(minutes=minutes))


def test_with_the_worker_stopped_readyz_names_the_overdue_schedules(worker_expected):
    with stopped_worker():
        response = Client().get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    worker = body["dependencies"]["worker"]
    assert worker["status"] == "down"
    assert "naisei.escalation" in worker["overdue_schedules"]
    assert "naisei.notifications" in worker["overdue_schedules"]


def test_a_running_worker_keeps_its_schedules_on_time(worker_expected):
    scheduler(broker=get_broker())  # what a cluster's sentinel does every 30 s or so
    worker = Client().get("/readyz").json()["dependencies"]["worker"]
    assert worker == {"status": "ok", "overdue_schedules": [], "stalled_tasks": 0}


def test_an_overdue_escalation_still_pages_ops_with_no_worker(worker_expected, olga, alice, erin):
    session = factories.ActiveSessionFactory(user=alice, alerted_at=timezone.now())
    with stopped_worker(minutes=6):
        for _ in range(2):  # every probe sweeps; the second finds nothing left to do
            assert Client().get("/readyz").status_code == 200
    [page] = Notification.objects.filter(user=olga, kind=Notification.Kind.CRISIS_ALERT)
    assert page.payload["escalation"] == "ops"
    assert page.sent_at is not None  # delivered too: delivery is a worker job as well
    escalated = SessionEvent.objects.filter(session=session, type="alert.escalated")
    assert escalated.count() == 1


# --- the model: recent call outcomes, not a TCP connect --------------------------------------


def test_failing_model_calls_make_the_llm_degraded(fake_anthropic):
    # Nothing queued: the fake Messages API answers every call with a 500.
    for _ in range(3):
        with pytest.raises(LLMUnavailable):
            complete(request=agent_request("analyst", turn_count=2))
    llm = Client().get("/readyz").json()["dependencies"]["llm"]
    assert llm["status"] == "degraded"
    assert llm["recent_calls"] == 3
    assert llm["failed_share"] == 1.0


def test_a_model_whose_calls_succeed_is_ok_even_if_a_tcp_connect_would_fail(
    fake_anthropic, settings
):
    valid = analyst_output(questions=["What happens at work?"], observation="Work.")
    fake_anthropic.queue(*[fake.tool_use(ANALYST_TOOL, valid) for _ in range(3)])
    for _ in range(3):
        complete(request=agent_request("analyst", turn_count=2))
    settings.ANTHROPIC_BASE_URL = "http://127.0.0.1:9"  # nothing listens: irrelevant to readiness
    llm = Client().get("/readyz").json()["dependencies"]["llm"]
    assert llm["status"] == "ok"
    assert (llm["recent_calls"], llm["failed_share"]) == (3, 0.0)
