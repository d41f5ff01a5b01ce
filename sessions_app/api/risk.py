"""`POST /api/ask/sessions/{id}/risk`: a counselor or ops changes the risk level by hand; lowering
it needs a written reason, and the log keeps who, when, from what and why (SPEC §3)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app.access import SessionAction, role_require, session_for
from sessions_app.api.base import ApiView, WriteThrottle, errors, session_operation, validated
from sessions_app.api.serializers import StrictSerializer
from sessions_app.engine import services as engine
from sessions_app.engine.selectors import risk_now
from sessions_app.errors import ErrorCode
from sessions_app.models import RiskLevel


class RiskInput(StrictSerializer):
    level = serializers.ChoiceField(choices=RiskLevel.choices)
    reason = serializers.CharField(max_length=engine.REASON_MAX, required=False, allow_blank=True)


class RiskOutput(serializers.Serializer):
    previous = serializers.ChoiceField(choices=RiskLevel.choices)
    level = serializers.ChoiceField(choices=RiskLevel.choices)
    reason = serializers.CharField()


class SessionRiskApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_risk",
        RiskOutput,
        errors(
            (
                ErrorCode.VALIDATION,
                "no reason for a lower level, the same level, below the level the session began at",
            ),
            (ErrorCode.FORBIDDEN, "clients and services; a crisis session not yours"),
            ErrorCode.NOT_FOUND,
        ),
        request=RiskInput,
        description="Raise or lower the risk level. Lowering needs a reason; the event "
        "`risk.changed` records the old and new level, who and why. Raising it to L3/L4 takes "
        "the crisis path (`risk.escalated`): the crisis flow, the on-duty counselors alerted, "
        "the escalation clock.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        role_require(request.user, SessionAction.RISK)
        session = session_for(request.user, session_id, write=True)
        data = validated(RiskInput(data=request.data))
        previous = risk_now(session)
        engine.risk_level_set(
            session=session, level=data["level"], reason=data.get("reason", ""), by=request.user
        )
        body = {"previous": previous, "level": data["level"], "reason": data.get("reason", "")}
        return Response(RiskOutput(body).data)
