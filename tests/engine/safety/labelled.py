"""The detector's labelled phrase sets (the corpus, the fresh and the blind set), one row a line,
each with its language, expected level, category and kind; and the checks every set is held to.

The checks are classes without `Test` in their names, so they run only where a test module
subclasses them with its set's rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import pytest

from sessions_app.engine.safety import Category, assess

SAFETY_DIR = Path(__file__).resolve().parents[3] / "sessions_app/engine/safety"
LANGUAGES = ("en", "ru", "zh")


def load(name: str) -> list[dict]:
    text = (SAFETY_DIR / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line]


def rows_of(rows: list[dict], lang: str, *, crisis: bool) -> list[dict]:
    return [r for r in rows if r["lang"] == lang and (r["expected"] != "negative") == crisis]


class PhraseSetChecks:
    """QUALITY C1 on one set: every crisis line caught, false alarms at or under 2 % per
    language."""

    rows: ClassVar[list[dict]]

    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_recall_is_one_on_every_crisis_line(self, lang):
        missed = [
            r["text"]
            for r in rows_of(self.rows, lang, crisis=True)
            if not assess(r["text"], r["lang"]).positive
        ]
        assert not missed, "missed crisis lines:\n" + "\n".join(missed)

    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_false_alarms_stay_at_or_under_two_percent(self, lang):
        negatives = rows_of(self.rows, lang, crisis=False)
        alarms = [
            f"{r['text']}  ← {[(f.category.value, f.span) for f in a.findings]}"
            for r in negatives
            if (a := assess(r["text"], r["lang"])).positive
        ]
        assert len(alarms) <= 0.02 * len(negatives), "false alarms:\n" + "\n".join(alarms)


class HeldOutSetChecks(PhraseSetChecks):
    """A set written blind to the patterns: big enough in every language, every category among
    its crisis lines and the hard near-misses among its negatives."""

    at_least: ClassVar[int]
    negative_kinds_too: ClassVar[set[str]]

    def test_it_is_big_enough_and_covers_every_category_in_every_language(self):
        for lang in LANGUAGES:
            assert len(rows_of(self.rows, lang, crisis=True)) >= self.at_least
            assert len(rows_of(self.rows, lang, crisis=False)) >= self.at_least
            assert {r["category"] for r in rows_of(self.rows, lang, crisis=True)} == set(Category)
            negative_kinds = {r["kind"] for r in rows_of(self.rows, lang, crisis=False)}
            for kind in ("idiom", "accident", "device", "third_party", "fiction", "academic"):
                assert kind in negative_kinds, (lang, kind)
            assert self.negative_kinds_too <= negative_kinds, lang
