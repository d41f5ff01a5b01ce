"""The language rules under the sessions: which language a text is in, the client's
Russian gender, Chinese days and times, dates and counts in each language."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.closing.stages import ANSWERED
from sessions_app.engine.flows import scheduler
from sessions_app.engine.language import identify
from sessions_app.engine.turn.titles import title_neutral
from sessions_app.models import UserProfile


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I keep putting off a hard conversation with my boss", "en"),
        ("Я поссорилась с сестрой", "ru"),
        ("Стресс на работе", "ru"),
        ("我和姐姐吵架了", "zh"),
        ("我和姐姐吵架了, she never listens", "zh"),
        ("我們禮拜四見", "zh"),
        ("ok", None),
        ("Okay then", None),
        ("да", None),
        ("嗯", None),
        ("👍", None),
    ],
)
def test_the_language_a_text_is_written_in_or_none_when_too_short(text, expected) -> None:
    assert identify.detect(text) == expected
    assert identify.detect(text) == expected  # deterministic


@pytest.mark.parametrize(
    ("words", "gender"),
    [
        (["Я поссорилась с сестрой"], "femn"),
        (["Я так и не смогла ей сказать"], "femn"),
        (["Рада, что поговорили"], "femn"),
        (["Я сам виноват"], "masc"),
        (["Устал от всего"], "masc"),
        (["Мама сказала, что я должен"], "masc"),
        (["Пошёл дождь, мне грустно"], ""),  # the verb's subject is the rain
        (["Стресс на работе"], ""),
        (["Я устала", "Я устал"], ""),  # no majority: unknown
    ],
)
def test_the_clients_gender_comes_from_its_own_first_person_words(words, gender) -> None:
    assert identify.russian_gender(words) == gender


WEDNESDAY = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("text", "weekday", "time"),
    [
        ("周四不行，周五下午三点可以吗", 5, dt.time(15, 0)),
        ("改到星期六晚上8点", 6, dt.time(20, 0)),
        ("礼拜天吧", 7, None),
        ("明天上午10点半", 4, dt.time(10, 30)),
        ("后天", 5, None),
        ("星期二 15:30", 2, dt.time(15, 30)),
        ("禮拜一下午兩點", 1, dt.time(14, 0)),
        ("下次能改到週五下午三點嗎", 5, dt.time(15, 0)),  # traditional, folded first
        ("周四我没空", None, None),
    ],
)
def test_chinese_days_and_times_are_read_and_a_refused_day_is_not_the_new_one(
    text, weekday, time
) -> None:
    profile = UserProfile(locale="zh", time_zone="Asia/Shanghai")
    with time_machine.travel(WEDNESDAY, tick=False):
        slot = scheduler.slot_parse(text, profile)
    assert (slot.weekday, slot.time) == (weekday, time)


def test_dates_and_weekdays_are_written_the_way_each_language_writes_them() -> None:
    moment = dt.date(2025, 5, 14)
    assert texts.date_label(moment, "en") == "14 May 2025"
    assert texts.date_label(moment, "ru") == "14 мая 2025"
    assert texts.date_label(moment, "zh") == "2025年5月14日"
    assert texts.date_label(moment, "zh-Hant-TW") == "2025年5月14日"
    assert texts.weekday_name(4, "ru") == "в четверг"
    assert texts.weekday_name(4, "zh") == "周四"
    assert scheduler.when_label(moment, "15:00", "zh") == "5月14日（周三）15:00"


def test_a_neutral_title_is_in_the_clients_language() -> None:
    created = timezone.make_aware(dt.datetime(2025, 5, 14, 12, 0))
    title = title_neutral(
        session_type="cbt_guided",
        cbt_focus="emotion_regulation",
        created_at=created,
        locale="zh",
    )
    assert title == "认知行为疗法 · 情绪 · 2025年5月14日"


@pytest.mark.parametrize(
    ("count", "russian", "english"),
    [
        (1, "1 вопрос с ответом.", "1 question answered."),
        (2, "2 вопроса с ответом.", "2 questions answered."),
        (5, "5 вопросов с ответом.", "5 questions answered."),
        (11, "11 вопросов с ответом.", "11 questions answered."),
        (21, "21 вопрос с ответом.", "21 questions answered."),
    ],
)
def test_counts_take_each_languages_plural_form(count, russian, english) -> None:
    assert texts.plural(ANSWERED, count, "ru") == russian
    assert texts.plural(ANSWERED, count, "en") == english
    assert texts.plural(ANSWERED, count, "zh") == f"回答了{count}个问题。"
