"""Listening: what the client said, read for themes, thinking traps and healthy steps, and the
questions that take it up (docs/decisions/0003-an-offline-engine-that-listens.md).

The lexicons and templates are each language's `listening` table in `banks/`. Theme words are
lemmas: Russian words are compared by their pymorphy3 normal forms, English ones by their
Snowball stems, Chinese terms are found in the running text (jieba's cuts differ from word to
word). Thinking traps and healthy statements are phrases: regexes over the normalised text.

Every question is third person, like the banks'; a reflective frame quotes the client's own
words after a colon ("Пользователь пишет: «…»"), so a Russian quote keeps the case it was
written in, and the Narrator leaves quoted words alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

import snowballstemmer

from sessions_app.engine.language import detectors, identify
from sessions_app.engine.offline.banks import DATA, LANGS

# The order a batch takes things up in: a healthy step is supported first, then a trap is
# looked at, then the theme; a follow-up on the last words when nothing else was heard.
DISTORTIONS = tuple(DATA["en"]["listening"]["distortions"])
THEMES = tuple(DATA["en"]["listening"]["themes"])
QUOTE_WORDS = 12
QUOTE_CHARS_ZH = 24
QUOTE_CHARS = 120  # one 4,000-letter "word" is not read back whole
# A reflection reads back a key phrase: the words heard and a few around them.
KEY_AROUND, KEY_WORDS, KEY_CHARS, KEY_CHARS_WHOLE = 2, 7, 12, 60
CJK_TEXT = re.compile(r"[\u4e00-\u9fff]")
# A clause worth quoting back holds at least this many words (not "idk", "да").
QUOTABLE_WORDS = 3
_CLAUSE = re.compile(r"[^.!?;。！？；\n]+")
_STEMMER = snowballstemmer.stemmer("english")


@dataclass(frozen=True)
class Heard:
    """What one text says: its themes, thinking traps and healthy steps, each with the clause
    of the text where it was heard; and for the traps and the healthy step, the client's own
    key phrase (the words around what was heard: `keys`, `healthy_key`)."""

    themes: dict[str, str] = field(default_factory=dict)
    distortions: dict[str, str] = field(default_factory=dict)
    healthy: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    healthy_key: str = ""


@lru_cache(maxsize=16384)
def lemma(word: str, lang: str) -> str:
    word = detectors.normalize(word)
    if lang == "ru":
        return identify.normal_form(word)
    if lang == "en":
        return _STEMMER.stemWord(word)
    return word


@cache
def _theme_lemmas(lang: str) -> dict[str, tuple[frozenset[str], tuple[tuple[str, ...], ...]]]:
    """{theme: (single lemmas, phrases as lemma tuples)} for one language."""
    out = {}
    for theme, entries in DATA[lang]["listening"]["themes"].items():
        singles, phrases = set(), []
        for entry in entries:
            lemmas = tuple(lemma(w, lang) for w in detectors.words(entry))
            if len(lemmas) == 1:
                singles.add(lemmas[0])
            elif lemmas:
                phrases.append(lemmas)
        out[theme] = (frozenset(singles), tuple(phrases))
    return out


@cache
def _patterns(lang: str, key: str) -> dict[str, re.Pattern[str]]:
    table = DATA[lang]["listening"][key]
    if isinstance(table, list):
        table = {key: table}
    return {name: re.compile("|".join(f"(?:{p})" for p in ps)) for name, ps in table.items()}


@lru_cache(maxsize=256)
def hear(text: str, lang: str) -> Heard:
    """What `text` says. A batch asks this of the last answer several times (its themes, its
    questions, a healthy step): it is read once. The result is shared: read it, never change it."""
    themes: dict[str, str] = {}
    distortions: dict[str, str] = {}
    keys: dict[str, str] = {}
    healthy = healthy_key = ""
    for clause in clauses(detectors.analysed(text)):
        clean = detectors.normalize(clause)
        for theme in _themes_in_clause(clean, lang):
            themes.setdefault(theme, clause)
        for name, pattern in _patterns(lang, "distortions").items():
            if name not in distortions and (found := pattern.search(clean)):
                distortions[name] = clause
                keys[name] = key_phrase(clause, clean, found.span(), lang)
        if not healthy and (found := _patterns(lang, "healthy")["healthy"].search(clean)):
            healthy, healthy_key = clause, key_phrase(clause, clean, found.span(), lang)
    return Heard(themes, distortions, healthy, keys, healthy_key)


def key_phrase(clause: str, clean: str, span: tuple[int, int], lang: str) -> str:
    """The client's words around what was heard in `clause` (`span` of its normalised form
    `clean`): the matched words and up to KEY_AROUND on each side, at most KEY_WORDS (Chinese:
    KEY_CHARS characters) — a phrase, not the sentence, as the client wrote it."""
    start, end = span
    if len(clean.split()) <= KEY_WORDS + 1 and len(clean) <= KEY_CHARS_WHOLE:
        return clause.strip(" ,;:—-")  # short enough: the clause is the phrase
    if lang == "zh" or CJK_TEXT.search(clean[start:end]):
        start = max(0, start - (KEY_CHARS - (end - start)) // 2)
        return clean[start : start + KEY_CHARS].strip(" ，,。")
    first = len(clean[:start].split())
    last = len(clean[:end].split())
    first, last = max(0, first - KEY_AROUND), min(last + KEY_AROUND, first + KEY_WORDS)
    # The normal form only folds letters and spaces: the client's own words line up with it.
    written = clause.split()
    words = written if len(written) == len(clean.split()) else clean.split()
    return " ".join(words[first:last]).strip(" ,;:—-")


def _themes_in_clause(clean: str, lang: str) -> list[str]:
    found = []
    if lang == "zh":
        for theme, entries in DATA["zh"]["listening"]["themes"].items():
            if any(entry in clean for entry in entries):
                found.append(theme)
        return found
    lemmas = [lemma(w, lang) for w in detectors.words(clean)]
    joined = " " + " ".join(lemmas) + " "
    for theme, (singles, phrases) in _theme_lemmas(lang).items():
        if any(lem in singles for lem in lemmas) or any(
            f" {' '.join(p)} " in joined for p in phrases
        ):
            found.append(theme)
    return found


def themes_of(texts: list[str], lang: str) -> list[str]:
    """The themes of several texts, most frequent first, ties in table order."""
    counts: dict[str, int] = {}
    for text in texts:
        for theme in hear(text, lang).themes:
            counts[theme] = counts.get(theme, 0) + 1
    return sorted(counts, key=lambda t: (-counts[t], THEMES.index(t)))


def clauses(text: str) -> list[str]:
    return [c.strip(" ,—–-\"'«»“”") for c in _CLAUSE.findall(text) if c.strip(" ,—–-")]


def quote(clause: str, lang: str) -> str:
    """The client's clause, short enough to read back: its first words, cut at a word."""
    clause = " ".join(clause.replace("«", "").replace("»", "").split()).strip(" ,:;—-")
    if lang == "zh":
        return clause if len(clause) <= QUOTE_CHARS_ZH else clause[: QUOTE_CHARS_ZH - 1] + "…"
    words = clause.split()
    if len(words) > QUOTE_WORDS:
        clause = " ".join(words[:QUOTE_WORDS]) + "…"
    return clause if len(clause) <= QUOTE_CHARS else clause[: QUOTE_CHARS - 1] + "…"


def quotable(text: str, lang: str) -> str:
    """The clause of `text` most worth reading back (the longest), or "" when none is."""
    best = max(clauses(detectors.analysed(text)), key=lambda c: len(detectors.words(c)), default="")
    return best if len(detectors.words(best)) >= QUOTABLE_WORDS else ""


def claims_improvement(text: str, lang: str) -> bool:
    """Whether a text says the client feels better / lighter, in any of the languages."""
    clean = detectors.normalize(text)
    return any(_patterns(other, "claims")["claims"].search(clean) for other in (lang, *LANGS))


def frame_of(template: str) -> str:
    """What a frame says around the quotation: how a question that used it is recognised."""
    head, _, tail = template.partition("{quote}")
    return max((head.strip(" «「"), tail.strip(" »」。.")), key=len)


def reflections(last: str, lang: str, *, asked: list[str], turn: int) -> list[str]:
    """Third-person questions that reflect what the client's last answer said — a healthy step
    supported, or a thinking trap looked at — each reading back the client's key phrase in a
    frame not yet used this session (`asked`: the session's questions so far). When every frame
    has been used, none: the same frame twice in a session sounds like a machine."""
    heard = hear(last, lang)
    listening = DATA[lang]["listening"]
    frames = [f for f in listening["frames"] if not any(frame_of(f) in a for a in asked)]
    if not frames:
        return []
    frames = frames[turn % len(frames) :] + frames[: turn % len(frames)]
    if heard.healthy and heard.healthy_key:
        found = [(listening["templates"]["healthy"], heard.healthy_key)]
    else:
        found = [
            (listening["templates"]["distortion"][name], heard.keys[name])
            for name in DISTORTIONS
            if name in heard.distortions and heard.keys.get(name)
        ]
    out = []
    for variants, key in found:
        template = variants[turn % len(variants)]
        frame = frames[len(out) % len(frames)].format(quote=quote(key, lang))
        out.append(template.replace("{frame}", frame))
    return out
