"""The pieces of the one audited anonymisation path (`services.session_anonymise`, SPEC §7).

Words go, statistics stay. In structured data (event and message payloads, slots, notification
payloads) numbers, booleans and nulls stay; a string stays only when it is a code — no
whitespace, at most 64 characters — under a key that names a code or a statistic (a type, a risk
level, a technique, a step, an id, a time); every other string becomes `REDACTED`. Keys stay:
code wrote them, not the client.

Every function here runs inside the anonymisation transaction, with the session row locked.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.apps import apps
from django.core.files.storage import default_storage
from django.db import connection, models, transaction
from django.db.models import Q

from sessions_app.models import (
    AskMessage,
    AskSession,
    IdempotencyRecord,
    Notification,
    SessionEvent,
    SpinOffProposal,
    Task,
    UserProfile,
    Workline,
)

logger = logging.getLogger(__name__)

REDACTED = "[redacted]"

_CODE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:+\-]{0,63}")
CODE_KEYS = frozenset(
    {
        "type",
        "kind",
        "role",
        "status",
        "reason",
        "phase",
        "step",
        "intent",
        "guard",
        "missing",
        "fields",
        "state_after",
        "mood_delta",
        "cbt_focus",
        "techniques",
        "cbt_techniques_used",
        "level",
        "from",
        "to",
        "source",
        "target",
        "tier",
        "agent",
        "provider",
        "model",
        "stop_reason",
        "modality",
        "locale",
        "actor",
        "workline",
        "previous",
        "request",
    }
)
_CODE_SUFFIXES = ("_id", "_ids", "_at", "_time", "_type", "_level", "_code", "_reason", "_step")

# Rows of other apps that carry a session's words, each with the lookup from the row to its
# session. Every TextField and every CharField without choices of these models is blanked; a
# model that is not installed (yet) is skipped. An app that copies session text into a table of
# its own adds that table here — the psychologist's hypotheses (statement, termination analysis)
# are the first. `tests/sessions_app/test_lifecycle_anonymisation.py` holds this contract.
SESSION_TEXT_MODELS: dict[str, str] = {"psychologist.Hypothesis": "session"}


def _is_code_key(key: str | None) -> bool:
    return key is not None and (key in CODE_KEYS or key.endswith(_CODE_SUFFIXES))


def payload_redact(value: Any, key: str | None = None) -> Any:
    """`value` with every word replaced by REDACTED and every statistic kept (module docstring)."""
    if isinstance(value, dict):
        return {k: payload_redact(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [payload_redact(item, key) for item in value]
    if isinstance(value, str):
        keep = value == "" or (_is_code_key(key) and _CODE_RE.fullmatch(value) is not None)
        return value if keep else REDACTED
    return value


def free_text_fields(model: type[models.Model]) -> list[str]:
    """Columns that can hold words: text, and strings that are not an enum."""
    return [
        field.attname
        for field in model._meta.concrete_fields
        if isinstance(field, models.TextField)
        or (isinstance(field, models.CharField) and not field.choices)
    ]


def session_fields_scrub(session: AskSession) -> None:
    AskSession.objects.filter(pk=session.pk).update(
        session_title="",
        session_summary="",
        key_insights=[],
        conversation_variables={},
        slots=payload_redact(session.slots),
        resumable_slots=payload_redact(session.resumable_slots),
        handoff_reason="",
        agent_snapshot={**session.agent_snapshot, "persona": ""},
    )


def messages_scrub(session: AskSession) -> int:
    """Texts, raw agent payloads and attachments of every message, on every branch."""
    messages = AskMessage.objects.filter(session=session)
    files = list(messages.exclude(attachment="").values_list("attachment", flat=True))
    if files:
        # Files cannot roll back: they go only once the scrub has committed.
        transaction.on_commit(lambda: _files_delete(files))
    rows = [
        AskMessage(pk=pk, text="", payload=payload_redact(payload), attachment="")
        for pk, payload in messages.values_list("pk", "payload")
    ]
    AskMessage.objects.bulk_update(rows, ["text", "payload", "attachment"], batch_size=200)
    return len(rows)


def _files_delete(names: list[str]) -> None:
    for name in names:
        try:
            default_storage.delete(name)
        except OSError:
            logger.warning("attachment delete failed file_count=%s", len(names), exc_info=True)


def graph_scrub(session: AskSession) -> None:
    """Workline names can be topics, compaction summaries are the client's words and the
    Analyst's questions quote them."""
    Workline.objects.filter(session=session).update(compaction_summary="", compacted_questions=[])
    for workline in Workline.objects.filter(session=session).exclude(name="main"):
        Workline.objects.filter(pk=workline.pk).update(name=f"workline-{workline.pk}")
    SpinOffProposal.objects.filter(session=session).update(new_workline_name="")


def event_payloads_redact(session: AskSession) -> int:
    """Rewrite the text out of the session's event payloads: the one UPDATE the event log allows.

    The model refuses updates, and on PostgreSQL a trigger refuses them too unless this
    transaction has set `naisei.event_redaction`, and then lets only `payload` change (migration
    0003). The flag is switched off again at once, so nothing else in the transaction can use it.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("event payloads are redacted only inside the anonymisation transaction")
    field = SessionEvent._meta.get_field("payload")
    changed = []
    for pk, payload in SessionEvent.objects.filter(session=session).values_list("pk", "payload"):
        redacted = payload_redact(payload)
        if redacted != payload:
            changed.append((field.get_db_prep_save(redacted, connection), pk))
    if not changed:
        return 0
    table = connection.ops.quote_name(SessionEvent._meta.db_table)
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        if postgres:
            cursor.execute("SET LOCAL naisei.event_redaction = 'on'")
        cursor.executemany(f"UPDATE {table} SET payload = %s WHERE id = %s", changed)
        if postgres:
            cursor.execute("SET LOCAL naisei.event_redaction = 'off'")
    return len(changed)


def session_text_models_scrub(session: AskSession) -> int:
    """Blank the free text of other apps' rows about this session (SESSION_TEXT_MODELS)."""
    total = 0
    for label, lookup in SESSION_TEXT_MODELS.items():
        try:
            model = apps.get_model(label)
        except LookupError:  # that app has not built the model yet
            continue
        fields = free_text_fields(model)
        if fields:
            rows = model.objects.filter(**{lookup: session.pk})
            total += rows.update(**dict.fromkeys(fields, ""))
    return total


def tasks_scrub(session: AskSession) -> int:
    """The session's CBT homework: its wording and everything the client wrote in it
    go; kind, status, dates and the 0–100 ratings stay (statistics, like CBT techniques)."""
    rows = [
        Task(pk=pk, title="", instructions="", completion_note="", entries=payload_redact(entries))
        for pk, entries in Task.objects.filter(session=session).values_list("pk", "entries")
    ]
    Task.objects.bulk_update(
        rows, ["title", "instructions", "completion_note", "entries"], batch_size=200
    )
    return len(rows)


def profile_entries_drop(session: AskSession) -> None:
    """Profile entries learned from this session (they carry its `session_id`) go with it."""
    profile = UserProfile.objects.select_for_update().filter(user_id=session.user_id).first()
    if profile is None:
        return
    own = str(session.pk)
    kept = {
        name: [e for e in getattr(profile, name) if not _from_session(e, own)]
        for name in ("observed_patterns", "accepted_hypotheses")
    }
    if any(len(kept[name]) != len(getattr(profile, name)) for name in kept):
        UserProfile.objects.filter(pk=profile.pk).update(**kept)


def _from_session(entry: Any, session_id: str) -> bool:
    return isinstance(entry, dict) and str(entry.get("session_id", "")) == session_id


def notifications_scrub(session: AskSession) -> None:
    """Nothing left to remind about: pending ones go; delivered ones keep only their codes."""
    notifications = Notification.objects.filter(session=session)
    notifications.filter(sent_at__isnull=True).delete()
    rows = [
        Notification(pk=pk, payload=payload_redact(payload))
        for pk, payload in notifications.values_list("pk", "payload")
    ]
    Notification.objects.bulk_update(rows, ["payload"], batch_size=200)


def replays_forget(session: AskSession) -> None:
    """Stored POST responses (24 h replays) may quote the session, whoever sent the request
    (the client, its counselor, ops, a service): every record about it (`session`, set from the
    request's URL or the response's `session_id`), those that name it, and the client's
    responses from while it was open — a client has one open session at a time."""
    ended = session.deleted_at or session.ended_at or session.updated_at
    window = Q(created_at__gte=session.created_at, created_at__lte=ended)
    IdempotencyRecord.objects.filter(
        Q(session=session)
        | Q(user_id=session.user_id) & (window | Q(response_body___id=str(session.pk)))
    ).delete()
