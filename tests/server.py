"""Daphne serving the project in a subprocess, on the test database: for the browser tests and
for the outage tests that need a real server with a dependency down.

On SQLite the test settings make the test database a file, on PostgreSQL it is the test
database itself; tests use `transactional_db` so that what they write is committed and visible
to the server.
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
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url() -> str:
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


@contextmanager
def daphne(*, db_url: str, log_name: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """The base URL of daphne serving `tests.browser.asgi` on `db_url`, with `env` on top."""
    with daphne_process(db_url=db_url, log_name=log_name, env=env) as (url, _server):
        yield url


@contextmanager
def daphne_process(
    *, db_url: str, log_name: str, env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`daphne`, with its process: for the tests that SIGKILL the server mid-request."""
    port = free_port()
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    with _served(command, port, db_url=db_url, log_name=log_name, env=env) as served:
        yield served


@contextmanager
def uvicorn(
    *, db_url: str, log_name: str, workers: int = 1, env: dict[str, str] | None = None
) -> Iterator[str]:
    """The base URL of the production server (`make serve-prod`: uvicorn, `workers` processes
    on one socket) serving `tests.browser.asgi` on `db_url`, with `env` on top."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port)]
    command += [
        "--workers",
        str(workers),
        "--no-access-log",
        "--lifespan",
        "off",
        "--no-proxy-headers",
        "--http",
        "config.uvicorn_http:H11NoDelayProtocol",
    ]
    with _served(command, port, db_url=db_url, log_name=log_name, env=env) as (url, _server):
        yield url


@contextmanager
def _served(
    command: list[str],
    port: int,
    *,
    db_url: str,
    log_name: str,
    env: dict[str, str] | None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    environment = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": db_url,
        **(env or {}),
    }
    log = ARTIFACTS / log_name
    with log.open("wb") as out:
        server = subprocess.Popen(
            [*command, "tests.browser.asgi:application"],
            cwd=ROOT,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server, log)
        yield url, server
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
