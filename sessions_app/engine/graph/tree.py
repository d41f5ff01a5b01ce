"""The session graph (SPEC §5): a tree of messages, worklines with their own heads, spin-off.

A workline's path is the parent chain from its head up to a root, keeping only the messages that
belong to that workline: messages spun off elsewhere drop out of the source's path without any
row being deleted, and a new workline's path starts where its own messages start. Everything the
LLM sees comes from `materialize`, which walks only the active workline's path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from psychologist.llm.budget import estimate_tokens
from sessions_app.engine.graph.branch import FIELDS as STATE_FIELDS
from sessions_app.engine.graph.branch import head_left, state_follow
from sessions_app.errors import invalid
from sessions_app.events import EventType, event_by, session_length_check
from sessions_app.models import (
    AskMessage,
    AskSession,
    CardKind,
    Workline,
)

MAIN_WORKLINE = "main"
# Events that count as a "decision" for the scope strip.
DECISION_EVENTS = (
    EventType.MESSAGE_FORKED,
    EventType.WORKLINE_CREATED,
    EventType.WORKLINE_ACTIVATED,
    EventType.WORKLINE_SPIN_OFF,
    EventType.TRANSITION_APPLIED,
)


# --- reads ----------------------------------------------------------------------------------


def session_messages(session: AskSession) -> dict[int, AskMessage]:
    """Every message of the session by id, in one query; sessions are bounded (≤ 100 + cards)."""
    return {m.pk: m for m in AskMessage.objects.filter(session=session).order_by("id")}


class PromptNode(NamedTuple):
    """What a prompt needs of a message: the walk's links, its role and its text, and an
    analysis's questions (none are asked twice on a path). A plain row: of the payload only that
    key is decoded, and no model instance is built for each message of a long path."""

    pk: int
    parent_id: int | None
    workline_id: int | None
    role: str
    kind: str
    text: str
    questions: list[str] | None
    card_kind: str | None


class StateNode(NamedTuple):
    """What the state document needs of a message on the path; of the payload, only which
    engine wrote it."""

    pk: int
    parent_id: int | None
    workline_id: int | None
    role: str
    kind: str
    text: str
    created_at: Any
    engine: str | None
    card_kind: str | None


# The Analyst's questions in its stored output, read as that JSON key alone.
QUESTIONS = "payload__output__questions"
# Node fields read from a JSON key rather than a column.
NODE_KEYS = {"engine": "payload__engine", "questions": QUESTIONS, "card_kind": "payload__kind"}


def path_messages(workline: Workline, *, since: int | None = None) -> dict[int, AskMessage]:
    """The head's ancestors by id, in one query (a recursive CTE, SQLite and PostgreSQL alike);
    with `since` (a message id), only up to that message, included, if it is an ancestor."""
    if workline.head_id is None:
        return {}
    return {m.pk: m for m in _path_rows(workline, since)}


def path_nodes[N: (PromptNode, StateNode)](
    workline: Workline, node: type[N], *, since: int | None = None
) -> dict[int, N]:
    """`path_messages` as plain `node` rows, reading only the node's fields."""
    if workline.head_id is None:
        return {}
    fields = [NODE_KEYS.get(name, name) for name in node._fields]
    return {row[0]: node(*row) for row in _path_rows(workline, since).values_list(*fields)}


def asked_in(question_lists: Iterable[Any]) -> list[str]:
    """The third-person questions of several Analyst outputs, in order, each once."""
    asked = (str(q) for questions in question_lists for q in questions or [] if str(q).strip())
    return list(dict.fromkeys(asked))


def _asked_on(path: list[PromptNode]) -> list[str]:
    return asked_in(node.questions for node in path if node.kind == AskMessage.Kind.ANALYSIS)


def workline_path[M: (AskMessage, PromptNode, StateNode)](
    workline: Workline, *, messages: dict[int, M] | None = None
) -> list[M]:
    """Root → head of the workline: its timeline, and the only thing an LLM is ever sent.

    Without `messages`, one query reads only the head's ancestors (`path_messages`), so a path
    costs the same whatever else the session holds: parked branches, forks, other worklines."""
    if workline.head_id is None:
        return []
    if messages is None:
        messages = path_messages(workline)
    path: list[M] = []
    node = messages.get(workline.head_id)
    while node is not None:
        if node.workline_id == workline.pk:
            path.append(node)
        node = messages.get(node.parent_id) if node.parent_id else None
    path.reverse()
    return path


def _path_rows(workline: Workline, since: int | None = None) -> QuerySet[AskMessage]:
    """The messages on the head's chain. The session is named as well, though every ancestor is
    of it: with it PostgreSQL reads the session's messages by their index and keeps the walk's
    ids, instead of scanning every session's messages for them."""
    return AskMessage.objects.filter(
        session_id=workline.session_id, pk__in=_ancestors(workline.head_id, since)
    )


def _ancestors(head_id: int, stop_id: int | None = None) -> RawSQL:
    """The ids of `head_id` and every parent above it up to `stop_id` (included), as a subquery.
    Each step looks one parent up by its primary key (a scalar subquery): a join there lets
    PostgreSQL hash the whole table once per step when its estimates are small, which turns a
    walk of n messages into n scans."""
    table = connection.ops.quote_name(AskMessage._meta.db_table)
    return RawSQL(
        "WITH RECURSIVE chain(id, parent_id) AS ("
        f" SELECT id, parent_id FROM {table} WHERE id = %s"
        " UNION ALL SELECT chain.parent_id,"
        f" (SELECT m.parent_id FROM {table} m WHERE m.id = chain.parent_id)"
        " FROM chain WHERE chain.parent_id IS NOT NULL AND chain.id <> %s"
        ") SELECT id FROM chain",
        [head_id, stop_id if stop_id is not None else -1],
    )


def open_cards(path: list[AskMessage]) -> int:
    """Cards of the open batch not yet answered on this path.

    A batch opens with a message whose payload carries `cards`; a card counts as dealt once a
    `question_card` with its `card_id` follows, and as answered once anything follows that.
    """
    for index in range(len(path) - 1, -1, -1):
        cards = path[index].payload.get("cards") if isinstance(path[index].payload, dict) else None
        if cards:
            dealt = {
                m.payload.get("card_id")
                for m in path[index + 1 :]
                if m.kind == AskMessage.Kind.QUESTION_CARD
            }
            pending = sum(1 for card in cards if card.get("id") not in dealt)
            head_unanswered = path[-1].kind == AskMessage.Kind.QUESTION_CARD
            return pending + (1 if head_unanswered else 0)
    return 0


@dataclass
class TreeNode:
    id: int
    parent_id: int | None
    workline_id: int | None
    role: str
    kind: str
    text: str
    created_at: Any
    children: list[int] = field(default_factory=list)


@dataclass
class SessionTree:
    roots: list[int]
    nodes: dict[int, TreeNode]
    branch_points: list[int]
    leaves: list[int]


def session_tree(session: AskSession) -> SessionTree:
    messages = session_messages(session)
    nodes = {
        m.pk: TreeNode(m.pk, m.parent_id, m.workline_id, m.role, m.kind, m.text, m.created_at)
        for m in messages.values()
    }
    roots = []
    for node in nodes.values():
        if node.parent_id is None:
            roots.append(node.id)
        else:
            nodes[node.parent_id].children.append(node.id)
    return SessionTree(
        roots=roots,
        nodes=nodes,
        branch_points=[n.id for n in nodes.values() if len(n.children) > 1],
        leaves=[n.id for n in nodes.values() if not n.children],
    )


@dataclass(frozen=True)
class WorklineSummary:
    id: int
    name: str
    status: str
    head_id: int | None
    message_count: int
    open_cards: int
    is_active: bool


def worklines_index(session: AskSession) -> list[WorklineSummary]:
    messages = session_messages(session)
    summaries = []
    for workline in Workline.objects.filter(session=session).order_by("created_at", "id"):
        path = workline_path(workline, messages=messages)
        summaries.append(
            WorklineSummary(
                id=workline.pk,
                name=workline.name,
                status=workline.status,
                head_id=workline.head_id,
                message_count=len(path),
                open_cards=open_cards(path),
                is_active=workline.status == Workline.Status.ACTIVE,
            )
        )
    return summaries


@dataclass(frozen=True)
class ScopeStrip:
    branches: int
    open_worklines: int
    open_batch: int
    last_decision: dict[str, Any] | None


def scope_strip(session: AskSession) -> ScopeStrip:
    tree = session_tree(session)
    index = worklines_index(session)
    active = next((w for w in index if w.is_active), None)
    decision = (
        session.events.filter(type__in=DECISION_EVENTS)
        .order_by("-seq")
        .values("id", "seq", "type", "created_at")
        .first()
    )
    return ScopeStrip(
        branches=len(tree.leaves),
        open_worklines=sum(1 for w in index if w.status != Workline.Status.CLOSED),
        open_batch=active.open_cards if active else 0,
        last_decision=decision,
    )


# --- materialization -----------------------------------------------------------------------

LLM_ROLE = {
    AskMessage.Role.CLIENT: "user",
    AskMessage.Role.COUNSELOR: "user",
    AskMessage.Role.ANALYST: "assistant",
    AskMessage.Role.NARRATOR: "assistant",
    AskMessage.Role.SYSTEM: "assistant",
}


# What one message costs beyond its text (role and framing), on top of the LLM layer's estimate.
MESSAGE_OVERHEAD_TOKENS = 4


def message_tokens(text: str) -> int:
    """A message's share of the prompt budget: the one token estimate, plus its framing."""
    return estimate_tokens(text) + MESSAGE_OVERHEAD_TOKENS


def extractive_summary(messages: list[dict[str, str]]) -> str:
    """The default compaction: the first sentence of each earlier turn, in order."""
    lines = []
    for message in messages:
        first = message["content"].strip().split("\n")[0]
        first = first.split(". ")[0][:160]
        lines.append(f"{'Client' if message['role'] == 'user' else 'Guide'}: {first}")
    return "Earlier in this line of work:\n" + "\n".join(lines)


@dataclass(frozen=True)
class Materialized:
    messages: list[dict[str, str]]
    scope_summary: str
    compacted: bool
    input_tokens: int
    # The questions the Analyst asked on the path root → head, in order, each once (those
    # before a standing summary are kept with it).
    asked: list[str] = field(default_factory=list)


def _to_llm(path: list[PromptNode]) -> list[tuple[int, dict[str, str]]]:
    """Path messages as LLM turns, consecutive same-role turns merged (ids kept for caching)."""
    turns: list[tuple[int, dict[str, str]]] = []
    screening = False  # the screener's cards and the answers to them are not the dialogue's
    for message in path:
        screening, was_screening = message.card_kind == CardKind.SCREENING, screening
        if not message.text or screening or was_screening:
            continue
        role = LLM_ROLE[message.role]
        if turns and turns[-1][1]["role"] == role:
            merged = turns[-1][1]["content"] + "\n\n" + message.text
            turns[-1] = (message.pk, {"role": role, "content": merged})
        else:
            turns.append((message.pk, {"role": role, "content": message.text}))
    return turns


def _tokens(messages: list[dict[str, str]]) -> int:
    return sum(message_tokens(m["content"]) for m in messages)


def materialize(
    session: AskSession,
    *,
    budget_tokens: int | None = None,
    summarize: Callable[[list[dict[str, str]]], str] = extractive_summary,
) -> Materialized:
    """The `messages[]` for an LLM call: ONLY root → head of the active workline (SPEC §5).

    Over the budget, the older part becomes a summary that is cached on the workline and reused
    until the uncompacted tail alone outgrows the budget again. While it is reused, only the
    tail is read (the path from the summary's last message on), so a long session costs what
    a short one does; the whole path is read again only to compact it anew. The same read
    yields the questions the Analyst asked on the path (`asked`), so that none comes back.
    """
    budget = budget_tokens or settings.LLM_CONTEXT_BUDGET_TOKENS
    workline = session.active_workline
    others = Workline.objects.filter(session=session).exclude(status=Workline.Status.CLOSED)
    other_count = others.exclude(pk=getattr(workline, "pk", None)).count()
    scope = f"{other_count} other open workline{'s' if other_count != 1 else ''}"
    if workline is None:
        return Materialized([], scope, False, 0)
    through = workline.compacted_through_id
    rows = path_nodes(workline, PromptNode, since=through)
    path = workline_path(workline, messages=rows)
    turns = _to_llm(path)
    if through is not None and through in rows:
        # Only the tail was read: the stored summary stands for everything before it.
        ids = [turn_id for turn_id, _ in turns]
        if through in ids:
            tail = [turn for _, turn in turns[ids.index(through) + 1 :]]
            reused = [_summary_turn(workline.compaction_summary), *tail]
            if _tokens(reused) <= budget:
                after = _asked_on([node for node in path if node.pk > through])
                asked = asked_in([workline.compacted_questions, after])
                return Materialized(reused, scope, True, _tokens(reused), asked)
        # The whole path, to compact it anew.
        path = workline_path(workline, messages=path_nodes(workline, PromptNode))
        turns = _to_llm(path)
    asked = _asked_on(path)
    ids = [turn_id for turn_id, _ in turns]
    plain = [turn for _, turn in turns]
    if _tokens(plain) <= budget and through not in ids:
        return Materialized(plain, scope, False, _tokens(plain), asked)
    summary_text, tail = _compacted(workline, path, turns, budget, summarize)
    compacted = [_summary_turn(summary_text), *tail]
    return Materialized(compacted, scope, True, _tokens(compacted), asked)


def _summary_turn(summary_text: str) -> dict[str, str]:
    return {"role": "user", "content": f"[Summary of earlier turns]\n{summary_text}"}


def _bounded(text: str, tokens: int) -> str:
    """Trim a summary to its token share, keeping its beginning and its most recent end."""
    limit = max(tokens - 4, 8) * 4
    if len(text) <= limit:
        return text
    half = (limit - 3) // 2
    return f"{text[:half]}\n…\n{text[-half:]}"


def _compacted(
    workline: Workline,
    path: list[PromptNode],
    turns: list[tuple[int, dict[str, str]]],
    budget: int,
    summarize: Callable[[list[dict[str, str]]], str],
) -> tuple[str, list[dict[str, str]]]:
    # Recompute: the summary and the kept recent turns take a quarter of the budget each, so
    # the next half of the budget fills up turn by turn before anything is summarised again.
    cut, kept = len(turns), 0
    while cut > 1 and kept + message_tokens(turns[cut - 1][1]["content"]) <= budget // 4:
        cut -= 1
        kept += message_tokens(turns[cut][1]["content"])
    summary_text = _bounded(summarize([turn for _, turn in turns[:cut]]), budget // 4)
    through = turns[cut - 1][0]
    workline.compacted_through_id = through
    workline.compaction_summary = summary_text
    # A child is always written after its parent: on a path, id order is path order.
    workline.compacted_questions = _asked_on([node for node in path if node.pk <= through])
    Workline.objects.filter(pk=workline.pk).update(
        compacted_through_id=through,
        compaction_summary=summary_text,
        compacted_questions=workline.compacted_questions,
    )
    return summary_text, [turn for _, turn in turns[cut:]]


# --- writes ---------------------------------------------------------------------------------


def _locked(session: AskSession) -> AskSession:
    # Every graph write moves a head; taking the session row first serialises them per session.
    # The active workline is locked with it: a row only joined to the lock comes from the
    # snapshot taken before the wait, with the head a concurrent write has just moved, and the
    # next message would become its sibling (dealer.session_locked). When the session switched
    # workline while we waited, the join fails PostgreSQL's recheck and it is read again.
    locked = list(
        AskSession.objects.select_for_update(of=("self", "active_workline"))
        .select_related("active_workline")
        .filter(pk=session.pk, active_workline__isnull=False)
    )
    if locked:
        return locked[0]
    return (
        AskSession.objects.select_for_update(of=("self",))
        .select_related("active_workline")
        .get(pk=session.pk)
    )


@transaction.atomic
def workline_ensure_main(*, session: AskSession) -> Workline:
    locked = _locked(session)
    if locked.active_workline is not None:
        session.active_workline = locked.active_workline
        return locked.active_workline
    workline, _ = Workline.objects.get_or_create(session=session, name=MAIN_WORKLINE)
    Workline.objects.filter(pk=workline.pk).update(status=Workline.Status.ACTIVE)
    workline.status = Workline.Status.ACTIVE
    AskSession.objects.filter(pk=session.pk).update(active_workline=workline)
    session.active_workline = workline
    return workline


@transaction.atomic
def message_append(
    *,
    session: AskSession,
    role: str,
    kind: str,
    text: str = "",
    payload: dict[str, Any] | None = None,
    modality: str = AskMessage.Modality.TEXT,
) -> AskMessage:
    """Append a message under the active workline's head and move the head to it."""
    locked = _locked(session)
    session_length_check(session=locked)
    workline = locked.active_workline or workline_ensure_main(session=locked)
    message = AskMessage.objects.create(
        session=locked,
        parent_id=workline.head_id,
        workline=workline,
        role=role,
        kind=kind,
        text=text,
        payload=payload or {},
        modality=modality,
    )
    Workline.objects.filter(pk=workline.pk).update(head=message, updated_at=timezone.now())
    AskSession.objects.filter(pk=session.pk).update(
        message_count=F("message_count") + 1, updated_at=timezone.now()
    )
    session.active_workline = workline
    workline.head = message
    session.message_count = locked.message_count + 1
    return message


@transaction.atomic
def message_fork(*, session: AskSession, from_message: AskMessage, by: Any = None) -> Workline:
    """Continue from `from_message`: the active workline's head moves there; nothing is deleted.

    The next message becomes its child, so editing an earlier answer is a fork from its card.
    The session's state becomes that of the path root → `from_message` (`branch.py`).
    """
    locked = _locked(session)
    workline = locked.active_workline
    if from_message.session_id != session.pk:
        raise invalid("That message belongs to another session.", message_id="not in session")
    if workline is None or from_message.workline_id != workline.pk:
        raise invalid(
            "Continue from a message of the active workline (switch to its workline first).",
            message_id="not in the active workline",
        )
    previous = workline.head_id
    Workline.objects.filter(pk=workline.pk).update(head=from_message, updated_at=timezone.now())
    workline.head = from_message
    session.active_workline = workline
    if previous != from_message.pk:
        head_left(previous, locked)
        state_follow(locked, from_message.pk, session)
    event_by(
        session=locked,
        type=EventType.MESSAGE_FORKED,
        payload={
            "workline": workline.pk,
            "from_message": from_message.pk,
            "previous_head": previous,
        },
        by=by,
    )
    return workline


@transaction.atomic
def workline_create(
    *, session: AskSession, name: str, activate: bool = True, by: Any = None
) -> Workline:
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise invalid("A workline needs a name of 1 to 80 characters.", name="1–80 characters")
    locked = _locked(session)
    if Workline.objects.filter(session=locked, name=name).exists():
        raise invalid(f"A workline named {name!r} already exists.", name="already exists")
    workline = Workline.objects.create(session=locked, name=name, status=Workline.Status.PARKED)
    event_by(
        session=locked,
        type=EventType.WORKLINE_CREATED,
        payload={"workline": workline.pk, "name": name},
        by=by,
    )
    if activate:
        _activate(locked, workline, by=by)
    session.active_workline = locked.active_workline
    _state_copy(locked, session)
    return workline


@transaction.atomic
def workline_activate(*, session: AskSession, workline: Workline, by: Any = None) -> Workline:
    """Switch focus: every workline keeps its head; the composer writes under this one's, and
    the session's state becomes that of its path (`branch.py`)."""
    locked = _locked(session)
    if workline.session_id != locked.pk:
        raise invalid("That workline belongs to another session.", workline="not in session")
    if workline.status == Workline.Status.CLOSED:
        raise invalid("A closed workline cannot be activated.", workline="closed")
    _activate(locked, workline, by=by)
    session.active_workline = locked.active_workline
    _state_copy(locked, session)
    return locked.active_workline


def _state_copy(locked: AskSession, session: AskSession) -> None:
    """The caller's object learns the state the switch gave the row."""
    for name in STATE_FIELDS:
        setattr(session, name, getattr(locked, name))


def _activate(locked: AskSession, workline: Workline, *, by: Any) -> None:
    if locked.active_workline_id == workline.pk:
        return
    # Park first: the database allows one active workline per session at any moment.
    Workline.objects.filter(session=locked, status=Workline.Status.ACTIVE).update(
        status=Workline.Status.PARKED
    )
    Workline.objects.filter(pk=workline.pk).update(status=Workline.Status.ACTIVE)
    workline.status = Workline.Status.ACTIVE
    previous = locked.active_workline_id
    head_left(locked.active_workline.head_id if locked.active_workline else None, locked)
    AskSession.objects.filter(pk=locked.pk).update(active_workline=workline)
    locked.active_workline = workline
    # The caller's object may predate the workline's latest messages: its head as stored now.
    workline.head_id = Workline.objects.values_list("head_id", flat=True).get(pk=workline.pk)
    state_follow(locked, workline.head_id)
    event_by(
        session=locked,
        type=EventType.WORKLINE_ACTIVATED,
        payload={"workline": workline.pk, "previous": previous},
        by=by,
    )
