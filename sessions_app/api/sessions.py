"""The sessions REST API (SPEC §9): one view per resource, explicit serializers, access through
`access.session_for`, writes through `services`."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app import selectors, services
from sessions_app.access import (
    SessionAction,
    creatable_fields,
    forbidden,
    max_privacy_for,
    patchable_fields,
    session_for,
    session_require,
)
from sessions_app.api.base import (
    ApiView,
    ExportThrottle,
    NotificationPagination,
    SessionPagination,
    WriteThrottle,
    errors,
    list_filters,
    session_operation,
    validated,
)
from sessions_app.api.serializers import (
    ExportInput,
    ExportOutput,
    ModalityInput,
    NotificationListFilter,
    NotificationOutput,
    SessionCreateInput,
    SessionListFilter,
    SessionListItemOutput,
    SessionOutput,
    SessionPatchInput,
    credential_impossible,
    session_list_columns,
    session_list_items,
)
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.privacy import CLIENT_MAX_PRIVACY, Privacy
from sessions_app.roles import Role, role_of

logger = logging.getLogger(__name__)
User = get_user_model()


def page_of(name: str, item: serializers.Serializer) -> serializers.Serializer:
    return inline_serializer(
        name=name,
        fields={
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item,
        },
    )


def _context(request: Request) -> dict[str, Any]:
    return {"request": request, "max_privacy": max_privacy_for(request.user)}


class SessionListApi(ApiView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        operation_id="ask_sessions_list",
        parameters=[SessionListFilter, OpenApiParameter("cursor", str)],
        responses={
            200: page_of("SessionPage", SessionListItemOutput(many=True)),
            **errors((ErrorCode.VALIDATION, "risk filters are for staff, include_deleted for ops")),
        },
        description="History, `createdAt` desc, 20 per page (keyset cursor). Clients see their "
        "own sessions, counselors their caseload and handoffs, ops and services all. Each row "
        "holds the history's columns; `GET …/sessions/{id}` has the whole session.",
    )
    def get(self, request: Request) -> Response:
        filters = list_filters(request, SessionListFilter)
        _check_list_filters(request.user, filters)
        sessions = selectors.session_list(user=request.user, **filters)
        paginator = SessionPagination()
        rows = sessions.values(*session_list_columns())
        page = paginator.paginate_queryset(rows, request, view=self)
        data = session_list_items(page, max_privacy_for(request.user))
        return paginator.get_paginated_response(data)

    @extend_schema(
        operation_id="ask_sessions_create",
        request=SessionCreateInput,
        responses={
            201: SessionOutput,
            **errors(
                ErrorCode.VALIDATION,
                ErrorCode.SESSION_AGENT_INVALID,
                (ErrorCode.FORBIDDEN, "only clients and services create"),
                ErrorCode.SESSION_ACTIVE_EXISTS,
            ),
        },
        description="Create and start a session. Clients create for themselves; services "
        "name the client in `user_id` and may set `initial_risk_level`.",
    )
    def post(self, request: Request) -> Response:
        role = role_of(request.user)
        if role not in (Role.CLIENT, Role.SERVICE):
            raise forbidden("Only clients and services create sessions.")
        context = {"writable": creatable_fields(request.user)}
        data = validated(SessionCreateInput(data=request.data, context=context))
        owner = request.user if role is Role.CLIENT else _client_named(data.pop("user_id", None))
        if role is Role.CLIENT:
            # Before the engine reads it: a first session is in the language the app asks for.
            services.profile_ensure(
                user=owner, accept_language=request.headers.get("Accept-Language", "")
            )
        session = services.session_create(owner=owner, actor=request.user, **data)
        return Response(SessionOutput(session, context=_context(request)).data, status=201)


def _check_list_filters(user: Any, filters: dict[str, Any]) -> None:
    # A risk filter would let a client learn its sessions' P3 risk levels: refused, not ignored.
    fields: dict[str, list[str]] = {}
    if max_privacy_for(user) < Privacy.P3:
        for name in selectors.RISK_FILTERS:
            if name in filters:
                fields[name] = ["Risk filters are available to staff only."]
    if filters.get("include_deleted") and role_of(user) is not Role.OPS:
        fields["include_deleted"] = ["Only ops may list deleted sessions."]
    if fields:
        raise ApplicationError(ErrorCode.VALIDATION, "Invalid input.", fields=fields)


def _client_named(user_id: int | None) -> Any:
    client = User.objects.filter(pk=user_id).first() if user_id else None
    if client is None or role_of(client) is not Role.CLIENT:
        raise ApplicationError(
            ErrorCode.VALIDATION, "Invalid input.", fields={"user_id": ["Name an existing client."]}
        )
    return client


class SessionDetailApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_retrieve",
        SessionOutput,
        errors(
            (ErrorCode.FORBIDDEN, "crisis session outside the counselor's caseload"),
            ErrorCode.NOT_FOUND,
        ),
    )
    def get(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id)
        return Response(SessionOutput(session, context=_context(request)).data)

    @session_operation(
        "ask_sessions_partial_update",
        SessionOutput,
        errors(
            (ErrorCode.VALIDATION, "unknown, read-only or not writable by your role"),
            ErrorCode.SESSION_AGENT_INVALID,
            ErrorCode.FORBIDDEN,
            ErrorCode.NOT_FOUND,
            ErrorCode.SESSION_TOO_LONG,
            ErrorCode.SESSION_VOICE_DISABLED,
            ErrorCode.SESSION_FILE_MISMATCH,
        ),
        request=SessionPatchInput,
        description="Owner: session_title, satisfaction_score, follow_up_needed, voice_config, "
        "custom_agent_id, agent_origin. Counselor/ops: final_risk_level, session_summary, "
        "follow_up_needed. Service: every field listed in the request body.\n\n"
        "A PATCH only raises risk, whoever sends it: lowering `initial_risk_level` or "
        "`final_risk_level` (null is L0), setting `final_risk_level` under the level the "
        "session began at, clearing `intervention_triggered` or changing the `session_type` "
        "of a `crisis_intervention` session is `400 E_VALIDATION` naming each field, and "
        "nothing is written. A counselor or ops lowers the level with `POST …/risk` and a "
        "reason (`risk.changed`); a crisis session's markers and initial level are history "
        "and stay.",
    )
    def patch(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id, write=True)
        session_require(request.user, session, SessionAction.UPDATE)
        context = {"writable": patchable_fields(request.user)}
        changes = validated(SessionPatchInput(data=request.data, context=context))
        session = services.session_update(session=session, actor=request.user, changes=changes)
        return Response(SessionOutput(session, context=_context(request)).data)

    @session_operation(
        "ask_sessions_destroy",
        None,
        errors(ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND),
        status=204,
        description="Soft delete (owner or ops); the content is anonymised in the background.",
    )
    def delete(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id, write=True)
        session_require(request.user, session, SessionAction.DELETE)
        services.session_delete(session=session, actor=request.user)
        return Response(status=204)


class SessionModalityApi(ApiView):
    throttle_classes = [WriteThrottle]

    @session_operation(
        "ask_sessions_modality_update",
        SessionOutput,
        errors(
            ErrorCode.VALIDATION,
            ErrorCode.FORBIDDEN,
            ErrorCode.NOT_FOUND,
            (
                ErrorCode.SESSION_VOICE_DISABLED,
                "audio count changed while voice_config.enable_tts and modality_flags.audio are "
                "both off",
            ),
            (
                ErrorCode.SESSION_FILE_MISMATCH,
                "attachment_count differs from the attachments stored in the session's messages",
            ),
        ),
        request=ModalityInput,
    )
    def patch(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id, write=True)
        session_require(request.user, session, SessionAction.MODALITY)
        changes = validated(ModalityInput(data=request.data))
        session = services.session_modality_update(session=session, actor=request.user, **changes)
        return Response(SessionOutput(session, context=_context(request)).data)


class SessionByDifyApi(ApiView):
    @extend_schema(
        operation_id="ask_sessions_by_dify",
        responses={
            200: SessionOutput,
            **errors(
                (ErrorCode.FORBIDDEN, "services and ops only"), ErrorCode.DIFY_SESSION_NOT_FOUND
            ),
        },
        description="The session mapped to an orchestrator conversation id (services, ops).",
    )
    def get(self, request: Request, dify_conversation_id: Any) -> Response:
        if role_of(request.user) not in (Role.SERVICE, Role.OPS):
            raise forbidden("Lookup by dify_conversation_id is for services and ops.")
        session = selectors.session_by_dify(
            user=request.user, dify_conversation_id=dify_conversation_id
        )
        return Response(SessionOutput(session, context=_context(request)).data)


class NotificationListApi(ApiView):
    @extend_schema(
        operation_id="notifications_list",
        parameters=[NotificationListFilter, OpenApiParameter("cursor", str)],
        responses={
            200: page_of("NotificationPage", NotificationOutput(many=True)),
            **errors(ErrorCode.VALIDATION),
        },
        description="The caller's inbox: due notifications, newest first, 20 per page.",
    )
    def get(self, request: Request) -> Response:
        filters = list_filters(request, NotificationListFilter)
        notifications = selectors.notification_list(
            user=request.user, unread_only=filters["unread"]
        )
        paginator = NotificationPagination()
        page = paginator.paginate_queryset(notifications, request, view=self)
        data = NotificationOutput(page, many=True, context=_context(request)).data
        return paginator.get_paginated_response(data)


class NotificationReadApi(ApiView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        operation_id="notifications_mark_read",
        request=None,
        responses={200: NotificationOutput, **errors(ErrorCode.NOT_FOUND)},
    )
    def post(self, request: Request, notification_id: int) -> Response:
        notification = selectors.notification_for(request.user, notification_id)
        notification = services.notification_mark_read(notification=notification)
        return Response(NotificationOutput(notification, context=_context(request)).data)


class ExportApi(ApiView):
    throttle_classes = [ExportThrottle]
    # Replaying would mean storing a copy of every transcript beside the data, out of reach of
    # anonymisation; and an export changes nothing, so a retry is already harmless.
    idempotency_exempt = "read-only; the response holds the client's whole history"

    @extend_schema(
        operation_id="ask_export",
        request=ExportInput,
        responses={
            200: ExportOutput,
            **errors(
                ErrorCode.VALIDATION,
                (
                    ErrorCode.PASSWORD_INVALID,
                    "wrong password, also one holding a NUL character or a lone surrogate",
                ),
                (ErrorCode.FORBIDDEN, "clients only"),
            ),
        },
        description="All of the caller's own sessions, messages, homework and profile, after "
        "re-entering the password. P3 fields are never included.",
    )
    def post(self, request: Request) -> Response:
        if role_of(request.user) is not Role.CLIENT:
            raise forbidden("Only clients export their data.")
        data = validated(ExportInput(data=request.data))
        password = data["password"]
        if credential_impossible(password) or not request.user.check_password(password):
            raise ApplicationError(ErrorCode.PASSWORD_INVALID, "The password is wrong.")
        body = {
            "exported_at": timezone.now(),
            "user": request.user,
            "profile": selectors.export_profile(user=request.user),
            "sessions": selectors.export_sessions(user=request.user),
            "tasks": selectors.export_tasks(user=request.user),
        }
        logger.info("data export user=%s", request.user.pk)
        # Always the client view, whatever changes elsewhere: P3 never leaves in an export.
        context = {"request": request, "max_privacy": CLIENT_MAX_PRIVACY}
        return Response(ExportOutput(body, context=context).data)
