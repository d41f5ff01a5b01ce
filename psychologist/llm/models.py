"""The LLM layer's tables: which provider serves an agent, what a model costs, and every
metered call.

They live in the leaf so that its code imports nothing above it; their app is `psychologist`
(the tables and migrations are that app's), which re-exports them from `psychologist.models`.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from psychologist.llm.prices import DEFAULT_PRICES


class LLMAgent(models.TextChoices):
    ANALYST = "analyst", "Analyst"
    NARRATOR = "narrator", "Narrator"
    SUMMARIZER = "summarizer", "Summarizer"
    PSYCHOLOGIST = "psychologist", "Psychologist (heavy)"
    PSYCHOLOGIST_LIGHT = "psychologist-light", "Psychologist (light)"
    # One more opinion on every client message, with a model configured (SPEC §3 Crisis).
    SAFETY = "safety", "Safety check"


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
        app_label = "psychologist"
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
        if self.provider == LLMProviderName.ANTHROPIC and not ModelPrice.priced(self.model):
            raise ValidationError({"model": "Add this model to the model prices first."})


class ModelPrice(models.Model):
    """What a model costs, in micro-USD per million tokens of each kind; ops edit it in admin.
    A model without a row is priced at `prices.DEFAULT_PRICES` (the rows start as those).
    Metering reads the table at most once a minute per process (`metering.prices`)."""

    model = models.CharField(max_length=80, unique=True)
    input = models.PositiveBigIntegerField(help_text="Micro-USD per million input tokens.")
    output = models.PositiveBigIntegerField(help_text="Micro-USD per million output tokens.")
    cache_read = models.PositiveBigIntegerField(
        help_text="Micro-USD per million input tokens read from the prompt cache."
    )
    cache_write = models.PositiveBigIntegerField(
        help_text="Micro-USD per million input tokens written to the prompt cache."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "psychologist"
        ordering = ["model"]

    def __str__(self) -> str:
        return self.model

    @classmethod
    def priced(cls, model: str) -> bool:
        return model in DEFAULT_PRICES or cls.objects.filter(model=model).exists()


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
        app_label = "psychologist"
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["session", "created_at"], name="llm_call_session_idx"),
            models.Index(fields=["agent", "-created_at"], name="llm_call_agent_idx"),
            # `/readyz` reads the last calls per provider on every probe.
            models.Index(fields=["provider", "-created_at"], name="llm_call_provider_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(ok=True, error_code="") | Q(ok=False) & ~Q(error_code=""),
                name="llm_call_error_code_iff_failed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agent} {self.provider}:{self.model} #{self.pk}"
