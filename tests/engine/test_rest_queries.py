"""QUALITY P1 through HTTP: an answer over REST (a real knox token, the idempotency and throttle
plumbing, the state document) costs what the engine's counts allow — ≤ 10 queries whether or not
it completes a batch, and the batch's unit of work, run by a worker, ≤ 30 — at turn 1 and at
turn 50.

Counted are the statements that read or write rows. Transaction control is left out: the same
turn logs SAVEPOINT/RELEASE inside a test's transaction, BEGIN IMMEDIATE/COMMIT on SQLite, and
nothing on PostgreSQL (psycopg's BEGIN and COMMIT are not logged by Django)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient

from sessions_app import models as session_models
from tests.engine.conftest import analyst, narrator, script
from tests.engine.test_queries import AGENTS, advance_to, open_two_cards
from tests.engine.test_rest_session import whole_session

pytestmark = pytest.mark.django_db
TRANSACTION_CONTROL = {"BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"}


@pytest.fixture(autouse=True)
def no_length_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real session ends at 100 messages; turn 50 needs ~150. Lifted only to measure scaling.
    monkeypatch.setattr(session_models, "SESSION_MESSAGES_MAX", 10_000)


def statements(queries: CaptureQueriesContext) -> int:
    return sum(1 for q in queries if q["sql"].split()[0].upper() not in TRANSACTION_CONTROL)


def answer_over_rest(client: APIClient, session: Any, card_id: str) -> Any:
    url = reverse("sessions:session-answers", kwargs={"session_id": session.pk})
    response = client.post(url, {"card_id": card_id, "text": "Yes."}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def counted_answers(session: Any, alice: Any, task_queue: Any) -> tuple[int, int, int]:
    """(statements of an answer with a next card, of a batch-completing one, of its batch).
    Each is counted as its block ends: the next request's start clears the connection's log."""
    client = APIClient(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(alice)[1]}")
    first, second = open_two_cards(session)
    with CaptureQueriesContext(connection) as queries:
        state = answer_over_rest(client, session, first)
    non_final = statements(queries)
    assert state["current_card"]["id"] == second
    with CaptureQueriesContext(connection) as queries:
        state = answer_over_rest(client, session, second)
    completing = statements(queries)
    assert state["pending"]["kind"] == "batch"
    [unit_of_work] = task_queue.take()
    scripted = {agent: {"provider": "scripted", "model": "scripted"} for agent in AGENTS}
    with (
        override_settings(LLM_BINDINGS=scripted),
        script(analyst(), narrator("Next?", "And?")),
        CaptureQueriesContext(connection) as queries,
    ):
        unit_of_work()
    batch = statements(queries)
    state = client.get(reverse("sessions:session-state", kwargs={"session_id": session.pk}))
    assert state.json()["current_card"]["text"] == "Next?"
    return non_final, completing, batch


@pytest.mark.parametrize("turns", [1, 50])
def test_an_answer_over_rest_costs_what_the_engine_allows(session, alice, turns, task_queue):
    advance_to(session, turns, task_queue)
    non_final, completing, batch = counted_answers(session, alice, task_queue)
    print(
        f"REST queries at turn {turns}: next card {non_final}, completing {completing}, "
        f"batch {batch}"
    )
    assert non_final <= 10
    assert completing <= 10
    assert batch <= 30


def test_the_rest_counts_are_the_same_at_turn_1_and_turn_50(session, alice, task_queue):
    advance_to(session, 1, task_queue)
    early = counted_answers(session, alice, task_queue)
    advance_to(session, 50, task_queue)
    assert counted_answers(session, alice, task_queue) == early


class FreshReadCheck:
    """An API client whose every turn POST is checked against a fresh `GET …/state`."""

    def __init__(self, client: APIClient) -> None:
        self.client = client
        self.checked = 0

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.client.get(*args, **kwargs)

    def post(self, path: str, *args: Any, **kwargs: Any) -> Any:
        response = self.client.post(path, *args, **kwargs)
        if response.status_code == 200 and "/api/ask/sessions/" in path:
            fresh = self.client.get(path.rsplit("/", 1)[0] + "/state")
            assert response.json() == fresh.json(), path
            self.checked += 1
        return response


def test_every_turn_answers_the_state_a_fresh_read_returns(alice, api_as):
    client = FreshReadCheck(api_as(alice))
    whole_session(client)
    assert client.checked >= 10
