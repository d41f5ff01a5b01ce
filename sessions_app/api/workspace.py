"""The counselor's workspace over REST (SPEC §9; docs/decisions/0001-a-counselor-takes-over.md):
claim, take over, write to the client, hand back, steer. One view per operation; access first,
then the service.

Who: claim — a counselor alerted about the session or one who may read it (caseload, handoff),
and ops; take over, counselor-messages, hand back — the counselor who holds the session;
steer — counselors and ops who may read it. Clients and services: 403 on a session they can
see, 404 on one they cannot.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app.access import SessionAction, session_for, session_for_claim, session_require
from sessions_app.api.base import ApiView, WriteThrottle, errors, session_operation, validated
from sessions_app.api.serializers import StrictSerializer
from sessions_app.engine import services as engine
from sessions_app.engine.selectors import person_name
from sessions_app.errors import ErrorCode
from sessions_app.models import AskSession

# --- serializers ----------------------------------------------------------------------------


class PersonOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class WorkspaceOutput(serializers.Serializer):
    """Who holds the session and who is speaking."""

    session_id = serializers.UUIDField()
    holder = PersonOutput(allow_null=True)
    handoff_reason = serializers.CharField(allow_blank=True)
    handoff_time = serializers.DateTimeField(allow_null=True)
    alerted_at = serializers.DateTimeField(allow_null=True)
    seconds_to_claim = serializers.IntegerField(
        allow_null=True, help_text="From the first crisis alert to the claim; null: no alert."
    )
    escalations = serializers.IntegerField(help_text="0 none, 1 ops, 2 every counselor on duty.")
    counselor_speaking_since = serializers.DateTimeField(
        allow_null=True, help_text="Set while the holder has taken over: the AI is silent."
    )


class CounselorTextInput(StrictSerializer):
    text = serializers.CharField(max_length=engine.TEXT_MAX)


class SteerInput(StrictSerializer):
    text = serializers.CharField(max_length=engine.STEER_MAX)


class CounselorMessageOutput(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    createdAt = serializers.DateTimeField(source="created_at")


class SteerOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The `steer.noted` event's id.")
    seq = serializers.IntegerField()
    createdAt = serializers.DateTimeField(source="created_at")


def workspace_of(session: AskSession) -> dict[str, Any]:
    session = AskSession.objects.select_related("handoff_counselor").get(pk=session.pk)
    holder = session.handoff_counselor
    seconds = None
    if session.alerted_at and session.handoff_time:
        seconds = max(0, int((session.handoff_time - session.alerted_at).total_seconds()))
    return {
        "session_id": session.pk,
        "holder": {"id": holder.pk, "name": person_name(holder)} if holder else None,
        "handoff_reason": session.handoff_reason,
        "handoff_time": session.handoff_time,
        "alerted_at": session.alerted_at,
        "seconds_to_claim": seconds,
        "escalations": session.alert_escalations,
        "counselor_speaking_since": session.counselor_speaking_since,
    }


def _workspace(session: AskSession) -> Response:
    return Response(WorkspaceOutput(workspace_of(session)).data)


def _staff_session(request: Request, session_id: Any) -> AskSession:
    session = session_for(request.user, session_id, write=True)
    session_require(request.user, session, SessionAction.TAKE_OVER)
    return session


_CRISIS_403 = (ErrorCode.FORBIDDEN, "clients and services; a crisis session that is not yours")
_HOLDER_ERRORS = errors(
    ErrorCode.VALIDATION,
    _CRISIS_403,
    ErrorCode.NOT_FOUND,
    (ErrorCode.NOT_HOLDER, "claim it first, or another counselor holds it"),
    ErrorCode.SESSION_CLOSED,
    ErrorCode.SESSION_CLOSING,
    ErrorCode.NOT_TAKEN_OVER,
    ErrorCode.SESSION_TOO_LONG,
)


class WorkspaceApi(ApiView):
    throttle_classes = [WriteThrottle]


# --- views ----------------------------------------------------------------------------------


class SessionClaimApi(WorkspaceApi):
    @session_operation(
        "ask_sessions_claim",
        WorkspaceOutput,
        errors(
            _CRISIS_403,
            ErrorCode.NOT_FOUND,
            (ErrorCode.ALREADY_CLAIMED, "names who holds it"),
            ErrorCode.SESSION_CLOSED,
        ),
        request=None,
        description="Claim the session: it is handed off to you (counselor_handoff), leaves every "
        "other counselor's crisis queue, and opens to you. For a counselor alerted about it, one "
        "whose caseload holds the client, and ops. Of concurrent claims exactly one wins.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = session_for_claim(request.user, session_id)
        return _workspace(engine.session_claim(session=session, counselor=request.user))


class SessionTakeOverApi(WorkspaceApi):
    @session_operation(
        "ask_sessions_take_over",
        WorkspaceOutput,
        _HOLDER_ERRORS,
        request=None,
        description="The holder takes the conversation over: no agent is called and no card is "
        "dealt until it hands back; what the client writes comes to the holder.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _staff_session(request, session_id)
        return _workspace(engine.session_take_over(session=session, counselor=request.user))


class CounselorMessageApi(WorkspaceApi):
    @session_operation(
        "ask_sessions_counselor_message",
        CounselorMessageOutput,
        _HOLDER_ERRORS,
        status=201,
        request=CounselorTextInput,
        description="The speaking holder writes to the client; the client's `state` lists it "
        "in `counselor_messages`.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _staff_session(request, session_id)
        data = validated(CounselorTextInput(data=request.data))
        message = engine.counselor_message_send(
            session=session, counselor=request.user, text=data["text"]
        )
        return Response(CounselorMessageOutput(message).data, status=201)


class SessionHandBackApi(WorkspaceApi):
    idempotency_staged = True  # the Analyst and the Narrator resume: a model call

    def idempotent_result(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Handed back, and the answer lost with its process: the workspace as it is now.
        return _workspace(_staff_session(request, kwargs["session_id"]))

    @session_operation(
        "ask_sessions_hand_back",
        WorkspaceOutput,
        _HOLDER_ERRORS,
        request=None,
        description="Hand the conversation back to the AI: it resumes at the flow step and "
        "slots where it stood, with the human part of the conversation as the Analyst's recap, "
        "and deals its next card.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _staff_session(request, session_id)
        engine.session_hand_back(session=session, counselor=request.user)
        return _workspace(session)


class SessionSteerApi(WorkspaceApi):
    @session_operation(
        "ask_sessions_steer",
        SteerOutput,
        errors(ErrorCode.VALIDATION, _CRISIS_403, ErrorCode.NOT_FOUND, ErrorCode.SESSION_CLOSED),
        status=201,
        request=SteerInput,
        description="A steer note for the Analyst's next call (counselor guidance). Recorded "
        "as a `steer.noted` event; it never appears in anything the client receives.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = session_for(request.user, session_id, write=True)
        session_require(request.user, session, SessionAction.STEER)
        data = validated(SteerInput(data=request.data))
        event = engine.steer_note_add(session=session, counselor=request.user, text=data["text"])
        return Response(SteerOutput(event).data, status=201)
