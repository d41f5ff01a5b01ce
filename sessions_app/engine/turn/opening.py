"""Opening a session (SPEC §3 "Opening"): an intro of 1–2 sentences, at most two hooks from the
profile and the last sessions (none without history), then the topic card.

Deterministic and model-free, so that creating a session never waits on a model and runs inside
`session_create`'s transaction: creating is starting.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Q

from sessions_app import texts
from sessions_app.engine import homework
from sessions_app.engine.agents.hygiene import client_text
from sessions_app.engine.cards.dealer import (
    TOPIC,
    Draft,
    Turn,
    new_card,
    profile_of,
    session_locked,
)
from sessions_app.engine.closing.shown import marked, shown_note
from sessions_app.engine.crisis.escalation import crisis_cards_deal
from sessions_app.engine.flows.validator import CRISIS_FLOW, SESSION_FLOW, flow_get
from sessions_app.engine.graph.tree import workline_ensure_main
from sessions_app.engine.language import identify
from sessions_app.engine.offline.listening import non_answer
from sessions_app.events import EventType
from sessions_app.models import AskMessage, AskSession, Task, UserProfile

HOOK_TOPIC_CHARS = 80


def last_sessions(session: AskSession, *, limit: int = 2) -> list[dict[str, Any]]:
    """The client's last finished sessions, newest first: what hooks and the Analyst read."""
    finished = (AskSession.Status.COMPLETED, AskSession.Status.COMPLETED_PARTIAL)
    rows = (
        AskSession.objects.filter(user_id=session.user_id, status__in=finished, is_deleted=False)
        .exclude(pk=session.pk)
        .order_by("-created_at")
        .values(
            "session_title",
            "session_summary",
            "key_insights",
            "slots",
            "ended_at",
            "locale",
            "intervention_triggered",
            "session_type",
        )[:limit]
    )
    return [
        {
            "topic": (row["slots"] or {}).get("topic") or row["session_title"],
            "language": texts.lang_of(row["locale"]),
            "summary": row["session_summary"],
            "key_insights": row["key_insights"][:3],
            "ended_at": row["ended_at"],
            "crisis": row["intervention_triggered"]
            or row["session_type"] == AskSession.SessionType.CRISIS_INTERVENTION,
        }
        for row in rows
    ]


def after_crisis(session: AskSession) -> bool:
    """The client's last session before this one was a crisis — however it ended (finished,
    left unfinished, or closed by the service): the opening checks in, it quotes nothing back."""
    last = (
        AskSession.objects.filter(user_id=session.user_id, is_deleted=False)
        .exclude(pk=session.pk)
        .exclude(status=AskSession.Status.ACTIVE)
        .order_by("-created_at")
        .values("intervention_triggered", "session_type")
        .first()
    )
    return last is not None and (
        last["intervention_triggered"]
        or last["session_type"] == AskSession.SessionType.CRISIS_INTERVENTION
    )


def _topic_shown(item: dict[str, Any], lang: str) -> bool:
    """A topic a hook or the topic card may name again: not from a crisis session, not words
    the safety net marks, not a topic that said nothing ("idk"), in the client's language."""
    topic = item["topic"]
    return (
        bool(topic)
        and not non_answer(topic)
        and not item.get("crisis")
        and not marked(topic, lang)
        and _same_language(topic, item.get("language"), lang)
    )


def _clip(value: str) -> str:
    value = " ".join(str(value).split())
    return value if len(value) <= HOOK_TOPIC_CHARS else value[: HOOK_TOPIC_CHARS - 1] + "…"


def _same_language(words: str, item_language: str | None, lang: str) -> bool:
    """Hooks never mix languages: a quote from a session (or in words) of another language is
    skipped, never pasted into this one."""
    written = identify.detect(words)
    return (item_language or lang) == lang and written in (None, lang)


def _latest_pattern(profile: UserProfile, locale: str) -> str:
    """The newest pattern the client may be reminded of, as it may read it ("" when none):
    newest first, so the safety net reads only as far as it must."""
    lang = texts.lang_of(locale)
    for entry in reversed(_patterns_shown(profile)):
        pattern = shown_note(client_text(UserProfile.entry_text(entry)), locale)
        if pattern and _same_language(pattern, None, lang):
            return pattern
    return ""


def _patterns_shown(profile: UserProfile) -> list[Any]:
    """The profile's patterns that an opening may recall: none learned in a crisis session
    (crisis-flow content is never recalled, however its words read). One query, and only
    when the profile holds patterns learned from sessions."""
    patterns = list(profile.observed_patterns or [])
    learned = {_session_of(p) for p in patterns} - {None}
    if not learned:
        return patterns
    crisis = AskSession.objects.filter(pk__in=learned).filter(
        Q(intervention_triggered=True) | Q(session_type=AskSession.SessionType.CRISIS_INTERVENTION)
    )
    hidden = set(crisis.values_list("pk", flat=True))
    return [p for p in patterns if _session_of(p) not in hidden]


def _session_of(entry: Any) -> uuid.UUID | None:
    """The session a profile entry was learned in, when it says (older entries are strings)."""
    if not isinstance(entry, dict):
        return None
    try:
        return uuid.UUID(str(entry.get("session_id")))
    except ValueError:
        return None


def hooks_for(
    profile: UserProfile, history: list[dict[str, Any]], locale: str, *, crisis_before: bool
) -> list[str]:
    """At most two reminders; none when there is no history. After a crisis session, one gentle
    check-in instead: a hard conversation is not recalled by quoting it."""
    lang = texts.lang_of(locale)
    if crisis_before:
        return [texts.text("hook_after_crisis", locale)]
    hooks: list[str] = []
    topics = [_clip(item["topic"]) for item in history if _topic_shown(item, lang)]
    if topics:
        hooks.append(texts.text("hook_topic", locale, topic=topics[0]))
    # Patterns are the Analyst's notes: shown only as the Narrator would say them.
    pattern = _latest_pattern(profile, locale) if history else ""
    if pattern:
        hooks.append(texts.text("hook_pattern", locale, pattern=_clip(pattern)))
    elif len(topics) > 1 and topics[1] != topics[0]:
        hooks.append(texts.text("hook_earlier", locale, topic=topics[1]))
    return hooks[:2]


def session_start(*, session: AskSession, flow: str | None = None) -> AskSession:
    """Start a created session: flow state, intro, hooks, the first card. Runs inside the
    caller's transaction (`services.session_create`). `flow` starts another flow than the
    session type's (the sandbox tries flows out this way)."""
    workline_ensure_main(session=session)
    locked = session_locked(session.pk)
    profile = profile_of(locked)
    history = last_sessions(locked)
    crisis = locked.session_type == AskSession.SessionType.CRISIS_INTERVENTION
    intent = flow or (CRISIS_FLOW if crisis else SESSION_FLOW)
    slots: dict[str, Any] = {"crisis": True} if crisis else {}
    if profile.is_minor:
        slots["is_minor"] = True
    turn = Turn(locked)
    turn.set(
        locale=profile.locale or "en",
        current_intent_code=intent,
        current_step_code=flow_get(intent).first_step,
        slots=slots,
        phase=AskSession.Phase.INTRO,
    )
    crisis_before = after_crisis(locked)
    hooks, task = _opening(turn, profile, history, crisis_before=crisis_before)
    turn.event(EventType.SESSION_STARTED, intent=intent, step=locked.current_step_code, hooks=hooks)
    if crisis:
        crisis_cards_deal(turn)
    else:
        card = _topic_card(locked, [] if crisis_before else history)
        # A hook that named last time's homework asks how it went first.
        first = [homework.review_card(task, locked.locale)] if task else []
        turn.open_batch([*first, card], engine="engine")
    turn.save()
    session.refresh_from_db()
    return session


def _topic_card(session: AskSession, history: list[dict[str, Any]]) -> dict[str, Any]:
    """The topic card, suggesting last time's topic when it may be named again."""
    last = history[0] if history else {}
    shown = bool(last) and _topic_shown(last, texts.lang_of(session.locale))
    suggestion = _clip(last["topic"]) if shown else ""
    if not suggestion:
        return new_card(texts.text("topic", session.locale), TOPIC)
    card = new_card(texts.text("topic_suggest", session.locale, topic=suggestion), TOPIC)
    card["suggestion"] = suggestion
    return card


def _opening(
    turn: Turn, profile: UserProfile, history: list[dict[str, Any]], *, crisis_before: bool
) -> tuple[int, Task | None]:
    locale = turn.session.locale
    returning = history or crisis_before
    intro = texts.text("intro_returning" if returning else "intro", locale)
    drafts = [Draft(AskMessage.Role.NARRATOR, AskMessage.Kind.INTRO, intro, {"engine": "engine"})]
    hooks = hooks_for(profile, history, locale, crisis_before=crisis_before)
    # After a crisis the check-in stands alone: the homework waits for another day.
    task = None
    if not crisis_before:
        hooks, task = homework.opening_task(turn.session, hooks)
    for index, hook in enumerate(hooks):
        payload = {"task_id": str(task.pk)} if task and index == 0 else {}
        drafts.append(Draft(AskMessage.Role.NARRATOR, AskMessage.Kind.HOOK, hook, payload))
    turn.append(*drafts)
    return len(drafts) - 1, task
