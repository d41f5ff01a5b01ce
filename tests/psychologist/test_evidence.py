"""ADR decision 3: a batch is valid as a whole or rejected as a whole, with every reason."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from psychologist.evidence import BatchRules, batch_validate, cited_ids

SESSION = uuid.uuid4()
OTHER = uuid.uuid4()
OWNERS = {1: SESSION, 2: SESSION, 3: SESSION, 9: OTHER, 12: SESSION}
ANALYSED = {1, 2, 3}  # 12 is the psychologist's own event of this session


def rules(*, abnormal: bool = False, max_hypotheses: int = 8) -> BatchRules:
    return BatchRules(
        session_id=SESSION,
        owners=OWNERS,
        analysed=ANALYSED,
        abnormal=abnormal,
        max_hypotheses=max_hypotheses,
    )


def hypothesis(**overrides: Any) -> dict[str, Any]:
    return {
        "target": "client",
        "statement": "The client tires towards the end.",
        "confidence": 70,
        "evidence": [2, 3],
        **overrides,
    }


def test_a_valid_batch_becomes_drafts_with_their_evidence():
    drafts, errors = batch_validate(
        {"hypotheses": [hypothesis(), hypothesis(target="flow", evidence=[1, 1])]}, rules=rules()
    )

    assert errors == []
    assert [(d.target, d.evidence) for d in drafts] == [("client", (2, 3)), ("flow", (1,))]
    assert drafts[0].termination_analysis == ""


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"evidence": []}, "evidence: must be a non-empty list"),
        ({"evidence": None}, "evidence: must be a non-empty list"),
        ({"evidence": [404]}, "evidence[0]: event 404 does not exist"),
        ({"evidence": [2, 9]}, "evidence[1]: event 9 belongs to another session"),
        ({"evidence": [12]}, "event 12 is the psychologist's own record"),
        ({"evidence": ["2"]}, "event ids are integers, got '2'"),
        ({"confidence": 150}, "confidence: must be an integer from 0 to 100, got 150"),
        ({"confidence": -1}, "got -1"),
        ({"confidence": 80.5}, "got 80.5"),
        ({"confidence": "80"}, "got '80'"),
        ({"confidence": True}, "got True"),
        ({"target": "astrologer"}, "target: must be one of client, analyst, narrator, flow"),
        ({"statement": "  "}, "statement: must be a non-empty string"),
        ({"mood": "low"}, "mood: unknown field"),
        ({"termination_analysis": 7}, "termination_analysis: must be a string or null"),
    ],
)
def test_one_invalid_hypothesis_rejects_the_whole_batch(override, message):
    batch = {"hypotheses": [hypothesis(), hypothesis(**override)]}

    drafts, errors = batch_validate(batch, rules=rules())

    assert drafts == []
    assert any(message in error for error in errors), errors
    assert all(error.startswith("hypotheses[1]") for error in errors)


def test_every_problem_is_reported_at_once_with_its_path():
    batch = {"hypotheses": [hypothesis(evidence=[9], confidence=150), hypothesis(target="x")]}

    _, errors = batch_validate(batch, rules=rules())

    assert len(errors) == 3
    assert errors[0].startswith("hypotheses[0].confidence")
    assert errors[1].startswith("hypotheses[0].evidence[0]")
    assert errors[2].startswith("hypotheses[1].target")


def test_an_abnormal_end_needs_termination_analysis_in_at_least_one_hypothesis():
    plain = {"hypotheses": [hypothesis(), hypothesis(termination_analysis=None)]}
    analysed = {"hypotheses": [hypothesis(), hypothesis(termination_analysis="It was killed.")]}

    _, errors = batch_validate(plain, rules=rules(abnormal=True))
    drafts, no_errors = batch_validate(analysed, rules=rules(abnormal=True))

    assert errors == [
        "termination_analysis: the session ended abnormally; at least one hypothesis must "
        "analyse the termination in `termination_analysis`."
    ]
    assert no_errors == []
    assert drafts[1].termination_analysis == "It was killed."


@pytest.mark.parametrize(
    "data", [None, [], {}, {"hypotheses": {}}, {"hypotheses": "many"}], ids=repr
)
def test_a_batch_that_is_not_an_object_with_a_list_is_rejected(data):
    drafts, errors = batch_validate(data, rules=rules())

    assert drafts == []
    assert errors == ["(root): send {'hypotheses': [...]} with at least one hypothesis."]


def test_an_empty_batch_and_an_oversized_one_are_rejected():
    _, empty = batch_validate({"hypotheses": []}, rules=rules())
    _, large = batch_validate({"hypotheses": [hypothesis()] * 3}, rules=rules(max_hypotheses=2))

    assert empty == ["hypotheses: the batch is empty; send at least one hypothesis."]
    assert large == ["hypotheses: at most 2 per batch, got 3."]


def test_only_integer_ids_are_resolved_against_the_database():
    batch = {"hypotheses": [hypothesis(evidence=[1, "2", True, 9]), "junk", {"evidence": 3}]}

    assert cited_ids(batch) == {1, 9}
    assert cited_ids("junk") == set()
