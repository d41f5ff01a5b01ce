"""Forms of the staff's pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from sessions_app.access import pages_allowed
from sessions_app.engine.selectors import BUILTIN_FLOWS, SESSION_FLOW
from sessions_app.errors import ApplicationError
from sessions_app.models import (
    AgentKey,
    AgentOrigin,
    AskAgent,
    CbtFocus,
    Flow,
    SandboxProvider,
    UserProfile,
)
from sessions_app.sandbox import anthropic_available, script_parse


class StaffAuthenticationForm(AuthenticationForm):
    """Sign-in for counselors and ops. Clients and services use the API's tokens (SPEC §1).

    A client's right password gets the same answer as a wrong one: the page must not confirm
    the credentials of an account it will not let in.
    """

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if not pages_allowed(user):
            raise self.get_invalid_login_error()


AGENT_TEMPLATE_PREFIX = "agent:"
# The built-in agents' names on the page; the model keeps its English labels, which are stored
# in each session's agent snapshot.
AGENT_LABELS = {
    AgentKey.CBT_SPECIALIST: _("CBT specialist"),
    AgentKey.EMOTION_ADVISOR: _("Emotion advisor"),
    AgentKey.BEHAVIOR_COACH: _("Behavior coach"),
    AgentKey.CRISIS_INTERVENTIONIST: _("Crisis interventionist"),
}


def _agent_choices() -> list[tuple[str, str]]:
    builtin = [
        (key, AGENT_LABELS.get(key, label))
        for key, label in AgentKey.choices
        if key != AgentKey.CUSTOM_ROLE
    ]
    # A test client may use templates (and the built-in defaults), never someone's own agent.
    templates = AskAgent.objects.filter(origin=AgentOrigin.ORG_TEMPLATE).order_by("name")
    return builtin + [
        (f"{AGENT_TEMPLATE_PREFIX}{a.pk}", _("Template: %(name)s") % {"name": a.name})
        for a in templates
    ]


def _flow_choices() -> list[tuple[str, str]]:
    stored = {flow.code: f"{flow.name} ({flow.code})" for flow in Flow.objects.order_by("code")}
    # The built-in flows are always offered: the engine reinstalls one that is missing.
    return [(code, stored.get(code, code)) for code in sorted({*BUILTIN_FLOWS, *stored})]


class SandboxStartForm(forms.Form):
    """What the counselor's test session is: agent, flow, focus, locale, who the test client
    pretends to be, and which provider answers."""

    agent = forms.ChoiceField(label=_("Agent"))
    flow = forms.ChoiceField(label=_("Flow"), initial=SESSION_FLOW)
    cbt_focus = forms.ChoiceField(
        label=_("CBT focus"),
        required=False,
        choices=[("", _("Let the engine choose")), *CbtFocus.choices],
    )
    # The language the test client speaks: every language a real client's profile may have.
    locale = forms.ChoiceField(label=_("Client language"), choices=UserProfile.Locale.choices)
    is_minor = forms.BooleanField(
        label=_("The test client is a minor (activates require_guardian_consent)"),
        required=False,
    )
    provider = forms.ChoiceField(label=_("LLM provider"), widget=forms.RadioSelect)
    script = forms.CharField(
        label=_("Script (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false"}),
        help_text=_("For the scripted provider: a list of recordings or a scenario file."),
    )
    script_file = forms.FileField(label=_("…or upload it"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["agent"].choices = _agent_choices()
        self.fields["flow"].choices = _flow_choices()
        providers = [
            (value, label)
            for value, label in SandboxProvider.choices
            if value != SandboxProvider.ANTHROPIC or anthropic_available()
        ]
        self.fields["provider"].choices = providers
        self.fields["provider"].initial = SandboxProvider.OFFLINE
        # The page's language is the likeliest one to try first (`zh-hans` → `zh`).
        page_language = (get_language() or "en").split("-")[0]
        if page_language in UserProfile.Locale.values:
            self.fields["locale"].initial = page_language

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("script_file")
        raw = upload.read().decode("utf-8", "replace") if upload else data.get("script", "")
        data["recordings"] = []
        if data.get("provider") == SandboxProvider.SCRIPTED:
            if not raw.strip():
                self.add_error("script", _("The scripted provider needs a script."))
                return data
            try:
                data["recordings"] = script_parse(raw)
            except ApplicationError as exc:
                self.add_error("script", exc.detail)
        return data

    def start_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        agent = data["agent"]
        template = agent.startswith(AGENT_TEMPLATE_PREFIX)
        return {
            "agent_key": None if template else agent,
            "custom_agent_id": int(agent.removeprefix(AGENT_TEMPLATE_PREFIX)) if template else None,
            "flow": data["flow"],
            "cbt_focus": data["cbt_focus"],
            "locale": data["locale"],
            "is_minor": data["is_minor"],
            "provider": data["provider"],
            "script": data["recordings"],
        }
