"""Django admin of the psychologist: bindings, prices, metering, and the analyses with their review
actions (accept, dismiss, reanalyse), scoped for counselors like the sessions themselves."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy

from psychologist import services
from psychologist.models import (
    Analysis,
    AnalysisRequest,
    ClinicalRule,
    Hypothesis,
    HypothesisEvidence,
    LLMCall,
    ModelBinding,
    ModelPrice,
)
from sessions_app.admin import CounselorScopedAdmin, NoWrites, ReadOnlyInline
from sessions_app.errors import ApplicationError
from sessions_app.models import AskSession
from sessions_app.roles import Role, role_of


@admin.register(ModelBinding)
class ModelBindingAdmin(admin.ModelAdmin):
    list_display = ["agent", "provider", "model", "updated_at"]
    list_editable = ["provider", "model"]
    list_filter = ["provider"]


@admin.register(ModelPrice)
class ModelPriceAdmin(admin.ModelAdmin):
    """Micro-USD per million tokens; metering reads an edit within a minute."""

    list_display = ["model", "input", "output", "cache_read", "cache_write", "updated_at"]
    list_editable = ["input", "output", "cache_read", "cache_write"]
    search_fields = ["model"]


@admin.register(LLMCall)
class LLMCallAdmin(NoWrites, admin.ModelAdmin):
    """Read-only: metering rows are facts, written only by `record_call`."""

    list_display = [
        "created_at",
        "agent",
        "provider",
        "model",
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "cost_micro_usd",
        "latency_ms",
        "stop_reason",
        "ok",
        "error_code",
    ]
    list_filter = ["agent", "provider", "ok", "model"]
    list_select_related = ["session"]
    raw_id_fields = ["session"]
    date_hierarchy = "created_at"


# The admin actions' reports, singular and plural (ngettext picks by the count decided).
ACCEPTED = ngettext_lazy(
    "%(done)d accepted; %(skipped)d skipped (no longer proposed).",
    "%(done)d accepted; %(skipped)d skipped (no longer proposed).",
    "done",
)
DISMISSED = ngettext_lazy(
    "%(done)d dismissed; %(skipped)d skipped (no longer proposed).",
    "%(done)d dismissed; %(skipped)d skipped (no longer proposed).",
    "done",
)


class ReadOnlyAdmin(NoWrites, CounselorScopedAdmin):
    """The psychologist's records change only through services, which append their events;
    the admin shows them and acts on them through actions, never by editing a row."""

    def has_analyse_permission(self, request: HttpRequest) -> bool:
        return role_of(request.user) in {Role.COUNSELOR, Role.OPS}

    @admin.action(
        description=_("Reanalyse the sessions of the selected rows"), permissions=["analyse"]
    )
    def reanalyse(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        sessions = AskSession.objects.filter(pk__in=queryset.values("session_id"))
        requested, refused = 0, 0
        for session in sessions:
            try:
                services.analysis_reanalyse(session=session, by=request.user)
                requested += 1
            except ApplicationError:
                refused += 1
        self.message_user(
            request,
            ngettext(
                "%(requested)d reanalysis requested; %(refused)d refused (active or deleted).",
                "%(requested)d reanalysis requested; %(refused)d refused (active or deleted).",
                requested,
            )
            % {"requested": requested, "refused": refused},
        )


class HypothesisInline(ReadOnlyInline):
    model = Hypothesis
    fk_name = "analysis"
    fields = readonly_fields = ("target", "confidence", "status", "statement", "decided_at")
    ordering = ("position",)


class EvidenceInline(ReadOnlyInline):
    model = HypothesisEvidence
    fields = readonly_fields = ("event", "event_type", "event_seq")
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[HypothesisEvidence]:
        return super().get_queryset(request).select_related("event").order_by("event__seq")

    @admin.display(description=_("Type"))
    def event_type(self, obj: HypothesisEvidence) -> str:
        return obj.event.type

    @admin.display(description=_("Seq"))
    def event_seq(self, obj: HypothesisEvidence) -> int:
        return obj.event.seq


@admin.register(Analysis)
class AnalysisAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "session",
        "tier",
        "triggered_by",
        "termination_cause",
        "superseded",
        "iterations",
        "cost_micro_usd",
        "model",
        "created_at",
    )
    list_filter = ("tier", "triggered_by", "termination_cause", "superseded", "provider")
    search_fields = ("=session__id", "session__session_title", "session__user__username")
    list_select_related = ("session",)
    date_hierarchy = "created_at"
    inlines = (HypothesisInline,)
    actions = ("reanalyse",)


@admin.register(Hypothesis)
class HypothesisAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "session",
        "target",
        "confidence",
        "status",
        "short_statement",
        "decided_by",
        "created_at",
    )
    list_filter = ("status", "target", "analysis__tier", "analysis__superseded")
    search_fields = ("statement", "termination_analysis", "session__user__username")
    list_select_related = ("session", "decided_by")
    date_hierarchy = "created_at"
    inlines = (EvidenceInline,)
    actions = ("accept", "dismiss", "reanalyse")

    @admin.display(description=_("Statement"))
    def short_statement(self, obj: Hypothesis) -> str:
        return obj.statement if len(obj.statement) <= 90 else obj.statement[:89] + "…"

    @admin.action(description=_("Accept the selected proposed hypotheses"), permissions=["analyse"])
    def accept(self, request: HttpRequest, queryset: QuerySet[Hypothesis]) -> None:
        self._decide(request, queryset, services.hypothesis_accept, ACCEPTED)

    @admin.action(
        description=_("Dismiss the selected proposed hypotheses"), permissions=["analyse"]
    )
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Hypothesis]) -> None:
        self._decide(request, queryset, services.hypothesis_dismiss, DISMISSED)

    def _decide(
        self,
        request: HttpRequest,
        queryset: QuerySet[Hypothesis],
        decide: Any,
        outcome: Any,
    ) -> None:
        done, skipped = 0, 0
        for hypothesis in queryset.select_related("session"):
            try:
                decide(hypothesis=hypothesis, by=request.user)
                done += 1
            except ApplicationError:
                skipped += 1
        self.message_user(request, outcome % {"done": done, "skipped": skipped})


@admin.register(AnalysisRequest)
class AnalysisRequestAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "session",
        "triggered_by",
        "requested_by",
        "status",
        "attempts",
        "last_error",
        "created_at",
    )
    list_filter = ("status", "triggered_by")
    search_fields = ("=session__id", "session__user__username", "last_error")
    list_select_related = ("session", "requested_by")
    date_hierarchy = "created_at"
    actions = ("reanalyse",)


@admin.register(ClinicalRule)
class ClinicalRuleAdmin(admin.ModelAdmin):
    """The clinical team's rules, given to every analysis in `position` order when active."""

    list_display = ("title", "active", "position", "updated_at")
    list_editable = ("active", "position")
    list_filter = ("active",)
    search_fields = ("title", "text")
