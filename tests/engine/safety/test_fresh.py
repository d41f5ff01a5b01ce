"""QUALITY C1 on the fresh phrase set: lines written blind to the corpus and the patterns, as
people write in chats and forums (slang, typos, spaced letters, Latin-typed Russian, traditional
and Hong Kong Chinese, indirect signs) beside non-crisis near-misses. Same targets as the corpus:
every crisis line caught, false alarms at or under 2 % per language."""

from __future__ import annotations

from tests.engine.safety.labelled import HeldOutSetChecks, load


class TestTheFreshSet(HeldOutSetChecks):
    rows = load("fresh.jsonl")
    at_least = 60
    negative_kinds_too = {"fatigue", "sadness", "negation"}
