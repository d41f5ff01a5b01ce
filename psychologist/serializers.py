"""Explicit Input/Output serializers of the psychologist API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from psychologist.models import (
    AnalysisRequest,
    AnalysisTier,
    HypothesisStatus,
    HypothesisTarget,
    TerminationCause,
)


class HypothesisListFilter(serializers.Serializer):
    session = serializers.UUIDField(required=False, help_text="Only this session's (`_id`).")
    target = serializers.ChoiceField(choices=HypothesisTarget.choices, required=False)
    status = serializers.ChoiceField(choices=HypothesisStatus.choices, required=False)
    include_superseded = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Also hypotheses of analyses a reanalysis superseded (history).",
    )


class EvidenceOutput(serializers.Serializer):
    """One cited event: enough to draw a chip that opens the session at that event."""

    event_id = serializers.IntegerField(source="event.id")
    seq = serializers.IntegerField(source="event.seq")
    type = serializers.CharField(source="event.type")
    created_at = serializers.DateTimeField(source="event.created_at")


class AnalysisSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    tier = serializers.ChoiceField(choices=AnalysisTier.choices)
    triggered_by = serializers.ChoiceField(choices=AnalysisRequest.TriggeredBy.choices)
    termination_cause = serializers.ChoiceField(choices=TerminationCause.choices)
    superseded = serializers.BooleanField()
    iterations = serializers.IntegerField()
    model = serializers.CharField()
    cost_micro_usd = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class HypothesisOutput(serializers.Serializer):
    id = serializers.IntegerField()
    session_id = serializers.UUIDField()
    analysis = AnalysisSummaryOutput()
    target = serializers.ChoiceField(choices=HypothesisTarget.choices)
    statement = serializers.CharField()
    confidence = serializers.IntegerField(min_value=0, max_value=100)
    termination_analysis = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=HypothesisStatus.choices)
    decided_by = serializers.IntegerField(source="decided_by_id", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    evidence = EvidenceOutput(many=True)

    def get_termination_analysis(self, hypothesis: Any) -> str | None:
        return hypothesis.termination_analysis or None


class AnalysisRequestOutput(serializers.Serializer):
    id = serializers.IntegerField()
    session_id = serializers.UUIDField()
    triggered_by = serializers.ChoiceField(choices=AnalysisRequest.TriggeredBy.choices)
    status = serializers.ChoiceField(choices=AnalysisRequest.Status.choices)
    attempts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
