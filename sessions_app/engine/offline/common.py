"""Helpers shared by the offline agents: reading the context, themes, person transforms."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from sessions_app import texts
from sessions_app.engine.language import detectors
from sessions_app.engine.offline import grammar_en, grammar_ru, grammar_zh
from sessions_app.engine.offline.banks import FOCI, FOCUS_BY_THEME, LANGS, THEMES

_THEME_PATTERNS = {
    theme: tuple(re.compile(pattern) for pattern in patterns) for theme, patterns in THEMES.items()
}


def lang_of(context: dict[str, Any]) -> str:
    # The offline rules speak English, Russian and Chinese; any other language reads English.
    return texts.lang_of(str(context.get("locale") or "en"))


def pick(lang: str, variants: tuple[str, ...]) -> str:
    """The variant in `lang` of an (en, ru, zh) tuple."""
    return variants[LANGS.index(lang)]


def recap_pairs(context: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = []
    for item in context.get("recap") or []:
        if isinstance(item, dict):
            pairs.append((str(item.get("question", "")), str(item.get("answer", ""))))
    return pairs


def themes_in(texts: Iterable[str]) -> list[str]:
    """Themes by how often they occur, ties in the order of THEMES (deterministic)."""
    counts: Counter[str] = Counter()
    for text in texts:
        clean = detectors.normalize(text)
        for theme, patterns in _THEME_PATTERNS.items():
            counts[theme] += sum(len(pattern.findall(clean)) for pattern in patterns)
    order = list(THEMES)
    found = [theme for theme in order if counts[theme]]
    return sorted(found, key=lambda theme: (-counts[theme], order.index(theme)))


def focus_for(context: dict[str, Any], themes: list[str]) -> str:
    focus = context.get("cbt_focus") or (context.get("slots") or {}).get("cbt_focus")
    if focus in FOCI:
        return focus
    votes: Counter[str] = Counter(FOCUS_BY_THEME[t] for t in themes if t in FOCUS_BY_THEME)
    if not votes:
        return FOCI[0]
    return max(FOCI, key=lambda f: (votes[f], -FOCI.index(f)))


def second_person_question(text: str, lang: str, *, formal: bool, gender: str = "") -> str:
    return _second_person(text, lang, question=True, formal=formal, gender=gender)


def second_person_statement(text: str, lang: str, *, formal: bool, gender: str = "") -> str:
    return _second_person(text, lang, question=False, formal=formal, gender=gender)


# The person transforms are pure and the Analyst puts every bank question through them at each
# batch: each (text, language, address, gender) is converted once per process.
TRANSFORMS_CACHED = 4096


@functools.lru_cache(maxsize=TRANSFORMS_CACHED)
def _second_person(text: str, lang: str, *, question: bool, formal: bool, gender: str) -> str:
    grammar = {"ru": grammar_ru, "zh": grammar_zh}.get(lang, grammar_en)
    convert = grammar.to_question if question else grammar.to_statement
    if grammar is grammar_ru:
        # Russian conjugates for the address (ты/вы) and the client's gender.
        convert = functools.partial(convert, formal=formal, gender=gender)
    return _quotes_kept(text, convert)


# The client's words quoted back («…», 「…」) are the client's, in its own person: the person
# transforms leave them as written.
_QUOTED = re.compile(r"«[^«»]*»|「[^「」]*」")
_MARK = "QQ{}QQ"


def _quotes_kept(text: str, convert: Any) -> str:
    quoted = _QUOTED.findall(text)
    for index, span in enumerate(quoted):
        text = text.replace(span, _MARK.format(index), 1)
    out = convert(text)
    for index, span in enumerate(quoted):
        out = re.sub(_MARK.format(index), span.replace("\\", "\\\\"), out, count=1, flags=re.I)
    return out


@functools.lru_cache(maxsize=TRANSFORMS_CACHED)
def squash(text: str) -> str:
    """The words of `text`, normalized and joined: two texts are the same when these are."""
    return " ".join(detectors.words(text))


def clip_words(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(",.;:") + "…"
