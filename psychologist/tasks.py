"""django-q entry points of the psychologist. Ids in, services do the work."""

from __future__ import annotations

from functools import partial

from django.db import transaction

from psychologist.analysis import analysis_perform


def analysis_run(request_id: int) -> None:
    if transaction.get_connection().in_atomic_block:
        # Only in sync mode (tests, Q_SYNC) does django-q run a task inline, inside the
        # transaction that enqueued it. The analysis calls an LLM, which must never hold a
        # transaction open, so it waits for the commit — and never runs if the close rolls back.
        transaction.on_commit(partial(analysis_perform, request_id=request_id), robust=True)
        return
    analysis_perform(request_id=request_id)
