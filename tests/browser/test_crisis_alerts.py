"""An alert that finds the counselor (QUALITY C2, SPEC §8): whatever staff page an on-duty
counselor has open — the insights page, a session page — a crisis raised by a client's message
over REST shows within two seconds as a banner (the neutral label, the risk level, Claim), the
page title changes, a beep sounds unless muted, and a system notification goes out when the
browser allows them. When one counselor claims, the others' banners clear.
Screenshots go to tests/artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from sessions_app.models import AskSession
from tests import factories
from tests.browser.conftest import screenshot
from tests.browser.test_live_session import ClientApp, sign_in

pytestmark = pytest.mark.usefixtures("browser_db")

WITHIN = 2_000  # ms: the alert reaches every open staff page this fast

# Records the page's system notifications and beeps instead of showing and playing them (a
# headless browser has neither a desktop nor speakers).
RECORDERS = """
window.notes = [];
window.beeps = 0;
window.Notification = class {
  constructor(title, options) {
    window.notes.push({ title: title, body: options && options.body });
  }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; this.state = "running"; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    window.beeps += 1;
    return { connect() {}, start() {}, stop() {}, frequency: { value: 0 }, type: "sine" };
  }
  createGain() {
    const gain = { value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { connect() {}, gain: gain };
  }
};
"""


@pytest.fixture
def cast() -> dict[str, Any]:
    alice = factories.ClientFactory(username="alice", first_name="Alice")
    factories.UserProfileFactory(user=alice)
    people: dict[str, Any] = {"alice": alice}
    for name in ("erin", "frank"):  # on duty; alice is in neither's caseload
        people[name] = factories.on_duty_counselor(name, first_name=name.title())
    # Frank has a client of his own, whose session page he is reading when the alert comes.
    zoe = factories.ClientFactory(username="zoe", first_name="Zoe")
    factories.CaseloadAssignmentFactory(counselor=people["frank"], client=zoe)
    people["zoe_session"] = factories.ActiveSessionFactory(user=zoe)
    return people


def open_page(chromium: Any, base: str, username: str, path: str) -> Any:
    page = sign_in(chromium, base, username)
    page.context.add_init_script(RECORDERS)
    page.goto(path)
    expect(page.locator("#crisis-alerts")).to_have_attribute("data-live", "open")
    return page


def test_a_crisis_alert_reaches_every_staff_page_and_clears_when_claimed(
    asgi_server, chromium, cast
):
    erin = open_page(chromium, asgi_server, "erin", "/insights/")
    frank = open_page(chromium, asgi_server, "frank", f"/sessions/{cast['zoe_session'].pk}/")
    titles = {page: page.title() for page in (erin, frank)}
    # Frank mutes the sound: the banner and the title still come, the beep does not.
    frank.locator(".crisis-mute").click()
    expect(frank.locator(".crisis-mute")).to_have_attribute("aria-pressed", "true")
    for page in (erin, frank):
        expect(page.locator("#crisis-alerts .crisis-alert")).to_have_count(0)

    client = ClientApp(chromium, asgi_server, "alice")
    session_id = client.post("sessions", {})["_id"]
    client.post(f"sessions/{session_id}/messages", {"text": "Honestly I want to kill myself"})
    session = AskSession.objects.get(pk=session_id)
    assert session.alerted_at is not None

    for page in (erin, frank):
        alert = page.locator(f"#crisis-alerts .crisis-alert[data-session='{session_id}']")
        expect(alert).to_be_visible(timeout=WITHIN)
        expect(alert).to_contain_text("Support session")  # the neutral label, not her words
        expect(alert).not_to_contain_text("kill")
        expect(alert.locator(".risk")).to_have_text(session.final_risk_level)
        expect(alert.locator("button.button--claim")).to_be_visible()
        expect(page).to_have_title(f"(!) {titles[page]}")
        notes = page.evaluate("window.notes")
        assert len(notes) == 1
        assert "kill" not in str(notes)
    assert erin.evaluate("window.beeps") >= 1
    assert frank.evaluate("window.beeps") == 0
    screenshot(erin, "crisis-alert-1-banner-on-insights")
    screenshot(frank, "crisis-alert-2-banner-on-a-session-page")

    # Erin claims from her banner and lands on the session; Frank's banner and title clear.
    erin.locator(f".crisis-alert[data-session='{session_id}'] button.button--claim").click()
    erin.wait_for_url(f"{asgi_server}/sessions/{session_id}/")
    expect(frank.locator("#crisis-alerts .crisis-alert")).to_have_count(0, timeout=WITHIN)
    expect(frank).to_have_title(titles[frank])
    session.refresh_from_db()
    assert session.handoff_counselor == cast["erin"]
    screenshot(frank, "crisis-alert-3-cleared-after-the-claim")


def test_the_risk_form_starts_at_the_current_level_and_wants_a_reason_to_lower(
    asgi_server, chromium, cast
):
    session = cast["zoe_session"]
    AskSession.objects.filter(pk=session.pk).update(final_risk_level="L3")
    page = sign_in(chromium, asgi_server, "frank")
    page.goto(f"/sessions/{session.pk}/")
    form = page.locator(".risk-form")
    submit = form.locator("button[type=submit]")
    expect(form.locator("select[name=level]")).to_have_value("L3")
    expect(submit).to_be_disabled()  # nothing to change yet
    expect(form.locator(".risk-lowering")).to_be_hidden()

    form.locator("select[name=level]").select_option("L1")
    expect(form.locator(".risk-lowering")).to_be_visible()
    expect(submit).to_be_disabled()
    form.locator("textarea[name=reason]").fill("Spoke with her: a line from a film.")
    expect(submit).to_be_enabled()
    screenshot(page, "risk-form-lowering-with-a-reason")
    submit.click()
    expect(page.locator(".risk-changes")).to_contain_text("L3 → L1")

    form = page.locator(".risk-form")
    expect(form.locator("select[name=level]")).to_have_value("L1")
    form.locator("select[name=level]").select_option("L2")  # raising needs no reason
    expect(form.locator(".risk-lowering")).to_be_hidden()
    expect(form.locator("button[type=submit]")).to_be_enabled()


BANNER_SOCKET = "document.getElementById('crisis-alerts')['htmx-internal-data'].webSocket"


def test_an_alert_sent_while_the_connection_was_away_shows_on_reconnect(
    asgi_server, chromium, cast
):
    erin = open_page(chromium, asgi_server, "erin", "/insights/")
    erin.evaluate(f"{BANNER_SOCKET}.socket.close()")
    expect(erin.locator("#crisis-alerts")).to_have_attribute("data-live", "closed")

    client = ClientApp(chromium, asgi_server, "alice")
    session_id = client.post("sessions", {})["_id"]
    client.post(f"sessions/{session_id}/messages", {"text": "I want to end my life tonight"})
    expect(erin.locator("#crisis-alerts .crisis-alert")).to_have_count(0)  # the push was lost

    erin.evaluate(f"{BANNER_SOCKET}.publicInterface.reconnect()")
    expect(erin.locator(f".crisis-alert[data-session='{session_id}']")).to_be_visible(
        timeout=WITHIN
    )
    assert erin.title().startswith("(!) ")
