"""Issue 20: a burst of sign-ins runs at most PASSWORD_CHECKS_CONCURRENT password checks at a
time; every sign-in still succeeds."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.db import connections
from django.urls import reverse
from rest_framework.test import APIClient

from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long test password"


class CountingHasher(MD5PasswordHasher):
    """MD5, made slow, counting how many checks run at once."""

    algorithm = "counting_md5"
    lock = threading.Lock()
    running = 0
    most = 0

    def verify(self, password: str, encoded: str) -> bool:
        cls = type(self)
        with cls.lock:
            cls.running += 1
            cls.most = max(cls.most, cls.running)
        time.sleep(0.05)
        with cls.lock:
            cls.running -= 1
        return super().verify(password, encoded)


def test_a_burst_of_sign_ins_checks_two_passwords_at_a_time(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    settings.PASSWORD_CHECKS_CONCURRENT = 2
    for n in range(8):
        user = factories.ClientFactory(username=f"burst{n}")
        user.set_password(PASSWORD)
        user.save()

    def sign_in(n: int) -> int:
        try:
            body = {"username": f"burst{n}", "password": PASSWORD}
            return APIClient().post(reverse("api:auth-token"), body, format="json").status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(sign_in, range(8)))

    assert statuses == [200] * 8
    assert CountingHasher.most == 2
