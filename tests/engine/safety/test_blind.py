"""QUALITY C1 on the blind set: a third writer's lines, written before reading the corpus, the
fresh set or the patterns — run-on messages with the crisis buried in the middle, questions and
second person, conditionals, euphemisms (joining a dead parent), slang and memes, spaced letters,
homoglyphs, Latin-typed Russian, traditional Chinese — beside hard near-misses. Same targets:
every crisis line caught, false alarms at or under 2 % per language."""

from __future__ import annotations

from sessions_app.engine.safety import assess
from tests.engine.safety.labelled import HeldOutSetChecks, load

ROWS = load("blind.jsonl")


class TestTheBlindSet(HeldOutSetChecks):
    rows = ROWS
    at_least = 50
    negative_kinds_too = {"fatigue", "sadness", "negation", "near_miss"}


def test_an_l4_line_in_the_blind_set_is_l4():
    wrong = [
        f"{r['text']} → {assess(r['text'], r['lang']).level}"
        for r in ROWS
        if r["expected"] == "L4" and assess(r["text"], r["lang"]).level != "L4"
    ]
    assert not wrong, "\n".join(wrong)
