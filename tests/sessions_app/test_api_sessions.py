"""The sessions endpoints: create, read, patch, modality, delete, list; every schema error code
with its HTTP status and body shape."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import timezone

from sessions_app.models import AskMessage, AskSession, SessionEvent
from tests import factories
from tests.routes import object_url

pytestmark = pytest.mark.django_db

LIST = reverse("sessions:session-list")
detail = object_url("sessions:session-detail")
modality = object_url("sessions:session-modality")


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str)
    assert body["detail"]
    assert set(body) <= {"code", "detail", "fields"}
    return body


# --- create ------------------------------------------------------------------------------------


def test_a_client_creates_and_starts_a_session_for_itself(alice, api_as):
    agent = factories.AskAgentFactory(key="emotion_advisor", name="Emotion advisor")
    response = api_as(alice).post(
        LIST,
        {
            "session_type": "cbt_guided",
            "trigger_source": "mood_checkin",
            "active_agent_key": "emotion_advisor",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    session = AskSession.objects.get(pk=body["_id"])
    assert session.user == alice
    assert session.is_active
    assert body["user_id"] == alice.pk
    assert body["session_type"] == "cbt_guided"
    assert body["agent_snapshot"] == agent.snapshot()
    assert "createdAt" in body
    assert "updatedAt" in body
    assert body["endedAt"] is None
    # Creating is starting: the opening (intro, topic card) commits with the row.
    assert list(session.events.values_list("type", flat=True)) == [
        "session.created",
        "session.started",
        "card.dealt",
    ]


def test_a_client_creates_with_its_own_custom_agent_and_the_snapshot_is_frozen(alice, api_as):
    agent = factories.CustomAgentFactory(owner=alice, name="My guide")
    response = api_as(alice).post(LIST, {"custom_agent_id": agent.pk}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["custom_agent_id"] == agent.pk
    assert body["agent_origin"] == "user_custom"
    assert body["active_agent_key"] == "custom_role"
    agent.name = "Renamed later"
    agent.save()
    assert AskSession.objects.get(pk=body["_id"]).agent_snapshot["name"] == "My guide"


@pytest.mark.parametrize(
    "agent_case", ["missing", "someone_elses", "origin_mismatch", "origin_without_agent"]
)
def test_an_agent_the_client_may_not_use_is_e_session_agent_invalid(
    alice, charlie, api_as, agent_case
):
    body = {
        "missing": {"custom_agent_id": 999999},
        "someone_elses": {"custom_agent_id": factories.CustomAgentFactory(owner=charlie).pk},
        "origin_mismatch": {
            "custom_agent_id": factories.AskAgentFactory(origin="org_template").pk,
            "agent_origin": "user_custom",
        },
        "origin_without_agent": {"agent_origin": "user_custom"},
    }[agent_case]
    response = api_as(alice).post(LIST, body, format="json")
    assert_error(response, 400, "E_SESSION_AGENT_INVALID")
    assert not AskSession.objects.exists()


def test_a_client_may_use_an_organisation_template(alice, api_as):
    template = factories.AskAgentFactory(origin="org_template", key="behavior_coach")
    response = api_as(alice).post(LIST, {"custom_agent_id": template.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["agent_origin"] == "org_template"


def test_it_refuses_a_second_active_session_with_409(alice, api_as):
    factories.ActiveSessionFactory(user=alice)
    response = api_as(alice).post(LIST, {}, format="json")
    assert_error(response, 409, "E_SESSION_ACTIVE_EXISTS")
    assert AskSession.objects.filter(user=alice).count() == 1


def test_a_client_cannot_set_p3_or_owner_fields_on_create(alice, api_as):
    response = api_as(alice).post(
        LIST, {"initial_risk_level": "L4", "user_id": 1, "phase": "closing"}, format="json"
    )
    body = assert_error(response, 400, "E_VALIDATION")
    assert body["fields"]["initial_risk_level"] == ["Your role may not write this field."]
    assert body["fields"]["user_id"] == ["Your role may not write this field."]
    assert body["fields"]["phase"] == ["Unknown field."]


def test_a_service_creates_for_a_named_client_with_a_risk_level(alice, service_account, api_as):
    dify_id = uuid.uuid4()
    response = api_as(service_account).post(
        LIST,
        {"user_id": alice.pk, "initial_risk_level": "L2", "dify_conversation_id": str(dify_id)},
        format="json",
    )
    assert response.status_code == 201, response.content
    session = AskSession.objects.get(pk=response.json()["_id"])
    assert (session.user, session.initial_risk_level) == (alice, "L2")
    assert session.dify_conversation_id == dify_id
    assert response.json()["initial_risk_level"] == "L2"  # staff see P3


def test_a_service_must_name_an_existing_client(service_account, bob, api_as):
    for user_id in (None, 987654, bob.pk):
        body = {} if user_id is None else {"user_id": user_id}
        response = api_as(service_account).post(LIST, body, format="json")
        assert_error(response, 400, "E_VALIDATION")


def test_a_taken_dify_conversation_id_is_a_validation_error(
    alice, charlie, service_account, api_as
):
    taken = factories.AskSessionFactory(user=charlie)
    response = api_as(alice).post(
        LIST, {"dify_conversation_id": str(taken.dify_conversation_id)}, format="json"
    )
    body = assert_error(response, 400, "E_VALIDATION")
    assert "dify_conversation_id" in body["fields"]


# --- read ----------------------------------------------------------------------------------------


def test_charlie_gets_nothing_of_alices_sessions(alice, charlie, api_as):
    session = factories.AskSessionFactory(user=alice)
    assert_error(api_as(charlie).get(detail(session)), 404, "E_NOT_FOUND")
    assert api_as(charlie).get(LIST).json()["results"] == []


def test_a_counselor_outside_the_caseload_gets_e_forbidden_for_a_crisis_session(
    alice, dana, api_as
):
    crisis = factories.CrisisSessionFactory(user=alice)
    assert_error(api_as(dana).get(detail(crisis)), 403, "E_FORBIDDEN")


def test_a_crisis_session_handed_off_to_a_counselor_is_open_to_them(alice, dana, api_as):
    crisis = factories.CrisisSessionFactory(
        user=alice, handoff_counselor=dana, handoff_time=timezone.now(), handoff_reason="crisis"
    )
    response = api_as(dana).get(detail(crisis))
    assert response.status_code == 200
    assert response.json()["counselor_handoff"]["counselor_id"] == dana.pk
    assert [s["_id"] for s in api_as(dana).get(LIST).json()["results"]] == [str(crisis.pk)]


# --- patch ---------------------------------------------------------------------------------------


def test_the_owner_renames_and_rates_a_session(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    response = api_as(alice).patch(
        detail(session), {"session_title": "Exam stress", "satisfaction_score": 4}, format="json"
    )
    assert response.status_code == 200, response.content
    session.refresh_from_db()
    assert (session.session_title, session.satisfaction_score) == ("Exam stress", 4)
    event = session.events.get(type="session.updated")
    assert event.payload == {"fields": ["satisfaction_score", "session_title"]}


def test_patch_rejects_unknown_read_only_and_forbidden_fields_field_by_field(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    response = api_as(alice).patch(
        detail(session),
        {
            "session_title": "ok",
            "final_risk_level": "L0",
            "intervention_triggered": False,
            "_id": str(uuid.uuid4()),
            "user": 5,
            "is_deleted": True,
        },
        format="json",
    )
    body = assert_error(response, 400, "E_VALIDATION")
    assert body["fields"] == {
        "final_risk_level": ["Your role may not write this field."],
        "intervention_triggered": ["Your role may not write this field."],
        "_id": ["This field is read-only."],
        "user": ["Unknown field."],
        "is_deleted": ["This field is read-only."],
    }
    session.refresh_from_db()
    assert session.session_title != "ok"


def test_a_counselor_writes_the_final_risk_and_summary_but_not_the_clients_rating(
    alice, bob, api_as
):
    session = factories.AskSessionFactory(user=alice)
    response = api_as(bob).patch(
        detail(session), {"final_risk_level": "L2", "session_summary": "Calmer."}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["final_risk_level"] == "L2"
    response = api_as(bob).patch(detail(session), {"satisfaction_score": 5}, format="json")
    assert_error(response, 400, "E_VALIDATION")


def test_a_service_writes_every_field_including_p3_and_the_handoff(
    alice, bob, service_account, api_as
):
    session = factories.AskSessionFactory(user=alice)
    handoff_time = timezone.now().replace(microsecond=0)
    response = api_as(service_account).patch(
        detail(session),
        {
            "initial_risk_level": "L3",
            "intervention_triggered": True,
            "counselor_handoff": {
                "handoff_reason": "crisis_risk",
                "counselor_id": bob.pk,
                "handoff_time": handoff_time.isoformat(),
            },
            "conversation_variables": {"mood": "anxious"},
            "agent_snapshot": {"name": "X", "version": "2"},
            "key_insights": ["perfectionism"],
            "endedAt": handoff_time.isoformat(),
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    session.refresh_from_db()
    assert session.handoff_counselor == bob
    assert session.handoff_time == handoff_time
    assert session.intervention_triggered
    assert session.initial_risk_level == "L3"
    assert session.ended_at == handoff_time
    assert session.conversation_variables == {"mood": "anxious"}


def test_a_handoff_must_name_a_counselor(alice, charlie, service_account, api_as):
    session = factories.AskSessionFactory(user=alice)
    response = api_as(service_account).patch(
        detail(session),
        {"counselor_handoff": {"counselor_id": charlie.pk, "handoff_time": "2026-01-01T00:00:00Z"}},
        format="json",
    )
    assert_error(response, 400, "E_VALIDATION")


def test_a_handoff_reason_of_zero_width_spaces_is_no_reason(alice, bob, service_account, api_as):
    session = factories.AskSessionFactory(user=alice)
    handoff = {"counselor_id": bob.pk, "handoff_time": "2026-01-01T00:00:00Z"}
    body = {"counselor_handoff": {**handoff, "handoff_reason": "\u200b\u200b"}}
    response = api_as(service_account).patch(detail(session), body, format="json")
    assert_error(response, 400, "E_VALIDATION")
    assert "counselor_handoff.handoff_reason" in response.json()["fields"]
    body = {"counselor_handoff": {**handoff, "handoff_reason": ""}}  # none given: still fine
    assert api_as(service_account).patch(detail(session), body, format="json").status_code == 200


def test_a_message_count_over_100_is_e_session_too_long(alice, service_account, api_as):
    session = factories.AskSessionFactory(user=alice, message_count=99)
    ok = api_as(service_account).patch(detail(session), {"message_count": 100}, format="json")
    assert ok.status_code == 200, ok.content
    response = api_as(service_account).patch(detail(session), {"message_count": 101}, format="json")
    assert_error(response, 409, "E_SESSION_TOO_LONG")
    session.refresh_from_db()
    assert session.message_count == 100


def test_switching_to_someone_elses_agent_is_e_session_agent_invalid(alice, charlie, api_as):
    session = factories.AskSessionFactory(user=alice)
    theirs = factories.CustomAgentFactory(owner=charlie)
    response = api_as(alice).patch(detail(session), {"custom_agent_id": theirs.pk}, format="json")
    assert_error(response, 400, "E_SESSION_AGENT_INVALID")
    mine = factories.CustomAgentFactory(owner=alice, name="Mine")
    response = api_as(alice).patch(detail(session), {"custom_agent_id": mine.pk}, format="json")
    assert response.status_code == 200
    assert response.json()["agent_snapshot"]["name"] == "Mine"


def test_an_empty_patch_is_a_validation_error(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    assert_error(api_as(alice).patch(detail(session), {}, format="json"), 400, "E_VALIDATION")


# --- modality ------------------------------------------------------------------------------------


def test_audio_counts_need_voice_enabled_or_the_audio_flag(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    response = api_as(alice).patch(modality(session), {"audio_message_count": 2}, format="json")
    assert_error(response, 409, "E_SESSION_VOICE_DISABLED")
    response = api_as(alice).patch(
        modality(session),
        {"audio_message_count": 2, "modality_flags": {"audio": True}},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["audio_message_count"] == 2
    assert response.json()["modality_flags"] == {"text": True, "audio": True, "file": False}


def test_audio_counts_are_accepted_when_tts_is_enabled(alice, api_as):
    session = factories.AskSessionFactory(user=alice, voice_config={"enable_tts": True})
    response = api_as(alice).patch(modality(session), {"audio_message_count": 3}, format="json")
    assert response.status_code == 200, response.content


def test_an_attachment_count_unlike_the_stored_attachments_is_e_session_file_mismatch(
    alice, api_as, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    session = factories.AskSessionFactory(user=alice)
    message = factories.AskMessageFactory(session=session, modality=AskMessage.Modality.FILE)
    message.attachment.save("scan.txt", ContentFile(b"x"), save=True)
    factories.AskMessageFactory(session=session)
    response = api_as(alice).patch(modality(session), {"attachment_count": 2}, format="json")
    assert_error(response, 409, "E_SESSION_FILE_MISMATCH")
    response = api_as(alice).patch(modality(session), {"attachment_count": 1}, format="json")
    assert response.status_code == 200, response.content


def test_the_modality_endpoint_takes_only_its_own_fields(alice, api_as):
    session = factories.AskSessionFactory(user=alice)
    response = api_as(alice).patch(modality(session), {"message_count": 5}, format="json")
    body = assert_error(response, 400, "E_VALIDATION")
    assert body["fields"] == {"message_count": ["Unknown field."]}


# --- delete --------------------------------------------------------------------------------------


def test_delete_is_soft_hides_the_session_and_scrubs_its_content(
    alice, olga, api_as, django_capture_on_commit_callbacks
):
    session = factories.ActiveSessionFactory(
        user=alice, session_summary="SECRET-SUMMARY", key_insights=["SECRET-INSIGHT"]
    )
    message = factories.AskMessageFactory(session=session, text="SECRET-TEXT")
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as(alice).delete(detail(session))
    assert response.status_code == 204
    session.refresh_from_db()
    message.refresh_from_db()
    assert session.is_deleted
    assert session.deleted_at is not None
    assert session.status == AskSession.Status.COMPLETED_PARTIAL  # frees the active slot
    assert (message.text, session.session_summary, session.key_insights) == ("", "", [])
    types = list(session.events.values_list("type", flat=True))
    assert types == ["session.deleted", "session.anonymised"]
    assert_error(api_as(alice).get(detail(session)), 404, "E_NOT_FOUND")
    assert api_as(alice).get(LIST).json()["results"] == []
    assert api_as(alice).post(LIST, {}, format="json").status_code == 201
    # ops still see it, on request
    assert api_as(olga).get(detail(session)).status_code == 200
    listed = api_as(olga).get(LIST, {"include_deleted": "1"}).json()["results"]
    assert str(session.pk) in [s["_id"] for s in listed]
    assert str(session.pk) not in [s["_id"] for s in api_as(olga).get(LIST).json()["results"]]


def test_delete_enqueues_the_anonymisation_task_in_the_same_transaction(alice, api_as, monkeypatch):
    from django_q.conf import Conf
    from django_q.models import OrmQ

    monkeypatch.setattr(Conf, "SYNC", False)  # queue it as production does, don't run it
    session = factories.AskSessionFactory(user=alice)
    factories.AskMessageFactory(session=session, text="still here until the worker runs")
    assert api_as(alice).delete(detail(session)).status_code == 204
    queued = [task.task for task in OrmQ.objects.all()]
    assert [(t["func"], t["args"]) for t in queued] == [
        ("sessions_app.tasks.session_anonymise", (str(session.pk),))
    ]


def test_anonymisation_keeps_every_event_in_order_and_runs_twice_safely(alice):
    from sessions_app import services

    session = factories.AskSessionFactory(user=alice, session_title="Private title")
    factories.AskMessageFactory(session=session, text="hello")
    factories.SessionEventFactory(session=session, type="session.created")
    services.session_anonymise(session_id=session.pk)
    services.session_anonymise(session_id=session.pk)
    session.refresh_from_db()
    assert session.session_title == ""
    assert list(SessionEvent.objects.filter(session=session).values_list("type", flat=True)) == [
        "session.created",
        "session.anonymised",
    ]


# --- list ----------------------------------------------------------------------------------------


def make_history(user, count: int) -> list[AskSession]:
    now = timezone.now()
    return [
        factories.AskSessionFactory(user=user, created_at=now - timedelta(minutes=i))
        for i in range(count)
    ]


def test_the_list_is_newest_first_in_pages_of_20_stable_under_inserts(alice, api_as):
    sessions = make_history(alice, 25)
    client = api_as(alice)
    first = client.get(LIST).json()
    assert [s["_id"] for s in first["results"]] == [str(s.pk) for s in sessions[:20]]
    factories.AskSessionFactory(user=alice)  # a new session arrives between pages
    second = client.get(first["next"]).json()
    assert [s["_id"] for s in second["results"]] == [str(s.pk) for s in sessions[20:]]
    assert second["next"] is None


def test_the_list_filters_by_type_trigger_and_date_range(alice, api_as):
    now = timezone.now()
    old = factories.AskSessionFactory(user=alice, created_at=now - timedelta(days=10))
    cbt = factories.AskSessionFactory(
        user=alice, session_type="cbt_guided", trigger_source="mood_checkin"
    )
    client = api_as(alice)

    def ids(**params):
        return [s["_id"] for s in client.get(LIST, params).json()["results"]]

    assert ids(session_type="cbt_guided") == [str(cbt.pk)]
    assert ids(trigger_source="mood_checkin") == [str(cbt.pk)]
    assert ids(created_before=(now - timedelta(days=1)).isoformat()) == [str(old.pk)]
    assert ids(created_after=(now - timedelta(days=1)).isoformat()) == [str(cbt.pk)]


def test_risk_filters_are_for_staff_and_a_client_using_one_gets_e_validation(alice, bob, api_as):
    risky = factories.AskSessionFactory(user=alice, initial_risk_level="L3", final_risk_level="L2")
    factories.AskSessionFactory(user=alice)
    body = assert_error(api_as(alice).get(LIST, {"initial_risk_level": "L3"}), 400, "E_VALIDATION")
    assert "initial_risk_level" in body["fields"]
    assert_error(api_as(alice).get(LIST, {"final_risk_level": "L2"}), 400, "E_VALIDATION")
    staff = api_as(bob).get(LIST, {"initial_risk_level": "L3"}).json()["results"]
    assert [s["_id"] for s in staff] == [str(risky.pk)]
    staff = api_as(bob).get(LIST, {"final_risk_level": "L2"}).json()["results"]
    assert [s["_id"] for s in staff] == [str(risky.pk)]


def test_the_list_takes_the_short_names_type_trigger_and_risk(alice, bob, api_as):
    cbt = factories.AskSessionFactory(
        user=alice, session_type="cbt_guided", trigger_source="mood_checkin"
    )
    raised = factories.AskSessionFactory(user=alice, initial_risk_level="L1", final_risk_level="L3")
    started = factories.AskSessionFactory(user=alice, initial_risk_level="L3")
    factories.AskSessionFactory(user=alice, initial_risk_level="L1", final_risk_level="L2")

    def ids(user, **params):
        response = api_as(user).get(LIST, params)
        assert response.status_code == 200, response.content
        return {s["_id"] for s in response.json()["results"]}

    assert ids(alice, type="cbt_guided") == {str(cbt.pk)}
    assert ids(alice, trigger="mood_checkin") == {str(cbt.pk)}
    # Initial or final: a session that became L3 and one that started there.
    assert ids(bob, risk="L3") == {str(raised.pk), str(started.pk)}
    body = assert_error(api_as(alice).get(LIST, {"risk": "L3"}), 400, "E_VALIDATION")
    assert "risk" in body["fields"]
    # A short name and its full one saying different things: refused, not one of them dropped.
    both = {"type": "cbt_guided", "session_type": "crisis_intervention"}
    body = assert_error(api_as(alice).get(LIST, both), 400, "E_VALIDATION")
    assert "type" in body["fields"]


@pytest.mark.parametrize(
    "url", [LIST, "/api/notifications", "/api/ask/tasks", "/api/psychologist/hypotheses"]
)
def test_an_unknown_query_parameter_is_refused_by_name_never_ignored(bob, api_as, url):
    for typo in ("risk_level", "sesion_type", "page"):
        body = assert_error(api_as(bob).get(url, {typo: "L3"}), 400, "E_VALIDATION")
        assert list(body["fields"]) == [typo]
    assert api_as(bob).get(url, {"format": "json"}).status_code == 200


def test_the_unknown_parameter_is_named_in_the_callers_language(bob, api_as):
    response = api_as(bob).get(LIST, {"risk_level": "L3"}, HTTP_ACCEPT_LANGUAGE="ru")
    body = assert_error(response, 400, "E_VALIDATION")
    assert body["fields"]["risk_level"] == ["Неизвестный параметр запроса."]


def test_only_ops_may_include_deleted_sessions(alice, bob, api_as):
    for user in (alice, bob):
        response = api_as(user).get(LIST, {"include_deleted": "1"})
        assert_error(response, 400, "E_VALIDATION")


def test_a_counselor_lists_the_caseload_and_handoffs_only(alice, bob, charlie, api_as):
    mine = factories.AskSessionFactory(user=alice)
    factories.AskSessionFactory(user=charlie)
    handed = factories.AskSessionFactory(
        user=charlie, handoff_counselor=bob, handoff_time=timezone.now()
    )
    listed = {s["_id"] for s in api_as(bob).get(LIST).json()["results"]}
    assert listed == {str(mine.pk), str(handed.pk)}


def test_a_bad_cursor_is_a_validation_error(alice, api_as):
    for cursor in ("not-base64!", "cD1ub3QtYS1kYXRl", "cD0yMDI2LTEzLTQwIDAwOjAwOjAw"):
        response = api_as(alice).get(LIST, {"cursor": cursor})
        assert_error(response, 400, "E_VALIDATION")


def test_a_page_of_the_list_costs_at_most_3_queries_with_token_auth(
    alice, bob, olga, client, django_assert_max_num_queries
):
    from knox.models import AuthToken

    make_history(alice, 30)
    for user in (alice, bob, olga):
        _, token = AuthToken.objects.create(user)
        with django_assert_max_num_queries(3):
            response = client.get(LIST, HTTP_AUTHORIZATION=f"Token {token}")
        assert response.status_code == 200
        assert len(response.json()["results"]) == 20
        with django_assert_max_num_queries(3):
            response = client.get(response.json()["next"], HTTP_AUTHORIZATION=f"Token {token}")
        assert len(response.json()["results"]) == 10


# --- by dify id ----------------------------------------------------------------------------------


def test_a_service_finds_a_session_by_its_dify_conversation_id(alice, service_account, api_as):
    session = factories.AskSessionFactory(user=alice)
    url = reverse(
        "sessions:session-by-dify", kwargs={"dify_conversation_id": session.dify_conversation_id}
    )
    assert api_as(service_account).get(url).json()["_id"] == str(session.pk)
    unknown = reverse("sessions:session-by-dify", kwargs={"dify_conversation_id": uuid.uuid4()})
    assert_error(api_as(service_account).get(unknown), 404, "E_DIFY_SESSION_NOT_FOUND")


def test_someone_elses_agent_answers_as_one_that_does_not_exist(alice, charlie, api_as):
    # Otherwise a client walks the ids and learns which are other clients' agents.
    theirs = factories.CustomAgentFactory(owner=charlie).pk
    missing = theirs + 1000
    session = factories.ActiveSessionFactory(user=alice)
    client = api_as(alice)
    for send in (
        lambda agent: client.post(LIST, {"custom_agent_id": agent}, format="json"),
        lambda agent: client.patch(detail(session), {"custom_agent_id": agent}, format="json"),
    ):
        answers = [send(agent) for agent in (theirs, missing)]
        assert [a.status_code for a in answers] == [400, 400]
        assert answers[0].json() == answers[1].json()
