"""Done CBT homework and its entries are part of what the psychologist reads."""

from __future__ import annotations

import pytest
from django.utils import timezone

from psychologist.analysis import analysis_context
from psychologist.prompt import offline_context, system_blocks
from sessions_app.engine.services import EntriesChange, task_accept, task_done, task_entries_update
from tests import factories

pytestmark = pytest.mark.django_db


def test_done_homework_with_its_entries_is_in_the_analysis_context(alice):
    earlier = factories.AskSessionFactory(user=alice)
    task = task_accept(task=factories.TaskFactory(session=earlier), by=alice)
    change = EntriesChange({"automatic_thought": "They will laugh at me", "intensity": 85})
    task_entries_update(task=task, by=alice, change=change)
    task_done(task=task, by=alice, completion_note="It was lighter afterwards")
    factories.TaskFactory(session=earlier)  # proposed, never done: not read
    session = factories.AskSessionFactory(user=alice, ended_at=timezone.now())
    factories.SessionEventFactory(session=session, type="session.closed")

    context = analysis_context(session=session)

    [done] = context.homework
    assert done["task_id"] == str(task.pk)
    assert done["entries"]["automatic_thought"] == "They will laugh at me"
    assert done["rating_before"] == 85
    session_block = system_blocks(context)[-1]
    assert "CBT homework the client did between sessions" in session_block
    assert "They will laugh at me" in session_block
    assert "It was lighter afterwards" in session_block
    assert offline_context(context)["homework"][0]["kind"] == "thought_record"


def test_without_homework_the_prompt_says_nothing_of_it(alice):
    session = factories.AskSessionFactory(user=alice, ended_at=timezone.now())
    context = analysis_context(session=session)
    assert context.homework == ()
    assert "homework" not in system_blocks(context)[-1]
