"""Three languages end to end: whole sessions through REST with the offline engine in
English, Russian and Chinese; Russian cards that agree with the client's gender; the language
the client writes in; notifications in the client's language."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pymorphy3
import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from sessions_app import services
from sessions_app.engine.agents.schemas import ANALYST_TOOL, NARRATOR_TOOL
from sessions_app.jobs import lifecycle
from sessions_app.models import AskSession, Notification, SessionEvent, UserProfile
from tests import factories
from tests import fake_anthropic as fake
from tests.agent_outputs import analyst_output, narrator_output
from tests.engine import test_rest_session as rest_session
from tests.engine.conftest import answer

pytestmark = pytest.mark.django_db

ANSWERS = {
    "en": rest_session.ANSWERS,
    "ru": [
        "Я откладываю тяжёлый разговор с начальником о нагрузке на работе.",
        "Говорю себе, что станет только хуже, и начинаю тревожиться.",
        "Чаще всего ночью прокручиваю в голове, что скажу, и не могу уснуть.",
        "Партнёр советует просто поговорить, но мне страшно.",
        "Кажется, боюсь показаться слабым человеком в глазах коллег.",
        "Можно записать два главных пункта, которые хочется сказать.",
        "Вообще-то от этого немного легче.",
        "Можно попросить пятнадцать минут в понедельник.",
        "Да, на сегодня достаточно, теперь понятно.",
        "Больше ничего не приходит в голову.",
    ],
    "zh": [
        "我一直不敢和领导谈工作量太大的问题。",
        "我总告诉自己，说了只会更糟，然后就很焦虑。",
        "大多是在晚上，我会反复想要说什么，然后睡不着。",
        "我的伴侣说直接谈就好，可我一直在逃避。",
        "我觉得我是怕领导会觉得我很软弱。",
        "也许我可以先写下想说的两点。",
        "这样一想，心里踏实了一点。",
        "我可以约周一的十五分钟。",
        "嗯，今天就到这里吧，我明白了。",
        "没有别的了。",
    ],
}
TOPIC = {"en": "Work stress", "ru": "Стресс на работе", "zh": "工作压力"}
RESCHEDULE = {
    "en": "Can we reschedule to Friday at 3 pm?",
    "ru": "Можно перенести следующую встречу на пятницу в 15:00?",
    "zh": "下次能改到周五下午三点吗？",
}
FIRST_TOPIC = {"en": "My sister", "ru": "Ссора с сестрой", "zh": "和姐姐吵架"}
LATIN_WORD = re.compile(r"[A-Za-z]+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
CJK = re.compile(r"[\u4e00-\u9fff]")
morph = pymorphy3.MorphAnalyzer()


def url(name: str, session_id: Any) -> str:
    return reverse(f"sessions:session-{name}", kwargs={"session_id": session_id})


def session_of_a_new_client(api_as: Any, username: str, locale: str) -> tuple[Any, str]:
    """A client of its own whose profile is in `locale`, and the id of a session it opened."""
    user = factories.ClientFactory(username=username)
    factories.UserProfileFactory(user=user, locale=locale)
    client = api_as(user)
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    return client, session_id


def client_with_history(locale: str) -> Any:
    """A client whose profile is in `locale`, with one earlier closed session in it."""
    user = factories.ClientFactory(username=f"client-{locale}")
    factories.UserProfileFactory(user=user, locale=locale)
    factories.AskSessionFactory(
        user=user,
        status="completed",
        locale=locale,
        slots={"topic": FIRST_TOPIC[locale]},
        session_summary="…",
    )
    return user


def shown(state: dict[str, Any]) -> list[str]:
    """Every text a state document puts in front of the client: the notice and the card."""
    texts = []
    notice = state.get("notice") or {}
    texts += [notice.get("text") or "", *(notice.get("items") or [])]
    card = state.get("current_card") or {}
    texts.append(card.get("text") or "")
    return [text for text in texts if text]


def play(client: Any, locale: str, answers: list[str]) -> dict[str, Any]:
    """Start → hooks → topic → batches → completion → closing → one last thing with a
    reschedule → closed. Returns every shown text, the client's own words and the states."""
    created = client.post(reverse("sessions:session-list"), {}, format="json")
    assert created.status_code == 201, created.content
    session_id = created.json()["_id"]
    states = [client.get(url("state", session_id)).json()]
    own = [TOPIC[locale], FIRST_TOPIC[locale], RESCHEDULE[locale]]
    state = client.post(url("messages", session_id), {"text": TOPIC[locale]}, format="json").json()
    states.append(state)
    for text in answers * 2:
        card = state["current_card"]
        if card["kind"] == "completion":
            break
        response = client.post(
            url("answers", session_id), {"card_id": card["id"], "text": text}, format="json"
        )
        assert response.status_code == 200, response.content
        state = response.json()
        states.append(state)
        own.append(text)
    assert state["current_card"]["kind"] == "completion"
    ended = client.post(url("end", session_id), {}, format="json").json()
    assert ended["current_card"]["kind"] == "last_thing"
    closed = client.post(url("last-thing", session_id), {"text": RESCHEDULE[locale]}, format="json")
    assert closed.status_code == 200, closed.content
    states += [ended, closed.json()]
    assert closed.json()["status"] == "completed"
    texts = [text for state in states for text in shown(state)]
    return {"session_id": session_id, "texts": texts, "own": own, "states": states}


def foreign_latin_words(text: str, own: list[str]) -> list[str]:
    """Latin-alphabet words in `text` that are not the client's own."""
    mine = {word.lower() for words in own for word in LATIN_WORD.findall(words)}
    return [word for word in LATIN_WORD.findall(text) if word.lower() not in mine]


@pytest.mark.parametrize("locale", ["en", "ru", "zh"])
def test_a_whole_session_speaks_the_clients_language_from_start_to_closed(locale, api_as):
    user = client_with_history(locale)
    played = play(api_as(user), locale, ANSWERS[locale])
    session = AskSession.objects.get(pk=played["session_id"])
    texts = played["texts"]

    opening = played["states"][0]["notice"]
    assert opening["kind"] == "intro"
    assert len(opening["items"]) >= 1  # a hook from the earlier session
    assert FIRST_TOPIC[locale] in opening["items"][0]
    events = SessionEvent.objects.filter(session=session, type="analyst.responded")
    assert events.count() >= 3  # three batches at least
    assert session.status == "completed"
    assert any(
        state["notice"] and state["notice"]["kind"] == "closing" for state in played["states"]
    )
    assert UserProfile.objects.get(user=user).schedule_weekdays == [5]
    for text in texts:
        if locale == "zh":
            assert CJK.search(text), text
            assert not foreign_latin_words(text, played["own"]), text
            assert "。 " not in text, text  # Chinese sentences follow each other unspaced
        elif locale == "ru":
            assert CYRILLIC.search(text), text
            assert not foreign_latin_words(text, played["own"]), text
        else:
            assert not CYRILLIC.search(text), text
            assert not CJK.search(text), text


def test_a_schedule_change_notification_is_written_in_the_clients_language(api_as):
    titles = {}
    for locale in ("ru", "zh"):
        user = client_with_history(locale)
        play(api_as(user), locale, ANSWERS[locale])
        changed = Notification.objects.get(user=user, kind=Notification.Kind.SCHEDULE_CHANGED)
        titles[locale] = changed.payload["title"]
    assert titles["ru"].startswith("Следующая сессия теперь в пятницу, ")
    assert titles["ru"].endswith(" в 15:00.")
    assert titles["zh"].startswith("你的下一次会谈已改到")
    assert "（周五）15:00" in titles["zh"]
    assert not LATIN_WORD.search(titles["zh"])


@pytest.mark.parametrize(
    ("locale", "title"),
    [
        ("ru", "Мы не успели закончить в прошлый раз. Вернёмся?"),
        ("zh", "上次我们还没有聊完。要回来继续吗？"),
    ],
)
def test_a_resume_reminder_is_written_in_the_clients_language(locale, title, api_as):
    user = factories.ClientFactory(username=f"resume-{locale}")
    factories.UserProfileFactory(user=user, locale=locale)
    client = api_as(user)
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    client.post(url("messages", session_id), {"text": TOPIC[locale]}, format="json")

    with time_machine.travel(timezone.now() + timedelta(hours=21), tick=False):
        lifecycle.sessions_abandoned_close()

    reminder = Notification.objects.get(user=user, kind=Notification.Kind.RESUME_SESSION)
    assert reminder.payload["title"] == title


def test_a_client_with_an_english_locale_who_writes_russian_is_answered_in_russian(api_as):
    client, session_id = session_of_a_new_client(api_as, "writes-russian", "en")
    opening = client.get(url("state", session_id)).json()
    assert opening["current_card"]["text"] == "What would you like to talk about today?"

    state = client.post(
        url("messages", session_id),
        {"text": "Я поссорилась с сестрой и не могу успокоиться"},
        format="json",
    ).json()

    card = state["current_card"]["text"]
    assert CYRILLIC.search(card), card
    assert not LATIN_WORD.search(card), card
    assert AskSession.objects.get(pk=session_id).locale == "ru"


def test_a_short_ok_keeps_the_sessions_language(api_as):
    client, session_id = session_of_a_new_client(api_as, "says-ok", "ru")

    state = client.post(url("messages", session_id), {"text": "ok"}, format="json").json()

    card = state["current_card"]["text"]
    assert CYRILLIC.search(card), card
    assert not LATIN_WORD.search(card), card
    assert AskSession.objects.get(pk=session_id).locale == "ru"


# --- Russian gender ---------------------------------------------------------------------------

FEMININE = [
    "Я поссорилась с сестрой и до сих пор злюсь.",
    "Я так растерялась, когда она это сказала.",
    "Вчера я опять сорвалась и накричала на неё.",
    "Я была уверена, что она меня не слышит.",
    "Я боялась ей позвонить первой.",
    "Рада, что могу об этом сказать.",
    "Я сама виновата, наверное, но обидно.",
    "Я пыталась объяснить, но не смогла.",
    "Я поняла, что мне важно, чтобы меня услышали.",
    "Больше ничего не приходит в голову.",
]
MASCULINE = [
    "Я поссорился с братом и до сих пор злюсь.",
    "Я так растерялся, когда он это сказал.",
    "Вчера я опять сорвался и накричал на него.",
    "Я был уверен, что он меня не слышит.",
    "Я боялся ему позвонить первым.",
    "Рад, что могу об этом сказать.",
    "Я сам виноват, наверное, но обидно.",
    "Я пытался объяснить, но не смог.",
    "Я понял, что мне важно, чтобы меня услышали.",
    "Больше ничего не приходит в голову.",
]


def agreeing_genders(text: str) -> list[str]:
    """The gender of each singular past-tense verb or short adjective that agrees with "ты"
    (within a few words after it: "ты так и не смогла", "ты готов"), outside quotes."""
    words = re.findall(r"[А-Яа-яЁё]+", re.sub(r"«[^»]*»", "", text).lower())
    found = []
    for at, word in enumerate(words):
        if word != "ты":
            continue
        for after in words[at + 1 : at + 5]:
            tag = morph.parse(after)[0].tag
            if (("VERB" in tag and "past" in tag) or "ADJS" in tag) and "sing" in tag:
                found += [g for g in ("masc", "femn") if g in tag]
                break
    return found


def self_gendered(text: str) -> list[str]:
    """Singular past-tense verbs and short adjectives with no subject before them in their
    clause: the speaker talking about itself ("Рад снова тебя видеть")."""
    found = []
    for clause in re.split(r"[.!?,;:—]", re.sub(r"«[^»]*»", "", text)):
        words = re.findall(r"[А-Яа-яЁё]+", clause.lower())
        if words:
            tag = morph.parse(words[0])[0].tag
            if (("VERB" in tag and "past" in tag) or "ADJS" in tag) and "sing" in tag:
                found.append(words[0])
    return found


@pytest.mark.parametrize(("answers", "gender"), [(FEMININE, "femn"), (MASCULINE, "masc")])
def test_russian_cards_and_intro_agree_with_the_clients_gender(answers, gender, api_as):
    user = client_with_history("ru")
    played = play(api_as(user), "ru", answers)

    agent_texts = [text for text in played["texts"] if text not in played["own"]]
    genders = [g for text in agent_texts for g in agreeing_genders(text)]
    assert gender in genders  # the session did say something gendered to the client…
    assert set(genders) == {gender}  # …and always in the client's gender
    assert not any("(а)" in text or "(ла)" in text for text in played["texts"])
    intro = played["states"][0]["notice"]
    assert self_gendered(intro["text"]) == []  # the agent never genders itself
    assert agreeing_genders(intro["text"]) in ([], [gender])
    assert intro["items"][0] == f"В прошлый раз мы говорили вот о чём: «{FIRST_TOPIC['ru']}»."


def test_before_the_client_tells_its_gender_no_card_guesses_it(api_as):
    client, session_id = session_of_a_new_client(api_as, "unknown-gender", "ru")
    state = client.post(url("messages", session_id), {"text": TOPIC["ru"]}, format="json").json()
    texts = shown(state)
    for text in ANSWERS["ru"][:3]:
        card = state["current_card"]
        state = client.post(
            url("answers", session_id), {"card_id": card["id"], "text": text}, format="json"
        ).json()
        texts += shown(state)
    assert all(agreeing_genders(text) == [] for text in texts), texts


# --- the anthropic provider -------------------------------------------------------------------


def test_the_model_is_told_the_clients_language_and_the_narrator_marker_is_in_it(fake_anthropic):
    user = factories.ClientFactory(username="zh-anthropic")
    factories.UserProfileFactory(user=user, locale="zh")
    session = services.session_create(owner=user, actor=user)
    fake_anthropic.queue(
        fake.tool_use(ANALYST_TOOL, analyst_output(questions=["用户在逃避和领导谈话。"])),
        fake.tool_use(NARRATOR_TOOL, narrator_output("你在逃避和领导谈话吗？")),
    )

    state = answer(session, "工作压力很大")

    assert state["current_card"]["text"] == "你在逃避和领导谈话吗？"
    analyst_body, narrator_body = fake_anthropic.requests
    narrator_system = narrator_body["system"][0]["text"]
    assert narrator_system.startswith("你在「naisei」中工作")
    assert "Answer language: Simplified Chinese (zh)" in narrator_system
    assert "Answer language: Simplified Chinese (zh)" in analyst_body["system"][1]["text"]
    for body in (analyst_body, narrator_body):
        assert '"client_language": "zh"' in str(body["messages"][-1]["content"])


def test_a_hook_from_a_session_in_another_language_is_skipped_never_quoted(api_as):
    user = factories.ClientFactory(username="changed-language")
    factories.UserProfileFactory(user=user, locale="en")
    factories.AskSessionFactory(
        user=user, status="completed", locale="ru", slots={"topic": "Ссора с сестрой"}
    )
    client = api_as(user)
    session_id = client.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]

    state = client.get(url("state", session_id)).json()

    assert state["notice"]["text"].startswith("Good to see you again.")
    assert state["notice"]["items"] == []
    assert state["current_card"]["text"] == "What would you like to talk about today?"
    assert not any(CYRILLIC.search(text) for text in shown(state))


def test_a_client_writing_traditional_chinese_is_read_and_answered_in_simplified(api_as):
    client, session_id = session_of_a_new_client(api_as, "writes-traditional", "zh-Hant")
    opening = client.get(url("state", session_id)).json()
    assert opening["current_card"]["text"] == "今天你想聊些什么？"

    state = client.post(
        url("messages", session_id), {"text": "工作壓力很大，我覺得好累，不想再說了"}, format="json"
    ).json()

    # tiredness read through the folding: no next question, the completion card instead
    assert state["current_card"]["kind"] == "completion"
    assert CJK.search(state["current_card"]["text"])
    assert not LATIN_WORD.search(state["current_card"]["text"])
