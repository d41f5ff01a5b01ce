"""QUALITY C1: the crisis detector on its own labelled corpus, the fresh set and the blind set.

Prints the corpus counts, recall and false-alarm rate per language and per category, severity
agreement, and the detector's median / p95 cost per message. Pure: nothing from Django is set
up or imported. Run from the repo root: `python bench/safety.py` (add `--misses` to list every
line the detector gets wrong).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

started = time.perf_counter()
from sessions_app.engine.safety import assess, detector  # noqa: E402  (after the path and clock)

IMPORT_S = time.perf_counter() - started
CORPUS = ROOT / "sessions_app" / "engine" / "safety" / "corpus.jsonl"
FRESH = ROOT / "sessions_app" / "engine" / "safety" / "fresh.jsonl"
BLIND = ROOT / "sessions_app" / "engine" / "safety" / "blind.jsonl"
REPEAT = 200


def load(path: Path = CORPUS) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def rate(hit: int, total: int) -> str:
    return f"{hit / total:.3f} ({hit}/{total})" if total else "-"


def quality(rows: list[dict]) -> list[str]:
    misses = []
    by_lang: dict[str, Counter] = defaultdict(Counter)
    by_cat: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        a = assess(row["text"], row["lang"])
        got = a.level or "negative"
        crisis = row["expected"] != "negative"
        stats = by_lang[row["lang"]]
        if crisis:
            stats["crisis"] += 1
            stats["caught"] += a.positive
            stats["severity_ok"] += got == row["expected"]
            by_cat[row["category"]]["crisis"] += 1
            by_cat[row["category"]]["caught"] += a.positive
        else:
            stats["negative"] += 1
            stats["false_alarm"] += a.positive
        if got != row["expected"]:
            misses.append(f"{row['lang']} {row['expected']}→{got} [{row['kind']}] {row['text']!r}")
    print("| language | crisis | recall | severity exact | non-crisis | false alarms |")
    print("|---|---|---|---|---|---|")
    for lang, s in sorted(by_lang.items()):
        print(
            f"| {lang} | {s['crisis']} | {rate(s['caught'], s['crisis'])} | "
            f"{rate(s['severity_ok'], s['crisis'])} | {s['negative']} | "
            f"{rate(s['false_alarm'], s['negative'])} |"
        )
    print()
    print("| category | crisis lines | recall |")
    print("|---|---|---|")
    for cat, s in sorted(by_cat.items()):
        print(f"| {cat} | {s['crisis']} | {rate(s['caught'], s['crisis'])} |")
    return misses


def cost(rows: list[dict], *, cold: bool, memoized: bool = False) -> list[float]:
    """Per message: the scan with the per-word caches warm or cold — each sample forgets the
    assessed text itself — or, `memoized`, the same text assessed again (a turn's later reads)."""
    per_message = []
    for row in rows:
        samples = []
        for _ in range(REPEAT if not cold else 20):
            if not memoized:
                detector.clear_caches(per_word=cold)
            t = time.perf_counter_ns()
            assess(row["text"], row["lang"])
            samples.append(time.perf_counter_ns() - t)
        per_message.append(statistics.median(samples) / 1e6)
    return per_message


def main() -> None:
    rows = load()
    counts = Counter((r["lang"], r["expected"] != "negative") for r in rows)
    print(f"corpus: {len(rows)} lines")
    print("| language | crisis | non-crisis | L4 lines | kinds |")
    print("|---|---|---|---|---|")
    for lang in sorted({r["lang"] for r in rows}):
        l4 = sum(1 for r in rows if r["lang"] == lang and r["expected"] == "L4")
        kinds = len({r["kind"] for r in rows if r["lang"] == lang})
        print(f"| {lang} | {counts[(lang, True)]} | {counts[(lang, False)]} | {l4} | {kinds} |")
    print()
    misses = quality(rows)
    print()
    fresh = load(FRESH)
    print(f"fresh set (written blind to the corpus): {len(fresh)} lines")
    misses += quality(fresh)
    print()
    blind = load(BLIND)
    print(
        f"blind set (a third writer, blind to corpus, fresh set and patterns): {len(blind)} lines"
    )
    misses += quality(blind)
    print()
    print(f"import: {IMPORT_S * 1000:.0f} ms")
    runs = (("warm caches", False, False), ("cold caches", True, False))
    for label, cold, memoized in (*runs, ("the same text again", False, True)):
        ms = sorted(cost(rows, cold=cold, memoized=memoized))
        p95 = ms[int(len(ms) * 0.95) - 1]
        print(
            f"cost per message ({label}): median {statistics.median(ms):.3f} ms, "
            f"p95 {p95:.3f} ms, max {ms[-1]:.3f} ms"
        )
    if misses:
        print(
            f"\n{len(misses)} lines disagree with their label"
            + (":" if "--misses" in sys.argv else " (--misses lists them)")
        )
        if "--misses" in sys.argv:
            print("\n".join(misses))


if __name__ == "__main__":
    main()
