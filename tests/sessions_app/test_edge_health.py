"""QUALITY R10: /healthz (liveness) and /readyz (each dependency's state)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.test import Client
from django.utils import timezone
from django_q.models import OrmQ

from sessions_app.edge import health

pytestmark = pytest.mark.django_db


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
    body = Client().get("/readyz").json()
    assert body["dependencies"]["worker"] == {"status": "down", "stalled_tasks": 1}


def test_readyz_is_503_when_the_database_is_down(monkeypatch):
    monkeypatch.setattr(health, "probe_database", lambda: health._down(OperationalError()))
    response = Client().get("/readyz")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["dependencies"]["database"] == {"status": "down", "error": "OperationalError"}
    assert body["dependencies"]["worker"]["status"] == "unknown"


def test_readyz_checks_only_that_the_llm_is_reachable(settings):
    settings.LLM_PROVIDER = "anthropic"
    settings.ANTHROPIC_BASE_URL = "http://127.0.0.1:9"  # discard port: nothing listens
    probe = health.probe_llm()
    assert probe["status"] == "down"
    assert probe["provider"] == "anthropic"
