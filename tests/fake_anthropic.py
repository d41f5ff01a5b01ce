"""A local fake of the Anthropic Messages API, good enough for the real `anthropic` SDK.

Tests queue replies (answers and faults) and read back every request body received. Usage is
simulated like the real API's cache breakpoints, per model: the longest prefix that an earlier
request wrote at one of its `cache_control` marks (and that ends at most LOOKBACK blocks before a
mark of this request) is read from the cache, the rest up to the last mark is written to it, and
`input_tokens` counts what follows the last mark.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ids = itertools.count(1)
LOOKBACK = 20  # blocks before a breakpoint at which the real API still finds a cache hit


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] | bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    # For answers: content blocks and stop reason; usage is simulated unless given.
    content: list[dict[str, Any]] | None = None
    stop_reason: str = "end_turn"
    usage: dict[str, int] | None = None


def tool_use(name: str, data: dict[str, Any], **kwargs: Any) -> Reply:
    block = {"type": "tool_use", "id": f"toolu_{next(_ids):04d}", "name": name, "input": data}
    return Reply(content=[block], stop_reason=kwargs.pop("stop_reason", "tool_use"), **kwargs)


def text(value: str, **kwargs: Any) -> Reply:
    return Reply(content=[{"type": "text", "text": value}], **kwargs)


def fault(
    status: int, *, retry_after: float | None = None, retry_after_ms: int | None = None
) -> Reply:
    kinds = {429: "rate_limit_error", 529: "overloaded_error", 500: "api_error"}
    headers = {}
    if retry_after is not None:
        headers["retry-after"] = str(retry_after)
    if retry_after_ms is not None:
        headers["retry-after-ms"] = str(retry_after_ms)
    error = {"type": kinds.get(status, "api_error"), "message": f"fake fault {status}"}
    return Reply(status=status, body={"type": "error", "error": error}, headers=headers)


def malformed() -> Reply:
    return Reply(body=b'{"id": "msg_broken", "type": "message", "content": [')


def slow(seconds: float, then: Reply | None = None) -> Reply:
    reply = then or text("late")
    reply.delay = seconds
    return reply


def estimate(value: Any) -> int:
    return -(-len(json.dumps(value, ensure_ascii=False)) // 4)


class FakeAnthropic:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.replies: deque[Reply] = deque()
        # Replies for requests that force one tool, whatever the order of the calls.
        self.replies_for_tool: dict[str, deque[Reply]] = {}
        # Called with each request body as it arrives, on the server's thread (what the caller
        # had committed by then, for instance).
        self.on_request: Callable[[dict[str, Any]], None] | None = None
        self.cached_prefixes: set[str] = set()
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self.replies.extend(replies)

    def queue_for_tool(self, tool: str, *replies: Reply) -> None:
        """Replies to the requests whose `tool_choice` forces `tool`, before the common queue."""
        with self._lock:
            self.replies_for_tool.setdefault(tool, deque()).extend(replies)

    def wait_for_requests(self, count: int, *, timeout: float) -> bool:
        """Block until `count` requests have arrived (from any process); False on timeout."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.requests) >= count, timeout)

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        if self.on_request is not None:
            self.on_request(body)
        with self._lock:
            self.requests.append(body)
            self._arrived.notify_all()
            forced = (body.get("tool_choice") or {}).get("name")
            if self.replies_for_tool.get(forced):
                return self.replies_for_tool[forced].popleft()
            if self.replies:
                return self.replies.popleft()
        # Nothing scripted: a loud, non-retryable error rather than a silent default.
        reply = fault(500)
        reply.headers["x-should-retry"] = "false"
        return reply

    def answer(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": f"msg_{next(_ids):06d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "unknown"),
            "content": reply.content or [],
            "stop_reason": reply.stop_reason,
            "stop_sequence": None,
            "usage": reply.usage or self._usage(body, reply),
        }

    def _usage(self, body: dict[str, Any], reply: Reply) -> dict[str, int]:
        blocks, marks = _in_cache_order(body)
        sizes = [estimate(block) for block in blocks]
        plain = [_unmarked(block) for block in blocks]
        # A cache belongs to one model: another model never reads what this one wrote.
        model = str(body.get("model"))

        def key(end: int) -> str:
            return model + json.dumps(plain[: end + 1], sort_keys=True)

        # Like the real API: a hit may end at any block boundary up to LOOKBACK blocks before a
        # breakpoint (so last turn's marked history is read), and writes happen at breakpoints.
        candidates = {i for mark in marks for i in range(max(0, mark - LOOKBACK), mark + 1)}
        with self._lock:
            hits = [i for i in candidates if key(i) in self.cached_prefixes]
            self.cached_prefixes.update(key(mark) for mark in marks)
        cached = sum(sizes[: marks[-1] + 1]) if marks else 0
        read = sum(sizes[: max(hits) + 1]) if hits else 0
        return {
            "input_tokens": sum(sizes) - cached,
            "output_tokens": estimate(reply.content or []),
            "cache_creation_input_tokens": cached - read,
            "cache_read_input_tokens": read,
        }

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.split("?")[0] != "/v1/messages":
                    self._send(404, {"type": "error", "error": {"type": "not_found_error"}}, {})
                    return
                reply = fake._next_reply(body)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body if reply.body is not None else fake.answer(reply, body)
                self._send(reply.status, payload, reply.headers)

            def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
                raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(raw)))
                    self.send_header("request-id", f"req_{next(_ids):06d}")
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # The client gave up (a timeout test): nothing to answer.

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def _unmarked(block: Any) -> Any:
    if isinstance(block, dict) and "cache_control" in block:
        return {key: value for key, value in block.items() if key != "cache_control"}
    return block


def _in_cache_order(body: dict[str, Any]) -> tuple[list[Any], list[int]]:
    """The request's blocks in cache order (tools, system, messages) and the positions of the
    blocks that carry a `cache_control` mark."""
    blocks: list[Any] = list(body.get("tools") or [])
    system = body.get("system") or []
    blocks += [system] if isinstance(system, str) else list(system)
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks += [content] if isinstance(content, str) else list(content or [])
    marks = [i for i, b in enumerate(blocks) if isinstance(b, dict) and "cache_control" in b]
    return blocks, marks
