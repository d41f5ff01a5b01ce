"""The dashboard's charts (schema §9, SPEC §8) against factory data, each expectation worked out
by hand in the comment beside it. `NOW` is fixed; days are UTC days (TIME_ZONE)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from insights import charts, selectors
from psychologist.models import LLMCall
from tests import factories

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def ago(days: int, hours: int = 0) -> datetime:
    return NOW - timedelta(days=days, hours=hours)


def session(user, days: int, **fields):
    return factories.AskSessionFactory(user=user, created_at=ago(days), **fields)


def series(chart, label=None):
    found = chart.series if label is None else [s for s in chart.series if s["label"] == label]
    return found[0]["data"]


def value_on(chart, days_ago: int, label=None):
    return series(chart, label)[chart.labels.index(ago(days_ago).strftime("%-d %b"))]


def test_risk_sessions_count_l3_and_l4_at_start_end_or_escalation_per_day(alice, bob, olga):
    session(alice, 1, initial_risk_level="L3")  # day -1: starts at L3
    session(alice, 1, initial_risk_level="L1", final_risk_level="L4")  # day -1: ends at L4
    escalated = session(alice, 3, initial_risk_level="L1", final_risk_level="L2")
    factories.SessionEventFactory(session=escalated, type="risk.escalated", payload={"level": "L4"})
    session(alice, 2, initial_risk_level="L2")  # never L3/L4: not counted
    session(alice, 40, initial_risk_level="L4")  # outside the 30 days
    stranger = factories.ClientFactory()
    session(stranger, 1, initial_risk_level="L4")  # not bob's caseload; ops count it

    chart = charts.risk_sessions_per_day(selectors.insights_scope(bob), now=NOW)

    # 2 on day -1, 1 on day -3 → 3; the 30 labels end today.
    assert (value_on(chart, 1), value_on(chart, 3), sum(series(chart))) == (2, 1, 3)
    assert len(chart.labels) == 30
    assert chart.labels[-1] == "15 Jun"
    assert chart.summary == "3 sessions at L3/L4"
    everyone = charts.risk_sessions_per_day(selectors.insights_scope(olga), now=NOW)
    assert sum(series(everyone)) == 4


def test_cbt_techniques_count_sessions_and_average_the_rated_ones(alice, bob):
    session(alice, 1, cbt_techniques_used=["Evidence check", "Experiment"], satisfaction_score=4)
    session(alice, 2, cbt_techniques_used=["Evidence check"], satisfaction_score=2)
    session(alice, 6, cbt_techniques_used=["Evidence check", "Labelling"])  # not rated
    session(alice, 8, cbt_techniques_used=["Labelling"], satisfaction_score=5)  # > 7 days

    chart = charts.cbt_techniques(selectors.insights_scope(bob), now=NOW)

    # Evidence check: 3 sessions, rated 4 and 2 → 3.0; Experiment: 1, 4.0; Labelling: 1, unrated.
    assert chart.labels == ["Evidence check", "Experiment", "Labelling"]
    assert series(chart, "Sessions") == [3, 1, 1]
    assert series(chart, "Average satisfaction (1–5)") == [3.0, 4.0, None]
    assert chart.table == [
        ["Evidence check", 3, "3.0"],
        ["Experiment", 1, "4.0"],
        ["Labelling", 1, "—"],
    ]


def test_mood_trend_takes_the_last_mood_of_each_session(alice, bob):
    first = session(alice, 1)
    for mood in ("declining", "improving"):  # the last one wins: improving
        factories.SessionEventFactory(
            session=first, type="analyst.responded", payload={"mood_delta": mood}
        )
    second = session(alice, 1)
    factories.SessionEventFactory(
        session=second, type="analyst.responded", payload={"mood_delta": "stable"}
    )
    third = session(alice, 2)
    factories.SessionEventFactory(
        session=third, type="analyst.responded", payload={"mood_delta": "declining"}
    )
    session(alice, 2)  # no mood reported: not in the chart

    chart = charts.mood_trend(selectors.insights_scope(bob), now=NOW)

    assert value_on(chart, 1, "Improving") == 1
    assert value_on(chart, 1, "Stable") == 1
    assert value_on(chart, 2, "Declining") == 1
    assert chart.summary == "1 declining, 1 stable, 1 improving, 0 crisis"


def test_mood_trend_counts_an_escalated_session_as_a_crisis(alice, bob):
    escalated = session(alice, 1, intervention_triggered=True)
    factories.SessionEventFactory(
        session=escalated, type="analyst.responded", payload={"mood_delta": "stable"}
    )

    chart = charts.mood_trend(selectors.insights_scope(bob), now=NOW)

    assert value_on(chart, 1, "Crisis") == 1
    assert value_on(chart, 1, "Stable") == 0


def test_abandoned_rate_is_the_share_of_ended_sessions_left_to_the_idle_timeout(alice, bob):
    session(alice, 1, termination_reason="abandoned_timeout", status="completed_partial")
    session(alice, 1)
    session(alice, 2)
    session(alice, 2)
    session(alice, 2, status="active")  # still running: not ended

    chart = charts.abandoned_rate(selectors.insights_scope(bob), now=NOW)

    # Day -1: 1 of 2 → 50 %; day -2: 0 of 2 → 0 %; overall 1 of 4 → 25 %.
    assert (value_on(chart, 1), value_on(chart, 2), value_on(chart, 3)) == (50.0, 0.0, None)
    assert chart.summary == "25% abandoned (1 of 4 ended)"


def call(session, agent: str, micro: int, days: int) -> None:
    made = LLMCall.objects.create(
        agent=agent, provider="offline", model="m", session=session, cost_micro_usd=micro
    )
    LLMCall.objects.filter(pk=made.pk).update(created_at=ago(days))


def test_llm_cost_per_day_is_split_by_agent_and_the_psychologist_tier(alice, bob):
    mine = session(alice, 1)
    call(mine, "analyst", 1_000, 1)
    call(mine, "narrator", 500, 1)
    call(mine, "psychologist", 30_000, 1)
    call(mine, "psychologist-light", 2_000, 2)
    call(session(factories.ClientFactory(), 1), "analyst", 99_000, 1)  # not bob's

    chart = charts.llm_cost_per_day(selectors.insights_scope(bob), now=NOW)

    assert [s["label"] for s in chart.series] == [
        "Analyst",
        "Narrator",
        "Psychologist · heavy",
        "Psychologist · light",
    ]
    assert value_on(chart, 1, "Analyst") == 0.001
    assert value_on(chart, 1, "Psychologist · heavy") == 0.03
    assert value_on(chart, 2, "Psychologist · light") == 0.002
    # 1,000 + 500 + 30,000 + 2,000 µ$ = $0.0335 over 4 calls.
    assert chart.summary == "$0.0335 over 4 calls"


def test_time_to_claim_reads_seconds_to_claim_of_each_hand_off(alice, bob):
    for seconds, days in ((120, 2), (300, 1)):
        claimed = session(alice, days, handoff_counselor=bob, handoff_time=ago(days))
        factories.SessionEventFactory(
            session=claimed, type="handoff.created", payload={"seconds_to_claim": seconds}
        )
    old = session(alice, 45, handoff_counselor=bob, handoff_time=ago(45))
    factories.SessionEventFactory(
        session=old, type="handoff.created", payload={"seconds_to_claim": 60}
    )

    chart = charts.time_to_claim(selectors.insights_scope(bob), now=NOW)

    # 120 s → 2 min, 300 s → 5 min, oldest first; median 3.5; the 45-day-old claim is out.
    assert series(chart) == [2.0, 5.0]
    assert chart.summary == "median 3.5 min over 2 claims"


def test_a_claim_under_a_minute_is_told_in_seconds(alice, bob):
    for seconds, days in ((20, 2), (40, 1)):
        claimed = session(alice, days, handoff_counselor=bob, handoff_time=ago(days))
        factories.SessionEventFactory(
            session=claimed, type="handoff.created", payload={"seconds_to_claim": seconds}
        )

    chart = charts.time_to_claim(selectors.insights_scope(bob), now=NOW)

    assert chart.summary == "median 30 s over 2 claims"


def test_homework_completion_stacks_tasks_by_due_day_and_rates_the_settled_ones(
    alice, bob, charlie
):
    mine = session(alice, 5)
    due = (NOW - timedelta(days=2)).date()
    for status in ("done", "done", "skipped", "expired", "accepted"):
        factories.TaskFactory(session=mine, status=status, due_date=due)
    factories.TaskFactory(session=mine, status="done", due_date=(NOW - timedelta(days=40)).date())
    factories.TaskFactory(session=session(charlie, 5), status="done", due_date=due)  # not bob's

    chart = charts.homework_completion(selectors.insights_scope(bob), now=NOW)

    # Day -2: done 2, skipped 1, expired 1, open 1; the one due 40 days ago is out of the window.
    assert [
        value_on(chart, 2, label) for label in ("Done", "Skipped", "Expired", "Still open")
    ] == [
        2,
        1,
        1,
        1,
    ]
    assert chart.stacked is True
    assert chart.summary == "50% done (2 of 4 settled, 1 still open)"
    assert chart.table == [[ago(2).strftime("%-d %b"), 2, 1, 1, 1]]
    assert "homework" in [c.id for c in charts.charts(user=bob, now=NOW)]
