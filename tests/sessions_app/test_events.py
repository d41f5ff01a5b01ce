"""The session event log: strictly increasing `seq`, append-only in Python and in PostgreSQL."""

from __future__ import annotations

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from sessions_app.errors import ApplicationError
from sessions_app.events import event_append
from sessions_app.models import AppendOnlyError, SessionEvent
from sessions_app.realtime.push import session_group
from tests import factories
from tests.races import race


@pytest.mark.django_db
def test_seq_starts_at_one_and_increases_by_one_per_session():
    first, second = factories.AskSessionFactory(), factories.AskSessionFactory()
    seqs = [event_append(session=first, type="card.dealt").seq for _ in range(3)]
    other = event_append(session=second, type="session.created")
    assert seqs == [1, 2, 3]
    assert other.seq == 1


@pytest.mark.django_db
def test_it_refuses_an_event_type_that_is_not_a_dotted_name():
    session = factories.AskSessionFactory()
    with pytest.raises(ApplicationError) as excinfo:
        event_append(session=session, type="Created")
    assert excinfo.value.code == "E_VALIDATION"
    assert not SessionEvent.objects.exists()


@pytest.mark.django_db
def test_the_model_refuses_to_update_or_delete_an_event():
    event = factories.SessionEventFactory()
    event.payload = {"edited": True}
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        SessionEvent.objects.filter(pk=event.pk).update(type="session.hacked")
    with pytest.raises(AppendOnlyError):
        SessionEvent.objects.filter(pk=event.pk).delete()
    event.refresh_from_db()
    assert event.payload == {}


@pytest.mark.django_db
def test_an_event_is_pushed_to_watchers_only_after_commit(django_capture_on_commit_callbacks):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    session = factories.AskSessionFactory()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(session_group(session.pk), channel)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        event = event_append(session=session, type="answer.received", payload={"card": 1})
    assert len(callbacks) == 1  # nothing sent yet: the transaction has not committed
    callbacks[0]()
    message = async_to_sync(layer.receive)(channel)
    assert message["seq"] == event.seq
    assert message["event_id"] == event.pk
    assert message["event_type"] == "answer.received"
    assert "payload" not in message  # watchers re-read the event; no text crosses the layer


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement", ["UPDATE {table} SET payload = '{{}}'", "DELETE FROM {table}"]
)
def test_postgresql_itself_refuses_update_and_delete_of_events(statement):
    event = factories.SessionEventFactory(payload={"answer": "kept"})
    sql = statement.format(table=SessionEvent._meta.db_table) + " WHERE id = %s"
    with (
        connection.cursor() as cursor,
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
    ):
        cursor.execute(sql, [event.pk])
    assert SessionEvent.objects.get(pk=event.pk).payload == {"answer": "kept"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "statement",
    # Plain TRUNCATE of the table alone is refused anyway: the evidence table references it.
    ["TRUNCATE {table}, psychologist_hypothesisevidence", "TRUNCATE {table} CASCADE"],
)
def test_postgresql_itself_refuses_truncate_of_events(statement):
    """On a connection as the product opens it (the suite's own may truncate, to flush)."""
    event = factories.SessionEventFactory(payload={"answer": "kept"})
    db = connection.settings_dict
    plain = psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"],
        port=db["PORT"] or 5432,
        autocommit=True,
    )
    try:
        with pytest.raises(psycopg.Error, match="append-only: TRUNCATE refused"):
            plain.execute(statement.format(table=SessionEvent._meta.db_table))
    finally:
        plain.close()
    assert SessionEvent.objects.get(pk=event.pk).payload == {"answer": "kept"}


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_lets_only_the_redaction_path_rewrite_a_payload():
    event = factories.SessionEventFactory(payload={"answer": "secret"})
    table = SessionEvent._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL naisei.event_redaction = 'on'")
        cursor.execute(
            f"UPDATE {table} SET payload = %s WHERE id = %s", ['{"answer": ""}', event.pk]
        )
    assert SessionEvent.objects.get(pk=event.pk).payload == {"answer": ""}
    # Even on that path the row's identity, type and order stay fixed.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL naisei.event_redaction = 'on'")
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            cursor.execute(f"UPDATE {table} SET seq = 99 WHERE id = %s", [event.pk])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_to_one_session_get_distinct_gap_free_seqs():
    session = factories.AskSessionFactory()
    threads_count, per_thread = 8, 10

    def append_many() -> None:
        for _ in range(per_thread):
            event_append(session=session, type="answer.received")

    _, errors = race([append_many] * threads_count)

    assert not errors
    seqs = list(SessionEvent.objects.filter(session=session).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, threads_count * per_thread + 1))
