"""Django admin for every sessions_app model (SPEC §1 ops, §8 last bullet).

Ops (superusers and the ops group) see every row, soft-deleted ones included. Counselors are
staff with view permissions; their changelists are narrowed to their caseload and hand-offs so
that the admin is not a side door around the crisis rule of §1. The event log can be read here
but never written: `events.event_append` is its only writer.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from sessions_app.access import agents_visible_to
from sessions_app.engine.selectors import risk_now
from sessions_app.engine.services import REASON_MAX, risk_level_set
from sessions_app.models import (
    AskAgent,
    AskMessage,
    AskSession,
    CaseloadAssignment,
    CrisisResource,
    Flow,
    FlowGuard,
    FlowStep,
    Notification,
    RiskLevel,
    SandboxSession,
    SessionEvent,
    Task,
    UserProfile,
    Workline,
)
from sessions_app.roles import Role, role_of


def _sees_everything(request: HttpRequest) -> bool:
    return role_of(request.user) == Role.OPS


def _sessions_of_counselor(user: Any, prefix: str = "") -> Q:
    """Sessions a counselor may read: its caseload's and those handed off to it (SPEC §1)."""
    caseload = CaseloadAssignment.objects.filter(counselor=user).values("client_id")
    # A subquery rather than a join through the assignments, so that a client with several
    # counselors does not repeat rows in the changelist.
    return Q(**{f"{prefix}user_id__in": caseload}) | Q(**{f"{prefix}handoff_counselor": user})


class ScopedAdmin(admin.ModelAdmin):
    """Everything for ops; for anyone else only the rows `scope` leaves."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        return queryset if _sees_everything(request) else self.scope(queryset, request.user)

    def scope(self, queryset: QuerySet[Any], user: Any) -> QuerySet[Any]:
        raise NotImplementedError


class CounselorScopedAdmin(ScopedAdmin):
    """Everything for ops; for anyone else only rows tied to sessions they may read."""

    # Path from this model to its AskSession ("" for AskSession itself, "session__" otherwise).
    session_path: str = "session__"

    def scope(self, queryset: QuerySet[Any], user: Any) -> QuerySet[Any]:
        return queryset.filter(_sessions_of_counselor(user, self.session_path))


class NoWrites:
    """For admins and inlines of rows that change only through services: shown, never added,
    edited or deleted by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(NoWrites, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True


class SessionEventInline(ReadOnlyInline):
    model = SessionEvent
    fields = readonly_fields = ("seq", "type", "actor", "actor_user", "payload", "created_at")
    ordering = ("seq",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[SessionEvent]:
        return super().get_queryset(request).select_related("actor_user").order_by("seq")


class TaskInline(ReadOnlyInline):
    """The homework the session proposed: the client's, shown and never edited."""

    model = Task
    fk_name = "session"
    fields = readonly_fields = ("kind", "title", "status", "due_date", "accepted_at", "finished_at")
    ordering = ("position",)


class WorklineInline(ReadOnlyInline):
    model = Workline
    fk_name = "session"
    fields = readonly_fields = ("name", "status", "head_id", "created_at", "updated_at")


class AskSessionAdminForm(forms.ModelForm):
    """The risk is read-only here: it changes through these two fields, which go through
    `risk_level_set` like the session page (SPEC §3: never down without a reason and an event;
    up into L3/L4 through the one escalation path)."""

    risk_level = forms.ChoiceField(
        label=_("Change the risk level to"),
        choices=[("", "—"), *RiskLevel.choices],
        required=False,
    )
    risk_reason = forms.CharField(
        label=_("Reason for the change"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=REASON_MAX,
        required=False,
        help_text=_("Required to lower the risk; kept in the session's event log."),
    )

    def clean(self) -> dict[str, Any]:
        # The same rules `risk_level_set` enforces, checked before anything is saved.
        data = super().clean()
        level, reason = data.get("risk_level"), (data.get("risk_reason") or "").strip()
        session = self.instance
        if not level:
            return data
        current = risk_now(session)
        if level == current:
            self.add_error(
                "risk_level", _("The risk level is %(level)s already.") % {"level": current}
            )
        elif level < session.initial_risk_level:
            self.add_error(
                "risk_level",
                _("The session began at %(level)s; it cannot go below that.")
                % {"level": session.initial_risk_level},
            )
        elif level < current and not reason:
            self.add_error("risk_reason", _("Say why the risk is lower: it stays on the record."))
        return data


@admin.register(AskSession)
class AskSessionAdmin(CounselorScopedAdmin):
    session_path = ""
    list_display = (
        "__str__",
        "user",
        "session_type",
        "trigger_source",
        "active_agent_key",
        "status",
        "phase",
        "initial_risk_level",
        "final_risk_level",
        "handoff_counselor",
        "message_count",
        "is_deleted",
        "created_at",
    )
    list_filter = (
        "session_type",
        "trigger_source",
        "active_agent_key",
        "agent_origin",
        "cbt_focus",
        "initial_risk_level",
        "final_risk_level",
        "status",
        "phase",
        "termination_reason",
        "intervention_triggered",
        "follow_up_needed",
        "is_deleted",
    )
    search_fields = (
        "session_title",
        "session_summary",
        "=dify_conversation_id",
        "user__username",
        "user__email",
    )
    date_hierarchy = "created_at"
    list_select_related = ("user", "handoff_counselor")
    autocomplete_fields = ("user", "custom_agent", "handoff_counselor")
    raw_id_fields = ("active_workline",)
    form = AskSessionAdminForm
    readonly_fields = (
        "id",
        "created_at",
        "updated_at",
        "event_seq",
        "messages_link",
        # Changed only through the risk fields below (AskSessionAdminForm).
        "initial_risk_level",
        "final_risk_level",
        "intervention_triggered",
        "alerted_at",
    )
    inlines = (WorklineInline, TaskInline, SessionEventInline)
    fieldsets = (
        (None, {"fields": ("id", "user", "dify_conversation_id", "session_title", "locale")}),
        (
            _("Schema: type and agent"),
            {
                "fields": (
                    ("session_type", "trigger_source"),
                    ("active_agent_key", "agent_origin", "custom_agent"),
                    "agent_snapshot",
                    "conversation_variables",
                    ("modality_flags", "voice_config"),
                    "cbt_focus",
                )
            },
        ),
        (
            _("Schema: risk and outcome"),
            {
                "fields": (
                    ("initial_risk_level", "final_risk_level", "intervention_triggered"),
                    "alerted_at",
                    ("risk_level", "risk_reason"),
                    "session_summary",
                    ("key_insights", "cbt_techniques_used", "generated_task_ids"),
                    ("satisfaction_score", "follow_up_needed", "follow_up_at"),
                )
            },
        ),
        (
            _("Counts and times"),
            {
                "fields": (
                    ("message_count", "audio_message_count", "attachment_count"),
                    "duration_seconds",
                    ("created_at", "updated_at", "ended_at"),
                    ("is_deleted", "deleted_at"),
                    "messages_link",
                )
            },
        ),
        (
            _("Counselor handoff"),
            {"fields": ("handoff_reason", "handoff_counselor", "handoff_time")},
        ),
        (
            _("Engine state"),
            {
                "classes": ("collapse",),
                "fields": (
                    ("status", "phase", "termination_reason"),
                    ("turn_count", "ready_to_close", "last_activity_at"),
                    "active_workline",
                    ("current_intent_code", "current_step_code"),
                    "slots",
                    ("handoff_count", "soft_insertion_count"),
                    ("suspended_intent", "resumable_step_code"),
                    "resumable_slots",
                    "event_seq",
                ),
            },
        ),
    )

    @admin.display(description=_("Messages"))
    def messages_link(self, obj: AskSession) -> str:
        if obj.pk is None:
            return "—"
        url = reverse("admin:sessions_app_askmessage_changelist")
        return format_html(
            '<a href="{}?session__id__exact={}">{} messages</a>', url, obj.pk, obj.messages.count()
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A crisis session's type is its history, as `intervention_triggered` is: a PATCH does
        # not clear it (services.session_update), nor does the admin.
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and obj.session_type == AskSession.SessionType.CRISIS_INTERVENTION:
            return (*fields, "session_type")
        return fields

    def save_model(self, request: HttpRequest, obj: AskSession, form: Any, change: bool) -> None:
        if change:
            # Only what the form changed: a full save would write back the risk as it was read,
            # undoing an escalation committed since the page was opened.
            columns = {field.name for field in AskSession._meta.concrete_fields}
            changed = [name for name in form.changed_data if name in columns]
            if changed:
                obj.save(update_fields=[*changed, "updated_at"])
        else:
            obj.save()
        level = form.cleaned_data.get("risk_level")
        if level:
            reason = form.cleaned_data.get("risk_reason", "")
            risk_level_set(session=obj, level=level, reason=reason, by=request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Sessions are soft-deleted (schema §5: kept for audit); their events are protected
        # rows, so a hard delete would fail half-way anyway.
        return False


@admin.register(Workline)
class WorklineAdmin(CounselorScopedAdmin):
    list_display = ("name", "session", "status", "head", "created_at")
    list_filter = ("status",)
    search_fields = ("name", "session__session_title", "session__user__username")
    list_select_related = ("session", "head")
    autocomplete_fields = ("session",)
    raw_id_fields = ("head",)


@admin.register(AskMessage)
class AskMessageAdmin(CounselorScopedAdmin):
    list_display = ("__str__", "session", "role", "kind", "modality", "short_text", "created_at")
    list_filter = ("role", "kind", "modality")
    search_fields = ("text", "session__session_title", "session__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("session",)
    autocomplete_fields = ("session", "workline")
    raw_id_fields = ("parent",)

    @admin.display(description=_("Text"))
    def short_text(self, obj: AskMessage) -> str:
        return obj.text if len(obj.text) <= 80 else f"{obj.text[:79]}…"


@admin.register(SessionEvent)
class SessionEventAdmin(NoWrites, CounselorScopedAdmin):
    """Read-only: the log is append-only and written only by `events.event_append`."""

    list_display = ("session", "seq", "type", "actor", "actor_user", "created_at")
    list_filter = ("type", "actor")
    search_fields = ("type", "session__session_title", "session__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("session", "actor_user")
    ordering = ("-created_at", "-id")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]


@admin.register(AskAgent)
class AskAgentAdmin(ScopedAdmin):
    list_display = ("name", "key", "origin", "owner", "version", "external_agent_id")
    list_filter = ("key", "origin")
    search_fields = ("name", "persona", "external_agent_id", "owner__username")
    list_select_related = ("owner",)
    autocomplete_fields = ("owner",)

    def scope(self, queryset: QuerySet[AskAgent], user: Any) -> QuerySet[AskAgent]:
        # A client's custom agent names that client: the caseload's only, as its sessions.
        return queryset & agents_visible_to(user)


@admin.register(UserProfile)
class UserProfileAdmin(ScopedAdmin):
    list_display = (
        "user",
        "display_name",
        "locale",
        "time_zone",
        "schedule_weekdays",
        "schedule_time",
        "session_count",
        "missed_in_row",
        "on_duty",
    )
    list_filter = ("locale", "on_duty", "is_minor", "vault_export_consent")
    search_fields = ("user__username", "user__email", "display_name")
    list_select_related = ("user",)
    autocomplete_fields = ("user",)

    def scope(self, queryset: QuerySet[UserProfile], user: Any) -> QuerySet[UserProfile]:
        caseload = CaseloadAssignment.objects.filter(counselor=user).values("client_id")
        return queryset.filter(Q(user_id__in=caseload) | Q(user=user))


@admin.register(CaseloadAssignment)
class CaseloadAssignmentAdmin(ScopedAdmin):
    list_display = ("counselor", "client", "created_at")
    # Only users who actually are counselors in some assignment, not every user.
    list_filter = (("counselor", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("counselor__username", "client__username")
    list_select_related = ("counselor", "client")
    autocomplete_fields = ("counselor", "client")

    def scope(
        self, queryset: QuerySet[CaseloadAssignment], user: Any
    ) -> QuerySet[CaseloadAssignment]:
        return queryset.filter(counselor=user)


@admin.register(Task)
class TaskAdmin(NoWrites, CounselorScopedAdmin):
    """CBT homework. What it says and what the client wrote in it is the client's:
    staff read it here and change nothing — transitions go through the client's API."""

    list_display = ("title", "user", "kind", "status", "due_date", "session", "created_at")
    list_filter = ("kind", "status", "due_date")
    search_fields = ("title", "user__username", "=session__id")
    date_hierarchy = "created_at"
    list_select_related = ("user", "session")
    readonly_fields = (
        "id",
        "user",
        "session",
        "position",
        "kind",
        "title",
        "instructions",
        "template",
        "due_date",
        "status",
        "entries",
        "completion_note",
        "rating_before",
        "rating_after",
        "review_session",
        "review_message",
        "created_at",
        "updated_at",
        "accepted_at",
        "finished_at",
    )


@admin.register(Notification)
class NotificationAdmin(ScopedAdmin):
    list_display = ("kind", "user", "session", "scheduled_for", "sent_at", "read_at")
    list_filter = ("kind", ("sent_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "dedupe_key")
    date_hierarchy = "scheduled_for"
    list_select_related = ("user", "session")
    autocomplete_fields = ("user", "session")

    def scope(self, queryset: QuerySet[Notification], user: Any) -> QuerySet[Notification]:
        return queryset.filter(user=user)


# --- flows (SPEC §4): edited here, read by the engine on every turn -----------------------------
# Django has no nested inlines: a flow shows its steps inline, each step links to its own page
# where its guards are inline. The engine reads the tables each turn, so a save applies on the
# client's next turn without a restart.


class FlowStepInline(admin.TabularInline):
    model = FlowStep
    extra = 0
    fields = (
        "order",
        "code",
        "allowed_next",
        "prompt_fragment",
        "reply_as_written",
        "guard_codes",
    )
    readonly_fields = ("guard_codes",)
    ordering = ("order", "id")
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[FlowStep]:
        return super().get_queryset(request).prefetch_related("guards")

    @admin.display(description=_("guards"))
    def guard_codes(self, step: FlowStep) -> str:
        return ", ".join(guard.code for guard in step.guards.all()) or "—"


class FlowGuardInline(admin.TabularInline):
    model = FlowGuard
    extra = 0
    fields = ("code", "description", "trigger_slot", "trigger_value", "required_slots")


@admin.register(Flow)
class FlowAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "step_count", "reply_as_written", "updated_at")
    search_fields = ("code", "name")
    inlines = [FlowStepInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Flow]:
        return super().get_queryset(request).annotate(_steps=Count("steps"))

    @admin.display(description=_("steps"), ordering="_steps")
    def step_count(self, flow: Flow) -> int:
        return flow._steps


@admin.register(FlowStep)
class FlowStepAdmin(admin.ModelAdmin):
    list_display = ("code", "flow", "order", "allowed_next")
    list_filter = ("flow",)
    list_select_related = ("flow",)
    search_fields = ("code", "flow__code")
    ordering = ("flow__code", "order")
    inlines = [FlowGuardInline]


@admin.register(FlowGuard)
class FlowGuardAdmin(admin.ModelAdmin):
    list_display = ("code", "step", "trigger_slot", "trigger_value", "required_slots")
    list_select_related = ("step__flow",)
    search_fields = ("code", "step__code", "step__flow__code")
    # A select of every step would read each step's flow for its label: a query per step.
    autocomplete_fields = ("step",)


@admin.register(CrisisResource)
class CrisisResourceAdmin(admin.ModelAdmin):
    """The crisis lines clients are shown, per language and region (region empty: the
    international list for a client whose region is unknown). Check them with each release."""

    list_display = ("name", "contact", "language", "region", "emergency", "position", "active")
    list_editable = ("contact", "position", "active")
    list_filter = ("language", "region", "emergency", "active")
    search_fields = ("name", "contact")
    ordering = ("language", "region", "-emergency", "position")


@admin.register(SandboxSession)
class SandboxSessionAdmin(ScopedAdmin):
    """The sandbox's test sessions: read-only (the sandbox page starts them); a counselor sees
    its own, ops every one."""

    list_display = ("session", "counselor", "provider", "script_position", "created_at")
    list_filter = ("provider",)
    list_select_related = ("session", "counselor")
    readonly_fields = (
        "session",
        "counselor",
        "provider",
        "script",
        "script_position",
        "created_at",
    )

    def scope(self, queryset: QuerySet[SandboxSession], user: Any) -> QuerySet[SandboxSession]:
        return queryset.filter(counselor=user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
