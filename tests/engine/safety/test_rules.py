"""The rules as named data: every rule's examples are checked when the detector loads, and a
finding names the rule that made it."""

from __future__ import annotations

import dataclasses
import json
import re
import types
from pathlib import Path

import pytest

from sessions_app.engine.safety import assess, detector, patterns_en, patterns_ru, patterns_zh
from sessions_app.engine.safety import normal as normal_forms
from sessions_app.engine.safety.rules import Rule

MODULES = (patterns_en, patterns_ru, patterns_zh)


def _rule(rule_id: str) -> Rule:
    return next(r for m in MODULES for r in m.RULES if r.id == rule_id)


def _load(*rules: Rule) -> None:
    """What the import does for one language, with only `rules`."""
    module = types.SimpleNamespace(RULES=list(rules), NEGATIVES=patterns_en.NEGATIVES)
    language = detector._compile("en", module, patterns_en.MACROS)
    detector.check_examples({"en": language})


def test_every_rule_and_negative_has_its_own_id():
    ids = [r.id for m in MODULES for r in m.RULES] + [n.id for m in MODULES for n in m.NEGATIVES]
    assert len(ids) == len(set(ids))
    assert all(r.matches for m in MODULES for r in m.RULES)


def test_a_rule_that_no_longer_matches_its_example_fails_the_load_naming_the_rule():
    rule = _rule("en.passive.want_to_die")
    _load(rule)
    broken = dataclasses.replace(rule, pattern=r"\bwant to live\b")
    with pytest.raises(detector.RuleError, match=r"en\.passive\.want_to_die.*does not find"):
        _load(broken)


def test_a_rule_that_finds_a_line_it_must_spare_fails_the_load_naming_the_rule():
    rule = dataclasses.replace(
        _rule("en.passive.want_to_die"), spares=("i want to die, my sister said",)
    )
    with pytest.raises(detector.RuleError, match=r"en\.passive\.want_to_die.*must spare"):
        _load(rule)


def test_a_spare_excused_by_a_negative_is_spared():
    rule = dataclasses.replace(
        _rule("en.active.kill_myself"), spares=("I would never kill myself",)
    )
    _load(rule)


@pytest.mark.parametrize(
    ("rule_id", "message"),
    [
        ("en.method.want_to_die", "an id reads en.passive"),
        ("ru.passive.want_to_die", "an id reads en.passive"),
        ("en.passive.Want To Die", "an id reads en.passive"),
    ],
)
def test_an_id_that_does_not_say_its_language_and_category_fails_the_load(rule_id, message):
    with pytest.raises(detector.RuleError, match=message):
        _load(dataclasses.replace(_rule("en.passive.want_to_die"), id=rule_id))


def test_two_rules_with_one_id_fail_the_load():
    rule = _rule("en.passive.want_to_die")
    with pytest.raises(detector.RuleError, match="the id is taken"):
        _load(rule, rule)


def test_a_finding_names_its_rule():
    (finding,) = assess("honestly I want to K I L L  M Y S E L F").findings
    assert finding.rule == "en.active.kill_myself"
    assert assess("не хочу жить", "ru").findings[0].rule == "ru.passive.dont_want_to_live"
    assert assess("我不想活了", "zh").findings[0].rule == "zh.passive.dont_want_to_live"


def test_trace_names_the_rule_and_the_negative_that_excuses_it():
    assert detector.trace("I would never kill myself") == [
        ("en.active.kill_myself", "kill myself", "en.negation.never_kill_myself")
    ]
    assert ("en.active.kill_myself", "kill myself", None) in detector.trace("I want to kill myself")


def _every_pattern(language) -> list:
    return [*language.negatives, *(rule.regex for rule in language.rules), language.time]


def _lines(count_per_file: int = 150) -> list[str]:
    folder = Path(detector.__file__).parent
    lines = []
    for path in sorted(folder.glob("*.jsonl")):
        with path.open() as f:
            for n, raw in enumerate(f):
                if n >= count_per_file:
                    break
                row = json.loads(raw)
                lines += [row[k] for k in ("text",) if isinstance(row.get(k), str)]
                lines += [m for m in row.get("messages") or () if isinstance(m, str)]
    return lines


def test_a_pattern_skipped_for_want_of_its_anchors_could_not_have_matched():
    """The scan runs a pattern only where the text holds one of its anchors; on every rule's
    own examples and a few thousand labelled lines in three languages, every pattern that
    matches a view is one that view opens."""
    examples = [t for m in MODULES for r in m.RULES for t in (*r.matches, *r.spares)]
    checked = 0
    for text in examples + _lines():
        for codes, view in detector._views(text):
            present = detector._Present(view.text)
            for code in codes:
                language = detector._LANGUAGES[code]
                opened = present.opens(language.gate)
                for index, regex in enumerate(_every_pattern(language)):
                    if any(m.end() > m.start() for m in regex.finditer(view.text)):
                        checked += 1
                        assert index in opened, (code, index, regex.pattern[:80], text)
    assert checked > 3000


@pytest.mark.parametrize(
    ("pattern", "anchors"),
    [
        (r"\bkill (?:my ?self|me)\b", ("kill m",)),  # `re` takes the shared "m" out of the group
        (r"(?:pills|rope) tonight", (" tonight",)),  # the longest piece every match holds
        (r"(?:pills|rope)s?", ("pills", "rope")),
        (r"(?:pills)? ?x", ("x",)),  # an optional word is no anchor
        (r"[着著]了", ("了",)),
        (r"(?i)rope", None),  # it matches other letters than it spells
        (r"a?b*", None),  # it may match nothing
    ],
)
def test_anchors_are_what_every_match_must_hold(pattern, anchors):
    assert detector._anchors(re.compile(pattern)) == anchors


def test_the_latin_typed_russian_text_checked_first_is_the_views_text():
    """The scan builds the view of Latin-typed Russian only when a Russian pattern finds words
    in its text, computed as a plain string first: on every rule's examples and the labelled
    lines, that string is the view's text, so the shortcut changes no finding."""
    examples = [t for m in MODULES for r in m.RULES for t in (*r.matches, *r.spares)]
    compared = 0
    for text in examples + _lines():
        normal = normal_forms.normal_view(text)
        view = normal_forms.translit_view(normal)
        if view is None:
            continue
        expected = detector._corrected(normal_forms.key_view(view)).text
        plain = normal_forms.translit_text(normal.text)
        assert detector._corrected_string(normal_forms.key_string(plain)) == expected, text
        compared += 1
    assert compared > 1000
