"""Spin-off (SPEC §5): move messages A…B of one workline into another, once both sides agree.

Nothing is deleted. Agreed, the range's messages change workline and a collapsed marker takes
their place at the end of the source; declined, nothing but the decision itself is recorded.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from sessions_app.engine.graph.tree import _locked, workline_path
from sessions_app.errors import invalid
from sessions_app.events import EventType, event_by
from sessions_app.models import AskMessage, AskSession, SpinOffProposal, Workline


def _range_on_path(
    source: Workline, from_message: AskMessage, to_message: AskMessage
) -> list[AskMessage]:
    """The messages A…B as they stand on the source's current path, or an E_VALIDATION."""
    if from_message.workline_id != to_message.workline_id:
        raise invalid("The range crosses worklines.", to_message_id="another workline")
    path = workline_path(source)
    ids = [m.pk for m in path]
    if from_message.pk not in ids or to_message.pk not in ids:
        raise invalid(
            "Both ends of the range must be on the workline's current branch.",
            from_message_id="not on the current branch",
        )
    start, end = ids.index(from_message.pk), ids.index(to_message.pk)
    if start > end:
        raise invalid("The range is reversed: A must come before B.", to_message_id="before A")
    moved = [m for m in path[start : end + 1] if m.kind != AskMessage.Kind.MARKER]
    if not moved:
        raise invalid("The range holds no messages to move.", from_message_id="empty range")
    return path[start : end + 1]


@transaction.atomic
def spin_off_propose(
    *,
    session: AskSession,
    from_message: AskMessage,
    to_message: AskMessage,
    target_workline: Workline | None = None,
    new_workline_name: str = "",
    by: Any = None,
) -> SpinOffProposal:
    locked = _locked(session)
    if from_message.session_id != locked.pk or to_message.session_id != locked.pk:
        raise invalid("The range must be messages of this session.", from_message_id="elsewhere")
    if from_message.workline_id is None:
        raise invalid("That message belongs to no workline.", from_message_id="no workline")
    source = Workline.objects.get(pk=from_message.workline_id)
    _range_on_path(source, from_message, to_message)
    new_workline_name = (new_workline_name or "").strip()
    if (target_workline is None) == (not new_workline_name):
        raise invalid(
            "Name exactly one target: an existing workline or a new workline's name.",
            target_workline_id="one of target_workline_id, new_workline_name",
        )
    if target_workline is not None and (
        target_workline.session_id != locked.pk or target_workline.pk == source.pk
    ):
        raise invalid("The target must be another workline of this session.", target="invalid")
    if new_workline_name and Workline.objects.filter(session=locked, name=new_workline_name):
        raise invalid(f"A workline named {new_workline_name!r} exists.", new_workline_name="taken")
    proposal = SpinOffProposal.objects.create(
        session=locked,
        source=source,
        target=target_workline,
        new_workline_name=new_workline_name,
        from_message=from_message,
        to_message=to_message,
    )
    event_by(
        session=locked,
        type=EventType.WORKLINE_SPIN_OFF_PROPOSED,
        payload=_described(proposal),
        by=by,
    )
    return proposal


def _described(proposal: SpinOffProposal) -> dict[str, Any]:
    """How the spin-off events name a proposal: itself, its source and its range."""
    return {
        "proposal": proposal.pk,
        "source": proposal.source_id,
        "range": [proposal.from_message_id, proposal.to_message_id],
    }


@transaction.atomic
def spin_off_decide(*, proposal: SpinOffProposal, agreed: bool, by: Any = None) -> SpinOffProposal:
    locked = _locked(proposal.session)
    # A conditional UPDATE: of two concurrent decisions exactly one finds the proposal open.
    won = SpinOffProposal.objects.filter(pk=proposal.pk, status=SpinOffProposal.Status.PROPOSED)
    if not agreed:
        if not won.update(status=SpinOffProposal.Status.DECLINED, decided_at=timezone.now()):
            raise invalid("This proposal was already decided.", proposal="decided")
        proposal.refresh_from_db()
        _record(locked, proposal, agreed=False, by=by)
        return proposal
    source = Workline.objects.get(pk=proposal.source_id)
    moved = _range_on_path(source, proposal.from_message, proposal.to_message)
    if not won.update(status=SpinOffProposal.Status.AGREED, decided_at=timezone.now()):
        raise invalid("This proposal was already decided.", proposal="decided")
    target = proposal.target or Workline.objects.create(
        session=locked, name=proposal.new_workline_name, status=Workline.Status.PARKED
    )
    SpinOffProposal.objects.filter(pk=proposal.pk).update(target=target)
    reparented = _rehome(locked, source, target, moved)
    proposal.refresh_from_db()
    _record(locked, proposal, agreed=True, by=by, moved=moved, reparented=reparented)
    return proposal


def _rehome(
    session: AskSession, source: Workline, target: Workline, moved: list[AskMessage]
) -> dict[int, int | None]:
    """Give the range to the target and leave a marker at the end of the source."""
    moved_ids = {m.pk for m in moved}
    path = workline_path(source)
    start = next(i for i, m in enumerate(path) if m.pk in moved_ids)
    before = path[start - 1] if start > 0 else None
    reparented: dict[int, int | None] = {}
    if target.head_id is not None:
        # The target already has a line of its own: splice the range after its head, and let the
        # source's later messages skip over the range, so both paths stay whole.
        _refuse_cycle(session, target, moved_ids)
        first = moved[0]
        reparented[first.pk] = first.parent_id
        AskMessage.objects.filter(pk=first.pk).update(parent_id=target.head_id)
        children = AskMessage.objects.filter(parent_id__in=moved_ids, workline=source)
        for child_id, parent_id in children.exclude(pk__in=moved_ids).values_list("id", "parent"):
            reparented[child_id] = parent_id
        children.exclude(pk__in=moved_ids).update(parent_id=first.parent_id)
    AskMessage.objects.filter(pk__in=moved_ids).update(workline=target)
    Workline.objects.filter(pk=target.pk).update(head=moved[-1], updated_at=timezone.now())
    source_head = source.head_id
    if source_head in moved_ids:
        source_head = before.pk if before is not None else None
    marker = AskMessage.objects.create(
        session=session,
        parent_id=source_head,
        workline=source,
        role=AskMessage.Role.SYSTEM,
        kind=AskMessage.Kind.MARKER,
        text=f"Moved to «{target.name}» (messages {moved[0].pk}–{moved[-1].pk})",
        payload={"spin_off_target": target.pk, "range": [moved[0].pk, moved[-1].pk]},
    )
    Workline.objects.filter(pk=source.pk).update(head=marker, updated_at=timezone.now())
    AskSession.objects.filter(pk=session.pk).update(message_count=F("message_count") + 1)
    return reparented


def _refuse_cycle(session: AskSession, target: Workline, moved_ids: set[int]) -> None:
    """Splicing under the target's head must not make a moved message its own ancestor."""
    parents = dict(AskMessage.objects.filter(session=session).values_list("id", "parent_id"))
    node = target.head_id
    while node is not None:
        if node in moved_ids:
            raise invalid(
                "The target's line grew out of this range; spin it off into a new workline.",
                target_workline_id="descends from the range",
            )
        node = parents.get(node)


def _record(
    session: AskSession,
    proposal: SpinOffProposal,
    *,
    agreed: bool,
    by: Any,
    moved: list[AskMessage] | None = None,
    reparented: dict[int, int | None] | None = None,
) -> None:
    event_by(
        session=session,
        type=EventType.WORKLINE_SPIN_OFF,
        payload={
            **_described(proposal),
            "target": proposal.target_id,
            "agreed": agreed,
            "moved": [m.pk for m in moved or []],
            "reparented": {str(k): v for k, v in (reparented or {}).items()},
        },
        by=by,
    )
