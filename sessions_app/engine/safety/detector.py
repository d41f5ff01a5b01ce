"""The crisis detector: every language's patterns on every text, negatives that excuse only
their own span, and the severity rule.

Severity (`severity`): a wish to die or intent with a means, a time, a plan or preparatory acts,
preparatory acts on their own, a means with a time, an explicit plan → L4; any other positive →
L3.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from re import _constants as sre  # the parse tree `re` compiles: read to find a rule's words
from re import _parser as sre_parse

import pymorphy3
from rapidfuzz import process
from rapidfuzz.distance import OSA

from sessions_app.engine.safety import normal as norm
from sessions_app.engine.safety import patterns_en, patterns_ru, patterns_zh
from sessions_app.engine.safety.rules import FLAGS, Rule


class Category(StrEnum):
    PASSIVE_IDEATION = "passive_ideation"
    ACTIVE_IDEATION = "active_ideation"
    METHOD = "method"
    INTENT_PLAN = "intent_plan"
    PREPARATORY = "preparatory"
    SELF_HARM = "self_harm"
    BURDEN = "burden"
    HOPELESSNESS = "hopelessness"


@dataclass(frozen=True, slots=True)
class Finding:
    category: Category
    span: str
    start: int
    end: int
    language: str
    # The id of the rule that found the words (`en.passive.want_to_die`): where a false alarm
    # comes from. Not part of what was found, so two findings of the same words are equal.
    rule: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Assessment:
    findings: tuple[Finding, ...] = ()
    level: str | None = None
    categories: frozenset[Category] = field(default_factory=frozenset)
    # A time ("tonight") or an explicit plan among the findings: what makes an act imminent.
    timed: bool = False
    planned: bool = False

    @property
    def positive(self) -> bool:
        return self.level is not None


@dataclass(frozen=True, slots=True)
class _Rule:
    id: str
    category: Category
    regex: re.Pattern[str]
    plan: bool
    support: bool
    matches: tuple[str, ...]
    spares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Language:
    code: str
    rules: tuple[_Rule, ...]
    negatives: tuple[re.Pattern[str], ...]
    negative_ids: tuple[str, ...]  # the id of each of `negatives`
    time: re.Pattern[str]
    # Which patterns may match a text, numbered negatives first, then rules, then `time`.
    gate: _Gate


_MACRO = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")
_ESCAPE = re.compile(r"\\.")
_WORDS = re.compile(r"[a-z\u0400-\u04ff]{2,}")
_ID = re.compile(r"(en|ru|zh)\.[a-z_]+\.[a-z0-9_]+")
_SHORT = {
    "passive_ideation": "passive",
    "active_ideation": "active",
    "method": "method",
    "intent_plan": "intent",
    "preparatory": "prep",
    "self_harm": "self_harm",
    "burden": "burden",
    "hopelessness": "hopeless",
}


class RuleError(ValueError):
    """A rule that is malformed or breaks one of its own examples; the message names it."""


def _expand(source: str, macros: dict[str, str]) -> str:
    for _ in range(5):
        new = _MACRO.sub(lambda m: macros.get(m.group(1), m.group()), source)
        if new == source:
            break
        source = new
    return source


def _word_forms(morph: pymorphy3.MorphAnalyzer, lemmas: tuple[str, ...], grammemes) -> list[str]:
    forms: set[str] = set()
    for lemma in lemmas:
        parses = morph.parse(lemma)
        # "снотворное" parses as a form of the adjective "снотворный": keep what the lemma is.
        exact = [p for p in parses[:3] if p.normal_form in (lemma, lemma.replace("ё", "е"))]
        for parse in exact or parses[:1]:
            for form in parse.lexeme:
                if {"PRTF", "PRTS"} & form.tag.grammemes or len(form.word) < 3:
                    continue
                if grammemes and not grammemes <= form.tag.grammemes:
                    continue
                forms.add(form.word.replace("ё", "е"))
    return sorted(forms, key=len, reverse=True)


def _ru_macros() -> dict[str, str]:
    morph = pymorphy3.MorphAnalyzer()
    macros = dict(patterns_ru.MACROS)
    for name, (lemmas, grammemes) in patterns_ru.LEXEMES.items():
        forms = _word_forms(morph, lemmas, grammemes)
        macros[name] = "(?:" + "|".join(forms) + ")"
    return macros


_VOCABULARY: set[str] = set()  # plain spellings of every word the patterns name


def _alternatives(source: str) -> list[str]:
    """A regex split at its top-level `|`: each alternative finds its own (longest) span, so a
    short alternative matching first cannot hide a longer negative at the same place."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return [p for p in parts if p]


def _named(code: str, rule: Rule, seen: set[str]) -> None:
    """Raise unless `rule` has a fresh id that says its language and category (ids start with
    their language, so unique in each language is unique)."""
    match = _ID.fullmatch(rule.id)
    if not match or match.group(1) != code or rule.id.split(".")[1] != _SHORT.get(rule.category):
        raise RuleError(
            f"rule {rule.id!r}: an id reads {code}.{_SHORT.get(rule.category, '?')}.<words>"
        )
    if rule.id in seen:
        raise RuleError(f"rule {rule.id!r}: the id is taken")
    if not set(rule.flags) <= FLAGS:
        raise RuleError(f"rule {rule.id!r}: unknown flags {sorted(set(rule.flags) - FLAGS)}")
    if not rule.matches:
        raise RuleError(f"rule {rule.id!r}: no example it must match")
    seen.add(rule.id)


# A rule's anchors: strings one of which every match of it contains, read from the parse tree
# `re` compiles the pattern from. A text holding none of them cannot match, so the scan skips
# the rule without running it: most of the 500 rules and their negatives name words ("pills",
# "rope", "умереть", "自杀") that an ordinary message never holds, and a regex run over a
# 4,000-character message costs about as much as all of the checks together.
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def _anchors(regex: re.Pattern[str]) -> tuple[str, ...] | None:
    """The anchors of `regex`, or None when no set of strings is certain (the rule always
    runs)."""
    try:
        tree = sre_parse.parse(regex.pattern, regex.flags)
    except Exception:  # a parser of another Python: scanning everything is always right
        return None
    if regex.flags & re.IGNORECASE:
        return None
    found = _required(tree)
    return tuple(sorted(found)) if found else None


def _selectivity(strings: frozenset[str]) -> tuple[int, int]:
    return min(map(len, strings)), -len(strings)


def _required(items) -> frozenset[str] | None:
    """Strings one of which every match of the parsed sequence `items` contains: of what the
    sequence must match (a run of literal characters, a group, an alternation of which every
    branch has some, a repeat of at least one), the set with the longest shortest string."""
    best: frozenset[str] | None = None
    run: list[str] = []

    def consider(candidate: frozenset[str] | None) -> None:
        nonlocal best
        if (
            candidate
            and all(candidate)
            and (best is None or _selectivity(candidate) > _selectivity(best))
        ):
            best = candidate

    def close_run() -> None:
        if run:
            consider(frozenset({"".join(run)}))
            run.clear()

    for op, av in items:
        if op is sre.LITERAL:
            run.append(chr(av))
            continue
        if op in _ZERO_WIDTH:  # matches no character: the literals either side are adjacent
            continue
        close_run()
        if op is sre.SUBPATTERN:
            if not av[1] & re.IGNORECASE:  # (?i:…) matches other letters than it spells
                consider(_required(av[-1]))
        elif op is sre.BRANCH:
            branches = [_required(branch) for branch in av[1]]
            if all(branches):
                consider(frozenset().union(*branches))
        elif op in _REPEATS and av[0] >= 1:
            consider(_required(av[2]))
        elif op is sre.IN and all(kind is sre.LITERAL for kind, _ in av):
            consider(frozenset(chr(code) for _, code in av))
    close_run()
    return best


@dataclass(frozen=True, slots=True)
class _Gate:
    """A language's patterns by their anchors, each filed under its first three characters (or
    fewer, if it is shorter): what a text's three-letter pieces open."""

    always: frozenset[int]  # the patterns without anchors
    by_gram: dict[str, tuple[tuple[str, int], ...]]
    grams: frozenset[str]

    @classmethod
    def of(cls, regexes: list[re.Pattern[str]]) -> _Gate:
        always, by_gram = set(), {}
        for index, regex in enumerate(regexes):
            anchors = _anchors(regex)
            if anchors is None:
                always.add(index)
                continue
            for anchor in anchors:
                by_gram.setdefault(anchor[:3], []).append((anchor, index))
        filed = {gram: tuple(pairs) for gram, pairs in by_gram.items()}
        return cls(frozenset(always), filed, frozenset(filed))


class _Present:
    """A text's pieces of one, two and three characters: which patterns of a language it opens."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.grams = {text[i : i + n] for n in (1, 2, 3) for i in range(len(text) - n + 1)}

    def opens(self, gate: _Gate) -> set[int]:
        opened = set(gate.always)
        for gram in self.grams & gate.grams:
            for anchor, index in gate.by_gram[gram]:
                if index not in opened and (len(anchor) <= 3 or anchor in self.text):
                    opened.add(index)
        return opened


def _compile(code: str, module, macros: dict[str, str]) -> _Language:
    rules, seen = [], set()
    for rule in module.RULES:
        _named(code, rule, seen)
        expanded = _expand(rule.pattern, macros)
        if code == "ru":
            # Unstressed о/е written as they sound ("пакончить с сабой", "убить сибя").
            expanded = expanded.replace("собой", "(?:собой|сабой|собою)").replace(
                "себя", "(?:себя|сибя)"
            )
        if code == "zh":
            # OpenCC keeps 著 (a simplified character too), but "活著" is "活着".
            expanded = expanded.replace("着", "[着著]")
        _VOCABULARY.update(_WORDS.findall(_ESCAPE.sub(" ", expanded)))
        regex = re.compile(norm.key_pattern(expanded))
        rules.append(
            _Rule(
                rule.id,
                Category(rule.category),
                regex,
                plan="plan" in rule.flags,
                support="support" in rule.flags,
                matches=rule.matches,
                spares=rule.spares,
            )
        )
    negatives, negative_ids = [], []
    for negative in module.NEGATIVES:
        if not _ID.fullmatch(negative.id) or negative.id.split(".")[:2] != [code, negative.kind]:
            raise RuleError(f"negative {negative.id!r}: an id reads {code}.{negative.kind}.<words>")
        if negative.id in seen:
            raise RuleError(f"negative {negative.id!r}: the id is taken")
        seen.add(negative.id)
        source = _expand(negative.pattern, macros)
        _VOCABULARY.update(_WORDS.findall(_ESCAPE.sub(" ", source)))
        for part in _alternatives(source):
            negatives.append(re.compile(norm.key_pattern(part)))
            negative_ids.append(negative.id)
    time = re.compile(norm.key_pattern(_expand(macros["TIME"], macros)))
    gate = _Gate.of([*negatives, *(rule.regex for rule in rules), time])
    return _Language(code, tuple(rules), tuple(negatives), tuple(negative_ids), time, gate)


_LANGUAGES = {
    "en": _compile("en", patterns_en, patterns_en.MACROS),
    "ru": _compile("ru", patterns_ru, _ru_macros()),
    "zh": _compile("zh", patterns_zh, patterns_zh.MACROS),
}
_PROTECTED = frozenset(norm.key_text(word) for word in _VOCABULARY)
_SEGMENT_WORDS = frozenset(_VOCABULARY | {"i", "a", "я", "в", "с", "и", "у", "к", "о"})


def _fuzzy_index(words: list[str]) -> dict[int, list[str]]:
    index: dict[int, list[str]] = {}
    for word in {norm.key_text(w) for w in words if " " not in w and len(w) >= 5}:
        index.setdefault(len(word), []).append(word)
    return index


_FUZZY = {
    "lat": _fuzzy_index(patterns_en.FUZZY),
    "cyr": _fuzzy_index(patterns_ru.FUZZY),
}
_SWAPS = {"".join(sorted(w)): w for w in patterns_en.FUZZY4}
_TOKEN = re.compile(r"[a-z]{4,}|[\u0400-\u04ff]{5,}")


@lru_cache(maxsize=65536)
def _correct(token: str) -> str | None:
    """A key term within a small edit distance ("sucide" → "suicide"), or None."""
    if token in _PROTECTED:
        return None
    if len(token) == 4:
        swap = _SWAPS.get("".join(sorted(token)))
        return swap if swap and OSA.distance(token, swap) == 1 else None
    # Two edits only on long words, and never on the first letter: "отдохнуть" is not "сдохнуть".
    limit = 1 if len(token) < 10 else 2
    index = _FUZZY["lat" if token[0] < "\u0400" else "cyr"]
    candidates = [
        w
        for n in range(len(token) - limit, len(token) + limit + 1)
        for w in index.get(n, ())
        if limit == 1 or w[0] == token[0]
    ]
    if not candidates:
        return None
    best = process.extractOne(token, candidates, scorer=OSA.distance, score_cutoff=limit)
    return best[0] if best else None


def _corrected(view: norm.View) -> norm.View:
    pieces = []
    for m in _TOKEN.finditer(view.text):
        fix = _correct(m.group())
        if fix:
            pieces.append((m.start(), m.end(), fix))
    return norm._rebuild(view, pieces) if pieces else view


def _finds_any(language: _Language, text: str, opened: set[int]) -> bool:
    """Whether any of `language`'s patterns numbered in `opened` (as its gate numbers them)
    matches words of `text`."""
    patterns = [*language.negatives, *(rule.regex for rule in language.rules), language.time]
    return any(m.end() > m.start() for index in opened for m in patterns[index].finditer(text))


def _corrected_string(text: str) -> str:
    """`_corrected(view).text` for a view of `text`, as a plain string."""
    return _TOKEN.sub(lambda m: _correct(m.group()) or m.group(), text)


@lru_cache(maxsize=4096)
def _segment(letters: str) -> str:
    """Split a spelled-out run ("iwanttodie") into the patterns' words, if it splits cleanly."""
    n = len(letters)
    if n < 3 or letters in _SEGMENT_WORDS or not letters.isalpha():
        return letters
    best: list[tuple[int, int] | None] = [None] * (n + 1)
    best[0] = (0, 0)
    for i in range(1, n + 1):
        for j in range(max(0, i - 20), i):
            if best[j] is not None and letters[j:i] in _SEGMENT_WORDS:
                cost = best[j][0] + 1
                if best[i] is None or cost < best[i][0]:
                    best[i] = (cost, j)
    if best[n] is None:
        return letters
    words, i = [], n
    while i > 0:
        j = best[i][1]
        words.append(letters[j:i])
        i = j
    return " ".join(reversed(words))


norm.set_segmenter(_segment)


def _language_of(locale: str) -> str | None:
    code = locale.replace("_", "-").split("-")[0].lower() if locale else ""
    return code if code in _LANGUAGES else None


def _contained(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= start and end <= e for s, e in spans)


def _scan(
    language: _Language,
    view: norm.View,
    present: _Present,
    hits: list,
    excused: list,
    times: list,
) -> None:
    """Positives and excused spans, both in the original text's coordinates: a negative found
    in one view (or language) excuses the same words found through another. A pattern runs only
    where the view holds one of its anchors (`present`: the view's)."""
    opened = present.opens(language.gate)
    for index, regex in enumerate(language.negatives):
        if index in opened:
            for m in regex.finditer(view.text):
                if m.end() > m.start():
                    excused.append((view.starts[m.start()], view.ends[m.end() - 1]))
    first = len(language.negatives)
    for index, rule in enumerate(language.rules, start=first):
        if index in opened:
            for m in rule.regex.finditer(view.text):
                start, end = m.span()
                if start < end:
                    hits.append((rule, language.code, view, start, end))
    if first + len(language.rules) in opened and language.time.search(view.text):
        times.append(language.code)


def _dedupe(hits: list) -> list:
    """One finding per category and stretch of the original text (views and languages
    overlap: "s.u.i.c.i.d.e" is also a transliterated Russian word)."""

    def span(hit: tuple) -> tuple[int, int]:
        view, start, end = hit[2], hit[3], hit[4]
        return view.starts[start], view.ends[end - 1]

    # Of equal spans in one category, an explicit plan wins (it carries the severity).
    ordered = sorted(
        enumerate(hits),
        key=lambda ih: (span(ih[1])[0], -span(ih[1])[1], not ih[1][0].plan, ih[0]),
    )
    kept: list = []
    for _, hit in ordered:
        start, end = span(hit)
        if any(
            k[0].category == hit[0].category and ks <= start and end <= ke for k, ks, ke in kept
        ):
            continue
        kept.append((hit, start, end))
    return [k for k, _, _ in kept]


def assess(text: str, locale: str = "en", *, context: bool = False) -> Assessment:
    """Every language's patterns on `text`; `locale` only orders the languages. With `context`
    (the conversation is already a crisis) the ambiguous cues count on their own: "I have a
    plan", "I'm going to do it tonight" mean one thing there."""
    if not text or not text.strip():
        return Assessment()
    return _assessed(str(text), str(locale or ""), bool(context))


# One answer is assessed several times in its turn (the safety net, fatigue, the flow router,
# the offline Analyst over the batch, the Summarizer over the session): a pure function of its
# arguments with an immutable result, so each text is scanned once per process.
ASSESSED_CACHED = 2048  # texts of at most 4,000 characters: a few MB at worst


@lru_cache(maxsize=ASSESSED_CACHED)
def _assessed(text: str, locale: str, context: bool) -> Assessment:
    first = _language_of(locale)
    order = sorted(_LANGUAGES, key=lambda code: code != first)
    normal = norm.normal_view(text)
    view = _corrected(norm.key_view(normal))
    hits: list = []
    excused: list = []
    times: list = []
    present = _Present(view.text)
    for code in order:
        _scan(_LANGUAGES[code], view, present, hits, excused, times)
    if any("a" <= ch <= "z" for ch in view.text):
        # Code-mixed Chinese and English: the English words read on their own.
        spaced = norm.spaced_view(normal)
        if spaced is not None:
            spaced = _corrected(norm.key_view(spaced))
            _scan(_LANGUAGES["en"], spaced, _Present(spaced.text), hits, excused, times)
        # Russian typed in Latin letters: its view (whose maps cost more than the scan) is built
        # only when one of the Russian patterns (a rule, a negative or the time) finds words in
        # its text, which is the same as the view's.
        translit = _corrected_string(norm.key_string(norm.translit_text(normal.text)))
        present = _Present(translit)
        if _finds_any(_LANGUAGES["ru"], translit, present.opens(_LANGUAGES["ru"].gate)):
            other = norm.translit_view(normal)
            if other is not None:
                other = _corrected(norm.key_view(other))
                _scan(_LANGUAGES["ru"], other, present, hits, excused, times)
    hits = [h for h in hits if not _contained(h[2].starts[h[3]], h[2].ends[h[4] - 1], excused)]
    hits = _dedupe(hits)
    # Ambiguous cues ("the pills", "it's decided") count only next to a clear finding, or
    # together: a means and a resolve.
    clear = any(not h[0].support for h in hits)
    supports = {h[0].category for h in hits if h[0].support}
    if not hits or (
        not clear and not context and not {Category.METHOD, Category.INTENT_PLAN} <= supports
    ):
        return Assessment()
    findings = tuple(
        Finding(
            rule.category,
            v.source(text, start, end),
            v.starts[start],
            v.ends[end - 1],
            code,
            rule.id,
        )
        for rule, code, v, start, end in sorted(hits, key=lambda h: h[2].starts[h[3]])
    )
    categories = frozenset(f.category for f in findings)
    planned = any(h[0].plan for h in hits)
    return Assessment(
        findings,
        severity(categories, plan=planned, timed=bool(times)),
        categories,
        timed=bool(times),
        planned=planned,
    )


# A wish to die, thoughts of killing oneself, or intent: what makes a means, a time or a plan
# imminent rather than incidental.
WISH = frozenset({Category.PASSIVE_IDEATION, Category.ACTIVE_IDEATION, Category.INTENT_PLAN})


def severity(categories: frozenset[Category], *, plan: bool, timed: bool) -> str:
    """L4 when a wish to die or intent comes with a means at hand, a time, a plan or preparatory
    acts; a means with a time ("the pills, tonight"); preparatory acts (they are intent acted
    on); an explicit plan. L3 otherwise (SPEC §3)."""
    wish = bool(WISH & categories)
    means = Category.METHOD in categories
    severe = (
        plan
        or Category.PREPARATORY in categories
        or (wish and (means or timed))
        or (means and (timed or Category.INTENT_PLAN in categories))
    )
    return "L4" if severe else "L3"


def clear_caches(*, per_word: bool = True) -> None:
    """Forget the assessed texts and, unless `per_word` is False, the per-word caches (the
    benchmark's warm and cold runs)."""
    _assessed.cache_clear()
    if per_word:
        _correct.cache_clear()
        _segment.cache_clear()
        norm._translit_word.cache_clear()


def _views(text: str) -> list[tuple[tuple[str, ...], norm.View]]:
    """The views `_assessed` scans `text` through, each with the languages scanned on it (the
    same steps as there: change both together)."""
    normal = norm.normal_view(text)
    view = _corrected(norm.key_view(normal))
    views = [(tuple(_LANGUAGES), view)]
    if any("a" <= ch <= "z" for ch in view.text):
        spaced = norm.spaced_view(normal)
        if spaced is not None:
            views.append((("en",), _corrected(norm.key_view(spaced))))
        translit = norm.translit_view(normal)
        if translit is not None:
            views.append((("ru",), _corrected(norm.key_view(translit))))
    return views


def _spans(regex: re.Pattern[str], view: norm.View) -> list[tuple[int, int]]:
    """Where `regex` matches `view`, in the original text's coordinates."""
    return [
        (view.starts[m.start()], view.ends[m.end() - 1])
        for m in regex.finditer(view.text)
        if m.end() > m.start()
    ]


def _excusals(views: list, languages: dict[str, _Language]) -> list[tuple[int, int, str]]:
    return [
        (start, end, negative_id)
        for codes, view in views
        for language in (languages[c] for c in codes if c in languages)
        for regex, negative_id in zip(language.negatives, language.negative_ids, strict=True)
        for start, end in _spans(regex, view)
    ]


def finds(rule: _Rule, code: str, text: str, languages: dict[str, _Language]) -> bool:
    """Whether `rule` (of language `code`) finds words in `text` that no negative of
    `languages` excuses: what `assess` would keep of it."""
    views = _views(text)
    spans = [span for codes, view in views if code in codes for span in _spans(rule.regex, view)]
    if not spans:
        return False
    excused = [(start, end) for start, end, _ in _excusals(views, languages)]
    return any(not _contained(start, end, excused) for start, end in spans)


def trace(text: str) -> list[tuple[str, str, str | None]]:
    """Every rule that finds words in `text`: its id, the words, and the id of the negative that
    excuses them (None if none does). A false alarm or a miss, read in one step."""
    views = _views(text)
    excused = _excusals(views, _LANGUAGES)
    found = []
    for codes, view in views:
        for code in codes:
            for rule in _LANGUAGES[code].rules:
                for start, end in _spans(rule.regex, view):
                    by = next((n for s, e, n in excused if s <= start and end <= e), None)
                    found.append((start, rule.id, text[start:end], by))
    return [(rule_id, words, by) for _, rule_id, words, by in sorted(set(found))]


def check_examples(languages: dict[str, _Language]) -> None:
    """Raise `RuleError` naming the first rule that misses an example it must match or finds
    one it must spare."""
    for code, language in languages.items():
        for rule in language.rules:
            for text in rule.matches:
                if not finds(rule, code, text, languages):
                    raise RuleError(f"rule {rule.id}: does not find its example {text!r}")
            for text in rule.spares:
                if finds(rule, code, text, languages):
                    raise RuleError(f"rule {rule.id}: finds {text!r}, which it must spare")


# At import: a rule edit that breaks its own example fails here, naming the rule.
check_examples(_LANGUAGES)
