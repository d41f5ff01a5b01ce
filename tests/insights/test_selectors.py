"""The dashboard's reads besides the charts (those are in test_charts.py): the hypotheses to review
and the follow-ups due. `NOW` is fixed."""

from __future__ import annotations

from datetime import timedelta

import pytest

from insights import selectors
from insights.selectors import Filters
from tests import factories
from tests.insights.test_charts import NOW, ago, session

pytestmark = pytest.mark.django_db


def test_hypotheses_are_grouped_by_target_in_a_fixed_order_and_filtered(alice, bob):
    mine = session(alice, 1)
    analysis = factories.AnalysisFactory(session=mine)
    factories.HypothesisFactory(analysis=analysis, target="flow", confidence=40)
    client = factories.HypothesisFactory(analysis=analysis, target="client", confidence=80)
    factories.HypothesisFactory(
        analysis=analysis, target="client", status="dismissed", decided_at=NOW
    )
    factories.HypothesisFactory(analysis__session=session(factories.ClientFactory(), 1))

    groups = selectors.hypotheses_grouped(user=bob, filters=Filters())
    assert [(g.target, len(g.hypotheses)) for g in groups] == [
        ("client", 2),
        ("analyst", 0),
        ("narrator", 0),
        ("flow", 1),
    ]
    proposed = selectors.hypotheses_grouped(
        user=bob, filters=Filters(status="proposed", target="client")
    )
    assert [[h.pk for h in g.hypotheses] for g in proposed] == [[client.pk]]


def test_a_superseded_analysis_leaves_the_dashboard(alice, bob):
    old = factories.AnalysisFactory(session=session(alice, 1), superseded=True, superseded_at=NOW)
    factories.HypothesisFactory(analysis=old)

    groups = selectors.hypotheses_grouped(user=bob, filters=Filters())

    assert sum(len(g.hypotheses) for g in groups) == 0


def test_follow_ups_are_overdue_or_due_within_two_weeks(alice, bob, monkeypatch):
    overdue = session(alice, 5, follow_up_needed=True, follow_up_at=ago(1))
    soon = session(alice, 5, follow_up_needed=True, follow_up_at=NOW + timedelta(days=3))
    session(alice, 5, follow_up_needed=True, follow_up_at=NOW + timedelta(days=30))

    rows = selectors.follow_ups(user=bob, now=NOW)

    assert [(s.pk, s.overdue) for s in rows] == [(overdue.pk, True), (soon.pk, False)]
