"""Shared fixtures: the personas of every access test — alice (a client, the owner), bob (her
counselor), charlie (a stranger client) — plus ops and a service account."""

from __future__ import annotations

import pytest
from django.db import connection

from tests import factories


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
def api_as():
    """An API client authenticated as `user` (None: anonymous)."""
    from rest_framework.test import APIClient

    def make(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make
