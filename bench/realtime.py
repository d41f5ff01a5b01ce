"""QUALITY P5: latency from an event append to its arrival at 100 concurrent websocket watchers.

One ASGI process (daphne) with the channels-redis layer serves the watchers; this process opens
100 token-authenticated websockets to one session (a minimal asyncio client below), a child
process appends events through the event service, one every few milliseconds, and each append
is timed to each arrival on one clock (CLOCK_MONOTONIC). It prints figures and never asserts
them: timings on a shared 2-core machine are noisy.

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/realtime.py [--events 200]

The database is a fresh SQLite file in a temporary folder (BENCH_DATABASE_URL overrides it);
Redis comes from REDIS_URL (default redis://127.0.0.1:6379/15).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--interval-ms", type=float, default=25.0, help="pause between appends")
    return parser.parse_args()


DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


def environment(database_url: str, redis_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        # Every watcher is the same user here; the per-user bound would close all but 20.
        "WEBSOCKETS_PER_USER": "100000",
    }


def start_daphne(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        server = subprocess.Popen(
            [*DAPHNE, "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"daphne exited:\n{log.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2).close()
            return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("daphne did not start")


def setup_session() -> tuple[Any, str]:
    """A client with a knox token and one active session, in the bench database."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from knox.models import AuthToken

    from sessions_app.services import session_create

    count = get_user_model().objects.filter(username__startswith="bench-client").count()
    client = get_user_model().objects.create_user(f"bench-client-{count}")
    client.groups.add(Group.objects.get_or_create(name="client")[0])
    session = session_create(owner=client, actor=client)
    return session, AuthToken.objects.create(client)[1]


class Watcher:
    """A minimal websocket client (RFC 6455, text frames only) on asyncio streams.

    autobahn's asyncio client cannot run here: Django's set-up imports daphne, which binds
    autobahn's txaio to Twisted for the whole process.
    """

    def __init__(self) -> None:
        self.arrivals: dict[int, float] = {}

    async def connect(self, port: int, path: str, protocols: list[str]) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Protocol: {', '.join(protocols)}\r\n\r\n"
        )
        self.writer.write(request.encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"handshake refused: {head[:80]!r}")

    async def listen(self) -> None:
        while True:
            first, second = await self.reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(await self.reader.readexactly(2), "big")
            elif length == 127:
                length = int.from_bytes(await self.reader.readexactly(8), "big")
            payload = await self.reader.readexactly(length)
            opcode = first & 0x0F
            if opcode == 0x1:
                self.arrivals[json.loads(payload)["seq"]] = time.perf_counter()
            elif opcode == 0x9:  # ping → pong (client frames are masked)
                self.send(0xA, payload)
            elif opcode == 0x8:
                return

    def send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.writer.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def close(self) -> None:
        self.send(0x8, (1000).to_bytes(2, "big"))
        self.writer.close()


async def open_watchers(port: int, session: Any, token: str, count: int) -> list[Watcher]:
    watchers = [Watcher() for _ in range(count)]
    path = f"/ws/sessions/{session.pk}/"
    protocols = ["naisei.v1", f"naisei.token.{token}"]
    await asyncio.gather(*(w.connect(port, path, protocols) for w in watchers))
    for watcher in watchers:
        asyncio.create_task(watcher.listen())  # noqa: RUF006  (they end with the run)
    return watchers


def append_events(session_id: str, count: int, interval: float) -> dict[int, float]:
    """Runs in a process of its own, so that appending never holds the watchers' GIL.

    `time.perf_counter` is CLOCK_MONOTONIC on Linux: one clock for every process.
    """
    import django

    django.setup()
    from sessions_app.events import event_append
    from sessions_app.models import AskSession

    session = AskSession.objects.get(pk=session_id)
    sent: dict[int, float] = {}
    for n in range(count):
        started = time.perf_counter()
        event = event_append(session=session, type="card.dealt", payload={"n": n})
        sent[event.seq] = started
        time.sleep(interval)
    return sent


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(port: int, args: argparse.Namespace) -> None:
    from asgiref.sync import sync_to_async

    session, token = await sync_to_async(setup_session)()
    watchers = await open_watchers(port, session, token, args.watchers)
    await asyncio.sleep(0.5)  # every consumer has joined the group
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        sent = await asyncio.get_running_loop().run_in_executor(
            pool, append_events, str(session.pk), args.events, args.interval_ms / 1000
        )
    await asyncio.sleep(1.0)
    latencies = [
        (arrived - sent[seq]) * 1000
        for watcher in watchers
        for seq, arrived in watcher.arrivals.items()
        if seq in sent
    ]
    last_per_event = [
        max((w.arrivals[seq] - started) * 1000 for w in watchers if seq in w.arrivals)
        for seq, started in sent.items()
        if any(seq in w.arrivals for w in watchers)
    ]
    expected = len(sent) * len(watchers)
    for watcher in watchers:
        watcher.close()
    print(f"watchers: {len(watchers)}  events: {len(sent)}  interval: {args.interval_ms} ms")
    print(f"deliveries: {len(latencies)} of {expected}")
    rows = [
        ("append → arrival, median (all deliveries)", statistics.median(latencies)),
        ("append → arrival, p95 (all deliveries)", percentile(latencies, 0.95)),
        ("append → last of the watchers, median", statistics.median(last_per_event)),
        ("append → last of the watchers, p95", percentile(last_per_event, 0.95)),
    ]
    print(f"| {'figure':<43} | {'ms':>7} |")
    print(f"|{'-' * 45}|{'-' * 9}|")
    for label, value in rows:
        print(f"| {label:<43} | {value:7.2f} |")
    print("P5 target: median ≤ 20 ms (reported, not asserted)")


def main() -> None:
    args = parse_args()
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    if not redis_reachable(redis_url):
        raise SystemExit(f"bench/realtime.py needs Redis (channels-redis); none at {redis_url}")
    with tempfile.TemporaryDirectory(prefix="naisei-bench-") as folder:
        database_url = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{folder}/bench.sqlite3"
        env = environment(database_url, redis_url)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        os.environ.update(env)
        import django

        django.setup()
        # Side by side in one run: the pub/sub layer (make serve-prod's) and the core layer.
        for layer in ("pubsub", "core"):
            print(f"-- channel layer: {layer} (CHANNEL_LAYER={layer})")
            port = free_port()
            layer_env = {**env, "CHANNEL_LAYER": layer}
            os.environ["CHANNEL_LAYER"] = layer  # the appending child process's layer too
            server = start_daphne(layer_env, port, Path(folder) / f"daphne-{layer}.log")
            try:
                asyncio.run(measure(port, args))
            finally:
                server.terminate()
                server.wait(timeout=10)


if __name__ == "__main__":
    main()
