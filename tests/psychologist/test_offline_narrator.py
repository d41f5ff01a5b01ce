from __future__ import annotations

from typing import Any

import pytest

from psychologist.llm.service import complete
from sessions_app.engine.agents.schemas import NARRATOR_TOOL
from tests.psychologist.builders import agent_request

pytestmark = pytest.mark.django_db

JARGON = ("cognitive", "distortion", "schema", "cbt", "когнитив", "искажени")
PRAISE = ("amazing", "great job", "proud of you", "brilliant", "молодец", "горжусь")


def narrate(**context: Any) -> dict[str, Any]:
    output = complete(request=agent_request("narrator", **context)).tool_input(NARRATOR_TOOL)
    assert output is not None
    return output


def test_it_turns_the_analysts_questions_into_numbered_cards() -> None:
    output = narrate(
        locale="en",
        questions=["The user avoids conflicts at work.", "What does the user feel afterwards?"],
    )

    assert output["cards"] == [
        {"id": 1, "text": "Do you avoid conflicts at work?", "type": "open"},
        {"id": 2, "text": "What do you feel afterwards?", "type": "open"},
    ]
    assert output["insight"] is None
    assert output["closing_line"] is None


def test_it_addresses_a_russian_client_as_ty_by_default_and_vy_when_formal() -> None:
    question = "Пользователь избегает конфликтов на работе."

    assert narrate(locale="ru", questions=[question])["cards"][0]["text"] == (
        "Ты избегаешь конфликтов на работе?"
    )
    assert narrate(locale="ru", address="formal", questions=[question])["cards"][0]["text"] == (
        "Вы избегаете конфликтов на работе?"
    )


def test_it_rephrases_the_insight_for_the_client() -> None:
    output = narrate(locale="en", insight="The user keeps their needs to themselves.")

    assert output["cards"] == []
    assert output["insight"] == "It looks like you keep your needs to yourself."


@pytest.mark.parametrize(
    ("locale", "date", "expected"),
    [
        ("en", "2026-12-03", "See you on Thursday."),
        ("ru", "2026-12-03", "До встречи в четверг."),
        ("ru", "2026-12-01", "До встречи во вторник."),
        ("en", None, "See you next time."),
    ],
)
def test_the_closing_line_names_the_next_session(
    locale: str, date: str | None, expected: str
) -> None:
    output = narrate(locale=locale, closing=True, next_session_date=date, mood_delta="stable")

    assert output["closing_line"].endswith(expected)


def test_the_closing_line_gives_the_date_when_the_next_session_is_far() -> None:
    output = narrate(locale="en", closing=True, next_session_date="2026-12-17", today="2026-12-01")

    assert output["closing_line"].endswith("See you on Thursday, 17 December.")


@pytest.mark.parametrize("mood", ["declining", "stable", "improving"])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_closing_line_is_warm_without_jargon_or_praise(mood: str, locale: str) -> None:
    line = narrate(locale=locale, closing=True, mood_delta=mood, next_session_date="2026-12-03")[
        "closing_line"
    ].lower()

    assert not any(word in line for word in JARGON + PRAISE)
    assert len(line) < 200


def test_the_closing_line_respects_fatigue() -> None:
    line = narrate(locale="en", closing=True, fatigue=True)["closing_line"]

    assert "rest" in line.lower()


def test_narration_is_deterministic() -> None:
    context = {"locale": "ru", "questions": ["Пользователь боится ошибиться."], "closing": True}

    assert narrate(**context) == narrate(**context)


@pytest.mark.parametrize(("locale", "marker"), [("en", "you"), ("ru", "ты")])
def test_analyst_questions_reach_the_client_as_second_person_cards(
    locale: str, marker: str
) -> None:
    for focus in ("cognitive_restructuring", "behavioral_activation", "problem_solving"):
        analysis = complete(
            request=agent_request("analyst", locale=locale, cbt_focus=focus, turn_count=2)
        ).tool_input("analyst_output")
        cards = narrate(locale=locale, questions=analysis["questions"])["cards"]

        assert len(cards) == len(analysis["questions"]) == 2
        for card in cards:
            text = card["text"].lower()
            assert text.endswith("?")
            assert "user" not in text
            assert "пользовател" not in text
            assert marker in text or "тебе" in text or "тебя" in text or "your" in text
