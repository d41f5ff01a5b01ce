"""The personas every access test relies on (alice the owner, bob her counselor, charlie a
stranger, olga ops, the orchestrator a service): each is what its name says."""

from __future__ import annotations

import pytest

from sessions_app.roles import Role, role_of

pytestmark = pytest.mark.django_db


def test_personas_carry_their_roles(alice, bob, charlie, olga, service_account):
    assert role_of(alice) == Role.CLIENT
    assert role_of(bob) == Role.COUNSELOR
    assert role_of(charlie) == Role.CLIENT
    assert role_of(olga) == Role.OPS
    assert role_of(service_account) == Role.SERVICE
    assert bob.caseload.filter(client=alice).exists()
