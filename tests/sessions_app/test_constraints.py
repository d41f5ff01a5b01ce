"""Bad data is refused by the database itself (or by the model where a database cannot say it)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, transaction

from sessions_app.models import AskSession, Notification, UserProfile
from tests import factories

pytestmark = pytest.mark.django_db


def refused(**fields: object) -> None:
    """Saving a session with these fields must be refused by the database.

    PostgreSQL refuses an over-long varchar as a DataError before any CHECK runs; SQLite has no
    varchar length, so there the CHECK constraint answers with an IntegrityError.
    """
    with pytest.raises((IntegrityError, DataError)), transaction.atomic():
        factories.AskSessionFactory(**fields)


# Every enum field of the schema, read off the model: a new one is covered without a new row.
ENUM_FIELDS = [field.name for field in AskSession._meta.concrete_fields if field.choices]


@pytest.mark.parametrize("field", ENUM_FIELDS)
def test_it_refuses_an_enum_value_the_schema_does_not_know(field):
    refused(**{field: "not_in_schema"})


def test_it_refuses_a_title_of_61_characters_but_keeps_one_of_60():
    refused(session_title="x" * 61)
    assert factories.AskSessionFactory(session_title="x" * 60).pk


def test_it_refuses_a_summary_over_1000_characters():
    refused(session_summary="s" * 1001)


@pytest.mark.parametrize("score", [0, 6])
def test_it_refuses_a_satisfaction_score_outside_1_to_5(score):
    refused(satisfaction_score=score)


@pytest.mark.parametrize(
    "field", ["message_count", "audio_message_count", "attachment_count", "duration_seconds"]
)
def test_it_refuses_negative_counts(field):
    refused(**{field: -1})


def test_it_refuses_a_second_active_session_for_one_client(alice):
    factories.ActiveSessionFactory(user=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.ActiveSessionFactory(user=alice)
    # Closed sessions and other clients' sessions are not affected by the constraint.
    factories.AskSessionFactory(user=alice, status=AskSession.Status.COMPLETED)
    factories.ActiveSessionFactory()
    assert AskSession.objects.filter(user=alice, status="active").count() == 1


def test_it_refuses_a_duplicate_dify_conversation_id():
    first = factories.AskSessionFactory()
    refused(dify_conversation_id=first.dify_conversation_id)


def test_it_refuses_half_a_handoff(bob):
    refused(handoff_counselor=bob)


def test_it_refuses_a_user_custom_session_without_its_agent():
    refused(agent_origin="user_custom")


def test_it_refuses_a_custom_agent_without_an_owner_and_a_template_with_one(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.CustomAgentFactory(owner=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.AskAgentFactory(owner=alice)


def test_it_refuses_an_unknown_notification_kind_and_a_duplicate_dedupe_key(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.NotificationFactory(user=alice, kind="carrier_pigeon")
    factories.NotificationFactory(user=alice, dedupe_key="session-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.NotificationFactory(user=alice, dedupe_key="session-1")
    # Notifications that name no dedupe key are never deduplicated.
    factories.NotificationFactory(user=alice)
    factories.NotificationFactory(user=alice)
    assert Notification.objects.filter(user=alice).count() == 3


def test_it_refuses_a_counselor_assigned_to_themselves(bob):
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.CaseloadAssignmentFactory(counselor=bob, client=bob)


def test_it_refuses_a_second_active_workline_in_one_session():
    session = factories.AskSessionFactory()
    factories.WorklineFactory(session=session)
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.WorklineFactory(session=session)
    factories.WorklineFactory(session=session, status="parked")


@pytest.mark.parametrize(
    ("variables", "ok"),
    [
        ({"mood": "anxious", "k" * 30: "v" * 200}, True),
        ({"k" * 31: "v"}, False),
        ({"mood": "v" * 201}, False),
        ({"nested": {"a": 1}}, False),
        (["not", "an", "object"], False),
    ],
)
def test_conversation_variables_keys_are_at_most_30_and_values_at_most_200(variables, ok):
    session = factories.AskSessionFactory.build(
        user=factories.ClientFactory(), conversation_variables=variables
    )
    if ok:
        session.full_clean()
    else:
        with pytest.raises(ValidationError) as excinfo:
            session.full_clean()
        assert "conversation_variables" in excinfo.value.message_dict


def test_the_model_refuses_an_unknown_time_zone_and_weekday(alice):
    profile = alice.profile
    profile.time_zone = "Mars/Olympus_Mons"
    profile.schedule_weekdays = [8]
    with pytest.raises(ValidationError) as excinfo:
        profile.full_clean()
    assert {"time_zone", "schedule_weekdays"} <= set(excinfo.value.message_dict)
    assert isinstance(profile, UserProfile)


SCHEMA_INDEXES = {
    # schema §3: single-field indexes
    ("user_id",),
    ("session_type",),
    ("trigger_source",),
    ("initial_risk_level",),
    ("final_risk_level",),
    ("active_agent_key",),
    ("custom_agent_id",),
    # composite, time-range and statistics indexes
    ("user_id", "updated_at"),
    ("trigger_source", "created_at"),
    ("initial_risk_level", "created_at"),
    ("created_at", "is_deleted"),
    ("active_agent_key", "created_at"),
    ("custom_agent_id", "updated_at"),
}


def test_every_index_of_schema_section_3_exists_in_the_database():
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, AskSession._meta.db_table)
    indexed = {tuple(c["columns"]) for c in found.values() if c["index"] or c["unique"]}
    missing = SCHEMA_INDEXES - indexed
    assert not missing, f"indexes missing from the database: {missing}"
    unique = {tuple(c["columns"]) for c in found.values() if c["unique"]}
    assert ("dify_conversation_id",) in unique
