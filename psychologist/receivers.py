"""The psychologist listens to the sessions app (which never imports it): every closed session
is analysed, and the request commits with the close."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from psychologist.services import analysis_request
from sessions_app.models import AskSession
from sessions_app.signals import session_closed


@receiver(session_closed, dispatch_uid="psychologist.analysis_on_close")
def analysis_on_close(sender: Any, *, session: AskSession, **kwargs: Any) -> None:
    analysis_request(session=session)
