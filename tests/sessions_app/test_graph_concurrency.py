"""QUALITY R3 on PostgreSQL: graph writes that race on one session append one after the other —
each under the head the one before it committed, never beside it as a stray branch."""

from __future__ import annotations

import pytest

from sessions_app.engine.graph import tree as graph
from sessions_app.models import AskMessage, AskSession
from tests import factories
from tests.races import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_concurrent_appends_to_one_session_make_one_chain(alice):
    session = factories.ActiveSessionFactory(user=alice)
    graph.message_append(session=session, role="narrator", kind="text", text="Hello.")

    def append(index: int):
        def run() -> None:
            fresh = AskSession.objects.get(pk=session.pk)
            graph.message_append(session=fresh, role="system", kind="text", text=f"note {index}")

        return run

    _, errors = race([append(index) for index in range(8)])

    assert errors == []
    messages = list(AskMessage.objects.filter(session=session).order_by("id"))
    assert len(messages) == 9
    # One chain: every message's parent is the one written just before it.
    assert [m.parent_id for m in messages[1:]] == [m.pk for m in messages[:-1]]
    session.refresh_from_db()
    assert session.active_workline.head_id == messages[-1].pk
    assert session.message_count == 9
