"""django-q entry points of the psychologist. Ids in, services do the work."""

from __future__ import annotations

from psychologist.analysis import analysis_perform


def analysis_run(request_id: int) -> None:
    analysis_perform(request_id=request_id)
