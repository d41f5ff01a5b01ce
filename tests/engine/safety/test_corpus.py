"""QUALITY C1 on the detector's own labelled corpus, plus the behaviour it rests on.

Pure tests: no `db` fixture, no Django model — the detector is a function of its text."""

from __future__ import annotations

from collections import defaultdict

import pytest

from sessions_app.engine.safety import Assessment, Category, Finding, assess, normalize
from tests.engine.safety.labelled import LANGUAGES, PhraseSetChecks, load, rows_of

ROWS = load("corpus.jsonl")


def _rows(lang: str, *, crisis: bool) -> list[dict]:
    return rows_of(ROWS, lang, crisis=crisis)


class TestTheCorpus(PhraseSetChecks):
    rows = ROWS


def test_the_corpus_is_big_enough_and_covers_every_category_in_every_language():
    for lang in LANGUAGES:
        assert len(_rows(lang, crisis=True)) >= 150
        assert len(_rows(lang, crisis=False)) >= 150
        assert {r["category"] for r in _rows(lang, crisis=True)} == set(Category)
    kinds = defaultdict(set)
    for row in ROWS:
        kinds[row["lang"]].add(row["kind"])
    for kind in ("plain", "misspelling", "spacing", "leet", "homoglyph", "emoji", "idiom"):
        assert all(kind in kinds[lang] for lang in ("en", "ru")), kind
    assert "transliteration" in kinds["ru"]
    assert "traditional" in kinds["zh"]
    for kind in ("third_party", "fiction", "academic", "accident", "device", "fatigue"):
        assert all(kind in kinds[lang] for lang in LANGUAGES), kind


@pytest.mark.parametrize("lang", LANGUAGES)
def test_severity_matches_every_crisis_line(lang):
    wrong = [
        f"{r['expected']} → {assess(r['text'], r['lang']).level}: {r['text']}"
        for r in _rows(lang, crisis=True)
        if assess(r["text"], r["lang"]).level != r["expected"]
    ]
    assert not wrong, "wrong severity:\n" + "\n".join(wrong)


# --- normalisation


@pytest.mark.parametrize(
    ("written", "read"),
    [
        # NFKC, case folding and ё
        pytest.param("ＫＩＬＬ Ёлка", "kill елка", id="nfkc-case-folding-and-yo"),
        # look-alike letters, read in the word's own script
        pytest.param("kіll mysеlf", "kill myself", id="cyrillic-inside-latin"),
        pytest.param("хочу умeрeть", "хочу умереть", id="latin-inside-cyrillic"),
        # letters spaced or dotted out, joined
        pytest.param("k i l l  m y s e l f", "kill myself", id="spaced-en"),
        pytest.param("s.u.i.c.i.d.e", "suicide", id="dotted"),
        pytest.param("у м е р е т ь", "умереть", id="spaced-ru"),
        # digits and symbols used as letters, but not numbers
        pytest.param("k1ll mys3lf", "kill myself", id="digits-as-letters"),
        pytest.param("$uicide", "suicide", id="symbol-as-letter"),
        pytest.param("у6ить", "убить", id="digit-as-cyrillic-letter"),
        pytest.param("at 10pm on the 2nd", "at 10pm on the 2nd", id="numbers-stay-numbers"),
        # repeated letters collapsed, zero-width characters dropped
        pytest.param("diiiie", "die", id="repeated-latin"),
        pytest.param("хочууу", "хочу", id="repeated-cyrillic"),
        pytest.param("ki\u200bll", "kill", id="zero-width"),
        # traditional Chinese folded to simplified
        pytest.param("遺書", "遗书", id="traditional-chinese"),
    ],
)
def test_normalize_reads_a_word_as_the_client_meant_it(written, read):
    assert normalize(written) == read


def test_normalize_spells_out_means_emoji():
    assert "pills" in normalize("💊")


# --- detection behaviour


def test_a_negative_excuses_only_its_own_span():
    assert not assess("this job is killing me").positive
    a = assess("this job is killing me and honestly I want to die")
    assert a.positive
    assert [f.span for f in a.findings] == ["want to die"]


def test_a_finding_records_its_category_and_the_words_as_the_client_wrote_them():
    text = "honestly I want to K I L L  M Y S E L F"
    (finding,) = assess(text).findings
    assert finding == Finding(Category.ACTIVE_IDEATION, "K I L L  M Y S E L F", 19, 39, "en")
    assert text[finding.start : finding.end] == finding.span
    assert assess("не хочу жить").findings[0].span == "не хочу жить"


def test_traditional_and_simplified_chinese_assess_the_same():
    for traditional, simplified in [
        ("活著沒有意義", "活着没有意义"),
        ("我決定今晚跳樓", "我决定今晚跳楼"),
        ("我朋友說她想自殺", "我朋友说她想自杀"),
    ]:
        a, b = assess(traditional, "zh-Hant"), assess(simplified, "zh")
        assert (a.level, a.categories) == (b.level, b.categories)


def test_russian_typed_in_latin_letters_is_read_as_russian():
    for text in (
        "ya hochu umeret",
        "ne hochu zhit",
        "pokonchit s soboy",
        "vsem budet luchshe bez menya",
    ):
        a = assess(text, "en")
        assert a.positive, text
        assert {f.language for f in a.findings} == {"ru"}


def test_english_written_against_chinese_characters_is_read_as_english():
    a = assess("我今晚就end it", "zh")
    assert a.positive
    assert "end it" in {f.span for f in a.findings}
    assert not assess("今天好累，先sleep了", "zh").positive


def test_every_language_is_checked_whatever_the_locale():
    assert assess("我不想活了", "en").positive
    assert assess("I want to kill myself", "ru").positive
    assert assess("хочу умереть", "xx").positive


def test_typos_on_key_terms_are_tolerated():
    for text in ("sucide", "kil myslef", "самоубиство", "i dont wnat to live anymroe"):
        assert assess(text).positive, text


def test_means_with_intent_or_a_time_is_l4_anything_else_positive_is_l3():
    assert assess("I've been looking at how many pills it would take").level == "L3"
    assert assess("tonight I'm taking all my pills").level == "L4"
    assert assess("I'm going to jump off the bridge").level == "L4"
    assert assess("I have a plan to end it").level == "L4"
    assert assess("I want to die").level == "L3"
    assert assess("сегодня ночью наглотаюсь таблеток").level == "L4"
    assert assess("今晚跳楼").level == "L4"
    assert assess("just had a lovely day").level is None


@pytest.mark.parametrize(
    ("distress", "fatigue"),
    [
        ("I'm tired of living", "I'm tired, can we stop"),
        ("I can't go on anymore", "I can't go on with these questions today"),
        ("I don't want to go on", "I don't want to continue this session"),
        ("устала жить", "устала, давай закончим"),
        ("сил жить больше нет", "нет сил, давай в следующий раз"),
        ("活得好累，不想再撑下去了", "我累了，今天就到这吧"),
    ],
)
def test_distress_is_never_fatigue(distress, fatigue):
    assert assess(distress).positive, distress
    assert not assess(fatigue).positive, fatigue


def test_negation_only_when_truly_negated():
    assert not assess("I would never kill myself").positive
    assert assess("I don't want to live anymore").positive
    assert not assess("я никогда не убью себя", "ru").positive
    assert assess("я не хочу жить", "ru").positive


def test_someone_else_s_crisis_is_not_the_client_s():
    assert not assess("I'm worried about my brother who wants to kill himself").positive
    assert assess("my friend said she wants to die and honestly i want to die too").positive


def test_it_is_a_pure_function_of_its_text():
    first = assess("i want to die tonight")
    assert first == assess("i want to die tonight")
    assert isinstance(first, Assessment)
    assert assess("") == Assessment()
    assert not assess("   ").positive


def test_inside_a_crisis_the_ambiguous_cues_count_on_their_own():
    for text, locale in [("I have a plan.", "en"), ("im going to do it tonight", "en")]:
        assert not assess(text, locale).positive
        assert assess(text, locale, context=True).positive
    assert assess("I have a plan.", "en", context=True).level == "L4"
    assert not assess("work was fine today", "en", context=True).positive
