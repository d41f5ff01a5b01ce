"""The psychologist's REST API (SPEC §9): reanalyse a session, list hypotheses, accept or
dismiss one. Counselors (their caseload and handoffs) and ops only; clients never."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response

from psychologist import selectors, services
from psychologist.models import Hypothesis
from psychologist.serializers import (
    AnalysisRequestOutput,
    HypothesisListFilter,
    HypothesisOutput,
)
from sessions_app.access import SessionAction, role_require, session_for
from sessions_app.api.base import (
    ApiView,
    KeysetPagination,
    WriteThrottle,
    errors,
    list_filters,
    session_operation,
)
from sessions_app.api.sessions import page_of
from sessions_app.errors import ErrorCode

_HYPOTHESIS_ID = OpenApiParameter("hypothesis_id", int, OpenApiParameter.PATH)
_FORBIDDEN = (ErrorCode.FORBIDDEN, "clients and services; a crisis session outside your caseload")
_DENIALS = (_FORBIDDEN, ErrorCode.NOT_FOUND)


class HypothesisPagination(KeysetPagination):
    ordering = ("-created_at", "-id")


class ReanalyzeApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "psychologist_reanalyze",
        AnalysisRequestOutput,
        errors(*_DENIALS, ErrorCode.SESSION_STILL_ACTIVE),
        status=202,
        request=None,
        description="Analyse a closed session again. The run happens in the background and "
        "always runs; when it concludes, the current analysis is marked superseded (never "
        "deleted) and the new one becomes current. Progress streams as `psychologist.*` "
        "events of the session.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        role_require(request.user, SessionAction.ANALYSE)
        session = session_for(request.user, session_id, write=True)
        analysis_request = services.analysis_reanalyse(session=session, by=request.user)
        return Response(AnalysisRequestOutput(analysis_request).data, status=202)


class HypothesisListApi(ApiView):
    @extend_schema(
        operation_id="psychologist_hypotheses_list",
        parameters=[HypothesisListFilter, OpenApiParameter("cursor", str)],
        responses={
            200: page_of("HypothesisPage", HypothesisOutput(many=True)),
            **errors(ErrorCode.VALIDATION, _FORBIDDEN),
        },
        description="Hypotheses of the sessions you may read, newest first, 20 per page "
        "(keyset cursor); by default only those of current analyses.",
    )
    def get(self, request: Request) -> Response:
        # The role before the filters: a client learns nothing, not even from a 400.
        role_require(request.user, SessionAction.ANALYSE)
        filters = list_filters(request, HypothesisListFilter)
        hypotheses = selectors.hypothesis_list(user=request.user, **filters)
        paginator = HypothesisPagination()
        page = paginator.paginate_queryset(hypotheses, request, view=self)
        return paginator.get_paginated_response(HypothesisOutput(page, many=True).data)


class _HypothesisDecisionApi(ApiView):
    """Accept or dismiss: the subclass names the service and documents the operation."""

    throttle_classes = [WriteThrottle]
    decide: Callable[..., Hypothesis]

    def post(self, request: Request, hypothesis_id: int) -> Response:
        hypothesis = selectors.hypothesis_for(request.user, hypothesis_id, write=True)
        hypothesis = type(self).decide(hypothesis=hypothesis, by=request.user)
        return Response(HypothesisOutput(hypothesis).data)


def _decision_schema(verb: str, description: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=f"psychologist_hypotheses_{verb}",
            parameters=[_HYPOTHESIS_ID],
            request=None,
            responses={
                200: HypothesisOutput,
                **errors(*_DENIALS, (ErrorCode.HYPOTHESIS_DECIDED, "no longer proposed")),
            },
            description=description,
        )
    )


@_decision_schema(
    "accept", "Accept a proposed hypothesis; a client-targeted one joins the client's profile."
)
class HypothesisAcceptApi(_HypothesisDecisionApi):
    decide = services.hypothesis_accept


@_decision_schema(
    "dismiss",
    "Dismiss a proposed hypothesis: it stays on record but leaves the client's context.",
)
class HypothesisDismissApi(_HypothesisDecisionApi):
    decide = services.hypothesis_dismiss
