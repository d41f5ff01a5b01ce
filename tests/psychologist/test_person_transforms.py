from __future__ import annotations

import re

import pytest

from sessions_app.engine.offline import grammar_en, grammar_ru, grammar_zh
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
    # The client's gender unknown: a neutral wording, never "склонен(на)".
    assert (
        grammar_ru.to_statement(third)
        == "Похоже, тебе свойственно принимать резкую мысль о себе за факт."
    )
    assert (
        grammar_ru.to_statement(third, gender="masc")
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


@pytest.mark.parametrize(
    ("third", "card"),
    [
        ("用户一直在推迟那些过去能带来乐趣的事情。", "你一直在推迟那些过去能带来乐趣的事情吗？"),
        ("事情不顺的时候，用户会对自己说些什么？", "事情不顺的时候，你会对自己说些什么？"),
        ("来访者觉得自己卡在了几个选择之间。", "你觉得自己卡在了几个选择之间吗？"),
        ("她觉得别人都在评判她的选择。", "你觉得别人都在评判你的选择吗？"),
        ("他们都觉得用户太敏感。", "他们都觉得你太敏感吗？"),
        ("用戶覺得很累。", "你觉得很累吗？"),  # traditional in, simplified out
        ("用户想先减少开支，还是多一点收入？", "你想先减少开支，还是多一点收入？"),  # a choice
    ],
)
def test_chinese_third_person_becomes_you_and_a_statement_asks_with_ma(third, card) -> None:
    assert grammar_zh.to_question(third) == card


def test_a_chinese_insight_is_said_to_the_client() -> None:
    assert (
        grammar_zh.to_statement("用户容易把对自己的苛刻想法当成事实。")
        == "看起来，你容易把对自己的苛刻想法当成事实。"
    )


@pytest.mark.parametrize("chinese", [q.zh for f in BANK.values() for s in f.values() for q in s])
def test_every_chinese_bank_question_comes_out_addressed_to_the_client(chinese: str) -> None:
    card = grammar_zh.to_question(chinese)
    assert card.endswith("？")
    assert "用户" not in card
    assert "你" in card
    assert not re.search(r"[A-Za-z]", card)


@pytest.mark.parametrize(
    ("third", "feminine", "masculine"),
    [
        ("Пользователь застрял между несколькими вариантами.", "Ты застряла", "Ты застрял"),
        ("Пользователь склонен всё откладывать.", "Ты склонна", "Ты склонен"),
        ("Что пользователь мог бы сделать завтра?", "ты могла бы", "ты мог бы"),
        ("Какое занятие пользователь готов запланировать?", "ты готова", "ты готов"),
    ],
)
def test_russian_ty_agrees_with_the_clients_gender(third, feminine, masculine) -> None:
    assert feminine in grammar_ru.to_question(third, gender="femn")
    assert masculine in grammar_ru.to_question(third, gender="masc")
    # "вы" is plural whatever the gender
    assert grammar_ru.to_question(third, formal=True, gender="femn") == grammar_ru.to_question(
        third, formal=True
    )


def test_a_russian_question_without_past_or_short_adjective_needs_no_gender() -> None:
    assert not grammar_ru.gendered("Что пользователь говорит себе, когда что-то идёт не так?")


@pytest.mark.parametrize(
    ("third", "neutral"),
    [
        ("Пользователь склонен всё откладывать.", "Тебе свойственно всё откладывать?"),
        ("Что пользователь мог бы сделать завтра?", "Что тебе удалось бы сделать завтра?"),
        (
            "Какое занятие пользователь готов запланировать?",
            "Какое занятие тебе хочется запланировать?",
        ),
    ],
)
def test_with_the_gender_unknown_a_neutral_wording_is_used_where_one_exists(third, neutral) -> None:
    assert grammar_ru.to_question(third) == neutral
    assert not grammar_ru.gendered(third)
