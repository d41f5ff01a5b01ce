"""Text normal forms for the crisis detector, with a map back to the client's own characters.

Two forms are built. `normalize(text)` is the readable one other code may match against: NFKC,
case folding, `ё` → `е`, straight apostrophes, zero-width characters dropped, emoji for means of
harm spelled out (🔪 → knife) and other emoji removed, letters spaced or dotted out inside a
word joined again ("k i l l" → "kill"), look-alike letters of the other script mapped inside a
mixed-script word, digits and symbols used as letters mapped ("su1c1de" → "suicide"), runs of
three or more identical letters collapsed ("diiiie" → "die"), Chinese folded to simplified.

`key_view(text)` is what the patterns run on: the normal form plus a lossy skeleton — apostrophes
dropped, Russian soft/hard signs dropped, `й`/`ы` → `и`, `щ` → `ш`, `э` → `е`, every doubled Latin
or Cyrillic letter squeezed to one. Patterns are compiled through the same skeleton
(`key_pattern`), so "kill", "kil" and "kiiill" meet, and so do "самоубийство", "самоубиство"
and a transliterated "samoubiystvo".

Every view carries, per character, the span of original characters it came from, so a finding
can quote what the client actually wrote.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import cyrtranslit
import opencc

_T2S = opencc.OpenCC("t2s")

# Means of harm written as emoji become words the English means lexicon knows; the rest are noise.
EMOJI_WORDS = {
    "🔪": "knife",
    "🗡": "knife",
    "🪒": "razor",
    "💊": "pills",
    "🪢": "rope",
    "🔫": "gun",
    "🩸": "blood",
    "⚰": "coffin",
    "🪦": "grave",
    "☠": "skull",
    "🌉": "bridge",
    "🚆": "train",
    "🚂": "train",
    "🚄": "train",
}

_APOSTROPHES = dict.fromkeys("\u2019\u2018\u02bc\u0060\u00b4\u2032", "'")
_DASHES = dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-")

# Look-alike letters, used only inside a word that mixes scripts: the minority script's letters
# are read as the majority script's.
_CYR_TO_LAT = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "г": "r", "п": "n", "и": "u", "ь": "b", "ο": "o", "α": "a", "ε": "e", "ι": "i", "κ": "k",
    "ρ": "p", "τ": "t", "υ": "u", "ν": "v", "χ": "x",
}  # fmt: skip
_LAT_TO_CYR = {
    "a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м", "o": "о", "p": "р",
    "t": "т", "x": "х", "y": "у", "n": "п", "r": "г", "u": "и", "i": "і",
}  # fmt: skip
# Digits and symbols standing for letters ("k1ll", "$uicide", "у6ить", "3адолбало").
_LEET_LAT = {
    "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
    "@": "a", "$": "s", "!": "i", "|": "l",
}  # fmt: skip
_LEET_CYR = {"0": "о", "3": "з", "4": "ч", "6": "б", "1": "и", "@": "а", "$": "с", "!": "и"}
# A number with a unit or an ordinal is a number, not leetspeak: "10pm", "3am", "2nd", "50mg".
_NUMBER = re.compile(r"\d+[^\W\d_]{0,3}|[^\W\d_]{1,2}\d+|\d+(?:[.,:]\d+)+")

_SKELETON = str.maketrans(
    {"ь": None, "ъ": None, "'": None, "й": "и", "ы": "и", "щ": "ш", "э": "е", "ё": "е"}
)

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_GAP = re.compile(rf"(?<=[{_CJK}])[\s.\-_*·~]+(?=[{_CJK}])")
# One letter, then at least two more each after one separator: "k i l l", "s.u.i.c.i.d.e".
_SPACED = re.compile(r"(?<![^\W_])[^\W_](?:[ .\-_*·•~+/][^\W_@$!|](?![^\W_])){2,}")
# Spelled-out words with wider gaps between them: "w a n t  t o  d i e", "k i l l / m e".
_SPACED_WIDE = re.compile(r"(?<![^\W_])[^\W_](?:(?: |\s{2,}| ?/ ?)[^\W_@$!|](?![^\W_]))+")
_WIDE_GAP = re.compile(r"\s{2,}|\s*/\s*")
_WORD = re.compile(r"[^\W_]+(?:[@$!|][^\W_]+)*|[@$][^\W\d_]+(?:[@$!|][^\W_]+)*")
_LATIN_WORD = re.compile(r"[a-z']+")
_RUN3 = re.compile(r"([^\W\d_])\1{2,}")
_SPACES = re.compile(r"\s+")


def _is_cyr(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def _is_lat(ch: str) -> bool:
    return "a" <= ch <= "z" or "\u00e0" <= ch <= "\u024f"


@dataclass(frozen=True, slots=True)
class View:
    """A transformed text and, per character, the [start, end) of the original it came from."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def source(self, original: str, start: int, end: int) -> str:
        if start >= end or end > len(self.text):
            return self.text[start:end]
        return original[self.starts[start] : self.ends[end - 1]]


class _Buf:
    __slots__ = ("chars", "ends", "starts")

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def add(self, text: str, start: int, end: int) -> None:
        for ch in text:
            self.chars.append(ch)
            self.starts.append(start)
            self.ends.append(end)

    def copy(self, view: View, start: int, end: int | None = None) -> None:
        """Keep `view[start:end]` as it is."""
        self.chars.extend(view.text[start:end])
        self.starts.extend(view.starts[start:end])
        self.ends.extend(view.ends[start:end])

    def view(self) -> View:
        return View("".join(self.chars), tuple(self.starts), tuple(self.ends))


def _rebuild(view: View, pieces: Iterable[tuple[int, int, str]]) -> View:
    """Replace spans of `view` (sorted, disjoint `(start, end, new_text)`); a replacement's
    characters map onto the replaced characters proportionally."""
    buf = _Buf()
    pos = 0
    for start, end, new in pieces:
        buf.copy(view, pos, start)
        old = end - start
        for j, ch in enumerate(new):
            if old:
                k = start + min(old - 1, j * old // max(len(new), 1))
                buf.add(
                    ch, view.starts[k], view.ends[k] if j < len(new) - 1 else view.ends[end - 1]
                )
            else:
                anchor = view.ends[start - 1] if start else 0
                buf.add(ch, anchor, anchor)
        pos = end
    buf.copy(view, pos)
    return buf.view()


def _char_form(ch: str) -> str:
    if ch in EMOJI_WORDS:
        return f" {EMOJI_WORDS[ch]} "
    category = unicodedata.category(ch)
    if category in ("Mn", "Me", "Cf"):
        return ""
    if category in ("So", "Cs", "Co"):
        return " "
    form = unicodedata.normalize("NFKC", ch).casefold()
    return form.replace("ё", "е").translate(_APOSTROPHES).translate(_DASHES)


def _base(text: str) -> View:
    if text.isascii():
        low = text.lower().replace("`", "'")
        return View(low, tuple(range(len(low))), tuple(range(1, len(low) + 1)))
    buf = _Buf()
    for i, ch in enumerate(text):
        buf.add(ch.lower() if ch.isascii() else _char_form(ch), i, i + 1)
    return buf.view()


def _fix_word(word: str, cyrillic_text: bool) -> str:
    """Homoglyphs and leetspeak inside one word; one character in, one character out. A tie
    ("нe": one letter of each) goes to the script most of the text is written in."""
    cyr = sum(1 for ch in word if _is_cyr(ch))
    lat = sum(1 for ch in word if _is_lat(ch))
    leet = any(not ch.isalpha() for ch in word) and (cyr + lat) >= 2
    if not leet and not (cyr and lat) and not any("\u0370" <= ch <= "\u03ff" for ch in word):
        return word
    to_cyr = cyr > lat or (cyr == lat and cyrillic_text)
    glyphs, digits = (_LAT_TO_CYR, _LEET_CYR) if to_cyr else (_CYR_TO_LAT, _LEET_LAT)
    number = leet and _NUMBER.fullmatch(word) is not None
    out = []
    for ch in word:
        if ch.isalpha():
            foreign = _is_lat(ch) if to_cyr else not _is_lat(ch) and not ch.isascii()
            out.append(glyphs.get(ch, ch) if foreign else ch)
        elif not number:
            out.append(digits.get(ch, ch))
        else:
            out.append(ch)
    return "".join(out)


def _join_spaced(view: View, segment: Callable[[str], str]) -> View:
    pieces = []
    for m in _SPACED_WIDE.finditer(view.text):
        groups = [g.replace(" ", "") for g in _WIDE_GAP.split(m.group())]
        if len(groups) >= 2 and all(groups) and sum(map(len, groups)) >= 4:
            pieces.append((m.start(), m.end(), " ".join(segment(g) for g in groups)))
    for m in _SPACED.finditer(view.text):
        letters = "".join(ch for ch in m.group() if ch not in " .-_*·•~+/")
        pieces.append((m.start(), m.end(), segment(letters)))
    for m in _CJK_GAP.finditer(view.text):
        pieces.append((m.start(), m.end(), ""))
    if not pieces:
        return view
    pieces.sort(key=lambda piece: (piece[0], -piece[1]))
    return _rebuild(view, _disjoint(pieces))


def _disjoint(pieces: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for piece in pieces:
        if not out or piece[0] >= out[-1][1]:
            out.append(piece)
    return out


def _map_chars(view: View, fn: Callable[[str], str]) -> View:
    """Apply a length-preserving text transform (per word or per character)."""
    new = fn(view.text)
    if len(new) != len(view.text):
        return view
    return View(new, view.starts, view.ends)


# Written Cantonese (Hong Kong) function words, each to its Mandarin equal of the same length:
# "唔想再活落去" reads as "不想再活下去".
_CANTONESE_CHARS = str.maketrans("唔冇嘅咗佢喺啲攰諗谂", "不没的了他在些累想想")
_CANTONESE_WORDS = (
    ("落去", "下去"),
    ("乜嘢", "什么"),
    ("咁樣", "这样"),
    ("咁样", "这样"),
    ("想住", "想着"),
    ("成日", "整天"),
)


def _fold_chinese(text: str) -> str:
    if not any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text):
        return text
    folded = _T2S.convert(text)
    if len(folded) != len(text):
        folded = "".join(_T2S.convert(ch) if len(_T2S.convert(ch)) == 1 else ch for ch in text)
    folded = folded.translate(_CANTONESE_CHARS)
    for cantonese, mandarin in _CANTONESE_WORDS:
        folded = folded.replace(cantonese, mandarin)
    return folded


def _squeeze(view: View, pattern: re.Pattern[str]) -> View:
    pieces = [(m.start(), m.end(), m.group(1)) for m in pattern.finditer(view.text)]
    if not pieces:
        return view
    # One character for each match, mapped onto all the characters it stands for.
    return _rebuild(view, pieces)


def _delete(view: View, chars: str) -> View:
    if not any(ch in view.text for ch in chars):
        return view
    keep = [i for i, ch in enumerate(view.text) if ch not in chars]
    ends = list(view.ends)
    # A dropped sign still belongs to the word: "жить" keyed as "жит" quotes back as "жить".
    for i in range(len(ends) - 1, 0, -1):
        if view.text[i] in chars and view.text[i - 1] not in chars:
            ends[i - 1] = max(ends[i - 1], ends[i])
    return View(
        "".join(view.text[i] for i in keep),
        tuple(view.starts[i] for i in keep),
        tuple(ends[i] for i in keep),
    )


def _no_segmenting(letters: str) -> str:
    return letters


_segmenter: Callable[[str], str] = _no_segmenting


def set_segmenter(fn: Callable[[str], str]) -> None:
    """The detector knows its vocabulary; it splits a joined spelled-out run into words."""
    global _segmenter
    _segmenter = fn


def normal_view(text: str) -> View:
    view = _base(text)
    view = _join_spaced(view, _segmenter)
    cyrillic = sum(map(_is_cyr, view.text)) > sum(map(_is_lat, view.text))
    view = _map_chars(view, lambda s: _WORD.sub(lambda m: _fix_word(m.group(), cyrillic), s))
    view = _map_chars(view, _fold_chinese)
    view = _squeeze(view, _RUN3)
    view = _collapse_spaces(view)
    return view


def _collapse_spaces(view: View) -> View:
    pieces = [
        (m.start(), m.end(), "" if m.start() == 0 or m.end() == len(view.text) else " ")
        for m in _SPACES.finditer(view.text)
        if m.group() != " " or m.start() == 0 or m.end() == len(view.text)
    ]
    return _rebuild(view, pieces) if pieces else view


_CJK_LATIN = re.compile(rf"(?<=[{_CJK}])(?=[a-z])|(?<=[a-z])(?=[{_CJK}])")


def spaced_view(view: View) -> View | None:
    """Latin words written against Chinese characters set apart ("今晚就end it" → "今晚就 end
    it"), so that the English patterns' word boundaries find them; None when there are none."""
    pieces = [(m.start(), m.start(), " ") for m in _CJK_LATIN.finditer(view.text)]
    if not pieces:
        return None
    return _rebuild(view, pieces)


def normalize(text: str) -> str:
    """The readable normal form (see the module docstring)."""
    return normal_view(text).text


_TSA = re.compile(r"(?<=[\u0430-\u044f])цца\b")
_DOUBLE = re.compile(r"([a-z\u00e0-\u024f\u0400-\u04ff])\1+")


def key_view(view: View) -> View:
    """The matching skeleton of a normal-form view."""
    skeleton = view.text.translate(_SKELETON)
    if len(skeleton) != len(view.text):
        view = _delete(view, "ьъ'")
        skeleton = view.text.translate(_SKELETON)
    # "убицца", "отравицца": Russian spelled as said: a final "цца" is "тся" (same length).
    if "цца" in skeleton:
        skeleton = _TSA.sub("тся", skeleton)
    view = View(skeleton, view.starts, view.ends)
    return _squeeze(view, _DOUBLE)


def key_text(text: str) -> str:
    """The skeleton of a plain string (vocabulary words, not regexes)."""
    return _DOUBLE.sub(r"\1", text.translate(_SKELETON))


def key_pattern(source: str) -> str:
    """Put a regex source through the skeleton: literal letters only, escapes left alone."""
    out: list[str] = []
    i = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\" and i + 1 < len(source):
            out.append(source[i : i + 2])
            i += 2
            continue
        ch = ch.translate(_SKELETON)
        if ch and out and ch == out[-1] and _DOUBLE.match(ch + ch):
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# Common Latin spellings of Russian that cyrtranslit reads differently ("kh", "x", "ja").
_TRANSLIT_PREP = (
    (re.compile(r"kh"), "h"),
    (re.compile(r"x"), "h"),
    (re.compile(r"\bj(?=[aeou])"), "y"),
    (re.compile(r"(?<=[aeiou])j(?=[aeou])"), "y"),
    (re.compile(r"w"), "v"),
    (re.compile(r"'"), "ь"),
)


@lru_cache(maxsize=65536)
def _translit_word(word: str) -> str:
    for pattern, repl in _TRANSLIT_PREP:
        word = pattern.sub(repl, word)
    return cyrtranslit.to_cyrillic(word, "ru")


def _translit_piece(match: re.Match[str]) -> str:
    word = match.group()
    return _translit_word(word) if len(word) > 1 or word in "ysvkiaou" else word


def translit_text(text: str) -> str:
    """`translit_view(…).text` as a plain string, without the view's maps (cheap: the scan asks
    first whether the Russian patterns could find anything in it)."""
    return _LATIN_WORD.sub(_translit_piece, text)


def key_string(text: str) -> str:
    """`key_view(…).text` as a plain string."""
    skeleton = text.translate(_SKELETON)
    if "цца" in skeleton:
        skeleton = _TSA.sub("тся", skeleton)
    return _DOUBLE.sub(r"\1", skeleton)


def translit_view(view: View) -> View | None:
    """Latin-typed Russian read as Cyrillic ("ya hochu umeret" → "я хочу умерет"), or None
    when there is no Latin word to read."""
    pieces = [
        (m.start(), m.end(), _translit_word(m.group()))
        for m in _LATIN_WORD.finditer(view.text)
        if len(m.group()) > 1 or m.group() in "ysvkiaou"
    ]
    if not pieces:
        return None
    return _rebuild(view, pieces)
