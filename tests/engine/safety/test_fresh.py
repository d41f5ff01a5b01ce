"""QUALITY C1 on the fresh phrase set: lines written blind to the corpus and the patterns, as
people write in chats and forums (slang, typos, spaced letters, Latin-typed Russian, traditional
and Hong Kong Chinese, indirect signs) beside non-crisis near-misses. Same targets as the corpus:
every crisis line caught, false alarms at or under 2 % per language."""

from __future__ import annotations

import pytest

from sessions_app.engine.safety import Category
from tests.engine.safety.labelled import LANGUAGES, false_alarms, load, missed_lines, rows_of

ROWS = load("fresh.jsonl")


def _rows(lang: str, *, crisis: bool) -> list[dict]:
    return rows_of(ROWS, lang, crisis=crisis)


def test_the_fresh_set_is_big_enough_and_covers_every_category_in_every_language():
    for lang in LANGUAGES:
        assert len(_rows(lang, crisis=True)) >= 60
        assert len(_rows(lang, crisis=False)) >= 60
        assert {r["category"] for r in _rows(lang, crisis=True)} == set(Category)
        negative_kinds = {r["kind"] for r in _rows(lang, crisis=False)}
        for kind in ("idiom", "accident", "device", "third_party", "fiction", "academic"):
            assert kind in negative_kinds, (lang, kind)
        assert {"fatigue", "sadness", "negation"} <= negative_kinds, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_recall_is_one_on_every_fresh_crisis_line(lang):
    missed = missed_lines(_rows(lang, crisis=True))
    assert not missed, "missed crisis lines:\n" + "\n".join(missed)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_fresh_false_alarms_stay_at_or_under_two_percent(lang):
    negatives = _rows(lang, crisis=False)
    alarms = false_alarms(negatives)
    assert len(alarms) <= 0.02 * len(negatives), "false alarms:\n" + "\n".join(alarms)
