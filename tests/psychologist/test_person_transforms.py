from __future__ import annotations

import pytest

from sessions_app.engine.offline import grammar_en, grammar_ru
from sessions_app.engine.offline.banks import BANK


@pytest.mark.parametrize(
    ("third", "second"),
    [
        ("The user avoids conflicts at work.", "Do you avoid conflicts at work?"),
        ("The user tries to please everyone.", "Do you try to please everyone?"),
        ("The user is afraid that she will fail.", "Are you afraid that you will fail?"),
        ("The user has been avoiding her mother.", "Have you been avoiding your mother?"),
        ("The user often worries about money.", "Do you often worry about money?"),
        ("The user stopped calling his friends.", "Did you stop calling your friends?"),
        ("The user felt ashamed of himself.", "Did you feel ashamed of yourself?"),
        ("The user can say no to their boss.", "Can you say no to your boss?"),
        ("What does the user feel when they are alone?", "What do you feel when you are alone?"),
        ("Why does he keep quiet at home?", "Why do you keep quiet at home?"),
        ("How did the user cope last time?", "How did you cope last time?"),
        ("Which activities has the user dropped?", "Which activities have you dropped?"),
        ("What gives the user's day some structure?", "What gives your day some structure?"),
    ],
)
def test_it_turns_english_third_person_into_a_second_person_question(
    third: str, second: str
) -> None:
    assert grammar_en.to_question(third) == second


def test_it_turns_an_english_insight_into_a_gentle_statement() -> None:
    assert (
        grammar_en.to_statement("The user is much harder on themselves than on others.")
        == "It looks like you are much harder on yourself than on others."
    )


@pytest.mark.parametrize(
    ("third", "informal", "formal"),
    [
        (
            "Пользователь избегает конфликтов на работе.",
            "Ты избегаешь конфликтов на работе?",
            "Вы избегаете конфликтов на работе?",
        ),
        (
            "Пользователь откладывает дела и ругает себя.",
            "Ты откладываешь дела и ругаешь себя?",
            "Вы откладываете дела и ругаете себя?",
        ),
        ("Пользователь боится ошибиться.", "Ты боишься ошибиться?", "Вы боитесь ошибиться?"),
        (
            "Пользователь уверен в своём решении.",
            "Ты уверен в своём решении?",
            "Вы уверены в своём решении?",
        ),
        (
            "Что пользователь сказал бы другу?",
            "Что ты сказал бы другу?",
            "Что вы сказали бы другу?",
        ),
        (
            "Что помогает пользователю успокоиться?",
            "Что помогает тебе успокоиться?",
            "Что помогает вам успокоиться?",
        ),
        (
            "Как у пользователя проходит утро?",
            "Как у тебя проходит утро?",
            "Как у вас проходит утро?",
        ),
        ("Пользователь живёт один.", "Ты живёшь один?", "Вы живёте один?"),
        ("Пользователь хочет отдохнуть.", "Ты хочешь отдохнуть?", "Вы хотите отдохнуть?"),
    ],
)
def test_it_turns_russian_third_person_into_ty_and_vy_questions(
    third: str, informal: str, formal: str
) -> None:
    assert grammar_ru.to_question(third) == informal
    assert grammar_ru.to_question(third, formal=True) == formal


def test_it_turns_a_russian_insight_into_a_gentle_statement() -> None:
    third = "Пользователь склонен принимать резкую мысль о себе за факт."
    assert (
        grammar_ru.to_statement(third)
        == "Похоже, ты склонен принимать резкую мысль о себе за факт."
    )
    assert (
        grammar_ru.to_statement(third, formal=True)
        == "Похоже, вы склонны принимать резкую мысль о себе за факт."
    )


def _bank() -> list[tuple[str, str]]:
    return [(q.en, q.ru) for focus in BANK.values() for stage in focus.values() for q in stage]


@pytest.mark.parametrize(("english", "russian"), _bank())
def test_every_bank_question_comes_out_addressed_to_the_client(english: str, russian: str) -> None:
    card_en = grammar_en.to_question(english)
    card_ru = grammar_ru.to_question(russian)
    assert card_en.endswith("?")
    assert card_ru.endswith("?")
    for leftover in (
        "the user",
        "they ",
        "their",
        "themselves",
        " does you",
        " is you",
        " has you",
    ):
        assert leftover not in card_en.lower()
    assert "you" in card_en.lower()
    assert "пользовател" not in card_ru.lower()
    assert any(word in card_ru.lower() for word in ("ты", "тебя", "тебе", "тобой"))
