"""Validation of an `emit_hypotheses` batch (ADR decision 3). Pure: the caller resolves which
session each cited event belongs to, this module applies the rules.

The whole batch is rejected if any hypothesis fails: partial acceptance would make the model
believe part of it was recorded, and blur the correction cycle. Every problem is reported at
once, addressed by its path, so that one correction can fix them all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from psychologist.models import CONFIDENCE_MAX, HypothesisTarget

STATEMENT_MAX = 1000
TERMINATION_ANALYSIS_MAX = 2000
EVIDENCE_MAX = 20
_FIELDS = frozenset({"target", "statement", "confidence", "evidence", "termination_analysis"})


@dataclass(frozen=True)
class HypothesisDraft:
    target: str
    statement: str
    confidence: int
    evidence: tuple[int, ...]
    termination_analysis: str


@dataclass(frozen=True)
class BatchRules:
    """What a batch is checked against. `owners` maps every cited id that exists to its
    session; `analysed` holds the ids of the log the model was shown."""

    session_id: Any
    owners: Mapping[int, Any]
    analysed: Collection[int]
    abnormal: bool
    max_hypotheses: int


def cited_ids(data: Any) -> set[int]:
    """Every integer event id the batch cites, to resolve before validating."""
    ids: set[int] = set()
    for item in _items(data) or []:
        if isinstance(item, dict) and isinstance(item.get("evidence"), list):
            ids.update(i for i in item["evidence"] if _is_int(i))
    return ids


def batch_validate(data: Any, *, rules: BatchRules) -> tuple[list[HypothesisDraft], list[str]]:
    """(drafts, []) for a valid batch; ([], errors) otherwise — never part of a batch."""
    items = _items(data)
    if items is None:
        return [], ["(root): send {'hypotheses': [...]} with at least one hypothesis."]
    errors: list[str] = []
    if not items:
        errors.append("hypotheses: the batch is empty; send at least one hypothesis.")
    if len(items) > rules.max_hypotheses:
        errors.append(f"hypotheses: at most {rules.max_hypotheses} per batch, got {len(items)}.")
    drafts = []
    for index, item in enumerate(items):
        draft, problems = _hypothesis(item, f"hypotheses[{index}]", rules)
        errors += problems
        if draft is not None:
            drafts.append(draft)
    if rules.abnormal and drafts and not any(d.termination_analysis for d in drafts):
        errors.append(
            "termination_analysis: the session ended abnormally; at least one hypothesis must "
            "analyse the termination in `termination_analysis`."
        )
    return ([], errors) if errors else (drafts, [])


def _items(data: Any) -> list[Any] | None:
    if not isinstance(data, dict) or not isinstance(data.get("hypotheses"), list):
        return None
    return data["hypotheses"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hypothesis(
    item: Any, path: str, rules: BatchRules
) -> tuple[HypothesisDraft | None, list[str]]:
    if not isinstance(item, dict):
        return None, [f"{path}: must be an object."]
    errors = [f"{path}.{key}: unknown field." for key in sorted(set(item) - _FIELDS)]
    target = item.get("target")
    if target not in HypothesisTarget.values:
        errors.append(f"{path}.target: must be one of {', '.join(HypothesisTarget.values)}.")
    statement = item.get("statement")
    if not isinstance(statement, str) or not statement.strip():
        errors.append(f"{path}.statement: must be a non-empty string.")
    elif len(statement) > STATEMENT_MAX:
        errors.append(f"{path}.statement: at most {STATEMENT_MAX} characters.")
    confidence = item.get("confidence")
    if not _is_int(confidence) or not 0 <= confidence <= CONFIDENCE_MAX:
        errors.append(
            f"{path}.confidence: must be an integer from 0 to {CONFIDENCE_MAX}, "
            f"got {_shown(confidence)}."
        )
    analysis = item.get("termination_analysis")
    if analysis is not None and not isinstance(analysis, str):
        errors.append(f"{path}.termination_analysis: must be a string or null.")
    elif analysis and len(analysis) > TERMINATION_ANALYSIS_MAX:
        errors.append(
            f"{path}.termination_analysis: at most {TERMINATION_ANALYSIS_MAX} characters."
        )
    errors += _evidence_errors(item.get("evidence"), f"{path}.evidence", rules)
    if errors:
        return None, errors
    draft = HypothesisDraft(
        target=target,
        statement=statement.strip(),
        confidence=confidence,
        evidence=tuple(dict.fromkeys(item["evidence"])),
        termination_analysis=(analysis or "").strip(),
    )
    return draft, []


def _evidence_errors(evidence: Any, path: str, rules: BatchRules) -> list[str]:
    if not isinstance(evidence, list) or not evidence:
        return [f"{path}: must be a non-empty list of event ids from the log."]
    if len(evidence) > EVIDENCE_MAX:
        return [f"{path}: at most {EVIDENCE_MAX} events."]
    errors = []
    for index, event_id in enumerate(evidence):
        where = f"{path}[{index}]"
        if not _is_int(event_id):
            errors.append(f"{where}: event ids are integers, got {_shown(event_id)}.")
        elif event_id not in rules.owners:
            errors.append(f"{where}: event {event_id} does not exist.")
        elif rules.owners[event_id] != rules.session_id:
            errors.append(
                f"{where}: event {event_id} belongs to another session; cite only events of "
                "the session under analysis."
            )
        elif event_id not in rules.analysed:
            errors.append(
                f"{where}: event {event_id} is the psychologist's own record, not evidence; "
                "cite events of the log."
            )
    return errors


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
