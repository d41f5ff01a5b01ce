from __future__ import annotations

from typing import Any

import pytest

from psychologist.llm.budget import clip_middle, estimate_tokens, truncate_middle
from psychologist.llm.service import complete
from sessions_app.engine.agents.schemas import SUMMARY_MAX_CHARS, SUMMARY_TOOL
from tests.psychologist.builders import agent_request

pytestmark = pytest.mark.django_db


def summarise(**context: Any) -> dict[str, Any]:
    output = complete(request=agent_request("summarizer", **context)).tool_input(SUMMARY_TOOL)
    assert output is not None
    return output


def long_dialogue(turns: int) -> list[dict[str, str]]:
    pairs = [
        {"question": f"Question {i}?", "answer": f"Middle answer {i} about my work and my boss."}
        for i in range(turns)
    ]
    pairs[0]["answer"] = "OPENINGMARK: it all started with conflicts at work."
    pairs[turns // 2]["answer"] = "MIDDLEMARK: a detail from the middle."
    pairs[-1]["answer"] = "ENDINGMARK: I feel calmer and see a first step."
    return pairs


def test_the_summary_covers_the_whole_dialogue_by_dropping_the_middle() -> None:
    output = summarise(locale="en", cbt_focus="problem_solving", pairs=long_dialogue(60))

    summary = output["summary"]
    assert len(summary) <= SUMMARY_MAX_CHARS
    assert "OPENINGMARK" in summary
    assert "ENDINGMARK" in summary  # a prefix cut would lose the end (session-design §11.5)
    assert "MIDDLEMARK" not in summary
    assert "more …]" in summary


def test_a_short_dialogue_is_summarised_whole() -> None:
    output = summarise(locale="en", pairs=long_dialogue(4))

    assert "MIDDLEMARK" in output["summary"]
    assert "more …]" not in output["summary"]


def test_the_summary_reads_a_role_tagged_dialogue_too() -> None:
    dialogue = [
        {"role": "narrator", "text": "Do you avoid conflicts?"},
        {"role": "client", "text": "Yes, with my boss, I get anxious."},
    ]

    output = summarise(locale="en", dialogue=dialogue)

    assert "with my boss" in output["summary"]
    assert "Do you avoid" not in output["summary"]


def test_it_reports_insights_and_techniques() -> None:
    output = summarise(
        locale="en",
        cbt_focus="cognitive_restructuring",
        pairs=long_dialogue(6),
        insights=["It looks like you are hard on yourself."],
    )

    assert output["key_insights"] == ["It looks like you are hard on yourself."]
    assert "Socratic questioning" in output["cbt_techniques_used"]


def test_a_russian_summary_is_written_in_russian() -> None:
    pairs = [{"question": "?", "answer": "На работе тревожно, я всё откладываю"}] * 3

    output = summarise(locale="ru", pairs=pairs)

    assert output["summary"].startswith("Фокус:")
    assert "Слова клиента" in output["summary"]


def test_truncate_middle_keeps_both_ends_within_budget() -> None:
    items = [f"item {i:02d} " + "x" * 36 for i in range(20)]  # 11 tokens each

    kept = truncate_middle(items, budget_tokens=60)

    assert kept[0] == items[0]
    assert kept[-1] == items[-1]
    assert any("omitted" in line for line in kept)
    assert sum(estimate_tokens(line) for line in kept) <= 60


def test_truncate_middle_leaves_what_fits_alone() -> None:
    assert truncate_middle(["a", "b"], budget_tokens=10) == ["a", "b"]


def test_clip_middle_keeps_the_start_and_the_end() -> None:
    clipped = clip_middle("START " + "m" * 500 + " END", max_chars=100)

    assert len(clipped) <= 100
    assert clipped.startswith("START")
    assert clipped.endswith("END")
