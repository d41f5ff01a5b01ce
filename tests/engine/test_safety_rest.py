"""The safety net end to end through REST, one language at a time (SPEC §3): a crisis text
gets the level the severity rule gives (a means with an intent or a time → L4, else L3),
`intervention_triggered`, the crisis lines in the client's language and region, and a
`crisis_alert` for the on-duty counselors; an idiom of the same language gets nothing."""

from __future__ import annotations

import pytest

from sessions_app.models import AskSession, Notification, SessionEvent
from tests import factories

pytestmark = pytest.mark.django_db

LANGUAGES = {
    "en": {
        "locale": "en-US",
        "L3": "honestly everyone would be better off without me",
        "L4": "I have the pills saved up and I'm taking them all tonight",
        "idiom": "this commute is killing me lol, I'm dying to get home",
        "line": "988",
    },
    "ru": {
        "locale": "ru-RU",
        "L3": "не хочу больше жить",
        "L4": "я купила верёвку и сегодня ночью повешусь",
        "idiom": "я умираю от смеха с этого видео, убей меня, но не помню его название",
        "line": "8-800-2000-122",
    },
    "zh": {
        "locale": "zh-TW",
        "L3": "我真的不想活了",
        "L4": "我已經買好了安眠藥，今晚全部吃掉",
        "idiom": "笑死我了，今天熱死了，累死了",
        "line": "1925",
    },
}


@pytest.fixture
def on_duty(db):
    return factories.on_duty_counselor("nina")


def start(api_as, locale):
    client = factories.ClientFactory()
    factories.UserProfileFactory(user=client, locale=locale, time_zone="UTC")
    api = api_as(client)
    created = api.post("/api/ask/sessions", {}, format="json")
    assert created.status_code == 201, created.content
    return api, created.json()["_id"]


def say(api, session_id, text):
    response = api.post(f"/api/ask/sessions/{session_id}/messages", {"text": text}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("level", ["L3", "L4"])
def test_a_crisis_text_escalates_with_the_lines_of_the_clients_language(
    api_as, on_duty, language, level
):
    case = LANGUAGES[language]
    api, session_id = start(api_as, case["locale"])

    state = say(api, session_id, case[level])

    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level == level
    assert session.intervention_triggered is True
    assert state["notice"]["kind"] == "crisis_resources"
    assert any(case["line"] in item for item in state["notice"]["items"])
    [alert] = Notification.objects.filter(kind=Notification.Kind.CRISIS_ALERT, session=session)
    assert alert.user == on_duty
    escalated = SessionEvent.objects.get(session=session, type="risk.escalated")
    assert escalated.payload["categories"]
    assert all(span in case[level] for span in escalated.payload["spans"])


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_an_idiom_is_nothing(api_as, on_duty, language):
    case = LANGUAGES[language]
    api, session_id = start(api_as, case["locale"])

    state = say(api, session_id, case["idiom"])

    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level in ("", None, "L0")
    assert session.intervention_triggered is False
    assert state["notice"] is None or state["notice"]["kind"] != "crisis_resources"
    assert not Notification.objects.filter(kind=Notification.Kind.CRISIS_ALERT).exists()


@pytest.mark.parametrize(
    ("locale", "text"),
    [("en-US", "I'm just so tired of living"), ("ru-RU", "я устала жить"), ("zh-TW", "活著好累")],
)
def test_distress_shaped_like_tiredness_is_never_offered_the_end(api_as, on_duty, locale, text):
    api, session_id = start(api_as, locale)

    state = say(api, session_id, text)

    assert state["ready_to_close"] is False
    assert state["current_card"]["kind"] == "crisis_resources"
    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level == "L3"
    assert not session.events.filter(type="pacing.ready_to_close").exists()


@pytest.mark.parametrize(
    ("locale", "text"), [("en-US", "I'm tired, can we stop"), ("ru-RU", "устала, давай закончим")]
)
def test_plain_tiredness_is_still_tiredness(api_as, on_duty, locale, text):
    api, session_id = start(api_as, locale)
    say(api, session_id, "work has been a lot")

    state = say(api, session_id, text)

    assert state["ready_to_close"] is True  # the client is offered the end, as it asked
    assert state["current_card"]["kind"] == "completion"
    session = AskSession.objects.get(pk=session_id)
    assert session.intervention_triggered is False
    assert not Notification.objects.filter(kind=Notification.Kind.CRISIS_ALERT).exists()


def test_inside_a_crisis_a_bare_plan_raises_the_risk_to_l4(api_as, on_duty):
    api, session_id = start(api_as, "en-US")
    say(api, session_id, "honestly everyone would be better off without me")
    assert AskSession.objects.get(pk=session_id).final_risk_level == "L3"

    say(api, session_id, "yes. I have a plan.")

    assert AskSession.objects.get(pk=session_id).final_risk_level == "L4"
