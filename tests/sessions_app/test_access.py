"""`session_for` and `sessions_visible_to`: the one place SPEC §1 is decided, free of DRF so
websocket consumers and HTML views reuse it."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from sessions_app import access
from sessions_app.api.serializers import SessionCreateInput, SessionPatchInput
from sessions_app.errors import ApplicationError
from sessions_app.events import session_length_check
from sessions_app.privacy import P3_FIELDS
from tests import factories

pytestmark = pytest.mark.django_db


def denial(user, session_id, **kwargs) -> tuple[int, str]:
    with pytest.raises(ApplicationError) as caught:
        access.session_for(user, session_id, **kwargs)
    return caught.value.status, caught.value.code


def test_a_client_reaches_only_its_own_sessions(alice, charlie):
    session = factories.AskSessionFactory(user=alice)
    assert access.session_for(alice, session.pk) == session
    assert access.session_for(alice, str(session.pk), write=True) == session
    assert denial(charlie, session.pk) == (404, "E_NOT_FOUND")


@pytest.mark.parametrize("bad_id", ["nope", "", None, 12, "0" * 1000, "\x00"])
def test_anything_that_is_not_a_session_id_is_not_found(alice, bad_id):
    assert denial(alice, bad_id) == (404, "E_NOT_FOUND")


def test_anonymous_and_roleless_users_reach_nothing(alice):
    session = factories.AskSessionFactory(user=alice)
    roleless = factories.UserFactory()
    assert denial(AnonymousUser(), session.pk) == (404, "E_NOT_FOUND")
    assert denial(roleless, session.pk) == (404, "E_NOT_FOUND")
    assert not access.sessions_visible_to(roleless).exists()


def test_a_counselor_reaches_the_caseload_and_handoffs_and_is_forbidden_other_crises(
    alice, bob, charlie, dana
):
    normal = factories.AskSessionFactory(user=alice)
    crisis = factories.CrisisSessionFactory(user=alice)
    assert access.session_for(bob, crisis.pk) == crisis
    assert denial(dana, normal.pk) == (404, "E_NOT_FOUND")
    assert denial(dana, crisis.pk) == (403, "E_FORBIDDEN")
    handed = factories.CrisisSessionFactory(
        user=charlie, handoff_counselor=dana, handoff_time=timezone.now()
    )
    assert access.session_for(dana, handed.pk) == handed
    assert set(access.sessions_visible_to(dana)) == {handed}
    assert set(access.sessions_visible_to(bob)) == {normal, crisis}


def test_soft_deleted_sessions_exist_only_for_ops_and_only_to_read(alice, olga, service_account):
    session = factories.AskSessionFactory(user=alice, is_deleted=True)
    assert denial(alice, session.pk) == (404, "E_NOT_FOUND")
    assert denial(service_account, session.pk) == (404, "E_NOT_FOUND")
    assert access.session_for(olga, session.pk) == session
    assert denial(olga, session.pk, write=True) == (404, "E_NOT_FOUND")
    assert not access.sessions_visible_to(olga).exists()
    assert list(access.sessions_visible_to(olga, include_deleted=True)) == [session]
    assert not access.sessions_visible_to(alice, include_deleted=True).exists()


def test_ops_and_services_reach_every_live_session(alice, charlie, olga, service_account):
    sessions = {
        factories.AskSessionFactory(user=alice),
        factories.CrisisSessionFactory(user=charlie),
    }
    for user in (olga, service_account):
        assert set(access.sessions_visible_to(user)) == sessions
        for session in sessions:
            assert access.session_for(user, session.pk) == session


def test_actions_beyond_reading_are_refused_with_403(alice, bob, olga, service_account):
    session = factories.AskSessionFactory(user=alice)
    access.session_require(alice, session, access.SessionAction.DELETE)
    access.session_require(olga, session, access.SessionAction.DELETE)
    for user, action in [
        (bob, access.SessionAction.DELETE),
        (service_account, access.SessionAction.DELETE),
        (bob, access.SessionAction.MODALITY),
        (olga, access.SessionAction.MODALITY),
    ]:
        with pytest.raises(ApplicationError) as caught:
            access.session_require(user, session, action)
        assert (caught.value.status, caught.value.code) == (403, "E_FORBIDDEN")


def test_only_counselors_ops_and_services_may_write_p3_fields(alice, bob, olga, service_account):
    assert not access.patchable_fields(alice) & P3_FIELDS
    assert not access.creatable_fields(alice) & P3_FIELDS
    assert access.patchable_fields(bob) & P3_FIELDS == {"final_risk_level"}
    assert access.patchable_fields(olga) == access.patchable_fields(bob)
    assert access.patchable_fields(service_account) >= P3_FIELDS


def test_the_serializers_accept_exactly_the_fields_some_role_may_write():
    assert set(SessionPatchInput().fields) == access.SERVICE_PATCH_FIELDS
    assert set(SessionCreateInput().fields) == access.SERVICE_CREATE_FIELDS


def test_the_length_check_refuses_message_101(alice):
    session = factories.AskSessionFactory(user=alice, message_count=100)
    session_length_check(session=session, adding=0)
    with pytest.raises(ApplicationError) as caught:
        session_length_check(session=session)
    assert (caught.value.code, caught.value.status) == ("E_SESSION_TOO_LONG", 409)


def test_session_ids_may_arrive_as_uuid_objects_or_strings(alice):
    session = factories.AskSessionFactory(user=alice)
    assert access.session_for(alice, uuid.UUID(str(session.pk))) == session
    assert access.session_for(alice, str(session.pk).upper()) == session
