"""Keyword lexicons (English, Russian, Chinese) and the pure detectors built on them: fatigue,
meta questions, rescheduling, mood. The crisis net is `sessions_app.engine.safety`.

They run on every client text, so they never depend on a model, a network or the database.
Patterns run on `normalize(text)`: lower case, `ё` → `е`, typographic apostrophes straightened,
whitespace collapsed, traditional Chinese folded to simplified (OpenCC). Chinese has no spaces
and no `\b`: its patterns match inside the text, a negation is the character just before, and
words are cut by jieba where their count or boundaries matter.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

import jieba
import opencc

from sessions_app.engine.safety import detect_crisis

jieba.setLogLevel(logging.WARNING)
_T2S = opencc.OpenCC("t2s")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LANGS = ("en", "ru", "zh")
WEEKDAYS_ZH = r"(?:周|星期|礼拜)[一二三四五六日天1-7]"

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
    "zh": [
        r"累了|好累|太累|很累|累死|疲惫|疲倦|筋疲力尽|没力气|没精力",
        r"不想(?:再)?(?:说|聊|谈|继续|问)(?:下去)?了?",
        r"(?:今天)?(?:就)?(?:先)?(?:到这里|到这儿|到此为止)",
        r"^够了|够了吧|问够了|先这样吧|可以结束|想结束|结束吧|不聊了|停一下吧|别问了",
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
    "zh": [
        r"你(?:到底|究竟)?是(?:谁|什么|不是)|你(?:到底|究竟)?是(?:机器人|人工智能|真人|人吗|ai|bot)",
        r"(?:为什么|干嘛|干吗|为啥)(?:你)?(?:一直|总是|老是|还)?(?:在)?问",
        r"你(?:是)?怎么(?:工作|运作|运行)的",
        r"谁(?:做|开发|设计|编写)了你|你(?:是)?谁(?:做|开发)的",
        r"你的(?:提示词|指令|设定|系统提示)",
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
    "zh": [
        r"下次|改时间|改个时间|改天|改期|改到|换个时间|换(?:一|个)?天|换个日子|延期|挪到|往后挪|往后推",
        r"推迟(?:到|一下|下次|会谈|见面)",
        WEEKDAYS_ZH + r"(?:我|我们)?(?:不行|不可以|没空|没时间|去不了|来不了|不方便|有事)",
        r"(?:不能|没法|来不了|去不了)(?:在)?" + WEEKDAYS_ZH,
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
    "zh": (
        "好多了",
        "好些",
        "好一点",
        "轻松",
        "平静",
        "放松",
        "希望",
        "开心",
        "高兴",
        "安心",
        "清楚",
        "明白",
        "感激",
        "踏实",
        "舒服",
        "有用",
        "安全",
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
    "zh": (
        "难过",
        "伤心",
        "焦虑",
        "担心",
        "害怕",
        "生气",
        "绝望",
        "空虚",
        "孤独",
        "累",
        "压力",
        "崩溃",
        "糟糕",
        "痛苦",
        "内疚",
        "羞愧",
        "讨厌",
        "哭",
        "恐慌",
        "烦",
        "沉重",
        "难受",
    ),
}
ZH_NEGATIONS = "不没别"
NEGATIONS = frozenset({"not", "no", "never", "n't", "isn't", "don't", "didn't", "не", "нет", "ни"})

_WORD = re.compile(r"[\w']+", re.UNICODE)

# What the lexicons, the mood, the language and gender readers and the offline listening read
# of one text (docs/decisions/0007-hostile-input-is-bounded.md): a hostile message (4,000
# emoji, one 4,000-letter word, a pile of
# combining marks) cost minutes of CPU in VADER. A run of one character is read as three, a
# pile of combining marks as two, and a long text as its beginning and its end — where a
# client's topic, its fatigue and its question stand. The safety net's rules read every word.
ANALYSED_CHARS = 1000
_RUN = re.compile(r"(.)\1{3,}", re.DOTALL)
_MARK = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
_MARKS = re.compile(rf"({_MARK}{{2}}){_MARK}+")


def analysed(text: str) -> str:
    """`text` as the analysers read it: at most ANALYSED_CHARS characters, linear to make."""
    text = _MARKS.sub(r"\1", _RUN.sub(r"\1\1\1", text))
    if len(text) <= ANALYSED_CHARS:
        return text
    half = ANALYSED_CHARS // 2
    return f"{text[: half - 1]}\n{text[-half:]}"


def fold(text: str) -> str:
    """Traditional Chinese folded to simplified; other text as it is."""
    return _T2S.convert(text) if CJK.search(text) else text


def normalize(text: str) -> str:
    text = fold(text).lower().replace("ё", "е").replace("\u2019", "'").replace("`", "'")
    return re.sub(r"\s+", " ", text).strip()


def words(text: str) -> list[str]:
    """Words in reading order; a run of Chinese characters is cut into its words by jieba."""
    out: list[str] = []
    for token in _WORD.findall(normalize(text)):
        out += _zh_words(token) if CJK.search(token) else [token]
    return out


@lru_cache(maxsize=4096)
def _zh_words(run: str) -> list[str]:
    return [w for w in jieba.lcut(run) if w.strip() and _WORD.fullmatch(w)]


def _compile(table: dict[str, list[str]]) -> dict[str, re.Pattern[str]]:
    return {
        lang: re.compile("|".join(f"(?:{p})" for p in patterns)) for lang, patterns in table.items()
    }


_FATIGUE = _compile(FATIGUE)
_META = _compile(META)
_RESCHEDULE = _compile(RESCHEDULE)


def _languages(locale: str) -> list[str]:
    # The client's language first, then the others: people mix in English words in any locale,
    # and a client may write in another language than its profile's.
    lang = (locale or "en").split("-")[0].split("_")[0].lower()
    return [lang, *(other for other in LANGS if other != lang)]


def _matches(
    table: dict[str, re.Pattern[str]], text: str, langs: Iterable[str], *, negatable: bool
) -> bool:
    clean = normalize(analysed(text))
    for sentence in re.split(r"(?<=[.!?;])\s+|\n|(?<=[。！？；])", clean):
        for lang in langs:
            pattern = table.get(lang)
            match = pattern.search(sentence.strip()) if pattern else None
            if match and not (negatable and _negated(sentence, match.start())):
                return True
    return False


def _negated(sentence: str, start: int) -> bool:
    if start and CJK.match(sentence, start) and sentence[start - 1] in ZH_NEGATIONS:
        return True
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


# Mood as a number in [-1, 1] (docs/decisions/0003-an-offline-engine-that-listens.md).
# English through VADER (negation, intensifiers and
# "but" built in); Russian and Chinese through the mood words above, with VADER's rules: a
# negation within the two words before (three characters in Chinese) flips and damps a word,
# an intensifier just before strengthens it, and the sum is squashed as VADER does.
NEGATION_DAMP = -0.74
INTENSITY_BOOST = 0.3
NEGATION_WINDOW = 2
ZH_NEGATION_WINDOW = 3
INTENSIFIERS = {
    "ru": frozenset({"очень", "так", "такой", "совсем", "сильно", "слишком", "ужасно", "крайне"}),
    "zh": ("很", "非常", "太", "特别", "真", "超级", "十分"),
}
# The mood improved when it ends positive and clearly above where it started (a plain "yes"
# is not enough): less negative is not better.
IMPROVED_END = 0.05
IMPROVED_BY = 0.25


@cache
def _vader() -> Any:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


@lru_cache(maxsize=1024)
def mood_value(text: str, locale: str = "en") -> float:
    """The mood of a text in [-1, 1]; 0 for a text that shows none (read once per text: a batch
    asks it of the same answers several times)."""
    text = analysed(text)
    if not text.strip():
        return 0.0
    if CJK.search(text):
        total = _zh_mood_value(normalize(text))
    elif re.search(r"[а-яё]", text, re.IGNORECASE):
        total = _ru_mood_value(words(text))
    else:
        total = _vader_total(text)
    return total / math.sqrt(total * total + VADER_ALPHA) if total else 0.0


# VADER's own checks are quadratic in the words of what it is given (each negation check
# lower-cases the whole text again) and it reads each emoji as its description, several words:
# it is given one sentence at a time, at most VADER_WORDS words each, and the first VADER_EMOJI
# emoji of the text. The sentences' compounds are summed back as VADER sums its valences, so a
# text of one short sentence reads exactly as before.
VADER_WORDS = 40
VADER_EMOJI = 12
VADER_ALPHA = 15
_VADER_SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+|\n|$)")


def _vader_total(text: str) -> float:
    analyzer = _vader()
    kept, emoji = [], 0
    for ch in text:
        if ch in analyzer.emojis:
            emoji += 1
            if emoji > VADER_EMOJI:
                continue
        kept.append(ch)
    total = 0.0
    for sentence in _VADER_SENTENCE.findall("".join(kept)):
        tokens = sentence.split()
        for start in range(0, len(tokens), VADER_WORDS):
            chunk = " ".join(tokens[start : start + VADER_WORDS])
            compound = analyzer.polarity_scores(chunk)["compound"]
            size = min(0.9999, abs(compound))  # the valence sum VADER squashed, recovered
            total += math.copysign(size * math.sqrt(VADER_ALPHA / (1 - size * size)), compound)
    return total


def _ru_mood_value(tokens: list[str]) -> float:
    total = 0.0
    for index, token in enumerate(tokens):
        polarity = _polarity(token, ["ru"])
        if not polarity:
            continue
        value = float(polarity)
        before = tokens[max(0, index - NEGATION_WINDOW) : index]
        if before and before[-1] in INTENSIFIERS["ru"]:
            value *= 1 + INTENSITY_BOOST
        if any(word in NEGATIONS for word in before):
            value *= NEGATION_DAMP
        total += value
    return total


def _zh_mood_value(clean: str) -> float:
    total = 0.0
    for polarity, stems in ((-1.0, MOOD_NEGATIVE["zh"]), (1.0, MOOD_POSITIVE["zh"])):
        for stem in stems:
            for match in re.finditer(re.escape(stem), clean):
                start = match.start()
                value = polarity
                before = clean[max(0, start - ZH_NEGATION_WINDOW) : start]
                if before[-1:] in INTENSIFIERS["zh"]:
                    value *= 1 + INTENSITY_BOOST
                if any(char in ZH_NEGATIONS for char in before):
                    value *= NEGATION_DAMP
                total += value
    return total


def mood_trend(start: float, end: float) -> str:
    """ "improving", "declining" or "stable", from the mood at the start and at the end."""
    if end >= IMPROVED_END and end - start >= IMPROVED_BY:
        return "improving"
    if end - start <= -IMPROVED_BY and end < IMPROVED_END:
        return "declining"
    return "stable"


def session_mood(answers: list[str], locale: str = "en") -> str:
    """The trend over a whole session's answers: its first two against its last two."""
    answers = [a for a in answers if a.strip()]
    if len(answers) < 2:
        return "stable"
    return mood_trend(mood_of(answers[:2], locale), mood_of(answers[-2:], locale))


def mood_of(texts: list[str], locale: str = "en") -> float:
    """The mean mood of a few texts, each read alone (VADER reads "no idk" as positive)."""
    values = [mood_value(text, locale) for text in texts if text.strip()]
    return round(sum(values) / len(values), 3) if values else 0.0
