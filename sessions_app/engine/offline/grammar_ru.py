"""Russian third → second person: "Пользователь избегает конфликтов" → "Ты избегаешь
конфликтов?" (informal) or "Вы избегаете конфликтов?" (formal).

Rules: the user as subject ("пользователь", "клиент", "он", "она") becomes "ты"/"вы" and the verb
next to it (after adverbs and "не"; or just before it, as in "что чувствует пользователь") is
conjugated: present -ет/-ёт/-ит → -ешь/-ёшь/-ишь (-ете/-ёте/-ите), reflexive -ется/-ится →
-ешься/-ишься (-етесь/-итесь); past stays for "ты" and takes the plural -ли for "вы"; short
adjectives (уверен, готов, склонен) take the plural for "вы". A verb coordinated with it ("и
ругает себя") follows. Oblique cases and pronouns map to тебя/тебе/тобой (вас/вам/вами).
Russian asks a yes/no question by intonation, so a declarative only needs its "?".

"Ты" agrees with the client in the past and in short adjectives: with `gender="femn"` (learned
from the client's own words, `engine.language.identify.russian_gender`) "ты склонен", "ты застрял",
"ты мог бы" become "ты склонна", "ты застряла", "ты могла бы" (pymorphy3 inflects them); "вы"
takes the plural whatever the gender. With the gender unknown a neutral wording is used where
one exists ("тебе свойственно", "тебе удалось бы"); `gendered(text)` tells whether a question
still needs a gender, so that the Analyst can prefer the others while the gender is unknown.
"""

from __future__ import annotations

import re
from functools import cache

import pymorphy3

SUBJECTS = {"пользователь", "клиент", "клиентка", "он", "она"}
OBLIQUE = {  # word: (informal, formal)
    "пользователя": ("тебя", "вас"),
    "клиента": ("тебя", "вас"),
    "пользователю": ("тебе", "вам"),
    "клиенту": ("тебе", "вам"),
    "пользователем": ("тобой", "вами"),
    "клиентом": ("тобой", "вами"),
    "пользователе": ("тебе", "вас"),
    "клиенте": ("тебе", "вас"),
    "ему": ("тебе", "вам"),
}
AFTER_PREPOSITION = {  # "у него" → "у тебя"
    "него": ("тебя", "вас"),
    "неё": ("тебя", "вас"),
    "нее": ("тебя", "вас"),
    "нём": ("тебе", "вас"),
    "нем": ("тебе", "вас"),
    "ней": ("тебе", "вас"),
    "ним": ("тобой", "вами"),
    "нему": ("тебе", "вам"),
}
SKIP = {
    "не",
    "часто",
    "редко",
    "иногда",
    "всегда",
    "никогда",
    "обычно",
    "уже",
    "ещё",
    "еще",
    "снова",
    "тоже",
    "также",
    "раньше",
    "сейчас",
    "действительно",
    "заранее",
    "прямо",
    "правда",
    "бы",
    "постоянно",
    "мысленно",
    "сам",
    "сама",
    "много",
    "мало",
    "очень",
    "сильно",
    "совсем",
    "почти",
    "опять",
    "всё",
    "именно",
}
IRREGULAR = {
    "хочет": ("хочешь", "хотите"),
    "ест": ("ешь", "едите"),
    "мог": ("мог", "могли"),
    "смог": ("смог", "смогли"),
    "помог": ("помог", "помогли"),
    "шёл": ("шёл", "шли"),
    "пришёл": ("пришёл", "пришли"),
    "ушёл": ("ушёл", "ушли"),
    "нашёл": ("нашёл", "нашли"),
}
SHORT_ADJECTIVES = {
    "уверен",
    "готов",
    "рад",
    "согласен",
    "должен",
    "склонен",
    "способен",
    "доволен",
    "спокоен",
    "занят",
    "открыт",
    "честен",
    "прав",
    "одинок",
    "нужен",
}
CONJUNCTIONS = {"и", "но", "а", "или"}
# Neutral "тебе …" for a short adjective, when the client's gender is unknown.
NEUTRAL_DATIVE = {"склонен": "свойственно", "готов": "хочется", "способен": "по силам"}
# Present and reflexive endings, longest first: (3rd person, informal, formal).
ENDINGS = (
    ("ется", "ешься", "етесь"),
    ("ётся", "ёшься", "ётесь"),
    ("ится", "ишься", "итесь"),
    ("ет", "ешь", "ете"),
    ("ёт", "ёшь", "ёте"),
    ("ит", "ишь", "ите"),
)
_WORD = re.compile(r"^([^\w]*)([\w-]*)([^\w]*)$")


def to_question(text: str, *, formal: bool = False, gender: str = "") -> str:
    return _finish(_convert(text, formal, gender), "?")


def to_statement(text: str, *, formal: bool = False, gender: str = "") -> str:
    """ "Пользователь склонен …" → "Похоже, ты склонен …" ("склонна" for a woman)."""
    tokens = _convert(text, formal, gender)
    if not tokens:
        return ""
    if not _core(tokens[0]).isupper() or len(_core(tokens[0])) == 1:
        tokens[0] = tokens[0][:1].lower() + tokens[0][1:]
    return _finish(["Похоже,", *tokens], ".")


def gendered(text: str) -> bool:
    """Whether the "ты" question needs the client's gender: it agrees in gender ("ты застрял" /
    "ты застряла") and has no neutral wording."""
    masculine = to_question(text, gender="masc")
    return to_question(text, gender="femn") != masculine and to_question(text) == masculine


def _convert(text: str, formal: bool, gender: str = "") -> list[str]:
    tokens = text.strip().rstrip(".!?").split()
    lowered = [_core(token).lower() for token in tokens]
    out = list(tokens)
    form = 1 if formal else 0
    for index, word in enumerate(lowered):
        if word in SUBJECTS and _is_subject(lowered, index):
            out[index] = _with_core(tokens[index], ("вы", "ты")[0 if formal else 1])
            touched = _conjugate_around(out, lowered, index, formal)
            if gender == "femn" and not formal:
                for verb in touched:
                    out[verb] = _with_core(out[verb], _feminine(_core(out[verb]).lower()))
            elif gender != "masc" and not formal:
                _neutral(out, lowered, index, touched)
        elif word in OBLIQUE:
            out[index] = _with_core(tokens[index], OBLIQUE[word][form])
        elif word in AFTER_PREPOSITION and index and len(lowered[index - 1]) <= 3:
            out[index] = _with_core(tokens[index], AFTER_PREPOSITION[word][form])
    if out:
        out[0] = _capitalize(out[0])
    return out


def _neutral(out: list[str], lowered: list[str], subject: int, touched: list[int]) -> None:
    """Gender unknown: "ты склонен" → "тебе свойственно", "ты мог бы" → "тебе удалось бы"."""
    for verb in touched[:1]:
        word = lowered[verb]
        if word in NEUTRAL_DATIVE:
            out[subject] = _with_core(out[subject], "тебе")
            out[verb] = _with_core(out[verb], NEUTRAL_DATIVE[word])
        elif word in ("мог", "смог") and lowered[verb + 1 : verb + 2] == ["бы"]:
            out[subject] = _with_core(out[subject], "тебе")
            out[verb] = _with_core(out[verb], "удалось")


def _is_subject(lowered: list[str], index: int) -> bool:
    # "он"/"она" after a preposition are not subjects ("о нём" is handled elsewhere).
    return lowered[index] not in ("он", "она") or index == 0 or lowered[index - 1] not in ("о",)


def _conjugate_around(out: list[str], lowered: list[str], index: int, formal: bool) -> list[int]:
    """Conjugate the subject's verb; the positions of the words that now agree with it."""
    after = index + 1
    while after < len(lowered) and lowered[after] in SKIP:
        after += 1
    if after < len(lowered) and _conjugate(lowered[after], formal):
        return _conjugate_chain(out, lowered, after, formal)
    if index and _conjugate(lowered[index - 1], formal):
        out[index - 1] = _with_core(out[index - 1], _conjugate(lowered[index - 1], formal))
        return [index - 1]
    return []


def _conjugate_chain(out: list[str], lowered: list[str], index: int, formal: bool) -> list[int]:
    """Conjugate the verb at `index` and the verbs coordinated with it in the same clause
    ("откладывает дела и ругает себя")."""
    touched = []
    while index < len(lowered):
        out[index] = _with_core(out[index], _conjugate(lowered[index], formal))
        touched.append(index)
        index = _coordinated_verb(out, lowered, index)
        if index < 0:
            return touched
    return touched


@cache
def _morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


def _feminine(word: str) -> str:
    """A masculine past-tense verb or short adjective in the feminine; other words as they
    are ("склонен" → "склонна", "застрял" → "застряла", "ругаешь" stays)."""
    for parse in _morph().parse(word)[:2]:
        tag = parse.tag
        agrees = ("VERB" in tag and "past" in tag) or "ADJS" in tag
        if agrees and "masc" in tag and "sing" in tag:
            inflected = parse.inflect({"femn"})
            if inflected is not None:
                return inflected.word
    return word


def _coordinated_verb(out: list[str], lowered: list[str], verb: int) -> int:
    # Look a few words ahead, never past a comma: a new clause has its own subject.
    for index in range(verb + 1, min(verb + 5, len(lowered) - 1)):
        if out[index - 1].endswith((",", ";", ":")):
            return -1
        if lowered[index] in CONJUNCTIONS and _is_clear_verb(lowered[index + 1]):
            return index + 1
    return -1


def _conjugate(word: str, formal: bool) -> str:
    """The second-person form of a third-person verb or short adjective, or ""."""
    if word in IRREGULAR:
        return IRREGULAR[word][1 if formal else 0]
    if word in SHORT_ADJECTIVES or (word[:-1] in SHORT_ADJECTIVES and word.endswith("а")):
        stem = word[:-1] if word.endswith("а") else word
        return _plural_short(stem) if formal else word
    for third, informal, formal_ending in ENDINGS:
        if word.endswith(third) and len(word) > len(third) + 1:
            return word[: -len(third)] + (formal_ending if formal else informal)
    for past, plural in (("лся", "лись"), ("лась", "лись"), ("ла", "ли"), ("л", "ли")):
        if word.endswith(past) and len(word) > len(past) + 2:
            return word[: -len(past)] + plural if formal else word
    return ""


def _plural_short(stem: str) -> str:
    # Fleeting vowel: "согласен" → "согласны", "склонен" → "склонны"; "готов" → "готовы".
    if stem.endswith("ен") and stem not in ("уверен", "занят"):
        return stem[:-2] + "ны"
    if stem.endswith("оен"):
        return stem[:-3] + "ойны"
    return stem + "ы"


NOUNS_IN_IT = {"аппетит", "кредит", "визит", "лимит", "транзит", "магнит", "депозит", "бандит"}


def _is_clear_verb(word: str) -> bool:
    if word.endswith("ит") and len(word) > 4:
        return word not in NOUNS_IN_IT
    return word.endswith(("ает", "яет", "еет", "ует", "ится", "ется", "ёт", "ал", "ял", "ил"))


def _core(token: str) -> str:
    match = _WORD.match(token)
    return match.group(2) if match else token


def _with_core(token: str, core: str) -> str:
    match = _WORD.match(token)
    if not match:
        return core
    original = match.group(2)
    if original[:1].isupper():
        core = core[:1].upper() + core[1:]
    return f"{match.group(1)}{core}{match.group(3)}"


def _capitalize(token: str) -> str:
    match = _WORD.match(token)
    if not match:
        return token
    core = match.group(2)
    return f"{match.group(1)}{core[:1].upper()}{core[1:]}{match.group(3)}"


def _finish(tokens: list[str], mark: str) -> str:
    return " ".join(tokens) + mark if tokens else ""
