"""Issue 28: every text analysis a turn runs, timed on hostile input (each within the 4,000
character text limit), beside the 50 ms a whole message may cost.

Rows are the analysers the turn and its batch run over the client's words (the safety net's
rules and learned layer, language detection, the fatigue and meta lexicon, the mood, the
offline Analyst's listening, the agent hygiene filter, the Russian gender votes), and the offline
Analyst and Narrator as a whole; columns are the inputs. Each figure is the slowest of a few
runs, in milliseconds, after one warm-up (the encoder and the lexicons load once per process),
with the per-text and per-word caches cleared (a hostile text is new). `judge` is the verdict
as the turn asks it, with two earlier messages read together; the total adds up the other rows
(judge repeats the rules and the learned layer).
Django is set up (settings only, no database). Run from the repo root:
`python bench/hostile_input.py`.

What reads a bounded text reads `lexicon.analysed(text)` (ANALYSED_CHARS, runs squeezed); the
learned layer reads the first and last windows; the safety net's rules read every word, so
their cost grows with the text — linearly, but about 0.1 ms a character on a busy 2-core
machine, which puts a 4,000-character message over the target whatever it holds.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from bench._django import table  # noqa: E402
from sessions_app.engine import hygiene, language, lexicon  # noqa: E402
from sessions_app.engine.offline import analyst, listening, narrator  # noqa: E402
from sessions_app.engine.safety import judge, learned  # noqa: E402
from sessions_app.engine.safety.detector import assess, clear_caches  # noqa: E402
from sessions_app.engine.words import TEXT_MAX  # noqa: E402

TARGET_MS = 50
RUNS = 3
INPUTS = {
    "emoji": "😀" * TEXT_MAX,
    "one word": ("abcdefghij" * 1000)[:TEXT_MAX],
    "combining": ("a" + "\u0301\u0302\u0303") * (TEXT_MAX // 4),
    "mixed scripts": ("aя中 " * TEXT_MAX)[:TEXT_MAX],
    "one letter": "a" * TEXT_MAX,
    "prose": ("I am tired of work and I feel nobody listens to me at home. " * 80)[:TEXT_MAX],
}


def _analyst(text: str) -> object:
    context = {
        "locale": "en",
        "turn_count": 2,
        "recap": [{"question": "What happened?", "answer": text}],
        "last_client_text": text,
    }
    output = analyst.analyse(context)
    return narrator.narrate({"locale": "en", "questions": output["questions"]})


ANALYSERS: dict[str, Callable[[str], object]] = {
    "safety rules (assess)": lambda t: assess(t, "en"),
    "safety learned (read)": lambda t: learned.read([t]),
    "safety verdict (judge)": lambda t: judge(t, "en", recent=(t, t)),
    "language detect": language.detect,
    "fatigue + meta": lambda t: (lexicon.detect_fatigue(t, "en"), lexicon.detect_meta(t, "en")),
    "mood (VADER / lexicon)": lambda t: lexicon.mood_value(t, "en"),
    "listening (hear)": lambda t: [listening.hear(t, lang) for lang in ("en", "ru", "zh")],
    "hygiene filter": hygiene.client_text,
    "gender votes": lambda t: language.russian_gender([t]),
    "offline Analyst + Narrator": _analyst,
}


def slowest_ms(label: str, fn: Callable[[str], object], text: str) -> float:
    fn(text)
    worst = 0.0
    for _ in range(RUNS):
        # Cold: a hostile text is new to the per-text and per-word caches — but for the safety
        # net's assessment, which the turn made first and the lexicons and Analyst reuse.
        clear_caches()
        language._text_genders.cache_clear()
        if not label.startswith("safety"):
            assess(text, "en")
        start = time.perf_counter()
        fn(text)
        worst = max(worst, time.perf_counter() - start)
    return worst * 1000


def main() -> None:
    names = list(INPUTS)
    rows = []
    totals = dict.fromkeys(names, 0.0)
    for label, fn in ANALYSERS.items():
        row = [label]
        for name in names:
            ms = slowest_ms(label, fn, INPUTS[name])
            if not label.startswith("safety verdict"):  # judge repeats assess + read
                totals[name] += ms
            row.append(f"{ms:.1f}")
        rows.append(tuple(row))
        print(f"  {label} done", file=sys.stderr)
    rows.append(("total per message", *(f"{totals[n]:.1f}" for n in names)))
    rows.append(("target", *(f"< {TARGET_MS}" for _ in names)))
    print(f"Hostile input (ms, slowest of {RUNS}; each input {TEXT_MAX} characters or fewer)")
    print(table(rows, ("analyser", *names)))


if __name__ == "__main__":
    main()
