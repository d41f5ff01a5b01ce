"""CBT homework (the schema's `tasks`, referenced by `generated_task_ids`; SPEC §2): what a
session proposes at its closing, the client does between sessions, and the next session picks
up. The client's entries follow the kind's template; the two 0–100 ratings a template carries
(before and after: a thought record's intensity and its re-rating) are columns too, so the
database refuses an out-of-range rating whatever path wrote it, and statistics need no JSON.
"""

from __future__ import annotations

import uuid
from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from sessions_app.models.base import in_choices
from sessions_app.models.sessions import AskMessage, AskSession

__all__ = [
    "OPEN_STATUSES",
    "RATING_MAX",
    "TASK_TRANSITIONS",
    "Task",
    "TaskKind",
    "TaskQuerySet",
    "TaskStatus",
]

TASK_TITLE_MAX = 120
TASK_INSTRUCTIONS_MAX = 1200
TASK_NOTE_MAX = 2000
RATING_MAX = 100


class TaskKind(models.TextChoices):
    THOUGHT_RECORD = "thought_record", _("Thought record")
    BEHAVIORAL_EXPERIMENT = "behavioral_experiment", _("Behavioral experiment")
    ACTIVITY_SCHEDULING = "activity_scheduling", _("Activity scheduling")
    EXPOSURE_STEP = "exposure_step", _("Exposure step")
    RELAXATION = "relaxation", _("Relaxation")
    CUSTOM = "custom", _("Custom")


class TaskStatus(models.TextChoices):
    PROPOSED = "proposed", _("Proposed")
    ACCEPTED = "accepted", _("Accepted")
    DONE = "done", _("Done")
    SKIPPED = "skipped", _("Skipped")
    EXPIRED = "expired", _("Expired")


# proposed → accepted → done | skipped | expired; a proposal may also be declined (skipped) or
# left to expire. The final states are final.
TASK_TRANSITIONS: dict[str, frozenset[str]] = {
    TaskStatus.PROPOSED: frozenset({TaskStatus.ACCEPTED, TaskStatus.SKIPPED, TaskStatus.EXPIRED}),
    TaskStatus.ACCEPTED: frozenset({TaskStatus.DONE, TaskStatus.SKIPPED, TaskStatus.EXPIRED}),
    TaskStatus.DONE: frozenset(),
    TaskStatus.SKIPPED: frozenset(),
    TaskStatus.EXPIRED: frozenset(),
}
OPEN_STATUSES = (TaskStatus.PROPOSED, TaskStatus.ACCEPTED)


class TaskQuerySet(models.QuerySet["Task"]):
    def open(self) -> TaskQuerySet:
        return self.filter(status__in=OPEN_STATUSES)

    def overdue(self, today: date) -> TaskQuerySet:
        """Open tasks whose due date lies before `today` (the caller subtracts the grace)."""
        return self.open().filter(due_date__lt=today)


def _rating_valid(field: str) -> Q:
    return Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0, f"{field}__lte": RATING_MAX})


class Task(models.Model):
    """One piece of homework for one client, proposed by one session."""

    Kind = TaskKind
    Status = TaskStatus

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tasks"
    )
    session = models.ForeignKey(
        AskSession, on_delete=models.PROTECT, related_name="tasks", help_text="Proposed in."
    )
    position = models.PositiveSmallIntegerField(default=1)
    kind = models.CharField(max_length=24, choices=TaskKind.choices)
    title = models.CharField(max_length=TASK_TITLE_MAX)
    instructions = models.TextField(max_length=TASK_INSTRUCTIONS_MAX, blank=True, default="")
    # The entry fields the kind asks for: [{"name", "type": "text" | "rating", "label"}]; empty
    # for a task without a structured template.
    template = models.JSONField(default=list, blank=True)
    due_date = models.DateField()
    status = models.CharField(max_length=10, choices=TaskStatus.choices, default="proposed")
    entries = models.JSONField(default=dict, blank=True)
    completion_note = models.TextField(max_length=TASK_NOTE_MAX, blank=True, default="")
    rating_before = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # Picked up next time: the session whose opening named it, and the client's answer there.
    review_session = models.ForeignKey(
        AskSession,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reviewed_tasks",
    )
    review_message = models.ForeignKey(
        AskMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, help_text="Done, skipped, expired.")

    objects = TaskQuerySet.as_manager()

    class Meta:
        db_table = "tasks"
        ordering = ["-created_at", "position"]
        indexes = [
            models.Index(fields=["user", "status", "-created_at"], name="task_user_status_idx"),
            models.Index(
                fields=["due_date"],
                condition=Q(status__in=["proposed", "accepted"]),
                name="task_open_due_idx",
            ),
        ]
        constraints = [
            in_choices("kind", TaskKind, "task_kind_valid"),
            in_choices("status", TaskStatus, "task_status_valid"),
            models.CheckConstraint(condition=_rating_valid("rating_before"), name="task_rb_0_100"),
            models.CheckConstraint(condition=_rating_valid("rating_after"), name="task_ra_0_100"),
            models.UniqueConstraint(fields=["session", "position"], name="task_session_position"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES
