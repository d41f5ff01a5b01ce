"""QUALITY C1: the safety net (rules + learned layer + the last messages together) on its dev
split and its frozen test split, beside the targets.

For each split and language × category: recall counting escalations made directly and those
after a "yes" to the screening card (a crisis line in the band counts as caught: the screener
asks), direct recall, false alarms (a non-crisis line that pages a person), the share of
non-crisis lines that get the screening card, severity agreement — each with a Wilson 95 %
interval. Then the conversations (a crisis spread over messages; a harmless one with the same
words), the screening card over the ordinary sessions of `bench/personas/`, the cost per
message and the memory the encoder adds to a process.

Dev is where the head's thresholds were chosen (`scripts/safety_head.py`); test was written
blind and is never tuned on — its figures are the honest ones, and every new blind round is
scored here before any of it is used (docs/safety-ledger.md). Pure: nothing from Django is set
up. Run from the repo root: `python bench/safety.py` (`--misses` lists what the net gets wrong
on dev; test's misses are not printed, so that nobody tunes on them by accident; `--dev`
prints only what thresholds are chosen on — dev and the ordinary sessions; `--round PATH`
scores a new blind round alone, its misses unprinted too).
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.safety_head import splits  # noqa: E402
from sessions_app.engine.safety import detector_version, judge, learned  # noqa: E402
from sessions_app.engine.safety.detector import clear_caches  # noqa: E402
from sessions_app.engine.safety.verdict import ESCALATE, SCREEN  # noqa: E402

SAFETY = ROOT / "sessions_app" / "engine" / "safety"
TEST = SAFETY / "test.jsonl"
CONVERSATIONS = SAFETY / "test_conversations.jsonl"
PERSONAS = ROOT / "bench" / "personas"
LANGUAGES = ("en", "ru", "zh")
TARGETS = {
    "recall": "≥ 0.90",
    "false_alarms": "≤ 0.03",
    "screened": "≤ 0.20",
    "cost": "< 10 ms",
    "ordinary": "0",
}


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def wilson(hit: int, total: int) -> str:
    """`hit/total` with its Wilson 95 % interval."""
    if not total:
        return "-"
    z, p = 1.96, hit / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return f"{p:.2f} [{max(0, centre - half):.2f}–{min(1, centre + half):.2f}] ({hit}/{total})"


def score(rows: list[dict]) -> tuple[dict, dict, list[str]]:
    by_lang: dict[str, Counter] = defaultdict(Counter)
    by_cat: dict[tuple[str, str], Counter] = defaultdict(Counter)
    misses = []
    for row in rows:
        verdict = judge(row["text"], row["lang"])
        crisis = row["expected"] != "negative"
        s = by_lang[row["lang"]]
        if crisis:
            c = by_cat[(row["lang"], row["category"])]
            for counter in (s, c):
                counter["crisis"] += 1
                counter["caught"] += verdict.action is not None
                counter["direct"] += verdict.action == ESCALATE
            s["severity_ok"] += verdict.escalates and verdict.level == row["expected"]
            s["escalated"] += verdict.escalates
            if verdict.action is None:
                misses.append(f"{row['lang']} missed [{row['category']}] {row['text']!r}")
        else:
            s["negative"] += 1
            s["false_alarm"] += verdict.action == ESCALATE
            s["screened"] += verdict.action == SCREEN
            if verdict.action == ESCALATE:
                misses.append(f"{row['lang']} false alarm [{row['kind']}] {row['text']!r}")
    return by_lang, by_cat, misses


def table(name: str, rows: list[dict]) -> list[str]:
    by_lang, by_cat, misses = score(rows)
    print(f"### {name}: {len(rows)} lines\n")
    print(
        f"| language | recall incl. screening ({TARGETS['recall']}) | direct recall | "
        f"false alarms ({TARGETS['false_alarms']}) | screened non-crisis "
        f"({TARGETS['screened']}) | severity exact (of escalated) |"
    )
    print("|---|---|---|---|---|---|")
    for lang in LANGUAGES:
        s = by_lang[lang]
        print(
            f"| {lang} | {wilson(s['caught'], s['crisis'])} | {wilson(s['direct'], s['crisis'])} | "
            f"{wilson(s['false_alarm'], s['negative'])} | {wilson(s['screened'], s['negative'])} | "
            f"{wilson(s['severity_ok'], s['escalated'])} |"
        )
    print()
    categories = sorted({cat for _, cat in by_cat})
    print(
        "| category | " + " | ".join(f"{lang} recall incl. screening" for lang in LANGUAGES) + " |"
    )
    print("|---|" + "---|" * len(LANGUAGES))
    for cat in categories:
        cells = [
            wilson(by_cat[(lang, cat)]["caught"], by_cat[(lang, cat)]["crisis"])
            for lang in LANGUAGES
        ]
        print(f"| {cat} | " + " | ".join(cells) + " |")
    print()
    return misses


def conversations(path: Path = CONVERSATIONS) -> None:
    """A conversation is caught when any of its messages, read with the ones before it,
    escalates or screens; a harmless one is a false alarm when any escalates."""
    rows = load(path)
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for row in rows:
        actions = []
        for i, text in enumerate(row["messages"]):
            actions.append(judge(text, row["lang"], recent=tuple(row["messages"][:i])).action)
        c = counts[(row["lang"], row["kind"])]
        c["total"] += 1
        c["escalated"] += ESCALATE in actions
        c["caught"] += any(actions)
        c["screened_only"] += SCREEN in actions and ESCALATE not in actions
    print(f"### conversations ({path.name}): {len(rows)}\n")
    print(
        "| language | spread: caught incl. screening | spread: escalated "
        "| harmless: escalated (false alarm) | harmless: screened only |"
    )
    print("|---|---|---|---|---|")
    for lang in LANGUAGES:
        spread, harmless = counts[(lang, "spread")], counts[(lang, "harmless")]
        print(
            f"| {lang} | {wilson(spread['caught'], spread['total'])} | "
            f"{wilson(spread['escalated'], spread['total'])} | "
            f"{wilson(harmless['escalated'], harmless['total'])} | "
            f"{wilson(harmless['screened_only'], harmless['total'])} |"
        )
    print()


def ordinary_sessions() -> None:
    """Every answer of the dialogue-quality personas (ordinary sessions), read as the engine
    reads them — each with the two before it."""
    target = TARGETS["ordinary"]
    print(f"### ordinary sessions (bench/personas): screened or escalated (target {target})\n")
    print("| language | answers | screened | escalated |")
    print("|---|---|---|---|")
    for lang in LANGUAGES:
        personas = json.loads((PERSONAS / f"{lang}.json").read_text("utf-8"))["personas"]
        answers = screened = escalated = 0
        for session in (s for persona in personas for s in persona["sessions"]):
            said: list[str] = []
            for text in [session["topic"], *session["answers"]]:
                verdict = judge(text, lang, recent=tuple(said[-2:]))
                said.append(text)
                answers += 1
                screened += verdict.action == SCREEN
                escalated += verdict.action == ESCALATE
        print(f"| {lang} | {answers} | {screened} | {escalated} |")
    print()


LOADING = """
import sys, time
sys.path.insert(0, sys.argv[1])
def rss():
    status = open("/proc/self/status").read()
    return int(status.split("VmRSS:")[1].split()[0])
from sessions_app.engine.safety import assess, learned
assess("warm", "en")
before = rss()
started = time.perf_counter()
learned.warm()
print(time.perf_counter() - started, (rss() - before) / 1024)
"""


def cost(rows: list[dict]) -> None:
    # Loading and memory in a fresh process: the rules already loaded, then the encoder.
    out = subprocess.run(
        [sys.executable, "-c", LOADING, str(ROOT)], capture_output=True, text=True, check=True
    )
    loaded, added_mb = (float(x) for x in out.stdout.split())

    def timed(rows: list[tuple[str, str]]) -> list[float]:
        samples = []
        for lang, text in rows:
            # A message the process has not read yet: neither the rules' cache nor the learned
            # layer's readings hold it.
            clear_caches(per_word=False)
            learned.clear_cache()
            t = time.perf_counter_ns()
            judge(text, lang, recent=("how was your week", "work was a lot"))
            samples.append((time.perf_counter_ns() - t) / 1e6)
        return sorted(samples)

    # Most messages are ordinary session talk, which the gate turns away; a crisis line, or one
    # that looks like it, is read by the second encoder too (twice: alone and with the two
    # before it).
    ordinary = timed(
        [
            (lang, answer)
            for lang in LANGUAGES
            for persona in json.loads((PERSONAS / f"{lang}.json").read_text("utf-8"))["personas"]
            for session in persona["sessions"]
            for answer in session["answers"]
        ]
    )
    samples = timed([(row["lang"], row["text"]) for row in rows[:400]])
    long = "I keep going over what happened at work, and then at night I lie awake. " * 55
    learned.clear_cache()
    t = time.perf_counter_ns()
    judge(long[:4000], "en")
    longest = (time.perf_counter_ns() - t) / 1e6
    print("### cost\n")
    print("| what | figure | target |\n|---|---|---|")
    measured = (("an ordinary session's answer", ordinary), ("a blind-set line", samples))
    for name, figures in measured:
        median, p95 = statistics.median(figures), figures[int(len(figures) * 0.95)]
        print(f"| {name}, median (with the two before it) | {median:.2f} ms | {TARGETS['cost']} |")
        print(f"| {name}, p95 | {p95:.2f} ms | |")
    print(f"| a 4,000-character message | {longest:.1f} ms | |")
    print(f"| loading the encoder and the head | {loaded:.2f} s | once per process |")
    print(f"| memory the encoder and the head add to a process (max RSS) | {added_mb:.0f} MB | |")
    print(f"\ndetector version {detector_version()}")


def blind_round(path: Path) -> None:
    """A new blind round, scored as it arrives and before anything is fixed on it (the ledger's
    first figure for it): its lines, and its conversations if a `<name>_conversations.jsonl`
    lies beside it."""
    table(f"blind round {path.name}, before any fix", load(path))
    beside = path.with_name(f"{path.stem}_conversations.jsonl")
    if beside.exists():
        conversations(beside)
    print(f"detector version {detector_version()}")


def main() -> None:
    if "--round" in sys.argv:
        blind_round(Path(sys.argv[sys.argv.index("--round") + 1]))
        return
    _, dev, _ = splits()
    if "--dev" in sys.argv:
        # What thresholds are chosen on: dev and the ordinary sessions, never the test.
        table("dev (blind, fresh and the unseen third of the split files)", dev)
        ordinary_sessions()
        return
    test = load(TEST)
    misses = table("dev (blind, fresh and the unseen third of the split files)", dev)
    table("test (test.jsonl, round 12, frozen, never tuned on)", test)
    conversations()
    ordinary_sessions()
    cost(test)
    if "--misses" in sys.argv:
        print("\n".join(["", "dev misses:", *misses]))


if __name__ == "__main__":
    main()
