"""QUALITY P8: clients playing whole sessions over REST against a real server.

N simulated mobile clients (1, 10, 50, 200; `--quick`: 1, 10, 50) each sign in with a token and
play sessions end to end — create, state, answer every card (the offline engine deals them and
runs the Analyst and Narrator when a batch completes), end, one last thing — for a fixed time,
against `make serve-prod`'s server (uvicorn) with 1 and then 2 worker processes, on PostgreSQL
+ Redis. In the same run and on the same server, the same N clients time the floor: a trivial
authenticated GET and a one-row authenticated POST (bench/_load_server.py). It prints answers/s,
p50/p95/p99 per endpoint and errors, then each target beside the measured figure.

Each client plays a session on one connection and closes it with the session's last request
(the floor: every twelve requests), as a phone's app opens a connection when it comes to the
front; the server's processes take new connections as they come, so they share the clients over
the round instead of once at its start. For each round it also prints where the cores went: CPU
milliseconds per answer of the server's processes, PostgreSQL's, the clients' and the whole
machine's (from /proc), and beside the two-process target what those allow on this machine.

Needs DATABASE_URL=postgres://… and REDIS_URL (a throw-away test database is created). The
machine is shared and small: figures move from run to run, the ratios less so. A benchmark: it
reports, it asserts nothing.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/naisei_bench \\
        REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/load.py [--quick]
        [--processes 1 2] [--clients 1 10 50 200]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from _django import ROOT, bench_database, table

CLIENTS = (1, 10, 50, 200)
QUICK_CLIENTS = (1, 10, 50)
PROCESSES = (1, 2)


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def note(self, endpoint: str, started: float, status: int) -> None:
        self.latencies[endpoint].append((time.perf_counter() - started) * 1000)
        if status >= 400:
            self.errors[f"{endpoint} {status}"] += 1


# --- where the cores go: CPU seconds per side, read from /proc (Linux) -----------------------

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> list[tuple[int, str, int, float]]:
    """(pid, command name, parent pid, CPU seconds) of every process."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                line = stat.read()
        except OSError:  # gone meanwhile
            continue
        name = line[line.index("(") + 1 : line.rindex(")")]
        fields = line[line.rindex(")") + 2 :].split()
        seconds = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
        found.append((int(entry), name, int(fields[1]), seconds))
    return found


def _machine_busy() -> float:
    with open("/proc/stat") as stat:
        ticks = [int(v) for v in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    return (sum(ticks[:8]) - idle) / TICKS


def cpu_snapshot(server_pid: int) -> dict[str, float]:
    """CPU seconds so far of the server (its process tree), PostgreSQL's processes, this
    bench's clients and the whole machine. The pool keeps PostgreSQL's backends alive, so the
    difference of two snapshots is what each side spent in between."""
    processes = _processes()
    tree, grown = {server_pid}, True
    while grown:
        before = len(tree)
        tree |= {pid for pid, _, parent, _ in processes if parent in tree}
        grown = len(tree) > before
    return {
        "server": sum(cpu for pid, _, _, cpu in processes if pid in tree),
        "postgres": sum(cpu for _, name, _, cpu in processes if name == "postgres"),
        "clients": sum(os.times()[:2]),
        "machine": _machine_busy() if os.path.exists("/proc/stat") else 0.0,
    }


def cpu_spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {side: after[side] - before[side] for side in before}


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# The last request on a connection: the server closes it, the client opens a new one next.
LAST = {"Connection": "close"}


async def call(client, tally: Tally, endpoint: str, method: str, url: str, body=None, headers=None):
    started = time.perf_counter()
    try:
        response = await client.request(method, url, json=body, headers=headers)
    except Exception as exc:  # a refused or timed-out connection is an error, not a crash
        tally.errors[f"{endpoint} {type(exc).__name__}"] += 1
        tally.latencies[endpoint].append((time.perf_counter() - started) * 1000)
        return None
    tally.note(endpoint, started, response.status_code)
    return response.json() if response.status_code < 400 and response.content else None


_sessions_played = itertools.count(1)


async def play(client, tally: Tally, deadline: float) -> None:
    """Whole sessions, one after another, until the deadline (the current one is finished).
    Every session's answers are its own texts (its number in them), as real clients' are: the
    server memoizes per-text work (the crisis scan), and a text seen before would cost less.
    Each session on a connection of its own (see the module's docstring)."""
    while time.perf_counter() < deadline:
        serial = next(_sessions_played)
        created = await call(client, tally, "create", "POST", "/api/ask/sessions", {})
        if created is None:
            return
        base = f"/api/ask/sessions/{created['_id']}"
        state = await call(client, tally, "state", "GET", f"{base}/state")
        answered = time.perf_counter()
        for number in range(40):
            state = await batch_awaited(client, tally, base, state, answered)
            card = (state or {}).get("current_card")
            if card is None or card["kind"] in ("completion", "last_thing"):
                break
            text = (
                f"It has been a heavy week at work, part {number} of {serial},"
                " and I keep avoiding it."
            )
            body = {"card_id": card["id"], "text": text}
            answered = time.perf_counter()
            state = await call(client, tally, "answer", "POST", f"{base}/answers", body)
        if state is None:
            return
        ended = await call(client, tally, "end", "POST", f"{base}/end", {})
        if ended is not None:
            finish = {"finish": True}
            await call(client, tally, "last-thing", "POST", f"{base}/last-thing", finish, LAST)


async def batch_awaited(client, tally: Tally, base: str, state, answered: float):
    """A client whose answer completed a batch waits for the cards as the app does: a long poll
    from the pending seq (the worker makes the batch). Tallies, as "answer → first card", the
    time from sending the answer to holding the card."""
    pending = (state or {}).get("pending")
    if not pending:
        return state
    waited = await call(
        client, tally, "long poll", "GET", f"{base}/state?wait=25&since={pending['since']}"
    )
    if waited is not None and waited.get("current_card"):
        tally.latencies["answer → first card"].append((time.perf_counter() - answered) * 1000)
    return waited


# The floor's requests per connection: about as many as a played session's.
FLOOR_PAIRS_PER_CONNECTION = 6


async def floor(client, tally: Tally, deadline: float) -> None:
    for pair in itertools.count(1):
        if time.perf_counter() >= deadline:
            return
        await call(client, tally, "floor GET", "GET", "/bench/floor")
        last = LAST if pair % FLOOR_PAIRS_PER_CONNECTION == 0 else None
        body = {"text": "one row"}
        await call(client, tally, "floor POST", "POST", "/bench/floor-post", body, last)


async def round_of(url: str, tokens: list[str], seconds: float, work) -> tuple[Tally, float]:
    import httpx2

    tally = Tally()
    limits = httpx2.Limits(max_connections=1, max_keepalive_connections=1)
    clients = [
        httpx2.AsyncClient(
            base_url=url,
            headers={"Authorization": f"Token {token}"},
            timeout=httpx2.Timeout(60.0),
            limits=limits,
        )
        for token in tokens
    ]
    started = time.perf_counter()
    try:
        await asyncio.gather(*(work(c, tally, started + seconds) for c in clients))
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    return tally, time.perf_counter() - started


def clients_with_tokens(count: int) -> list[str]:
    from django.contrib.auth.models import Group, User
    from knox.models import AuthToken

    from sessions_app.models import UserProfile

    group = Group.objects.get_or_create(name="client")[0]
    tokens = []
    for _ in range(count):
        user = User.objects.create_user(username=f"load-{uuid.uuid4().hex[:10]}")
        user.groups.add(group)
        UserProfile.objects.create(user=user, schedule_weekdays=[4])
        tokens.append(AuthToken.objects.create(user)[1])
    return tokens


def server_env(db_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench._load_settings",
        "DATABASE_URL": db_url,
        "DB_POOL": "1",
        "DB_POOL_MAX_SIZE": os.environ.get("DB_POOL_MAX_SIZE", "10"),
        "CHANNEL_PREFIX": f"naisei-load-{uuid.uuid4().hex[:8]}",
        "CHANNEL_LAYER": os.environ.get("CHANNEL_LAYER", "pubsub"),  # as make serve-prod
        "LOG_LEVEL": "WARNING",
    }


def serve(workers: int, db_url: str):
    import socket
    import subprocess
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "uvicorn", "bench._load_server:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    command += ["--lifespan", "off", "--no-access-log", "--no-proxy-headers"]
    command += ["--http", "config.uvicorn_http:H11NoDelayProtocol"]  # as make serve-prod
    log = open(ROOT / "bench" / f".load-server-{workers}.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(command, cwd=ROOT, env=server_env(db_url), stdout=log, stderr=log)
    # The worker beside it, as `make serve-prod` runs it: it makes the batches.
    worker_env = {**server_env(db_url), "DB_POOL": "0"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"], cwd=ROOT, env=worker_env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).close()
            return server, worker, url
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.2)
    server.kill()
    worker.kill()
    raise RuntimeError(f"the server did not start; see bench/.load-server-{workers}.log")


def database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s["PASSWORD"] else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def main() -> None:
    from django.db import connection

    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="1, 10, 50 clients, shorter rounds")
    parser.add_argument("--processes", type=int, nargs="+", help=f"default: {PROCESSES}")
    parser.add_argument("--clients", type=int, nargs="+", help=f"default: {CLIENTS}")
    args = parser.parse_args()
    sizes = tuple(args.clients or (QUICK_CLIENTS if args.quick else CLIENTS))
    processes = tuple(args.processes or PROCESSES)
    play_s, floor_s = (8.0, 4.0) if args.quick else (20.0, 8.0)
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        print("bench/load.py needs DATABASE_URL=postgres://… and REDIS_URL: skipped")
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_load_floor (id bigserial PRIMARY KEY, user_id integer,"
            " body text, created_at timestamptz DEFAULT now())"
        )
    connection.close()
    moment = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"P8 load — {moment}, {os.cpu_count()} cores, PostgreSQL + Redis, offline engine")
    print(f"each round: {play_s:.0f} s of whole sessions, then {floor_s:.0f} s of the floor")
    results: dict[tuple[int, int], dict] = {}
    rows = []
    for workers in processes:
        server, worker, url = serve(workers, database_url())
        try:
            for n in sizes:
                tokens = clients_with_tokens(n)
                connection.close()
                before = cpu_snapshot(server.pid)
                played, elapsed = asyncio.run(round_of(url, tokens, play_s, play))
                spent = cpu_spent(before, cpu_snapshot(server.pid))
                floored, floor_elapsed = asyncio.run(round_of(url, tokens, floor_s, floor))
                answers = len(played.latencies["answer"])
                result = {
                    "answers/s": answers / elapsed,
                    "floor POST/s": len(floored.latencies["floor POST"]) / floor_elapsed,
                    "lat": {**played.latencies, **floored.latencies},
                    "errors": {**played.errors, **floored.errors},
                    # CPU ms per answer of the played round, each side (the other requests
                    # of the sessions — create, state, end — included).
                    "cpu": {side: 1000 * v / max(answers, 1) for side, v in spent.items()},
                    "busy": spent["machine"] / elapsed / (os.cpu_count() or 1),
                }
                results[workers, n] = result
                endpoints = ("answer", "answer → first card", "long poll", "state", "create")
                for endpoint in (*endpoints, "end", "floor GET", "floor POST"):
                    values = result["lat"].get(endpoint, [])
                    rows.append(
                        (
                            workers,
                            n,
                            endpoint,
                            len(values),
                            f"{pct(values, 0.5):.0f}",
                            f"{pct(values, 0.95):.0f}",
                            f"{pct(values, 0.99):.0f}",
                        )
                    )
                errors = sum(result["errors"].values())
                detail = ", ".join(f"{k}: {v}" for k, v in sorted(result["errors"].items()))
                cpu = result["cpu"]
                print(
                    f"  {workers} process(es), {n:>3} clients: {result['answers/s']:.1f} answers/s,"
                    f" floor {result['floor POST/s']:.1f} POST/s, errors {errors}"
                    + (f" ({detail})" if detail else "")
                    + f"; CPU ms per answer: server {cpu['server']:.1f}, PostgreSQL"
                    f" {cpu['postgres']:.1f}, clients {cpu['clients']:.1f}, machine"
                    f" {cpu['machine']:.1f} ({result['busy']:.0%} of the cores busy)"
                )
        finally:
            for process in (server, worker):
                process.terminate()
                process.wait(timeout=30)
    print(table(rows, ("procs", "clients", "endpoint", "requests", "p50 ms", "p95 ms", "p99 ms")))
    if processes == PROCESSES and {1, 10} <= set(sizes):
        print_targets(results, sizes)


def print_targets(results: dict, sizes: tuple[int, ...]) -> None:
    def lat(key, endpoint, q):
        return pct(results[key]["lat"].get(endpoint, []), q)

    top = sizes[-1]
    print("targets (measured → target):")
    for workers in PROCESSES:
        errors = sum(results[workers, top]["errors"].values())
        print(f"  errors at {top} clients, {workers} process(es): {errors} → 0")
    for workers in PROCESSES:
        r = results[workers, 10]
        share = r["answers/s"] / r["floor POST/s"]
        print(
            f"  answers/s at 10 clients / one-row POSTs/s, {workers} process(es):"
            f" {r['answers/s']:.1f} / {r['floor POST/s']:.1f} = {share:.2f} → ≥ 0.33"
        )
    cores = os.cpu_count() or 1
    for n in sizes[1:]:
        gain = results[2, n]["answers/s"] / results[1, n]["answers/s"]
        # What the cores allow: one process runs its Python on one core at a time (the GIL),
        # and all sides together have `cores`; the second process can only add up to that.
        cpu = results[1, n]["cpu"]
        one = min(1000 / cpu["server"], cores * 1000 / cpu["machine"])
        two = min(2 * 1000 / cpu["server"], cores * 1000 / cpu["machine"])
        print(
            f"  answers/s with 2 processes / 1, at {n} clients: {gain:.2f}× → ≥ 1.7×"
            f" (the {cores} cores allow {two / one:.2f}×: server {cpu['server']:.1f} of"
            f" {cpu['machine']:.1f} CPU ms per answer)"
        )
    for workers in PROCESSES:
        answer, post = lat((workers, 1), "answer", 0.5), lat((workers, 1), "floor POST", 0.5)
        print(
            f"  answer p50 / one-row POST p50 at 1 client, {workers} process(es):"
            f" {answer:.0f} / {post:.0f} ms = {answer / post:.2f}× → ≤ 2×"
        )
    if 50 in sizes:
        for workers in PROCESSES:
            answer, base = lat((workers, 50), "answer", 0.99), lat((workers, 50), "floor GET", 0.99)
            print(
                f"  answer p99 / floor GET p99 at 50 clients, {workers} process(es):"
                f" {answer:.0f} / {base:.0f} ms = {answer / base:.2f}× → ≤ 3×"
            )


if __name__ == "__main__":
    with bench_database():
        main()
