"""The yardstick of bench/dialogue_quality.py on texts whose answer is known: its measures must
see what they claim to see, or the figures mean nothing. (The bench itself plays the personas;
`make bench` runs it.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import dialogue_quality as dq  # bench/ is not a package


def card(text: str, *earlier: str) -> dq.Card:
    return dq.Card(text=text, kind="question", batch=2, earlier=earlier)


@pytest.mark.parametrize(
    ("lang", "text", "earlier"),
    [
        ("en", "What does your sister expect from you?", "I had a fight with my sisters."),
        ("en", "How is your mother taking it?", "My dad keeps calling me."),  # family theme
        ("ru", "Что сказала тебе мама?", "Опять поругалась с мамой."),  # a case form
        ("ru", "Как ты спишь в последнее время?", "Просыпаюсь в четыре утра."),  # sleep theme
        ("zh", "你和导师谈过论文吗？", "我的论文一直在拖。"),
        ("zh", "你和妈妈最近怎么样？", "我爸又打电话来了。"),  # family theme
    ],
)
def test_a_card_that_follows_the_client_takes_it_up(lang, text, earlier):
    assert dq.takes_up(card(text, earlier), lang)


@pytest.mark.parametrize(
    ("lang", "text", "earlier"),
    [
        ("en", "What evidence do you have that this thought is true?", "I miss my friends."),
        ("en", "How do you feel about it this week?", "I feel bad this week."),  # generic words
        ("ru", "Какие у тебя есть доказательства, что эта мысль верна?", "Мне одиноко."),
        ("zh", "你觉得这个想法是真的吗？", "搬家以后我很孤独。"),
        ("zh", "What do you tell yourself when things go wrong?", "我想念老朋友。"),
    ],
)
def test_a_fixed_bank_card_does_not_take_it_up(lang, text, earlier):
    assert not dq.takes_up(card(text, earlier), lang)


@pytest.mark.parametrize(
    ("lang", "worse", "better"),
    [
        ("en", "I am not happy at all, everything is awful", "I feel much better, really good"),
        ("ru", "Мне плохо и одиноко", "Мне спокойно, я рада"),
        ("ru", "Мне не хорошо", "Мне не плохо"),  # negation flips
        ("zh", "我很孤独，特别难过", "我很开心，心里很踏实"),
        ("zh", "我不开心", "我没那么难过"),
    ],
)
def test_mood_orders_a_worse_text_below_a_better_one(lang, worse, better):
    assert dq.mood(worse, lang) < dq.mood(better, lang)


def test_less_negative_is_not_an_improvement():
    assert not dq.improved(-0.8, -0.1)
    assert dq.improved(-0.5, 0.4)


@pytest.mark.parametrize(
    ("text", "claimed"),
    [
        ("It looks like you feel a little better now.", True),
        ("Something seems a little lighter than at the start.", True),
        ("Кажется, сейчас чуть легче, чем в начале.", True),
        ("聊完以后，你好像轻松了一些。", True),
        ("It does not feel better yet, and that is all right.", False),
        ("Пока не легче, и это нормально.", False),
        ("You said «I feel better» about the walk.", False),  # the client's own words
        ("Let's stop here for today.", False),
    ],
)
def test_claims_of_improvement_are_found_and_negations_and_quotes_set_aside(text, claimed):
    assert bool(dq.claims(text, [])) is claimed


@pytest.mark.parametrize(
    ("lang", "text", "said", "foreign"),
    [
        ("zh", "What would you like to talk about today?", [], True),
        ("zh", "上次你说到«work stress»。", [], False),
        ("zh", "你提到了 Hollow Knight。", ["你玩过 Hollow Knight 吗"], False),
        ("ru", "Кажется, мы хорошо прошлись по теме. Завершить сессию?", [], False),
        ("ru", "Let's pause on this one.", [], True),
        ("en", "You wrote 孤独 earlier.", [], True),
        ("en", "Find A Helpline: findahelpline.com", [], False),
    ],
)
def test_mixed_languages_are_seen_beside_quotes_addresses_and_the_clients_words(
    lang, text, said, foreign
):
    assert bool(dq.foreign_words(text, lang, said)) is foreign


def test_repeats_are_counted_within_and_across_a_clients_sessions():
    def played(number: int, *texts: str) -> dq.Played:
        cards = [dq.Card(t, "question", 1, ()) for t in texts]
        return dq.Played(persona="p", lang="en", number=number, cards=cards)

    figures = dq.Figures()
    sessions = [
        played(1, "What happened?", "How did it feel?", "what happened"),
        played(2, "How did it feel?!", "What now?"),
    ]
    dq.measure_repeats(sessions, figures)
    assert (figures.within, figures.across, figures.across_of) == (1, 1, 2)


def test_an_insight_shown_twice_in_a_session_is_counted_once_over():
    played = dq.Played(persona="p", lang="en", number=1)
    played.shown = [
        ("insight", "It looks like work takes up most of your energy."),
        ("question card", "What happened?"),
        ("insight", "It looks like work takes up most of your energy!"),
        ("key insight", "It looks like work takes up most of your energy."),
    ]
    figures = dq.Figures()
    dq.measure_insights(played, figures)
    assert figures.insight_repeats == 1
