"""The sandbox in a browser (SPEC §8): a counselor starts a test session on the offline engine,
plays it to the end through HTMX posts, and watches the state panel, the pending guard and the
mood orb change; "continue from here" forks the test session into two branches of the tree.
Screenshots go to tests/artifacts/ at laptop and tablet widths."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from sessions_app.models import AskSession
from tests import factories
from tests.browser.conftest import screenshot as full_page
from tests.browser.test_live_session import LAPTOP, TABLET, sign_in

pytestmark = pytest.mark.usefixtures("browser_db")

ANSWERS = (
    "Work has been heavy, and I keep thinking about it at night.",
    "Maria Ivanova, my mother.",
    "It feels a little better to write it down.",
    "I could ask for help with one task.",
    "maria@example.org",
    "I feel calmer now that I have a plan.",
    "Yes, talking to my manager on Monday.",
    "Taking a short walk after work helps.",
    "I think I can try that this week.",
)


@pytest.fixture
def dana() -> Any:
    return factories.CounselorFactory(username="dana", first_name="Dana")


def screenshot(page: Any, name: str) -> None:
    # From the top: the state panel and the event log are sticky, and a full-page capture
    # taken scrolled down would draw them where the viewport last was.
    page.evaluate("window.scrollTo(0, 0)")
    full_page(page, name)


def start_test_session(page: Any, *, minor: bool) -> None:
    page.goto("/sandbox/")
    page.select_option("#id_agent", "cbt_specialist")
    page.select_option("#id_flow", "reflection_session")
    page.select_option("#id_cbt_focus", "problem_solving")
    if minor:
        page.check("#id_is_minor")
    page.check("input[name=provider][value=offline]")
    screenshot(page, "sandbox-start")
    page.click(".field--submit button")
    page.wait_for_url(re.compile(r"/sessions/[0-9a-f-]+/$"))
    expect(page.locator("#live")).to_have_attribute("data-live", "open")


def card_kind(page: Any) -> str:
    return page.locator(".card-now").get_attribute("class").split("card-now--")[-1]


def answer(page: Any, text: str) -> None:
    card = page.locator(".card-now").get_attribute("data-card")
    page.fill("#answer-text", text)
    page.click(".answer-form button[type=submit]")
    # The canvas is swapped by the post's answer: wait for the next card (or none).
    expect(page.locator(f'.card-now[data-card="{card}"]')).to_have_count(0)


def test_a_counselor_plays_a_test_session_to_the_end_on_the_offline_engine(
    asgi_server, chromium, dana
):
    page = sign_in(chromium, asgi_server, "dana")
    start_test_session(page, minor=True)
    expect(page.locator(".card-now")).to_contain_text("What would you like to talk about")
    expect(page.locator(".orb")).to_have_class(re.compile("orb--unknown"))
    # A minor: require_guardian_consent waits on intro from the start.
    guard = page.locator('.guard[data-guard="require_guardian_consent"]')
    expect(guard).to_contain_text("guardian_name")
    expect(page.locator('[data-state="step"]')).to_have_text("intro")

    answer(page, ANSWERS[0])  # the topic: the Analyst runs, its move to dialogue is blocked
    expect(page.locator(".badge-blocked").first).to_contain_text("validation.blocked → dialogue")
    expect(page.locator(".orb")).to_have_class(re.compile("orb--stable"))
    expect(page.locator(".analysis").first).to_contain_text("offline engine")
    expect(page.locator(".analysis-raw .json").first).to_contain_text('"mood_delta"')
    expect(page.locator(".analysis-cards").first).to_contain_text("parent or guardian")
    expect(page.locator(".llm-calls")).to_contain_text("analyst")
    expect(page.locator(".pill--engine").first).to_have_text("offline engine")
    page.set_viewport_size(LAPTOP)
    screenshot(page, "sandbox-guard-laptop")

    for text in ANSWERS[1:]:
        if card_kind(page) == "completion":
            break
        answer(page, text)
        if not page.locator(".guard").count():
            break
    expect(page.locator(".guard")).to_have_count(0)  # both guardian slots given: cleared
    expect(page.locator('[data-state="slots"]')).to_contain_text("guardian_contact")

    for text in ANSWERS[3:] * 2:
        if card_kind(page) == "completion":
            break
        answer(page, text)
    expect(page.locator(".card-now")).to_contain_text("End the session?")
    expect(page.locator(".orb")).to_have_class(re.compile("orb--improving"))
    expect(page.locator('[data-state="step"]')).not_to_have_text("intro")
    page.set_viewport_size(TABLET)
    screenshot(page, "sandbox-completion-tablet")
    page.set_viewport_size(LAPTOP)

    page.click(".button-row >> text=End")
    expect(page.locator(".card-now--last_thing")).to_contain_text("One last thing")
    expect(page.locator('[data-state="phase"]')).to_have_text("closing")
    page.click(".finish-form button")
    expect(page.locator(".closed-note")).to_contain_text("completed")
    session = AskSession.objects.get(user__profile__sandbox_counselor=dana)
    assert session.status == AskSession.Status.COMPLETED
    page.click("#event-log summary")
    screenshot(page, "sandbox-finished-laptop")


def test_continue_from_here_forks_a_test_session_into_two_branches(asgi_server, chromium, dana):
    page = sign_in(chromium, asgi_server, "dana")
    start_test_session(page, minor=False)
    answer(page, ANSWERS[0])
    first_card = page.locator(".card-now").get_attribute("data-card")
    first_text = page.locator(".card-now .card-text").inner_text()
    answer(page, ANSWERS[2])
    expect(page.locator(".timeline")).to_contain_text(ANSWERS[2])

    # Continue from the card answered last: the head moves back to it, the answer leaves the
    # active branch, and answering again starts a second branch.
    card_message = page.locator(".timeline .msg--narrator", has_text=first_text).last
    card_message.hover()
    card_message.locator(".chip-button").click()
    expect(page.locator(".timeline")).not_to_contain_text(ANSWERS[2])
    expect(page.locator(".card-now")).to_have_attribute("data-card", first_card)
    answer(page, ANSWERS[3])
    expect(page.locator(".scope-strip")).to_contain_text("2 branches")

    page.click("label[for=view-tree]")
    expect(page.locator(".timeline")).to_be_hidden()
    forks = page.locator(".tree .branch .forks > .branch")
    expect(forks).to_have_count(2)
    expect(forks.nth(0)).to_contain_text(ANSWERS[2][:40])
    expect(forks.nth(1)).to_contain_text(ANSWERS[3][:40])
    screenshot(page, "sandbox-tree-laptop")
    page.set_viewport_size(TABLET)
    screenshot(page, "sandbox-tree-tablet")
