"""Issue 20 / QUALITY R10: a real server on PostgreSQL holds at most DB_POOL_MAX_SIZE
connections; a request that cannot get one within DB_POOL_TIMEOUT answers 503 E_UNAVAILABLE
with Retry-After, and the requests that held the connections still finish."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Any

import pytest
from django.db import transaction

from sessions_app.models import AskSession
from tests.server import ARTIFACTS, daphne, database_url
from tests.sessions_app.test_outages import (
    call,
    call_with_headers,
    client_who_signs_in,
    sign_in_and_create_a_session,
)

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("transactional_db")]

POOLED = {"DB_POOL": "1", "DB_POOL_MIN_SIZE": "0", "DB_POOL_MAX_SIZE": "2", "DB_POOL_TIMEOUT": "2"}


def test_a_request_that_gets_no_pooled_connection_answers_503_with_retry_after():
    client_who_signs_in("pia")
    with daphne(db_url=database_url(), log_name="pool.log", env=POOLED) as url:
        token, created = sign_in_and_create_a_session(url, "pia")
        base = f"{url}/api/ask/sessions/{created['_id']}"
        _, state = call(f"{base}/state", "GET", token=token)
        body = {"card_id": state["current_card"]["id"], "text": "Work stress"}

        def answer(_: int) -> Any:
            return call_with_headers(f"{base}/answers", "POST", body, token)

        with ThreadPoolExecutor(max_workers=3) as pool:
            with transaction.atomic():
                # The session row locked here: two answers take the pool's two connections and
                # wait on the lock, so the third finds no connection within the timeout.
                AskSession.objects.select_for_update().get(pk=created["_id"])
                futures = [pool.submit(answer, n) for n in range(3)]
                # The lock is held until the request left without a connection has answered.
                wait(futures, timeout=60, return_when=FIRST_COMPLETED)
            results = [future.result() for future in futures]

    # One card takes one answer: of the two that got a connection, the second is told so.
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [200, 409, 503], [(s, b) for s, b, _ in results]
    [(_, unavailable, headers)] = [r for r in results if r[0] == 503]
    assert unavailable["code"] == "E_UNAVAILABLE"
    assert int(headers["Retry-After"]) > 0
    assert "Traceback" not in (ARTIFACTS / "pool.log").read_text()
