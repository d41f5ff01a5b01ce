"""The insights page (SPEC §8): who sees what, the inline decisions, and a query count that does
not grow with the number of sessions. The page's rows in the R1 access matrix are in
tests/sessions_app/test_access_matrix.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from psychologist.models import Hypothesis, LLMCall
from sessions_app.models import AskSession
from tests import factories

pytestmark = pytest.mark.django_db

PAGE = reverse("insights:home")


def browser(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def htmx(user) -> Client:
    client = browser(user)
    client.defaults["HTTP_HX_REQUEST"] = "true"
    return client


@pytest.fixture
def reviewed(alice):
    """alice's session with one proposed client hypothesis citing one event; a stranger's
    session with its own hypothesis."""
    session = factories.AskSessionFactory(user=alice, initial_risk_level="L4")
    event = factories.SessionEventFactory(session=session, type="answer.received")
    mine = factories.HypothesisFactory(
        analysis__session=session, statement="Alice avoids talking about work.", evidence=[event]
    )
    other = factories.AskSessionFactory(initial_risk_level="L4")
    factories.HypothesisFactory(analysis__session=other, statement="A stranger's secret.")
    return mine


def test_a_counselor_sees_only_its_caseloads_hypotheses_and_numbers(reviewed, bob):
    response = browser(bob).get(PAGE)

    assert response.status_code == 200
    body = response.content.decode()
    assert "Alice avoids talking about work." in body
    assert "A stranger&#x27;s secret." not in body
    assert "A stranger's secret." not in body
    assert "1 session at L3/L4" in body  # alice's; the stranger's L4 is not bob's
    chip = f"/sessions/{reviewed.session_id}/?highlightEvent={reviewed.evidence.get().event_id}"
    assert chip in body


def test_ops_see_everyone(reviewed, olga):
    body = browser(olga).get(PAGE).content.decode()

    assert "Alice avoids talking about work." in body
    assert "2 sessions at L3/L4" in body


def test_a_counselor_without_a_caseload_gets_an_empty_dashboard_not_an_error(reviewed):
    charlie = factories.CounselorFactory(username="charlie")

    response = browser(charlie).get(PAGE)

    assert response.status_code == 200
    body = response.content.decode()
    assert "Nothing proposed yet" in body
    assert "0 sessions at L3/L4" in body
    assert "Alice" not in body


def test_a_client_or_a_service_gets_404_and_a_visitor_is_sent_to_sign_in(
    reviewed, alice, service_account
):
    assert browser(alice).get(PAGE).status_code == 404
    assert browser(service_account).get(PAGE).status_code == 404
    response = browser(None).get(PAGE)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def accept(hypothesis) -> str:
    return reverse("review:hypothesis-accept", kwargs={"hypothesis_id": hypothesis.pk})


def dismiss(hypothesis) -> str:
    return reverse("review:hypothesis-dismiss", kwargs={"hypothesis_id": hypothesis.pk})


def test_accepting_inline_returns_the_row_with_who_decided_and_when(reviewed, bob):
    bob.first_name = "Bob"
    bob.save()

    response = htmx(bob).post(accept(reviewed))

    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith(
        f'<li class="hypothesis hypothesis--accepted" id="hypothesis-{reviewed.pk}"'
    )
    assert "Accepted by Bob" in body
    assert 'data-decide="accept"' not in body  # no buttons on a decided row
    reviewed.refresh_from_db()
    assert (reviewed.status, reviewed.decided_by) == ("accepted", bob)


def test_a_second_decision_is_refused_with_a_clear_message(reviewed, bob, olga):
    htmx(bob).post(dismiss(reviewed))

    response = htmx(olga).post(accept(reviewed))

    assert response.status_code == 409
    body = response.content.decode()
    assert "E_HYPOTHESIS_DECIDED" in body
    assert "already accepted or dismissed" in body
    assert "Dismissed by" in body  # the row shows the decision that stands
    assert Hypothesis.objects.get(pk=reviewed.pk).status == "dismissed"


def test_without_htmx_a_decision_redirects_back_to_the_dashboard(reviewed, bob):
    response = browser(bob).post(accept(reviewed), {"next": PAGE + "?status=proposed"})

    assert response.status_code == 302
    assert response.url == PAGE + "?status=proposed"


def test_a_counselor_cannot_decide_outside_its_caseload(bob):
    stranger = factories.HypothesisFactory()

    assert htmx(bob).post(accept(stranger)).status_code == 404
    assert Hypothesis.objects.get(pk=stranger.pk).status == "proposed"


def test_the_filters_narrow_the_hypotheses_fragment(reviewed, bob):
    response = htmx(bob).get(PAGE, {"part": "hypotheses", "status": "accepted"})

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="hypotheses"')
    assert "Alice avoids talking about work." not in body
    assert "Nothing matches the filters" in body


def test_reanalyse_requests_a_new_run_and_returns_to_the_page(reviewed, bob):
    url = reverse("review:session-reanalyse", kwargs={"session_id": reviewed.session_id})

    response = browser(bob).post(url, {"next": PAGE})

    assert response.status_code == 302
    assert response.url == PAGE
    assert reviewed.session.analysis_requests.filter(triggered_by="manual").exists()


def sessions_for(client, count: int) -> None:
    """`count` finished sessions of `client` over the last 30 days with the numbers every chart
    reads, and a hypothesis on every tenth."""
    now = timezone.now()
    rows = AskSession.objects.bulk_create(
        AskSession(
            user=client,
            session_title=f"S{i}",
            status="completed_partial" if i % 5 == 0 else "completed",
            termination_reason="abandoned_timeout" if i % 5 == 0 else None,
            created_at=now - timedelta(days=i % 30, hours=1),
            initial_risk_level="L3" if i % 4 == 0 else "L1",
            cbt_techniques_used=["Evidence check"] if i % 2 else ["Experiment"],
            satisfaction_score=1 + i % 5,
            follow_up_needed=i % 7 == 0,
            follow_up_at=now + timedelta(days=i % 10 - 5),
        )
        for i in range(count)
    )
    LLMCall.objects.bulk_create(
        LLMCall(agent="analyst", provider="offline", model="m", session=s, cost_micro_usd=10)
        for s in rows
    )
    for session in rows[::10]:
        factories.SessionEventFactory(
            session=session, type="analyst.responded", payload={"mood_delta": "stable"}
        )
        factories.SessionEventFactory(
            session=session, type="handoff.created", payload={"seconds_to_claim": 90}
        )
        factories.HypothesisFactory(analysis__session=session)


def page_queries(user) -> int:
    client = browser(user)
    client.get(PAGE)  # warm: the session and permission lookups of a first request
    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE)
    assert response.status_code == 200
    return len(queries)


def test_the_page_costs_the_same_queries_at_10_and_1000_sessions(alice, bob):
    sessions_for(alice, 10)
    at_10 = page_queries(bob)

    sessions_for(alice, 990)
    assert AskSession.objects.count() == 1000
    at_1000 = page_queries(bob)

    assert at_10 == at_1000, f"{at_10} queries at 10 sessions, {at_1000} at 1,000"
    assert at_1000 <= 20
