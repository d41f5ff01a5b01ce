"""One client reaches the model provider under one opaque id, whichever agent speaks of them
(SPEC §7): the Analyst and Narrator on a turn, the summarizer of an abandoned session, and the
psychologist. Read from the request bodies the fake Messages API received."""

from __future__ import annotations

import re

import pytest

from psychologist.schemas import EMIT_HYPOTHESES_TOOL
from sessions_app.engine.agents.schemas import ANALYST_TOOL, NARRATOR_TOOL, SUMMARY_TOOL
from sessions_app.jobs import lifecycle
from tests import fake_anthropic as fake
from tests.engine.conftest import answer
from tests.engine.test_anthropic_engine import ANALYST, NARRATOR
from tests.psychologist.builders import event_ids, hypothesis_data, session_close, session_with_log

pytestmark = pytest.mark.django_db


def emit(session):
    batch = [hypothesis_data(event_ids(session)[-1:], statement="Stress at work came up.")]
    return fake.tool_use(EMIT_HYPOTHESES_TOOL, {"hypotheses": batch})


def test_the_analyst_the_summarizer_and_the_psychologist_send_the_same_opaque_id(
    session, alice, charlie, fake_anthropic, django_capture_on_commit_callbacks
):
    summary = {"summary": "Work stress.", "key_insights": [], "cbt_techniques_used": []}
    fake_anthropic.queue(
        fake.tool_use(ANALYST_TOOL, ANALYST),
        fake.tool_use(NARRATOR_TOOL, NARRATOR),
        fake.tool_use(SUMMARY_TOOL, summary),
    )
    answer(session, "Work stress")
    lifecycle.partial_summary_compose(session)
    fake_anthropic.queue(emit(session))
    with django_capture_on_commit_callbacks(execute=True):
        session_close(session)

    ids = [body["metadata"]["user_id"] for body in fake_anthropic.requests]
    assert len(ids) == 4
    assert len(set(ids)) == 1
    assert re.fullmatch(r"[0-9a-f]{24}", ids[0])
    # And another client is another id.
    other = session_with_log(user=charlie, answers=["Hi."])
    fake_anthropic.queue(emit(other))
    with django_capture_on_commit_callbacks(execute=True):
        session_close(other)
    assert fake_anthropic.requests[-1]["metadata"]["user_id"] != ids[0]
