"""Chinese third → second person: "用户一直在推迟那些事情。" → "你一直在推迟那些事情吗？".

Rules: the user as the Analyst names it (用户, 来访者, 当事人, and 他/她 with 自己 or as the
subject) becomes 你; 他的/她的 → 你的. Chinese marks a yes/no question with 吗, so a statement
gets 吗？ unless it already asks (a question word, 吗 or 呢). An insight reads "看起来，你……。".
Traditional characters are folded to simplified first, as everywhere the engine reads Chinese.
"""

from __future__ import annotations

import re

from sessions_app.engine.language import detectors

# Longest first, so 用户自己 is one replacement and 他们 (other people) is never touched.
_PERSON = re.compile(
    r"(?:用户|来访者|当事人|咨询者)(?:本人)?|(?:他|她)(?=自己|的|是|会|在|对|觉得|能|想|有)"
)
# 还是 asks for a choice ("先减少开支，还是先多一点收入？"): it takes no 吗 either.
_ASKS = re.compile(
    r"什么|哪|怎|如何|多少|多大|多久|有多|谁|为什么|为何|第几|几点|吗|呢|是否|是不是|还是"
)
_END = "。.!！?？ "


def to_question(text: str) -> str:
    core = _second_person(text)
    if not core:
        return ""
    return f"{core}？" if _ASKS.search(core) else f"{core}吗？"


def to_statement(text: str) -> str:
    core = _second_person(text)
    return f"看起来，{core}。" if core else ""


def _second_person(text: str) -> str:
    folded = detectors.fold(text).strip().rstrip(_END)
    return _PERSON.sub("你", folded)
