"""English third → second person: "The user avoids conflicts" → "Do you avoid conflicts?".

Rules, in order: a declarative sentence led by the user as subject is inverted into a yes/no
question (auxiliaries and modals move to the front, a present-tense verb takes "do", a past one
"did"); a sentence that already is a question keeps its shape. Then every remaining reference to
the user becomes "you"/"your"/"yourself", and a verb whose subject it was loses its third-person
form ("they try" stays, "he tries" → "you try").
"""

from __future__ import annotations

import re

SUBJECTS = (("the", "user"), ("the", "client"), ("user",), ("client",), ("he",), ("she",))
PLURAL_SUBJECTS = (("they",),)
AUX = {
    "is": "are",
    "was": "were",
    "has": "have",
    "does": "do",
    "isn't": "aren't",
    "wasn't": "weren't",
    "hasn't": "haven't",
    "doesn't": "don't",
    "are": "are",
    "were": "were",
    "have": "have",
    "do": "do",
    "did": "did",
    "didn't": "didn't",
}
MODALS = {
    "can",
    "could",
    "would",
    "will",
    "should",
    "might",
    "may",
    "must",
    "shall",
    "can't",
    "couldn't",
    "wouldn't",
    "won't",
    "shouldn't",
}
ADVERBS = {
    "often",
    "usually",
    "always",
    "never",
    "sometimes",
    "still",
    "already",
    "rarely",
    "really",
    "also",
    "just",
    "seldom",
    "even",
}
QUESTION_WORDS = {"what", "which", "who", "whom", "whose", "when", "where", "why", "how"}
IRREGULAR_PAST = {
    "felt": "feel",
    "thought": "think",
    "said": "say",
    "did": "do",
    "had": "have",
    "went": "go",
    "made": "make",
    "took": "take",
    "got": "get",
    "knew": "know",
    "told": "tell",
    "left": "leave",
    "kept": "keep",
    "began": "begin",
    "became": "become",
    "found": "find",
    "gave": "give",
    "lost": "lose",
    "came": "come",
    "saw": "see",
    "spent": "spend",
    "ran": "run",
    "wrote": "write",
    "forgot": "forget",
    "held": "hold",
    "heard": "hear",
    "met": "meet",
    "sat": "sit",
    "slept": "sleep",
    "understood": "understand",
}
E_VERBS = {
    "notice",
    "decide",
    "lose",
    "care",
    "hope",
    "like",
    "love",
    "hate",
    "use",
    "close",
    "change",
    "manage",
    "realize",
    "compare",
    "agree",
    "believe",
    "move",
    "face",
    "argue",
    "continue",
    "promise",
    "force",
    "refuse",
    "create",
    "complete",
    "ignore",
    "struggle",
    "handle",
    "judge",
    "blame",
    "escape",
    "share",
    "postpone",
    "imagine",
    "describe",
    "prepare",
    "feel",
    "leave",
    "arrive",
    "choose",
}
POSSESSIVES = {"their": "your", "his": "your", "theirs": "yours", "hers": "yours"}
REFLEXIVES = {
    "themselves": "yourself",
    "himself": "yourself",
    "herself": "yourself",
    "themself": "yourself",
}
OBJECTS = {"them": "you", "him": "you"}
_EDGE = re.compile(r"^([^\w']*)([\w'-]*)([^\w']*)$")


def to_question(text: str) -> str:
    tokens = _tokens(text)
    if not tokens:
        return ""
    lowered = [_core(token).lower() for token in tokens]
    subject = _subject_at(lowered, 0)
    if subject and not _is_question_start(lowered):
        tokens = _invert(tokens, lowered, subject)
    tokens = _swap_references(tokens)
    return _finish(tokens, "?")


def to_statement(text: str) -> str:
    """ "The user tends to hide it" → "It looks like you tend to hide it."""
    tokens = _swap_references(_tokens(text))
    if not tokens:
        return ""
    tokens[0] = _lower_first(tokens[0])
    return _finish(["It", "looks", "like", *tokens], ".")


def _tokens(text: str) -> list[str]:
    return text.strip().rstrip(".!?").split()


def _core(token: str) -> str:
    return _EDGE.match(token).group(2) if _EDGE.match(token) else token


def _with_core(token: str, core: str) -> str:
    match = _EDGE.match(token)
    return f"{match.group(1)}{core}{match.group(3)}" if match else core


def _subject_at(lowered: list[str], index: int) -> int:
    """The length of a reference to the user as subject starting at `index`, or 0."""
    for subject in (*SUBJECTS, *PLURAL_SUBJECTS):
        if tuple(lowered[index : index + len(subject)]) == subject:
            return len(subject)
    return 0


def _is_question_start(lowered: list[str]) -> bool:
    return lowered[0] in QUESTION_WORDS or lowered[0] in AUX or lowered[0] in MODALS


def _invert(tokens: list[str], lowered: list[str], subject: int) -> list[str]:
    index = subject
    while index < len(tokens) and lowered[index] in ADVERBS:
        index += 1
    adverbs = tokens[subject:index]
    if index >= len(tokens):
        return ["Is", "it", "true", "that", "you", *tokens[subject:]]
    verb, rest = lowered[index], tokens[index + 1 :]
    if verb in AUX or verb in MODALS:
        head = AUX.get(verb, verb)
        if rest and _core(rest[0]).lower() == "not":
            return [head + "n't", "you", *adverbs, *rest[1:]]
        return [head, "you", *adverbs, *rest]
    base = _present_base(verb) or _past_base(verb)
    if base is None:
        return ["Is", "it", "true", "that", "you", *tokens[subject:]]
    aux = "do" if _present_base(verb) else "did"
    return [aux, "you", *adverbs, _with_core(tokens[index], base), *rest]


def _present_base(verb: str) -> str | None:
    if verb == "has":
        return "have"
    if verb == "does":
        return "do"
    if len(verb) < 3 or not verb.endswith("s") or verb.endswith(("ss", "us", "is")):
        return None
    if verb.endswith("ies") and verb[-4] not in "aeiou":
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


def _past_base(verb: str) -> str | None:
    if verb in IRREGULAR_PAST:
        return IRREGULAR_PAST[verb]
    if not verb.endswith("ed") or len(verb) < 5:
        return None
    stem = verb[:-2]
    if stem.endswith("i") and stem[-2] not in "aeiou":
        return stem[:-1] + "y"
    if stem + "e" in E_VERBS:
        return stem + "e"
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]
    return stem


def _swap_references(tokens: list[str]) -> list[str]:
    out: list[str] = []
    index = 0
    while index < len(tokens):
        lowered = [_core(token).lower() for token in tokens]
        length = _subject_at(lowered, index)
        if length:
            index = _swap_subject(tokens, lowered, index, length, out)
            continue
        out.append(_swap_word(tokens, lowered, index))
        index += 1
    return out


def _swap_subject(
    tokens: list[str], lowered: list[str], index: int, length: int, out: list[str]
) -> int:
    # "the user's" never gets here: its core "user's" is not a subject; `_swap_word` maps it.
    last = tokens[index + length - 1]
    plural = (lowered[index],) in PLURAL_SUBJECTS
    if not plural and _inverted_aux(out):
        # An inverted question: "does the user feel" → "do you feel".
        out[-1] = _with_core(out[-1], _match_case(out[-1], AUX[_core(out[-1]).lower()]))
    out.append(_with_core(last, "you"))
    after = index + length
    while after < len(tokens) and lowered[after] in ADVERBS:
        out.append(tokens[after])
        after += 1
    if after < len(tokens) and not plural:
        base = AUX.get(lowered[after]) or _present_base(lowered[after])
        if base:
            out.append(_with_core(tokens[after], base))
            return after + 1
    return after


def _swap_word(tokens: list[str], lowered: list[str], index: int) -> str:
    word, token = lowered[index], tokens[index]
    if word in ("user's", "client's") and index and lowered[index - 1] == "the":
        return _with_core(token, "your")
    if word in POSSESSIVES:
        return _with_core(token, POSSESSIVES[word])
    if word in REFLEXIVES:
        return _with_core(token, REFLEXIVES[word])
    if word in OBJECTS:
        return _with_core(token, OBJECTS[word])
    if word == "her":
        follows_noun = index + 1 < len(tokens) and token == _core(token)
        return _with_core(token, "your" if follows_noun else "you")
    if word == "they're":
        return _with_core(token, "you're")
    return token


def _inverted_aux(out: list[str]) -> bool:
    # Only a question inverts: "has the user" after a question word, or at the very start.
    if not out or _core(out[-1]).lower() not in AUX:
        return False
    return len(out) == 1 or any(_core(t).lower() in QUESTION_WORDS for t in out[:-1])


def _match_case(token: str, word: str) -> str:
    return word.capitalize() if _core(token)[:1].isupper() else word


def _lower_first(token: str) -> str:
    if token in ("I",) or token[:2].isupper():
        return token
    return token[:1].lower() + token[1:]


def _finish(tokens: list[str], mark: str) -> str:
    # "the user's" leaves a dangling "the" before "your": drop it.
    cleaned = [t for i, t in enumerate(tokens) if not _dangling_the(tokens, i)]
    text = " ".join(cleaned)
    return text[:1].upper() + text[1:] + mark


def _dangling_the(tokens: list[str], index: int) -> bool:
    return (
        _core(tokens[index]).lower() == "the"
        and index + 1 < len(tokens)
        and _core(tokens[index + 1]).lower() in ("your", "you")
    )
