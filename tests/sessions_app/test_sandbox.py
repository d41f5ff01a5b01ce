"""The sandbox (SPEC §8): starting a test session, playing it through the engine services, who
may play it, CSRF on its HTMX posts, and the error fragment."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from psychologist.llm.scripted import ScriptedProvider
from psychologist.llm.types import LLMError, LLMRequest
from psychologist.models import LLMCall
from sessions_app import sandbox
from sessions_app.engine.selectors import session_state, thread_state
from sessions_app.models import AskSession, Notification, SandboxSession, UserProfile
from sessions_app.roles import Role, role_of
from tests import factories

HTMX = {"HTTP_HX_REQUEST": "true"}
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(client: Client, **fields) -> AskSession:
    data = {"agent": "cbt_specialist", "flow": "reflection_session", "locale": "en"}
    data |= {"provider": "offline", **fields}
    response = client.post(reverse("pages:sandbox-start"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return AskSession.objects.get(pk=response.url.rstrip("/").split("/")[-1])


def url(name: str, session: AskSession) -> str:
    return reverse(f"pages:sandbox-{name}", kwargs={"session_id": session.pk})


def current_card(session: AskSession) -> dict:
    return session_state(session)["current_card"]


@pytest.fixture
def dana_sandbox(dana) -> AskSession:
    return start(signed_in(dana))


# --- starting ----------------------------------------------------------------------------------


def test_the_sandbox_page_offers_the_offline_engine_but_not_an_unconfigured_anthropic(dana):
    response = signed_in(dana).get(reverse("pages:sandbox"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="offline"' in html
    assert 'value="scripted"' in html
    assert 'value="anthropic"' not in html
    assert 'value="reflection_session"' in html


def test_starting_a_test_session_plays_a_test_client_of_the_counselor(dana):
    session = start(signed_in(dana), cbt_focus="problem_solving", locale="ru", is_minor="on")
    client = session.user
    assert role_of(client) is Role.CLIENT
    assert not client.has_usable_password()
    profile = UserProfile.objects.get(user=client)
    assert profile.sandbox_counselor == dana
    assert profile.is_minor
    assert profile.locale == "ru"
    assert session.sandbox.counselor == dana
    assert session.cbt_focus == "problem_solving"
    assert thread_state(session)["pending_guard"]["code"] == "require_guardian_consent"


def test_a_new_test_session_closes_the_unfinished_one(dana):
    client = signed_in(dana)
    first = start(client)
    second = start(client)
    first.refresh_from_db()
    assert first.status == AskSession.Status.CLOSED_ABNORMALLY
    assert second.is_active
    assert second.user == first.user
    assert first.events.filter(type="session.closed_abnormally").exists()


def test_a_bad_script_is_a_form_error_not_a_session(dana):
    response = signed_in(dana).post(
        reverse("pages:sandbox-start"),
        {"agent": "cbt_specialist", "flow": "reflection_session", "locale": "en"}
        | {"provider": "scripted", "script": "{not json"},
    )
    assert response.status_code == 400
    assert "not JSON" in response.content.decode()
    assert not SandboxSession.objects.exists()


MALFORMED_SCRIPTS = {
    "numbers": "[1, 2, 3]",
    "string": '"a recording"',
    "null": "null",
    "empty-object": "{}",
    "non-object-turn": '{"turns": [1, {"model": []}]}',
    "turn-model-not-a-list": '{"turns": [{"model": 5}]}',
    "5000-nested-brackets": "[" * 5000 + "]" * 5000,
    "100-nested-objects-in-an-output": (
        '[{"agent": "analyst", "output": ' + '{"a": ' * 100 + "1" + "}" * 100 + "}]"
    ),
    "tool-call-not-an-object": '[{"tool_calls": [1]}]',
    "tool-call-without-input": '[{"tool_calls": [{"name": "analyst_output"}]}]',
    "tool-input-not-an-object": '[{"tool_calls": [{"name": "x", "input": [1]}]}]',
    "usage-not-a-number": '[{"usage": {"input_tokens": "many"}}]',
    "usage-unknown-key": '[{"usage": {"bogus": 1}}]',
    "text-not-a-string": '[{"text": 5}]',
    "negative-cost": '[{"cost_micro_usd": -1}]',
    "unknown-key": '[{"answer": "hi"}]',
    "output-not-an-object": '[{"agent": "analyst", "output": [1]}]',
    "agent-a-list": '[{"agent": ["analyst"], "output": {}}]',
    "agent-unknown": '[{"agent": "oracle", "output": {}}]',
    "scenario-of-numbers": '{"turns": [{"model": [1, 2]}]}',
}


@pytest.mark.parametrize("script", MALFORMED_SCRIPTS.values(), ids=MALFORMED_SCRIPTS.keys())
@pytest.mark.parametrize("how", ["pasted", "uploaded"])
def test_every_malformed_recording_is_a_form_error_on_the_script_field(dana, script, how):
    data = {"agent": "cbt_specialist", "flow": "reflection_session", "locale": "en"}
    data |= {"provider": "scripted"}
    if how == "pasted":
        data["script"] = script
    else:
        data["script_file"] = SimpleUploadedFile("script.json", script.encode())
    response = signed_in(dana).post(reverse("pages:sandbox-start"), data)
    assert response.status_code == 400
    assert response.context["form"].errors["script"], response.context["form"].errors
    assert 'class="field-error"' in response.content.decode()
    assert not SandboxSession.objects.exists()


UNSTORABLE_SCRIPTS = {
    "nul-in-a-text": '[{"text": "canary-sbx \\u0000 here"}]',
    "lone-surrogate-in-a-text": '[{"text": "canary-sbx \\ud800 here"}]',
    "nul-in-an-output-key": '[{"agent": "analyst", "output": {"canary-sbx\\u0000": 1}}]',
    "surrogate-in-a-scenario": '{"turns": [{"model": [{"text": "canary-sbx \\udfff"}]}]}',
}


@pytest.mark.parametrize("script", UNSTORABLE_SCRIPTS.values(), ids=UNSTORABLE_SCRIPTS.keys())
@pytest.mark.parametrize("how", ["pasted", "uploaded"])
def test_a_script_postgresql_cannot_store_is_a_form_error_and_never_logged(
    dana, script, how, caplog
):
    # On PostgreSQL jsonb refuses \u0000 and lone surrogates: this was a 500 whose log line
    # quoted the script.
    data = {"agent": "cbt_specialist", "flow": "reflection_session", "locale": "en"}
    data |= {"provider": "scripted"}
    if how == "pasted":
        data["script"] = script
    else:
        data["script_file"] = SimpleUploadedFile("script.json", script.encode())
    response = signed_in(dana).post(reverse("pages:sandbox-start"), data)
    assert response.status_code == 400
    assert "can be stored" in " ".join(response.context["form"].errors["script"])
    assert not SandboxSession.objects.exists()
    assert "canary-sbx" not in caplog.text


def test_the_scripted_provider_refuses_a_recording_outside_its_schema_on_replay():
    provider = ScriptedProvider([{"tool_calls": [1]}])
    with pytest.raises(LLMError) as caught:
        provider.complete(LLMRequest(agent="analyst", system_blocks=[], messages=[]))
    assert caught.value.code == "bad_script"


def test_the_shipped_scenarios_are_valid_scripts():
    for path in SCENARIOS.glob("*.json"):
        assert sandbox.script_parse(path.read_text()) is not None, path.name


# --- playing ---------------------------------------------------------------------------------


def test_a_counselor_plays_a_test_session_to_the_end_through_htmx(dana, dana_sandbox):
    client, session = signed_in(dana), dana_sandbox
    response = client.post(
        url("answer", session), {"card_id": current_card(session)["id"], "text": "Work"}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="canvas"' in html
    assert "Analyst, third person · offline engine" in html
    for _ in range(12):
        card = current_card(session)
        if card["kind"] == "completion":
            break
        client.post(url("answer", session), {"card_id": card["id"], "text": "A bit."}, **HTMX)
    assert current_card(session)["kind"] == "completion"
    client.post(url("end", session), **HTMX)
    assert current_card(session)["kind"] == "last_thing"
    response = client.post(url("last-thing", session), {"finish": "1"}, **HTMX)
    session.refresh_from_db()
    assert session.status == AskSession.Status.COMPLETED
    assert "This test session is completed" in response.content.decode()
    assert LLMCall.objects.filter(session=session, provider="offline").exists()


def test_while_the_batch_is_made_the_composer_shows_it_and_the_cards_come_by_the_worker(
    dana, dana_sandbox, task_queue
):
    client, session = signed_in(dana), dana_sandbox
    card = current_card(session)
    response = client.post(url("answer", session), {"card_id": card["id"], "text": "Work"}, **HTMX)
    html = response.content.decode()
    assert "Preparing the next questions" in html
    assert 'name="card_id"' not in html
    # The worker makes the batch under the test session's provider; the live canvas refreshes.
    task_queue.run()
    page = client.get(reverse("pages:session", kwargs={"session_id": session.pk}), **HTMX)
    assert "Preparing the next questions" not in page.content.decode()
    assert current_card(session)["id"] in page.content.decode()
    assert LLMCall.objects.filter(session=session, provider="offline").exists()


def test_the_sandbox_offers_english_russian_and_chinese_test_clients(dana):
    html = signed_in(dana).get(reverse("pages:sandbox")).content.decode()
    assert 'name="locale" id="id_locale"' in html
    for value in ("en", "ru", "zh"):
        assert f'<option value="{value}"' in html


def test_a_chinese_test_session_plays_to_the_end_through_the_pages(dana):
    client = signed_in(dana)
    session = start(client, locale="zh")
    assert UserProfile.objects.get(user=session.user).locale == "zh"
    session.refresh_from_db()
    assert session.locale == "zh"
    answers = ["工作压力很大，我最近睡不好。", "我总觉得自己做得不够好。", "可能是吧。"]
    for turn in range(15):
        card = current_card(session)
        if card["kind"] == "completion":
            break
        body = {"card_id": card["id"], "text": answers[turn % len(answers)]}
        response = client.post(url("answer", session), body, **HTMX)
        assert response.status_code == 200, response.content.decode()[:500]
    assert current_card(session)["kind"] == "completion"
    client.post(url("end", session), **HTMX)
    assert current_card(session)["kind"] == "last_thing"
    client.post(url("last-thing", session), {"text": "谢谢你。"}, **HTMX)
    session.refresh_from_db()
    assert session.status == AskSession.Status.COMPLETED
    assert session.turn_count >= 3


def test_one_last_thing_with_words_closes_with_a_reply(dana, dana_sandbox):
    client, session = signed_in(dana), dana_sandbox
    client.post(url("end", session), **HTMX)
    client.post(url("last-thing", session), {"text": "Thank you."}, **HTMX)
    session.refresh_from_db()
    assert session.status == AskSession.Status.COMPLETED
    assert session.messages.filter(kind="note").exists()


def test_free_text_and_continue_go_through_the_engine(dana, dana_sandbox):
    client, session = signed_in(dana), dana_sandbox
    response = client.post(url("message", session), {"text": "Sleep"}, **HTMX)
    assert response.status_code == 200
    assert session.messages.filter(kind="topic").exists()  # the topic card took the words
    response = client.post(url("continue", session), **HTMX)
    assert response.status_code == 400  # no completion card to continue from
    assert "E_VALIDATION" in response.content.decode()


def test_the_scripted_provider_replays_the_pasted_script_across_requests(dana):
    scenario = (SCENARIOS / "guard_guardian_consent.json").read_text()
    session = start(signed_in(dana), provider="scripted", script=scenario, is_minor="on")
    run = session.sandbox
    assert run.provider == "scripted"
    assert len(run.script) >= 2
    client = signed_in(dana)
    client.post(url("message", session), {"text": "School is hard"}, **HTMX)
    run.refresh_from_db()
    assert run.script_position == 2
    calls = LLMCall.objects.filter(session=session)
    assert {c.provider for c in calls} == {"scripted"}
    assert session.events.filter(type="validation.blocked").exists()


def test_a_scripted_turn_past_the_script_gets_the_gentle_card(dana):
    session = start(signed_in(dana), provider="scripted", script="[]")
    signed_in(dana).post(url("message", session), {"text": "Work"}, **HTMX)
    assert session.events.filter(type="analyst.failed").exists()
    assert current_card(session)["kind"] == "fallback"


def test_the_page_shows_the_state_panel_guard_and_blocked_badge(dana):
    session = start(signed_in(dana), is_minor="on")
    client = signed_in(dana)
    client.post(url("answer", session), {"card_id": current_card(session)["id"], "text": "Work"})
    html = client.get(reverse("pages:session", kwargs={"session_id": session.pk})).content.decode()
    assert 'data-guard="require_guardian_consent"' in html
    assert "guardian_contact" in html
    assert "validation.blocked → dialogue" in html
    assert "Narrator’s cards" in html
    assert "offline engine" in html


def test_a_sandbox_crisis_alerts_only_the_counselor_playing_it(dana, bob):
    UserProfile.objects.create(user=bob, on_duty=True)
    session = start(signed_in(dana))
    signed_in(dana).post(url("message", session), {"text": "I want to kill myself"}, **HTMX)
    session.refresh_from_db()
    assert session.current_intent_code == "crisis"
    alerted = set(Notification.objects.filter(kind="crisis_alert").values_list("user", flat=True))
    assert alerted == {dana.pk}


# --- who may play ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["answer", "message", "continue", "end", "last-thing"])
def test_only_the_counselor_who_started_it_plays_a_test_session(
    name, dana, dana_sandbox, bob, olga, alice, charlie, service_account
):
    data = {"card_id": current_card(dana_sandbox)["id"], "text": "x"}
    # Another counselor may not know it exists; ops may read it but not play it.
    assert signed_in(bob).post(url(name, dana_sandbox), data).status_code == 404
    assert signed_in(olga).post(url(name, dana_sandbox), data).status_code == 403
    for client_user in (alice, charlie, service_account, dana_sandbox.user):
        assert signed_in(client_user).post(url(name, dana_sandbox), data).status_code == 403
    assert Client().post(url(name, dana_sandbox), data).status_code == 302


def test_nobody_plays_a_real_clients_session_from_the_pages(alice, bob, olga):
    session = factories.ActiveSessionFactory(user=alice)
    for staff in (bob, olga):
        assert signed_in(staff).post(url("end", session)).status_code == 403


def test_other_counselors_do_not_see_a_sandbox_session(dana, dana_sandbox, bob):
    page = reverse("pages:session", kwargs={"session_id": dana_sandbox.pk})
    assert signed_in(bob).get(page).status_code == 404
    assert signed_in(dana).get(page).status_code == 200


def test_a_live_client_session_opens_read_only_in_the_same_layout(alice, bob):
    session = factories.ActiveSessionFactory(user=alice)
    html = signed_in(bob).get(reverse("pages:session", kwargs={"session_id": session.pk}))
    html = html.content.decode()
    assert 'id="state-panel"' in html
    assert "LLM calls" in html
    assert 'id="composer"' not in html
    assert "Continue from here" not in html


def test_the_sandbox_player_may_fork_and_switch_worklines(dana, dana_sandbox):
    from sessions_app.engine.services import workline_create

    client = signed_in(dana)
    first = current_card(dana_sandbox)
    client.post(url("answer", dana_sandbox), {"card_id": first["id"], "text": "Work"}, **HTMX)
    card_message = dana_sandbox.messages.get(kind="question_card", payload__card_id=first["id"])
    response = client.post(
        reverse("pages:session-continue-from", kwargs={"session_id": dana_sandbox.pk}),
        {"message_id": card_message.pk},
        **HTMX,
    )
    assert response.status_code == 200
    dana_sandbox.refresh_from_db()
    assert dana_sandbox.active_workline.head_id == card_message.pk
    other = workline_create(session=dana_sandbox, name="sleep", activate=False)
    activate = reverse(
        "pages:session-workline-activate",
        kwargs={"session_id": dana_sandbox.pk, "workline_id": other.pk},
    )
    assert client.post(activate, **HTMX).status_code == 200
    dana_sandbox.refresh_from_db()
    assert dana_sandbox.active_workline_id == other.pk


# --- CSRF and the error fragment ---------------------------------------------------------------


def test_htmx_posts_need_the_csrf_token(dana, dana_sandbox):
    client = Client(enforce_csrf_checks=True)
    client.force_login(dana)
    data = {"card_id": current_card(dana_sandbox)["id"], "text": "Work"}
    assert client.post(url("answer", dana_sandbox), data, **HTMX).status_code == 403
    page = client.get(reverse("pages:session", kwargs={"session_id": dana_sandbox.pk}))
    token = page.cookies["csrftoken"].value
    assert '"X-CSRFToken": "' in page.content.decode()
    response = client.post(url("answer", dana_sandbox), data, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200


def test_an_engine_error_renders_the_error_fragment_with_code_and_detail(dana, dana_sandbox):
    response = signed_in(dana).post(
        url("answer", dana_sandbox), {"card_id": "not-the-card", "text": "x"}, **HTMX
    )
    assert response.status_code == 400
    assert response["HX-Retarget"] == "#flash"
    html = response.content.decode()
    assert '<code class="error-code">E_VALIDATION</code> Answer the card that is shown now.' in html
    assert 'id="canvas"' not in html


def test_without_htmx_an_engine_error_comes_back_as_a_message_on_the_page(dana, dana_sandbox):
    client = signed_in(dana)
    response = client.post(url("answer", dana_sandbox), {"card_id": "x", "text": ""}, follow=True)
    assert response.status_code == 200
    assert "E_VALIDATION: Write something first." in response.content.decode()


def test_the_provider_choice_applies_only_inside_the_block(dana):
    from psychologist.llm.registry import provider_for_agent

    session = start(signed_in(dana), provider="scripted", script="[]")
    with sandbox.providers_for(session.pk):
        assert provider_for_agent("analyst").name == "scripted"
    assert provider_for_agent("analyst").name == "offline"  # the binding table again
