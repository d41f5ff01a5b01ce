"""The turn loop over REST (SPEC §9): `GET …/state` and the POSTs that move a session on. Each
answers with the same state document. Access first (`session_for`), then the owner rule: only
the session's client acts; its counselors, ops and services may read the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app.access import forbidden, session_for
from sessions_app.api import stream
from sessions_app.api.base import (
    ApiView,
    WriteThrottle,
    described,
    errors,
    query_of,
    session_operation,
    validated,
)
from sessions_app.api.errors import ErrorOutput
from sessions_app.api.serializers import StrictSerializer
from sessions_app.engine import services as engine
from sessions_app.engine.selectors import session_state, turn_state
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.models import AskSession, CardKind, TaskKind, TaskStatus
from sessions_app.roles import Role, role_of

# --- serializers ----------------------------------------------------------------------------


class CardOutput(serializers.Serializer):
    id = serializers.CharField()
    text = serializers.CharField()
    type = serializers.ChoiceField(choices=["open"])
    kind = serializers.ChoiceField(
        choices=CardKind.values,
        help_text="topic/question/open/fallback/scheduler/crisis_resources/task_review (how "
        "the last homework went)/screening (the safety net asks): answer with POST answers; "
        "completion: POST end or continue; last_thing: POST last-thing.",
    )


class PairOutput(serializers.Serializer):
    question = serializers.CharField(allow_blank=True)
    answer = serializers.CharField()


class WorklineRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class NoticeOutput(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["intro", "insight", "closing", "reply", "crisis_resources"]
    )
    text = serializers.CharField()
    items = serializers.ListField(child=serializers.CharField(), help_text="Hooks or resources.")


class HomeworkTaskOutput(serializers.Serializer):
    _id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=TaskKind.choices)
    title = serializers.CharField()
    instructions = serializers.CharField(allow_blank=True)
    due_date = serializers.DateField()
    status = serializers.ChoiceField(choices=TaskStatus.choices)


class HomeworkOutput(serializers.Serializer):
    text = serializers.CharField()
    tasks = HomeworkTaskOutput(many=True)


class CounselorOutput(serializers.Serializer):
    name = serializers.CharField()
    since = serializers.DateTimeField()


class CounselorLineOutput(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    createdAt = serializers.DateTimeField()


class PendingOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["batch"])
    since = serializers.IntegerField(
        help_text="The session's event seq when the batch was completed: its cards are the "
        "events after it (the stream's `Last-Event-ID`, the long poll's `since`)."
    )


class StateOutput(serializers.Serializer):
    """The one document a client needs to render or resume a session."""

    phase = serializers.ChoiceField(choices=AskSession.Phase.choices)
    status = serializers.ChoiceField(choices=AskSession.Status.choices)
    turn_count = serializers.IntegerField()
    ready_to_close = serializers.BooleanField()
    current_card = CardOutput(allow_null=True)
    pending = PendingOutput(
        allow_null=True,
        help_text="The answer completed a batch and the next one is being made: show the "
        "character's brief animation until its first card arrives (on the stream, the "
        "websocket, `state?wait=` or with `Prefer: wait=N` on the answer). Null otherwise.",
    )
    answered = PairOutput(many=True)
    workline = WorklineRefOutput(allow_null=True)
    notice = NoticeOutput(allow_null=True)
    homework = HomeworkOutput(
        allow_null=True,
        help_text="At the closing: the homework the session proposes; accept or decline each "
        "with POST /api/ask/tasks/{id}/accept or /skip.",
    )
    engine = serializers.CharField(
        help_text='Which engine drives the dialogue: "offline" (the rule-based offline '
        'engine), "anthropic" or "scripted".'
    )
    counselor = CounselorOutput(
        allow_null=True,
        help_text="A person has joined: while set, no card comes; what the client writes with "
        "POST messages goes to them.",
    )
    counselor_messages = CounselorLineOutput(many=True, help_text="What counselors wrote.")


class AnswerInput(StrictSerializer):
    card_id = serializers.CharField(max_length=64)
    text = serializers.CharField(max_length=engine.TEXT_MAX)


class MessageInput(StrictSerializer):
    text = serializers.CharField(max_length=engine.TEXT_MAX)


class EmptyInput(StrictSerializer):
    """No fields."""


class LastThingInput(StrictSerializer):
    text = serializers.CharField(max_length=engine.TEXT_MAX, required=False)
    finish = serializers.BooleanField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == bool(attrs.get("finish")):
            raise serializers.ValidationError({"text": ['Send {"text"} or {"finish": true}.']})
        return attrs


# --- views ----------------------------------------------------------------------------------


class ConflictOutput(ErrorOutput):
    """A 409 of the turn loop; a card answered already comes with the state to show instead."""

    state = StateOutput(
        required=False,
        help_text="E_CARD_ANSWERED only: the current state document, as GET state returns it.",
    )


_TURN_ERRORS = errors(
    (ErrorCode.VALIDATION, "not the current card, closed session, empty or oversized text"),
    (ErrorCode.FORBIDDEN, "only the session's client acts"),
    ErrorCode.NOT_FOUND,
) | {
    409: OpenApiResponse(
        ConflictOutput,
        description=described(
            (
                ErrorCode.CARD_ANSWERED,
                "one card takes exactly one answer: a second tap, a retry or a concurrent "
                "request; `state` is the current state",
            ),
            ErrorCode.SESSION_TOO_LONG,
            (ErrorCode.COUNSELOR_SPEAKING, "continue/end while a counselor speaks"),
        ),
    )
}


def _owner_session(request: Request, session_id: Any) -> AskSession:
    session = session_for(request.user, session_id, write=True)
    if role_of(request.user) is not Role.CLIENT or session.user_id != request.user.pk:
        raise forbidden("Only the session's client takes turns.")
    return session


def _state(session: AskSession) -> Response:
    return Response(StateOutput(session_state(session)).data)


def _after(session: AskSession, turn: Callable[[], engine.TurnResult]) -> Response:
    """Take the turn and answer with the state document built from the turn's own rows (no
    second read of the session); a card answered already is a 409 with the current state."""
    try:
        result = turn()
    except ApplicationError as exc:
        if exc.code == ErrorCode.CARD_ANSWERED:
            exc.extra = {"state": StateOutput(session_state(session)).data}
        raise
    return Response(StateOutput(turn_state(result)).data)


class TurnApi(ApiView):
    throttle_classes = [WriteThrottle]
    idempotency_staged = True

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        # `Prefer: wait=N` on an answer that completed a batch: the state once its cards are
        # dealt (or `pending` after N seconds), waited for in the event loop. An Idempotency-Key
        # replay gives the answer as it was first made.
        response = super().finalize_response(request, response, *args, **kwargs)
        waited = stream.batch_waited(
            request,
            response,
            kwargs.get("session_id"),
            lambda session: StateOutput(session_state(session)).data,
        )
        return waited or response

    def idempotent_result(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # The turn committed and its answer was lost with its process: the state it led to.
        return _state(_owner_session(request, kwargs["session_id"]))


class SessionStateApi(ApiView):
    @session_operation(
        "ask_sessions_state",
        StateOutput,
        errors(
            (ErrorCode.VALIDATION, "with wait: a malformed wait or since"),
            ErrorCode.FORBIDDEN,
            ErrorCode.NOT_FOUND,
        ),
        parameters=stream.WAIT_PARAMETERS,
        description="The resume point: phase, the current card, the answered pairs, "
        "ready_to_close. Its owner, its counselors, ops and services may read it. With `wait`, "
        "a long poll: the state once the session has moved on.",
    )
    def get(self, request: Request, session_id: Any) -> Response | StreamingHttpResponse:
        session = session_for(request.user, session_id)
        if "wait" in request.query_params:
            waiting = stream.waited(
                session, query_of(request), lambda fresh: StateOutput(session_state(fresh)).data
            )
            if waiting is not None:
                return waiting
        return _state(session)


class SessionAnswerApi(TurnApi):
    @session_operation(
        "ask_sessions_answer",
        StateOutput,
        _TURN_ERRORS,
        request=AnswerInput,
        description="Answer the current card. The answer is stored before anything else; the "
        "next card comes without a model call, or after the Analyst when the batch is done.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _owner_session(request, session_id)
        data = validated(AnswerInput(data=request.data))
        return _after(
            session,
            lambda: engine.answer_submit(
                session=session, card_id=data["card_id"], text=data["text"]
            ),
        )


class SessionMessageApi(TurnApi):
    @session_operation(
        "ask_sessions_message",
        StateOutput,
        _TURN_ERRORS,
        request=MessageInput,
        description="Free text: the topic, the answer to a scheduler card, or words said "
        "without a card.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _owner_session(request, session_id)
        data = validated(MessageInput(data=request.data))
        return _after(session, lambda: engine.message_submit(session=session, text=data["text"]))


class SessionContinueApi(TurnApi):
    @session_operation(
        "ask_sessions_continue",
        StateOutput,
        _TURN_ERRORS,
        request=EmptyInput,
        description="Continue after the completion card: ready_to_close is cleared.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _owner_session(request, session_id)
        validated(EmptyInput(data=request.data))
        return _after(session, lambda: engine.session_continue(session=session))


class SessionEndApi(TurnApi):
    @session_operation(
        "ask_sessions_end",
        StateOutput,
        _TURN_ERRORS,
        request=EmptyInput,
        description="End: the summary, the warm closing line with the next session's day, "
        "then the one-last-thing card.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _owner_session(request, session_id)
        validated(EmptyInput(data=request.data))
        return _after(session, lambda: engine.session_end(session=session))


class SessionLastThingApi(TurnApi):
    @session_operation(
        "ask_sessions_last_thing",
        StateOutput,
        _TURN_ERRORS,
        request=LastThingInput,
        description='{"text"}: a note (or a wish to move the next session); {"finish": true}: '
        "close the session.",
    )
    def post(self, request: Request, session_id: Any) -> Response:
        session = _owner_session(request, session_id)
        data = validated(LastThingInput(data=request.data))
        return _after(
            session,
            lambda: engine.last_thing_submit(
                session=session, text=data.get("text"), finish=bool(data.get("finish"))
            ),
        )
