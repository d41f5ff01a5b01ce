"""QUALITY P1: an answer costs ≤ 10 queries and no model call, whether or not it completes a
batch; the batch's own unit of work (Analyst + Narrator, run by a worker) ≤ 30; all the same at
turn 1 and at turn 50."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from psychologist.models import LLMCall
from sessions_app import models as session_models
from sessions_app.engine.cards.dealer import Turn, new_card, session_locked
from sessions_app.engine.selectors import session_state
from sessions_app.engine.services import answer_submit
from tests.engine.conftest import analyst, answer, narrator, script

pytestmark = pytest.mark.django_db
AGENTS = ("analyst", "narrator", "summarizer", "psychologist", "psychologist-light")


@pytest.fixture(autouse=True)
def no_length_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real session ends at 100 messages; turn 50 needs ~150. Lifted only to measure scaling.
    monkeypatch.setattr(session_models, "SESSION_MESSAGES_MAX", 10_000)


def open_two_cards(session: Any) -> list[str]:
    """A two-card batch, opened the way the engine opens one after the Narrator."""
    cards = [new_card("What happened next?"), new_card("How did it feel?")]
    with transaction.atomic():
        turn = Turn(session_locked(session.pk))
        turn.open_batch(cards, engine="offline")
        turn.save()
    return [card["id"] for card in cards]


def advance_to(session: Any, turns: int, task_queue: Any = None) -> None:
    answer(session, "Work stress")
    while session_state(session)["turn_count"] < turns:
        first, second = open_two_cards(session)
        answer_submit(session=session, card_id=first, text="It went on at work, as usual.")
        answer_submit(session=session, card_id=second, text="Tense, but I coped with it.")
        if task_queue is not None:
            task_queue.run()


def counted(call: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def measure(session: Any, task_queue: Any) -> tuple[int, int, int]:
    """(queries of a non-final answer, of a batch-completing one, of the batch's unit)."""
    first, second = open_two_cards(session)
    calls = LLMCall.objects.count()
    non_final = counted(lambda: answer_submit(session=session, card_id=first, text="Yes."))
    completing = counted(lambda: answer_submit(session=session, card_id=second, text="No."))
    assert LLMCall.objects.count() == calls  # the answer's request calls no model
    scripted = {agent: {"provider": "scripted", "model": "scripted"} for agent in AGENTS}
    [unit_of_work] = task_queue.take()
    with override_settings(LLM_BINDINGS=scripted), script(analyst(), narrator("Next?", "And?")):
        unit = counted(unit_of_work)
    assert LLMCall.objects.count() == calls + 2
    return non_final, completing, unit


@pytest.mark.parametrize("turns", [1, 50])
def test_a_card_with_a_next_card_costs_at_most_ten_queries_and_no_model_call(
    session, bind, turns, django_assert_max_num_queries
):
    advance_to(session, turns)
    bind("analyst", "narrator")
    first, _ = open_two_cards(session)
    with django_assert_max_num_queries(10):
        answer_submit(session=session, card_id=first, text="Yes.")


@pytest.mark.parametrize("turns", [1, 50])
def test_a_batch_completing_answer_costs_at_most_ten_queries_and_its_batch_thirty(
    session, turns, task_queue, django_assert_max_num_queries
):
    advance_to(session, turns, task_queue)
    first, second = open_two_cards(session)
    answer_submit(session=session, card_id=first, text="Yes.")
    with django_assert_max_num_queries(10):
        result = answer_submit(session=session, card_id=second, text="No.")
    assert result.card is None
    assert session_state(session)["pending"]["kind"] == "batch"
    [unit_of_work] = task_queue.take()
    with django_assert_max_num_queries(30):
        unit_of_work()  # the batch, as a worker runs it (offline Analyst)
    assert session_state(session)["current_card"] is not None


def test_the_query_counts_are_the_same_at_turn_1_and_turn_50(session, task_queue):
    advance_to(session, 1, task_queue)
    early = measure(session, task_queue)
    advance_to(session, 50, task_queue)
    late = measure(session, task_queue)

    print(f"P1 queries (non-final, batch-completing, batch): turn 1 {early}, turn 50 {late}")
    assert early == late
    assert early[0] <= 10
    assert early[1] <= 10
    assert early[2] <= 30
