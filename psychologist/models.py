"""The psychologist app: the post-session analysis (SPEC §6) — requests, analyses, hypotheses
with their evidence, clinical rules — and, re-exported, the LLM layer's bindings and metering."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# The LLM layer's tables belong to this app; importing them here registers them with it.
from psychologist.llm.models import (  # noqa: F401
    LLMAgent,
    LLMCall,
    LLMProviderName,
    ModelBinding,
    ModelPrice,
)
from sessions_app.models import TerminationReason, in_choices


class AnalysisRequest(models.Model):
    """One request to analyse a closed session, enqueued in the transaction that closed it.

    It counts its own attempts: a worker killed mid-task can be redelivered past django-q's
    `max_attempts`, so the request itself decides when a poison session stops (SPEC §10).
    """

    class TriggeredBy(models.TextChoices):
        AUTO = "auto", _("Session close")
        MANUAL = "manual", _("Manual reanalyse")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

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
            # The Meta cannot see the enums above it: their values, written out.
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


class AnalysisTier(models.TextChoices):
    LIGHT = "light", _("Light")
    HEAVY = "heavy", _("Heavy")


# The classifier's output (`psychologist.termination`): the session's `termination_reason`, or
# graceful when it has none. Derived, so that a new reason is a cause too.
TerminationCause = models.TextChoices(
    "TerminationCause",
    [
        ("GRACEFUL", ("graceful", _("Graceful close"))),
        *((reason.name, (reason.value, reason.label)) for reason in TerminationReason),
    ],
)


class AnalysisQuerySet(models.QuerySet["Analysis"]):
    def current(self) -> AnalysisQuerySet:
        return self.filter(superseded=False)


class Analysis(models.Model):
    """A concluded analysis of one session. Born only when a run ends with a valid batch, so a
    failed run leaves nothing that would block its retry (ADR decision 5). A manual reanalyse
    marks the previous one superseded; nothing is ever deleted."""

    Tier = AnalysisTier
    TriggeredBy = AnalysisRequest.TriggeredBy

    session = models.ForeignKey(
        "sessions_app.AskSession", on_delete=models.CASCADE, related_name="analyses"
    )
    request = models.OneToOneField(
        AnalysisRequest, on_delete=models.PROTECT, related_name="analysis"
    )
    tier = models.CharField(max_length=8, choices=AnalysisTier.choices)
    # The binding that served the run: the agent the tier chose, and what it resolved to.
    agent = models.CharField(max_length=24, choices=LLMAgent.choices)
    provider = models.CharField(max_length=16, choices=LLMProviderName.choices)
    model = models.CharField(max_length=80)
    triggered_by = models.CharField(max_length=8, choices=AnalysisRequest.TriggeredBy.choices)
    termination_cause = models.CharField(max_length=20, choices=TerminationCause.choices)
    superseded = models.BooleanField(default=False)
    superseded_at = models.DateTimeField(null=True, blank=True)
    iterations = models.PositiveSmallIntegerField(default=0)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    cache_write_tokens = models.PositiveIntegerField(default=0)
    cost_micro_usd = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AnalysisQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "analyses"
        indexes = [models.Index(fields=["session", "-created_at"], name="analysis_session_idx")]
        constraints = [
            # At most one current analysis per session: the idempotency key of ADR decision 5.
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(superseded=False),
                name="analysis_one_current_per_session",
            ),
            in_choices("tier", AnalysisTier, "analysis_tier_valid"),
            in_choices("termination_cause", TerminationCause, "analysis_termination_cause_valid"),
            models.CheckConstraint(
                condition=Q(superseded=False, superseded_at__isnull=True)
                | Q(superseded=True, superseded_at__isnull=False),
                name="analysis_superseded_at_iff_superseded",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis {self.pk} ({self.tier}{', superseded' if self.superseded else ''})"


class HypothesisTarget(models.TextChoices):
    CLIENT = "client", _("Client")
    ANALYST = "analyst", _("Analyst")
    NARRATOR = "narrator", _("Narrator")
    FLOW = "flow", _("Flow")


class HypothesisStatus(models.TextChoices):
    PROPOSED = "proposed", _("Proposed")
    ACCEPTED = "accepted", _("Accepted")
    DISMISSED = "dismissed", _("Dismissed")


CONFIDENCE_MAX = 100


class Hypothesis(models.Model):
    """One evidence-backed hypothesis. Events are immutable, so the review state lives here;
    every transition also appends its own event (ADR decision 4)."""

    Target = HypothesisTarget
    Status = HypothesisStatus

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="hypotheses")
    session = models.ForeignKey(
        "sessions_app.AskSession", on_delete=models.CASCADE, related_name="hypotheses"
    )
    position = models.PositiveSmallIntegerField(default=0)
    target = models.CharField(max_length=10, choices=HypothesisTarget.choices)
    statement = models.TextField()
    confidence = models.PositiveSmallIntegerField()
    termination_analysis = models.TextField(blank=True, default="")
    status = models.CharField(
        max_length=10, choices=HypothesisStatus.choices, default=HypothesisStatus.PROPOSED
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "hypotheses"
        indexes = [
            models.Index(fields=["session", "-created_at"], name="hypothesis_session_idx"),
            models.Index(fields=["status", "-created_at"], name="hypothesis_status_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(confidence__gte=0, confidence__lte=CONFIDENCE_MAX),
                name="hypothesis_confidence_0_100",
            ),
            in_choices("target", HypothesisTarget, "hypothesis_target_valid"),
            in_choices("status", HypothesisStatus, "hypothesis_status_valid"),
            models.CheckConstraint(
                condition=Q(status=HypothesisStatus.PROPOSED, decided_at__isnull=True)
                | (~Q(status=HypothesisStatus.PROPOSED) & Q(decided_at__isnull=False)),
                name="hypothesis_decided_at_iff_decided",
            ),
        ]

    def __str__(self) -> str:
        return f"Hypothesis {self.pk} ({self.target}, {self.confidence}%, {self.status})"


class HypothesisEvidence(models.Model):
    """One event a hypothesis cites. The analysis validated that it belongs to the session."""

    hypothesis = models.ForeignKey(Hypothesis, on_delete=models.CASCADE, related_name="evidence")
    # PROTECT: events are never deleted, and evidence must keep resolving.
    event = models.ForeignKey(
        "sessions_app.SessionEvent", on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["hypothesis", "event"]
        verbose_name_plural = "hypothesis evidence"
        constraints = [
            models.UniqueConstraint(fields=["hypothesis", "event"], name="evidence_unique_event"),
        ]

    def __str__(self) -> str:
        return f"Evidence {self.hypothesis_id} → event {self.event_id}"


class ClinicalRule(models.Model):
    """A business rule of the clinical team, edited in admin and given to every analysis."""

    title = models.CharField(max_length=120)
    text = models.TextField()
    active = models.BooleanField(default=True)
    position = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.title
