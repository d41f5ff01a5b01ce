"""The crisis loop as the client lives it (SPEC §3 Crisis and Opening, QUALITY C2),
through REST with the offline engine:

- what the client is shown never quotes crisis words back nor carries the Analyst's
  third-person notes — before, in and after the crisis session;
- a crisis written in answer to any card is the crisis, not the card's answer;
- after a counselor hands the conversation back, the client is checked in with first, and a
  steer note that names a topic is followed by the offline engine.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from sessions_app.engine.offline import common
from sessions_app.engine.offline.banks import DATA
from sessions_app.jobs import lifecycle
from sessions_app.models import AskMessage, AskSession, SessionEvent, Task, TaskStatus
from tests import factories

pytestmark = pytest.mark.django_db

# The subject of the Analyst's notes, in any case: it never reaches a client.
THIRD_PERSON = re.compile(r"\bthe user\b|пользовател|用户", re.IGNORECASE)

PLAYS = {
    "en": {
        "locale": "en-US",
        "topic": "work and my mother",
        "answer": "my boss shouts at me and I feel anxious about every meeting",
        "crisis": "I can't go on, I want to kill myself, I have the pills ready",
        "safe": "I am at home with my sister now",
        "check_in": "Last time was a hard conversation. How are you today?",
        "back": "Thank you for waiting. How are you feeling right now?",
        "steer": "talk about her mother",
        "work": ["my boss shouts at me every day", "the deadlines at work never stop"],
    },
    "ru": {
        "locale": "ru-RU",
        "topic": "работа и мама",
        "answer": "начальник кричит на меня, и я тревожусь перед каждым совещанием",
        "crisis": "я больше не хочу жить, у меня есть таблетки",
        "safe": "я сейчас дома с сестрой",
        "check_in": "В прошлый раз разговор был непростым. Как ты сегодня?",
        "back": "Спасибо за терпение. Как ты себя чувствуешь сейчас?",
        "steer": "поговори с ней о маме",
        "work": ["начальник кричит на меня каждый день", "на работе сроки горят постоянно"],
    },
    "zh": {
        "locale": "zh-CN",
        "topic": "工作和我妈妈",
        "answer": "老板总是对我大吼，每次开会我都很焦虑",
        "crisis": "我真的不想活了，药已经准备好了",
        "safe": "我现在和姐姐在家",
        "check_in": "上次的谈话很不容易。你今天怎么样？",
        "back": "谢谢你的等待。你现在感觉怎么样？",
        "steer": "和她聊聊她的妈妈",
        "work": ["老板每天都对我大吼", "工作的截止日期一个接一个"],
    },
}


def url(name: str, session_id: Any) -> str:
    return reverse(f"sessions:session-{name}", kwargs={"session_id": session_id})


def client_in(locale: str) -> Any:
    factories.on_duty_counselor("nina")
    client = factories.ClientFactory()
    factories.UserProfileFactory(user=client, locale=locale, time_zone="UTC")
    return client


class Seen:
    """Every payload the client received, in order."""

    def __init__(self, api: Any) -> None:
        self.api, self.payloads = api, []

    def _keep(self, response: Any) -> dict[str, Any]:
        assert response.status_code in (200, 201), response.content
        self.payloads.append(response.json())
        return response.json()

    def get(self, path: str) -> dict[str, Any]:
        return self._keep(self.api.get(path))

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._keep(self.api.post(path, body or {}, format="json"))

    def answer(self, session_id: Any, state: dict[str, Any], text: str) -> dict[str, Any]:
        body = {"card_id": state["current_card"]["id"], "text": text}
        return self.post(url("answers", session_id), body)


def own_words_dropped(payload: Any) -> Any:
    """A payload without the client's own answers in its `answered` list: the record of what
    the client wrote in this session is theirs, not something quoted back to them."""
    if isinstance(payload, dict):
        return {
            key: (
                [{**pair, "answer": ""} for pair in value]
                if key == "answered" and isinstance(value, list)
                else own_words_dropped(value)
            )
            for key, value in payload.items()
        }
    if isinstance(payload, list):
        return [own_words_dropped(item) for item in payload]
    return payload


def play_into_a_crisis(seen: Seen, play: dict[str, str]) -> str:
    created = seen.post(reverse("sessions:session-list"))
    session_id = created["_id"]
    seen.get(url("state", session_id))
    state = seen.post(url("messages", session_id), {"text": play["topic"]})
    state = seen.answer(session_id, state, play["answer"])
    state = seen.answer(session_id, state, play["crisis"])
    assert AskSession.objects.get(pk=session_id).intervention_triggered
    seen.answer(session_id, state, play["safe"])
    seen.post(url("end", session_id))
    seen.post(url("last-thing", session_id), {"finish": True})
    return session_id


@pytest.mark.parametrize("lang", list(PLAYS))
def test_nothing_the_client_receives_quotes_the_crisis_or_speaks_of_the_user(api_as, lang):
    play = PLAYS[lang]
    seen = Seen(api_as(client_in(play["locale"])))

    crisis_id = play_into_a_crisis(seen, play)
    seen.get(reverse("sessions:session-detail", kwargs={"session_id": crisis_id}))
    after = seen.post(reverse("sessions:session-list"))["_id"]
    opening = seen.get(url("state", after))
    seen.get(reverse("sessions:session-detail", kwargs={"session_id": after}))
    seen.get(reverse("sessions:session-list"))

    spans = SessionEvent.objects.get(session_id=crisis_id, type="risk.escalated").payload["spans"]
    assert spans
    shown = json.dumps(own_words_dropped(seen.payloads), ensure_ascii=False)
    for span in spans:
        assert span.lower() not in shown.lower()
    assert not THIRD_PERSON.search(shown), THIRD_PERSON.search(shown)
    assert opening["notice"]["items"] == [play["check_in"]]


@pytest.mark.parametrize("lang", list(PLAYS))
def test_key_insights_and_hooks_reach_the_client_in_the_second_person(api_as, lang):
    """An ordinary session: the offline summary's insights are the Analyst's patterns, which
    the client reads only as the Narrator would say them."""
    play = PLAYS[lang]
    seen = Seen(api_as(client_in(play["locale"])))
    session_id = seen.post(reverse("sessions:session-list"))["_id"]
    state = seen.post(url("messages", session_id), {"text": play["topic"]})
    for text in [play["answer"], *play["work"]]:
        state = seen.answer(session_id, state, text)
    seen.post(url("end", session_id))
    seen.post(url("last-thing", session_id), {"finish": True})
    detail = seen.get(reverse("sessions:session-detail", kwargs={"session_id": session_id}))
    after = seen.post(reverse("sessions:session-list"))["_id"]
    seen.get(url("state", after))

    assert detail["key_insights"]
    shown = json.dumps(own_words_dropped(seen.payloads), ensure_ascii=False)
    assert not THIRD_PERSON.search(shown), THIRD_PERSON.search(shown)


# --- a crisis in answer to a card ---------------------------------------------------------------


def _reviewable_task(client: Any) -> Task:
    earlier = factories.AskSessionFactory(user=client, status=AskSession.Status.COMPLETED)
    return factories.TaskFactory(
        session=earlier, title="Test one prediction", status=TaskStatus.ACCEPTED
    )


def test_a_crisis_answer_to_the_homework_review_leaves_the_task_open_and_is_the_crisis(api_as):
    client = client_in("en-US")
    task = _reviewable_task(client)
    seen = Seen(api_as(client))
    session_id = seen.post(reverse("sessions:session-list"))["_id"]
    state = seen.get(url("state", session_id))
    assert state["current_card"]["kind"] == "task_review"

    seen.answer(session_id, state, "honestly I want to kill myself, I have the pills ready")

    shown = seen.get(reverse("sessions:task-detail", kwargs={"task_id": task.pk}))
    assert shown["status"] == TaskStatus.ACCEPTED
    assert shown["review_session_id"] is None
    assert shown["review_message_id"] is None
    events = list(SessionEvent.objects.filter(session_id=session_id).order_by("seq"))
    escalated = next(i for i, e in enumerate(events) if e.type == "risk.escalated")
    # The client's words the escalation follows (the crisis flow's own moves come between).
    said = next(e for e in reversed(events[:escalated]) if e.actor == "client")
    assert said.type == "answer.received"
    message = AskMessage.objects.get(pk=said.payload["message_id"])
    assert message.role == "client"
    assert "kill myself" in message.text
    assert not SessionEvent.objects.filter(session_id=session_id, type="task.reviewed").exists()


def test_a_crisis_answer_to_the_topic_card_is_not_the_sessions_topic(api_as):
    client = client_in("en-US")
    seen = Seen(api_as(client))
    session_id = seen.post(reverse("sessions:session-list"))["_id"]
    state = seen.get(url("state", session_id))
    assert state["current_card"]["kind"] == "topic"

    seen.answer(session_id, state, "I want to kill myself tonight")

    session = AskSession.objects.get(pk=session_id)
    assert session.intervention_triggered
    assert "topic" not in session.slots
    assert "topic" not in session.resumable_slots  # nor in the flow the crisis interrupted


def test_an_escalated_sessions_mood_reads_as_a_crisis(api_as, bob):
    play = PLAYS["en"]
    client = factories.ClientFactory()
    factories.UserProfileFactory(user=client, locale="en-US", time_zone="UTC")
    factories.CaseloadAssignmentFactory(counselor=bob, client=client)
    factories.on_duty_counselor("nina")
    seen = Seen(api_as(client))

    crisis_id = play_into_a_crisis(seen, play)

    detail = seen.get(reverse("sessions:session-detail", kwargs={"session_id": crisis_id}))
    assert "Mood stayed even" not in detail["session_summary"]
    assert "crisis" in detail["session_summary"].lower()
    staff = api_as()
    staff.force_login(bob)
    page = staff.get(reverse("pages:session", kwargs={"session_id": crisis_id}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "orb--crisis" in html
    assert "orb--stable" not in html


# --- hand-back ----------------------------------------------------------------------------------


def _held_session(api_as: Any, lang: str, bob: Any) -> tuple[Any, Any, str, dict[str, Any]]:
    play = PLAYS[lang]
    client = factories.ClientFactory()
    factories.UserProfileFactory(user=client, locale=play["locale"], time_zone="UTC")
    factories.CaseloadAssignmentFactory(counselor=bob, client=client)
    api, staff = api_as(client), api_as(bob)
    session_id = api.post(reverse("sessions:session-list"), {}, format="json").json()["_id"]
    state = api.post(url("messages", session_id), {"text": play["topic"]}, format="json").json()
    claimed = staff.post(url("claim", session_id), {}, format="json")
    assert claimed.status_code in (200, 201), claimed.content
    return api, staff, session_id, state


@pytest.mark.parametrize("lang", list(PLAYS))
def test_after_a_hand_back_the_first_card_checks_in(api_as, bob, lang):
    api, staff, session_id, _ = _held_session(api_as, lang, bob)
    assert staff.post(url("take-over", session_id), {}, format="json").status_code == 200
    said = {"text": "I'm here. Tell me more."}
    assert staff.post(url("counselor-messages", session_id), said, format="json").status_code in (
        200,
        201,
    )
    assert (
        api.post(url("messages", session_id), {"text": PLAYS[lang]["answer"]}, format="json")
    ).status_code == 200

    handed = staff.post(url("hand-back", session_id), {}, format="json")

    assert handed.status_code == 200, handed.content
    state = api.get(url("state", session_id)).json()
    assert state["current_card"]["text"] == PLAYS[lang]["back"]


def _family_cards(lang: str) -> set[str]:
    templates = DATA[lang]["listening"]["templates"]["theme"]["family"]
    return {
        common.second_person_question(t, lang, formal=False, gender=gender)
        for t in templates
        for gender in ("", "femn", "masc")
    }


@pytest.mark.parametrize("lang", list(PLAYS))
def test_a_steer_note_naming_a_topic_brings_the_next_question_from_its_bank(api_as, bob, lang):
    play = PLAYS[lang]
    api, staff, session_id, state = _held_session(api_as, lang, bob)
    steered = staff.post(url("steer", session_id), {"text": play["steer"]}, format="json")
    assert steered.status_code == 201, steered.content

    for text in play["work"]:
        card = state["current_card"]
        body = {"card_id": card["id"], "text": text}
        state = api.post(url("answers", session_id), body, format="json").json()

    assert state["current_card"]["text"] in _family_cards(lang)


def test_the_steer_form_says_what_the_offline_engine_does_with_a_note(client, bob, alice):
    session = factories.ActiveSessionFactory(user=alice)
    client.force_login(bob)

    page = client.get(reverse("pages:session", kwargs={"session_id": session.pk}))

    html = page.content.decode()
    assert "steer-form" in html
    assert "The offline engine reads a topic from your note" in html


def test_a_crisis_in_the_last_thing_is_a_message_not_a_note(api_as):
    client = client_in("en-US")
    seen = Seen(api_as(client))
    session_id = seen.post(reverse("sessions:session-list"))["_id"]
    state = seen.post(url("messages", session_id), {"text": "work"})
    seen.answer(session_id, state, "my boss shouts at me and I feel anxious")
    seen.post(url("end", session_id))

    seen.post(url("last-thing", session_id), {"text": "I want to kill myself tonight"})

    session = AskSession.objects.get(pk=session_id)
    assert session.is_active
    assert session.intervention_triggered
    said = AskMessage.objects.get(session=session, text="I want to kill myself tonight")
    assert said.role == "client"
    assert said.kind == AskMessage.Kind.TEXT


@pytest.mark.parametrize("lang", list(PLAYS))
def test_a_crisis_session_left_unfinished_is_summarised_without_the_crisis_words(
    api_as, settings, lang
):
    play = PLAYS[lang]
    seen = Seen(api_as(client_in(play["locale"])))
    session_id = seen.post(reverse("sessions:session-list"))["_id"]
    state = seen.post(url("messages", session_id), {"text": play["topic"]})
    state = seen.answer(session_id, state, play["answer"])
    seen.answer(session_id, state, play["crisis"])
    later = timezone.now() + settings.SESSION_ABANDON_AFTER + timedelta(minutes=5)

    with time_machine.travel(later, tick=False):
        lifecycle.sessions_abandoned_close()

    detail = seen.get(reverse("sessions:session-detail", kwargs={"session_id": session_id}))
    assert detail["status"] == AskSession.Status.COMPLETED_PARTIAL
    spans = SessionEvent.objects.get(session_id=session_id, type="risk.escalated").payload["spans"]
    shown = json.dumps(detail, ensure_ascii=False).lower()
    assert not any(span.lower() in shown for span in spans)
    assert not THIRD_PERSON.search(shown)


def test_a_crisis_answer_to_the_scheduler_card_moves_nothing_and_keeps_the_session_open(api_as):
    client = client_in("en-US")
    seen = Seen(api_as(client))
    session_id = seen.post(reverse("sessions:session-list"))["_id"]
    state = seen.post(url("messages", session_id), {"text": "work"})
    seen.answer(session_id, state, "my boss shouts at me and I feel anxious")
    seen.post(url("end", session_id))
    state = seen.post(url("last-thing", session_id), {"text": "I can't make it on Thursday"})
    assert state["current_card"]["kind"] == "scheduler"
    weekdays = list(client.profile.schedule_weekdays)

    seen.answer(session_id, state, "there will be no next session, I'm going to kill myself")

    session = AskSession.objects.get(pk=session_id)
    assert session.is_active
    assert session.intervention_triggered
    client.profile.refresh_from_db()
    assert client.profile.schedule_weekdays == weekdays
    assert not SessionEvent.objects.filter(session=session, type="schedule.changed").exists()


def test_a_pattern_learned_in_a_crisis_session_is_never_a_hook(api_as):
    """Two sessions on, the crisis session is no longer the last one: its notes still stay out
    of the opening, which recalls only the ordinary session in between."""
    client = client_in("en-US")
    crisis = factories.AskSessionFactory(
        user=client, status=AskSession.Status.COMPLETED, intervention_triggered=True
    )
    ordinary = factories.AskSessionFactory(
        user=client, status=AskSession.Status.COMPLETED, slots={"topic": "sleep"}
    )
    note = "It looks like the nights are the hardest part for you."
    client.profile.observed_patterns = [{"session_id": str(crisis.pk), "text": note}]
    client.profile.save()
    AskSession.objects.filter(pk=ordinary.pk).update(created_at=timezone.now())
    seen = Seen(api_as(client))

    session_id = seen.post(reverse("sessions:session-list"))["_id"]

    items = seen.get(url("state", session_id))["notice"]["items"]
    assert items == ["Last time you talked about «sleep»."]


def test_after_a_crisis_session_closed_abnormally_the_opening_still_checks_in(api_as):
    client = client_in("en-US")
    factories.AskSessionFactory(
        user=client, status=AskSession.Status.COMPLETED, slots={"topic": "sleep"}
    )
    crisis = factories.AskSessionFactory(
        user=client,
        status=AskSession.Status.CLOSED_ABNORMALLY,
        intervention_triggered=True,
        slots={"topic": "I want to die"},
    )
    AskSession.objects.filter(pk=crisis.pk).update(created_at=timezone.now())
    seen = Seen(api_as(client))

    session_id = seen.post(reverse("sessions:session-list"))["_id"]

    items = seen.get(url("state", session_id))["notice"]["items"]
    assert items == [PLAYS["en"]["check_in"]]
