"""The psychologist's REST endpoints (SPEC §9): shapes, filters, pagination, errors, and the
reanalyse round trip. Who may call what is in tests/sessions_app/test_access_matrix.py."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from psychologist.models import Analysis, AnalysisRequest
from tests import factories
from tests.psychologist.builders import session_analysed
from tests.routes import object_url

pytestmark = pytest.mark.django_db

LIST = reverse("psychologist:hypothesis-list")
accept_url = object_url("psychologist:hypothesis-accept", "hypothesis_id")
dismiss_url = object_url("psychologist:hypothesis-dismiss", "hypothesis_id")
reanalyze_url = object_url("psychologist:session-reanalyze")


@pytest.fixture
def analysed(alice):
    """alice's session closed by a kill and analysed by the offline engine."""
    return session_analysed(user=alice, reason="killed")


def test_a_counselor_lists_the_hypotheses_of_her_caseload_with_evidence_chips(
    analysed, bob, api_as
):
    response = api_as(bob).get(LIST)

    assert response.status_code == 200
    body = response.json()
    analysis = Analysis.objects.get(session=analysed)
    assert len(body["results"]) == analysis.hypotheses.count() >= 2
    first = next(item for item in body["results"] if item["termination_analysis"])
    assert set(first) == {
        "id",
        "session_id",
        "analysis",
        "target",
        "statement",
        "confidence",
        "termination_analysis",
        "status",
        "decided_by",
        "decided_at",
        "created_at",
        "evidence",
    }
    assert first["session_id"] == str(analysed.pk)
    assert first["analysis"]["tier"] == "light"
    assert first["analysis"]["termination_cause"] == "killed"
    assert first["status"] == "proposed"
    chip = first["evidence"][-1]
    event = analysed.events.get(pk=chip["event_id"])
    assert (chip["seq"], chip["type"]) == (event.seq, "session.closed_abnormally")


def test_the_list_filters_by_session_target_and_status(alice, bob, api_as):
    mine = factories.HypothesisFactory(analysis__session__user=alice, target="narrator")
    factories.HypothesisFactory(analysis__session__user=alice, target="client")
    decided = factories.HypothesisFactory(
        analysis__session__user=alice, status="dismissed", decided_at=mine.created_at
    )
    client = api_as(bob)

    def ids(**query) -> list[int]:
        return [item["id"] for item in client.get(LIST, query).json()["results"]]

    assert ids(session=str(mine.session_id)) == [mine.pk]
    assert ids(target="narrator") == [mine.pk]
    assert ids(status="dismissed") == [decided.pk]
    assert len(ids()) == 3


def test_superseded_analyses_are_history_shown_only_on_request(alice, bob, api_as):
    old = factories.HypothesisFactory(
        analysis__session__user=alice,
        analysis__superseded=True,
        analysis__superseded_at=timezone.now(),
    )
    current = factories.HypothesisFactory(analysis__session=old.session)
    client = api_as(bob)

    default = [item["id"] for item in client.get(LIST).json()["results"]]
    history = client.get(LIST, {"include_superseded": "true"}).json()["results"]

    assert default == [current.pk]
    assert [item["id"] for item in history] == [current.pk, old.pk]


def test_bad_filters_are_a_validation_error(bob, api_as):
    response = api_as(bob).get(LIST, {"target": "astrologer", "session": "nope"})

    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert set(response.json()["fields"]) == {"target", "session"}


def test_the_list_pages_by_twenty_in_a_constant_number_of_queries(
    alice, bob, api_as, django_assert_max_num_queries
):
    analysis = factories.AnalysisFactory(session__user=alice)
    factories.HypothesisFactory.create_batch(25, analysis=analysis)
    client = api_as(bob)

    with django_assert_max_num_queries(6):
        first = client.get(LIST).json()
    second = client.get(first["next"]).json()

    assert len(first["results"]) == 20
    assert len(second["results"]) == 5
    assert second["next"] is None


def test_accept_answers_the_decided_hypothesis_and_a_second_decision_is_409(analysed, bob, api_as):
    hypothesis = Analysis.objects.get(session=analysed).hypotheses.first()
    client = api_as(bob)

    accepted = client.post(accept_url(hypothesis), format="json")
    again = client.post(dismiss_url(hypothesis), format="json")

    assert accepted.status_code == 200
    assert (accepted.json()["status"], accepted.json()["decided_by"]) == ("accepted", bob.pk)
    assert again.status_code == 409
    assert again.json()["code"] == "E_HYPOTHESIS_DECIDED"


def test_a_retried_decision_with_the_same_idempotency_key_replays_the_first_answer(
    analysed, bob, api_as
):
    hypothesis = Analysis.objects.get(session=analysed).hypotheses.first()
    client = api_as(bob)
    headers = {"Idempotency-Key": "decide-once"}

    first = client.post(dismiss_url(hypothesis), format="json", headers=headers)
    retry = client.post(dismiss_url(hypothesis), format="json", headers=headers)

    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json()
    assert retry.headers["Idempotent-Replayed"] == "true"
    dismissed = analysed.events.filter(type="psychologist.hypothesis_dismissed")
    assert dismissed.count() == 1


def test_an_unknown_hypothesis_is_not_found(bob, api_as):
    response = api_as(bob).post(
        reverse("psychologist:hypothesis-accept", kwargs={"hypothesis_id": 999_999}),
        format="json",
    )

    assert response.status_code == 404
    assert response.json() == {"code": "E_NOT_FOUND", "detail": "Hypothesis not found."}


def test_reanalyze_answers_202_and_the_background_run_supersedes_the_analysis(
    analysed, bob, api_as, django_capture_on_commit_callbacks
):
    first = Analysis.objects.get(session=analysed)

    with django_capture_on_commit_callbacks(execute=True):
        response = api_as(bob).post(reanalyze_url(analysed), format="json")

    assert response.status_code == 202
    body = response.json()
    request = AnalysisRequest.objects.get(pk=body["id"])
    assert (body["triggered_by"], body["session_id"]) == ("manual", str(analysed.pk))
    assert request.requested_by == bob
    first.refresh_from_db()
    assert first.superseded
    assert Analysis.objects.current().get(session=analysed).request == request


def test_reanalyze_of_an_active_session_is_409(alice, bob, api_as):
    session = factories.ActiveSessionFactory(user=alice)

    response = api_as(bob).post(reanalyze_url(session), format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "E_SESSION_STILL_ACTIVE"


def test_the_openapi_document_describes_the_psychologist_endpoints(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]

    assert set(
        paths["/api/ask/sessions/{session_id}/psychologist/reanalyze"]["post"]["responses"]
    ) >= {
        "202",
        "401",
        "403",
        "404",
        "409",
    }
    assert "/api/psychologist/hypotheses" in paths
    for verb in ("accept", "dismiss"):
        operation = paths[f"/api/psychologist/hypotheses/{{hypothesis_id}}/{verb}"]["post"]
        assert {"200", "403", "404", "409"} <= set(operation["responses"])
