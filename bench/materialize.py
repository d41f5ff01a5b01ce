"""QUALITY P2: what an LLM call is sent. Only the active branch, compacted within the budget.

Prints tokens sent (materialized active branch) against the naive prompt that would send the
whole message log, for a linear session and for one with 10 parked worklines, and the input
tokens at turns 25/50/100 of a long session with compaction against the configured budget.
"""

from __future__ import annotations

from _django import bench_database, table

# Texts as long as a real session's, so the token counts mean something.
PADDING = {
    "question": "what did you notice about your evening and how you felt afterwards?",
    "answer": (
        "I noticed I calmed down after a walk, though thoughts about work came "
        "back later in the evening. I kept replaying the meeting, what my manager "
        "said and how I answered, and I wondered whether the others saw it too."
    ),
}


def naive_tokens(session) -> int:
    from sessions_app.engine.graph.tree import message_tokens
    from sessions_app.models import AskMessage

    return sum(
        message_tokens(t)
        for t in AskMessage.objects.filter(session=session).values_list("text", flat=True)
    )


def main() -> None:
    from django.conf import settings

    from sessions_app.engine.graph import tree as graph
    from tests import factories
    from tests.sessions_app.graph_support import crowded_session, grow

    linear = factories.ActiveSessionFactory()
    grow(linear, 20, "main", **PADDING)
    crowded = crowded_session(**PADDING)

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
        grow(long, 2, f"turn {turn}", **PADDING)
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
