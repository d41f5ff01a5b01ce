from __future__ import annotations

from typing import Any

import pytest

from psychologist.llm.service import complete
from psychologist.models import LLMCall
from sessions_app.engine.agents.schemas import ANALYST_TOOL
from sessions_app.engine.offline import grammar_en
from sessions_app.engine.offline.banks import BANK, DATA
from tests.psychologist.builders import agent_request, recap

pytestmark = pytest.mark.django_db


def analyse(**context: Any) -> dict[str, Any]:
    response = complete(request=agent_request("analyst", **context))
    output = response.tool_input(ANALYST_TOOL)
    assert output is not None
    return output


def problem_solving(turn_count: int, *answers: str, **context: Any) -> dict[str, Any]:
    """The analyst on an English problem-solving session after `turn_count` turns."""
    return analyse(
        locale="en",
        cbt_focus="problem_solving",
        turn_count=turn_count,
        recap=recap(*answers),
        **context,
    )


def test_it_opens_with_two_third_person_questions_from_the_focus_bank() -> None:
    output = analyse(locale="en", cbt_focus="behavioral_activation", turn_count=0, phase="intro")

    opening = [q.en for q in BANK["behavioral_activation"]["opening"]]
    assert len(output["questions"]) == 2
    assert all(question in opening for question in output["questions"])
    assert output["session_complete"] is False
    assert output["crisis_signal"] is False


def test_it_writes_russian_questions_for_a_russian_session() -> None:
    output = analyse(locale="ru", cbt_focus="problem_solving", turn_count=0)

    opening = [q.ru for q in BANK["problem_solving"]["opening"]]
    assert all(question in opening for question in output["questions"])


def test_it_picks_questions_that_touch_the_clients_themes() -> None:
    output = analyse(
        locale="en",
        cbt_focus="emotion_regulation",
        turn_count=2,
        recap=recap("My chest gets tight and I can't breathe", "My heart races at night"),
    )

    assert any("body" in q or "intense" in q or "calm" in q for q in output["questions"])
    assert output["slots_updated"]["themes"].startswith("body")


def test_it_infers_a_focus_from_the_answers_when_the_session_has_none() -> None:
    output = analyse(
        locale="en",
        turn_count=1,
        recap=recap("I stay in bed all day, no energy", "I have no motivation for anything"),
    )

    assert output["slots_updated"]["cbt_focus"] == "behavioral_activation"


def test_it_never_repeats_a_question_within_a_session() -> None:
    asked: list[str] = []
    shown: list[str] = []
    # Issue 17: the batches take up the client's words too, so draining the bank takes more.
    for turn in range(0, 24, 2):
        output = analyse(
            locale="en",
            cbt_focus="cognitive_restructuring",
            turn_count=min(turn, 3),  # stay under the pacing limits to drain the bank
            asked_questions=asked,
            recap=[{"question": q, "answer": "A long, thoughtful answer here."} for q in shown],
        )
        assert not set(output["questions"]) & set(asked)
        asked += output["questions"]
        shown = [grammar_en.to_question(q) for q in output["questions"]]
    assert len(asked) == len(set(asked))
    # The whole bank is drained, and the questions beyond it take up the client's words.
    bank = {q.en for stage in BANK["cognitive_restructuring"].values() for q in stage}
    assert bank <= set(asked)
    followups = {
        t.replace("{frame} ", "") for t in DATA["en"]["listening"]["templates"]["followup"]
    }
    for question in set(asked) - bank:
        assert "«A long, thoughtful answer here»" in question or question in followups


def test_it_does_not_repeat_a_question_it_recognises_in_the_recap_cards() -> None:
    first = analyse(locale="en", cbt_focus="problem_solving", turn_count=0)
    cards = [grammar_en.to_question(q) for q in first["questions"]]

    second = analyse(
        locale="en",
        cbt_focus="problem_solving",
        turn_count=0,
        recap=[{"question": card, "answer": "Not sure yet, still thinking"} for card in cards],
    )

    assert not set(second["questions"]) & set(first["questions"])


def test_it_keeps_going_before_four_turns_even_when_answers_are_short() -> None:
    output = problem_solving(3, "ok", "no")

    assert output["session_complete"] is False
    assert output["questions"]


def test_it_may_complete_after_four_turns_when_the_topic_is_exhausted() -> None:
    output = problem_solving(
        4,
        "I think I understand now, that's all",
        slots={"themes": "decision"},
        flow_step="dialogue",
        allowed_next=["insight", "closing"],
    )

    assert output["session_complete"] is True
    assert output["questions"] == []
    assert output["suggested_insight"]
    assert output["state_after"] == "insight"


def test_it_keeps_going_after_four_turns_when_a_new_theme_opens() -> None:
    output = problem_solving(
        5, "That's all, but my mother keeps calling and I avoid her", slots={"themes": "decision"}
    )

    assert output["session_complete"] is False
    assert len(output["questions"]) == 1


def test_it_must_complete_after_seven_turns_whatever_the_topic() -> None:
    output = problem_solving(7, "Actually there is a whole new thing with my partner and my job")

    assert output["session_complete"] is True
    assert output["questions"] == []


@pytest.mark.parametrize(
    ("locale", "answer"), [("en", "I'm tired, enough for today"), ("ru", "Я устала, хватит")]
)
def test_fatigue_stops_the_questions_and_completes_the_session(locale: str, answer: str) -> None:
    output = analyse(locale=locale, cbt_focus="problem_solving", turn_count=1, recap=recap(answer))

    assert output["questions"] == []
    assert output["session_complete"] is True
    assert output["slots_updated"]["fatigue"] is True
    assert ("tired" if locale == "en" else "устал") in output["observation"]


@pytest.mark.parametrize(("locale", "text"), [("en", "Who are you, a bot?"), ("ru", "Ты бот?")])
def test_a_meta_question_returns_the_focus_to_the_client(locale: str, text: str) -> None:
    output = analyse(
        locale=locale,
        cbt_focus="problem_solving",
        turn_count=5,
        recap=recap(text),
        last_client_text=text,
    )

    assert output["session_complete"] is False
    assert len(output["questions"]) == 1
    question = output["questions"][0].lower()
    assert ("right now" in question) or ("прямо сейчас" in question)
    for word in ("prompt", "analyst", "narrator", "model", "промпт", "аналитик"):
        assert word not in question


def test_a_crisis_phrase_raises_the_signal_and_asks_about_safety() -> None:
    output = problem_solving(7, "Honestly I want to end my life")

    assert output["crisis_signal"] is True
    assert output["session_complete"] is False  # never close on a client in crisis
    assert output["slots_updated"]["crisis"] is True
    assert output["mood_delta"] == "declining"
    assert output["questions"] == ["The user feels safe right now."]


def test_mood_delta_follows_the_answers_against_the_previous_batch() -> None:
    better = analyse(
        locale="en",
        turn_count=2,
        slots={"mood_score": -2},
        recap=recap("I feel calmer and a bit hopeful", "Things are better"),
    )
    worse = analyse(
        locale="en",
        turn_count=2,
        slots={"mood_score": 1},
        recap=recap("I feel sad and hopeless", "Everything is awful"),
    )
    same = analyse(
        locale="en", turn_count=2, slots={"mood_score": 0}, recap=recap("I went to work", "Yes")
    )

    assert better["mood_delta"] == "improving"
    assert worse["mood_delta"] == "declining"
    assert same["mood_delta"] == "stable"


def test_it_moves_from_the_topic_step_to_the_dialogue_and_records_the_topic() -> None:
    output = analyse(
        locale="en",
        turn_count=0,
        flow_step="topic",
        allowed_next=["dialogue"],
        recap=recap("Conflicts with my boss at work"),
    )

    assert output["state_after"] == "dialogue"
    assert output["slots_updated"]["topic"] == "Conflicts with my boss at work"


def test_it_stays_on_the_step_when_the_flow_does_not_allow_a_move() -> None:
    output = analyse(
        locale="en", turn_count=8, flow_step="dialogue", allowed_next=[], recap=recap("fine")
    )

    assert output["session_complete"] is True
    assert output["state_after"] == "dialogue"


def test_the_same_context_always_gives_the_same_output() -> None:
    context = {
        "locale": "ru",
        "turn_count": 3,
        "recap": recap("На работе тревожно, начальник давит", "Я всё откладываю"),
        "slots": {"mood_score": 0},
    }
    first = complete(request=agent_request("analyst", **context))
    second = complete(request=agent_request("analyst", **context))

    assert first.tool_calls == second.tool_calls
    assert first.usage == second.usage


def test_offline_calls_are_metered_at_zero_cost() -> None:
    response = complete(request=agent_request("analyst", locale="en", turn_count=0))

    call = LLMCall.objects.get()
    assert (call.agent, call.provider, call.model) == ("analyst", "offline", "offline-rules-v1")
    assert call.cost_micro_usd == 0
    assert call.ok
    assert call.input_tokens == response.usage.input_tokens > 0
    assert call.output_tokens == response.usage.output_tokens > 0
