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
# A clause worth quoting back holds at least this many words (not "idk", "да").
QUOTABLE_WORDS = 3
_CLAUSE = re.compile(r"[^.!?;。！？；\n]+")
_STEMMER = snowballstemmer.stemmer("english")


@dataclass(frozen=True)
class Heard:
    """What one text says: its themes, thinking traps and healthy steps, each with the clause
    of the text where it was heard."""

    themes: dict[str, str] = field(default_factory=dict)
    distortions: dict[str, str] = field(default_factory=dict)
    healthy: str = ""


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
    if non_answer(text):
        return Heard()  # "nothing really" is not an all-or-nothing thought
    themes: dict[str, str] = {}
    distortions: dict[str, str] = {}
    healthy = ""
    for clause in clauses(detectors.analysed(text)):
        clean = detectors.normalize(clause)
        for theme in _themes_in_clause(clean, lang):
            themes.setdefault(theme, clause)
        for name, pattern in _patterns(lang, "distortions").items():
            if pattern.search(clean):
                distortions.setdefault(name, clause)
        if not healthy and _patterns(lang, "healthy")["healthy"].search(clean):
            healthy = clause
    return Heard(themes, distortions, healthy)


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


# "idk", "no", "не знаю", "没有": an answer that says nothing once these phrases and filler words
# are taken out of it (each language's `non_answer` table; every language's at once: clients mix).
_NOTHING = re.compile(
    "|".join(p for lang in LANGS for p in DATA[lang]["listening"]["non_answer"]["nothing"])
)
_FILLER = frozenset(w for lang in LANGS for w in DATA[lang]["listening"]["non_answer"]["filler"])
NON_ANSWER_WORDS, NON_ANSWER_CHARS = 6, 120


def non_answer(text: str) -> bool:
    """A short answer that says nothing ("idk", "нет, наверное", "不知道啊", "nothing really"):
    never read back to the client, never offered as a topic again."""
    if len(text) > NON_ANSWER_CHARS:
        return False  # a long text says something, and is not read whole here (ADR 0007)
    clean = detectors.normalize(text)
    if len(detectors.words(clean)) > NON_ANSWER_WORDS:
        return False
    return not set(detectors.words(_NOTHING.sub(" ", clean))) - _FILLER


def quotable(text: str, lang: str) -> str:
    """The clause of `text` most worth reading back (the longest), or "" when none is — and
    none of an answer that says nothing."""
    if non_answer(text):
        return ""
    best = max(clauses(detectors.analysed(text)), key=lambda c: len(detectors.words(c)), default="")
    return best if len(detectors.words(best)) >= QUOTABLE_WORDS else ""


def claims_improvement(text: str, lang: str) -> bool:
    """Whether a text says the client feels better / lighter, in any of the languages."""
    clean = detectors.normalize(text)
    return any(_patterns(other, "claims")["claims"].search(clean) for other in (lang, *LANGS))


_QUOTE = re.compile(r"«([^«»]*)»|「([^「」]*)」")


def quoted(text: str) -> str:
    """The client's words a question reads back, or "" when it quotes none."""
    match = _QUOTE.search(text)
    return (match.group(1) or match.group(2) or "") if match else ""


def unframed(text: str, lang: str) -> str:
    """A framed question without its frame: the question alone."""
    head, _, rest = DATA[lang]["listening"]["frame"].partition("{quote}")
    if not text.startswith(head):
        return text
    cut = text.find(rest, len(head))
    return text[cut + len(rest) :].strip() if cut >= 0 else text


def framed(template: str, lang: str, clause: str) -> str:
    frame = DATA[lang]["listening"]["frame"].format(quote=quote(clause, lang))
    return template.replace("{frame}", frame)


def questions(last: str, lang: str, *, known_themes: list[str], turn: int) -> list[tuple[str, str]]:
    """Third-person questions that take up the client's last answer, best first, each with
    what it takes up ("healthy", "distortion:<name>", "theme:<name>", "followup"). Templates
    are rotated by the turn so that two sessions do not open alike."""
    templates = DATA[lang]["listening"]["templates"]
    heard = hear(last, lang)
    out: list[tuple[str, str]] = []

    def add(variants: list[str], clause: str, tag: str) -> None:
        for index in range(len(variants)):
            template = variants[(index + turn) % len(variants)]
            out.append((framed(template, lang, clause) if clause else template, tag))

    if heard.healthy:
        add(templates["healthy"], heard.healthy, "healthy")
    else:
        for name in DISTORTIONS:
            if name in heard.distortions:
                add(templates["distortion"][name], heard.distortions[name], f"distortion:{name}")
    themes = list(heard.themes) + [t for t in known_themes if t not in heard.themes]
    for theme in themes:
        if theme in templates["theme"]:
            add(templates["theme"][theme], "", f"theme:{theme}")
    clause = quotable(last, lang)
    if clause:
        add(templates["followup"], clause, "followup")
    return out
