"""Insights and the clinical record in a real browser, on the demo data: a counselor
accepts one hypothesis and dismisses another without a reload, follows an evidence chip to the
highlighted event; every chart draws; and no staff page logs an error or a Content-Security-
Policy violation, or has a serious or critical axe-core finding. Screenshots go to
tests/artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Group
from django.core.management import call_command
from playwright.sync_api import expect

from psychologist.models import Hypothesis
from sessions_app.management.commands import _demo_data as demo
from sessions_app.management.commands.demo import load_demo
from sessions_app.models import AskSession
from sessions_app.roles import Role
from tests.browser.conftest import screenshot
from tests.browser.test_live_session import LAPTOP

pytestmark = pytest.mark.usefixtures("browser_db")

# Every CSP violation the page sees, recorded before any page script runs (init scripts come
# through the DevTools protocol, which the page's policy does not govern).
WATCH_CSP = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.fixture
def demo_data() -> None:
    # The role groups come from a data migration, which a transactional test's flush removes.
    for role in Role:
        Group.objects.get_or_create(name=role.value)
    load_demo()
    call_command("demo_analyses", stdout=open("/dev/null", "w"))  # noqa: SIM115


class Watched:
    """A signed-in page whose console errors and CSP violations are collected."""

    def __init__(self, browser: Any, base: str, username: str, password: str) -> None:
        self.context = browser.new_context(base_url=base, viewport=LAPTOP)
        self.context.add_init_script(WATCH_CSP)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto("/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        self.page.click("button[type=submit]")
        self.page.wait_for_url(f"{base}/")

    def clean(self) -> list[str]:
        """Console errors and CSP violations so far (the page's own list, too)."""
        violations = self.page.evaluate("window.cspViolations || []")
        return [*self.errors, *violations]


def sign_in(chromium: Any, base: str, username: str = "counselor") -> Watched:
    role = "ops" if username == "ops" else "counselor"
    return Watched(chromium, base, username, demo.PASSWORDS[role])


def chart_totals(page: Any) -> dict[str, float]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('canvas[id^=canvas-]')].map(
             c => [c.id, Chart.getChart(c).data.datasets.flatMap(d => d.data)
                              .reduce((sum, v) => sum + (v || 0), 0)]))"""
    )


def test_a_counselor_decides_inline_and_follows_an_evidence_chip(asgi_server, chromium, demo_data):
    bob = sign_in(chromium, asgi_server)
    page = bob.page
    page.goto("/insights/")
    expect(page.locator("figure.chart")).to_have_count(7)
    expect(page.locator("canvas[data-drawn]")).to_have_count(7)
    totals = chart_totals(page)
    assert len(totals) == 7
    assert all(total > 0 for total in totals.values()), totals
    screenshot(page, "insights-1-dashboard")
    page.evaluate("window.sameDocument = true")

    proposed = page.locator(".hypothesis--proposed")
    first_id = proposed.nth(0).get_attribute("data-hypothesis")
    second_id = proposed.nth(1).get_attribute("data-hypothesis")
    page.locator(f"#hypothesis-{first_id} [data-decide=accept]").click()
    accepted = page.locator(f"#hypothesis-{first_id}")
    expect(accepted).to_have_class(re.compile("hypothesis--accepted"))
    expect(accepted.locator("[data-decided]")).to_contain_text("Accepted by Bob")
    page.locator(f"#hypothesis-{second_id} [data-decide=dismiss]").click()
    dismissed = page.locator(f"#hypothesis-{second_id}")
    expect(dismissed).to_have_class(re.compile("hypothesis--dismissed"))
    expect(dismissed.locator("[data-decided]")).to_contain_text("Dismissed by Bob")
    assert page.evaluate("window.sameDocument") is True  # no reload
    statuses = dict(
        Hypothesis.objects.filter(pk__in=[first_id, second_id]).values_list("pk", "status")
    )
    assert statuses == {int(first_id): "accepted", int(second_id): "dismissed"}
    screenshot(page, "insights-2-accepted-and-dismissed")

    chip = accepted.locator("a.chip").first
    event_id = chip.get_attribute("data-event")
    chip.click()
    page.wait_for_url(re.compile(rf"/sessions/[0-9a-f-]+/\?highlightEvent={event_id}$"))
    expect(page.locator("#event-log")).to_have_attribute("open", "")
    event = page.locator(f"#event-{event_id}")
    expect(event).to_have_class(re.compile("event--highlight"))
    expect(event).to_be_in_viewport()
    expect(event.locator(".event-name")).not_to_be_empty()
    screenshot(page, "insights-3-evidence-highlighted")
    assert bob.clean() == []


def test_the_session_page_reads_as_a_clinical_record(asgi_server, chromium, demo_data):
    session = AskSession.objects.get(dify_conversation_id=demo.demo_uuid("noor-h1"))
    bob = sign_in(chromium, asgi_server)
    page = bob.page
    page.goto(f"/sessions/{session.pk}/")
    head = page.locator(".record-head")
    expect(head.locator("[data-record=client]")).to_have_text("Noor")
    expect(head.locator("[data-risk=peak]")).to_have_text("L3")
    expect(head.locator("[data-record=holder]")).to_contain_text("Bob")
    expect(page.locator("#record [data-record=summary]")).to_contain_text("Noor's risk rose")
    expect(page.locator("#analysis .hypothesis")).to_have_count(2)
    conversation = page.locator(".conversation")
    expect(conversation.locator(".said")).to_have_count(6)
    expect(conversation).not_to_contain_text("System")
    expect(page.locator("#engine-details")).not_to_have_attribute("open", "")
    expect(page.locator(".live-label--open")).to_have_text("Up to date")
    screenshot(page, "session-record")
    assert bob.clean() == []


PAGES = ("/", "/insights/", "/sandbox/")


def serious(page: Any) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:6]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("username", ["counselor", "charlie", "ops"])
def test_staff_pages_log_no_errors_no_csp_violations_and_pass_axe(
    asgi_server, chromium, demo_data, username
):
    person = sign_in(chromium, asgi_server, username)
    page = person.page
    real = AskSession.objects.get(dify_conversation_id=demo.demo_uuid("alice-follow-up"))
    urls = [*PAGES] if username == "charlie" else [*PAGES, f"/sessions/{real.pk}/"]
    if username == "counselor":
        urls.append(f"/sessions/{real.pk}/?highlightEvent={real.events.first().pk}")
    findings: dict[str, list[str]] = {}
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        found = serious(page)
        if found:
            findings[url] = found
    # A sandbox session: start one and answer its first card.
    page.goto("/sandbox/")
    page.locator("input[name=provider][value=offline]").check()
    page.click(".sandbox-start button[type=submit]")
    page.wait_for_url(re.compile(r"/sessions/[0-9a-f-]+/$"))
    expect(page.locator("#engine-details")).to_have_attribute("open", "")
    page.fill("#answer-text", "Work has been heavy this week.")
    page.click("#composer .answer-form button[type=submit]")
    expect(page.locator(".conversation")).to_contain_text("Work has been heavy this week.")
    page.wait_for_load_state("networkidle")
    if username == "counselor":
        screenshot(page, "sandbox-session")
    found = serious(page)
    if found:
        findings["sandbox session"] = found
    if username == "charlie":
        page.goto("/insights/")
        expect(page.locator(".hypothesis")).to_have_count(0)
        screenshot(page, "insights-charlie-empty")
    assert person.clean() == []
    report = "\n".join(f"{url}: {line}" for url, lines in findings.items() for line in lines)
    assert findings == {}, report
