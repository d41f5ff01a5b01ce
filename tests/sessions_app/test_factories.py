from __future__ import annotations

import pytest

from sessions_app.roles import Role, role_of
from tests import factories

pytestmark = pytest.mark.django_db


def test_every_factory_builds_a_saved_row():
    built = [
        factories.UserProfileFactory(),
        factories.AskAgentFactory(),
        factories.CustomAgentFactory(),
        factories.ActiveSessionFactory(),
        factories.CrisisSessionFactory(),
        factories.WorklineFactory(),
        factories.AskMessageFactory(),
        factories.SessionEventFactory(),
        factories.CaseloadAssignmentFactory(),
        factories.NotificationFactory(),
    ]
    assert all(obj.pk is not None for obj in built)


def test_personas_carry_their_roles(alice, bob, charlie, olga, service_account):
    assert role_of(alice) == Role.CLIENT
    assert role_of(bob) == Role.COUNSELOR
    assert role_of(charlie) == Role.CLIENT
    assert role_of(olga) == Role.OPS
    assert role_of(service_account) == Role.SERVICE
    assert bob.caseload.filter(client=alice).exists()
