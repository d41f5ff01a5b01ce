"""The Dealer (SPEC §3): not an LLM. It shows the cards of a batch one at a time.

A batch opens with a message whose payload holds `cards: [{id, text, type, kind}]`; each card
is dealt as a `question_card` message whose payload names its batch and carries the cards still
queued behind it. The head of the active workline is therefore the whole resume point: a fork or
a workline switch moves the head, and the right card comes back with it, with no extra state.

Appends here are lean on purpose: a turn appends two to five messages under the one row lock it
already holds, and moves the head once (QUALITY P1: ≤ 10 queries for a card with a next card).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypedDict

from django.utils import timezone

from sessions_app import models as session_models
from sessions_app.engine.graph.branch import BEFORE, state_snapshot
from sessions_app.engine.graph.tree import workline_ensure_main, workline_path
from sessions_app.errors import invalid
from sessions_app.events import (
    EventSpec,
    EventType,
    event_seq_reserve,
    events_append,
    session_length_check,
)
from sessions_app.models import AskMessage, AskSession, CardKind, UserProfile, Workline


class Card(TypedDict, total=False):
    """A card as the Dealer deals it and the state document shows it: `id`, `text`, `type` and
    `kind` always; the rest rides along when set."""

    id: str
    text: str
    type: str
    kind: str
    slot: str
    asks: int
    suggestion: str
    task_id: str
    step: str
    queue: list[Card]
    batch: int | None
    analysis: int | None
    message_id: int


# The kinds by their short names, as the engine's modules use them.
QUESTION, TOPIC, COMPLETION = CardKind.QUESTION, CardKind.TOPIC, CardKind.COMPLETION
LAST_THING, SCHEDULER, CRISIS = CardKind.LAST_THING, CardKind.SCHEDULER, CardKind.CRISIS
FALLBACK, OPEN, SCREENING = CardKind.FALLBACK, CardKind.OPEN, CardKind.SCREENING
# Messages a closing needs after the last dialogue card: the closing line, the last-thing card
# and its opener, a note and its reply, a scheduler exchange. A session that gets this close to
# the schema's limit is offered the completion card only.
CLOSING_RESERVE = 12
# A turn moves `last_activity_at` and `updated_at` only when they are at least this old (see
# AskSession's comment).
ACTIVITY_RESOLUTION = timedelta(minutes=1)
# Card keys beyond {id, text, type, kind} that ride along when a card is dealt.
CARD_EXTRAS = ("slot", "asks", "suggestion", "task_id", "step")


def message_limit() -> int:
    # Read at call time: the schema's limit (100), lifted only by scaling measurements.
    return session_models.SESSION_MESSAGES_MAX


def session_fresh_read(session_id: Any) -> AskSession:
    """The session as committed now, with its head joined; no lock (a read before a write, or
    after another transaction's)."""
    return AskSession.objects.select_related("active_workline__head").get(pk=session_id)


def session_locked(session_id: Any, *, with_recent: bool = False) -> AskSession:
    """The session row, locked for this transaction, with the head and the profile joined.

    Every turn write starts here: the lock serialises a client's concurrent taps on one session.
    A row read joined to a lock comes from the snapshot taken before the lock wait, and
    PostgreSQL brings only the locked rows up to date: a head joined to the session row alone
    would still be the card a concurrent turn has just answered, and a double tap would store
    two answers to it. So the active workline is locked too: when a turn moved its head (or the
    session changed its workline) while we waited, the join to the old head no longer holds,
    no row comes back, and the session is read again — now, under the lock. One query when
    nobody else is writing, two after a wait (QUALITY P1). `with_recent` also joins the head's
    three ancestors, where the client's last words are, for the safety net's reading of the
    conversation (`escalation.recent_client_texts`) — in the same statement."""
    head = "active_workline__head"
    joins = f"{head}__parent__parent__parent" if with_recent else head
    locked = list(
        AskSession.objects.select_for_update(of=("self", "active_workline"))
        .select_related(joins, "user__profile")
        .filter(pk=session_id, active_workline__head__isnull=False)
    )
    if locked:
        return locked[0]
    # Moved on while we waited, or no head yet (a new session): read it again, locked.
    return (
        AskSession.objects.select_for_update(of=("self",))
        .select_related(joins, "user__profile")
        .get(pk=session_id)
    )


def profile_of(session: AskSession) -> UserProfile:
    try:
        return session.user.profile
    except UserProfile.DoesNotExist:
        return UserProfile(user=session.user)


def require_active(session: AskSession) -> None:
    if session.status != AskSession.Status.ACTIVE or session.is_deleted:
        raise invalid("This session is closed.", session="closed")


def new_card(text: str, kind: str = QUESTION, *, slot: str = "") -> Card:
    card = Card(id=uuid.uuid4().hex[:12], text=text, type="open", kind=str(kind))
    if slot:
        card["slot"] = slot
    return card


def head_of(session: AskSession) -> AskMessage | None:
    workline = session.active_workline
    return workline.head if workline is not None else None


def current_card(session: AskSession) -> Card | None:
    """The card on the head, if the head is a dealt, unanswered card."""
    head = head_of(session)
    if head is None or head.kind != AskMessage.Kind.QUESTION_CARD:
        return None
    payload = head.payload
    return {
        "id": payload.get("card_id"),
        "text": head.text,
        "type": payload.get("type", "open"),
        "kind": payload.get("kind", QUESTION),
        **{key: payload[key] for key in CARD_EXTRAS if key in payload},
        "queue": list(payload.get("queue") or []),
        "batch": payload.get("batch"),
        "analysis": payload.get("analysis"),
        "message_id": head.pk,
    }


@dataclass
class Draft:
    role: str
    kind: str
    text: str = ""
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass
class Turn:
    """What one transaction of a turn appends, written at its end in a fixed number of
    statements: the messages one by one (each is the next one's parent), the head once, the
    session row once, the events in one batch."""

    session: AskSession
    # Appends no message limit refuses: the schema's limit stops the dialogue growing, never a
    # way out of it. A session it refused to end would hold its client's one active slot until
    # the abandoned-session job (~20 h) — a crisis locking the client out. So everything in the
    # closing phase (the closing line, the last thing, a scheduler exchange) and people talking
    # (a counselor taking over, writing, handing back; the client's words to them) go past it.
    unlimited: bool = False
    messages: list[AskMessage] = field(default_factory=list)
    events: list[EventSpec] = field(default_factory=list)
    fields: set[str] = field(default_factory=lambda: {"last_activity_at", "updated_at"})
    # Work that must follow the row writes inside the same transaction (the analysis request
    # of a closing reads the closed session).
    after_save: list[Callable[[], Any]] = field(default_factory=list)
    # The state at the head when the turn began: what its first message was written after,
    # whatever the turn sets before appending it (branch.py).
    opened: dict[str, Any] = field(init=False)
    stamped: dict[str, Any] | None = field(init=False, default=None)
    # The safety net's worry about what the client just said, short of a crisis (the band):
    # an answer to the screener that worries it counts as a yes (engine/crisis/screening.py).
    worried: bool = field(init=False, default=False)
    # The head when the turn began (with its ancestors, when the lock joined them).
    began_at: AskMessage | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.opened = state_snapshot(self.session)
        self.began_at = head_of(self.session)
        if self.session.phase == AskSession.Phase.CLOSING:
            self.unlimited = True

    def event(self, type: str, actor: str = "engine", **payload: Any) -> None:
        self.events.append(EventSpec(type=type, payload=payload, actor=actor))

    def set(self, **values: Any) -> None:
        for name, value in values.items():
            setattr(self.session, name, value)
            self.fields.add(name)

    def append(self, *drafts: Draft) -> list[AskMessage]:
        session = self.session
        if not self.unlimited:
            session_length_check(session=session, adding=len(drafts))
        workline = session.active_workline or _main_workline(session)
        parent_id = workline.head_id
        now = timezone.now()
        added = []
        for draft in drafts:
            # The state at its parent, where a fork back to that parent returns (branch.py),
            # carried by the INSERT itself: the turn's opening state on its first message, then
            # only where the turn changed it (a message without one: as its parent's).
            payload = dict(draft.payload)
            before = state_snapshot(session) if added or self.messages else self.opened
            if before != self.stamped:
                payload[BEFORE] = self.stamped = before
            message = AskMessage.objects.create(
                session=session,
                parent_id=parent_id,
                workline=workline,
                role=draft.role,
                kind=draft.kind,
                text=draft.text,
                payload=payload,
                created_at=now,
            )
            parent_id = message.pk
            added.append(message)
        workline.head = added[-1]
        self.messages += added
        self.set(message_count=session.message_count + len(drafts))
        return added

    def deal(
        self,
        card: dict[str, Any],
        queue: list[dict[str, Any]],
        *,
        role: str = AskMessage.Role.NARRATOR,
        **links: Any,
    ) -> AskMessage:
        """Deal `card` as a question_card; `queue` rides along so the next deal needs no read."""
        payload = {
            "card_id": card["id"],
            "type": card.get("type", "open"),
            "kind": card.get("kind", QUESTION),
            "queue": queue,
            **{key: value for key, value in links.items() if value is not None},
        }
        payload |= {key: card[key] for key in CARD_EXTRAS if card.get(key)}
        [message] = self.append(Draft(role, AskMessage.Kind.QUESTION_CARD, card["text"], payload))
        self.event(
            EventType.CARD_DEALT, card_id=card["id"], kind=payload["kind"], message_id=message.pk
        )
        return message

    def open_batch(
        self, cards: list[dict[str, Any]], *, engine: str, analysis: int | None = None, **extra: Any
    ) -> AskMessage:
        """Open a batch and deal its first card."""
        role = AskMessage.Role.NARRATOR if engine not in ("engine", "") else AskMessage.Role.SYSTEM
        [opener] = self.append(
            Draft(role, AskMessage.Kind.TEXT, "", {"cards": cards, "engine": engine, **extra})
        )
        return self.deal(cards[0], cards[1:], role=role, batch=opener.pk, analysis=analysis)

    def save(self) -> None:
        """Write the head and the session row (the messages are already inserted)."""
        session = self.session
        if self.messages:
            workline = session.active_workline
            Workline.objects.filter(pk=workline.pk).update(
                head=self.messages[-1], updated_at=timezone.now()
            )
        now = timezone.now()
        fields = set(self.fields)
        # Both clocks are indexed: left alone while still fresh, this update stays HOT (P7).
        if now - session.last_activity_at >= ACTIVITY_RESOLUTION:
            session.last_activity_at = now
        else:
            fields.discard("last_activity_at")
        if session.updated_at is not None and now - session.updated_at < ACTIVITY_RESOLUTION:
            fields.discard("updated_at")
        if self.events:
            # The row is locked and written anyway: its UPDATE reserves the events' seqs too.
            event_seq_reserve(session, len(self.events))
            fields.add("event_seq")
        session.save(update_fields=sorted(fields))
        if self.events:
            events_append(session=session, events=self.events, seq_reserved=True)
        for step in self.after_save:
            step()


def _main_workline(session: AskSession) -> Workline:
    workline = workline_ensure_main(session=session)
    session.active_workline = workline
    return workline


def batch_messages(session: AskSession, since_id: int) -> list[AskMessage]:
    """The head's ancestors from `since_id` on (one query): the batch being answered."""
    rows = {
        m.pk: m for m in AskMessage.objects.filter(session=session, pk__gte=since_id).order_by("id")
    }
    chain: list[AskMessage] = []
    node = rows.get(head_of(session).pk) if head_of(session) else None
    while node is not None:
        chain.append(node)
        node = rows.get(node.parent_id) if node.parent_id else None
    chain.reverse()
    return chain


def _card_kind(message: Any) -> str | None:
    """A message's card kind, from a model instance or a plain path row."""
    if hasattr(message, "card_kind"):
        return message.card_kind
    return (message.payload or {}).get("kind")


def answered_pairs(chain: list[AskMessage]) -> list[dict[str, str]]:
    """(card text, answer) for every answered card on `chain` in order; words the client said
    without a card come with an empty question."""
    pairs = []
    for index, message in enumerate(chain):
        before = chain[index - 1] if index else None
        answer_kinds = (AskMessage.Kind.ANSWER, AskMessage.Kind.TOPIC)
        if before is not None and _card_kind(before) == SCREENING:
            continue  # the screener's questions and answers stay between the client and staff
        if message.kind in answer_kinds and before and before.kind == AskMessage.Kind.QUESTION_CARD:
            pairs.append({"question": before.text, "answer": message.text})
        elif message.kind == AskMessage.Kind.TEXT and message.role == AskMessage.Role.CLIENT:
            pairs.append({"question": "", "answer": message.text})
    return pairs


def undealt_card(session: AskSession) -> dict[str, Any] | None:
    """After a fork back to an answer, the head is no card: the next card of the open batch on
    that branch is current, not yet dealt (it is dealt when answered). Reads the path; rare."""
    if session.active_workline is None:
        return None
    path = workline_path(session.active_workline)
    for index in range(len(path) - 1, -1, -1):
        cards = path[index].payload.get("cards") if isinstance(path[index].payload, dict) else None
        if not cards:
            continue
        later = path[index + 1 :]
        dealt = {m.payload.get("card_id") for m in later if m.kind == AskMessage.Kind.QUESTION_CARD}
        rest = [card for card in cards if card["id"] not in dealt]
        if not rest or any(m.kind == AskMessage.Kind.TEXT and m.role == "client" for m in later):
            return None
        analysis = path[index - 1].pk if index and path[index - 1].kind == "analysis" else None
        return {**rest[0], "queue": rest[1:], "batch": path[index].pk, "analysis": analysis}
    return None


@dataclass(frozen=True)
class TurnResult:
    session: AskSession
    card: dict[str, Any] | None
    failure: str = ""
