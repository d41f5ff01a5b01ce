"""QUALITY P1: a card with a next card costs ≤ 10 queries and no model call; a batch-completing
answer (Analyst + Narrator) ≤ 30; both the same at turn 1 and at turn 50."""

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


def advance_to(session: Any, turns: int) -> None:
    answer(session, "Work stress")
    while session_state(session)["turn_count"] < turns:
        first, second = open_two_cards(session)
        answer_submit(session=session, card_id=first, text="It went on at work, as usual.")
        answer_submit(session=session, card_id=second, text="Tense, but I coped with it.")


def counted(call: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        call()
    return len(queries)


def measure(session: Any) -> tuple[int, int]:
    """(queries of a non-final answer, queries of a batch-completing one)."""
    first, second = open_two_cards(session)
    calls = LLMCall.objects.count()
    non_final = counted(lambda: answer_submit(session=session, card_id=first, text="Yes."))
    assert LLMCall.objects.count() == calls  # no model call for a card with a next card
    scripted = {agent: {"provider": "scripted", "model": "scripted"} for agent in AGENTS}
    with override_settings(LLM_BINDINGS=scripted), script(analyst(), narrator("Next?", "And?")):
        completing = counted(lambda: answer_submit(session=session, card_id=second, text="No."))
    assert LLMCall.objects.count() == calls + 2
    return non_final, completing


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
def test_a_batch_completing_answer_costs_at_most_thirty_queries(
    session, turns, django_assert_max_num_queries
):
    advance_to(session, turns)
    first, second = open_two_cards(session)
    answer_submit(session=session, card_id=first, text="Yes.")
    with django_assert_max_num_queries(30):
        answer_submit(session=session, card_id=second, text="No.")  # offline Analyst


def test_the_query_counts_are_the_same_at_turn_1_and_turn_50(session):
    advance_to(session, 1)
    early = measure(session)
    advance_to(session, 50)
    late = measure(session)

    print(f"P1 queries (non-final, batch-completing): turn 1 {early}, turn 50 {late}")
    assert early == late
    assert early[0] <= 10
    assert early[1] <= 30
