"""Agent hygiene (SPEC §3): what an agent says passes this filter before a client sees it, and
what a client says reaches a model only as data.

The earlier app showed a client "Saving to personal/psychology/observations/…" (session design
§7.4, §11.4). Storage is the application's job: a sentence that talks about saving, storing,
files or folders, that holds a file path, or that explains the system's own machinery (agents,
prompts, instructions) is dropped — whole, so no broken fragment is left behind. A meta
question gets the focus back, never an architecture tour. A trailing `STATE_JSON:` line is
protocol, never shown.

Matching is per language and by whole words: Russian through every form of a word
(pymorphy3, generated once), so "записывают" or "Записываю Матвея к врачу" (a booking) stay
while "занесу в профиль" goes; Chinese has no spaces, so it is matched by phrases. Sentences are
split per language, Chinese 。！？ included.
"""

from __future__ import annotations

import re
from functools import cache

import pymorphy3

from sessions_app.engine.flows.validator import state_json_split

# --- sentences ----------------------------------------------------------------------------------

_CLOSERS = r"\"'”’»」』）)\]"
# A sentence ends at a Chinese stop (no space needed after it), at . ! ? … followed by a space or
# the end (so "today.md" or "3.5" never splits), or at a line break.
_SENTENCE = re.compile(
    rf"""[^\n]*?(?:[。！？；]+[{_CLOSERS}]*|[.!?…]+[{_CLOSERS}]*(?=\s|$)|(?=\n)|$)\s*""",
    re.VERBOSE,
)


def sentences(text: str) -> list[str]:
    """The text cut into sentences, each with the whitespace that followed it: joined back they
    are the text again."""
    return [piece for piece in _SENTENCE.findall(text) if piece]


# --- paths ------------------------------------------------------------------------------------

_URL = re.compile(r"(?<![a-z0-9+.-])(?!file:)[a-z][a-z0-9+.-]*://[^\s\"'«»<>]+", re.IGNORECASE)
_PATH = re.compile(
    r"""(?:
        (?<![\w])[A-Za-z]:[\\/]                              # C:\dir, D:/dir
      | \\\\[\w.$-]+                                         # \\server\share
      | (?<![\w.$%-])[\w.$%-]+\\[\w.$%-]+                    # dir\file, %APPDATA%\x
      | \bfile:/                                             # file:///etc/x
      | (?<![\w/])(?:~|\.{1,2})?/(?:[\w.@-]+/)*[\w.@-]*[A-Za-z_][\w.@-]*   # /abs, ~/x, ./x
      | (?<![\w.@-])[\w.@-]+/(?:[\w.@-]+/)+[\w.@-]*          # dir/sub/leaf (two slashes)
      | (?<![\w-])[\w-]+\.(?:md|txt|json|ya?ml|csv|log|db|sqlite3?|docx?|pdf|xlsx?|py|ini|cfg)\b
    )""",
    re.VERBOSE,
)


def _has_path(sentence: str) -> bool:
    return bool(_PATH.search(_URL.sub(" ", sentence)))


# --- storage talk: English --------------------------------------------------------------------

_EN_I = r"(?:i|we|let\ me|let\ us|let's)"
_EN_AUX = r"(?:'ll|'m|'ve|'d|\ will|\ shall|\ am|\ have|\ had|\ would|\ can)?"
_EN_ADV = (
    r"(?:\s+(?:now|also|just|then|quickly|already|gonna|going\ to|be|been|go\ ahead\ and"
    r"|make\ sure\ to|like\ to|want\ to|need\ to|have\ to|try\ to))*"
)
_EN_SAVE = (
    r"(?:(?:sav|stor|archiv|fil)(?:e|es|ed|ing)|record(?:s|ed|ing)?|log(?:s|ged|ging)?"
    r"|back(?:s|ed|ing)?\s+(?:(?:this|that|it|these|everything)\s+)?up)"
)
_EN_PUT = (
    r"(?:not(?:e|es|ed|ing)|jot(?:s|ted|ting)?|writ(?:e|es|ing|ten)|wrote|add(?:s|ed|ing)?"
    r"|put(?:s|ting)?|keep(?:s|ing)?|kept|enter(?:s|ed|ing)?|captur(?:e|es|ed|ing)"
    r"|updat(?:e|es|ed|ing)|mak(?:e|es|ing)\ a\ note|made\ a\ note|tak(?:e|es|ing)\ a\ note)"
)
_EN_PLACE = (
    r"(?:files?|folders?|profile|vault|notes|records?|database|journal|log|logs|archive|system"
    r"|memory|history|chart|notebook|diary|spreadsheet|documents?|storage|server|cloud)"
)
_EN_DET = r"(?:the\s+|your\s+|my\s+|our\s+|a\s+|this\s+)?"
_EN_INTO = rf"(?:to|in|into|on|onto|under)\s+{_EN_DET}(?:\w+\s+)?{_EN_PLACE}\b"
_EN_THIS = (
    r"(?:this|that|it|these|those|everything|all\ of\ (?:this|that|it)|what\ you\ (?:said|shared)"
    r"|our\ (?:talk|conversation|session)|the\ session|your\ answers?)"
)
_EN_ME = rf"{_EN_I}{_EN_AUX}{_EN_ADV}\s+"
_STORAGE_EN = re.compile(
    rf"""\b(?:
        {_EN_ME}{_EN_SAVE}\b                                   # I'll save, I'm storing
      | {_EN_ME}{_EN_PUT}\b[^.!?]*?\b{_EN_INTO}                  # I'll add it to your file
      | {_EN_ME}(?:not(?:e|ed)|jot(?:ted)?|writ(?:e|ten)|wrote)\s+(?:{_EN_THIS}\s+)?down\b
      | {_EN_ME}(?:made|make|take|taken|took)\s+(?:a\s+)?notes?\b
      | {_EN_ME}(?:updat|edit|chang|amend)\w*\s+{_EN_DET}(?:\w+\s+)?{_EN_PLACE}\b
      | (?:{_EN_SAVE}|{_EN_PUT})\s+{_EN_THIS}(?:\s+down)?\s+{_EN_INTO}  # jot this down in …
      | (?:saved|stored|recorded|logged|archived|filed|kept|noted|added|written\ down|backed\ up)
            \s+(?:safely\s+|securely\s+)?{_EN_INTO}                    # saved to your profile
      | (?:is|are|was|were|been|be|get|gets|got)\s+(?:now\s+|all\s+|safely\s+|securely\s+)?
            (?:saved|stored|recorded|logged|archived|backed\ up)\b     # your answers are stored
      | ^\W*(?:saving|storing|recording|logging|archiving)\b
      | (?:folders?|director(?:y|ies)|vault|databases?|storage|disk|hard\ drive|file\ ?paths?)\b
      | (?:in|into|to|from|on)\s+(?:the|your|my|our|a|this|that)\s+(?:\w+\s+)?files?\b
    )""",
    re.VERBOSE | re.IGNORECASE,
)

# --- storage talk: Russian --------------------------------------------------------------------

# Verbs of putting something on record; they count in the first person, in the past or as a
# short participle ("сохраню", "занесла", "записано") — and, but for the saving verbs, only
# with a place to keep it ("в профиль", "в заметки"): "Записываю Матвея к врачу" is a booking.
_RU_SAVE_VERBS = ("сохранить", "сохранять")
_RU_PUT_VERBS = (
    "записать",
    "записывать",
    "занести",
    "заносить",
    "внести",
    "вносить",
    "зафиксировать",
    "фиксировать",
    "добавить",
    "добавлять",
    "отметить",
    "отмечать",
    "положить",
    "класть",
    "сложить",
    "зарегистрировать",
    "архивировать",
    "заархивировать",
)
# Places to keep things: with a verb above they are storage talk.
_RU_PLACES = (
    "профиль",
    "заметка",
    "журнал",
    "дневник",
    "архив",
    "досье",
    "анкета",
    "документ",
    "система",
    "карточка",
    "база",
    "облако",
    "сервер",
    "блокнот",
)
# Words that are storage talk on their own.
_RU_ALWAYS = ("файл", "папка", "хранилище", "директория", "каталог", "диск", "репозиторий")
_RU_DATABASE = re.compile(r"\bбаз\w*\s+данных\b", re.IGNORECASE)
_RU_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)?", re.IGNORECASE)


@cache
def _morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


def _lexeme(lemmas: tuple[str, ...], keep) -> frozenset[str]:
    forms: set[str] = set()
    for lemma in lemmas:
        parses = _morph().parse(lemma)
        exact = [p for p in parses if p.normal_form == lemma] or parses[:1]
        for parse in exact:
            forms.update(f.word.replace("ё", "е") for f in parse.lexeme if keep(f.tag))
    return frozenset(forms)


def _first_person(tag) -> bool:
    return "VERB" in tag.grammemes and "1per" in tag.grammemes


def _on_record(tag) -> bool:
    """The past tense or a short participle: "записала", "сохранено"."""
    grammemes = tag.grammemes
    return "PRTS" in grammemes or ("VERB" in grammemes and "past" in grammemes)


def _noun(tag) -> bool:
    return "NOUN" in tag.grammemes


@cache
def _ru_words() -> dict[str, frozenset[str]]:
    return {
        "save_first": _lexeme(_RU_SAVE_VERBS, _first_person),
        "save_past": _lexeme(_RU_SAVE_VERBS, _on_record),
        "put_first": _lexeme(_RU_PUT_VERBS, _first_person),
        "put_past": _lexeme(_RU_PUT_VERBS, _on_record),
        "places": _lexeme(_RU_PLACES, _noun),
        "always": _lexeme(_RU_ALWAYS, _noun),
    }


# A past tense is the agent's own unless another subject comes first: "Вы записали в дневник…"
# asks about the client's diary.
_RU_OTHERS = frozenset({"вы", "ты", "он", "она", "они", "оно"})


def _storage_ru(sentence: str) -> bool:
    words = [w.lower().replace("ё", "е") for w in _RU_WORD.findall(sentence)]
    if not words:
        return False
    forms, seen = _ru_words(), set(words)
    if seen & forms["always"] or _RU_DATABASE.search(sentence):
        return True
    past = forms["save_past"] | forms["put_past"]
    first_past = next((n for n, word in enumerate(words) if word in past), len(words))
    # Someone else named before the verb is its subject: the agent is not the one saving.
    mine = not (set(words[:first_past]) & _RU_OTHERS) or bool(seen & {"я", "мы"})
    if seen & forms["save_first"] or (mine and seen & forms["save_past"]):
        return True
    put = seen & forms["put_first"] or (mine and seen & forms["put_past"])
    return bool(put and seen & forms["places"])


# --- storage talk: Chinese --------------------------------------------------------------------

_ZH_VERB = (
    r"(?:记下|记录|记到|记在|记进|记入|保存|存下|存到|存在|存进|存入|存起来|储存|存储|存档"
    r"|写入|写进|写到|录入|归档|备份|上传|登记到|添加到|加到|放到|放进)"
)
_ZH_PLACE = (
    r"(?:档案|文件|文档|文件夹|数据库|资料库|系统|笔记|记录|目录|硬盘|云端|服务器|日志"
    r"|个人资料|资料|备忘录|记事本|病历|表格)"
)
_STORAGE_ZH = re.compile(
    rf"""(?:
        我(?:们)?(?:会|已经|已|先|来|要|将|得|就|帮你|帮您|给你|给您|替你|替您|这就|马上|现在)*
            (?:把[^。！？，,]{{0,12}})?{_ZH_VERB}                     # 我会记下来, 我把这个保存
      | {_ZH_VERB}[^。！？]{{0,10}}?{_ZH_PLACE}                # 保存到你的档案, 记录在数据库
      | (?:已|已经)(?:被)?(?:保存|存档|存储|储存|记录|录入|归档|备份)
      | (?:文件夹|数据库|文件路径|资料库|硬盘|存储空间|云端存储)
    )""",
    re.VERBOSE,
)

# --- the system's own machinery ---------------------------------------------------------------

_MACHINERY = re.compile(
    r"""\b(?:
        analyst | narrator | system\ prompt | my\ (?:prompt|instructions|programming)
      | language\ model | llm | tool\ call | json
      | аналитик\w* | нарратор\w* | промпт\w* | мои\ инструкци\w* | языков\w+\ модел\w*
    )\b
    | 分析师 | 叙述者 | 系统提示 | 提示词 | 我的指令 | 语言模型 | 大模型""",
    re.VERBOSE | re.IGNORECASE,
)


def storage_talk(sentence: str) -> bool:
    """Does this sentence talk about saving, storing, files or folders (any of our languages)?"""
    sentence = sentence.replace("’", "'")
    return bool(
        _STORAGE_EN.search(sentence) or _STORAGE_ZH.search(sentence) or _storage_ru(sentence)
    )


def sentence_unfit(sentence: str) -> bool:
    """A sentence a client must not see: storage talk, a path, or the system's machinery."""
    return storage_talk(sentence) or _has_path(sentence) or bool(_MACHINERY.search(sentence))


def client_text(text: str | None) -> str:
    """Agent text fit to show a client: may come back empty, and the caller falls back then."""
    shown, _, _ = state_json_split(text or "")
    kept = [
        piece for piece in sentences(shown) if re.search(r"\w", piece) and not sentence_unfit(piece)
    ]
    return "".join(kept).strip()


def client_data(text: str) -> str:
    """A client's words inside a prompt: tag-like brackets neutralised so that the text cannot
    close the data block it is quoted in."""
    return text.replace("<", "‹").replace(">", "›")
