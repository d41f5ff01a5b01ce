"""CBT homework between sessions (SPEC §2 `Task`, §3 Closing and Opening;
docs/decisions/0004-cbt-homework-between-sessions.md).

- At the closing the summarizer (the Analyst's closing output) may propose 0–2 tasks: the
  offline engine from the banks in `data/task_banks.json`, a model through the summary tool.
  `tasks_propose_in` turns them into `proposed` tasks of the closing session — none for a
  crisis — and the state document shows them; the client accepts or declines each.
- Between sessions the client fills the entries in (checked against the kind's template) and
  marks the task done; reminders and expiry are the jobs' (`jobs/homework.py`).
- The next session's opening may name one task among its two hooks and deals a short review
  card; the client's answer to it is linked to the task (`task_review_link`).

Transitions race (two taps, a retry on a mobile network, the expiry job): each takes the task
row with `select_for_update` and re-reads its status under the lock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.agents.hygiene import client_text
from sessions_app.engine.cards.dealer import CardKind, Turn, new_card
from sessions_app.engine.crisis.escalation import risk_now
from sessions_app.engine.flows.validator import CRISIS_FLOW
from sessions_app.errors import ApplicationError, ErrorCode, invalid
from sessions_app.events import EventSpec, EventType, events_append
from sessions_app.models import (
    RATING_MAX,
    TASK_TRANSITIONS,
    AskMessage,
    AskSession,
    Notification,
    RiskLevel,
    Task,
    TaskKind,
    TaskStatus,
)
from sessions_app.models.tasks import TASK_INSTRUCTIONS_MAX, TASK_NOTE_MAX, TASK_TITLE_MAX

BANKS_FILE = Path(__file__).resolve().parent.parent / "data" / "task_banks.json"
TASKS_MAX = 2
# Without a next session on the schedule, homework is due this many days after the closing.
DEFAULT_DUE_DAYS = 3
ENTRY_TEXT_MAX = 2000
TASK_REVIEW = CardKind.TASK_REVIEW  # the opening's card that asks how the homework went
HOOK_TITLE_CHARS = 80


SUMMARIZER_RULES = """Homework: through the same tool you may propose `tasks`, 0 to 2 small CBT \
exercises for the client to do before the next session, that fit the session's CBT focus and \
what the client said: a thought record, a behavioral experiment, scheduling one activity, one \
graded exposure step, a relaxation or grounding exercise, or a custom one. Write the title and \
instructions to the client (second person, warm, concrete, in the client's language, no \
jargon). Propose none when the session touched on risk or crisis, or when nothing fits. The \
facts say "homework": false when none may be proposed."""


# --- the banks ----------------------------------------------------------------------------------


@cache
def banks() -> dict[str, Any]:
    return json.loads(BANKS_FILE.read_text(encoding="utf-8"))


def template_for(kind: str, locale: str = "en") -> list[dict[str, str]]:
    """The entry fields of `kind`, labelled in the client's language."""
    lang = texts.lang_of(locale)
    spec = banks()["templates"].get(kind) or banks()["templates"][TaskKind.CUSTOM]
    return [
        {"name": f["name"], "type": f["type"], "label": f["label"].get(lang, f["label"]["en"])}
        for f in spec["fields"]
    ]


def _ratings_of(kind: str) -> tuple[str, str]:
    spec = banks()["templates"].get(kind) or {}
    return spec.get("before", ""), spec.get("after", "")


def offline_tasks(
    *, locale: str, focus: str, themes: list[str], topic: str, turn_count: int, fatigue: bool
) -> list[dict[str, str]]:
    """What the offline engine proposes: the kinds that the client's themes point at, most
    frequent first, then the one of the session's focus; for each, the bank entry that fits the
    themes and the focus best. One task, or two of different kinds after a longer session in
    which the client did not ask to stop. Deterministic: ties go to the bank's order."""
    data = banks()
    kinds = [data["kind_by_theme"][t] for t in themes if t in data["kind_by_theme"]]
    kinds.append(data["kind_by_focus"].get(focus, TaskKind.THOUGHT_RECORD))
    wanted = 1 if fatigue or turn_count < 5 else TASKS_MAX
    chosen: list[dict[str, str]] = []
    for kind in dict.fromkeys(kinds):
        entry = _best_entry(kind, locale, focus, themes, topic)
        if entry is not None:
            chosen.append(entry)
        if len(chosen) == wanted:
            break
    return chosen


def _best_entry(
    kind: str, locale: str, focus: str, themes: list[str], topic: str
) -> dict[str, str] | None:
    lang = texts.lang_of(locale)
    best: tuple[int, dict[str, str]] | None = None
    for entry in banks()["tasks"]:
        wording = entry["text"].get(lang) or entry["text"]["en"]
        if entry["kind"] != kind or ("{topic}" in wording["instructions"] and not topic):
            continue
        # The client's most frequent themes weigh most; the session's focus breaks ties.
        fit = sum(len(themes) - rank for rank, t in enumerate(themes) if t in entry["themes"])
        fit = 2 * fit + (focus in entry["foci"])
        if best is None or fit > best[0]:
            text = wording["instructions"].replace("{topic}", topic)
            best = (fit, {"kind": kind, "title": wording["title"], "instructions": text})
    return best[1] if best else None


# --- proposed at the closing --------------------------------------------------------------------


def proposes_none(session: AskSession) -> bool:
    """A crisis session proposes no homework: the safety plan is the only plan that counts."""
    return (
        session.is_crisis
        or session.intervention_triggered
        or session.current_intent_code == CRISIS_FLOW
        or risk_now(session) >= RiskLevel.L3
    )


def due_date_for(facts: dict[str, Any]) -> date:
    """The day before the next session on the schedule (at least tomorrow), else a few days."""
    today = date.fromisoformat(facts["today"])
    if facts.get("next_session_date"):
        return max(
            today + timedelta(days=1),
            date.fromisoformat(facts["next_session_date"]) - timedelta(days=1),
        )
    return today + timedelta(days=DEFAULT_DUE_DAYS)


def _proposal_clean(item: Any) -> dict[str, str] | None:
    if not isinstance(item, dict) or item.get("kind") not in TaskKind.values:
        return None
    title = client_text(str(item.get("title") or "")).strip()[:TASK_TITLE_MAX]
    instructions = client_text(str(item.get("instructions") or "")).strip()
    if not title:
        return None
    return {
        "kind": item["kind"],
        "title": title,
        "instructions": instructions[:TASK_INSTRUCTIONS_MAX],
    }


def tasks_propose_in(turn: Turn, proposals: Any, facts: dict[str, Any]) -> list[Task]:
    """The closing's proposals as `proposed` tasks of the session, inside the closing's
    transaction. A closing delivered again proposes nothing new."""
    session = turn.session
    if proposes_none(session) or Task.objects.filter(session=session).exists():
        return []
    cleaned = [p for p in map(_proposal_clean, proposals or []) if p][:TASKS_MAX]
    due = due_date_for(facts)
    tasks = []
    for position, proposal in enumerate(cleaned, 1):
        task = Task.objects.create(
            user_id=session.user_id,
            session=session,
            position=position,
            template=template_for(proposal["kind"], session.locale),
            due_date=due,
            **proposal,
        )
        tasks.append(task)
        turn.event(EventType.TASK_PROPOSED, task_id=str(task.pk), kind=task.kind)
    return tasks


def closing_homework(session: AskSession) -> dict[str, Any] | None:
    """The closing stage's offer in the state document: the session's tasks with their status,
    so that the client can accept or decline each (`POST /api/ask/tasks/{id}/accept|skip`)."""
    if session.phase != AskSession.Phase.CLOSING or proposes_none(session):
        return None  # a crisis in the last thing withdraws the offer with the rest
    tasks = list(Task.objects.filter(session=session).order_by("position"))
    if not tasks:
        return None
    return {
        "text": texts.text("tasks_offer", session.locale),
        "tasks": [
            {
                "_id": str(t.pk),
                "kind": t.kind,
                "title": t.title,
                "instructions": t.instructions,
                "due_date": t.due_date.isoformat(),
                "status": t.status,
            }
            for t in tasks
        ],
    }


# --- the client's moves -------------------------------------------------------------------------


def _task_locked(task: Task) -> Task:
    return Task.objects.select_for_update().select_related("session").get(pk=task.pk)


def _transition_refuse(task: Task, to: str) -> ApplicationError:
    return ApplicationError(
        ErrorCode.TASK_STATE,
        f"A {task.status} task cannot become {to}.",
        fields={"status": [f"{task.status} → {to} is not allowed."]},
    )


def _event(task: Task, type: str, by: Any, **payload: Any) -> None:
    payload = {"task_id": str(task.pk), "status": task.status, **payload}
    events_append(
        session=task.session,
        events=[EventSpec(type=type, payload=payload, actor="client", actor_user=by)],
    )


def _move(task: Task, to: str, by: Any, *, event: str, **changes: Any) -> Task:
    """`task` → `to` under the row lock; the same move again answers the task unchanged."""
    locked = _task_locked(task)
    if locked.status == to:
        return locked  # a retried tap: idempotent
    if to not in TASK_TRANSITIONS[locked.status]:
        raise _transition_refuse(locked, to)
    now = timezone.now()
    locked.status = to
    if to == TaskStatus.ACCEPTED:
        locked.accepted_at = now
    else:
        locked.finished_at = now
    for name, value in changes.items():
        setattr(locked, name, value)
    locked.save()
    _event(locked, event, by)
    return locked


@transaction.atomic
def task_accept(*, task: Task, by: Any) -> Task:
    """Take the proposal on: it joins the proposing session's `generated_task_ids`. Not from a
    session that turned into a crisis after proposing it (in its last thing)."""
    if task.status == TaskStatus.PROPOSED and proposes_none(task.session):
        raise ApplicationError(
            ErrorCode.TASK_STATE,
            "This session became a crisis session: its homework is withdrawn.",
            fields={"status": ["withdrawn after a crisis"]},
        )
    locked = _move(task, TaskStatus.ACCEPTED, by, event=EventType.TASK_ACCEPTED)
    session = AskSession.objects.select_for_update(of=("self",)).get(pk=locked.session_id)
    if str(locked.pk) not in session.generated_task_ids:
        session.generated_task_ids = [*session.generated_task_ids, str(locked.pk)]
        session.save(update_fields=["generated_task_ids", "updated_at"])
    return locked


@transaction.atomic
def task_skip(*, task: Task, by: Any) -> Task:
    """Decline a proposal, or let go of an accepted task."""
    locked = _move(task, TaskStatus.SKIPPED, by, event=EventType.TASK_SKIPPED)
    _reminders_withdraw(locked)
    return locked


@transaction.atomic
def task_expire(*, task_id: Any, last_due: date) -> bool:
    """Expire the task if it is still open and due on or before `last_due`; True when this
    call expired it. Re-read under the lock: the client may have finished it a moment ago."""
    locked = Task.objects.select_for_update().select_related("session").filter(pk=task_id).first()
    if locked is None or not locked.is_open or locked.due_date > last_due:
        return False
    locked.status, locked.finished_at = TaskStatus.EXPIRED, timezone.now()
    locked.save(update_fields=["status", "finished_at", "updated_at"])
    events_append(
        session=locked.session,
        events=[EventSpec(type=EventType.TASK_EXPIRED, payload={"task_id": str(locked.pk)})],
    )
    _reminders_withdraw(locked)
    return True


@transaction.atomic
def task_done(*, task: Task, by: Any, completion_note: str | None = None) -> Task:
    changes = {} if completion_note is None else {"completion_note": completion_note}
    locked = _move(task, TaskStatus.DONE, by, event=EventType.TASK_DONE, **changes)
    _reminders_withdraw(locked)
    return locked


def _reminders_withdraw(task: Task) -> None:
    Notification.objects.filter(
        kind=Notification.Kind.TASK_REMINDER, dedupe_key=reminder_key(task), sent_at__isnull=True
    ).delete()


def reminder_key(task: Task) -> str:
    return f"task:{task.pk}"


# --- entries ------------------------------------------------------------------------------------


def entries_validate(template: list[dict[str, Any]], entries: Any) -> dict[str, Any]:
    """The entries as the template allows them: its fields only, text ≤ 2000 characters,
    ratings integers 0–100 (or null). Every problem is named by its dotted field."""
    if not isinstance(entries, dict):
        raise invalid("The entries are an object of the task's fields.", entries="not an object")
    types = {field["name"]: field["type"] for field in template}
    problems: dict[str, str] = {}
    for name, value in entries.items():
        kind = types.get(name)
        if kind is None:
            problems[f"entries.{name}"] = "Unknown field for this kind of task."
        elif value is None:
            continue
        elif kind == "rating" and (isinstance(value, bool) or not isinstance(value, int)):
            problems[f"entries.{name}"] = "Must be an integer."
        elif kind == "rating" and not 0 <= value <= RATING_MAX:
            problems[f"entries.{name}"] = f"Must be between 0 and {RATING_MAX}."
        elif kind == "text" and not isinstance(value, str):
            problems[f"entries.{name}"] = "Must be a string."
        elif kind == "text" and len(value) > ENTRY_TEXT_MAX:
            problems[f"entries.{name}"] = f"At most {ENTRY_TEXT_MAX} characters."
        elif kind == "text" and not _storable(value):
            problems[f"entries.{name}"] = "Contains characters that cannot be stored."
    if problems:
        raise invalid("Some entries do not fit the task's template.", **problems)
    return {
        name: value.strip() if isinstance(value, str) else value for name, value in entries.items()
    }


def _storable(text: str) -> bool:
    # NUL and lone surrogates: no PostgreSQL text or JSON column takes them.
    return "\x00" not in text and not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


@dataclass(frozen=True)
class EntriesChange:
    entries: dict[str, Any] | None = None
    completion_note: str | None = None


@transaction.atomic
def task_entries_update(*, task: Task, by: Any, change: EntriesChange) -> Task:
    """Merge the client's entries (already validated against the template) and the note. Only an
    accepted or done task takes entries: a proposal is accepted first, a skipped one is gone."""
    locked = _task_locked(task)
    if locked.status not in (TaskStatus.ACCEPTED, TaskStatus.DONE):
        raise ApplicationError(
            ErrorCode.TASK_STATE,
            f"A {locked.status} task takes no entries.",
            fields={"status": [f"{locked.status}: accept the task first."]},
        )
    if change.entries is not None:
        template = locked.template or template_for(locked.kind)
        change = EntriesChange(entries_validate(template, change.entries), change.completion_note)
        locked.entries = {**locked.entries, **change.entries}
        before, after = _ratings_of(locked.kind)
        locked.rating_before = locked.entries.get(before) if before else None
        locked.rating_after = locked.entries.get(after) if after else None
    if change.completion_note is not None:
        locked.completion_note = change.completion_note[:TASK_NOTE_MAX]
    locked.save()
    _event(locked, EventType.TASK_UPDATED, by, fields=sorted((change.entries or {}).keys()))
    return locked


# --- picked up next time ------------------------------------------------------------------------


def task_to_review(session: AskSession) -> Task | None:
    """The task the opening may name: the client's latest accepted or done task from an earlier
    session that no opening has picked up yet."""
    return (
        Task.objects.filter(
            user_id=session.user_id,
            status__in=(TaskStatus.ACCEPTED, TaskStatus.DONE),
            review_session__isnull=True,
            session__is_deleted=False,
        )
        .exclude(session=session)
        .order_by("-accepted_at", "-created_at")
        .first()
    )


def _clip(value: str) -> str:
    value = " ".join(value.split())
    return value if len(value) <= HOOK_TITLE_CHARS else value[: HOOK_TITLE_CHARS - 1] + "…"


def opening_task(session: AskSession, hooks: list[str]) -> tuple[list[str], Task | None]:
    """The opening's hooks with the task first, still at most two in all."""
    task = task_to_review(session)
    if task is None or session.is_crisis:
        return hooks, None
    key = "hook_task_done" if task.status == TaskStatus.DONE else "hook_task"
    hook = texts.text(key, session.locale, title=_clip(task.title))
    return [hook, *hooks][:2], task


def review_card(task: Task, locale: str) -> dict[str, Any]:
    """The opening's first card when it named a task; the topic card waits behind it."""
    card = new_card(texts.text("task_review_card", locale), TASK_REVIEW)
    card["task_id"] = str(task.pk)
    return card


def task_review_link(turn: Turn, task_id: str, answer: AskMessage) -> None:
    """The client's answer to the review card belongs to the task (and this session to it)."""
    # A conditional UPDATE: the first answer about it is the one linked (a fork that answers
    # the review card again changes nothing).
    linked = Task.objects.filter(
        pk=task_id, user_id=turn.session.user_id, review_message__isnull=True
    ).update(review_session=turn.session, review_message=answer, updated_at=timezone.now())
    if linked:
        turn.event(EventType.TASK_REVIEWED, "client", task_id=str(task_id), message_id=answer.pk)
