"""Password checks, at most `PASSWORD_CHECKS_CONCURRENT` at a time per process
(docs/decisions/0006-bounded-work-per-process.md).

A password hash is deliberately slow CPU work (PBKDF2, ~1M rounds): a burst of sign-ins run
all at once, one thread each, shares the cores between every one of them, so each takes as long
as the whole burst and every other request (answers, pages) starves with them. Bounded to about
one check per core, the burst queues instead: sign-ins finish one after another at the hasher's
own speed, and the rest of the server keeps its share. The hasher's cost is unchanged. A
sign-in waiting for a check, or hashing (C code beside the GIL), holds no running slot
(`running.waiting`): the other requests run meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from sessions_app.edge.running import process_slots, waiting


@contextmanager
def password_check() -> Iterator[None]:
    """Hold one of the process's password-check slots for the duration of the block."""
    slots = process_slots("password checks", settings.PASSWORD_CHECKS_CONCURRENT)
    with waiting(), slots:
        yield
