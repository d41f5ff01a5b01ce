"""Threads released at once, for the PostgreSQL tests that prove a transition survives a race."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def race[T](jobs: list[Callable[[], T]]) -> tuple[list[T], list[BaseException]]:
    """Run each job in a thread of its own, all released together by one barrier.

    Returns what the jobs returned (in the order they finished) and what they raised: a thread
    must not swallow a failure, so the caller surfaces it. Each thread closes its own database
    connections, or the test database could not be dropped afterwards."""
    barrier = threading.Barrier(len(jobs))
    lock = threading.Lock()
    results: list[T] = []
    errors: list[BaseException] = []

    def run(job: Callable[[], T]) -> None:
        try:
            barrier.wait()
            result = job()
            with lock:
                results.append(result)
        except BaseException as exc:  # surfaced by the caller
            with lock:
                errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors
