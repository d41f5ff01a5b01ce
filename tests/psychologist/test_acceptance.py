"""The ADR's acceptance criterion: closing sessions normally, killed and errored (and abandoned)
yields hypotheses with navigable evidence in every case, the abnormal ones with termination
analysis; a small and a large session run on different tiers, whose metered costs differ as the
price table says."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from psychologist.llm.metering import cost_micro_usd, prices
from psychologist.llm.types import Usage
from psychologist.models import Analysis, LLMCall
from psychologist.schemas import EMIT_HYPOTHESES_TOOL
from sessions_app.models import AskSession, SessionEvent
from tests import fake_anthropic as fake
from tests.fake_anthropic import FakeAnthropic
from tests.psychologist.builders import (
    TIRED_ENDING,
    event_ids,
    hypothesis_data,
    session_close,
    session_of_size,
    session_with_log,
)
from tests.psychologist.conftest import ANTHROPIC_MODEL, HEAVY_MODEL

pytestmark = pytest.mark.django_db

ENDINGS = [None, "killed", "error", "abandoned_timeout"]


def assert_backed_by_its_own_events(analysis: Analysis) -> None:
    hypotheses = list(analysis.hypotheses.all())
    assert hypotheses, f"no hypotheses for {analysis.termination_cause}"
    for hypothesis in hypotheses:
        cited = hypothesis.evidence.values_list("event_id", flat=True)
        events = SessionEvent.objects.filter(pk__in=cited)
        assert len(cited) >= 1
        assert events.count() == len(cited)  # every id resolves to an event
        assert {event.session_id for event in events} == {analysis.session_id}
        assert not any(event.type.startswith("psychologist.") for event in events)
    abnormal = analysis.termination_cause != "graceful"
    assert any(h.termination_analysis for h in hypotheses) == abnormal


def close_all(alice, close: Callable[[AskSession, str | None], None]) -> dict:
    analyses = {}
    for reason in ENDINGS:
        session = session_with_log(user=alice, answers=TIRED_ENDING)
        close(session, reason)
        analyses[reason] = Analysis.objects.current().get(session=session)
    return analyses


def test_sessions_closed_normally_killed_errored_and_abandoned_all_get_hypotheses_backed_by_their_own_events(  # noqa: E501
    alice, django_capture_on_commit_callbacks
):
    def close(session: AskSession, reason: str | None) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            session_close(session, reason=reason)

    analyses = close_all(alice, close)

    for reason, analysis in analyses.items():
        assert analysis.termination_cause == (reason or "graceful")
        assert_backed_by_its_own_events(analysis)
        completed = analysis.session.events.get(type="psychologist.analysis_completed")
        assert completed.payload["hypotheses"] == analysis.hypotheses.count()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_each_close_commits_and_then_its_analysis_runs(alice):
    """No captured callbacks here: the close really commits, and the analysis it enqueued in
    the same transaction runs after that commit."""
    analyses = close_all(alice, lambda session, reason: session_close(session, reason=reason))

    for analysis in analyses.values():
        assert_backed_by_its_own_events(analysis)
    assert Analysis.objects.count() == len(ENDINGS)


def batch_for(session: AskSession) -> fake.Reply:
    ids = event_ids(session)
    return fake.tool_use(
        EMIT_HYPOTHESES_TOOL,
        {
            "hypotheses": [
                hypothesis_data(ids[1:3]),
                hypothesis_data(ids[-2:], target="flow", statement="The pace was steady."),
            ]
        },
    )


def priced(analysis: Analysis, model: str) -> int:
    """The analysis's metered calls, priced at `model`'s row of the price table."""
    calls = LLMCall.objects.filter(session=analysis.session)
    usages = [
        Usage(
            input_tokens=c.input_tokens,
            output_tokens=c.output_tokens,
            cache_read_tokens=c.cache_read_tokens,
            cache_write_tokens=c.cache_write_tokens,
        )
        for c in calls
    ]
    return sum(cost_micro_usd(model=model, usage=usage) for usage in usages)


def test_a_small_and_a_large_session_run_on_different_tiers_and_costs_follow_the_price_table(
    alice, tiered_anthropic: FakeAnthropic, django_capture_on_commit_callbacks
):
    analyses = {}
    for size in (10, 60):
        session = session_of_size(size, user=alice)
        tiered_anthropic.queue(batch_for(session))
        with django_capture_on_commit_callbacks(execute=True):
            session_close(session)
        analyses[size] = Analysis.objects.get(session=session)
    small, large = analyses[10], analyses[60]

    assert (small.tier, small.agent, small.model) == (
        "light",
        "psychologist-light",
        ANTHROPIC_MODEL,
    )
    assert (large.tier, large.agent, large.model) == ("heavy", "psychologist", HEAVY_MODEL)
    assert [body["model"] for body in tiered_anthropic.requests] == [ANTHROPIC_MODEL, HEAVY_MODEL]
    # Each analysis costs exactly what metering recorded: its tokens at its model's prices.
    assert small.cost_micro_usd == priced(small, ANTHROPIC_MODEL) > 0
    assert large.cost_micro_usd == priced(large, HEAVY_MODEL) > small.cost_micro_usd
    # And the large session at the light tier's prices would cost a fifth, as the table says.
    ratio = prices()[HEAVY_MODEL].input / prices()[ANTHROPIC_MODEL].input
    assert ratio == 5
    assert priced(large, ANTHROPIC_MODEL) * ratio == pytest.approx(large.cost_micro_usd, abs=5)
    for analysis in (small, large):
        assert_backed_by_its_own_events(analysis)
