"""What a watcher receives (SPEC §8): each event rendered for its reader's privacy level and
format, replays of the log after a `seq`, and the counselors' notices. A push (`push.py`) names
an event and carries none of its payload; the consumer renders it here, for its own reader.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string

from sessions_app.access import sessions_alertable_to
from sessions_app.models import SessionEvent
from sessions_app.privacy import (
    REDACTED_EVENT_TYPE,
    STAFF_MAX_PRIVACY,
    Privacy,
    client_may_see_event,
    scrub_p3,
)

# Watchers choose their frames with `?format=`: JSON (the default, for API clients) or HTML
# fragments that htmx swaps into the page out of band (browser watchers).
FORMAT_JSON = "json"
FORMAT_HTML = "html"
FORMATS = (FORMAT_JSON, FORMAT_HTML)
SESSION_PAGE = "sessions_app/session_detail.html"
HOME_PAGE = "sessions_app/home.html"
# Replays read the log in pages of this many events.
REPLAY_PAGE = 500


def event_view(event: SessionEvent, level: Privacy) -> dict[str, Any]:
    """One event as a reader of privacy `level` may see it.

    A client gets its own conversation's events without P3 keys; any other event reaches it as
    a bare `redacted` marker, so its `seq` stays contiguous and gap detection keeps working.
    """
    if shown_type(event.type, level) == REDACTED_EVENT_TYPE:
        return {
            "seq": event.seq,
            "id": event.pk,
            "type": REDACTED_EVENT_TYPE,
            "created_at": event.created_at,
            "actor": "",
            "payload": {},
        }
    payload = event.payload if level >= STAFF_MAX_PRIVACY else scrub_p3(event.payload)
    return {
        "seq": event.seq,
        "id": event.pk,
        "type": event.type,
        "created_at": event.created_at,
        "actor": event.actor,
        "payload": payload,
    }


def shown_type(event_type: str, level: Privacy) -> str:
    """The type a reader of privacy `level` sees for an event of `event_type`."""
    if level < STAFF_MAX_PRIVACY and not client_may_see_event(event_type):
        return REDACTED_EVENT_TYPE
    return event_type


def render_frame(event: SessionEvent, level: Privacy, fmt: str) -> str:
    view = event_view(event, level)
    if fmt == FORMAT_HTML:
        return render_to_string(f"{SESSION_PAGE}#event_frame", {"event": view})
    return json.dumps(view, cls=DjangoJSONEncoder, ensure_ascii=False)


def frame_for(event_id: int, level: Privacy, fmt: str) -> str:
    return render_frame(SessionEvent.objects.get(pk=event_id), level, fmt)


def frames_after(session_id: object, seq: int, level: Privacy, fmt: str) -> list[tuple[int, str]]:
    """(seq, frame) for every event of the session after `seq`, in order (replay, gaps)."""
    return [(n, frame) for n, _, frame in typed_frames_after(session_id, seq, level, fmt)]


def typed_frames_after(
    session_id: object, seq: int, level: Privacy, fmt: str
) -> list[tuple[int, str, str]]:
    """(seq, the type the reader sees, frame) for every event of the session after `seq`."""
    frames: list[tuple[int, str, str]] = []
    while True:
        page = list(
            SessionEvent.objects.filter(session_id=session_id, seq__gt=seq).order_by("seq")[
                :REPLAY_PAGE
            ]
        )
        frames.extend(
            (event.seq, shown_type(event.type, level), render_frame(event, level, fmt))
            for event in page
        )
        if len(page) < REPLAY_PAGE:
            return frames
        seq = page[-1].seq


FrameKey = tuple[str, int, int, str]


class FrameCache:
    """Frames by (session, event id, privacy level, format), shared by a process's watchers.

    Events are immutable, so a frame rendered once is right forever: with a hundred watchers
    of one session, the row is read and rendered once per process instead of once per watcher.
    Concurrent watchers await the same in-flight render.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._done: OrderedDict[FrameKey, str] = OrderedDict()
        self._inflight: dict[FrameKey, asyncio.Future[str]] = {}

    async def get(self, key: FrameKey, render: Callable[[], str]) -> str:
        if key in self._done:
            return self._done[key]
        task = self._inflight.get(key)
        # A future belongs to its event loop; tests run a loop per test.
        if task is None or task.get_loop() is not asyncio.get_running_loop():
            task = asyncio.ensure_future(database_sync_to_async(render)())
            self._inflight[key] = task
        try:
            text = await task
        finally:
            if self._inflight.get(key) is task and task.done():
                del self._inflight[key]
        self._done[key] = text
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return text


frame_cache = FrameCache()


async def cached_frame(session_id: object, event_id: int, level: Privacy, fmt: str) -> str:
    # The session is part of the key so that an id reused by a rolled-back test transaction
    # (SQLite reuses rowids; committed events are never deleted) cannot hit a stale frame.
    return await frame_cache.get(
        (str(session_id), event_id, int(level), fmt), lambda: frame_for(event_id, level, fmt)
    )


# --- the counselors' stream ----------------------------------------------------------------------


def notice_frame(user: Any, message: dict[str, Any], *, alerts: bool, fmt: str) -> str | None:
    """What `user` receives for a counselors' notice, or None when the session is not theirs.

    The crisis queue is "visible to that counselor per access rules" (SPEC §1): a counselor
    hears about exactly the sessions it could open or was alerted about (and may claim). A
    crisis alert to a counselor off duty, or about a session somebody holds, is only a queue
    change.
    """
    row = (
        sessions_alertable_to(user)
        .filter(pk=message["session_id"])
        .values("handoff_counselor__first_name", "handoff_counselor__username")
        .first()
    )
    if row is None:
        return None
    holder = row["handoff_counselor__first_name"] or row["handoff_counselor__username"]
    kind = message["kind"] if alerts and not holder else "queue.changed"
    notice = {
        "type": kind,
        "session_id": message["session_id"],
        "event_id": message["event_id"],
        "seq": message["seq"],
        "event_type": message["event_type"],
    }
    if fmt == FORMAT_HTML:
        context = {"notice": notice, "holder": holder or ""}
        return render_to_string(f"{HOME_PAGE}#notice_frame", context)
    return json.dumps(notice)
