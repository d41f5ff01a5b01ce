"""`manage.py psychologist_demo` shows the acceptance criterion on whatever provider is bound."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from psychologist.models import Analysis
from tests import factories

pytestmark = pytest.mark.django_db


def test_the_demo_closes_three_sessions_and_prints_their_analyses():
    out = StringIO()

    call_command("psychologist_demo", stdout=out)

    analyses = Analysis.objects.order_by("created_at")
    assert [(a.termination_cause, a.tier) for a in analyses] == [
        ("graceful", "light"),
        ("killed", "light"),
        ("error", "heavy"),
    ]
    for analysis in analyses[1:]:
        assert analysis.hypotheses.exclude(termination_analysis="").exists()
    text = out.getvalue()
    assert text.count("evidence: #") >= 3
    assert "heavy tier, offline:offline-rules-v1" in text


def test_the_demo_refuses_a_client_with_an_active_session(alice):
    factories.ActiveSessionFactory(user=alice)

    with pytest.raises(CommandError, match="active session"):
        call_command("psychologist_demo", client="alice")
