"""QUALITY C3: does the offline engine listen? Scripted client personas play their sessions
through the REST API (DRF's APIClient, the offline engine of the test settings), one client per
persona, its three sessions one after the other so hooks and history apply; the bench prints
per language and overall, each figure beside its target, with a few offending texts per figure.

The personas are in `bench/personas/{en,ru,zh}.json`: a locale, a style, and per session a topic
and the answers in order. A persona answers whatever card is current with its next answer (no
cleverness about which card was asked); the completion card is accepted (End), a session whose
answers run out is ended, and "one last thing" is finished without a note.

What is measured (the client's texts of a session are its topic and the answers it gave):
- Dialogue cards: the cards of kind question, open or fallback (not the topic, completion,
  last-thing, scheduler or crisis cards). A batch is the run of cards dealt after one Analyst
  call (counted in the event log: `analyst.responded` / `analyst.failed`); batch 1 answers the
  topic.
- (1) Takes up the client: a dialogue card of batch 2 or later takes up the client when it shares
  a content word with the client's earlier texts of that session, or names a theme detected in
  them. Content words are lemmas with stop words and generic dialogue words (feel, think, thing,
  week… — words every card uses) removed: English through the Snowball English stemmer
  (`snowballstemmer`), Russian through `pymorphy3`'s normal forms, Chinese through `jieba`'s
  segmentation (words of two or more characters). A theme is one of THEMES below (work, study,
  family, partner, friends, loneliness, home and moving, health, sleep, money, loss), lemmatised
  the same way (Chinese terms match as substrings); a card "names" a detected theme when one of
  its words belongs to a theme the client's earlier texts belong to. Target ≥ 70 %.
- (2) Repeated within a session: a dialogue card whose normalised text (NFKC, case-folded,
  punctuation and spacing dropped) was already dealt earlier in the session. Target 0.
- (3) Repeated across sessions: a dialogue card whose normalised text was dealt in one of the
  client's previous sessions (at most three: every persona plays three). Target 0.
- (4) Improvement claimed without an improving mood: an insight, a closing line, the summary or
  a key insight that says better / lighter / relieved / легче / лучше / 好一些 / 轻松 … (CLAIMS
  below, in any of the three languages; negated claims and the client's own quoted words
  aside) in a session whose mood did not improve. The mood is the bench's own: VADER's
  compound score (`vaderSentiment`, negation and intensifiers built in) for English; for
  Russian and Chinese a small lexicon assembled here (MOOD), ±1 a word, flipped and damped
  (×−0.74, as VADER does) after a negation within two words (three characters in Chinese),
  summed and squashed as VADER does (s / √(s² + 15)). The start is the score of the topic and
  the first answer together, the end that of the last two answers; the mood improved when the
  end is positive (≥ 0.05) and at least 0.2 above the start — less negative is not better.
  Target 0.
- (5) Languages mixed: a text shown to the client (any card, notice, the title, the summary, a
  key insight) holding a word in another script than the session's language — Latin or
  Cyrillic in a Chinese session, Latin (two letters or more) or CJK in a Russian one, Cyrillic
  or CJK in an English one — once quoted passages («…», “…”, "…", „…“, 「…」, 『…』), web
  addresses and words the client wrote itself are set aside. Target 0.

Printed beside them, with no target: batch-1 cards taking up the topic, sessions whose mood
improved, an insight shown (or stored as a key insight) twice in a session, sessions that met
the crisis flow, sessions cut short by an engine error.

The measures are lexical: no word sense is told apart ("how well does it work" names the work
theme), so (1) errs on the generous side. A session that meets the crisis flow (the safety net
fired) is played no further and counted apart.

QUALITY C3 is measured by blind raters, not by these lexical figures: `--personas
bench/personas_blind` plays the held-out personas (written blind, ten per language, one session
of ten answers each: verbose, terse, "don't know" and mixed clients), `--dump FILE` writes every
later card with what a rater may see (the client's texts before it, the card; not which engine
made it), and `--ratings FILE` prints the share of this run's cards the raters scored 2 and 0
from a stored round (`bench/ratings/`; a card the raters never saw is counted as unrated, not
guessed). The rounds and what they scored: docs/dialogue-ledger.md.

A benchmark, not a test: a throw-away database, deterministic figures, no assertion.

    .venv/bin/python bench/dialogue_quality.py [--lang en|ru|zh] [--verbose]
        [--personas DIR] [--dump FILE] [--ratings FILE]
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from _django import ROOT, bench_database, table

PERSONAS = ROOT / "bench" / "personas"
LANGS = ("en", "ru", "zh")
DIALOGUE_KINDS = {"question", "open", "fallback"}
STOP_KINDS = {"completion", "last_thing", "crisis_resources", "scheduler"}
CLAIM_SOURCES = {"insight", "closing", "reply", "summary", "key insight"}
ANALYST_EVENTS = ("analyst.responded", "analyst.failed")
EXAMPLES = 3
WIDTH = 80

# --- the lexicons: stop words, themes, claims, mood ----------------------------------------------

STOP = {
    "en": """a about above after again against all am an and any are as at be because been before
    being below between both but by can can't cannot could did didn't do does doesn't doing don't
    down during each few for from further had has have having he her here hers herself him himself
    his how i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most my myself
    no nor not of off on once only or other our ours ourselves out over own same she should so
    some such than that that's the their theirs them themselves then there these they this those
    through to too under until up very was wasn't we were what when where which while who whom why
    will with won't would you you'd you'll you're you've your yours yourself yourselves
    feel feeling felt think thought know thing things something anything everything nothing way
    really just like want make get go going say said tell time today right now moment bit lot
    little much kind sort maybe people person happen happened come mind seem look mean week day
    also still even actually yes okay ok one let first last back around well usually often always
    never sometimes ever every next another else able many enough quite rather almost already away
    though yet since upon within without across along toward towards among whether instead
    perhaps probably sure thanks thank please help take give put keep use need try stop start
    situation head""",
    "ru": """я ты он она оно мы вы они меня тебя себя мой твой свой наш ваш его её их это этот тот
    такой весь всё что как где когда почему зачем кто который какой чей и а но или да нет не ни же
    ли бы вот ну уж ещё уже тоже также только даже очень просто так там тут здесь сейчас потом
    теперь тогда быть есть мочь хотеть хотеться сказать говорить знать думать казаться чувствовать
    чувство стать делать сделать в на с со к по о об от до из у за для без под над при про через
    раз день неделя время сегодня вещь человек люди немного чуть может можно надо нужно сам самый
    другой если чтобы потому ведь что-то кто-то как-то тема разговор поговорить мысль первый
    последний обычно часто всегда никогда иногда снова опять каждый следующий помочь попробовать
    пытаться начать остановиться ситуация случай способ спасибо прямо перед рядом тем голова год""",
    "zh": """什么 怎么 为什么 这个 那个 这些 那些 一个 一些 有点 有些 可能 也许 觉得 感觉 感受 知道
    现在 今天 时候 自己 我们 你们 他们 她们 没有 不是 就是 还是 但是 可是 因为 所以 如果 然后 已经
    一直 总是 真的 其实 还有 一下 事情 东西 想法 情绪 最近 这样 那样 怎样 哪些 哪个 是否 这里 那里
    起来 出来 一点 非常 特别 比较 应该 可以 能够 需要 想要 问题 这次 上次 这周 本周 聊聊 谈谈 说说
    时候 之后 以后 之前 的话 不会 会不会 是不是 有没有 一样 通常 经常 有时候 第一 最后 帮助 尝试
    开始 停止 情况 谢谢 下次 第一个""",
}

THEMES = {
    "en": {
        "work": "work job boss manager colleague coworker office career project deadline "
        "workload meeting promotion team shift",
        "study": "study exam thesis dissertation university uni college school supervisor "
        "professor lecture assignment essay chapter degree grade homework student",
        "family": "family mother mum mom father dad parent sister brother sibling son daughter "
        "child kid grandmother grandma grandfather grandpa cousin aunt uncle relative",
        "partner": "partner boyfriend girlfriend husband wife spouse relationship breakup ex "
        "dating marriage divorce",
        "friends": "friend friendship mate buddy flatmate roommate",
        "loneliness": "lonely loneliness alone isolated isolation",
        "home": "move moved moving relocate flat apartment house home city neighbourhood",
        "health": "health ill illness sick doctor hospital pain body chest headache symptom "
        "medication",
        "sleep": "sleep asleep insomnia awake wake bed night nightmare nap bedtime",
        "money": "money debt loan credit rent bill salary pay budget bank mortgage expensive "
        "afford bonus savings",
        "loss": "loss lose lost grief grieve death die died funeral mourn",
    },
    "ru": {
        "work": "работа работать начальник руководитель коллега офис проект дедлайн карьера "
        "совещание выгорание выгореть должность",
        "study": "учёба учиться экзамен диплом диссертация университет институт школа "
        "преподаватель научный глава курсовая оценка студент",
        "family": "семья мама мать папа отец родитель сестра брат сын дочь ребёнок бабушка "
        "дедушка дед тётя дядя родственник",
        "partner": "партнёр парень девушка муж жена отношения расстаться расставание развод "
        "бывший свидание",
        "friends": "друг подруга дружба приятель знакомый сосед",
        "loneliness": "одиночество одинокий одиноко изоляция",
        "home": "переезд переехать квартира дом город",
        "health": "здоровье болезнь болеть врач больница боль тело грудь симптом лекарство",
        "sleep": "сон спать бессонница уснуть заснуть просыпаться проснуться ночь кровать "
        "высыпаться",
        "money": "деньги долг кредит ипотека зарплата премия бюджет банк платёж аренда дорогой "
        "платить копить расход",
        "loss": "утрата потеря потерять горе смерть умереть похороны кладбище траур",
    },
    "zh": {
        "work": "工作 上班 领导 老板 同事 公司 项目 加班 职场 截止 开会 会议 客户",
        "study": "学习 考试 论文 导师 学校 大学 毕业 答辩 作业 读研 复习 课",
        "family": "家人 家里 妈妈 我妈 母亲 爸爸 我爸 父亲 父母 爸妈 姐姐 妹妹 哥哥 弟弟 孩子 儿子 "
        "女儿 外公 外婆 爷爷 奶奶 亲戚 表姐",
        "partner": "男朋友 女朋友 对象 老公 老婆 丈夫 妻子 伴侣 分手 恋爱 感情 结婚 离婚 前任",
        "friends": "朋友 友谊 同学 室友 球友 闺蜜 圈子",
        "loneliness": "孤独 寂寞 一个人 孤单 独自",
        "home": "搬家 搬到 房子 租房 出租屋 城市 老家 回家",
        "health": "健康 生病 身体 医生 医院 药",
        "sleep": "睡 失眠 睡眠 醒 熬夜 做梦 床 凌晨",
        "money": "钱 房贷 月供 贷款 债 信用卡 工资 奖金 预算 房租 押金 存款 开销",
        "loss": "去世 离世 死亡 葬礼 想念 怀念 失去 坟",
    },
}

CLAIMS = {
    "en": re.compile(
        r"\b(?:(?:feel|feels|feeling|felt|got|gets|getting|became|become|grew|grown|is|are|was|"
        r"seems?|looks?|sounds?)\s+(?:a\s+(?:little|bit)\s+|somewhat\s+|much\s+|a\s+lot\s+)?"
        r"(?:better|lighter|easier|calmer)|lighter|relieved|relief|improv(?:ed|ing|ement)|"
        r"brighter|more\s+hopeful|more\s+(?:room|space)|(?:room|space)\s+opened\s+up|eased|less\s+(?:heavy|tense|anxious)|mood\s+(?:rose|lifted|improved|went\s+up|grew\s+(?:lighter|better|brighter)))\b",
        re.IGNORECASE,
    ),
    "ru": re.compile(
        r"(?<!\w)(?:легче|полегче|полегчал\w*|лучше|спокойнее|светлее|свободнее|улучш\w*|облегчени\w*|отпустил\w*)(?!\w)",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"好一些|好一点|好多了|好些了|轻松|好转|改善|舒服一些|舒服多了|平静一些|平静多了|释然|缓解|"
        r"变好|更好|开朗|松了一口气|舒展|不那么(?:难受|沉重|紧张|焦虑)"
    ),
}
NEGATION_BEFORE = {
    "en": re.compile(r"\b(?:not|no|never|n't|hardly)\W+(?:\w+\W+)?$", re.IGNORECASE),
    "ru": re.compile(r"(?<!\w)(?:не|ни|нет|без)\W+(?:\w+\W+)?$", re.IGNORECASE),
    "zh": re.compile(r"(?:不|没|没有|未).?$"),
}

MOOD = {
    "ru": {
        1: """хорошо хороший лучше легко легче спокойно спокойный спокойнее радость рад радостно
        радоваться счастливый счастье нравиться любить надежда надеяться получиться справиться
        облегчение уверенный благодарный спасибо приятно интересно отлично здорово классно тепло
        тёплый поддержка гордиться ждать смеяться весело помочь полегчать""",
        -1: """плохо плохой грусть грустно тоскливо тоска одиноко одиночество одинокий тревога
        тревожно страх страшно бояться устать усталость злость злиться обида обидно обидеться
        стыд стыдно вина виноватый винить ненавидеть ужасно ужасный тяжело тяжёлый больно боль
        плакать слеза паника стресс напряжение выгорание выгореть безнадёжно безнадёжный пусто
        пустота раздражать раздражительный кошмар провал ленивый бесить сложно трудно волноваться
        переживать беспокоиться депрессия потерять скучать жалеть неловко сжиматься зря тупой
        поругаться ругаться""",
    },
    "zh": {
        1: """开心 高兴 快乐 轻松 放松 平静 安心 满意 喜欢 感谢 谢谢 温暖 暖暖 幸福 舒服 不错 有用
        踏实 期待 好多了 好一些 好一点 很好 挺好 有希望 愉快 有底气 勇敢 有帮助 笑""",
        -1: """难过 伤心 孤独 寂寞 焦虑 紧张 害怕 担心 累 疲惫 压力 烦 烦躁 生气 愤怒 失望 痛苦 难受
        崩溃 绝望 糟糕 委屈 内疚 后悔 失眠 哭 不好 讨厌 恨 无聊 空虚 失落 郁闷 心慌 自责 丢人 尴尬
        吓 沉 难熬 没用 心累""",
    },
}
MOOD_NEGATORS = {"ru": {"не", "ни", "нет", "без"}, "zh": ("不", "没", "没有", "未")}

URLS = re.compile(r"\S+\.[a-z]{2,}(?:/\S*)?", re.IGNORECASE)
QUOTED = re.compile(r"«[^»]*»|“[^”]*”|„[^“”]*[“”]|\"[^\"]*\"|「[^」]*」|『[^』]*』")
FOREIGN = {
    "en": re.compile(r"[\u0400-\u04ff]+|[\u3400-\u9fff\uf900-\ufaff]+"),
    "ru": re.compile(r"[A-Za-z]{2,}|[\u3400-\u9fff\uf900-\ufaff]+"),
    "zh": re.compile(r"[A-Za-z]+|[\u0400-\u04ff]+"),
}


# --- words: lemmas, themes, mood ------------------------------------------------------------------


@cache
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@cache
def _stemmer() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@cache
def _jieba() -> Any:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


def tokens(text: str, lang: str) -> list[str]:
    """The text's words as lemmas (English stems, Russian normal forms, Chinese words)."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    if lang == "en":
        words = re.findall(r"[a-z]+(?:'[a-z]+)?", text)
        return [_stemmer().stemWord(w.removesuffix("'s")) for w in words if w not in STOP["en"]]
    if lang == "ru":
        words = re.findall(r"[а-яё]+(?:-[а-яё]+)?", text)
        return [_morph().parse(w)[0].normal_form.replace("ё", "е") for w in words]
    return [w for w in _jieba().lcut(text) if re.search(r"[\u3400-\u9fff]", w)]


@cache
def stop_lemmas(lang: str) -> frozenset[str]:
    return frozenset(lemma for word in STOP[lang].split() for lemma in tokens(word, lang))


def content_words(text: str, lang: str) -> set[str]:
    stop = stop_lemmas(lang) | set(STOP[lang].split())
    shortest = 2 if lang == "zh" else 3
    return {w for w in tokens(text, lang) if len(w) >= shortest and w not in stop}


@cache
def theme_lemmas(lang: str) -> dict[str, frozenset[str]]:
    return {
        theme: frozenset(lemma for word in words.split() for lemma in tokens(word, lang))
        for theme, words in THEMES[lang].items()
    }


def themes(text: str, lang: str) -> set[str]:
    if lang == "zh":
        terms = THEMES["zh"].items()
        return {theme for theme, words in terms if any(w in text for w in words.split())}
    found = set(tokens(text, lang))
    return {theme for theme, lemmas in theme_lemmas(lang).items() if found & lemmas}


@cache
def _vader() -> Any:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


@cache
def mood_words(lang: str) -> dict[str, int]:
    words: dict[str, int] = {}
    for polarity, listed in MOOD[lang].items():
        for word in listed.split():
            for lemma in [word] if lang == "zh" else tokens(word, lang):
                words[lemma] = polarity
    return words


def mood(text: str, lang: str) -> float:
    """-1 … 1: VADER's compound score in English, the bench's lexicon in Russian and Chinese."""
    if lang == "en":
        return _vader().polarity_scores(text)["compound"]
    scores = _zh_polarities(text) if lang == "zh" else _ru_polarities(text)
    total = sum(scores)
    return total / math.sqrt(total * total + 15) if total else 0.0


def _ru_polarities(text: str) -> list[float]:
    lemmas, lexicon = tokens(text, "ru"), mood_words("ru")
    scores = []
    for n, lemma in enumerate(lemmas):
        if lemma in lexicon:
            negated = MOOD_NEGATORS["ru"] & set(lemmas[max(0, n - 2) : n])
            scores.append(lexicon[lemma] * (-0.74 if negated else 1.0))
    return scores


def _zh_polarities(text: str) -> list[float]:
    """Longest lexicon term first at each position; a negator in the three characters before
    flips it ("不开心", "没那么难过")."""
    lexicon = mood_words("zh")
    terms = sorted(lexicon, key=len, reverse=True)
    scores, at = [], 0
    while at < len(text):
        term = next((t for t in terms if text.startswith(t, at)), None)
        if term is None:
            at += 1
            continue
        before = text[max(0, at - 3) : at].replace("不过", "")  # "but", not a negation
        negated = any(negator in before for negator in MOOD_NEGATORS["zh"])
        scores.append(lexicon[term] * (-0.74 if negated else 1.0))
        at += len(term)
    return scores


def improved(start: float, end: float) -> bool:
    return end >= 0.05 and end - start >= 0.2


# --- texts: normalised, quotes and the client's words set aside -----------------------------------


def normalised(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(c if not unicodedata.category(c).startswith(("P", "S")) else " " for c in text)
    return " ".join(kept.split())


def without_client(text: str, client_texts: Iterable[str]) -> str:
    """The text with quoted passages and the client's own texts taken out."""
    text = QUOTED.sub(" ", URLS.sub(" ", text))
    for said in sorted(client_texts, key=len, reverse=True):
        if len(said) >= 4:
            text = text.replace(said, " ")
    return text


def claims(text: str, client_texts: Iterable[str]) -> list[str]:
    """The claims of improvement in a text, in any of the three languages: a Chinese client
    shown an English "lighter" was told it too."""
    text = without_client(text, client_texts)
    return [
        match.group(0)
        for lang in LANGS
        for match in CLAIMS[lang].finditer(text)
        if not NEGATION_BEFORE[lang].search(text[: match.start()][-24:])
    ]


def foreign_words(text: str, lang: str, client_texts: Iterable[str]) -> list[str]:
    client_texts = list(client_texts)
    said = " ".join(client_texts).casefold()
    found = FOREIGN[lang].findall(without_client(text, client_texts))
    return [word for word in found if word.casefold() not in said]


def clip(text: str, width: int = WIDTH) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


# --- playing ------------------------------------------------------------------------------------


@dataclass
class Card:
    text: str
    kind: str
    batch: int
    earlier: tuple[str, ...]  # the client's texts of the session before this card


@dataclass
class Played:
    persona: str
    lang: str
    number: int
    said: list[str] = field(default_factory=list)  # the topic, then the answers given
    cards: list[Card] = field(default_factory=list)
    shown: list[tuple[str, str]] = field(default_factory=list)  # (what, text) the client saw
    transcript: list[str | Card] = field(default_factory=list)  # a Card is marked when shown
    crisis: bool = False
    problem: str = ""


def _url(name: str, session_id: str) -> str:
    from django.urls import reverse

    return reverse(f"sessions:session-{name}", kwargs={"session_id": session_id})


def _analyst_calls(session_id: str) -> int:
    from sessions_app.models import SessionEvent

    return SessionEvent.objects.filter(session_id=session_id, type__in=ANALYST_EVENTS).count()


class Player:
    """One persona's session, played through REST."""

    def __init__(self, client: Any, played: Played) -> None:
        self.client, self.played = client, played
        self.batch, self.cards_seen, self.notices_seen = 0, set(), set()

    def post(self, url: str, body: dict[str, Any], expect: int = 200) -> dict[str, Any] | None:
        """The response's document, or None with the problem noted: an engine that fails on a
        persona cuts that session short instead of stopping the bench (and `make bench`)."""
        try:
            response = self.client.post(url, body, format="json")
        except Exception as error:  # the test client re-raises what the view raised
            self.played.problem = f"{url.rsplit('/', 1)[-1]}: {type(error).__name__}: {error}"
            return None
        if response.status_code != expect:
            code = response.json().get("code") if response.content else ""
            self.played.problem = f"{url.rsplit('/', 1)[-1]}: {response.status_code} {code}"
            return None
        return response.json()

    def record(self, state: dict[str, Any]) -> None:
        played, card, notice = self.played, state.get("current_card"), state.get("notice")
        if notice:
            played.crisis |= notice["kind"] == "crisis_resources"
            # Items already inside the text (the crisis lines) are not shown twice.
            items = [item for item in notice["items"] if item not in notice["text"]]
            for line in [notice["text"], *items]:
                if (notice["kind"], line) not in self.notices_seen:
                    self.notices_seen.add((notice["kind"], line))
                    played.shown.append((notice["kind"], line))
                    played.transcript.append(f"  ({notice['kind']}) {line}")
        if card and card["id"] not in self.cards_seen:
            self.cards_seen.add(card["id"])
            played.shown.append((f"{card['kind']} card", card["text"]))
            if card["kind"] in DIALOGUE_KINDS:
                dealt = Card(card["text"], card["kind"], self.batch, tuple(played.said))
                played.cards.append(dealt)
                played.transcript.append(dealt)
            else:
                played.transcript.append(f"  [{card['kind']} · batch {self.batch}] {card['text']}")

    def answer(self, session_id: str, card: dict[str, Any], text: str) -> dict[str, Any] | None:
        before = _analyst_calls(session_id)
        body = {"card_id": card["id"], "text": text}
        state = self.post(_url("answers", session_id), body)
        if state is None:
            return None
        self.played.said.append(text)
        self.played.transcript.append(f"  client: {text}")
        self.batch += _analyst_calls(session_id) > before
        self.notices_seen.clear()  # what the agents say after the client spoke is new
        return state

    def play(self, script: dict[str, Any]) -> None:
        from django.urls import reverse

        created = self.post(reverse("sessions:session-list"), {}, expect=201)
        if created is None:
            return
        session_id = created["_id"]
        state: dict[str, Any] | None = self.client.get(_url("state", session_id)).json()
        self.record(state)
        for text in [script["topic"], *script["answers"]]:
            card = state["current_card"]
            if card is None or card["kind"] in STOP_KINDS:
                break
            state = self.answer(session_id, card, text)
            if state is None:
                return
            self.record(state)
        self.close(session_id, state)

    def close(self, session_id: str, state: dict[str, Any]) -> None:
        card = state["current_card"]
        if state["status"] == "active" and (card is None or card["kind"] != "last_thing"):
            state = self.post(_url("end", session_id), {})
            if state is None:
                return
            self.record(state)
        if state["status"] == "active":
            state = self.post(_url("last-thing", session_id), {"finish": True})
            if state is None:
                return
            self.record(state)
        detail = self.client.get(_url("detail", session_id)).json()
        self.keep_record(detail)

    def keep_record(self, detail: dict[str, Any]) -> None:
        """What the client reads about the finished session: its title, summary, key insights."""
        played = self.played
        if detail.get("session_title"):
            played.shown.append(("title", detail["session_title"]))
        if detail.get("session_summary"):
            played.shown.append(("summary", detail["session_summary"]))
            played.transcript.append(f"  (summary) {detail['session_summary']}")
        for insight in detail.get("key_insights") or []:
            played.shown.append(("key insight", insight))
            played.transcript.append(f"  (key insight) {insight}")


def play_persona(persona: dict[str, Any], lang: str) -> list[Played]:
    from rest_framework.test import APIClient

    from tests import factories

    user = factories.ClientFactory(username=f"dq-{lang}-{persona['id']}")
    factories.UserProfileFactory(user=user, locale=persona["locale"])
    client = APIClient()
    client.force_authenticate(user)
    sessions = []
    for number, script in enumerate(persona["sessions"], start=1):
        played = Played(persona=persona["id"], lang=lang, number=number)
        Player(client, played).play(script)
        sessions.append(played)
    return sessions


# --- measuring ----------------------------------------------------------------------------------


@dataclass
class Figures:
    sessions: int = 0
    cards: int = 0
    texts: int = 0
    later: int = 0
    taken_up: int = 0
    first: int = 0
    first_taken_up: int = 0
    within: int = 0
    across: int = 0
    across_of: int = 0
    claims: int = 0
    claim_texts: int = 0
    improving: int = 0
    mixed: int = 0
    crisis: int = 0
    problems: int = 0
    insight_repeats: int = 0
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    exemplified: set[tuple[str, str]] = field(default_factory=set)

    def example(self, metric: str, where: Played, *lines: str) -> None:
        """At most EXAMPLES per figure, one per persona, so that they show different cases."""
        if (
            len(self.examples[metric]) < EXAMPLES
            and (metric, where.persona) not in self.exemplified
        ):
            self.exemplified.add((metric, where.persona))
            head = f"{where.lang} {where.persona} s{where.number}: {clip(lines[0], WIDTH)}"
            self.examples[metric].append("\n      ".join([head, *(clip(x) for x in lines[1:])]))


def takes_up(card: Card, lang: str) -> bool:
    earlier = " ".join(card.earlier)
    if content_words(card.text, lang) & content_words(earlier, lang):
        return True
    return bool(themes(card.text, lang) & themes(earlier, lang))


def measure_cards(played: Played, figures: Figures) -> None:
    for card in played.cards:
        listened = takes_up(card, played.lang)
        if card.batch == 1:
            figures.first += 1
            figures.first_taken_up += listened
        elif card.batch >= 2:
            figures.later += 1
            figures.taken_up += listened
            if not listened:
                last = card.earlier[-1] if card.earlier else ""
                figures.example("takes up", played, card.text, f"after: {last}")


def measure_repeats(sessions: list[Played], figures: Figures) -> None:
    asked_before: set[str] = set()
    for played in sessions:
        asked: Counter[str] = Counter()
        for card in played.cards:
            text = normalised(card.text)
            asked[text] += 1
            if asked[text] == 2:
                figures.example("within", played, card.text)
            if played.number > 1:
                figures.across_of += 1
                if text in asked_before:
                    figures.across += 1
                    figures.example("across", played, card.text)
        figures.within += sum(n - 1 for n in asked.values())
        asked_before |= set(asked)


def measure_insights(played: Played, figures: Figures) -> None:
    """The same insight shown, or stored as a key insight, more than once in a session."""
    for what in ("insight", "key insight"):
        seen = Counter(normalised(text) for kind, text in played.shown if kind == what)
        figures.insight_repeats += sum(n - 1 for n in seen.values())


def session_mood(played: Played) -> tuple[float, float]:
    answers = played.said[1:]
    start = mood(" ".join(played.said[:2]), played.lang)
    end = mood(" ".join(answers[-2:]), played.lang) if answers else start
    return start, end


def measure_claims(played: Played, said: list[str], figures: Figures) -> None:
    start, end = session_mood(played)
    better = improved(start, end)
    figures.improving += better
    for what, text in played.shown:
        if what not in CLAIM_SOURCES:
            continue
        figures.claim_texts += 1
        found = claims(text, said)
        if found and not better:
            figures.claims += 1
            mood_line = f"mood {start:+.2f} → {end:+.2f}; claims «{'», «'.join(found)}»"
            figures.example("claims", played, f"({what}) {text}", mood_line)


def measure_languages(played: Played, said: list[str], figures: Figures) -> None:
    for what, text in played.shown:
        figures.texts += 1
        found = foreign_words(text, played.lang, said)
        if found:
            figures.mixed += 1
            figures.example("mixed", played, f"({what}) {text}", f"foreign: {' '.join(found)}")


def measure(sessions: list[Played], figures: Figures) -> None:
    """One persona's sessions, in the order played."""
    said = [text for played in sessions for text in played.said]
    measure_repeats(sessions, figures)
    for played in sessions:
        figures.sessions += 1
        figures.cards += len(played.cards)
        figures.crisis += played.crisis
        figures.problems += bool(played.problem)
        if played.problem:
            figures.example("problem", played, played.problem)
        measure_cards(played, figures)
        measure_insights(played, figures)
        measure_claims(played, said, figures)
        measure_languages(played, said, figures)


# --- the report ---------------------------------------------------------------------------------


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} % ({part}/{whole})" if whole else "–"


def count(part: int, whole: int) -> str:
    return f"{part} (of {whole})"


ROWS = [
    ("sessions played", "", lambda f: str(f.sessions)),
    ("dialogue cards shown", "", lambda f: str(f.cards)),
    (
        "(1) cards after batch 1 taking up the client",
        "≥ 70 %",
        lambda f: share(f.taken_up, f.later),
    ),
    ("(2) questions repeated within a session", "0", lambda f: count(f.within, f.cards)),
    ("(3) questions repeated across sessions", "0", lambda f: count(f.across, f.across_of)),
    ("(4) improvement claimed, mood not improving", "0", lambda f: count(f.claims, f.claim_texts)),
    ("(5) texts in a mixed language", "0", lambda f: count(f.mixed, f.texts)),
    ("· batch-1 cards taking up the topic", "", lambda f: share(f.first_taken_up, f.first)),
    ("· sessions whose mood improved", "", lambda f: share(f.improving, f.sessions)),
    ("· insights repeated within a session", "", lambda f: str(f.insight_repeats)),
    ("· sessions that met the crisis flow", "", lambda f: str(f.crisis)),
    ("· sessions cut short by an error", "", lambda f: str(f.problems)),
]
EXAMPLE_TITLES = {
    "takes up": "(1) cards that take up neither the client's words nor a detected theme",
    "within": "(2) questions repeated within a session",
    "across": "(3) questions asked in an earlier session of the same client",
    "claims": "(4) improvement claimed while the mood did not improve",
    "mixed": "(5) texts in another language or script",
    "problem": "sessions cut short by an error",
}


def report(by_lang: dict[str, Figures], overall: Figures) -> None:
    langs = list(by_lang)
    header = ("metric", "target", *langs, *(["all"] if len(langs) > 1 else []))
    columns = [by_lang[lang] for lang in langs] + ([overall] if len(langs) > 1 else [])
    rows = [(name, target, *(cell(f) for f in columns)) for name, target, cell in ROWS]
    print(table(rows, header))
    print(f"\nExamples (at most {EXAMPLES} per language and figure, one per persona):")
    for metric, title in EXAMPLE_TITLES.items():
        found = [line for lang in langs for line in by_lang[lang].examples[metric]]
        print(f"\n{title}: {'none' if not found else ''}")
        for line in found:
            print(f"  {line}")


def personas(langs: Iterable[str], folder: Path = PERSONAS) -> dict[str, list[dict[str, Any]]]:
    return {
        lang: json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))["personas"]
        for lang in langs
    }


def dumped(sessions: list[Played]) -> list[dict[str, Any]]:
    """Every dialogue card of later batches with what a rater may see: the client's texts before
    it (the topic and the answers) and the card — not which engine dealt it."""
    return [
        {
            "lang": played.lang,
            "persona": played.persona,
            "session": played.number,
            "card": index,
            "earlier": list(card.earlier),
            "text": card.text,
        }
        for played in sessions
        for index, card in enumerate(played.cards)
        if card.batch >= 2
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=LANGS, action="append", help="only these languages")
    parser.add_argument("--verbose", action="store_true", help="print every transcript")
    parser.add_argument(
        "--personas",
        type=Path,
        default=PERSONAS,
        help="the personas' folder (bench/personas_blind: the held-out set, rated blind)",
    )
    parser.add_argument("--dump", type=Path, help="write every later card for the raters (JSONL)")
    parser.add_argument(
        "--ratings", type=Path, help="the raters' scores of those cards (RATINGS.md: the format)"
    )
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    scripts = personas(args.lang or LANGS, args.personas)
    cards: list[dict[str, Any]] = []
    by_lang, overall = {lang: Figures() for lang in scripts}, Figures()
    with bench_database():
        from django.db import connection

        print(
            f"== bench/dialogue_quality.py — offline engine, {connection.vendor}, "
            f"{sum(len(p) for p in scripts.values())} personas"
        )
        for lang, people in scripts.items():
            for persona in people:
                sessions = play_persona(persona, lang)
                cards += dumped(sessions)
                measure(sessions, by_lang[lang])
                measure(sessions, overall)
                if args.verbose:
                    transcripts(persona, sessions)
    report(by_lang, overall)
    if args.dump:
        args.dump.write_text(
            "".join(json.dumps(card, ensure_ascii=False) + "\n" for card in cards), "utf-8"
        )
    if args.ratings:
        rated(cards, args.ratings)


def rated(cards: list[dict[str, Any]], path: Path) -> None:
    """QUALITY C3's rated figures: the share of this run's later cards the blind raters scored 2
    (takes up what the client said) and 0 (unrelated), per language. A card is matched to its
    rating by what the rater saw (the client's texts before it and the card); a card the raters
    never saw (the engine changed since they rated) is counted as unrated, not guessed."""
    scores = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            scores[rating_key(row["earlier"], row["text"])] = row["rating"]
    print(f"\nRated blind ({path.name}): share of later cards per rating")
    rows = []
    for lang in LANGS:
        mine = [c for c in cards if c["lang"] == lang]
        if not mine:
            continue
        got = [scores.get(rating_key(c["earlier"], c["text"])) for c in mine]
        known = [g for g in got if g is not None]
        rows.append(
            (
                lang,
                str(len(mine)),
                str(len(mine) - len(known)),
                share(sum(g == 2 for g in known), len(known)),
                share(sum(g == 0 for g in known), len(known)),
            )
        )
    print(table(rows, ("language", "cards", "unrated", "rated 2 (≥ 60 %)", "rated 0 (≤ 10 %)")))


def rating_key(earlier: list[str], text: str) -> str:
    return normalised(" | ".join([*earlier, text]))


def transcripts(persona: dict[str, Any], sessions: list[Played]) -> None:
    print(f"\n--- {sessions[0].lang} · {persona['id']} ({persona.get('style', '')})")
    for played in sessions:
        start, end = session_mood(played)
        print(f" session {played.number}: mood {start:+.2f} → {end:+.2f}")
        for line in played.transcript:
            print(line if isinstance(line, str) else card_line(line, played.lang))
        if played.problem:
            print(f"  !! {played.problem}")


def card_line(card: Card, lang: str) -> str:
    """A dialogue card in a transcript: ✓ when it takes up the client (measured from batch 2)."""
    mark = ("✓" if takes_up(card, lang) else "✗") if card.batch >= 2 else " "
    return f"  {mark} [{card.kind} · batch {card.batch}] {card.text}"


if __name__ == "__main__":
    main()
