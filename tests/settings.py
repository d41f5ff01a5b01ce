"""Test settings: the one place tests override the environment-driven settings."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

# `make test` runs the suite in parallel (pytest-xdist): each worker process has its own test
# database (pytest-django suffixes its name with the worker's id; on SQLite, a file per process,
# below) and its own Redis database, so that one worker's cache, throttle counters and channel
# groups never meet another's. Set before the project's settings read REDIS_URL; servers the
# tests start inherit it.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _WORKER and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = re.sub(
        r"(/\d*)?$", f"/{int(_WORKER.removeprefix('gw')) + 1}", os.environ["REDIS_URL"], count=1
    )

from config.settings import *  # noqa: E402, F403
from config.settings import DATABASES, Q_CLUSTER, REST_FRAMEWORK  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
# The production path, whatever the channel layer: tests that need the queue as production has
# it turn `sync` off (the `task_queue` fixture); the rest see each batch made at once.
BATCH_OFF_REQUEST = True
LLM_PROVIDER = "offline"
# High enough that no functional test is throttled; the throttle tests lower them explicitly.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"login": "10000/min", "write": "10000/min", "export": "10000/min"},
}
# Whatever the environment holds, tests never reach a real model: every agent runs offline
# unless a test binds it elsewhere (the fake Messages API fixture, a scripted replay).
LLM_BINDINGS = {
    agent: {"provider": "offline", "model": "offline-rules-v1"}
    for agent in (
        "analyst",
        "narrator",
        "summarizer",
        "psychologist",
        "psychologist-light",
        "safety",
    )
}
ANTHROPIC_API_KEY = ""
ANTHROPIC_BASE_URL = ""

# On SQLite the test database is a file, not memory: the browser tests' daphne process must open
# the same database as the test that drives it. One file per test process, so that parallel runs
# never share it.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"naisei-test-{os.getpid()}.sqlite3")
    }


# Never the repository's vault/: tests that export point it at their own tmp_path.
VAULT_EXPORT_DIR = Path(tempfile.gettempdir()) / "naisei-test-vault"

# The event log refuses TRUNCATE on PostgreSQL (sessions_app's migration) unless the
# connection says otherwise; the suite's connections do, because transactional tests empty every
# table between tests with one TRUNCATE. The test of the trigger opens a connection without it.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c naisei.event_log_truncate=on".strip()

# The suite's own connections are not pooled (each test's transaction holds its connection, and
# tests that start threads open their own); a server subprocess started with DB_POOL=1 in its
# environment serves through the bounded pool, as production does.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and not os.environ.get(
    "DB_POOL"
):
    DATABASES["default"].get("OPTIONS", {}).pop("pool", None)
