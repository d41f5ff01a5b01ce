"""The staff pages in English, Russian and Chinese in a real browser: a counselor
switches the language with the switcher at the foot of home, a session page and the sandbox;
each page comes back in that language (`<html lang>`, a known heading), logs no error or CSP
violation and has no serious or critical axe-core finding. Screenshots of each page in each
language go to tests/artifacts/languages/; with DOCS_SCREENSHOTS=1 they refresh the committed
set in docs/screenshots/ instead (a plain test run leaves the working tree as it was)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from sessions_app.management.commands import _demo_data as demo
from sessions_app.models import AskSession
from tests.browser.test_insights import demo_data, serious, sign_in  # noqa: F401 (a fixture)
from tests.server import ARTIFACTS

pytestmark = pytest.mark.usefixtures("browser_db")

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENSHOTS = DOCS if os.environ.get("DOCS_SCREENSHOTS") == "1" else ARTIFACTS / "languages"

# (switcher value, <html lang>, the file name's language)
LANGUAGES = (("ru", "ru", "ru"), ("zh-hans", "zh-hans", "zh"), ("en", "en", "en"))
HEADINGS = {
    "home": ("#queue-title", {"en": "Crisis queue", "ru": "Очередь кризисов", "zh": "危机队列"}),
    "session": ("#conversation-title", {"en": "Conversation", "ru": "Разговор", "zh": "对话"}),
    "sandbox": ("#start-title", {"en": "Sandbox", "ru": "Песочница", "zh": "沙盒"}),
}


def switch(page: Any, value: str) -> None:
    page.select_option("#language-select", value)
    page.click(".language-form button[type=submit]")
    page.wait_for_load_state("networkidle")


def test_a_counselor_switches_home_a_session_and_the_sandbox_between_three_languages(
    asgi_server,
    chromium,
    demo_data,  # noqa: F811
):
    person = sign_in(chromium, asgi_server, "counselor")
    page = person.page
    session = AskSession.objects.get(dify_conversation_id=demo.demo_uuid("alice-follow-up"))
    urls = {"home": "/", "session": f"/sessions/{session.pk}/", "sandbox": "/sandbox/"}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    findings: dict[str, list[str]] = {}
    for name, url in urls.items():
        page.goto(url)
        heading, texts = HEADINGS[name]
        for value, lang, short in LANGUAGES:
            switch(page, value)
            assert page.url.endswith(url), page.url  # the switcher comes back to the same page
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator(heading)).to_contain_text(texts[short])
            expect(page.locator("#language-select")).to_have_value(value)
            found = serious(page)
            if found:
                findings[f"{name} {short}"] = found
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{short}.png"))
    assert person.clean() == []
    report = "\n".join(f"{where}: {line}" for where, lines in findings.items() for line in lines)
    assert findings == {}, report
