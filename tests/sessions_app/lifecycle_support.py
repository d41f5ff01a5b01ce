"""Builders and probes shared by the background-job tests (`test_lifecycle_*.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest
import time_machine
from django.apps import apps
from django.db import connection, models

from sessions_app.engine.graph import tree as graph
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
    """Every `table.column` of the database whose value contains `needle`.

    Every table the database has, every column — text, JSON, binary, anything — with raw SQL,
    so no model method, manager or serializer can hide a leftover; the tables of every
    installed model must be among those scanned, or the scan itself is incomplete. Binary
    columns are searched as bytes, and columns a model stores encoded (pickled, encrypted:
    any field with its own `from_db_value`) are read back through the model and searched
    decoded, so that no encoding hides the needle from the scan.
    """
    hits = []
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        model_tables = {
            model._meta.db_table for model in apps.get_models(include_auto_created=True)
        }
        assert model_tables <= set(tables), model_tables - set(tables)
        for table in tables:
            for column in connection.introspection.get_table_description(cursor, table):
                cursor.execute(*_containing(cursor, table, column, needle))
                if cursor.fetchone()[0]:
                    hits.append(f"{table}.{column.name}")
    return sorted(set(hits) | set(_decoded_columns_containing(needle)))


def _containing(cursor: Any, table: str, column: Any, needle: str) -> tuple[str, list[Any]]:
    quote = connection.ops.quote_name
    kind = connection.introspection.get_field_type(column.type_code, column)
    where = f"CAST({quote(column.name)} AS TEXT) LIKE %s"
    value: Any = f"%{needle}%"
    if kind == "BinaryField" and connection.vendor == "postgresql":
        where, value = f"position(%s::bytea IN {quote(column.name)}) > 0", needle.encode()
    return f"SELECT COUNT(*) FROM {quote(table)} WHERE {where}", [value]


def _decoded_columns_containing(needle: str) -> list[str]:
    hits = []
    for model in apps.get_models(include_auto_created=True):
        encoded = [
            field
            for field in model._meta.concrete_fields
            if hasattr(field, "from_db_value") and not isinstance(field, models.JSONField)
        ]
        for field in encoded:
            values = model._base_manager.values_list(field.attname, flat=True)
            if any(needle in repr(value) for value in values.iterator()):
                hits.append(f"{model._meta.db_table}.{field.column}")
    return hits
