"""CBT homework over REST (SPEC §9): `GET /api/ask/tasks`, `GET/PATCH
/api/ask/tasks/{id}`, `POST …/accept|skip|done`. Clients read and act on their own tasks;
counselors read their caseload's; ops and services read all. Access through
`access.task_for`, writes through `engine.services`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app import selectors
from sessions_app.access import task_for
from sessions_app.api.base import (
    ApiView,
    KeysetPagination,
    WriteThrottle,
    errors,
    list_filters,
    validated,
)
from sessions_app.api.serializers import StrictSerializer
from sessions_app.api.sessions import page_of
from sessions_app.engine import services as engine
from sessions_app.errors import ErrorCode
from sessions_app.models import Task, TaskKind, TaskStatus
from sessions_app.models.tasks import TASK_NOTE_MAX
from sessions_app.privacy import TASK_FIELD_PRIVACY, Privacy

TASK_ID = OpenApiParameter(
    "task_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The task's `_id`."
)
TRANSITION_ERRORS = errors(
    (ErrorCode.FORBIDDEN, "only the task's client acts on it"),
    ErrorCode.NOT_FOUND,
    (ErrorCode.TASK_STATE, "not allowed from the task's status"),
)


class TemplateFieldOutput(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(choices=["text", "rating"], help_text="rating: 0–100.")
    label = serializers.CharField()


class TaskOutput(serializers.Serializer):
    """A task in JSON names; every field is in `privacy.TASK_FIELD_PRIVACY` (none is P3)."""

    _id = serializers.UUIDField(source="id")
    user_id = serializers.IntegerField()
    session_id = serializers.UUIDField(help_text="The session that proposed it.")
    kind = serializers.ChoiceField(choices=TaskKind.choices)
    title = serializers.CharField()
    instructions = serializers.CharField(allow_blank=True)
    template = TemplateFieldOutput(many=True)
    due_date = serializers.DateField()
    status = serializers.ChoiceField(choices=TaskStatus.choices)
    entries = serializers.DictField(help_text="The client's entries, by template field name.")
    completion_note = serializers.CharField(allow_blank=True)
    rating_before = serializers.IntegerField(allow_null=True)
    rating_after = serializers.IntegerField(allow_null=True)
    review_session_id = serializers.UUIDField(
        allow_null=True, help_text="The session whose opening picked it up."
    )
    review_message_id = serializers.IntegerField(
        allow_null=True, help_text="The client's answer there about how it went."
    )
    createdAt = serializers.DateTimeField(source="created_at")
    updatedAt = serializers.DateTimeField(source="updated_at")
    acceptedAt = serializers.DateTimeField(source="accepted_at", allow_null=True)
    finishedAt = serializers.DateTimeField(source="finished_at", allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        data = super().to_representation(instance)
        level = self.context.get("max_privacy", Privacy.P2)
        return {k: v for k, v in data.items() if TASK_FIELD_PRIVACY.get(k, Privacy.P3) <= level}


class TaskListFilter(serializers.Serializer):
    status = serializers.ChoiceField(choices=TaskStatus.choices, required=False)


class TaskPatchInput(StrictSerializer):
    min_fields = 1

    entries = serializers.JSONField(
        required=False, help_text="Fields of the task's template; ratings are integers 0–100."
    )
    completion_note = serializers.CharField(
        max_length=TASK_NOTE_MAX, allow_blank=True, required=False
    )


class TaskDoneInput(StrictSerializer):
    completion_note = serializers.CharField(
        max_length=TASK_NOTE_MAX, allow_blank=True, required=False
    )


class TaskPagination(KeysetPagination):
    ordering = ("-created_at", "position", "id")


def _output(task: Task) -> dict[str, Any]:
    return TaskOutput(task).data


class TaskListApi(ApiView):
    @extend_schema(
        operation_id="ask_tasks_list",
        parameters=[TaskListFilter, OpenApiParameter("cursor", str)],
        responses={200: page_of("TaskPage", TaskOutput(many=True)), **errors(ErrorCode.VALIDATION)},
        description="CBT homework, newest first, 20 per page. Clients see their own, counselors "
        "their caseload's, ops and services all. Filter by `status`.",
    )
    def get(self, request: Request) -> Response:
        filters = list_filters(request, TaskListFilter)
        tasks = selectors.task_list(user=request.user, status=filters.get("status"))
        paginator = TaskPagination()
        page = paginator.paginate_queryset(tasks, request, view=self)
        return paginator.get_paginated_response(TaskOutput(page, many=True).data)


class TaskDetailApi(ApiView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        operation_id="ask_tasks_retrieve",
        parameters=[TASK_ID],
        responses={200: TaskOutput, **errors(ErrorCode.NOT_FOUND)},
    )
    def get(self, request: Request, task_id: Any) -> Response:
        return Response(_output(task_for(request.user, task_id)))

    @extend_schema(
        operation_id="ask_tasks_partial_update",
        parameters=[TASK_ID],
        request=TaskPatchInput,
        responses={
            200: TaskOutput,
            **TRANSITION_ERRORS,
            **errors((ErrorCode.VALIDATION, "fields named `entries.<field>`")),
        },
        description="The client fills its homework in: `entries` are merged into what is "
        "there and checked against the kind's template; `completion_note` replaces the note. "
        "An accepted or done task only.",
    )
    def patch(self, request: Request, task_id: Any) -> Response:
        task = task_for(request.user, task_id, write=True)
        data = validated(TaskPatchInput(data=request.data))
        change = engine.EntriesChange(data.get("entries"), data.get("completion_note"))
        task = engine.task_entries_update(task=task, by=request.user, change=change)
        return Response(_output(task))


def _transition(operation_id: str, description: str, request: Any = None) -> Any:
    return extend_schema(
        operation_id=operation_id,
        parameters=[TASK_ID],
        request=request,
        responses={200: TaskOutput, **TRANSITION_ERRORS},
        description=description,
    )


class TaskAcceptApi(ApiView):
    throttle_classes = [WriteThrottle]

    @_transition(
        "ask_tasks_accept",
        "Take a proposed task on (it joins its session's `generated_task_ids`). Again: no change.",
    )
    def post(self, request: Request, task_id: Any) -> Response:
        task = task_for(request.user, task_id, write=True)
        return Response(_output(engine.task_accept(task=task, by=request.user)))


class TaskSkipApi(ApiView):
    throttle_classes = [WriteThrottle]

    @_transition("ask_tasks_skip", "Decline a proposed task, or let an accepted one go.")
    def post(self, request: Request, task_id: Any) -> Response:
        task = task_for(request.user, task_id, write=True)
        return Response(_output(engine.task_skip(task=task, by=request.user)))


class TaskDoneApi(ApiView):
    throttle_classes = [WriteThrottle]

    @_transition(
        "ask_tasks_done",
        "Mark an accepted task done, optionally with a completion note. Again: no change.",
        request=TaskDoneInput,
    )
    def post(self, request: Request, task_id: Any) -> Response:
        task = task_for(request.user, task_id, write=True)
        data = validated(TaskDoneInput(data=request.data or {}))
        task = engine.task_done(
            task=task, by=request.user, completion_note=data.get("completion_note")
        )
        return Response(_output(task))
