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
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app.api.plugins import JSONRenderer
from sessions_app.errors import ApplicationError
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
        "E_IDEMPOTENCY_IN_PROGRESS",
        "A request with this Idempotency-Key is still being processed; retry shortly.",
        status=409,
    )


def _replay(*, user: Any, key: str, fingerprint: str) -> Response:
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is None:
        # Gone between our failed insert and this read (expired and swept by a concurrent
        # request): nothing to replay, and the retry will find the key free.
        raise _in_progress()
    if record.fingerprint != fingerprint:
        raise ApplicationError(
            "E_IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was used for a different request.",
            status=422,
        )
    return Response(
        record.response_body, status=record.response_status, headers={REPLAY_HEADER: "true"}
    )


def _key_from(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is not None and not _KEY_RE.fullmatch(key):
        raise ApplicationError(
            "E_VALIDATION",
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


def _keyed_wrapper(handler: Handler, run: Callable[..., Response]) -> Handler:
    """Wrap a DRF `post` handler: a request without a key runs as it is; a keyed one goes
    through `run(call, user=, key=, fingerprint=)`, where `call()` runs the handler."""

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        keyed = _keyed(request)
        if keyed is None:
            return handler(view, request, *args, **kwargs)
        key, fingerprint = keyed
        return run(
            lambda: handler(view, request, *args, **kwargs),
            user=request.user,
            key=key,
            fingerprint=fingerprint,
        )

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


def _run_in_one_transaction(
    call: Callable[[], Response], *, user: Any, key: str, fingerprint: str
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
        record.response_status = response.status_code
        record.response_body = _stored(response)
        record.save(update_fields=["response_status", "response_body"])
    return response


def idempotent(handler: Handler) -> Handler:
    """Wrap a DRF `post` handler; `ApiView` applies it to every POST handler it sees."""
    return _keyed_wrapper(handler, _run_in_one_transaction)


# --- staged: for handlers that call a model ---------------------------------------------------
# A turn endpoint commits the client's answer first and then waits on a model: wrapping it in
# one transaction would hold locks across the network call and, worse, roll the stored answer
# back if the model path failed. Staged, the key is claimed in its own transaction, the handler
# runs with its own transactions, and the response is stored after — a retry replays it. A
# retry that arrives while the first is still running gets 409 E_IDEMPOTENCY_IN_PROGRESS; a
# claim left behind by a crashed process expires after STAGED_LEASE.
STAGED_LEASE_SECONDS = 300


def _claim(
    *, user: Any, key: str, fingerprint: str, attempts: int = 3
) -> IdempotencyRecord | Response:
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
        return _claim(user=user, key=key, fingerprint=fingerprint, attempts=attempts - 1)
    if record.fingerprint != fingerprint or record.response_status is not None:
        return _replay(user=user, key=key, fingerprint=fingerprint)
    stale = timezone.now() - timedelta(seconds=STAGED_LEASE_SECONDS)
    # A conditional UPDATE: of two retries taking over a stale claim, exactly one wins.
    taken = IdempotencyRecord.objects.filter(
        pk=record.pk, response_status__isnull=True, created_at__lt=stale
    ).update(created_at=timezone.now())
    if taken:
        return record
    raise _in_progress()


def _run_staged(call: Callable[[], Response], *, user: Any, key: str, fingerprint: str) -> Response:
    claimed = _claim(user=user, key=key, fingerprint=fingerprint)
    if isinstance(claimed, Response):
        return claimed
    try:
        response = call()
    except BaseException:
        IdempotencyRecord.objects.filter(pk=claimed.pk).delete()
        raise
    if not 200 <= response.status_code < 300:
        IdempotencyRecord.objects.filter(pk=claimed.pk).delete()
        return response
    IdempotencyRecord.objects.filter(pk=claimed.pk).update(
        response_status=response.status_code, response_body=_stored(response)
    )
    return response


def idempotent_staged(handler: Handler) -> Handler:
    """Like `idempotent`, for a `post` handler that must not run inside one transaction."""
    return _keyed_wrapper(handler, _run_staged)
