"""Agent hygiene (SPEC §3): what an agent says passes this filter before a client sees it, and
what a client says reaches a model only as data.

The earlier app showed a client "Saving to personal/psychology/observations/…" (session design
§7.4, §11.4). Storage is the application's job: sentences about saving, storing, files or
folders are dropped, stray paths are cut out, and so are sentences that explain the system's
own machinery (agents, prompts, instructions) — a meta question gets the focus back, never an
architecture tour. A trailing `STATE_JSON:` line is protocol, never shown.
"""

from __future__ import annotations

import re

from sessions_app.engine.flows import state_json_split

_PATH = re.compile(
    r"""(?:
        (?:[A-Za-z]:\\|\\\\)[^\s"'«»]+               # C:\dir\file, \\server\share
      | (?<![\w/])(?:~|\.{1,2})?/(?:[\w.@-]+/)*[\w.@-]+           # /abs/path, ~/notes/x.md, ./x
      | [\w.@-]+/(?:[\w.@-]+/)+[\w.@-]*                 # dir/sub/leaf (two slashes or more)
      | \b[\w-]+\.(?:md|txt|json|ya?ml|csv|log|db|sqlite3?|docx?|pdf)\b   # bare file names
    )""",
    re.VERBOSE,
)
_STORAGE = re.compile(
    r"""\b(?:
        (?:i'?m|i\ am|i'?ll|i\ will|i'?ve|i\ have|let\ me|we'?ll|we\ will)\s+
            (?:now\s+|also\s+|just\s+)?(?:sav|stor|record|writ|not(?:e|ing))\w*
      | (?:sav|stor)(?:e|es|ed|ing)\s+(?:it|this|that|them|the\ session|everything|to|in)\b
      | (?:saved|stored|recorded|written)\s+(?:to|in|into|at|on)\b
      | ^\W*(?:saving|storing|recording)\b
      | (?:sav|stor)(?:e|ed|ing)\s[\w\s]{0,30}?\b(?:to|into|in)\s+(?:the\s+|your\s+|my\s+)?
            (?:notes|file|folder|profile|vault|observations|records?)\b
      | (?:file|files|folder|folders|directory|vault|database|storage|disk)\b
      | сохраняю | сохраню | сохранил\w* | сохранено | сохранён\w* | записываю | запишу
      | записал[аи]? | файл\w* | папк\w* | хранилищ\w* | баз[еуы]\ данных | директори\w*
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_MACHINERY = re.compile(
    r"""\b(?:
        analyst | narrator | system\ prompt | my\ (?:prompt|instructions|programming)
      | language\ model | llm | tool\ call | json
      | аналитик\w* | нарратор\w* | промпт\w* | мои\ инструкци\w* | языков\w+\ модел\w*
    )""",
    re.VERBOSE | re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
_SPACES = re.compile(r"[ \t]{2,}")


def client_text(text: str | None) -> str:
    """Agent text fit to show a client: may come back empty, and the caller falls back then."""
    shown, _, _ = state_json_split(text or "")
    kept = []
    for sentence in _SENTENCE.split(shown):
        if not sentence.strip() or _STORAGE.search(sentence) or _MACHINERY.search(sentence):
            continue
        cleaned = _SPACES.sub(" ", _PATH.sub("", sentence)).strip(" ,;:-—")
        if re.search(r"\w", cleaned):
            kept.append(cleaned)
    return " ".join(kept).strip()


def client_data(text: str) -> str:
    """A client's words inside a prompt: tag-like brackets neutralised so that the text cannot
    close the data block it is quoted in."""
    return text.replace("<", "‹").replace(">", "›")
