"""Flows as data (SPEC §4): intents, their steps and the guards on them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from sessions_app.models.base import CONVERSATION_VARIABLE_KEY_MAX, validate_string_list

__all__ = ["FLOW_CODE_MAX", "Flow", "FlowGuard", "FlowStep"]

FLOW_CODE_MAX = 40


class Flow(models.Model):
    """An intent: a named state machine of steps (SPEC §4). Read from the database every turn,
    so an admin edit applies on the next turn without a restart."""

    code = models.SlugField(max_length=FLOW_CODE_MAX, unique=True)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, default="")
    # The agent's own reply is shown to the client as written (a booking or scheduling flow)
    # instead of being turned into the Narrator's question cards; a step may say otherwise.
    reply_as_written = models.BooleanField(
        default=False,
        help_text="Show the agent's reply to the client as written, not as question cards.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.code


class FlowStep(models.Model):
    """A step of a flow. Staying on the same step is always legal; `allowed_next` lists the
    other steps a move may go to."""

    flow = models.ForeignKey(Flow, on_delete=models.CASCADE, related_name="steps")
    code = models.SlugField(max_length=FLOW_CODE_MAX)
    order = models.PositiveSmallIntegerField(default=0)
    allowed_next = models.JSONField(default=list, blank=True, validators=[validate_string_list])
    prompt_fragment = models.TextField(blank=True, default="")
    reply_as_written = models.BooleanField(
        null=True,
        blank=True,
        default=None,
        help_text="Empty: as the flow says. Yes/No: this step shows the agent's reply as "
        "written / as question cards.",
    )

    class Meta:
        ordering = ["flow", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["flow", "code"], name="flow_step_code_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.flow.code} · {self.code}"

    def clean(self) -> None:
        if not isinstance(self.allowed_next, list) or not self.flow_id:
            return
        known = set(FlowStep.objects.filter(flow_id=self.flow_id).values_list("code", flat=True))
        unknown = [code for code in self.allowed_next if code not in known | {self.code}]
        if unknown:
            raise ValidationError({"allowed_next": f"not steps of this flow: {unknown}"})


class FlowGuard(models.Model):
    """A guard on a step: dormant unless `slots[trigger_slot] == trigger_value`; while active,
    any missing required slot blocks every move out of the step."""

    step = models.ForeignKey(FlowStep, on_delete=models.CASCADE, related_name="guards")
    code = models.SlugField(max_length=FLOW_CODE_MAX)
    description = models.CharField(max_length=200, blank=True, default="")
    trigger_slot = models.CharField(max_length=CONVERSATION_VARIABLE_KEY_MAX)
    trigger_value = models.JSONField(help_text="JSON: true, a string or a number.")
    required_slots = models.JSONField(default=list, validators=[validate_string_list])

    class Meta:
        ordering = ["step", "id"]
        constraints = [
            models.UniqueConstraint(fields=["step", "code"], name="flow_guard_code_unique"),
            models.CheckConstraint(
                condition=~Q(trigger_slot=""), name="flow_guard_trigger_slot_set"
            ),
        ]

    def __str__(self) -> str:
        return self.code
