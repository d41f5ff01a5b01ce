"""Neutral session titles: what a session is called until its client names it.

A title is shown on the counselor's home, in the crisis queue and in the client's own history,
so it is never the client's own words: the kind of session, its theme (the CBT focus) and the
date, in the client's language. A crisis session's is always neutral.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone, translation

from sessions_app import texts
from sessions_app.models import SESSION_TITLE_MAX, AskSession


def title_neutral(*, session_type: str, cbt_focus: str, created_at: Any, locale: str) -> str:
    """Kind · theme · date."""
    parts = [texts.text(f"title_{session_type}", locale)]
    if cbt_focus and session_type != AskSession.SessionType.CRISIS_INTERVENTION:
        parts.append(texts.text(f"focus_{cbt_focus}", locale))
    parts.append(texts.date_label(timezone.localtime(created_at), locale))
    return " · ".join(parts)[:SESSION_TITLE_MAX]


def session_title_neutral(session: AskSession, *, locale: str | None = None) -> str:
    return title_neutral(
        session_type=session.session_type,
        cbt_focus=session.cbt_focus,
        created_at=session.created_at,
        locale=locale or session.locale,
    )


def session_label(session: AskSession) -> str:
    """The title a staff page shows: the client's own name for it, except for a crisis, whose
    neutral title is in the reader's language (the page's active one)."""
    if session.is_crisis or not session.session_title:
        return session_title_neutral(session, locale=translation.get_language() or "en")
    return session.session_title
