"""The dashboard's filter form: what a reader may narrow the hypotheses to."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from insights.selectors import Filters
from psychologist.models import HypothesisStatus, HypothesisTarget


class InsightsFilterForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("Any status")), *HypothesisStatus.choices],
    )
    target = forms.ChoiceField(
        label=_("Target"),
        required=False,
        choices=[("", _("Any target")), *HypothesisTarget.choices],
    )
    date_from = forms.DateField(
        required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"})
    )
    client = forms.TypedChoiceField(label=_("Client"), required=False, coerce=int, empty_value=None)

    def __init__(self, *args: Any, clients: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["client"].choices = [
            ("", _("Every client")),
            *((c.pk, c.get_full_name() or c.get_username()) for c in clients),
        ]

    def filters(self) -> Filters:
        """The valid filters; a field that does not validate is ignored, not an error page."""
        if self.is_valid():
            return Filters(**self.cleaned_data)
        clean = getattr(self, "cleaned_data", {})
        return Filters(**{k: v for k, v in clean.items() if k not in self.errors})
