"""`Idempotency-Key` for every POST (SPEC §9): a retry returns the first response and changes
nothing.

The record of a key is inserted in the same transaction as the work of the request and filled
with the response before that transaction commits, so it exists exactly when the work does:
- a sequential retry finds the completed record and replays it;
- a concurrent retry's INSERT blocks on the unique (user, key) until the first transaction ends
  (PostgreSQL; SQLite serialises writers anyway), then fails and replays the stored response —
  the duplicate waits, it never gets a 409 for being early;
- a request that fails (an error response or an exception) rolls back with its record, so the
  retry runs again — and nothing had changed.
Only successful responses are stored. The same key with a different method, path or body is
`422 E_IDEMPOTENCY_KEY_REUSED`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app.api.plugins import JSONRenderer
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.events import idempotency_claim_scope
from sessions_app.models import IdempotencyRecord

HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"
KEY_PATTERN = r"[\x21-\x7e]{1,255}"  # visible ASCII, as the IETF draft suggests
_KEY_RE = re.compile(KEY_PATTERN)

Handler = Callable[..., Response]


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    raw = f"{request.method}\n{request.path}\n{body}".encode()
    return hashlib.sha256(raw).hexdigest()


def _in_progress() -> ApplicationError:
    return ApplicationError(
        ErrorCode.IDEMPOTENCY_IN_PROGRESS,
        "A request with this Idempotency-Key is still being processed; retry shortly.",
    )


def _replay(*, user: Any, key: str, fingerprint: str) -> Response:
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        # Gone between our failed insert and this read (expired and swept by a concurrent
        # request): nothing to replay, and the retry will find the key free.
        raise _in_progress()
    if record.fingerprint != fingerprint:
        raise ApplicationError(
            ErrorCode.IDEMPOTENCY_KEY_REUSED,
            "This Idempotency-Key was used for a different request.",
        )
    return Response(
        record.response_body, status=record.response_status, headers={REPLAY_HEADER: "true"}
    )


def _key_from(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is not None and not _KEY_RE.fullmatch(key):
        raise ApplicationError(
            ErrorCode.VALIDATION,
            "Invalid input.",
            fields={HEADER: ["1 to 255 visible ASCII characters."]},
        )
    return key


def _keyed(request: Request) -> tuple[str, str] | None:
    """The request's key and fingerprint, or None when it carries no key (or no user). An
    expired record of the key is dropped first, so the key is free again."""
    key = _key_from(request)
    if key is None or not request.user.is_authenticated:
        return None
    cutoff = timezone.now() - settings.IDEMPOTENCY_KEY_TTL
    IdempotencyRecord.objects.filter(user=request.user, key=key, created_at__lt=cutoff).delete()
    return key, _fingerprint(request)


def _stored(response: Response) -> Any:
    return json.loads(JSONRenderer().render(response.data) or b"null")


def _session_of(kwargs: dict[str, Any], body: Any) -> uuid.UUID | None:
    """The session a stored response is about: its URL's, or the `session_id` it names (a task,
    a hypothesis). Its anonymisation forgets the record (`redaction.replays_forget`)."""
    named = kwargs.get("session_id")
    if named is None and isinstance(body, dict):
        named = body.get("session_id")
    try:
        return uuid.UUID(str(named)) if named is not None else None
    except ValueError:
        return None


def _keyed_wrapper(
    handler: Handler, run: Callable[..., Response], *, staged: bool = False
) -> Handler:
    """Wrap a DRF `post` handler: a request without a key runs as it is; a keyed one goes
    through `run(call, user=, key=, fingerprint=, url_kwargs=)`, where `call()` runs the
    handler — and, staged, `result=`: the view's answer for work whose response was lost."""

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        keyed = _keyed(request)
        if keyed is None:
            return handler(view, request, *args, **kwargs)
        key, fingerprint = keyed
        extra = {"result": lambda: view.idempotent_result(request, *args, **kwargs)}
        return run(
            lambda: handler(view, request, *args, **kwargs),
            user=request.user,
            key=key,
            fingerprint=fingerprint,
            url_kwargs=kwargs,
            **(extra if staged else {}),
        )

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


def _run_in_one_transaction(
    call: Callable[[], Response],
    *,
    user: Any,
    key: str,
    fingerprint: str,
    url_kwargs: dict[str, Any],
) -> Response:
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyRecord.objects.create(
                    user=user, key=key, fingerprint=fingerprint
                )
        except IntegrityError:
            return _replay(user=user, key=key, fingerprint=fingerprint)
        response = call()
        if not 200 <= response.status_code < 300:
            transaction.set_rollback(True)
            return response
        _store(record, response, url_kwargs)
    return response


def idempotent(handler: Handler) -> Handler:
    """Wrap a DRF `post` handler; `ApiView` applies it to every POST handler it sees."""
    return _keyed_wrapper(handler, _run_in_one_transaction)


# --- staged: for handlers that call a model ---------------------------------------------------
# A turn endpoint commits the client's answer first and then waits on a model: wrapping it in
# one transaction would hold locks across the network call and, worse, roll the stored answer
# back if the model path failed. Staged, the key is claimed in its own transaction, the handler
# runs with its own transactions, and the response is stored after — a retry replays it.
#
# The process serving a staged request can die between its work committing and its response
# being stored (a SIGKILL, an OOM kill, a deploy). Two things make its retry resolve at once
# to the one committed result, never to the work done twice:
# - the work marks the claim applied in the transaction that commits it (`events.
#   idempotency_claim_scope`): a retry that finds an applied claim without a response answers
#   with the view's `idempotent_result` (for a turn, the current state) and stores that;
# - on PostgreSQL the attempt holds a session-level advisory lock on its key for as long as it
#   runs, and the database drops it the moment the attempt's connection dies: a retry that gets
#   the lock knows no attempt is running, one that does not is told to wait
#   (409 E_IDEMPOTENCY_IN_PROGRESS). Other databases (the embedded SQLite) have no such lock: a
#   claim counts as running until STAGED_LEASE_SECONDS have passed.
STAGED_LEASE_SECONDS = 300


def _lock_id(user: Any, key: str) -> int:
    digest = hashlib.sha256(f"idempotency:{user.pk}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextmanager
def _key_held(user: Any, key: str) -> Iterator[bool | None]:
    """True while this attempt alone holds the key, False when another running one does; None
    where the database cannot say (no advisory locks)."""
    if connection.vendor != "postgresql":
        yield None
        return
    lock = _lock_id(user, key)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [lock])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            _key_release(lock)


def _key_release(lock: int) -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [lock])
    except DatabaseError:
        # The connection is gone, and the lock with it; a pooled connection must not go back
        # holding it, so it is closed rather than reused.
        connection.close()


def _claim(
    *, user: Any, key: str, fingerprint: str, alone: bool | None = None, attempts: int = 3
) -> IdempotencyRecord | Response:
    """This attempt's record of the key, or the response to give instead of running."""
    try:
        with transaction.atomic():
            return IdempotencyRecord.objects.create(user=user, key=key, fingerprint=fingerprint)
    except IntegrityError:
        pass
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        # The claim we collided with was released in between (its request failed and stores
        # nothing): the key is free again, so claim it — a bounded number of times.
        if attempts <= 1:
            raise _in_progress()
        return _claim(
            user=user, key=key, fingerprint=fingerprint, alone=alone, attempts=attempts - 1
        )
    if record.fingerprint != fingerprint or record.response_status is not None:
        return _replay(user=user, key=key, fingerprint=fingerprint)
    if alone:
        return record  # no attempt runs: the one that claimed it died
    stale = timezone.now() - timedelta(seconds=STAGED_LEASE_SECONDS)
    # A conditional UPDATE: of two retries taking over a stale claim, exactly one wins.
    taken = IdempotencyRecord.objects.filter(
        pk=record.pk, response_status__isnull=True, created_at__lt=stale
    ).update(created_at=timezone.now())
    if taken:
        return record
    raise _in_progress()


def _store(record: IdempotencyRecord, response: Response, url_kwargs: dict[str, Any]) -> None:
    body = _stored(response)
    changes: dict[str, Any] = {"response_status": response.status_code, "response_body": body}
    session_id = _session_of(url_kwargs, body)
    if session_id is not None:
        changes["session_id"] = session_id
    IdempotencyRecord.objects.filter(pk=record.pk).update(**changes)


def _release(record: IdempotencyRecord) -> None:
    """A failed attempt gives the key back — unless its work committed: then the retry must
    find the claim and replay that work's result."""
    IdempotencyRecord.objects.filter(pk=record.pk, applied_at__isnull=True).delete()


def _run_staged(
    call: Callable[[], Response],
    *,
    user: Any,
    key: str,
    fingerprint: str,
    url_kwargs: dict[str, Any],
    result: Callable[[], Response],
) -> Response:
    with _key_held(user, key) as alone:
        if alone is False:
            raise _in_progress()
        claimed = _claim(user=user, key=key, fingerprint=fingerprint, alone=alone)
        if isinstance(claimed, Response):
            return claimed
        if claimed.applied_at is not None:
            # The attempt before committed its work and died before storing its response.
            response = result()
            _store(claimed, response, url_kwargs)
            response[REPLAY_HEADER] = "true"
            return response
        try:
            with idempotency_claim_scope(claimed.pk):
                response = call()
        except BaseException:
            _release(claimed)
            raise
        if not 200 <= response.status_code < 300:
            _release(claimed)
            return response
        _store(claimed, response, url_kwargs)
        return response


def idempotent_staged(handler: Handler) -> Handler:
    """Like `idempotent`, for a `post` handler that must not run inside one transaction. The
    view answers `idempotent_result(request, *args, **kwargs)`: the response to give for work
    that committed when its own response was lost."""
    return _keyed_wrapper(handler, _run_staged, staged=True)
