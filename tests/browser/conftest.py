"""Browser tests: the system Chromium, driven by Playwright, against daphne in a subprocess.

pytest-django's `live_server` is WSGI and serves no websockets, so daphne serves the real ASGI
application (`tests.browser.asgi`, which adds static files) on the test database: on SQLite
the test settings make that database a file, on PostgreSQL it is the test database itself. Tests
use `transactional_db` so that what they write is committed and visible to the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import ARTIFACTS, daphne, database_url

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(
        reason="needs the system Chromium at /usr/bin/chromium (apt-get install chromium)"
    )
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """Base URL of daphne serving the project on the test database."""
    with django_db_blocker.unblock():
        db_url = database_url()
    with daphne(db_url=db_url, log_name="daphne.log") as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    # Module-scoped: while Playwright runs, its event loop sits in this thread, and the ORM
    # calls of tests collected after the browser tests must not find it there.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser_db(transactional_db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The committed test database, usable beside Playwright's sync API.

    Playwright's sync API keeps an event loop in this thread, which makes Django refuse ORM
    calls from it; the test's ORM calls are plain synchronous code, so the guard is lifted for
    the test only (never for the server).
    """
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def screenshot(page: Any, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
