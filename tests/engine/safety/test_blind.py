"""QUALITY C1 on the blind set: a third writer's lines, written before reading the corpus, the
fresh set or the patterns — run-on messages with the crisis buried in the middle, questions and
second person, conditionals, euphemisms (joining a dead parent), slang and memes, spaced letters,
homoglyphs, Latin-typed Russian, traditional Chinese — beside hard near-misses. Same targets:
every crisis line caught, false alarms at or under 2 % per language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions_app.engine.safety import Category, assess

BLIND = Path(__file__).resolve().parents[3] / "sessions_app/engine/safety/blind.jsonl"
ROWS = [json.loads(line) for line in BLIND.read_text(encoding="utf-8").splitlines() if line]
LANGUAGES = ("en", "ru", "zh")


def _rows(lang: str, *, crisis: bool) -> list[dict]:
    return [r for r in ROWS if r["lang"] == lang and (r["expected"] != "negative") == crisis]


def test_the_blind_set_is_big_enough_and_covers_every_category_in_every_language():
    for lang in LANGUAGES:
        assert len(_rows(lang, crisis=True)) >= 50
        assert len(_rows(lang, crisis=False)) >= 50
        assert {r["category"] for r in _rows(lang, crisis=True)} == set(Category)
        negative_kinds = {r["kind"] for r in _rows(lang, crisis=False)}
        for kind in ("idiom", "accident", "device", "third_party", "fiction", "academic"):
            assert kind in negative_kinds, (lang, kind)
        assert {"fatigue", "sadness", "negation", "near_miss"} <= negative_kinds, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_recall_is_one_on_every_blind_crisis_line(lang):
    missed = [
        r["text"] for r in _rows(lang, crisis=True) if not assess(r["text"], r["lang"]).positive
    ]
    assert not missed, "missed crisis lines:\n" + "\n".join(missed)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_blind_false_alarms_stay_at_or_under_two_percent(lang):
    negatives = _rows(lang, crisis=False)
    alarms = [
        f"{r['text']}  ← {[(f.category.value, f.span) for f in a.findings]}"
        for r in negatives
        if (a := assess(r["text"], r["lang"])).positive
    ]
    assert len(alarms) <= 0.02 * len(negatives), "false alarms:\n" + "\n".join(alarms)


def test_an_l4_line_in_the_blind_set_is_l4():
    wrong = [
        f"{r['text']} → {assess(r['text'], r['lang']).level}"
        for r in ROWS
        if r["expected"] == "L4" and assess(r["text"], r["lang"]).level != "L4"
    ]
    assert not wrong, "\n".join(wrong)
