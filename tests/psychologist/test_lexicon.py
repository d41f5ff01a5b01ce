from __future__ import annotations

import pytest

from sessions_app.engine.lexicon import (
    detect_fatigue,
    detect_meta,
    detect_reschedule,
    mood_score,
)
from sessions_app.engine.safety import detect_crisis


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Sometimes I think I should just kill myself", "en"),
        ("I don't want to live anymore", "en"),
        ("I have been cutting myself again", "en"),
        ("Everyone would be better off dead without me — I mean me being dead", "en"),
        ("Иногда хочу покончить с собой", "ru"),
        ("Я не хочу жить", "ru"),
        ("Хочу причинить себе вред", "ru"),
        ("Мысли о суициде не отпускают", "ru"),
    ],
)
def test_it_detects_crisis_language(text: str, locale: str) -> None:
    assert detect_crisis(text, locale)


def test_it_detects_crisis_language_whatever_the_session_locale() -> None:
    assert detect_crisis("не хочу жить", "en")
    assert detect_crisis("I want to die", "ru")


@pytest.mark.parametrize(
    "text",
    ["Work was killing me this week", "I cut the budget", "Мне скучно на работе", "I feel alive"],
)
def test_it_does_not_raise_crisis_on_ordinary_words(text: str) -> None:
    assert not detect_crisis(text, "en")


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("I'm tired", "en"),
        ("Enough.", "en"),
        ("That's enough for today", "en"),
        ("I don't want to continue", "en"),
        ("Can we stop here?", "en"),
        ("Я устал", "ru"),
        ("Хватит", "ru"),
        ("Не хочу продолжать", "ru"),
        ("Давай закончим, нет сил", "ru"),
    ],
)
def test_it_detects_fatigue(text: str, locale: str) -> None:
    assert detect_fatigue(text, locale)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("I am not tired at all", "en"),
        ("I'm not good enough for this job", "en"),
        ("Я не устал", "ru"),
        ("Мне не хватает времени", "ru"),
    ],
)
def test_it_does_not_read_negated_or_unrelated_words_as_fatigue(text: str, locale: str) -> None:
    assert not detect_fatigue(text, locale)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Why do you keep asking me this?", "en"),
        ("Who are you, really?", "en"),
        ("Are you a bot?", "en"),
        ("Ты бот?", "ru"),
        ("Кто ты такой?", "ru"),
        ("Почему ты продолжаешь спрашивать?", "ru"),
    ],
)
def test_it_detects_meta_questions(text: str, locale: str) -> None:
    assert detect_meta(text, locale)


def test_it_does_not_read_a_question_about_others_as_meta() -> None:
    assert not detect_meta("Who are they to judge me?", "en")


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Can we reschedule?", "en"),
        ("Could we move the session to Friday?", "en"),
        ("I can't on Thursday", "en"),
        ("Let's talk about it next time", "en"),
        ("Давай перенесём", "ru"),
        ("Не смогу в четверг", "ru"),
        ("Можно в следующий раз?", "ru"),
    ],
)
def test_it_detects_rescheduling(text: str, locale: str) -> None:
    assert detect_reschedule(text, locale)


def test_it_does_not_read_moving_on_as_rescheduling() -> None:
    assert not detect_reschedule("I want to move on with my life", "en")


def test_mood_scoring_counts_words_and_flips_negated_ones() -> None:
    assert mood_score("I feel calm and hopeful", "en") == 2
    assert mood_score("I feel sad and anxious", "en") == -2
    assert mood_score("not good", "en") == -1
    assert mood_score("Мне стало легче и спокойнее", "ru") == 2
    assert mood_score("Мне не лучше, тревожно", "ru") == -2
