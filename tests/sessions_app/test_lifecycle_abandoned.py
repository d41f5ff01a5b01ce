"""The abandoned-session job (SPEC §7, seed session-design §5), with a frozen clock."""

from __future__ import annotations

import json
import re
import zoneinfo
from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine
from django.core.management import call_command

from psychologist.llm.identity import opaque_user_id
from psychologist.models import AnalysisRequest, LLMCall
from sessions_app.jobs import lifecycle
from sessions_app.models import AskSession, Notification, SessionEvent, UserProfile
from tests import factories
from tests import fake_anthropic as fake
from tests.psychologist.conftest import (
    ANTHROPIC_MODEL,
    fake_anthropic,  # noqa: F401  (the fixture, reused)
)
from tests.races import race
from tests.sessions_app.lifecycle_support import frozen_clock, idle_session
from tests.settings import LLM_BINDINGS as OFFLINE_BINDINGS

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)
PAIRS = [
    ("What happened at work this week?", "My manager criticised my report in front of everyone"),
    ("How did you feel afterwards?", "Ashamed, and I kept replaying it all evening"),
    ("What would you tell a friend in that spot?", "That one report does not define them"),
]


clock = frozen_clock(NOW)


@pytest.fixture
def summarizer_down(fake_anthropic, settings):  # noqa: F811  (the fixture, reused)
    """The summarizer is bound to a model behind the real SDK — the fake Messages API, which is
    overloaded: each of a call's tries (1 + ANTHROPIC_MAX_RETRIES) answers 529. Every other agent
    stays offline, as in the rest of this file."""
    settings.LLM_BINDINGS = {
        **OFFLINE_BINDINGS,
        "summarizer": {"provider": "anthropic", "model": ANTHROPIC_MODEL},
    }
    fake_anthropic.queue(*[fake.fault(529, retry_after_ms=5) for _ in range(3)])
    return fake_anthropic


def closed_abnormally(session: AskSession) -> list[SessionEvent]:
    return list(session.events.filter(type="session.closed_abnormally"))


def test_a_session_idle_19h59m_is_untouched_and_one_idle_20h01m_is_closed_as_completed_partial(
    clock, alice, charlie
):
    fresh = idle_session(alice, last_activity_at=NOW - timedelta(hours=19, minutes=59), pairs=PAIRS)
    stale = idle_session(
        charlie, last_activity_at=NOW - timedelta(hours=20, minutes=1), pairs=PAIRS
    )

    report = lifecycle.sessions_abandoned_close()

    assert report.counts["closed"] == 1
    fresh.refresh_from_db()
    assert (fresh.status, fresh.session_summary, fresh.ended_at) == ("active", "", None)
    assert closed_abnormally(fresh) == []
    stale.refresh_from_db()
    assert stale.status == AskSession.Status.COMPLETED_PARTIAL
    assert stale.termination_reason == AskSession.TerminationReason.ABANDONED_TIMEOUT
    assert stale.ended_at == NOW
    # A partial summary of what was answered, in the client's words where they fit.
    assert stale.session_summary.startswith("Unfinished session.")
    assert "3 answers" in stale.session_summary
    assert "one report does not define them" in stale.session_summary
    assert stale.key_insights
    assert stale.cbt_techniques_used
    [event] = closed_abnormally(stale)
    assert event.payload["reason"] == "abandoned_timeout"
    assert event.payload["answered"] == 3
    assert event.payload["summary_source"] == "llm"
    assert AnalysisRequest.objects.filter(session=stale, triggered_by="auto").count() == 1
    assert AnalysisRequest.objects.filter(session=fresh).count() == 0


def test_the_analysis_is_queued_in_the_transaction_that_closes_the_session(
    clock, alice, monkeypatch
):
    from django_q.conf import Conf
    from django_q.models import OrmQ

    monkeypatch.setattr(Conf, "SYNC", False)  # queue it as production does, don't run it
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=21), pairs=PAIRS)
    lifecycle.sessions_abandoned_close()
    request = AnalysisRequest.objects.get(session=session)
    queued = [(task.task["func"], task.task["args"]) for task in OrmQ.objects.all()]
    assert queued == [("psychologist.tasks.analysis_run", (request.pk,))]


def test_running_the_job_twice_closes_the_session_once(clock, alice):
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=30), pairs=PAIRS)

    first = lifecycle.sessions_abandoned_close()
    clock.shift(timedelta(minutes=15))
    second = lifecycle.sessions_abandoned_close()

    assert (first.counts["closed"], second.counts["closed"]) == (1, 0)
    assert len(closed_abnormally(session)) == 1
    assert AnalysisRequest.objects.filter(session=session).count() == 1
    assert Notification.objects.filter(user=alice, kind="resume_session").count() == 1
    assert UserProfile.objects.get(user=alice).session_count == 1
    session.refresh_from_db()
    assert session.ended_at == NOW


def test_closing_one_session_twice_by_hand_is_refused_the_second_time(clock, alice):
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=30), pairs=PAIRS)
    assert lifecycle.session_abandon(session_id=session.pk, now=NOW) is not None
    assert lifecycle.session_abandon(session_id=session.pk, now=NOW) is None
    assert len(closed_abnormally(session)) == 1


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Tokyo", "Europe/Berlin"])
def test_the_reminder_lands_the_next_day_within_30_minutes_of_the_clients_usual_time(zone):
    tz = zoneinfo.ZoneInfo(zone)
    client = factories.ClientFactory()
    factories.UserProfileFactory(user=client, time_zone=zone)
    # Earlier sessions ended at 19:10, 19:40 and 18:50 local time; this one at 19:20: 19:15.
    for days_ago, at in ((9, time(19, 10)), (6, time(19, 40)), (3, time(18, 50))):
        moment = datetime.combine(datetime(2026, 3, 9).date(), at, tz) - timedelta(days=days_ago)
        factories.AskSessionFactory(user=client, created_at=moment, last_activity_at=moment)
    left_at = datetime(2026, 3, 9, 19, 20, tzinfo=tz)
    session = idle_session(client, last_activity_at=left_at, pairs=PAIRS[:1])
    now = left_at + timedelta(hours=20, minutes=1)

    with time_machine.travel(now, tick=False):
        lifecycle.sessions_abandoned_close()

    reminder = Notification.objects.get(user=client, kind="resume_session")
    assert reminder.session == session
    assert reminder.payload["title"] == "We didn't finish last time. Shall we come back?"
    assert reminder.sent_at is None
    local = reminder.scheduled_for.astimezone(tz)
    assert local.date() == now.astimezone(tz).date() + timedelta(days=1)
    usual = datetime.combine(local.date(), time(19, 15), tz)
    assert abs(local - usual) <= timedelta(minutes=30)
    profile = UserProfile.objects.get(user=client)
    assert profile.typical_activity_time == time(19, 15)
    assert profile.session_count == 1


def test_a_russian_speaking_client_is_asked_back_in_russian(clock, alice):
    idle_session(alice, last_activity_at=NOW - timedelta(hours=25), locale="ru")
    lifecycle.sessions_abandoned_close()
    reminder = Notification.objects.get(user=alice, kind="resume_session")
    assert reminder.payload["title"] == "Мы не успели закончить в прошлый раз. Вернёмся?"


def test_the_usual_time_is_a_circular_mean_so_late_nights_and_early_mornings_meet_at_midnight():
    utc = zoneinfo.ZoneInfo("UTC")
    moments = [datetime(2026, 3, d, h, m, tzinfo=UTC) for d, h, m in ((1, 23, 50), (2, 0, 10))]
    assert lifecycle.typical_local_time(moments, utc) == time(0, 0)
    evening = [datetime(2026, 3, d, 18, 0, tzinfo=UTC) for d in (1, 2)]
    assert lifecycle.typical_local_time(evening, zoneinfo.ZoneInfo("Asia/Tokyo")) == time(3, 0)
    assert lifecycle.typical_local_time([], utc) is None


def test_when_the_summarizer_fails_an_extractive_summary_keeps_the_first_and_last_answers(
    clock, alice, summarizer_down
):
    pairs = [(f"Question {n}?", f"answer number {n} " + "words " * 30) for n in range(1, 13)]
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=21), pairs=pairs)

    lifecycle.sessions_abandoned_close()

    session.refresh_from_db()
    assert session.status == AskSession.Status.COMPLETED_PARTIAL
    assert len(session.session_summary) <= 1000
    assert session.session_summary.startswith("Unfinished session. 12 answered.")
    assert "answer number 1 " in session.session_summary
    assert "answer number 12 " in session.session_summary
    assert closed_abnormally(session)[0].payload["summary_source"] == "extractive"
    assert len(summarizer_down.requests) == 3  # the SDK's bounded tries, then the extract


def test_the_summarizer_gets_the_answered_pairs_and_an_opaque_user_id(
    clock, alice, summarizer_down
):
    idle_session(alice, last_activity_at=NOW - timedelta(hours=21), pairs=PAIRS)
    lifecycle.sessions_abandoned_close()
    body = summarizer_down.requests[0]  # what reached the model (then its retries)
    assert body["tool_choice"]["name"] == "summary_output"
    asked = body["messages"][-1]["content"][-1]["text"]
    # One summarizer for the closing and the abandoned session: the client's words come as data.
    assert "1. What happened at work this week? → <client_words>My manager" in asked
    assert f"3. {PAIRS[2][0]} → <client_words>{PAIRS[2][1]}" in asked
    assert "alice" not in json.dumps(body)
    user_id = body["metadata"]["user_id"]
    assert re.fullmatch(r"[0-9a-f]{24}", user_id)
    assert user_id == opaque_user_id(alice.pk) != opaque_user_id(alice.pk + 1)


def test_the_summary_is_metered_as_a_summarizer_call_of_the_session(clock, alice):
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=21), pairs=PAIRS)
    lifecycle.sessions_abandoned_close()
    assert LLMCall.objects.filter(session=session, agent="summarizer", ok=True).count() == 1


def test_a_session_with_nothing_answered_closes_without_asking_a_model(clock, alice):
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=21))
    lifecycle.sessions_abandoned_close()
    session.refresh_from_db()
    assert session.status == AskSession.Status.COMPLETED_PARTIAL
    assert session.session_summary == "Unfinished session. 0 answered."
    assert LLMCall.objects.count() == 0


def test_a_summary_the_closing_stage_already_wrote_is_kept(clock, alice):
    session = idle_session(
        alice,
        last_activity_at=NOW - timedelta(hours=21),
        pairs=PAIRS,
        phase="closing",
        session_summary="The whole-session summary from the closing stage.",
    )
    lifecycle.sessions_abandoned_close()
    session.refresh_from_db()
    assert session.session_summary == "The whole-session summary from the closing stage."
    assert LLMCall.objects.count() == 0


def test_a_client_who_comes_back_while_the_summary_is_written_keeps_the_session_open(
    clock, alice, monkeypatch
):
    session = idle_session(alice, last_activity_at=NOW - timedelta(hours=21), pairs=PAIRS)
    compose = lifecycle.partial_summary_compose

    def client_returns(target):
        AskSession.objects.filter(pk=target.pk).update(last_activity_at=NOW)
        return compose(target)

    monkeypatch.setattr(lifecycle, "partial_summary_compose", client_returns)
    report = lifecycle.sessions_abandoned_close()
    assert report.counts == {"closed": 0, "reminders": 0, "skipped": 1, "failed": 0}
    session.refresh_from_db()
    assert session.status == AskSession.Status.ACTIVE
    assert closed_abnormally(session) == []


def test_one_failing_session_does_not_stop_the_others_and_its_log_line_quotes_no_words(
    clock, alice, charlie, monkeypatch, caplog
):
    bad = idle_session(alice, last_activity_at=NOW - timedelta(hours=22), pairs=PAIRS)
    good = idle_session(charlie, last_activity_at=NOW - timedelta(hours=21), pairs=PAIRS)
    compose = lifecycle.partial_summary_compose

    def fails_for_bad(target):
        if target.pk == bad.pk:  # database errors can quote the refused row: the client's words
            raise RuntimeError(f"Failing row contains ({PAIRS[0][1]})")
        return compose(target)

    monkeypatch.setattr(lifecycle, "partial_summary_compose", fails_for_bad)
    report = lifecycle.sessions_abandoned_close()
    assert (report.counts["closed"], report.counts["failed"]) == (1, 1)
    good.refresh_from_db()
    assert good.status == AskSession.Status.COMPLETED_PARTIAL
    assert f"abandon failed session={bad.pk} error=RuntimeError" in caplog.text
    assert PAIRS[0][1] not in caplog.text


def test_the_command_runs_the_job_once_and_prints_a_summary_line(clock, alice, capsys):
    idle_session(alice, last_activity_at=NOW - timedelta(hours=21), pairs=PAIRS)
    call_command("run_job", "abandoned")
    assert capsys.readouterr().out.strip() == (
        "abandoned: closed 1 abandoned sessions, 1 reminders scheduled (0 skipped, 0 failed)"
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_runs_close_each_abandoned_session_once():
    with time_machine.travel(NOW, tick=False):
        sessions = [
            idle_session(factories.ClientFactory(), last_activity_at=NOW - timedelta(hours=h))
            for h in range(21, 27)
        ]
        reports, errors = race([lifecycle.sessions_abandoned_close] * 2)

    assert errors == []
    assert sum(report.counts["closed"] for report in reports) == len(sessions)
    for session in sessions:
        assert len(closed_abnormally(session)) == 1
        assert AnalysisRequest.objects.filter(session=session).count() == 1
    assert Notification.objects.filter(kind="resume_session").count() == len(sessions)


def test_a_session_a_counselor_was_speaking_in_closes_with_nobody_speaking(clock, alice, bob):
    idle = NOW - timedelta(hours=21)
    session = idle_session(
        alice,
        last_activity_at=idle,
        handoff_counselor=bob,
        handoff_time=idle,
        handoff_reason="crisis",
        counselor_speaking_since=idle,
    )
    lifecycle.sessions_abandoned_close()
    session.refresh_from_db()
    assert session.status == AskSession.Status.COMPLETED_PARTIAL
    assert session.counselor_speaking_since is None


def _with_topic(user, topic: str, pairs, **fields) -> AskSession:
    """An idle session whose client chose a topic on the topic card, then answered `pairs`."""
    from sessions_app.engine.graph import tree as graph
    from sessions_app.models import AskMessage

    session = factories.ActiveSessionFactory(
        user=user,
        created_at=NOW - timedelta(hours=21),
        last_activity_at=NOW - timedelta(hours=21),
        **fields,
    )
    card = AskMessage.Kind.QUESTION_CARD
    graph.message_append(session=session, role="narrator", kind=card, text="What shall we explore?")
    graph.message_append(session=session, role="client", kind="topic", text=topic)
    for question, answer in pairs:
        graph.message_append(session=session, role="narrator", kind=card, text=question)
        graph.message_append(session=session, role="client", kind="answer", text=answer)
    session.refresh_from_db()
    return session


TOPIC = "Loneliness after moving to Leipzig"


def test_a_partial_summary_holds_the_topic_and_every_answer_given(clock, alice):
    # The offline engine summarises (no API key in the tests): the real default path.
    session = _with_topic(alice, TOPIC, PAIRS)

    lifecycle.sessions_abandoned_close()

    session.refresh_from_db()
    summary = session.session_summary
    assert session.status == AskSession.Status.COMPLETED_PARTIAL
    assert TOPIC in summary
    for _, answer in PAIRS:
        assert answer in summary
    assert "0 answer" not in summary
    assert closed_abnormally(session)[0].payload["answered"] == 3


def test_when_the_summarizer_fails_the_extract_holds_the_topic_and_every_answer(
    clock, alice, summarizer_down
):
    session = _with_topic(alice, TOPIC, PAIRS)

    lifecycle.sessions_abandoned_close()

    session.refresh_from_db()
    summary = session.session_summary
    assert summary.startswith(f"Unfinished session. Topic: {TOPIC}. 3 answered.")
    for question, answer in PAIRS:
        assert f"{question} → {answer}" in summary
    assert closed_abnormally(session)[0].payload["summary_source"] == "extractive"


def test_a_session_with_only_a_topic_never_says_0_answered(clock, alice):
    session = _with_topic(alice, TOPIC, [])

    lifecycle.sessions_abandoned_close()

    session.refresh_from_db()
    assert session.session_summary == f"Unfinished session. Topic: {TOPIC}."
    assert "0 answered" not in session.session_summary
    assert LLMCall.objects.count() == 0


def test_words_written_without_a_card_count_as_answers_in_the_partial_summary(clock, alice):
    from sessions_app.engine.graph import tree as graph

    session = _with_topic(alice, TOPIC, PAIRS[:1])
    graph.message_append(session=session, role="client", kind="text", text="Also my sleep is bad")

    lifecycle.sessions_abandoned_close()

    session.refresh_from_db()
    assert "Also my sleep is bad" in session.session_summary
    assert PAIRS[0][1] in session.session_summary
    assert closed_abnormally(session)[0].payload["answered"] == 2


def test_a_russian_partial_summary_names_the_topic_in_russian(clock, alice, summarizer_down):
    session = _with_topic(alice, "Одиночество после переезда", PAIRS[:1], locale="ru")

    lifecycle.sessions_abandoned_close()

    session.refresh_from_db()
    assert session.session_summary.startswith(
        "Сессия не завершена. Тема: Одиночество после переезда."
    )
