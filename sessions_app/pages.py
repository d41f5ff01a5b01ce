"""The staff's session page as one view-model (SPEC §5 projections, §8 live inspection): what
the page shows, composed from the selectors' reads and the engine's graph, read at one moment.
Queries live in `selectors`; here they become rows a template walks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from psychologist.llm.models import LLMCall
from sessions_app import selectors
from sessions_app.access import sandbox_of
from sessions_app.engine import selectors as engine
from sessions_app.engine.selectors import session_state, thread_state
from sessions_app.events import EventType
from sessions_app.models import AskMessage, AskSession, RiskLevel, SandboxSession, Task
from sessions_app.privacy import STAFF_MAX_PRIVACY
from sessions_app.realtime.frames import event_view


@dataclass(frozen=True)
class SessionPage:
    session: AskSession
    timeline: list[AskMessage]
    tree: list[tuple[str, engine.TreeNode | None]]
    active_path: frozenset[int]
    head_id: int | None
    worklines: list[engine.WorklineSummary]
    workline_names: dict[int, str]
    scope: engine.ScopeStrip
    events: list[dict[str, Any]]
    last_seq: int
    mood: str | None
    # The engine's side, for the state panel (SPEC §8 sandbox; staff only).
    state: dict[str, Any]
    thread: dict[str, Any]
    blocked: dict[int, list[dict[str, Any]]]
    narration: dict[int, list[dict[str, Any]]]
    llm_calls: list[LLMCall]
    llm_totals: dict[str, int]
    sandbox: SandboxSession | None
    # Every hand change of the risk level, oldest first: who, when, from what, to what, why.
    risk_changes: list[dict[str, Any]]
    # The counselor's workspace: the alert chain, who holds the session, steer notes.
    chain: list[dict[str, Any]] = field(default_factory=list)
    steers: list[dict[str, Any]] = field(default_factory=list)
    # The clinical record: the conversation as the client saw it, the risk it reached, the
    # psychologist's current analysis and its hypotheses, and message texts for the event log.
    conversation: list[AskMessage] = field(default_factory=list)
    peak_risk: str = ""
    analysis: Any = None
    hypotheses: list[Any] = field(default_factory=list)
    message_texts: dict[int, str] = field(default_factory=dict)
    # CBT homework: what this session proposed, and what its opening picked up.
    tasks: list[Task] = field(default_factory=list)
    reviewed_tasks: list[Task] = field(default_factory=list)


def session_page(session: AskSession) -> SessionPage:
    """Every projection the session page shows, read at one moment."""
    workline = session.active_workline
    messages = engine.session_messages(session)
    timeline = engine.workline_path(workline, messages=messages) if workline is not None else []
    worklines = engine.worklines_index(session)
    events = list(session.events.order_by("seq"))
    calls = selectors.llm_calls(session)
    chain, steers = alert_chain(events)
    analysis, hypotheses = selectors.clinical_analysis(session)
    return SessionPage(
        session=session,
        timeline=timeline,
        tree=tree_rows(engine.session_tree(session)),
        active_path=frozenset(m.pk for m in timeline),
        head_id=workline.head_id if workline is not None else None,
        worklines=worklines,
        workline_names={w.id: w.name for w in worklines},
        scope=engine.scope_strip(session),
        events=[event_view(event, STAFF_MAX_PRIVACY) for event in events],
        last_seq=events[-1].seq if events else 0,
        mood=selectors.latest_mood(session),
        state=session_state(session),
        thread=thread_state(session),
        blocked=blocked_by_message(events),
        narration=narration_by_analysis(list(messages.values())),
        llm_calls=calls,
        llm_totals=llm_totals(calls),
        sandbox=sandbox_of(session),
        risk_changes=risk_changes(events),
        chain=chain,
        steers=steers,
        conversation=conversation(timeline),
        peak_risk=peak_risk(session, events),
        analysis=analysis,
        hypotheses=hypotheses,
        message_texts={pk: m.text for pk, m in messages.items() if m.text},
        **selectors.session_homework(session, events),
    )


def tree_rows(tree: engine.SessionTree) -> list[tuple[str, engine.TreeNode | None]]:
    """The tree as open/close rows for a template: nested lists where it branches only.

    A run of single-child messages is one chain; a message with several children opens a list
    of forks, one branch each. Built with a stack, not recursion: depth is the session's.
    """
    if not tree.roots:
        return []
    rows: list[tuple[str, engine.TreeNode | None]] = [("forks", None)]
    stack: list[tuple[str, int | None]] = [("end_forks", None)]
    stack.extend(("branch", root) for root in reversed(tree.roots))
    while stack:
        action, node_id = stack.pop()
        if action != "branch" or node_id is None:
            rows.append((action, None))
            continue
        node = tree.nodes[node_id]
        rows.extend([("branch", None), ("node", node)])
        while len(node.children) == 1:
            node = tree.nodes[node.children[0]]
            rows.append(("node", node))
        rows.append(("end_chain", None))
        stack.append(("end_branch", None))
        if node.children:
            rows.append(("forks", None))
            stack.append(("end_forks", None))
            stack.extend(("branch", child) for child in reversed(node.children))
    return rows


def blocked_by_message(events: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """`validation.blocked` events by the message whose move they refused.

    A move is validated right after the message that carried it is recorded (the Analyst's
    analysis, or the client's answer to a slot card), in the same unit of work, so the message
    is the one named by the nearest earlier event that names a message.
    """
    found: dict[int, list[dict[str, Any]]] = {}
    last_message: int | None = None
    for event in events:
        if event.type == EventType.VALIDATION_BLOCKED and last_message is not None:
            found.setdefault(last_message, []).append({"id": event.pk, **event.payload})
        elif isinstance(event.payload.get("message_id"), int):
            last_message = event.payload["message_id"]
    return found


def narration_by_analysis(messages: list[AskMessage]) -> dict[int, list[dict[str, Any]]]:
    """The Narrator's cards of each batch, by the Analyst's analysis they rephrase."""
    return {
        m.parent_id: m.payload["cards"]
        for m in messages
        if m.parent_id is not None and isinstance(m.payload.get("cards"), list)
    }


def llm_totals(calls: list[LLMCall]) -> dict[str, int]:
    return {
        "input_tokens": sum(c.input_tokens for c in calls),
        "output_tokens": sum(c.output_tokens for c in calls),
        "cost_micro_usd": sum(c.cost_micro_usd for c in calls),
    }


# The alert's story on the session page: alerted → escalated → claimed by whom, when → who spoke.
CHAIN_EVENTS = (
    EventType.RISK_ESCALATED,
    EventType.ALERT_ESCALATED,
    EventType.HANDOFF_CREATED,
    EventType.COUNSELOR_TOOK_OVER,
    EventType.COUNSELOR_HANDED_BACK,
)


def _names(events: list[Any]) -> dict[int, str]:
    ids = {e.actor_user_id for e in events if e.actor_user_id}
    ids |= {_counselor_id(e) for e in events if _counselor_id(e)}
    return selectors.people_names(ids)


def _counselor_id(event: Any) -> int | None:
    return _count(event.payload.get("counselor_id"))


def alert_chain(events: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(chain, steer notes) from the session's events, oldest first, with people's names."""
    wanted = [e for e in events if e.type in (*CHAIN_EVENTS, EventType.STEER_NOTED)]
    names = _names(wanted) if wanted else {}
    chain, steers = [], []
    for event in wanted:
        who = names.get(_counselor_id(event) or event.actor_user_id or 0, "")
        item = {"id": event.pk, "type": event.type, "at": event.created_at, "who": who}
        # The log keeps what each writer of its day wrote: a count the page pluralises on is
        # read here, and one missing or malformed is unknown (None), never a failed page.
        item |= {"payload": event.payload, "notified": _count(event.payload.get("notified"))}
        (steers if event.type == EventType.STEER_NOTED else chain).append(item)
    return chain, steers


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def risk_changes(events: list[Any]) -> list[dict[str, Any]]:
    """Every hand change of the risk level, oldest first (staff only: the reason is P3): the
    `risk.changed` events and the escalations a person (or the service role) made."""
    changes = [
        e
        for e in events
        if e.type == EventType.RISK_CHANGED
        or (e.type == EventType.RISK_ESCALATED and e.actor_user_id is not None)
    ]
    names = _names(changes) if changes else {}
    return [
        {
            "at": event.created_at,
            "previous": event.payload.get("previous"),
            "level": event.payload.get("level"),
            "reason": event.payload.get("reason", ""),
            "by": names.get(event.actor_user_id or 0, event.actor),
        }
        for event in changes
    ]


# What the client's app shows of a conversation: cards, answers, what a counselor wrote. Not the
# engine's machinery (the Analyst's output, batch openers, markers), which the engine details show.
SPOKEN_KINDS = frozenset(
    {
        AskMessage.Kind.INTRO,
        AskMessage.Kind.HOOK,
        AskMessage.Kind.TOPIC,
        AskMessage.Kind.QUESTION_CARD,
        AskMessage.Kind.ANSWER,
        AskMessage.Kind.INSIGHT,
        AskMessage.Kind.COMPLETION,
        AskMessage.Kind.CLOSING,
        AskMessage.Kind.LAST_THING,
        AskMessage.Kind.NOTE,
        AskMessage.Kind.REPLY,
        AskMessage.Kind.CRISIS_RESOURCES,
        AskMessage.Kind.TEXT,
    }
)


def conversation(timeline: list[AskMessage]) -> list[AskMessage]:
    """The active branch as the client saw it: each card once (the card itself, not the batch
    that carried it), every answer and word from a person, nothing of the engine's own."""
    said = []
    for message in timeline:
        if message.kind not in SPOKEN_KINDS or not message.text:
            continue
        if message.role == AskMessage.Role.ANALYST:
            continue
        if message.role == AskMessage.Role.SYSTEM and message.kind != AskMessage.Kind.QUESTION_CARD:
            continue
        said.append(message)
    return said


RISK_EVENTS = (EventType.RISK_ESCALATED, EventType.RISK_CHANGED)


def peak_risk(session: AskSession, events: list[Any]) -> str:
    """The highest level the session reached: at the start, the end, or any change between."""
    levels = [session.initial_risk_level, session.final_risk_level]
    levels += [e.payload.get("level") for e in events if e.type in RISK_EVENTS]
    known = [level for level in levels if level in RiskLevel.values]
    return max(known) if known else ""
