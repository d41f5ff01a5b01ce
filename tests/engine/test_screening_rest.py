"""The safety net's second design through REST, per language (SPEC §3 Crisis, QUALITY C1): the
learned layer escalates what no rule matches; in the band between "clearly a crisis" and
"clearly not" the screening card asks, a yes escalates at the level the answers give, a no
records `risk.screened` and resumes; the screener asks once; risk spread over three messages
escalates while a harmless conversation with the same start does not.

The phrasings are regression lines, not claims of recall: each test first checks, through the
net's public face, the precondition that makes it meaningful (no rule matches it; no single
message would escalate), so a retrained head that moves a line fails loudly here."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app import texts
from sessions_app.engine.safety import assess, judge
from sessions_app.models import AskSession, Notification, SessionEvent
from tests import factories
from tests.engine.test_safety_rest import say, start

pytestmark = pytest.mark.django_db

CASES: dict[str, dict[str, Any]] = {
    "en": {
        "locale": "en-US",
        "learned": "the only way out of this is out of life itself",
        "band": "I've sorted out my will and who gets the dog",
        "yes": "yeah, sometimes",
        "no": "no, nothing like that",
        "how_yes": "yes, I have",
        "how_no": "no, not really",
        "spread": [
            "I've been saving my tablets",
            "there's quite a lot now",
            "it helps to know they're there",
        ],
        "harmless": [
            "I've been saving my tablets",
            "there's quite a lot now",
            "the pharmacy closes over the holidays, so I stocked up on my blood pressure pills",
        ],
        "L4": [
            "honestly I want to kill myself, I have the pills ready",
            "I want to end my life tonight",
        ],
    },
    "ru": {
        "locale": "ru-RU",
        "learned": "всё, что я делаю, бессмысленно, и так будет всегда",
        "band": "я не вижу в этом всём никакого смысла",
        "yes": "да, бывает",
        "no": "нет, такого не было",
        "how_yes": "да",
        "how_no": "нет",
        "spread": [
            "я коплю таблетки",
            "их уже много",
            "мне спокойнее, когда они есть",
        ],
        "harmless": [
            "я коплю таблетки",
            "их уже много",
            "аптека закрывается на праздники, вот и запасла лекарства от давления",
        ],
        "L4": [
            "честно, хочу покончить с собой, таблетки уже приготовлены",
            "хочу покончить с собой сегодня ночью",
        ],
    },
    "zh": {
        "locale": "zh-CN",
        "learned": "我只想让这一切都停下来",
        "band": "我觉得以后也不会好了",
        "yes": "有过",
        "no": "没有，只是有点累",
        "how_yes": "想过",
        "how_no": "没有",
        "spread": [
            "这几个月的药我都没吃",
            "全都存起来了",
            "够用了",
        ],
        "harmless": [
            "这几个月的药我都没吃",
            "全都存起来了",
            "医生说这个降压药可以停了，剩下的我打算拿回药店",
        ],
        "L4": ["说实话我想自杀，药已经准备好了", "我今晚想结束自己的生命"],
    },
}
LANGUAGES = list(CASES)


@pytest.fixture
def on_duty(db: Any) -> Any:
    return factories.on_duty_counselor("nina")


def answer(api: Any, session_id: str, state: dict[str, Any], text: str) -> dict[str, Any]:
    card = state["current_card"]
    response = api.post(
        f"/api/ask/sessions/{session_id}/answers",
        {"card_id": card["id"], "text": text},
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def escalation(session_id: str) -> dict[str, Any]:
    [event] = SessionEvent.objects.filter(session_id=session_id, type="risk.escalated")
    return event.payload


def alerts(session_id: str) -> int:
    return Notification.objects.filter(
        kind=Notification.Kind.CRISIS_ALERT, session_id=session_id
    ).count()


def in_band(case: dict[str, Any]) -> str:
    text = case["band"]
    assert judge(text, case["locale"]).action == "screen", "the band line left the band"
    return text


def screened(api: Any, session_id: str, case: dict[str, Any]) -> dict[str, Any]:
    state = say(api, session_id, "work has been a lot lately")
    state = answer(api, session_id, state, in_band(case))
    card = state["current_card"]
    assert card["kind"] == "screening"
    assert card["text"] == texts.text("screening_wish", case["locale"])
    return state


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phrasing_no_rule_matches_escalates_through_the_learned_layer(api_as, on_duty, lang):
    case = CASES[lang]
    assert not assess(case["learned"], case["locale"]).positive, "a rule matches it now"
    api, session_id = start(api_as, case["locale"])

    state = say(api, session_id, case["learned"])

    session = AskSession.objects.get(pk=session_id)
    assert session.intervention_triggered is True
    assert session.final_risk_level in ("L3", "L4")
    assert state["current_card"]["kind"] == "crisis_resources"
    payload = escalation(session_id)
    assert payload["source"] == "learned"
    assert payload["detector_version"]
    assert alerts(session_id) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_in_the_band_the_screener_asks_and_a_yes_escalates_at_the_level_it_gives(
    api_as, on_duty, lang
):
    case = CASES[lang]
    api, session_id = start(api_as, case["locale"])
    state = screened(api, session_id, case)
    assert alerts(session_id) == 0  # asking pages nobody

    state = answer(api, session_id, state, case["yes"])
    assert state["current_card"]["kind"] == "screening"
    assert state["current_card"]["text"] == texts.text("screening_how", case["locale"])
    state = answer(api, session_id, state, case["how_yes"])

    session = AskSession.objects.get(pk=session_id)
    assert session.final_risk_level == "L4"
    assert session.intervention_triggered is True
    assert state["current_card"]["kind"] == "crisis_resources"
    assert escalation(session_id)["source"] == "screening"
    assert alerts(session_id) == 1
    # The screener's questions are not the dialogue's rounds, and never go to the Analyst.
    assert state["turn_count"] == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_yes_without_a_plan_escalates_at_l3(api_as, on_duty, lang):
    case = CASES[lang]
    api, session_id = start(api_as, case["locale"])
    state = screened(api, session_id, case)

    state = answer(api, session_id, state, case["yes"])
    answer(api, session_id, state, case["how_no"])

    assert AskSession.objects.get(pk=session_id).final_risk_level == "L3"
    assert alerts(session_id) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_no_records_the_screening_and_the_dialogue_resumes(api_as, on_duty, lang):
    case = CASES[lang]
    api, session_id = start(api_as, case["locale"])
    state = screened(api, session_id, case)

    state = answer(api, session_id, state, case["no"])

    assert state["current_card"]["kind"] not in ("screening", "crisis_resources")
    session = AskSession.objects.get(pk=session_id)
    assert session.intervention_triggered is False
    assert session.final_risk_level in ("", None, "L0")
    assert alerts(session_id) == 0
    [event] = SessionEvent.objects.filter(session_id=session_id, type="risk.screened")
    assert event.payload["result"] == "negative"
    assert event.payload["detector_version"]
    assert 0 < event.payload["score"] < 1
    # The screener's questions and answers are not in what the client's history shows.
    assert all(
        pair["question"] != texts.text("screening_wish", case["locale"])
        for pair in state["answered"]
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_screener_is_not_asked_twice(api_as, on_duty, lang):
    case = CASES[lang]
    api, session_id = start(api_as, case["locale"])
    state = screened(api, session_id, case)
    state = answer(api, session_id, state, case["no"])

    state = answer(api, session_id, state, in_band(case))

    assert state["current_card"]["kind"] != "screening"
    assert SessionEvent.objects.filter(session_id=session_id, type="risk.screened").count() == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_crisis_spread_over_three_messages_escalates(api_as, on_duty, lang):
    case = CASES[lang]
    for text in case["spread"]:
        assert not judge(text, case["locale"]).escalates, f"escalates on its own: {text}"
    api, session_id = start(api_as, case["locale"])

    state = say(api, session_id, "work has been a lot lately")
    for text in case["spread"]:
        # The client keeps talking, whatever card is showing (the screener's included).
        state = answer(api, session_id, state, text)

    session = AskSession.objects.get(pk=session_id)
    assert session.intervention_triggered is True
    # Read together (or, when the screener asked on the way, by the client's answers to it).
    assert escalation(session_id)["source"] in ("conversation", "screening")
    assert alerts(session_id) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_harmless_conversation_with_the_same_start_does_not_escalate(api_as, on_duty, lang):
    case = CASES[lang]
    api, session_id = start(api_as, case["locale"])

    state = say(api, session_id, "work has been a lot lately")
    for text in case["harmless"]:
        state = answer(api, session_id, state, text)
        if state["current_card"]["kind"] == "screening":
            state = answer(api, session_id, state, case["no"])

    session = AskSession.objects.get(pk=session_id)
    assert session.intervention_triggered is False
    assert alerts(session_id) == 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_wish_to_die_with_a_means_at_hand_or_a_time_is_l4(api_as, on_duty, lang):
    case = CASES[lang]
    for text in case["L4"]:
        api, session_id = start(api_as, case["locale"])
        say(api, session_id, text)
        assert AskSession.objects.get(pk=session_id).final_risk_level == "L4", text
