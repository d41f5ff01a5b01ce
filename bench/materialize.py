"""QUALITY P2: what an LLM call is sent. Only the active branch, compacted within the budget.

Prints tokens sent (materialized active branch) against the naive prompt that would send the
whole message log, for a linear session and for one with 10 parked worklines, and the input
tokens at turns 25/50/100 of a long session with compaction against the configured budget.
"""

from __future__ import annotations

from _django import bench_database, table


def grow(session, n: int, prefix: str) -> None:
    from sessions_app.engine import graph
    from sessions_app.models import AskMessage, Workline

    workline = graph.workline_ensure_main(session=session)
    workline.refresh_from_db()
    parent = workline.head
    for i in range(n):
        card = i % 2 == 0
        parent = AskMessage.objects.create(
            session=session,
            workline=workline,
            parent=parent,
            role="narrator" if card else "client",
            kind="question_card" if card else "answer",
            text=f"{prefix} {'question' if card else 'answer'} {i // 2}: "
            + (
                "what did you notice about your evening and how you felt afterwards?"
                if card
                else (
                    "I noticed I calmed down after a walk, though thoughts about work came "
                    "back later in the evening. I kept replaying the meeting, what my manager "
                    "said and how I answered, and I wondered whether the others saw it too."
                )
            ),
        )
    Workline.objects.filter(pk=workline.pk).update(head=parent)
    session.refresh_from_db()


def naive_tokens(session) -> int:
    from sessions_app.engine.graph import message_tokens
    from sessions_app.models import AskMessage

    return sum(
        message_tokens(t)
        for t in AskMessage.objects.filter(session=session).values_list("text", flat=True)
    )


def main() -> None:
    from django.conf import settings

    from sessions_app.engine import graph
    from tests import factories

    linear = factories.ActiveSessionFactory()
    grow(linear, 20, "main")
    crowded = factories.ActiveSessionFactory()
    grow(crowded, 20, "main")
    main_line = crowded.active_workline
    for n in range(10):
        graph.workline_create(session=crowded, name=f"side {n}")
        grow(crowded, 20, f"side {n}")
    graph.workline_activate(session=crowded, workline=main_line)
    crowded.refresh_from_db()

    rows = []
    for name, session in (("linear, 20 messages", linear), ("20 active + 10×20 parked", crowded)):
        result = graph.materialize(session)
        naive = naive_tokens(session)
        rows.append(
            (
                name,
                len(result.messages),
                result.input_tokens,
                naive,
                f"{naive / result.input_tokens:.1f}×",
            )
        )
    same = graph.materialize(linear).messages == graph.materialize(crowded).messages
    print("P2 — tokens sent vs the naive whole-log prompt")
    print(table(rows, ("session", "messages[]", "tokens sent", "naive tokens", "naive / sent")))
    print(f"messages[] of the crowded session identical to the linear one: {same}\n")

    budget = settings.LLM_CONTEXT_BUDGET_TOKENS
    long = factories.ActiveSessionFactory()
    rows = []
    for turn in range(1, 101):
        grow(long, 2, f"turn {turn}")
        result = graph.materialize(long)
        if turn in (10, 25, 50, 100):
            rows.append(
                (
                    turn,
                    naive_tokens(long),
                    result.input_tokens,
                    budget,
                    "yes" if result.compacted else "no",
                )
            )
    print("P2 — compaction over a long session")
    print(table(rows, ("turn", "naive tokens", "tokens sent", "budget", "compacted")))


if __name__ == "__main__":
    with bench_database():
        main()
