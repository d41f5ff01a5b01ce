"""Every text analysis a turn runs, timed on hostile input (each within the 4,000 character
text limit), beside the 50 ms a whole message may cost (QUALITY R: linear, bounded analysers).

Rows are the analysers the turn and its batch run over the client's words (the safety net's
rules and learned layer, language detection, the fatigue and meta lexicon, the mood, the
offline Analyst's listening, the agent hygiene filter, the Russian gender votes), and the offline
Analyst and Narrator as a whole; columns are the inputs. Each figure is the median of five
cold runs, in milliseconds, after one warm-up (the encoder and the lexicons load once per process),
with the per-text, per-word and per-window caches cleared (a hostile text is new). `judge` is
the verdict as the turn asks it, with two earlier messages read together.

The total is what one message costs: the rows marked `*` (judge holds the rules and the learned
layer, the Analyst its listening, so those parts are not added twice). Django is set up
(settings only, no database). Run from the repo root: `python bench/hostile_input.py`.

What reads a bounded text reads `detectors.analysed(text)` (ANALYSED_CHARS, runs squeezed); the
learned layer reads the first and last windows, each at most WINDOW_TOKENS; the safety net's
rules read every word, but run a pattern only where the text holds one of its anchors (see
`detector._anchors`), so an ordinary message skips most of the 750 patterns.
"""

from __future__ import annotations

import os
import statistics
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
from sessions_app.engine.agents import hygiene  # noqa: E402
from sessions_app.engine.language import detectors, identify  # noqa: E402
from sessions_app.engine.offline import analyst, listening, narrator  # noqa: E402
from sessions_app.engine.safety import crisis_escalates, judge, learned  # noqa: E402
from sessions_app.engine.safety.detector import assess, clear_caches  # noqa: E402
from sessions_app.engine.services import TEXT_MAX  # noqa: E402

TARGET_MS = 50
RUNS = 5
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


# (label, analyser, whether the total counts it: parts of a counted row are not added again)
ANALYSERS: list[tuple[str, Callable[[str], object], bool]] = [
    ("safety rules (assess)", lambda t: assess(t, "en"), False),
    ("safety learned (read)", lambda t: learned.read([t]), False),
    ("safety verdict (judge) *", lambda t: judge(t, "en", recent=(t, t)), True),
    ("language detect *", identify.detect, True),
    (
        "fatigue + meta *",
        lambda t: (detectors.detect_fatigue(t, "en"), detectors.detect_meta(t, "en")),
        True,
    ),
    ("mood (VADER / lexicon) *", lambda t: detectors.mood_value(t, "en"), True),
    ("listening (hear)", lambda t: listening.hear(t, "en"), False),
    ("hygiene filter *", hygiene.client_text, True),
    ("gender votes *", lambda t: identify.russian_gender([t]), True),
    ("offline Analyst + Narrator *", _analyst, True),
]


def cost_ms(label: str, fn: Callable[[str], object], text: str) -> float:
    fn(text)
    runs = []
    for _ in range(RUNS):
        # Cold: a hostile text is new to the per-text, per-word and per-window caches — but for
        # the safety net's verdict, which the turn made first and the lexicons and the Analyst
        # reuse (its assessment and the readings of the text's windows).
        clear_caches()
        learned.clear_cache()
        crisis_escalates.cache_clear()
        listening.hear.cache_clear()
        listening.lemma.cache_clear()
        detectors.mood_value.cache_clear()
        identify._text_genders.cache_clear()
        if not label.startswith("safety"):
            judge(text, "en", recent=(text, text))
        start = time.perf_counter()
        fn(text)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000


def main() -> None:
    names = list(INPUTS)
    rows = []
    totals = dict.fromkeys(names, 0.0)
    for label, fn, counted in ANALYSERS:
        row = [label]
        for name in names:
            ms = cost_ms(label, fn, INPUTS[name])
            if counted:
                totals[name] += ms
            row.append(f"{ms:.1f}")
        rows.append(tuple(row))
        print(f"  {label} done", file=sys.stderr)
    rows.append(("total per message", *(f"{totals[n]:.1f}" for n in names)))
    rows.append(("target", *(f"< {TARGET_MS}" for _ in names)))
    print(f"Hostile input (ms, median of {RUNS} cold runs; inputs of {TEXT_MAX} characters)")
    print(table(rows, ("analyser", *names)))


if __name__ == "__main__":
    main()
