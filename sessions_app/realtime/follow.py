"""A session's log followed from an HTTP response (SPEC §8, §9): the Server-Sent Events stream
and the long poll of the REST API (`sessions_app/api/stream.py`).

Both run in the event loop and hold no thread while they wait. They wait as a websocket watcher
does: on the session's channel-layer group, where `push` names each event after its commit,
and — the layer being at-most-once — on the database every `STREAM_POLL_SECONDS`, so a lost push
costs a few seconds, never an event. Each event is re-read from the log and rendered for its
reader by `frames`, exactly as a websocket watcher of the same role receives it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from sessions_app.models import AskSession, EventType
from sessions_app.privacy import Privacy
from sessions_app.realtime import frames
from sessions_app.realtime.push import session_group, sockets_group

logger = logging.getLogger(__name__)

# A Redis that accepts and never answers must not hold a stream: it falls back to the database.
LAYER_TIMEOUT_SECONDS = 2
# After one of these the session has ended: the stream sends what follows it in the log and ends.
ENDING_TYPES = frozenset(
    {EventType.SESSION_CLOSED, EventType.SESSION_CLOSED_ABNORMALLY, EventType.SESSION_DELETED}
)
# How long an EventSource waits before it reconnects (with `Last-Event-ID`) after a drop.
RETRY_MILLISECONDS = 3000
KEEP_ALIVE = b": keep-alive\n\n"


@dataclass(frozen=True)
class Reader:
    """Who follows the stream: what it may see, and the credentials whose end ends the stream
    (a logout or an evicted token is broadcast to the user's `sockets` group, as for its
    websockets; an expiring token ends the stream when it expires)."""

    user_id: int
    level: Privacy
    token_digest: str | None = None
    session_digest: str | None = None
    expiry: datetime | None = None
    # The stream's place among the user's live connections (WEBSOCKETS_PER_USER, as for its
    # websockets): `opened(channel)` counts it and returns the channels of the oldest ones
    # beyond the bound, `closed(channel)` gives the place back. Synchronous (the database).
    opened: Callable[[str], list[str]] | None = None
    closed: Callable[[str], None] | None = None

    def revoked_by(self, message: dict[str, Any]) -> bool:
        return (self.token_digest or "") in message.get("token_digests", ()) or (
            self.session_digest or ""
        ) in message.get("session_digests", ())


class Wakeups:
    """The pushes to `groups`, received in the event loop. A layer that fails (at joining or
    later) leaves the follower to the database alone; nothing of it escapes."""

    def __init__(self, groups: list[str]) -> None:
        self.groups = groups
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.joined: list[str] = []
        self.live = False
        self.pending: asyncio.Future[dict[str, Any]] | None = None

    async def __aenter__(self) -> Wakeups:
        if self.layer is None:
            return self
        try:
            self.channel = await asyncio.wait_for(self.layer.new_channel(), LAYER_TIMEOUT_SECONDS)
            for group in self.groups:
                await asyncio.wait_for(
                    self.layer.group_add(group, self.channel), LAYER_TIMEOUT_SECONDS
                )
                self.joined.append(group)
            self.live = True
        except Exception as exc:  # the database alone, every STREAM_POLL_SECONDS
            logger.warning("stream.layer_failed step=join error=%s", type(exc).__name__)
        return self

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next push within `timeout` seconds, or None."""
        timeout = max(0.0, timeout)
        if not self.live:
            await asyncio.sleep(timeout)
            return None
        # One receive stays pending across calls: a timeout never cancels it, so no push is
        # dropped between two waits.
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.layer.receive(self.channel))
        done, _ = await asyncio.wait({self.pending}, timeout=timeout)
        if not done:
            return None
        received, self.pending = self.pending, None
        try:
            return received.result()
        except Exception as exc:  # Redis went away under a live stream
            logger.warning("stream.layer_failed step=receive error=%s", type(exc).__name__)
            self.live = False
            return None

    async def __aexit__(self, *exc_info: object) -> None:
        if self.pending is not None:
            self.pending.cancel()
        for group in self.joined:
            try:
                await asyncio.wait_for(
                    self.layer.group_discard(group, self.channel), LAYER_TIMEOUT_SECONDS
                )
            except Exception as exc:  # the group's entry expires by itself (channels-redis)
                logger.warning("stream.layer_failed step=leave error=%s", type(exc).__name__)


def session_seq(session_id: object) -> int:
    """The seq of the session's last committed event."""
    return AskSession.objects.filter(pk=session_id).values_list("event_seq", flat=True).get()


class Feed:
    """The session's events after `after`, as Server-Sent Events for one reader: each once, in
    seq order, whether it came by push, by a gap's read or by the poll."""

    def __init__(self, session_id: object, level: Privacy, after: int) -> None:
        self.session_id = session_id
        self.level = level
        self.last = after
        self.ended = False

    async def from_log(self) -> list[bytes]:
        events = await database_sync_to_async(frames.typed_frames_after)(
            self.session_id, self.last, self.level, frames.FORMAT_JSON
        )
        return [self._event(seq, shown, frame) for seq, shown, frame in events]

    async def from_push(self, message: dict[str, Any]) -> list[bytes]:
        seq = message["seq"]
        if seq <= self.last:
            return []
        if seq > self.last + 1:
            # A push was lost, or pushes from two web processes crossed: the database has every
            # committed event up to this one (seq order is commit order per session).
            return await self.from_log()
        frame = await frames.cached_frame(
            self.session_id, message["event_id"], self.level, frames.FORMAT_JSON
        )
        return [self._event(seq, frames.shown_type(message["event_type"], self.level), frame)]

    def _event(self, seq: int, shown: str, frame: str) -> bytes:
        self.last = seq
        self.ended = self.ended or shown in ENDING_TYPES
        # A frame is one line of JSON (newlines inside strings are escaped): one `data:` line.
        return f"id: {seq}\nevent: {shown}\ndata: {frame}\n\n".encode()


def _seconds(name: str) -> float:
    return float(getattr(settings, name))


async def event_stream(
    *, session_id: object, reader: Reader, after: int, ended: bool
) -> AsyncIterator[bytes]:
    """The stream's body: what the log holds after `after`, then each event as it commits, a
    comment line when nothing was sent for `STREAM_HEARTBEAT_SECONDS`; it ends after the
    session's ending events (at once after the replay when it had `ended` already), when the
    reader's credentials end, or when the client goes (Django cancels the iteration)."""
    feed = Feed(session_id, reader.level, after)
    groups = [session_group(session_id), sockets_group(reader.user_id)]
    # Joined before reading the log: an event committed from here on arrives as a push, one
    # committed before is in the read, and `feed.last` drops whatever arrives twice. The first
    # line goes out after both, so a client that reads it is following.
    async with Wakeups(groups) as wakeups:
        replay = await feed.from_log()
        following = not (ended or feed.ended)
        # A stream that stays open takes its place among the user's live connections first.
        counted = following and wakeups.live and reader.opened is not None
        if counted:
            await _evict(wakeups, await database_sync_to_async(reader.opened)(wakeups.channel))
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
            for chunk in replay:
                yield chunk
            if not following:
                return
            async with aclosing(_live(feed, wakeups, reader)) as live:
                async for chunk in live:
                    yield chunk
        finally:
            if counted and reader.closed is not None:
                await database_sync_to_async(reader.closed)(wakeups.channel)


async def _evict(wakeups: Wakeups, channels: list[str]) -> None:
    """Tell the user's oldest connections beyond the bound to go (a websocket closes 4429, a
    stream ends); their places are given back already."""
    for channel in channels:
        try:
            await asyncio.wait_for(
                wakeups.layer.send(channel, {"type": "socket.evicted"}), LAYER_TIMEOUT_SECONDS
            )
        except Exception as exc:  # the evicted one goes when its credentials or session do
            logger.warning("stream.evict_failed error=%s", type(exc).__name__)


async def _live(feed: Feed, wakeups: Wakeups, reader: Reader) -> AsyncIterator[bytes]:
    """Events as they commit, until the session ends or the reader's credentials do."""
    loop = asyncio.get_running_loop()
    expiry = _until(reader.expiry)
    stop = loop.time() + expiry if expiry is not None else math.inf
    next_poll = loop.time() + _seconds("STREAM_POLL_SECONDS")
    next_beat = loop.time() + _seconds("STREAM_HEARTBEAT_SECONDS")
    while not feed.ended:
        message = await wakeups.next(min(next_poll, next_beat, stop) - loop.time())
        now = loop.time()
        kind = message["type"] if message is not None else None
        if now >= stop or kind == "socket.evicted":
            return
        if kind == "credentials.revoked" and reader.revoked_by(message):
            return
        chunks: list[bytes] = []
        if kind == "session.event" or (message is None and now >= next_poll):
            chunks = await (feed.from_push(message) if message else feed.from_log())
            next_poll = now + _seconds("STREAM_POLL_SECONDS")
        if feed.ended:
            # The closing commit's later events may still be on their way as pushes.
            chunks += await feed.from_log()
        if not chunks and now >= next_beat:
            chunks = [KEEP_ALIVE]
        for chunk in chunks:
            yield chunk
        if chunks:
            next_beat = loop.time() + _seconds("STREAM_HEARTBEAT_SECONDS")


def _until(moment: datetime | None) -> float | None:
    if moment is None:
        return None
    return max(0.0, (moment - timezone.now()).total_seconds())


async def after_change(
    *,
    session_id: object,
    since: int,
    wait: float,
    render: Callable[[], bytes],
    settled: Callable[[], bool] | None = None,
) -> AsyncIterator[bytes]:
    """The long poll's body: `render()` once the session has an event after `since` — or, given
    `settled`, once that reads true (checked after each of the session's events) — or after
    `wait` seconds."""
    ready = settled or (lambda: session_seq(session_id) > since)
    async with Wakeups([session_group(session_id)]) as wakeups:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        # Read after joining: an event committed since the view looked is seen here, a later
        # one arrives as a push.
        done = await database_sync_to_async(ready)()
        next_poll = loop.time() + _seconds("STREAM_POLL_SECONDS")
        while not done and (now := loop.time()) < deadline:
            message = await wakeups.next(min(deadline, next_poll) - now)
            if message is not None and message["type"] == "session.event":
                done = message["seq"] > since if settled is None else await _read(ready)
            elif message is None and loop.time() >= next_poll:
                done = await _read(ready)
                next_poll = loop.time() + _seconds("STREAM_POLL_SECONDS")
    yield await database_sync_to_async(render)()


async def _read(check: Callable[[], bool]) -> bool:
    return await database_sync_to_async(check)()
