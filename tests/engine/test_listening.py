"""An offline engine that listens: cards that follow the client's words, claims it
can support. Through REST, with the offline engine of the test settings."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sessions_app.models import AskMessage, AskSession
from tests import factories
from tests.engine.test_rest_session import url

pytestmark = pytest.mark.django_db


def person(api_as: Any, name: str, locale: str = "en") -> Any:
    """A client of its own, speaking `locale` (its profile's)."""
    user = factories.ClientFactory(username=name)
    factories.UserProfileFactory(user=user, locale=locale)
    return api_as(user)


def start(client: Any, topic: str) -> tuple[str, dict[str, Any]]:
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    state = client.post(url("messages", session_id), {"text": topic}, format="json").json()
    return session_id, state


def reply(client: Any, session_id: str, state: dict[str, Any], text: str) -> dict[str, Any]:
    card = state["current_card"]
    response = client.post(
        url("answers", session_id), {"card_id": card["id"], "text": text}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def reply_until_completion(
    client: Any, session_id: str, state: dict[str, Any], answers: Any
) -> dict[str, Any]:
    """Answer each card in turn with the next of `answers`, stopping at the completion card."""
    for text in answers:
        if state["current_card"]["kind"] == "completion":
            break
        state = reply(client, session_id, state, text)
    return state


def dialogue_cards(session_id: str) -> list[str]:
    """The question cards dealt, in order (not the topic, completion or closing cards)."""
    dealt = AskMessage.objects.filter(
        session_id=session_id, kind=AskMessage.Kind.QUESTION_CARD, payload__kind="question"
    )
    return list(dealt.order_by("created_at", "id").values_list("text", flat=True))


def card_after(client: Any, words: str) -> str:
    """The first card of the batch that answers `words` (the client's topic)."""
    _, state = start(client, words)
    return state["current_card"]["text"]


def finish(client: Any, session_id: str) -> AskSession:
    client.post(url("end", session_id), {}, format="json")
    client.post(url("last-thing", session_id), {"finish": True}, format="json")
    return AskSession.objects.get(pk=session_id)


def session_through(client: Any, topic: str, answers: Any) -> AskSession:
    """A whole session: the topic, `answers` until the completion card, the end."""
    session_id, state = start(client, topic)
    reply_until_completion(client, session_id, state, answers)
    return finish(client, session_id)


def closing_of(session_id: str) -> str:
    closing = AskMessage.objects.filter(session_id=session_id, kind=AskMessage.Kind.CLOSING)
    return closing.get().text


def test_a_theme_in_the_answer_changes_the_next_batch(api_as):
    lonely = card_after(person(api_as, "lee"), "I moved and I am lonely")
    money = card_after(person(api_as, "kim"), "My debts keep growing")

    assert lonely != money
    assert any(word in lonely.lower() for word in ("lonel", "new place", "move"))
    assert any(word in money.lower() for word in ("money", "debt"))


def test_a_thinking_trap_is_taken_up_in_the_clients_own_words(alice, api_as):
    text = card_after(api_as(alice), "I'm so lazy, I never finish anything")

    assert "«I'm so lazy, I never finish anything»" in text


def test_a_russian_trap_is_quoted_after_a_colon_in_the_nominative(api_as):
    client = person(api_as, "olga", "ru")
    text = card_after(client, "Мама считает, что я должна звонить ей каждый день")

    assert "пишешь: «Мама считает, что я должна звонить ей каждый день»" in text


def test_a_healthy_statement_is_supported_not_challenged(alice, api_as):
    text = card_after(api_as(alice), "I love her but I need space")

    assert "«I love her but I need space»" in text
    assert "evidence" not in text.lower()
    assert "true" not in text.lower()
    assert any(word in text.lower() for word in ("keep to it", "step", "went well"))


def test_no_question_repeats_over_a_twelve_turn_session(alice, api_as):
    client = api_as(alice)
    session_id, state = start(client, "Work has been too much lately")
    answers = [
        "My manager keeps adding tasks and I never say no.",
        "idk",
        "I think everyone at work sees me as weak.",
        "I should be able to handle it all.",
        "no",
        "Nights are bad, I replay meetings instead of sleeping.",
        "Maybe.",
        "My partner says I work too much.",
        "I don't know.",
        "It is always like this with me.",
        "ok",
        "I guess.",
    ]
    for text in answers:
        if state["current_card"]["kind"] == "completion":
            state = client.post(url("continue", session_id), {}, format="json").json()
            if state.get("current_card", {}).get("kind") != "open":
                break
        state = reply(client, session_id, state, text)

    cards = dialogue_cards(session_id)
    assert len(cards) >= 6
    assert len(cards) == len(set(cards)), cards


def test_a_second_session_does_not_repeat_the_firsts_questions(alice, api_as):
    client = api_as(alice)
    asked: list[list[str]] = []
    for _ in range(2):
        session_id, state = start(client, "Work stress")
        state = reply_until_completion(
            client, session_id, state, ("idk", "no", "maybe", "not sure")
        )
        asked.append(dialogue_cards(session_id))
        finish(client, session_id)

    assert asked[0]
    assert asked[1]
    assert not set(asked[0]) & set(asked[1])


def test_an_insight_quotes_the_client(alice, api_as):
    session = session_through(
        api_as(alice),
        "My sister and I argue all the time",
        (
            "She says I always ruin family dinners.",
            "I feel it is my fault every time.",
            "We used to be close when we were kids.",
            "I want to call her on Sunday and just listen.",
            "Yes, that sounds right.",
            "I think that's all.",
        ),
    )

    insights = AskMessage.objects.filter(session_id=session.pk, kind=AskMessage.Kind.INSIGHT)
    quoted = [i.text for i in insights] + list(session.key_insights)
    assert quoted
    assert all("«" in text for text in quoted), quoted
    assert len(session.key_insights) == len(set(session.key_insights))


@pytest.mark.parametrize(
    ("locale", "topic", "answers"),
    [
        ("en", "Everything", ["no", "idk", "no", "idk", "no"]),
        ("ru", "Всё", ["просто всё плохо", "не знаю", "просто всё плохо", "нет", "не знаю"]),
        ("en", "My work", ["I tell myself I'm lazy", "I am useless", "idk", "no", "no"]),
    ],
)
def test_no_better_closing_without_an_improving_mood(api_as, locale, topic, answers):
    session = session_through(person(api_as, "sam", locale), topic, answers)

    shown = [closing_of(session.pk), session.session_summary, *session.key_insights]
    shown += list(
        AskMessage.objects.filter(session_id=session.pk, kind=AskMessage.Kind.INSIGHT).values_list(
            "text", flat=True
        )
    )
    for text in shown:
        lowered = text.lower()
        for claim in ("better", "lighter", "more room", "легче", "лучше", "пространства"):
            assert claim not in lowered, text


def test_a_better_closing_after_a_really_improving_mood(alice, api_as):
    session = session_through(
        api_as(alice),
        "I feel awful and anxious about my exam",
        (
            "I am scared and sad, it is terrible.",
            "Talking about it helps, I feel calmer now.",
            "I am glad, this is good and hopeful.",
            "Thank you, I feel much better and relieved.",
            "Great, I am happy with the plan.",
        ),
    )

    assert "lighter" in session.session_summary.lower()
    assert any(
        word in closing_of(session.pk).lower() for word in ("lighter", "more room", "better")
    )


def test_fatigue_is_acknowledged_as_fatigue(alice, api_as):
    client = api_as(alice)
    session_id, state = start(client, "Work stress")
    state = reply(client, session_id, state, "My boss keeps piling tasks on me.")
    state = reply(client, session_id, state, "I'm tired, let's stop for today.")

    card = state["current_card"]
    assert card["kind"] == "completion"
    assert card["text"].startswith("Let's stop here for today")
    assert "covered this well" not in card["text"]


@pytest.mark.parametrize(
    ("locale", "tired", "expected"),
    [
        ("ru", "Устала, давай закончим", "На сегодня можно остановиться"),
        ("zh-hans", "我累了，今天就到这吧", "今天就先到这里吧"),
    ],
)
def test_fatigue_is_acknowledged_in_russian_and_chinese(api_as, locale, tired, expected):
    client = person(api_as, "ann", locale)
    session_id, state = start(client, "работа" if locale == "ru" else "工作")
    state = reply(client, session_id, state, tired)

    assert state["current_card"]["kind"] == "completion"
    assert state["current_card"]["text"].startswith(expected)


@pytest.mark.parametrize(
    ("text", "locale", "sign"),
    [
        ("I feel good", "en", 1),
        ("I don't feel good", "en", -1),
        ("мне хорошо", "ru", 1),
        ("мне не хорошо", "ru", -1),
        ("мне не очень плохо", "ru", 1),
        ("просто всё плохо", "ru", -1),
        ("我很开心", "zh-hans", 1),
        ("我不开心", "zh-hans", -1),
    ],
)
def test_mood_reads_negation_in_every_language(text, locale, sign):
    from sessions_app.engine.language import detectors

    assert detectors.mood_value(text, locale) * sign > 0


def test_a_terse_no_and_idk_session_is_not_improving():
    from sessions_app.engine.language import detectors

    assert detectors.session_mood(["Everything", "no", "idk", "no", "idk", "no"]) == "stable"
    assert detectors.session_mood(["I feel awful", "sad", "I feel good now", "great, thanks"]) == (
        "improving"
    )


@pytest.mark.parametrize(
    ("locale", "words", "support"),
    [
        ("ru", "Я поговорю с начальником в понедельник", "Это звучит как ясное решение"),
        ("zh-hans", "我爱她，但我需要空间", "这听起来是一个清楚的决定"),
    ],
)
def test_a_healthy_statement_is_supported_in_russian_and_chinese(api_as, locale, words, support):
    text = card_after(person(api_as, "ivo", locale), words)

    assert words in text
    assert support in text


@pytest.mark.parametrize(
    ("locale", "topic", "expected"),
    [
        ("en", "My sister never calls", "Today we looked at «My sister never calls»."),
        ("ru", "Сестра не звонит", "Сегодня в центре разговора было вот что: «Сестра не звонит»."),
        ("zh-hans", "姐姐从来不打电话", "今天我们聊了：「姐姐从来不打电话」。"),
    ],
)
def test_the_closing_line_is_about_what_the_client_brought(api_as, locale, topic, expected):
    client = person(api_as, "eve", locale)
    session_id, state = start(client, topic)
    reply(client, session_id, state, "idk")
    finish(client, session_id)

    assert closing_of(session_id).startswith(expected)


NOTHING = {
    "en": ("My week", ["I don't know", "nothing really", "not sure tbh", "I don't know", "no"]),
    "ru": ("Моя неделя", ["не знаю", "ну не знаю, наверное", "ничего", "хз", "нет"]),
    "zh-hans": ("这一周", ["我也不知道啊", "不知道", "没什么", "不清楚", "没有"]),
}


@pytest.mark.parametrize("locale", list(NOTHING))
def test_an_answer_that_says_nothing_is_never_read_back(api_as, locale):
    topic, answers = NOTHING[locale]
    client = person(api_as, f"quiet-{locale}", locale)
    session_id, state = start(client, topic)
    reply_until_completion(client, session_id, state, answers)
    session = finish(client, session_id)

    shown = dialogue_cards(session_id) + list(session.key_insights)
    shown += list(
        AskMessage.objects.filter(session_id=session_id, kind=AskMessage.Kind.INSIGHT).values_list(
            "text", flat=True
        )
    )
    for text in shown:
        for said in answers:
            assert f"«{said}»" not in text
            assert f"「{said}」" not in text


@pytest.mark.parametrize("locale", list(NOTHING))
def test_a_topic_that_said_nothing_is_not_offered_again(api_as, locale):
    client = person(api_as, f"idk-topic-{locale}", locale)
    said = NOTHING[locale][1][0]
    session_id, _ = start(client, said)
    finish(client, session_id)

    created = client.post(reverse("sessions:session-list"), {}, format="json").json()
    card = client.get(url("state", created["_id"])).json()["current_card"]

    assert card["kind"] == "topic"
    assert said not in card["text"]
