"""Shared fixtures: the personas of every access test — alice (a client, the owner), bob (her
counselor), charlie (a stranger client) — plus ops and a service account."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import connection
from django.utils import translation

from tests import factories

# Every websocket test runs on the in-memory layer, and on channels-redis too when REDIS_URL is
# set (the PostgreSQL + Redis leg of CI): not skipped elsewhere, simply not collected.
CHANNEL_LAYER_KINDS = ["memory", *(["redis"] if os.environ.get("REDIS_URL") else [])]


def on_postgres() -> bool:
    return connection.vendor == "postgresql"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # PostgreSQL-only tests run in the PostgreSQL leg of CI (.ci/run runs both legs).
    import os

    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: runs when DATABASE_URL=postgres://…")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _compiled_catalogs() -> None:
    """The gettext catalogs, as `make install` compiles them (so a bare `pytest` has them too):
    only when a .mo is missing or older than its .po, so it is a no-op after install or CI."""
    stale = [
        po
        for base in django_settings.LOCALE_PATHS
        for po in Path(base).glob("*/LC_MESSAGES/django.po")
        if not po.with_suffix(".mo").exists()
        or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]
    if stale and shutil.which("msgfmt"):
        call_command("compilemessages", ignore_patterns=[".venv", "node_modules"], verbosity=0)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request in another language leaves it active in the thread (LocaleMiddleware does not
    reset it): the next test starts in the default language again."""
    yield
    translation.deactivate()


@pytest.fixture
def alice(db):
    user = factories.ClientFactory(username="alice")
    factories.UserProfileFactory(user=user)
    return user


@pytest.fixture
def bob(db, alice):
    counselor = factories.CounselorFactory(username="bob")
    factories.CaseloadAssignmentFactory(counselor=counselor, client=alice)
    return counselor


@pytest.fixture
def charlie(db):
    return factories.ClientFactory(username="charlie")


@pytest.fixture
def olga(db):
    return factories.OpsFactory(username="olga")


@pytest.fixture
def service_account(db):
    return factories.ServiceFactory(username="orchestrator")


@pytest.fixture
def dana(db):
    """A counselor with no caseload: alice's sessions are none of her business."""
    return factories.CounselorFactory(username="dana")


@pytest.fixture
def erin(db):
    """On duty, alerted about every crisis, alice is not in her caseload."""
    return factories.on_duty_counselor("erin", first_name="Erin")


@pytest.fixture
def api_as():
    """An API client authenticated as `user` (None: anonymous)."""
    from rest_framework.test import APIClient

    def make(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture(params=CHANNEL_LAYER_KINDS)
def channel_layer_kind(request, settings):
    if request.param == "redis":
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                # A prefix per test: nothing left over from another test (or run) reaches it.
                "CONFIG": {
                    "hosts": [os.environ["REDIS_URL"]],
                    "prefix": f"naisei-test-{uuid.uuid4().hex[:12]}",
                },
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return request.param


@pytest.fixture
def keep_test_connection(monkeypatch):
    """Consumers' `database_sync_to_async` closes "old" connections before and after each call;
    inside a test's transaction that would close the test's own connection (on file SQLite and
    PostgreSQL alike), so websocket tests keep it open."""
    import channels.db

    monkeypatch.setattr(channels.db, "close_old_connections", lambda: None)


@pytest.fixture
def task_queue(monkeypatch):
    """Tasks are queued, not run at once; `task_queue.run()` is the worker (tests/queue.py)."""
    from django_q.conf import Conf

    from tests.queue import TaskQueue

    monkeypatch.setattr(Conf, "SYNC", False)
    return TaskQueue()
