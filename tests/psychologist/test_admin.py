from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils.html import escape

from psychologist.llm.metering import record_call
from psychologist.llm.types import Usage
from psychologist.models import Analysis, ClinicalRule, ModelBinding
from psychologist.selectors import clinical_rules_active
from tests.psychologist.builders import session_analysed

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_logged_in(client: Client) -> Client:
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)
    return client


def test_admins_can_list_and_edit_model_bindings(admin_client_logged_in: Client) -> None:
    binding = ModelBinding.objects.create(agent="narrator", provider="offline", model="x")

    listing = admin_client_logged_in.get("/admin/psychologist/modelbinding/")
    edit = admin_client_logged_in.post(
        f"/admin/psychologist/modelbinding/{binding.pk}/change/",
        {"agent": "narrator", "provider": "anthropic", "model": "claude-haiku-4-5"},
    )

    assert listing.status_code == 200
    assert edit.status_code == 302
    binding.refresh_from_db()
    assert (binding.provider, binding.model) == ("anthropic", "claude-haiku-4-5")


def test_llm_calls_are_read_only_in_admin(admin_client_logged_in: Client) -> None:
    call = record_call(
        agent="analyst",
        provider="offline",
        model="offline-rules-v1",
        session_id=None,
        usage=Usage(input_tokens=10, output_tokens=5),
        cost_micro_usd=0,
        latency_ms=3,
        stop_reason="tool_use",
    )

    assert admin_client_logged_in.get("/admin/psychologist/llmcall/").status_code == 200
    assert admin_client_logged_in.get("/admin/psychologist/llmcall/add/").status_code == 403
    detail = admin_client_logged_in.get(f"/admin/psychologist/llmcall/{call.pk}/change/")
    assert detail.status_code == 200
    assert b"Save" not in detail.content


@pytest.fixture
def analysed_session(alice):
    return session_analysed(user=alice, reason="error")


@pytest.mark.parametrize(
    "model", ["analysis", "hypothesis", "analysisrequest", "clinicalrule", "modelbinding"]
)
def test_every_psychologist_model_has_a_changelist_with_filters_and_search(
    admin_client_logged_in: Client, analysed_session, model: str
) -> None:
    response = admin_client_logged_in.get(f"/admin/psychologist/{model}/?q=alice")

    assert response.status_code == 200


def test_an_analysis_page_shows_its_hypotheses_and_a_hypothesis_page_its_evidence(
    admin_client_logged_in: Client, analysed_session
) -> None:
    analysis = Analysis.objects.get(session=analysed_session)
    hypothesis = analysis.hypotheses.order_by("position").first()

    analysis_page = admin_client_logged_in.get(
        f"/admin/psychologist/analysis/{analysis.pk}/change/"
    )
    hypothesis_page = admin_client_logged_in.get(
        f"/admin/psychologist/hypothesis/{hypothesis.pk}/change/"
    )

    assert analysis_page.status_code == hypothesis_page.status_code == 200
    assert escape(hypothesis.statement).encode() in analysis_page.content
    assert b"session.closed_abnormally" in hypothesis_page.content
    assert b"Save" not in hypothesis_page.content  # decisions go through the actions


def test_analyses_and_hypotheses_are_never_deleted_or_added_in_admin(
    admin_client_logged_in: Client, analysed_session
) -> None:
    analysis = Analysis.objects.get(session=analysed_session)

    assert admin_client_logged_in.get("/admin/psychologist/hypothesis/add/").status_code == 403
    delete = admin_client_logged_in.get(f"/admin/psychologist/analysis/{analysis.pk}/delete/")
    assert delete.status_code == 403


def test_the_accept_and_dismiss_actions_decide_only_proposed_hypotheses(
    admin_client_logged_in: Client, analysed_session
) -> None:
    first, second, *_ = Analysis.objects.get(session=analysed_session).hypotheses.order_by(
        "position"
    )
    url = "/admin/psychologist/hypothesis/"

    admin_client_logged_in.post(url, {"action": "dismiss", "_selected_action": [second.pk]})
    response = admin_client_logged_in.post(
        url, {"action": "accept", "_selected_action": [first.pk, second.pk]}, follow=True
    )

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("accepted", "dismissed")
    assert b"1 accepted; 1 skipped (no longer proposed)." in response.content
    assert analysed_session.events.filter(type="psychologist.hypothesis_accepted").count() == 1


def test_the_reanalyse_action_supersedes_and_keeps_the_previous_analysis(
    admin_client_logged_in: Client, analysed_session, django_capture_on_commit_callbacks
) -> None:
    first = Analysis.objects.get(session=analysed_session)

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client_logged_in.post(
            "/admin/psychologist/analysis/",
            {"action": "reanalyse", "_selected_action": [first.pk]},
            follow=True,
        )

    assert b"1 reanalysis requested; 0 refused (active or deleted)." in response.content
    first.refresh_from_db()
    assert first.superseded
    assert Analysis.objects.current().get(session=analysed_session).triggered_by == "manual"


def test_clinical_rules_are_edited_in_admin_and_inactive_ones_leave_the_prompt(
    admin_client_logged_in: Client,
) -> None:
    rule = ClinicalRule.objects.create(title="Sleep", text="Ask about sleep.", position=9)

    response = admin_client_logged_in.post(
        f"/admin/psychologist/clinicalrule/{rule.pk}/change/",
        {"title": "Sleep", "text": "Ask about sleep.", "position": 9},  # active unticked
    )

    assert response.status_code == 302
    assert rule not in clinical_rules_active()


def test_a_counselor_sees_only_the_hypotheses_of_her_caseload(
    client: Client, analysed_session, bob, dana
) -> None:
    view = Permission.objects.get(codename="view_hypothesis")
    for counselor in (bob, dana):
        counselor.user_permissions.add(view)
    hypothesis = Analysis.objects.get(session=analysed_session).hypotheses.first()
    shown = escape(hypothesis.statement[:40]).encode()

    client.force_login(bob)
    mine = client.get("/admin/psychologist/hypothesis/")
    client.force_login(dana)
    not_mine = client.get("/admin/psychologist/hypothesis/")

    assert shown in mine.content
    assert not_mine.status_code == 200
    assert shown not in not_mine.content
