"""The dashboard's filter form: what a reader may narrow the hypotheses to."""

from __future__ import annotations

from typing import Any

from django import forms

from insights.selectors import Filters
from psychologist.models import HypothesisStatus, HypothesisTarget


class InsightsFilterForm(forms.Form):
    status = forms.ChoiceField(
        required=False, choices=[("", "Any status"), *HypothesisStatus.choices]
    )
    target = forms.ChoiceField(
        required=False, choices=[("", "Any target"), *HypothesisTarget.choices]
    )
    date_from = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label="To", widget=forms.DateInput(attrs={"type": "date"})
    )
    client = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)

    def __init__(self, *args: Any, clients: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["client"].choices = [
            ("", "Every client"),
            *((c.pk, c.get_full_name() or c.get_username()) for c in clients),
        ]

    def filters(self) -> Filters:
        """The valid filters; a field that does not validate is ignored, not an error page."""
        if self.is_valid():
            return Filters(**self.cleaned_data)
        clean = getattr(self, "cleaned_data", {})
        return Filters(**{k: v for k, v in clean.items() if k not in self.errors})
