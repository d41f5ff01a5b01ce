"""The offline Psychologist derives its hypotheses from the log and cites the events it used."""

from __future__ import annotations

from typing import Any

from psychologist.offline import hypothesise


def log(*entries: tuple[str, str] | str, close: str = "session.closed") -> list[dict[str, Any]]:
    """Events numbered from 101 (id) and 1 (seq): an answer for every ("answer", text), a card
    before it, any other string as a bare event type, and the close at the end."""
    events: list[dict[str, Any]] = []

    def add(type: str, **fields: Any) -> None:
        seq = len(events) + 1
        event = {"id": 100 + seq, "seq": seq, "type": type, "payload": {}, "text": ""}
        events.append({**event, "message_role": "", "message_kind": "", **fields})

    add("session.created")
    for entry in entries:
        if isinstance(entry, tuple):
            add("card.dealt", message_role="narrator", message_kind="question_card", text="Q?")
            add("answer.received", message_role="client", message_kind="answer", text=entry[1])
        else:
            add(entry)
    add(close)
    return events


def run(events: list[dict[str, Any]], *, cause: str = "graceful", **extra: Any) -> list[dict]:
    context = {
        "events": events,
        "termination": {"cause": cause, "abnormal": cause != "graceful"},
        "locale": "en",
        **extra,
    }
    return hypothesise(context)["hypotheses"]


def by_id(events: list[dict[str, Any]], event_id: int) -> dict[str, Any]:
    return next(event for event in events if event["id"] == event_id)


def test_fatigue_is_tied_to_the_answers_where_it_showed():
    events = log(
        ("answer", "Work was fine this week, I enjoyed the project."),
        ("answer", "My sister visited and we cooked together."),
        ("answer", "I'm tired, can we stop? Enough for today."),
    )

    [fatigue] = [h for h in run(events) if "fatigue" in h["statement"]]

    assert fatigue["target"] == "client"
    [cited] = [by_id(events, event_id) for event_id in fatigue["evidence"]]
    assert "tired" in cited["text"]
    assert f"seq {cited['seq']}" in fatigue["statement"]
    assert "came late" in fatigue["statement"]


def test_a_mood_that_turns_negative_is_a_decline_citing_the_negative_answers():
    events = log(
        ("answer", "I feel good and calm, the walk was great."),
        ("answer", "Happy with the weekend."),
        ("answer", "Now I feel sad and anxious about Monday."),
        ("answer", "Everything feels hopeless and bad."),
    )

    [decline] = [h for h in run(events) if "mood declined" in h["statement"]]

    cited = [by_id(events, event_id)["text"] for event_id in decline["evidence"]]
    assert cited == [
        "Now I feel sad and anxious about Monday.",
        "Everything feels hopeless and bad.",
    ]


def test_risk_language_and_escalations_make_a_high_confidence_client_hypothesis():
    events = log(("answer", "Sometimes I want to die."), "risk.escalated")

    [risk] = [h for h in run(events) if "Risk signals" in h["statement"]]

    assert risk["target"] == "client"
    assert risk["confidence"] >= 80
    assert [by_id(events, i)["type"] for i in risk["evidence"]] == [
        "answer.received",
        "risk.escalated",
    ]


def test_blocked_agent_output_becomes_a_hypothesis_about_that_agent():
    events = log(("answer", "Fine."), "validation.blocked", "validation.blocked")
    for event in events:
        if event["type"] == "validation.blocked":
            event["payload"] = {"agent": "narrator"}

    [blocked] = [h for h in run(events) if "Validation blocked" in h["statement"]]

    assert blocked["target"] == "narrator"
    assert len(blocked["evidence"]) == 2


def test_mostly_one_word_answers_read_as_low_engagement():
    events = log(("answer", "Fine."), ("answer", "No."), ("answer", "Dunno really."))

    [brief] = [h for h in run(events) if "very few words" in h["statement"]]

    assert len(brief["evidence"]) == 3


def test_an_abnormal_end_comes_first_with_its_termination_analysis_and_the_events_around_it():
    events = log(
        ("answer", "The week was long."),
        ("answer", "I'm so tired, that's enough."),
        "card.dealt",
        close="session.closed_abnormally",
    )

    first, *rest = run(events, cause="abandoned_timeout")

    assert first["target"] == "flow"
    assert "idle timeout" in first["statement"]
    assert [by_id(events, i)["type"] for i in first["evidence"]] == [
        "card.dealt",
        "session.closed_abnormally",
    ]
    assert "Classified cause: abandoned_timeout." in first["termination_analysis"]
    assert "Fatigue showed before the end" in first["termination_analysis"]
    assert "The last card went unanswered." in first["termination_analysis"]
    assert all(h["termination_analysis"] is None for h in rest)


def test_a_killed_session_after_an_answer_warns_that_the_answer_got_no_reply():
    events = log(("answer", "Let me tell you about my week."), close="session.closed_abnormally")

    [ending, *_] = run(events, cause="killed")

    assert "killed from outside" in ending["statement"]
    assert "last answer got no reply" in ending["termination_analysis"]


def test_fatigue_before_a_kill_is_read_as_tiredness_when_cut_off_not_as_leaving():
    events = log(("answer", "I'm so tired."), close="session.closed_abnormally")

    [ending, *_] = run(events, cause="killed")

    assert "already tired when the session was cut off" in ending["termination_analysis"]
    assert "leaving" not in ending["termination_analysis"]


def test_a_quiet_graceful_session_still_gets_one_modest_hypothesis_citing_its_close():
    events = log(("answer", "It was an ordinary week at work."))

    [baseline] = run(events)

    assert baseline["target"] == "flow"
    assert baseline["confidence"] == 40
    assert baseline["evidence"] == [events[-1]["id"]]


def test_the_cap_keeps_the_termination_hypothesis_and_the_output_is_deterministic():
    events = log(
        ("answer", "I feel good."),
        ("answer", "I feel sad and bad."),
        ("answer", "I want to die, I'm tired."),
        close="session.closed_abnormally",
    )

    capped = run(events, cause="error", max_hypotheses=2)

    assert len(capped) == 2
    assert capped[0]["termination_analysis"]
    assert run(events, cause="error", max_hypotheses=2) == capped


def test_russian_fatigue_is_recognised_in_a_russian_session():
    events = log(("answer", "Я устала, хватит на сегодня."))

    hypotheses = run(events, locale="ru")

    assert any("fatigue" in h["statement"] for h in hypotheses)
