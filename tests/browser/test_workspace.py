"""The counselor's workspace in a real browser: a crisis phrase sent through REST
alerts two on-duty counselors live; the first claims, the second's queue drops it at once; the
claimer takes over and writes, the client's REST state shows the person and no AI card comes;
the client's reply appears on the counselor's page live; hand back resumes the AI.
Screenshots go to tests/artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from psychologist.llm.models import LLMCall
from sessions_app.engine.selectors import thread_state
from sessions_app.models import AskSession
from tests import factories
from tests.browser.conftest import screenshot
from tests.browser.test_live_session import ClientApp, sign_in

pytestmark = pytest.mark.usefixtures("browser_db")


@pytest.fixture
def cast() -> dict[str, Any]:
    alice = factories.ClientFactory(username="alice", first_name="Alice")
    factories.UserProfileFactory(user=alice)
    people = {"alice": alice}
    for name in ("erin", "frank"):  # on duty; alice is in neither's caseload
        counselor = factories.CounselorFactory(username=name, first_name=name.title())
        factories.UserProfileFactory(user=counselor, on_duty=True)
        people[name] = counselor
    return people


def test_an_alert_is_claimed_taken_over_answered_and_handed_back(asgi_server, chromium, cast):
    erin = sign_in(chromium, asgi_server, "erin")
    frank = sign_in(chromium, asgi_server, "frank")
    for page in (erin, frank):
        expect(page.locator("#counselor-stream")).to_have_attribute("data-live", "open")
        page.evaluate("window.sameDocument = true")

    client = ClientApp(chromium, asgi_server, "alice")
    session_id = client.post("sessions", {})["_id"]
    client.post(f"sessions/{session_id}/messages", {"text": "Work has been heavy"})
    client.post(f"sessions/{session_id}/messages", {"text": "Honestly I want to kill myself"})

    # Both homes: the alert and the queue row, without a reload.
    for page in (erin, frank):
        expect(page.locator("#alerts-list")).to_contain_text("Crisis alert")
        expect(page.locator("#home-live .card--queue .row--crisis")).to_have_count(1)
        expect(page.locator("#home-live .card--queue")).to_contain_text("Support session")
        expect(page.locator("#home-live .card--queue")).not_to_contain_text("kill")
        assert page.evaluate("window.sameDocument") is True
    screenshot(frank, "workspace-1-alert-on-second-home")

    # Erin claims from her queue; Frank's queue drops it at once and says who took it.
    erin.locator("#home-live .row--crisis .button--claim").click()
    erin.wait_for_url(f"{asgi_server}/sessions/{session_id}/")
    expect(frank.locator("#home-live .card--queue .row--crisis")).to_have_count(0)
    expect(frank.locator("#alerts-list")).to_contain_text("Claimed by Erin")
    assert frank.evaluate("window.sameDocument") is True
    screenshot(frank, "workspace-2-claimed-leaves-second-queue")
    expect(erin.locator("#live")).to_have_attribute("data-live", "open")
    expect(erin.locator("#workspace")).to_contain_text("claimed by Erin")

    session = AskSession.objects.get(pk=session_id)
    step = thread_state(session)["step"]
    calls = LLMCall.objects.filter(session=session).count()
    dealt = session.events.filter(type="card.dealt").count()

    # Take over and write.
    erin.click("#take-over")
    expect(erin.locator("#counselor-composer")).to_be_visible()
    erin.fill("#counselor-text", "I'm Erin, a counselor. I'm here with you now.")
    erin.click("#counselor-composer button[type=submit]")
    expect(erin.locator(".timeline")).to_contain_text("I'm Erin, a counselor.")

    state = client.get(f"sessions/{session_id}/state")
    assert state["counselor"]["name"] == "Erin"
    assert [m["text"] for m in state["counselor_messages"]] == [
        "I'm Erin, a counselor. I'm here with you now."
    ]
    assert state["current_card"] is None

    # The client's reply reaches the counselor's page live; no AI card, no model call.
    erin.evaluate("window.sameDocument = true")
    client.post(f"sessions/{session_id}/messages", {"text": "Thank you. I'm at home, alone."})
    expect(erin.locator(".timeline")).to_contain_text("I'm at home, alone.")
    assert erin.evaluate("window.sameDocument") is True
    assert client.get(f"sessions/{session_id}/state")["current_card"] is None
    assert LLMCall.objects.filter(session=session).count() == calls
    assert session.events.filter(type="card.dealt").count() == dealt
    screenshot(erin, "workspace-3-counselor-speaking")

    # Hand back: the AI resumes at the step where it stood, with a new card for the client.
    erin.click("#hand-back")
    expect(erin.locator("#workspace")).to_contain_text("handed back to the AI")
    state = client.get(f"sessions/{session_id}/state")
    assert state["counselor"] is None
    assert state["current_card"] is not None
    assert session.events.filter(type="card.dealt").count() == dealt + 1
    session.refresh_from_db()
    assert thread_state(session)["step"] == step
    screenshot(erin, "workspace-4-handed-back")
