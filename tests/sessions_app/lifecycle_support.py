"""Builders and probes shared by the background-job tests (`test_lifecycle_*.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

import pytest
import time_machine
from django.apps import apps
from django.db import connection

from sessions_app.engine import graph
from sessions_app.models import AskMessage, AskSession
from tests import factories

CARD, ANSWER = AskMessage.Kind.QUESTION_CARD, AskMessage.Kind.ANSWER


def frozen_clock(at: datetime) -> Callable[[], Iterator[time_machine.Traveller]]:
    """A `clock` fixture: time stands still at `at` until a test moves it with `clock.shift`.
    A module names its moment once: `clock = frozen_clock(NOW)`."""

    @pytest.fixture
    def clock() -> Iterator[time_machine.Traveller]:
        with time_machine.travel(at, tick=False) as traveller:
            yield traveller

    return clock


def converse(session: AskSession, pairs: list[tuple[str, str]]) -> None:
    """Deal each question as a card on the main workline and answer it."""
    for question, answer in pairs:
        graph.message_append(
            session=session, role=AskMessage.Role.NARRATOR, kind=CARD, text=question
        )
        graph.message_append(session=session, role=AskMessage.Role.CLIENT, kind=ANSWER, text=answer)


def idle_session(user, *, last_activity_at: datetime, pairs=(), **fields) -> AskSession:
    session = factories.ActiveSessionFactory(
        user=user, created_at=last_activity_at, last_activity_at=last_activity_at, **fields
    )
    converse(session, list(pairs))
    session.refresh_from_db()
    return session


def database_columns_containing(needle: str) -> list[str]:
    """Every `table.column` of the database whose value, read as text, contains `needle`.

    Every table, every column — text, JSON, anything — with raw SQL, so no model method, manager
    or serializer can hide a leftover. The tables of every installed model must be among those
    scanned, or the scan itself is incomplete.
    """
    quote = connection.ops.quote_name
    hits = []
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        model_tables = {
            model._meta.db_table for model in apps.get_models(include_auto_created=True)
        }
        assert model_tables <= set(tables), model_tables - set(tables)
        for table in tables:
            for column in connection.introspection.get_table_description(cursor, table):
                cursor.execute(
                    f"SELECT COUNT(*) FROM {quote(table)} "
                    f"WHERE CAST({quote(column.name)} AS TEXT) LIKE %s",
                    [f"%{needle}%"],
                )
                if cursor.fetchone()[0]:
                    hits.append(f"{table}.{column.name}")
    return hits
