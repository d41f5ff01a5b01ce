"""At most `REQUESTS_RUNNING` requests run at a time per process; the others wait their turn
(docs/decisions/0006-bounded-work-per-process.md).

Under ASGI, Django runs every request in a thread of its own, and a process runs Python in one
thread at a time (the GIL). Beyond the few requests that keep it busy — one computing while
others wait on PostgreSQL — more threads only take turns with each other: each request gets
slower, and the process spends more CPU on every request switching between them. Measured with
`bench/load.py`, one process: 33.7 ms of server CPU per answer at one client, 45.6 ms at fifty.
With a bound, the extra requests wait on a semaphore before they start, in their own thread and
costing nothing, and start in arrival order.

A request that waits on something other than this process's Python gives its slot back
meanwhile (`waiting()`): a model's network call (the LLM layer's `network_waits`, set here for
the request; the offline engine is Python and keeps its slot) and a password hash (C code that
runs beside the GIL). Neither happens inside a transaction, and nothing may: the slot is taken
again after the wait, behind the requests queued meanwhile, and those must not be waiting on a
lock the waiting request holds.

The body was read before (Django's ASGI handler reads it in the event loop), so a slow upload
holds no slot. Websockets are not requests here: their consumers are not bounded by it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from psychologist.llm.waits import network_waits

_semaphores: dict[tuple[str, int], threading.BoundedSemaphore] = {}
_semaphores_lock = threading.Lock()
# The slot the current request holds, if any: `waiting()` outside a request does nothing.
_held: ContextVar[threading.BoundedSemaphore | None] = ContextVar("request_slot", default=None)


def process_slots(name: str, size: int) -> threading.BoundedSemaphore:
    """The process's `size` slots for `name` (one set per size: tests change the settings)."""
    with _semaphores_lock:
        return _semaphores.setdefault((name, size), threading.BoundedSemaphore(size))


@contextmanager
def running() -> Iterator[None]:
    """Hold one of the process's running slots for the block (waiting for one first)."""
    slots = process_slots("requests", settings.REQUESTS_RUNNING)
    slots.acquire()
    token = _held.set(slots)
    try:
        yield
    finally:
        _held.reset(token)
        slots.release()


@contextmanager
def waiting() -> Iterator[None]:
    """Give the current request's slot back for the block, and take one again after it."""
    slots = _held.get()
    if slots is None:
        yield
        return
    slots.release()
    try:
        yield
    finally:
        slots.acquire()


class RequestsRunningMiddleware:
    """The bound, first in MIDDLEWARE: the whole request runs inside its slot."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        with running():
            token = network_waits.set(waiting)
            try:
                return self.get_response(request)
            finally:
                network_waits.reset(token)
