"""Which language a client writes in, and what its Russian tells about its grammatical gender.

`detect` runs on every client text (SPEC §3 "which language"): deterministic and cheap. The
script decides first — Chinese characters are Chinese, Cyrillic is Russian — and only Latin text
goes to lingua, restricted to the three languages the product speaks. Text too short to tell
("ok", "да", "嗯") returns None: the session keeps its language.

`russian_gender` reads the client's own first-person words ("я поссорилась", "я устал",
"рада") with pymorphy3, so that cards agree with the client; "" when they do not tell.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache

import pymorphy3
from lingua import Language, LanguageDetector, LanguageDetectorBuilder

from sessions_app.engine.language import detectors
from sessions_app.engine.language.detectors import CJK

CYRILLIC = re.compile(r"[\u0400-\u04ff]")
LATIN = re.compile(r"[A-Za-z]")
MIN_CJK = 2  # 好的, 谢谢: two characters already say it
MIN_CYRILLIC = 4
MIN_LATIN_WORDS = 3
MIN_CONFIDENCE = 0.6
FEMININE, MASCULINE = "femn", "masc"
TEXTS_CACHED = 4096  # texts whose gender votes are kept
WORDS_CACHED = 20_000  # word parses kept: a gender read costs microseconds, memory stays bounded
_WORD = re.compile(r"[а-яё]+", re.IGNORECASE)
_CLAUSE = re.compile(r"[.!?;,:—()\n]|\s(?:а|но|что|потому что)\s")
# How far after "я" the agreeing word may stand: "я так и не смогла", "я сама виновата".
LOOK_AHEAD = 4


@cache
def _lingua() -> LanguageDetector:
    languages = (Language.ENGLISH, Language.RUSSIAN, Language.CHINESE)
    return LanguageDetectorBuilder.from_languages(*languages).build()


def warm() -> None:
    """Load now what the first client text of a process would wait for: jieba's dictionary
    (half a second) and the language detector. The ASGI application calls it at start."""
    detectors.words("你好")
    detect("warming up the language detector")
    _morph()


@cache
def _morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=8192)
def normal_form(word: str) -> str:
    """A Russian word's dictionary form ("работе" → "работа"), by pymorphy3's likeliest parse."""
    parses = _morph().parse(word)
    return parses[0].normal_form.replace("ё", "е") if parses else word


def detect(text: str) -> str | None:
    """ "en", "ru", "zh", or None when the text is too short or mixed to tell."""
    text = detectors.analysed(text)
    cjk, cyrillic, latin = (len(p.findall(text)) for p in (CJK, CYRILLIC, LATIN))
    # A Chinese character carries about a word: weighed against letters, it counts three.
    if cjk >= MIN_CJK and cjk * 3 >= cyrillic + latin:
        return "zh"
    if cyrillic >= MIN_CYRILLIC and cyrillic > latin:
        return "ru"
    if cjk or cyrillic or len(re.findall(r"[A-Za-z']+", text)) < MIN_LATIN_WORDS:
        return None
    values = _lingua().compute_language_confidence_values(text)
    best = values[0] if values else None
    if best is None or best.language != Language.ENGLISH or best.value < MIN_CONFIDENCE:
        return None
    return "en"


def russian_gender(texts: Iterable[str]) -> str:
    """The gender the client's first-person Russian agrees in, by majority; "" when unknown."""
    votes: Counter[str] = Counter()
    for text in texts:
        votes.update(_text_genders(detectors.analysed(str(text))))
    if votes[FEMININE] == votes[MASCULINE]:
        return ""
    return FEMININE if votes[FEMININE] > votes[MASCULINE] else MASCULINE


@lru_cache(maxsize=TEXTS_CACHED)
def _text_genders(text: str) -> tuple[str, ...]:
    """One text's votes: read once per process, as the branch a batch reads repeats the last
    batches' texts."""
    return tuple(
        gender
        for clause in _CLAUSE.split(text.lower())
        for gender in _clause_gender(_WORD.findall(clause))
    )


def _clause_gender(words: list[str]) -> list[str]:
    if "я" in words:
        at = words.index("я")
        for word in words[at + 1 : at + 1 + LOOK_AHEAD]:
            if _is_subject(word):
                break
            if found := _agreeing(word):
                return [found]
        found = _agreeing(words[at - 1]) if at else ""  # "устала я"
        return [found] if found else []
    # "Рада, что…", "Устала от всего": a first word that agrees, with no other subject.
    if words and not any(_is_subject(word) for word in words[1:]):
        found = _agreeing(words[0])
        return [found] if found else []
    return []


@lru_cache(maxsize=WORDS_CACHED)
def _agreeing(word: str) -> str:
    """The gender of a singular past-tense verb or short adjective, or ""."""
    for parse in _morph().parse(word)[:2]:
        tag = parse.tag
        if (("VERB" in tag and "past" in tag) or "ADJS" in tag) and "sing" in tag:
            if FEMININE in tag:
                return FEMININE
            if MASCULINE in tag:
                return MASCULINE
    return ""


@lru_cache(maxsize=WORDS_CACHED)
def _is_subject(word: str) -> bool:
    tag = _morph().parse(word)[0].tag
    return "nomn" in tag and ("NOUN" in tag or "NPRO" in tag)
