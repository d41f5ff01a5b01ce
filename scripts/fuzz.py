"""`make fuzz` (QUALITY R2): schemathesis, every check, against a live server.

Starts daphne on a free loopback port over a throw-away SQLite database loaded with the demo
data, logs in as each role, fuzzes `/api/schema/` once per role and stops the server. Exits
non-zero if any run found a failure (a 5xx, a response the schema does not document, an
accepted invalid input, …).

A Python script rather than a shell one: picking a free port, reading tokens out of JSON and
stopping the server on every way out (`finally`) are each one line here. It needs only the
standard library and the project's venv (`schemathesis` is a dev dependency).

    python scripts/fuzz.py [--max-examples N] [--seed N] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CONFIG = Path(__file__).resolve().with_name("schemathesis.toml")

# Demo logins (sessions_app/management/commands/_demo_data.py), plus a service account that the
# demo does not have: services are API-only, so it is created here for the fuzz run alone.
SERVICE_USER = ("fuzz-service", "naisei-service-fuzz")
ROLES: dict[str, tuple[str, str]] = {
    "client": ("alice", "naisei-client-demo"),
    "counselor": ("counselor", "naisei-counselor-demo"),
    "ops": ("ops", "naisei-ops-demo"),
    "service": SERVICE_USER,
}
# Runs in the role loop would revoke their own token by fuzzing logout; it gets a run of its
# own at the end, with a token nothing else needs.
LOGOUT = "auth_logout"
# Login hashes a password on every call (also for unknown users): fuzzed once, not per role.
LOGIN = "auth_token"

CREATE_SERVICE_USER = f"""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
user, _ = get_user_model().objects.get_or_create(username={SERVICE_USER[0]!r})
user.set_password({SERVICE_USER[1]!r})
user.save()
user.groups.add(Group.objects.get(name="service"))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    # Whatever the caller's shell points at (CI exports PostgreSQL/Redis URLs), the fuzz run
    # writes only to its own throw-away database, with the offline engine.
    for name in ("DATABASE_URL", "REDIS_URL", "ANTHROPIC_API_KEY", "LLM_PROVIDER", "Q_SYNC"):
        env.pop(name, None)
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "MEDIA_ROOT": str(workdir / "media"),
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        # Throttling is tested by the suite; here a 429 would only hide the endpoint behind it.
        "THROTTLE_LOGIN": "100000/min",
        "THROTTLE_WRITE": "100000/min",
        "THROTTLE_EXPORT": "100000/min",
        # Fuzzing login fails it on purpose, from one address: the lockout would lock out the
        # other roles' logins (the suite tests the lockout).
        "LOGIN_FAILURE_LIMIT": "1000000",
    }
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True
    )


def wait_until_up(base: str, server: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"fuzz: the server exited with {server.returncode} before answering")
        try:
            with urllib.request.urlopen(f"{base}/api/schema/", timeout=5):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    sys.exit(f"fuzz: the server did not answer within {timeout:.0f} s")


def login(base: str, username: str, password: str) -> str:
    request = urllib.request.Request(
        f"{base}/api/auth/token",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["token"]


def schemathesis(
    base: str, token: str, args: argparse.Namespace, report: Path, *filters: str
) -> int:
    command = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(CONFIG),
        "run",
        f"{base}/api/schema/",
        "--url",
        base,
        "--header",
        f"Authorization: Token {token}",
        "--checks",
        "all",
        "--max-examples",
        str(args.max_examples),
        "--seed",
        str(args.seed),
        "--workers",
        "2",
        "--report",
        "junit",
        "--report-junit-path",
        str(report),
        "--no-color",
        *filters,
    ]
    # Run in the throw-away directory: schemathesis keeps its cache in the working directory.
    return subprocess.run(command, cwd=report.parent).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=25, help="per operation and phase")
    parser.add_argument("--seed", type=int, default=20260, help="hypothesis seed (reproducible)")
    parser.add_argument("--keep", action="store_true", help="keep the database and reports")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="naisei-fuzz-"))
    env = server_env(workdir)
    print(f"fuzz: preparing {workdir}", flush=True)
    manage(env, "migrate", "--no-input")
    manage(env, "demo")
    manage(env, "shell", "-c", CREATE_SERVICE_USER)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (workdir / "server.log").open("wb")
    server = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    failed: list[str] = []
    started = time.monotonic()
    try:
        wait_until_up(base, server)
        for index, (role, (username, password)) in enumerate(ROLES.items()):
            print(f"\n== fuzz as {role} ({username})", flush=True)
            filters = ["--exclude-operation-id", LOGOUT]
            if index:
                filters += ["--exclude-operation-id", LOGIN]
            token = login(base, username, password)
            if schemathesis(base, token, args, workdir / f"{role}.xml", *filters):
                failed.append(role)
        print(f"\n== fuzz {LOGOUT}", flush=True)
        token = login(base, *ROLES["client"])
        if schemathesis(
            base, token, args, workdir / "logout.xml", "--include-operation-id", LOGOUT
        ):
            failed.append(LOGOUT)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    elapsed = time.monotonic() - started
    if failed:
        print(f"\nfuzz: FAILED ({', '.join(failed)}) in {elapsed:.0f} s; see {workdir}")
        return 1
    print(f"\nfuzz: passed, every role, in {elapsed:.0f} s")
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
