"""The offline engine listens by meaning (QUALITY C3), through REST, per language: a theme the
client opened keeps the next batches on it, also after an answer that names no theme; a run of
"don't know" gets a scale or a choice (then normalising, then an offer to stop), never its own
words read back; no reflection frame repeats over a twelve-answer session; a topic that said
nothing is never offered again."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sessions_app.engine.offline import common, meaning
from sessions_app.engine.offline.banks import DATA
from tests.engine.test_listening import dialogue_cards, finish, person, reply, start

pytestmark = pytest.mark.django_db

CASES = {
    "en": {
        "topic": "My mother criticises everything I do",
        "answers": [
            "She said my flat is a mess and that I will never find a husband.",
            "It was on Sunday at lunch, in front of my aunt and my cousins.",
            "I just went quiet and felt very small.",
            "Afterwards I cried in the car on the way home.",
        ],
        "silent": ["idk", "no", "I don't know", "nothing really", "not sure", "no"],
        "traps": [
            "My boss always ignores my ideas in meetings",
            "I should have finished the report earlier",
            "They probably think my cooking is boring",
            "My sister never calls me first",
            "Everyone at work thinks I'm slow",
            "I must answer every email the same day",
            "My mother always compares me to my cousin",
        ],
    },
    "ru": {
        "topic": "Мама постоянно меня критикует",
        "answers": [
            "Она сказала, что у меня дома бардак и что я никогда не выйду замуж.",
            "Это было в воскресенье за обедом, при тёте и двоюродных сёстрах.",
            "Я просто замолчала и почувствовала себя очень маленькой.",
            "Потом я плакала в машине всю дорогу домой.",
        ],
        "silent": ["не знаю", "нет", "хз", "ничего", "не уверена", "нет"],
        "traps": [
            "Начальник всегда игнорирует мои идеи на совещаниях",
            "Я должна была сдать отчёт раньше",
            "Они наверняка думают, что я скучная",
            "Сестра никогда не звонит первой",
            "На работе все считают меня медленной",
            "Я обязана отвечать на письма в тот же день",
            "Мама всегда сравнивает меня с кузиной",
        ],
    },
    "zh": {
        "topic": "我妈妈总是批评我",
        "answers": [
            "她说我家里乱七八糟，还说我永远嫁不出去。",
            "是周日吃午饭的时候，当着阿姨和表姐们的面。",
            "我就不说话了，觉得自己特别渺小。",
            "后来回家的路上我在车里哭了。",
        ],
        "silent": ["不知道", "没有", "不清楚", "没什么", "不确定", "没有"],
        "traps": [
            "老板总是无视我在会上的想法",
            "我应该早点把报告写完",
            "他们肯定觉得我做的饭很无聊",
            "我姐姐从来不先给我打电话",
            "公司里大家都觉得我动作慢",
            "我必须当天回复所有邮件",
            "我妈总是拿我和表姐比",
        ],
    },
}
LOCALES = {"en": "en", "ru": "ru", "zh": "zh-hans"}


def bank_question(card: str, lang: str) -> meaning.Question | None:
    """The bank question a card was narrated from, if it was one."""
    for question in meaning.bank(lang):
        if common.second_person_question(question.text, lang, formal=False, gender="") == card:
            return question
    return None


def play(client: Any, lang: str, answers: list[str]) -> tuple[str, list[dict[str, Any]]]:
    """The topic, then `answers` to whatever card is current; the cards dealt, in order."""
    session_id, state = start(client, CASES[lang]["topic"])
    seen = [state["current_card"]]
    for text in answers:
        if state["current_card"]["kind"] != "question":
            break
        state = reply(client, session_id, state, text)
        seen.append(state["current_card"])
    return session_id, seen


@pytest.mark.parametrize("lang", list(CASES))
def test_the_theme_the_client_opened_keeps_the_next_batches_on_it(api_as, lang):
    client = person(api_as, f"theme-{lang}", LOCALES[lang])
    session_id, _ = play(client, lang, CASES[lang]["answers"])

    cards = dialogue_cards(session_id)
    assert len(cards) >= 3
    for card in cards:
        question = bank_question(card, lang)
        if question is None:  # a reflection: the client's own words read back
            assert re.search(r"«[^»]+»|「[^」]+」", card), card
            continue
        # A parent's criticism: family, or a question that fits any theme — never work or sleep.
        assert question.theme in ("family", "selfcrit", "general"), (question.theme, card)
    themed = [q for c in cards if (q := bank_question(c, lang)) and q.theme == "family"]
    assert themed


@pytest.mark.parametrize("lang", list(CASES))
def test_a_run_of_dont_know_gets_a_scale_or_a_choice_never_a_quotation(api_as, lang):
    client = person(api_as, f"silent-{lang}", LOCALES[lang])
    _, seen = play(client, lang, CASES[lang]["silent"])

    later = [card["text"] for card in seen[2:] if card["kind"] == "question"]
    assert later
    for text in later:
        assert not re.search(r"«|「", text), text
        for silent in CASES[lang]["silent"]:
            assert f"«{silent}»" not in text
            assert f"「{silent}」" not in text
    moves = [q for text in later if (q := bank_question(text, lang)) and q.move]
    assert moves, later
    assert moves[0].purpose in ("scale", "choice")
    # And never a thinking-trap question for a client who said nothing.
    traps = [t for ts in DATA[lang]["listening"]["templates"]["distortion"].values() for t in ts]
    trap_questions = {
        common.second_person_question(t.replace("{frame} ", ""), lang, formal=False) for t in traps
    }
    assert not set(later) & trap_questions


@pytest.mark.parametrize("lang", list(CASES))
def test_no_reflection_frame_repeats_over_a_twelve_answer_session(api_as, lang):
    client = person(api_as, f"frames-{lang}", LOCALES[lang])
    traps = CASES[lang]["traps"]
    session_id, _ = play(client, lang, [*traps, *traps][:12])

    cards = dialogue_cards(session_id)
    frames = [
        common.second_person_question(frame, lang, formal=False).split("{quote}")[0]
        for frame in DATA[lang]["listening"]["frames"]
    ]
    used = [next((f for f in frames if f and card.startswith(f)), None) for card in cards]
    reflections = [f for f in used if f]
    assert len(reflections) >= 2
    assert len(reflections) == len(set(reflections)), cards


@pytest.mark.parametrize("lang", list(CASES))
def test_a_topic_that_said_nothing_is_not_offered_again(api_as, lang):
    client = person(api_as, f"idk-topic-{lang}", LOCALES[lang])
    session_id, state = start(client, CASES[lang]["silent"][0])
    finish(client, session_id)

    _, state = start_only(client)

    card = state["current_card"]
    assert card["kind"] == "topic"
    assert CASES[lang]["silent"][0] not in card["text"]


def start_only(client: Any) -> tuple[str, dict[str, Any]]:
    from django.urls import reverse

    from tests.engine.test_rest_session import url

    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    return session_id, client.get(url("state", session_id)).json()


def test_the_bank_is_written_per_language_and_tagged() -> None:
    for lang in ("en", "ru", "zh"):
        questions = meaning.bank(lang)
        assert len(questions) >= 250
        assert {q.purpose for q in questions if q.move} == set(meaning.MOVES)
        assert len({q.theme for q in questions}) >= 12
