from __future__ import annotations

from collections.abc import Callable

import pytest

from sessions_app.engine.language.detectors import (
    detect_fatigue,
    detect_meta,
    detect_reschedule,
)
from sessions_app.engine.safety import detect_crisis


def cases(detect: Callable[[str, str], bool], *examples: tuple[str, str]) -> list:
    return [
        pytest.param(detect, text, locale, id=f"{detect.__name__}-{text}")
        for text, locale in examples
    ]


@pytest.mark.parametrize(
    ("detect", "text", "locale"),
    [
        *cases(
            detect_crisis,
            ("Sometimes I think I should just kill myself", "en"),
            ("I don't want to live anymore", "en"),
            ("I have been cutting myself again", "en"),
            ("Everyone would be better off dead without me — I mean me being dead", "en"),
            ("Иногда хочу покончить с собой", "ru"),
            ("Я не хочу жить", "ru"),
            ("Хочу причинить себе вред", "ru"),
            ("Мысли о суициде не отпускают", "ru"),
        ),
        *cases(
            detect_fatigue,
            ("I'm tired", "en"),
            ("Enough.", "en"),
            ("That's enough for today", "en"),
            ("I don't want to continue", "en"),
            ("Can we stop here?", "en"),
            ("Я устал", "ru"),
            ("Хватит", "ru"),
            ("Не хочу продолжать", "ru"),
            ("Давай закончим, нет сил", "ru"),
            ("我好累了", "zh"),
            ("今天就到这里吧", "zh"),
            ("不想再说了", "zh"),
            ("我真的很疲惫", "zh"),
            ("我覺得好累", "zh"),  # traditional, folded to simplified
        ),
        *cases(
            detect_meta,
            ("Why do you keep asking me this?", "en"),
            ("Who are you, really?", "en"),
            ("Are you a bot?", "en"),
            ("Ты бот?", "ru"),
            ("Кто ты такой?", "ru"),
            ("Почему ты продолжаешь спрашивать?", "ru"),
            ("你是机器人吗？", "zh"),
            ("为什么你一直问我这个？", "zh"),
            ("你到底是谁", "zh"),
            ("你是怎麼運作的？", "zh"),
        ),
        *cases(
            detect_reschedule,
            ("Can we reschedule?", "en"),
            ("Could we move the session to Friday?", "en"),
            ("I can't on Thursday", "en"),
            ("Let's talk about it next time", "en"),
            ("Давай перенесём", "ru"),
            ("Не смогу в четверг", "ru"),
            ("Можно в следующий раз?", "ru"),
            ("下次能改时间吗", "zh"),
            ("周四不行", "zh"),
            ("星期四我没空", "zh"),
            ("可以改天吗", "zh"),
            ("能不能挪到周五", "zh"),
            ("禮拜四不行", "zh"),
        ),
    ],
)
def test_it_detects_crisis_fatigue_meta_questions_and_rescheduling(
    detect: Callable[[str, str], bool], text: str, locale: str
) -> None:
    assert detect(text, locale)


def test_it_detects_crisis_language_whatever_the_session_locale() -> None:
    assert detect_crisis("не хочу жить", "en")
    assert detect_crisis("I want to die", "ru")


@pytest.mark.parametrize(
    ("detect", "text", "locale"),
    [
        # ordinary words are no crisis
        *cases(
            detect_crisis,
            ("Work was killing me this week", "en"),
            ("I cut the budget", "en"),
            ("Мне скучно на работе", "en"),
            ("I feel alive", "en"),
        ),
        # negated or unrelated words are no fatigue
        *cases(
            detect_fatigue,
            ("I am not tired at all", "en"),
            ("I'm not good enough for this job", "en"),
            ("Я не устал", "ru"),
            ("Мне не хватает времени", "ru"),
            ("我不累", "zh"),
            ("我今天睡得很好", "zh"),
        ),
        # a question about others is not meta; moving on is not rescheduling
        *cases(detect_meta, ("Who are they to judge me?", "en"), ("他们是谁？", "zh")),
        *cases(
            detect_reschedule,
            ("I want to move on with my life", "en"),
            ("我周四和姐姐吵架了", "zh"),
            ("我一直在推迟做决定", "zh"),
        ),
    ],
)
def test_it_does_not_read_ordinary_negated_or_unrelated_words_as_a_signal(
    detect: Callable[[str, str], bool], text: str, locale: str
) -> None:
    assert not detect(text, locale)
