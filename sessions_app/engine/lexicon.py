"""Keyword lexicons (English and Russian) and the pure detectors built on them: fatigue, meta
questions, rescheduling, mood. The crisis net is `sessions_app.engine.safety`.

They run on every client text, so they never depend on a model, a network or the database.
Patterns run on `normalize(text)`: lower case, `ё` → `е`, typographic apostrophes straightened,
whitespace collapsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sessions_app.engine.safety import detect_crisis

WEEKDAYS_EN = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
WEEKDAYS_RU = "понедельник|вторник|среду|четверг|пятницу|субботу|воскресенье"

FATIGUE = {
    "en": [
        r"\b(?:i'?m|i am|i feel|feeling|so|really) (?:so |really |very )?"
        r"(?:tired|exhausted|worn out)\b",
        r"^enough\b",
        r"\b(?:that'?s|thats|it'?s|this is) enough\b",
        r"\benough for (?:today|now)\b",
        r"\benough (?:questions|already)\b",
        r"\b(?:had|have had) enough(?: of this| for today)?\s*[.!]*$",
        r"\b(?:don'?t|do not) want to (?:continue|go on|talk any ?more)\b",
        r"\b(?:can we|let'?s|i want to|i'?d like to) stop\b",
        r"\bi'?m done\b",
        r"\bno more questions\b",
        r"\btoo much for (?:today|me today)\b",
    ],
    "ru": [
        r"\bустала?\b",
        r"\bутомил\w*",
        r"^хватит\b",
        r"\bхватит(?: на сегодня| уже| вопросов)?\s*[.!]*$",
        r"\bхватит на сегодня\b",
        r"\bдостаточно на сегодня\b",
        r"\bне хочу (?:продолжать|больше говорить|дальше)\b",
        r"\bдавай(?:те)? (?:закончим|остановимся|на этом закончим)\b",
        r"\bнадоело\b",
        r"\bнет сил\b",
        r"\bможно (?:закончить|остановиться)\b",
    ],
}

META = {
    "en": [
        r"\bwhy (?:do|are) you (?:keep )?ask\w*",
        r"\bwhy do you keep\b",
        r"\bwho are you\b",
        r"\bwhat are you\b",
        r"\bare you (?:a |an )?(?:bot|robot|ai|human|real|person|machine|chatbot)\b",
        r"\bis this (?:a |an )?(?:bot|ai|real person)\b",
        r"\bhow do you work\b",
        r"\bwho (?:made|built|programmed) you\b",
        r"\byour (?:prompt|instructions|system prompt)\b",
        r"\bchat ?gpt\b",
    ],
    "ru": [
        r"\b(?:ты|вы) (?:бот|робот|ии|нейросеть|человек|живой|машина)\b",
        r"\bкто (?:ты|вы)(?: такой| такая| такие)?\b",
        r"\b(?:почему|зачем) (?:ты|вы) (?:продолжаешь|продолжаете|спрашиваешь|спрашиваете)\b",
        r"\b(?:почему|зачем) (?:ты|вы) (?:вс[её] )?время спрашива\w*",
        r"\bкак (?:ты|вы) (?:работаешь|работаете|устроен|устроены)\b",
        r"\b(?:твой|ваш) промпт\b",
        r"\b(?:твои|ваши) инструкции\b",
    ],
}

RESCHEDULE = {
    "en": [
        r"\breschedul\w*",
        r"\bpostpone\w*",
        r"\bmove (?:it|the session|our session|the meeting|next session|the next one)\b",
        r"\bmove (?:\w+ ){0,2}to (?:" + WEEKDAYS_EN + r"|next week|another day|later)\b",
        r"\bnext time\b",
        r"\b(?:another|a different|other) (?:day|time|date)\b",
        r"\b(?:can'?t|cannot|won'?t be able to) (?:make it|do|come)?\s*(?:on )?(?:"
        + WEEKDAYS_EN
        + r")\b",
        r"\b(?:can'?t|cannot) make it\b",
        r"\bchange the (?:time|day|date)\b",
    ],
    "ru": [
        r"\bперенес\w*",
        r"\bперенест\w*",
        r"\bперенос\w*",
        r"\bв следующий раз\b",
        r"\bне (?:смогу|получится|могу) во? (?:" + WEEKDAYS_RU + r")\b",
        r"\b(?:другой|иной) день\b",
        r"\b(?:другое|иное) время\b",
        r"\b(?:сдвинуть|передвинуть|подвинуть|сдвинем)\w*",
        r"\bпоменять (?:время|день|дату)\b",
    ],
}

# Mood words score +1 / -1; a negation just before a word flips it ("not good", "не лучше").
MOOD_POSITIVE = {
    "en": (
        "better",
        "calm",
        "calmer",
        "relieved",
        "relief",
        "hope",
        "hopeful",
        "glad",
        "happy",
        "good",
        "lighter",
        "clearer",
        "clear",
        "okay",
        "ok",
        "fine",
        "grateful",
        "rested",
        "easier",
        "understand",
        "manage",
        "managed",
        "safe",
        "joy",
        "proud",
    ),
    "ru": (
        "лучше",
        "спокойн",
        "легче",
        "легко",
        "надежд",
        "рад",
        "хорош",
        "понятн",
        "ясн",
        "благодар",
        "норм",
        "спокойств",
        "получил",
        "справ",
        "радост",
        "уверен",
    ),
}
MOOD_NEGATIVE = {
    "en": (
        "worse",
        "sad",
        "anxious",
        "anxiety",
        "afraid",
        "scared",
        "angry",
        "hopeless",
        "empty",
        "lonely",
        "tired",
        "stressed",
        "overwhelmed",
        "bad",
        "awful",
        "terrible",
        "guilty",
        "ashamed",
        "hate",
        "cry",
        "crying",
        "worried",
        "worry",
        "panic",
        "hurt",
        "pain",
        "fail",
    ),
    "ru": (
        "хуже",
        "грус",
        "тревог",
        "тревож",
        "страш",
        "боюсь",
        "злю",
        "злост",
        "безнадеж",
        "пуст",
        "одинок",
        "устал",
        "стресс",
        "плохо",
        "ужасн",
        "вин",
        "стыд",
        "ненави",
        "плач",
        "боль",
        "паник",
        "беспоко",
        "тяжел",
        "тяжк",
    ),
}
NEGATIONS = frozenset({"not", "no", "never", "n't", "isn't", "don't", "didn't", "не", "нет", "ни"})

_WORD = re.compile(r"[\w']+", re.UNICODE)


def normalize(text: str) -> str:
    text = text.lower().replace("ё", "е").replace("\u2019", "'").replace("`", "'")
    return re.sub(r"\s+", " ", text).strip()


def words(text: str) -> list[str]:
    return _WORD.findall(normalize(text))


def _compile(table: dict[str, list[str]]) -> dict[str, re.Pattern[str]]:
    return {
        lang: re.compile("|".join(f"(?:{p})" for p in patterns)) for lang, patterns in table.items()
    }


_FATIGUE = _compile(FATIGUE)
_META = _compile(META)
_RESCHEDULE = _compile(RESCHEDULE)


def _languages(locale: str) -> list[str]:
    # The client's language first, then English: people mix in English words in any locale.
    lang = (locale or "en").split("-")[0].split("_")[0].lower()
    return [lang, "en"] if lang != "en" else ["en"]


def _matches(
    table: dict[str, re.Pattern[str]], text: str, langs: Iterable[str], *, negatable: bool
) -> bool:
    clean = normalize(text)
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", clean):
        for lang in langs:
            pattern = table.get(lang)
            match = pattern.search(sentence.strip()) if pattern else None
            if match and not (negatable and _negated(sentence, match.start())):
                return True
    return False


def _negated(sentence: str, start: int) -> bool:
    before = _WORD.findall(sentence[:start])
    return bool(before) and before[-1] in NEGATIONS


def detect_fatigue(text: str, locale: str = "en") -> bool:
    """The client wants to stop ("I'm tired", "enough", "устал", "хватит"), unless negated.
    Never distress: what the safety net marks ("tired of living") is not tiredness."""
    if detect_crisis(text, locale):
        return False
    return _matches(_FATIGUE, text, _languages(locale), negatable=True)


def detect_meta(text: str, locale: str = "en") -> bool:
    """A question about the system itself ("who are you?", "ты бот?")."""
    return _matches(_META, text, _languages(locale), negatable=False)


def detect_reschedule(text: str, locale: str = "en") -> bool:
    """A wish to move the next session ("reschedule", "can't on Thursday", "перенести")."""
    return _matches(_RESCHEDULE, text, _languages(locale), negatable=True)


def mood_score(text: str, locale: str = "en") -> int:
    """Positive minus negative mood words; a negation right before a word flips it."""
    tokens = words(text)
    score = 0
    for index, token in enumerate(tokens):
        polarity = _polarity(token, _languages(locale))
        if polarity and index and tokens[index - 1] in NEGATIONS:
            polarity = -polarity
        score += polarity
    return score


def _polarity(token: str, langs: list[str]) -> int:
    for lang in langs:
        if _has_stem(token, MOOD_NEGATIVE.get(lang, ()), lang):
            return -1
        if _has_stem(token, MOOD_POSITIVE.get(lang, ()), lang):
            return 1
    return 0


def _has_stem(token: str, stems: Iterable[str], lang: str) -> bool:
    # English words match whole (so "hopeful" is not "hope" + noise); Russian ones by stem,
    # because of its endings.
    if lang == "en":
        return token in stems
    return any(token.startswith(stem) for stem in stems)
