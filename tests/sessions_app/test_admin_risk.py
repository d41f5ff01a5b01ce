"""QUALITY C2, SPEC §3: risk never goes down unseen in the admin either. The session's change
form shows the risk read-only and changes it only through its own two fields (a level and a
reason), which go through `risk_level_set`: lowering without a reason is refused, with one it
writes `risk.changed`, and saving the rest of the form never touches the risk."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.forms import MultiWidget
from django.test import Client, RequestFactory
from django.urls import reverse

from sessions_app.admin import AskSessionAdmin
from sessions_app.models import AskSession, SessionEvent
from tests import factories

pytestmark = pytest.mark.django_db


def change_url(session: AskSession) -> str:
    return reverse("admin:sessions_app_asksession_change", args=[session.pk])


def form_data(response: Any) -> dict[str, Any]:
    """What the browser would post back unchanged: the admin form's values and the inline
    formsets' management forms."""
    data: dict[str, Any] = {}
    form = response.context["adminform"].form
    for name in form.fields:
        field, value = form.fields[name], form[name].value()
        if isinstance(field.widget, MultiWidget):
            for index, part in enumerate(field.widget.decompress(value)):
                data[f"{name}_{index}"] = "" if part is None else str(part)
        elif value is True:
            data[name] = "on"
        elif value is not None and value is not False:
            data[name] = value
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management[name].value()
    return data


@pytest.fixture
def olga() -> Any:
    # Ops run the admin as superusers (the demo's ops account is one).
    return factories.OpsFactory(username="olga", is_superuser=True)


@pytest.fixture
def ops_admin(olga: Any) -> Client:
    client = Client()
    client.force_login(olga)
    return client


@pytest.fixture
def escalated() -> AskSession:
    return factories.ActiveSessionFactory(
        initial_risk_level="L0", final_risk_level="L4", intervention_triggered=True
    )


def test_the_risk_fields_are_read_only_on_the_change_form(ops_admin, escalated):
    response = ops_admin.get(change_url(escalated))
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert "final_risk_level" not in form.fields
    assert "initial_risk_level" not in form.fields
    assert {"risk_level", "risk_reason"} <= set(form.fields)


def test_lowering_the_risk_without_a_reason_is_refused(ops_admin, escalated):
    data = form_data(ops_admin.get(change_url(escalated)))
    response = ops_admin.post(change_url(escalated), data | {"risk_level": "L1"})
    assert response.status_code == 200  # the form again, with the error
    assert "risk_reason" in response.context["adminform"].form.errors
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L4"
    assert not SessionEvent.objects.filter(session=escalated, type="risk.changed").exists()


def test_lowering_the_risk_with_a_reason_writes_risk_changed(ops_admin, olga, escalated):
    data = form_data(ops_admin.get(change_url(escalated)))
    reason = "Reviewed with the client's counselor: a song lyric."
    response = ops_admin.post(
        change_url(escalated), data | {"risk_level": "L1", "risk_reason": reason}
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    escalated.refresh_from_db()
    assert escalated.final_risk_level == "L1"
    event = SessionEvent.objects.get(session=escalated, type="risk.changed")
    assert event.payload == {"previous": "L4", "level": "L1", "reason": reason}
    assert event.actor_user == olga


def test_raising_the_risk_in_the_admin_takes_the_escalation_path(ops_admin):
    session = factories.ActiveSessionFactory()
    erin = factories.on_duty_counselor("erin")
    data = form_data(ops_admin.get(change_url(session)))
    response = ops_admin.post(change_url(session), data | {"risk_level": "L3"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    session.refresh_from_db()
    assert session.final_risk_level == "L3"
    assert session.alerted_at is not None
    assert session.notifications.filter(user=erin, kind="crisis_alert").exists()


def test_saving_other_fields_never_writes_back_a_stale_risk(ops_admin, escalated):
    data = form_data(ops_admin.get(change_url(escalated)))
    # Meanwhile the engine raised it again; the admin's save must not put the old value back.
    fresh = {"final_risk_level": "L4", "initial_risk_level": "L1"}
    AskSession.objects.filter(pk=escalated.pk).update(**fresh)
    response = ops_admin.post(change_url(escalated), data | {"session_title": "Renamed"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    escalated.refresh_from_db()
    assert escalated.session_title == "Renamed"
    assert (escalated.initial_risk_level, escalated.final_risk_level) == ("L1", "L4")


def test_no_admin_action_changes_sessions_in_bulk(olga):
    # A bulk action would bypass the reason; were one added, it must go through risk_level_set.
    request = RequestFactory().get("/admin/")
    request.user = olga
    assert AskSessionAdmin(AskSession, admin.site).get_actions(request) == {}


def test_a_crisis_sessions_type_is_read_only_as_its_intervention_flag(ops_admin, escalated):
    AskSession.objects.filter(pk=escalated.pk).update(session_type="crisis_intervention")
    data = form_data(ops_admin.get(change_url(escalated)))
    response = ops_admin.post(change_url(escalated), data | {"session_type": "general"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    escalated.refresh_from_db()
    assert escalated.session_type == "crisis_intervention"
    assert escalated.intervention_triggered
    calm = factories.ActiveSessionFactory()
    assert "session_type" in ops_admin.get(change_url(calm)).context["adminform"].form.fields
