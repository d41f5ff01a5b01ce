"""Websocket consumers (SPEC §8). Thin: `connect` authenticates and checks access, handlers
render through `realtime` and forward.

Close codes after the handshake: 4400 a malformed `?since=` or `?format=`, 4401 no valid
credentials, 4403 the role may not use this stream or a counselor reached a crisis session that
is not theirs (E_FORBIDDEN), 4404 a session the caller may not know exists (E_NOT_FOUND).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from sessions_app.access import max_privacy_for, session_for
from sessions_app.errors import ApplicationError
from sessions_app.models import AskSession
from sessions_app.realtime import push as realtime
from sessions_app.realtime.auth import accepted_subprotocol
from sessions_app.roles import Role, role_of

NO_CREDENTIALS = 4401
FORBIDDEN = 4403
NOT_FOUND = 4404
BAD_REQUEST = 4400


class BadQuery(ValueError):
    pass


def query_options(scope: dict[str, Any]) -> tuple[str, int | None]:
    """(`format`, `since`) from the query string; `since` None means "from now on"."""
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    fmt = query.get("format", [realtime.FORMAT_JSON])[-1]
    if fmt not in realtime.FORMATS:
        raise BadQuery("format")
    since = query.get("since", [None])[-1]
    if since is None or since == "":
        return fmt, None
    if not (since.isascii() and since.isdigit() and len(since) <= 10):
        raise BadQuery("since")
    return fmt, int(since)


class StreamConsumer(AsyncWebsocketConsumer):
    group: str | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler: a hop to the one
        # sync thread per message per watcher, so a push to a hundred watchers queued a hundred
        # hops (QUALITY P5). These handlers reach the database only through
        # `database_sync_to_async`, which closes stale connections itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def refuse(self, code: int) -> None:
        # Accepted first so the client learns why: a close before accept is only an HTTP 403.
        await self.accept(accepted_subprotocol(self.scope))
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)


def _session_access(user: Any, session_id: Any) -> tuple[Any, Any]:
    session = session_for(user, session_id)
    return session, max_privacy_for(user)


class SessionEventsConsumer(StreamConsumer):
    """`ws/sessions/<id>/[?since=SEQ][&format=html]`: every event of one session, in seq order,
    each exactly once per connection: the replay after `since`, then live pushes."""

    async def connect(self) -> None:
        try:
            self.format, since = query_options(self.scope)
        except BadQuery:
            return await self.refuse(BAD_REQUEST)
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return await self.refuse(NO_CREDENTIALS)
        try:
            session, self.level = await database_sync_to_async(_session_access)(
                user, self.scope["url_route"]["kwargs"]["session_id"]
            )
        except ApplicationError as exc:
            return await self.refuse(FORBIDDEN if exc.status == 403 else NOT_FOUND)
        self.session_id = session.pk
        # Join before reading the log: an event committed from here on arrives as a push, one
        # committed before is in the read, and `last_seq` drops whatever arrives twice.
        self.group = realtime.session_group(session.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept(accepted_subprotocol(self.scope))
        current = await database_sync_to_async(_current_seq)(session.pk)
        # A `since` from the future (a stale client, a restored database) would silently drop
        # every event up to it: it is read as "from now on" instead.
        self.last_seq = current if since is None else min(since, current)
        await self.catch_up()

    async def session_event(self, message: dict[str, Any]) -> None:
        seq = message["seq"]
        if seq <= self.last_seq:
            return
        if seq > self.last_seq + 1:
            # A push was lost, or pushes from two web processes crossed: the database has
            # every committed event up to this one (seq order is commit order per session).
            return await self.catch_up()
        frame = await realtime.cached_frame(
            self.session_id, message["event_id"], self.level, self.format
        )
        await self.send(text_data=frame)
        self.last_seq = seq

    async def catch_up(self) -> None:
        frames = await database_sync_to_async(realtime.frames_after)(
            self.session_id, self.last_seq, self.level, self.format
        )
        for seq, frame in frames:
            await self.send(text_data=frame)
            self.last_seq = seq


def _current_seq(session_id: Any) -> int:
    return AskSession.objects.filter(pk=session_id).values_list("event_seq", flat=True).get()


class CounselorsConsumer(StreamConsumer):
    """`ws/counselors/[?format=html]`: crisis alerts and crisis-queue changes for staff."""

    async def connect(self) -> None:
        try:
            self.format, _ = query_options(self.scope)
        except BadQuery:
            return await self.refuse(BAD_REQUEST)
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            return await self.refuse(NO_CREDENTIALS)
        role = await database_sync_to_async(role_of)(self.user)
        if role not in {Role.COUNSELOR, Role.OPS}:
            return await self.refuse(FORBIDDEN)
        self.alerts = await database_sync_to_async(realtime.receives_crisis_alerts)(self.user)
        self.group = realtime.COUNSELORS_GROUP
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept(accepted_subprotocol(self.scope))

    async def counselors_notice(self, message: dict[str, Any]) -> None:
        frame = await database_sync_to_async(realtime.notice_frame)(
            self.user, message, alerts=self.alerts, fmt=self.format
        )
        if frame is not None:
            await self.send(text_data=frame)


class NotificationsConsumer(StreamConsumer):
    """`ws/notifications/`: the signed-in user's own notifications as they are delivered, for
    the client app (token auth, as the session stream). Each frame names the notification; its
    content is read from the REST inbox, which applies the privacy rules."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return await self.refuse(NO_CREDENTIALS)
        self.group = realtime.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept(accepted_subprotocol(self.scope))

    async def notification_new(self, message: dict[str, Any]) -> None:
        frame = {key: message[key] for key in ("type", "notification_id", "kind")}
        await self.send(text_data=json.dumps(frame))
