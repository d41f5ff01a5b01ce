"""Questions chosen by meaning: the offline Analyst's question bank, read by the sentence encoder
the safety net already loads, and the next questions picked for what the client said
(docs/decisions/0010-questions-chosen-by-meaning.md).

The bank is `banks/questions_{en,ru,zh}.jsonl`: several hundred questions per language, written
natively in each (not translated), third person like everything the Analyst writes, each tagged
with its theme (work, family, sleep … or general), CBT focus, purpose (explore, feelings,
thoughts, evidence, alternatives, values, small step, body) and stage. Beside them, the moves for
a client who has nothing to say (`MOVES`: a 0-10 scale, a choice between two concrete options,
normalising, offering to stop).

Choosing: the client's recent texts are embedded (the last answer weighs most, the topic and the
earlier answers less; a non-answer not at all) and the questions of the session's open theme and
the general ones are ranked by their similarity to that reading, nudged towards the session's
focus and stage, and picked by maximal marginal relevance against what was already asked, so a
batch neither repeats a question nor asks two that say the same. The encoder is the safety net's
USE (`safety.learned.embed`): one model per process; the bank's vectors are computed once per
process, on first use or at start (`warm`).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from sessions_app.engine.language import detectors
from sessions_app.engine.offline.banks import DATA, LANGS
from sessions_app.engine.safety import learned

MOVES = ("scale", "choice", "normalise", "pause")
GENERAL = "general"
_DIR = Path(__file__).with_name("banks")
# The reading of the client: the last answer, then older answers and the topic, each by weight.
LAST_WEIGHT, EARLIER_WEIGHT, TOPIC_WEIGHT, EARLIER_READ = 1.0, 0.5, 0.6, 3
# Ranking: similarity to the client's words, then small nudges; MMR trades relevance against
# what was already asked (1.0 would ignore repetition of meaning).
FOCUS_NUDGE, STAGE_NUDGE, RELEVANCE = 0.04, 0.03, 0.75
# "idk", "no", "не знаю", "没有": an answer that says nothing once these phrases and filler
# words are taken out of it (each language's `listening.non_answer` table in banks/; read on the
# normalised text, every language's at once: clients mix).
_NOTHING = re.compile(
    "|".join(p for lang in LANGS for p in DATA[lang]["listening"]["non_answer"]["nothing"])
)
_FILLER = frozenset(w for lang in LANGS for w in DATA[lang]["listening"]["non_answer"]["filler"])
NON_ANSWER_WORDS = 6


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    text: str
    theme: str
    focus: str
    purpose: str
    stage: str

    @property
    def move(self) -> bool:
        return self.purpose in MOVES


@cache
def bank(lang: str) -> tuple[Question, ...]:
    path = _DIR / f"questions_{lang}.jsonl"
    return tuple(
        Question(**json.loads(line)) for line in path.read_text("utf-8").splitlines() if line
    )


_vectors_lock = threading.Lock()


@cache
def _vectors(lang: str) -> np.ndarray:
    with _vectors_lock:
        return learned.embed([q.text for q in bank(lang)])


@cache
def _index(lang: str) -> dict[str, int]:
    return {q.text: i for i, q in enumerate(bank(lang))}


def warm() -> None:
    """Embed the banks now (process start), not in a client's turn."""
    for lang in LANGS:
        _vectors(lang)


def non_answer(text: str, lang: str) -> bool:
    """A short answer that says nothing ("idk", "нет, наверное", "不知道啊", "nothing really")."""
    clean = detectors.normalize(text)
    if len(detectors.words(clean)) > NON_ANSWER_WORDS:
        return False
    rest = detectors.words(_NOTHING.sub(" ", clean))
    return not set(rest) - _FILLER


def themes() -> tuple[str, ...]:
    return tuple(dict.fromkeys(q.theme for lang in LANGS for q in bank(lang)))


def _reading(said: list[str], lang: str) -> np.ndarray | None:
    """One unit vector for the client's recent texts (`said`: the topic first, then the
    answers), or None when nothing said is worth reading."""
    topic, answers = (said[0], said[1:]) if said else ("", [])
    meant = [a for a in answers if a.strip() and not non_answer(a, lang)][-EARLIER_READ:]
    texts, weights = [], []
    for i, text in enumerate(meant):
        texts.append(text)
        weights.append(LAST_WEIGHT if i == len(meant) - 1 else EARLIER_WEIGHT)
    if topic.strip() and not non_answer(topic, lang):
        texts.append(topic)
        weights.append(TOPIC_WEIGHT)
    if not texts:
        return None
    vectors = learned.embed(texts)
    reading = (np.asarray(weights, dtype=np.float32)[:, None] * vectors).sum(axis=0)
    norm = float(np.linalg.norm(reading))
    return reading / norm if norm else None


def choose(
    lang: str,
    *,
    said: list[str],
    asked: Iterable[str],
    theme: str | None,
    focus: str,
    stage: str,
    count: int,
) -> list[Question]:
    """Up to `count` unasked questions for what the client said: of the open `theme` and the
    general ones, best first."""
    questions, vectors = bank(lang), _vectors(lang)
    asked = set(asked)
    known = [_index(lang)[text] for text in asked if text in _index(lang)]
    pool = [
        i
        for i, q in enumerate(questions)
        if not q.move and q.text not in asked and q.theme in (theme or q.theme, GENERAL)
    ]
    if not pool:
        return []
    reading = _reading(said, lang)
    relevance = vectors[pool] @ reading if reading is not None else np.zeros(len(pool))
    for k, i in enumerate(pool):
        q = questions[i]
        relevance[k] += FOCUS_NUDGE * (q.focus == focus) + STAGE_NUDGE * (q.stage == stage)
        # A theme's own question before a general one when both fit as well.
        relevance[k] += STAGE_NUDGE * (theme is not None and q.theme == theme)
    chosen: list[int] = []
    taken = list(known)
    remaining = list(range(len(pool)))
    while remaining and len(chosen) < count:
        if taken:
            overlap = (vectors[[pool[k] for k in remaining]] @ vectors[taken].T).max(axis=1)
        else:
            overlap = np.zeros(len(remaining))
        scores = RELEVANCE * relevance[remaining] - (1 - RELEVANCE) * overlap
        best = remaining[int(np.argmax(scores))]
        chosen.append(pool[best])
        taken.append(pool[best])
        remaining.remove(best)
    return [questions[i] for i in chosen]


def move_for(lang: str, *, asked: Iterable[str], theme: str | None, silent: int) -> Question | None:
    """The move for a client whose last `silent` answers said nothing: a choice between two
    concrete options (of the open theme) or a 0-10 scale first, then normalising, then offering
    to stop; never one already asked."""
    order = {1: ("choice", "scale"), 2: ("scale", "normalise", "choice")}.get(
        silent, ("pause", "normalise", "scale")
    )
    asked = set(asked)
    for purpose in order:
        fitting = [
            q
            for q in bank(lang)
            if q.purpose == purpose and q.text not in asked and q.theme in (theme, GENERAL)
        ]
        # The open theme's own move before a general one.
        fitting.sort(key=lambda q: q.theme != theme)
        if fitting:
            return fitting[0]
    return None
