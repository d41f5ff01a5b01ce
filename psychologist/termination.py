"""How a session ended, classified deterministically (ADR decision 6).

Telling a heartbeat timeout from a kill signal or an exception is pattern matching, not
judgement, so no model is asked: the cause enters the prompt as a fact and the model analyses
its consequences. `termination_reason` is normally one of `AskSession.TerminationReason`; free
text (a signal name, an exception message) from older writers is matched by pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from psychologist.models import TerminationCause

_FACTS = {
    TerminationCause.GRACEFUL: "The session was closed normally (a graceful close).",
    TerminationCause.ABANDONED_TIMEOUT: (
        "The session ended abnormally: abandoned. The client stopped responding and the idle "
        "timeout closed it; nobody pressed a button."
    ),
    TerminationCause.HEARTBEAT_TIMEOUT: (
        "The session ended abnormally: heartbeat timeout. The client's app stopped reporting "
        "that it was alive (a lost connection or a closed app), not necessarily by choice."
    ),
    TerminationCause.KILLED: (
        "The session ended abnormally: killed. A kill signal (an operator or the process "
        "supervisor) ended it, not the client."
    ),
    TerminationCause.ERROR: (
        "The session ended abnormally: error. The system failed while the session was running."
    ),
}

# Checked in this order: an exception message may mention a timeout, a kill never an error.
_PATTERNS: tuple[tuple[TerminationCause, re.Pattern[str]], ...] = (
    (TerminationCause.KILLED, re.compile(r"kill|sig(?:kill|term)|signal\s*(?:9|15)\b")),
    (TerminationCause.HEARTBEAT_TIMEOUT, re.compile(r"heart\s*beat|ping timeout|connection lost")),
    (TerminationCause.ABANDONED_TIMEOUT, re.compile(r"abandon|idle|inactiv")),
    (TerminationCause.ERROR, re.compile(r"error|exception|traceback|crash|fail")),
)


@dataclass(frozen=True)
class Termination:
    cause: TerminationCause

    @property
    def abnormal(self) -> bool:
        return self.cause != TerminationCause.GRACEFUL

    @property
    def fact(self) -> str:
        return _FACTS[self.cause]


def termination_classify(termination_reason: str | None) -> Termination:
    """None or empty is a graceful close; anything else is abnormal, and an unrecognised
    reason is an error — an abnormal close is never reported as graceful."""
    reason = (termination_reason or "").strip().lower()
    if not reason:
        return Termination(TerminationCause.GRACEFUL)
    if reason in TerminationCause.values:
        return Termination(TerminationCause(reason))
    for cause, pattern in _PATTERNS:
        if pattern.search(reason):
            return Termination(cause)
    return Termination(TerminationCause.ERROR)
