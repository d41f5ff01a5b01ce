from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from psychologist.models import LLMCall, ModelBinding


@admin.register(ModelBinding)
class ModelBindingAdmin(admin.ModelAdmin):
    list_display = ["agent", "provider", "model", "updated_at"]
    list_editable = ["provider", "model"]
    list_filter = ["provider"]


@admin.register(LLMCall)
class LLMCallAdmin(admin.ModelAdmin):
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

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LLMCall | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: LLMCall | None = None) -> bool:
        return False
