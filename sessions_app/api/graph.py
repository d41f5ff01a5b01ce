"""The session graph over REST (SPEC §5, §9): tree, fork, worklines, spin-off.

Reads are open to whoever may read the session; writes to its owner, its counselors and
services, and only while the session is active (a closed session's history stays as it was).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app.access import SessionAction, session_for, session_require
from sessions_app.api.base import ApiView, WriteThrottle, errors, session_operation, validated
from sessions_app.api.serializers import MessageFieldsOutput, StrictSerializer
from sessions_app.engine import services as engine
from sessions_app.engine.selectors import scope_strip, session_tree, workline_path, worklines_index
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.models import AskMessage, AskSession, SpinOffProposal, Workline
from sessions_app.privacy import client_may_read_message
from sessions_app.roles import Role, role_of

_READ_ERRORS = errors(ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND)
_WRITE_ERRORS = errors(
    (ErrorCode.VALIDATION, "closed session, message or workline elsewhere, bad range"),
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.SESSION_TOO_LONG,
)


class MessageNodeOutput(MessageFieldsOutput):
    children = serializers.ListField(child=serializers.IntegerField())


class WorklineOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    head_id = serializers.IntegerField(allow_null=True)
    message_count = serializers.IntegerField()
    open_cards = serializers.IntegerField()
    is_active = serializers.BooleanField()


class ScopeOutput(serializers.Serializer):
    branches = serializers.IntegerField()
    open_worklines = serializers.IntegerField()
    open_batch = serializers.IntegerField()
    last_decision = serializers.DictField(allow_null=True)


class TreeOutput(serializers.Serializer):
    messages = MessageNodeOutput(many=True)
    roots = serializers.ListField(child=serializers.IntegerField())
    branch_points = serializers.ListField(child=serializers.IntegerField())
    active_workline_id = serializers.IntegerField(allow_null=True)
    timeline = serializers.ListField(
        child=serializers.IntegerField(), help_text="Message ids, root → head of the active line."
    )
    worklines = WorklineOutput(many=True)
    scope = ScopeOutput()


class ForkInput(StrictSerializer):
    message_id = serializers.IntegerField()


class WorklineInput(StrictSerializer):
    name = serializers.CharField(max_length=80)


class SpinOffInput(StrictSerializer):
    from_message_id = serializers.IntegerField()
    to_message_id = serializers.IntegerField()
    target_workline_id = serializers.IntegerField(required=False)
    new_workline_name = serializers.CharField(max_length=80, required=False)


class SpinOffDecisionInput(StrictSerializer):
    agreed = serializers.BooleanField()


class SpinOffOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    source_workline_id = serializers.IntegerField(source="source_id")
    target_workline_id = serializers.IntegerField(source="target_id", allow_null=True)
    new_workline_name = serializers.CharField()
    from_message_id = serializers.IntegerField()
    to_message_id = serializers.IntegerField()


def _tree_document(session: AskSession, user: Any) -> dict[str, Any]:
    session.refresh_from_db(fields=["active_workline"])
    tree = session_tree(session)
    client = role_of(user) is Role.CLIENT
    nodes = []
    for node in tree.nodes.values():
        item = vars(node).copy()
        if client and not client_may_read_message(node.role):
            item["text"] = ""
        nodes.append(item)
    active = session.active_workline
    timeline = [m.pk for m in workline_path(active)] if active else []
    return TreeOutput(
        {
            "messages": nodes,
            "roots": tree.roots,
            "branch_points": tree.branch_points,
            "active_workline_id": session.active_workline_id,
            "timeline": timeline,
            "worklines": [vars(w) for w in worklines_index(session)],
            "scope": vars(scope_strip(session)),
        }
    ).data


def _writable(request: Request, session_id: Any) -> AskSession:
    session = session_for(request.user, session_id, write=True)
    session_require(request.user, session, SessionAction.GRAPH)
    if not session.is_active:
        raise ApplicationError(ErrorCode.VALIDATION, "The session is closed; its history is fixed.")
    return session


def _message(session: AskSession, message_id: int, field: str) -> AskMessage:
    message = AskMessage.objects.filter(pk=message_id, session=session).first()
    if message is None:
        raise ApplicationError(
            ErrorCode.VALIDATION,
            "Invalid input.",
            fields={field: ["Not a message of this session."]},
        )
    return message


def _workline(session: AskSession, workline_id: Any) -> Workline:
    workline = Workline.objects.filter(pk=workline_id, session=session).first()
    if workline is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, "Workline not found.")
    return workline


class SessionTreeApi(ApiView):
    @session_operation(
        "ask_sessions_tree",
        TreeOutput,
        _READ_ERRORS,
        description="The message tree with parent ids, the active line, worklines and scope.",
    )
    def get(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id)
        return Response(_tree_document(session, request.user))


class SessionForkApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_fork",
        TreeOutput,
        _WRITE_ERRORS,
        request=ForkInput,
        description="Continue from a message: the active workline's head moves there; the next "
        "message becomes its child. Nothing is deleted.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _writable(request, session_id)
        data = validated(ForkInput(data=request.data))
        message = _message(session, data["message_id"], "message_id")
        engine.message_fork(session=session, from_message=message, by=request.user)
        return Response(_tree_document(session, request.user))


class WorklineListApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_worklines",
        WorklineOutput(many=True),
        errors(ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND),
    )
    def get(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id)
        return Response(WorklineOutput([vars(w) for w in worklines_index(session)], many=True).data)

    @session_operation(
        "ask_sessions_worklines_create",
        WorklineOutput,
        _WRITE_ERRORS,
        status=201,
        request=WorklineInput,
        description="Start a new workline and make it the active one (the old one is parked).",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _writable(request, session_id)
        data = validated(WorklineInput(data=request.data))
        workline = engine.workline_create(session=session, name=data["name"], by=request.user)
        return Response(_summary(session, workline.pk), status=201)


def _summary(session: AskSession, workline_id: int) -> dict[str, Any]:
    summary = next(w for w in worklines_index(session) if w.id == workline_id)
    return WorklineOutput(vars(summary)).data


class WorklineActivateApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_worklines_activate",
        WorklineOutput,
        _WRITE_ERRORS,
        parameters=(OpenApiParameter("workline_id", int, OpenApiParameter.PATH),),
        request=None,
        description="Switch focus to a workline; each keeps its own head and open cards.",
    )
    def post(self, request: Request, session_id: Any, workline_id: int) -> Response:
        session = _writable(request, session_id)
        workline = _workline(session, workline_id)
        engine.workline_activate(session=session, workline=workline, by=request.user)
        return Response(_summary(session, workline.pk))


class SpinOffApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_spin_off",
        SpinOffOutput,
        _WRITE_ERRORS,
        status=201,
        request=SpinOffInput,
        description="Propose moving messages A…B into another workline (new or existing). "
        "Nothing moves until the proposal is agreed.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _writable(request, session_id)
        data = validated(SpinOffInput(data=request.data))
        target = None
        if "target_workline_id" in data:
            target = _workline(session, data["target_workline_id"])
        proposal = engine.spin_off_propose(
            session=session,
            from_message=_message(session, data["from_message_id"], "from_message_id"),
            to_message=_message(session, data["to_message_id"], "to_message_id"),
            target_workline=target,
            new_workline_name=data.get("new_workline_name", ""),
            by=request.user,
        )
        return Response(SpinOffOutput(proposal).data, status=201)


class SpinOffDecideApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_spin_off_decide",
        SpinOffOutput,
        _WRITE_ERRORS,
        parameters=(OpenApiParameter("proposal_id", int, OpenApiParameter.PATH),),
        request=SpinOffDecisionInput,
        description="Agree (the range moves, a marker stays behind) or decline (nothing changes).",
    )
    def post(self, request: Request, session_id: Any, proposal_id: int) -> Response:
        session = _writable(request, session_id)
        data = validated(SpinOffDecisionInput(data=request.data))
        proposal = SpinOffProposal.objects.filter(pk=proposal_id, session=session).first()
        if proposal is None:
            raise ApplicationError(ErrorCode.NOT_FOUND, "Spin-off proposal not found.")
        proposal = engine.spin_off_decide(proposal=proposal, agreed=data["agreed"], by=request.user)
        return Response(SpinOffOutput(proposal).data)
