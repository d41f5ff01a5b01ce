"""Browser tests: the system Chromium, driven by Playwright, against daphne in a subprocess.

pytest-django's `live_server` is WSGI and serves no websockets, so daphne serves the real ASGI
application (`tests.browser.asgi`, which adds static files) on the test database: on SQLite
the test settings make that database a file, on PostgreSQL it is the test database itself. Tests
use `transactional_db` so that what they write is committed and visible to the server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

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
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(
        reason="needs the system Chromium at /usr/bin/chromium (apt-get install chromium)"
    )
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings["USER"]
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    port = settings["PORT"] or 5432
    return f"postgres://{user}{password}@{settings['HOST']}:{port}/{settings['NAME']}"


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/login/", timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"daphne did not come up:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def asgi_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """Base URL of daphne serving the project on the test database."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    with django_db_blocker.unblock():
        database_url = _database_url()
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url,
    }
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    log = ARTIFACTS / "daphne.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [*command, "tests.browser.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server, log)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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
