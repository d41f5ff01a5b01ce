"""Property: whatever the sequence of append / fork / switch / spin-off, the prompt is exactly the
active workline's root → head path, and the tree keeps every message ever written."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.engine.graph import tree as graph
from sessions_app.engine.services import spin_off_decide, spin_off_propose
from sessions_app.errors import ApplicationError
from sessions_app.models import AskMessage, Workline
from tests import factories

index = st.integers(min_value=0, max_value=50)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.booleans()),
        st.tuples(st.just("fork"), index),
        st.tuples(st.just("create"), st.just(0)),
        st.tuples(st.just("switch"), index),
        st.tuples(st.just("spin"), index, index, index, st.booleans()),
    ),
    max_size=30,
)


class Model:
    """What each workline's path must be, kept independently of the tree walk."""

    def __init__(self, session) -> None:
        self.session = session
        main = graph.workline_ensure_main(session=session)
        self.paths: dict[int, list[int]] = {main.pk: []}
        self.active = main.pk
        self.written: set[int] = set()

    def apply(self, op: tuple) -> None:
        getattr(self, op[0])(*op[1:])

    def append(self, from_client: bool) -> None:
        role = AskMessage.Role.CLIENT if from_client else AskMessage.Role.NARRATOR
        text = f"message {len(self.written)}"
        message = graph.message_append(session=self.session, role=role, kind="text", text=text)
        self.paths[self.active].append(message.pk)
        self.written.add(message.pk)

    def fork(self, i: int) -> None:
        path = self.paths[self.active]
        if path:
            at = i % len(path)
            graph.message_fork(
                session=self.session, from_message=AskMessage.objects.get(pk=path[at])
            )
            self.paths[self.active] = path[: at + 1]

    def create(self, _: int) -> None:
        workline = graph.workline_create(session=self.session, name=f"line {len(self.paths)}")
        self.paths[workline.pk] = []
        self.active = workline.pk

    def switch(self, i: int) -> None:
        target = sorted(self.paths)[i % len(self.paths)]
        graph.workline_activate(session=self.session, workline=Workline.objects.get(pk=target))
        self.active = target

    def spin(self, i: int, j: int, t: int, agreed: bool) -> None:
        path = self.paths[self.active]
        if not path:
            return
        start, end = sorted((i % len(path), j % len(path)))
        others = sorted(w for w in self.paths if w != self.active)
        target = Workline.objects.get(pk=others[t % len(others)]) if others and t % 3 else None
        try:
            proposal = spin_off_propose(
                session=self.session,
                from_message=AskMessage.objects.get(pk=path[start]),
                to_message=AskMessage.objects.get(pk=path[end]),
                target_workline=target,
                new_workline_name="" if target else f"spun {len(self.paths)}",
            )
            spin_off_decide(proposal=proposal, agreed=agreed)
        except ApplicationError:
            return  # a refused move changes nothing: the invariants below prove it
        if agreed:
            moved = path[start : end + 1]
            target_id = proposal.target_id
            self.paths[target_id] = self.paths.get(target_id, []) + moved
            marker = AskMessage.objects.filter(session=self.session).latest("id").pk
            self.written.add(marker)
            self.paths[self.active] = path[:start] + path[end + 1 :] + [marker]


def expected_prompt(ids: list[int]) -> list[dict[str, str]]:
    by_id = AskMessage.objects.in_bulk(ids)
    prompt: list[dict[str, str]] = []
    for message in (by_id[i] for i in ids):
        role = "user" if message.role == AskMessage.Role.CLIENT else "assistant"
        if prompt and prompt[-1]["role"] == role:
            prompt[-1]["content"] += "\n\n" + message.text
        else:
            prompt.append({"role": role, "content": message.text})
    return prompt


@pytest.mark.django_db
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations)
def test_the_prompt_is_always_the_active_path_and_nothing_is_lost(ops):
    session = factories.ActiveSessionFactory()
    model = Model(session)
    for op in ops:
        model.apply(op)
        session.refresh_from_db()
        messages = graph.session_messages(session)
        for workline in Workline.objects.filter(session=session):
            got = [m.pk for m in graph.workline_path(workline, messages=messages)]
            assert got == model.paths[workline.pk], f"path of {workline.name} after {op}"
        assert session.active_workline_id == model.active
        prompt = graph.materialize(session, budget_tokens=10**6).messages
        assert prompt == expected_prompt(model.paths[model.active])
        assert set(messages) == model.written
