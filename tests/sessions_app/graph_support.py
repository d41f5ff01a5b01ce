"""Builders shared by the graph tests (`test_graph.py`) and `bench/materialize.py`: sessions with
more messages than the append service would let one session hold."""

from __future__ import annotations

from sessions_app.engine.graph import tree as graph
from sessions_app.models import AskMessage, AskSession, Workline
from tests import factories


def grow(session: AskSession, n: int, prefix: str, *, question: str = "", answer: str = "") -> None:
    """n messages (card, answer, …) under the active head, written as rows: the prompts measured
    hold more messages than the per-session limit lets the append service write. `question` and
    `answer` pad the texts where a token count should look like a real session's."""
    workline = graph.workline_ensure_main(session=session)
    workline.refresh_from_db()
    parent = workline.head
    for i in range(n):
        is_card = i % 2 == 0
        text = f"{prefix} {'question' if is_card else 'answer'} {i // 2}"
        padding = question if is_card else answer
        parent = factories.AskMessageFactory(
            session=session,
            workline=workline,
            parent=parent,
            role=AskMessage.Role.NARRATOR if is_card else AskMessage.Role.CLIENT,
            kind=AskMessage.Kind.QUESTION_CARD if is_card else AskMessage.Kind.ANSWER,
            text=f"{text}: {padding}" if padding else text,
        )
    Workline.objects.filter(pk=workline.pk).update(head=parent)
    session.refresh_from_db()


def crowded_session(*, question: str = "", answer: str = "") -> AskSession:
    """20 messages on the active main workline beside 10 parked worklines of 20 (QUALITY P2)."""
    session = factories.ActiveSessionFactory()
    grow(session, 20, "main", question=question, answer=answer)
    main = session.active_workline
    for n in range(10):
        graph.workline_create(session=session, name=f"side {n}")
        grow(session, 20, f"side {n}", question=question, answer=answer)
    graph.workline_activate(session=session, workline=main)
    session.refresh_from_db()
    return session
