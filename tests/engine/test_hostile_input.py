"""Hostile input: a message within the text limit that costs the turn's analysers
minutes of CPU. Through REST, each hostile input gets its documented answer; below, guards that
the analysers only ever read bounded text (their cost is printed by `bench/hostile_input.py`)."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app.engine.language import detectors
from sessions_app.engine.offline import listening
from sessions_app.engine.safety import learned
from sessions_app.engine.services import TEXT_MAX
from tests.engine.test_listening import person, start
from tests.engine.test_rest_session import url

HOSTILE = {
    "emoji": "😀" * TEXT_MAX,
    "varied emoji": "".join(chr(0x1F600 + i % 0x4F) for i in range(TEXT_MAX)),
    "one word": ("abcdefghij" * 1000)[:TEXT_MAX],
    "combining marks": ("a" + "\u0301\u0302\u0303") * (TEXT_MAX // 4),
    "mixed scripts": ("aя中 " * TEXT_MAX)[:TEXT_MAX],
    "one letter": "a" * TEXT_MAX,
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_answers_through_a_whole_batch_get_the_next_cards(api_as: Any, name: str) -> None:
    client = person(api_as, "hostile_" + name.replace(" ", "_"))
    session_id, state = start(client, HOSTILE[name])
    first = state["current_card"]["id"]
    for _ in range(3):  # past the first batch: the offline Analyst reads these answers
        body = {"card_id": state["current_card"]["id"], "text": HOSTILE[name]}
        response = client.post(url("answers", session_id), body, format="json")
        assert response.status_code == 200, response.content
        state = response.json()
    assert state["current_card"]["id"] != first


@pytest.mark.django_db
def test_a_word_over_the_text_limit_is_e_validation_naming_the_text(api_as: Any) -> None:
    client = person(api_as, "longword")
    session_id, _ = start(client, "work has been hard lately")
    response = client.post(url("messages", session_id), {"text": "a" * 10_000}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
    assert "text" in response.json()["fields"]


def test_vader_reads_short_sentences_and_a_few_emoji_however_long_the_text(monkeypatch) -> None:
    analyzer = detectors._vader()
    seen: list[str] = []
    real = analyzer.polarity_scores
    monkeypatch.setattr(analyzer, "polarity_scores", lambda text: seen.append(text) or real(text))
    detectors.mood_value("😀 😢 " * 150 + "This is not good at all and I hate it. " * 60)
    assert seen
    assert max(len(text.split()) for text in seen) <= 40  # detectors.VADER_WORDS
    emoji = sum(ch in analyzer.emojis for text in seen for ch in text)
    assert emoji <= 12  # detectors.VADER_EMOJI


def test_one_short_sentence_reads_as_vader_reads_it() -> None:
    text = "I am not happy about how work went today!"
    expected = detectors._vader().polarity_scores(text)["compound"]
    assert detectors.mood_value(text) == pytest.approx(expected, abs=1e-3)


def test_the_encoder_reads_a_long_text_by_its_first_and_last_windows(monkeypatch) -> None:
    sent: list[list[str]] = []
    real = learned.embed
    monkeypatch.setattr(learned, "embed", lambda texts: sent.append(list(texts)) or real(texts))
    text = "Work was long and the bus was late again today. " * 80 + "The end came at last."
    learned.read([text])
    [windows] = sent
    assert len(windows) == learned.WINDOWS_MAX == 2
    assert windows[0].startswith("Work was long")
    assert windows[1].endswith("The end came at last.")


@pytest.mark.parametrize("name", list(HOSTILE))
def test_the_lexicons_read_at_most_the_analysed_characters(name: str, monkeypatch) -> None:
    read: list[str] = []
    real = detectors.normalize
    monkeypatch.setattr(detectors, "normalize", lambda text: read.append(text) or real(text))
    detectors.detect_meta(HOSTILE[name])
    detectors.mood_value(HOSTILE[name])
    listening.hear(HOSTILE[name], "en")
    assert read
    assert max(len(text) for text in read) <= 1000  # detectors.ANALYSED_CHARS


def test_a_quote_read_back_is_short_even_of_one_long_word() -> None:
    assert len(listening.quote(HOSTILE["one word"], "en")) <= 120  # listening.QUOTE_CHARS


@pytest.mark.django_db
def test_a_message_of_zero_width_spaces_is_empty(api_as: Any) -> None:
    client = person(api_as, "invisible")
    session_id, _ = start(client, "work has been hard lately")
    response = client.post(url("messages", session_id), {"text": "\u200b\u2060"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "E_VALIDATION"
