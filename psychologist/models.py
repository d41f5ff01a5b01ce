"""The psychologist app: the LLM layer's bindings and metering; later the analysis itself."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q


class LLMAgent(models.TextChoices):
    ANALYST = "analyst", "Analyst"
    NARRATOR = "narrator", "Narrator"
    SUMMARIZER = "summarizer", "Summarizer"
    PSYCHOLOGIST = "psychologist", "Psychologist (heavy)"
    PSYCHOLOGIST_LIGHT = "psychologist-light", "Psychologist (light)"


class LLMProviderName(models.TextChoices):
    ANTHROPIC = "anthropic", "Anthropic"
    OFFLINE = "offline", "Offline engine"
    SCRIPTED = "scripted", "Scripted replay"


class ModelBinding(models.Model):
    """Which provider and model serve an agent. Read on every call, so an edit in admin takes
    effect on the next call; an agent without a row uses `settings.LLM_BINDINGS`."""

    Agent = LLMAgent
    Provider = LLMProviderName

    agent = models.CharField(max_length=24, choices=LLMAgent.choices, unique=True)
    provider = models.CharField(max_length=16, choices=LLMProviderName.choices)
    model = models.CharField(max_length=80)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["agent"]
        constraints = [
            models.CheckConstraint(
                condition=Q(agent__in=LLMAgent.values), name="model_binding_agent_valid"
            ),
            models.CheckConstraint(
                condition=Q(provider__in=LLMProviderName.values),
                name="model_binding_provider_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agent} → {self.provider}:{self.model}"

    def clean(self) -> None:
        # An unpriced model would be metered at zero cost and slip past the analysis budgets.
        if self.provider == LLMProviderName.ANTHROPIC and self.model not in settings.LLM_PRICES:
            raise ValidationError({"model": "Add this model to LLM_PRICES first."})


class LLMCall(models.Model):
    """One metered provider call, written only by `psychologist.llm.metering.record_call`."""

    agent = models.CharField(max_length=24, choices=LLMAgent.choices)
    provider = models.CharField(max_length=16, choices=LLMProviderName.choices)
    model = models.CharField(max_length=80)
    session = models.ForeignKey(
        "sessions_app.AskSession",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="llm_calls",
    )
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    cache_write_tokens = models.PositiveIntegerField(default=0)
    cost_micro_usd = models.PositiveBigIntegerField(default=0)
    latency_ms = models.PositiveIntegerField(default=0)
    stop_reason = models.CharField(max_length=40, blank=True, default="")
    ok = models.BooleanField(default=True)
    error_code = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["session", "created_at"], name="llm_call_session_idx"),
            models.Index(fields=["agent", "-created_at"], name="llm_call_agent_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(ok=True, error_code="") | Q(ok=False) & ~Q(error_code=""),
                name="llm_call_error_code_iff_failed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agent} {self.provider}:{self.model} #{self.pk}"


class AnalysisRequest(models.Model):
    """One request to analyse a closed session, enqueued in the transaction that closed it.

    It counts its own attempts: a worker killed mid-task can be redelivered past django-q's
    `max_attempts`, so the request itself decides when a poison session stops (SPEC §10).
    """

    class TriggeredBy(models.TextChoices):
        AUTO = "auto", "Session close"
        MANUAL = "manual", "Manual reanalyse"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    session = models.ForeignKey(
        "sessions_app.AskSession", on_delete=models.CASCADE, related_name="analysis_requests"
    )
    triggered_by = models.CharField(
        max_length=8, choices=TriggeredBy.choices, default=TriggeredBy.AUTO
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["session", "-created_at"], name="analysis_req_session_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "running", "done", "failed"]),
                name="analysis_request_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(triggered_by__in=["auto", "manual"]),
                name="analysis_request_trigger_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis request {self.pk} ({self.status})"
