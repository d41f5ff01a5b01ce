"""The analysis run (SPEC §6): idempotency, failures that tell their reason, attempts, supersede,
progress, the context the model is given, and no LLM call inside a transaction."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from psychologist import analysis, toolloop
from psychologist.analysis import analysis_perform
from psychologist.llm.scripted import use_script
from psychologist.models import Analysis, AnalysisRequest, Hypothesis, LLMCall
from psychologist.services import analysis_reanalyse
from sessions_app.errors import ApplicationError
from sessions_app.models import AskSession
from tests import factories
from tests.psychologist.builders import (
    TIRED_ENDING,
    emit_recording,
    event_ids,
    hypothesis_data,
    read_recording,
    session_close,
    session_with_log,
)

pytestmark = pytest.mark.django_db


def psychologist_events(session: AskSession) -> list[str]:
    return list(
        session.events.filter(type__startswith="psychologist.")
        .order_by("seq")
        .values_list("type", flat=True)
    )


def failed_payloads(session: AskSession) -> list[dict]:
    return [e.payload for e in session.events.filter(type="psychologist.analysis_failed")]


@pytest.fixture
def closed(alice, django_capture_on_commit_callbacks) -> AskSession:
    """alice's session, closed gracefully and analysed by the offline engine."""
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    with django_capture_on_commit_callbacks(execute=True):
        session_close(session)
    return session


def test_a_redelivered_task_after_the_analysis_concluded_never_calls_the_llm(
    closed, scripted_psychologist
):
    request = AnalysisRequest.objects.get(session=closed)
    calls = LLMCall.objects.count()

    with use_script([]) as script:  # any call would raise ScriptExhausted
        assert analysis_perform(request_id=request.pk) is None

    assert script.remaining == 0
    assert LLMCall.objects.count() == calls
    assert Analysis.objects.filter(session=closed).count() == 1


def test_a_second_automatic_request_for_an_analysed_session_is_skipped_before_any_llm_call(
    closed, scripted_psychologist, django_capture_on_commit_callbacks
):
    calls = LLMCall.objects.count()

    with use_script([]), django_capture_on_commit_callbacks(execute=True):
        duplicate = session_close(closed)

    duplicate.refresh_from_db()
    assert (duplicate.status, duplicate.attempts) == (AnalysisRequest.Status.DONE, 1)
    assert LLMCall.objects.count() == calls
    assert Analysis.objects.filter(session=closed).count() == 1


def test_the_partial_unique_index_allows_one_current_analysis_per_session(closed):
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.AnalysisFactory(session=closed)

    Analysis.objects.filter(session=closed).update(superseded=True, superseded_at=closed.ended_at)
    factories.AnalysisFactory(session=closed)
    assert Analysis.objects.current().filter(session=closed).count() == 1


def test_a_run_without_a_valid_batch_writes_no_analysis_and_tells_why_then_a_retry_may_run(
    alice, scripted_psychologist, django_capture_on_commit_callbacks
):
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    with use_script([read_recording()] * 4), django_capture_on_commit_callbacks(execute=True):
        request = session_close(session)

    request.refresh_from_db()
    assert not Analysis.objects.filter(session=session).exists()
    assert request.status == AnalysisRequest.Status.FAILED
    assert request.last_error.startswith("no_valid_batch")
    [failed] = failed_payloads(session)
    assert failed["reason"] == "no_valid_batch"
    assert failed["iterations"] == 4
    assert failed["will_retry"] is False

    with use_script([emit_recording(hypothesis_data(event_ids(session)[-2:]))]):
        analysis = analysis_perform(request_id=request.pk)

    assert analysis is not None
    request.refresh_from_db()
    assert (request.status, request.attempts) == (AnalysisRequest.Status.DONE, 2)


def test_a_poison_request_stops_after_the_configured_attempts_without_calling_the_llm(
    alice, settings, scripted_psychologist
):
    settings.PSYCHOLOGIST_MAX_ATTEMPTS = 2
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    # Two workers died mid-run: the attempts were counted, no outcome was ever written.
    request = factories.AnalysisRequestFactory(
        session=session, status=AnalysisRequest.Status.RUNNING, attempts=2
    )

    with use_script([]):
        assert analysis_perform(request_id=request.pk) is None
        assert analysis_perform(request_id=request.pk) is None  # yet another redelivery

    request.refresh_from_db()
    assert (request.status, request.attempts) == (AnalysisRequest.Status.FAILED, 2)
    [failed] = failed_payloads(session)
    assert failed["reason"] == "attempts_exhausted"
    assert not LLMCall.objects.exists()


def test_an_unexpected_error_mid_run_is_told_before_it_reaches_django_q(
    alice, monkeypatch, scripted_psychologist
):
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    request = session_close(session)  # enqueued; its run waits for a commit that never comes

    def broken(**kwargs):
        raise ZeroDivisionError

    monkeypatch.setattr(analysis, "loop_run", broken)
    with pytest.raises(ZeroDivisionError):
        analysis_perform(request_id=request.pk)

    [failed] = failed_payloads(session)
    assert (failed["reason"], failed["detail"]) == ("internal_error", "ZeroDivisionError")


def test_a_session_without_events_fails_without_calling_the_llm(scripted_psychologist):
    request = factories.AnalysisRequestFactory(status=AnalysisRequest.Status.PENDING, attempts=0)

    with use_script([]):
        assert analysis_perform(request_id=request.pk) is None

    assert [p["reason"] for p in failed_payloads(request.session)] == ["empty_log"]


def test_manual_reanalyse_supersedes_the_current_analysis_and_keeps_it(
    closed, bob, django_capture_on_commit_callbacks
):
    first = Analysis.objects.get(session=closed)
    old_hypotheses = set(first.hypotheses.values_list("pk", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        request = analysis_reanalyse(session=closed, by=bob)

    first.refresh_from_db()
    second = Analysis.objects.current().get(session=closed)
    assert first.superseded
    assert first.superseded_at is not None
    assert (second.request, second.triggered_by) == (request, "manual")
    assert set(first.hypotheses.values_list("pk", flat=True)) == old_hypotheses
    assert Hypothesis.objects.filter(session=closed).count() == 2 * len(old_hypotheses)
    completed = closed.events.filter(type="psychologist.analysis_completed").order_by("seq")
    assert [e.payload["supersedes"] for e in completed] == [None, first.pk]
    requested = closed.events.get(type="psychologist.reanalysis_requested")
    assert (requested.actor, requested.actor_user, requested.payload) == (
        "counselor",
        bob,
        {"request": request.pk},
    )


def test_reanalysing_an_active_session_is_refused(alice, bob):
    session = session_with_log(user=alice, answers=["Hello."])

    with pytest.raises(ApplicationError) as refused:
        analysis_reanalyse(session=session, by=bob)

    assert (refused.value.code, refused.value.status) == ("E_SESSION_STILL_ACTIVE", 409)
    assert not AnalysisRequest.objects.exists()


def test_reanalysing_a_deleted_session_is_refused(closed, bob):
    AskSession.objects.filter(pk=closed.pk).update(is_deleted=True)

    with pytest.raises(ApplicationError) as refused:
        analysis_reanalyse(session=closed, by=bob)

    assert refused.value.code == "E_NOT_FOUND"


def test_a_close_that_rolls_back_never_runs_its_analysis(alice, django_capture_on_commit_callbacks):
    session = session_with_log(user=alice, answers=TIRED_ENDING)

    def close_then_fail() -> None:
        with transaction.atomic():
            session_close(session)
            raise RuntimeError("the close failed after enqueueing")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        close_then_fail()

    assert not AnalysisRequest.objects.exists()
    assert not Analysis.objects.exists()


def test_every_iteration_appends_a_progress_event_with_names_and_numbers_only(
    alice, scripted_psychologist, django_capture_on_commit_callbacks
):
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    script = [read_recording(), emit_recording(hypothesis_data(event_ids(session)[-1:]))]
    with use_script(script), django_capture_on_commit_callbacks(execute=True):
        session_close(session)

    assert psychologist_events(session) == [
        "psychologist.analysis_started",
        "psychologist.iteration",
        "psychologist.iteration",
        "psychologist.hypothesis_proposed",
        "psychologist.analysis_completed",
    ]
    iterations = session.events.filter(type="psychologist.iteration").order_by("seq")
    assert [(e.payload["iteration"], e.payload["outcome"]) for e in iterations] == [
        (1, "read"),
        (2, "accepted"),
    ]
    assert set(iterations[0].payload) == {
        "request",
        "attempt",
        "iteration",
        "tools",
        "outcome",
        "cost_micro_usd",
    }
    assert iterations[0].payload["tools"] == ["search_events"]


def test_the_model_is_given_the_log_with_ids_the_active_rules_and_the_previous_hypotheses(
    alice, scripted_psychologist, django_capture_on_commit_callbacks
):
    factories.ClinicalRuleFactory(title="Pacing", text="Name where the pace broke.")
    factories.ClinicalRuleFactory(title="Retired", text="An old rule.", active=False)
    earlier = factories.AnalysisFactory(session__user=alice)
    factories.HypothesisFactory(
        analysis=earlier,
        statement="Avoids talking about work.",
        status="accepted",
        decided_at=earlier.created_at,
    )
    factories.HypothesisFactory(
        analysis=earlier,
        statement="Dismissed idea.",
        status="dismissed",
        decided_at=earlier.created_at,
    )
    session = session_with_log(user=alice, answers=TIRED_ENDING)
    batch = emit_recording(hypothesis_data(event_ids(session)[-1:], termination_analysis="x"))
    with use_script([batch]) as script, django_capture_on_commit_callbacks(execute=True):
        session_close(session, reason="killed")

    [request] = script.requests
    system = "\n".join(request.system_blocks)
    for event in session.events.exclude(type__startswith="psychologist."):
        assert f"[event {event.pk}] seq {event.seq}" in system
    assert "psychologist.analysis_started" not in system
    assert "I'm tired. Can we stop?" in system  # the message text the event refers to
    assert "Pacing: Name where the pace broke." in system
    assert "An old rule." not in system
    assert "[accepted] client, confidence 60: Avoids talking about work." in system
    assert "Dismissed idea." not in system
    assert "kill signal" in system
    assert request.agent == "psychologist-light"
    assert request.tool_choice == "any"
    assert [t.name for t in request.tools] == ["fetch_event", "search_events", "emit_hypotheses"]
    assert len(request.opaque_user_id) == 24
    assert request.opaque_user_id != str(alice.pk)
    assert "alice" not in system
    assert request.session_id == str(session.pk)


@pytest.mark.django_db(transaction=True)
def test_the_llm_is_never_called_inside_a_database_transaction(alice, monkeypatch):
    in_transaction: list[bool] = []
    real_complete = toolloop.complete

    def watching(*, request):
        in_transaction.append(connection.in_atomic_block)
        return real_complete(request=request)

    monkeypatch.setattr(toolloop, "complete", watching)
    session = session_with_log(user=alice, answers=TIRED_ENDING)

    session_close(session, reason="error")  # commits: the analysis runs after the commit

    assert in_transaction == [False]
    assert Analysis.objects.filter(session=session).count() == 1
