"""QUALITY R11: sign-ins. The REST login throttle counts by the client's real address (a
spoofed X-Forwarded-For is ignored unless a trusted proxy hop is configured), and staff sign-ins
— /login/, /admin/login/ and the REST token login alike — lock out an account or an address after
repeated failures (django-axes), refusing even the right password until the lockout ends. The lock
is per account *and* address, so a guesser elsewhere cannot lock a counselor out; one address
failing for many accounts is locked on its own, at a higher count, so a shared NAT is not."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt, AccessFailureLog
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from sessions_app.api.base import LoginThrottle
from sessions_app.edge.addresses import client_address
from tests import factories

pytestmark = pytest.mark.django_db

PASSWORD = "a long staff password"
TOKEN = reverse("api:auth-token")


@pytest.fixture
def counselor():
    user = factories.CounselorFactory(username="carol")
    user.set_password(PASSWORD)
    user.save()
    return user


@pytest.fixture
def login_rate(monkeypatch):
    monkeypatch.setattr(LoginThrottle, "THROTTLE_RATES", {"login": "3/min"})
    cache.clear()
    yield
    cache.clear()


# --- the client's address -----------------------------------------------------------------------


def meta(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_by_default_x_forwarded_for_is_ignored():
    assert client_address(meta("10.0.0.9", "1.2.3.4")) == "10.0.0.9"


@pytest.mark.parametrize(
    ("hops", "forwarded", "expected"),
    [
        (1, "1.2.3.4", "1.2.3.4"),
        (1, "6.6.6.6, 1.2.3.4", "1.2.3.4"),  # the left entry is the client's own claim
        (2, "6.6.6.6, 1.2.3.4, 10.0.0.2", "1.2.3.4"),
        (2, "1.2.3.4", "10.0.0.9"),  # fewer entries than proxies: not through them all
        (1, "not-an-address", "10.0.0.9"),
        (1, "", "10.0.0.9"),
    ],
)
def test_with_n_trusted_hops_the_nth_address_from_the_right_is_the_client(
    settings, hops, forwarded, expected
):
    settings.TRUSTED_PROXY_HOPS = hops
    assert client_address(meta("10.0.0.9", forwarded)) == expected


def login(client: APIClient, password: str, forwarded: str | None = None, username="alice"):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return client.post(TOKEN, {"username": username, "password": password}, format="json", **extra)


def test_a_spoofed_x_forwarded_for_does_not_reset_the_login_throttle(settings, alice, login_rate):
    settings.AXES_FAILURE_LIMIT = 1000  # the throttle alone is under test
    client = APIClient()
    for number in range(3):
        assert login(client, "wrong", forwarded=f"203.0.113.{number}").status_code == 401
    response = login(client, "wrong", forwarded="203.0.113.99")
    assert response.status_code == 429
    assert response.json()["code"] == "E_THROTTLED"


def test_with_one_trusted_hop_each_forwarded_address_has_its_own_budget(
    settings, alice, login_rate
):
    settings.AXES_FAILURE_LIMIT = 1000
    settings.TRUSTED_PROXY_HOPS = 1
    client = APIClient()
    for _ in range(3):
        assert login(client, "wrong", forwarded="203.0.113.1").status_code == 401
    assert login(client, "wrong", forwarded="203.0.113.1").status_code == 429
    # Another client behind the same trusted proxy is counted apart.
    assert login(client, "wrong", forwarded="203.0.113.2").status_code == 401


# --- staff lockout ----------------------------------------------------------------------------


def sign_in(client: Client, path: str, password: str, username: str = "carol"):
    return client.post(path, {"username": username, "password": password})


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_staff_login_locks_after_n_failures_and_refuses_the_right_password_until_it_ends(
    settings, counselor, path
):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(2):
        response = sign_in(client, path, "wrong")
        assert response.status_code == 200  # the form again, with its error
    response = sign_in(client, path, "wrong")
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert int(response["Retry-After"]) == 15 * 60

    response = sign_in(client, path, PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session

    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        response = sign_in(client, path, PASSWORD)
        assert response.status_code == 302
        assert client.session["_auth_user_id"] == str(counselor.pk)


def test_an_attackers_failures_from_other_addresses_do_not_lock_the_counselor_out(
    settings, counselor
):
    settings.AXES_FAILURE_LIMIT = 3
    for number in range(4):  # four addresses, each locked for carol after its third guess
        attacker = Client(REMOTE_ADDR=f"198.51.100.{number}")
        for _ in range(3):
            sign_in(attacker, "/login/", "wrong")
        assert sign_in(attacker, "/login/", PASSWORD).status_code == 429
    # Carol, from her own address, signs in: a guesser holds no switch that locks her out.
    response = Client(REMOTE_ADDR="192.0.2.44").post(
        "/login/", {"username": "carol", "password": PASSWORD}
    )
    assert response.status_code == 302


def test_a_few_failures_behind_a_shared_address_do_not_lock_the_others_out(settings, counselor):
    settings.AXES_FAILURE_LIMIT = 3
    nat = "198.51.100.7"
    for number in range(3):  # three colleagues behind one NAT mistype once each
        sign_in(Client(REMOTE_ADDR=nat), "/login/", "wrong", username=f"colleague{number}")
    assert sign_in(Client(REMOTE_ADDR=nat), "/login/", PASSWORD).status_code == 302


def test_many_failures_from_one_address_lock_that_address_across_accounts(settings, counselor):
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    client = Client(REMOTE_ADDR="198.51.100.7")
    for number in range(6):
        sign_in(client, "/login/", "wrong", username=f"guess{number}")
    response = sign_in(client, "/login/", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    # Another address still signs carol in: her account has no failures of its own.
    assert sign_in(Client(REMOTE_ADDR="198.51.100.8"), "/login/", PASSWORD).status_code == 302


def test_a_spoofed_x_forwarded_for_does_not_escape_the_lockout(settings, counselor):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for number in range(3):
        client.post(
            "/login/",
            {"username": "carol", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{number}",
        )
    response = client.post(
        "/login/", {"username": "carol", "password": PASSWORD}, HTTP_X_FORWARDED_FOR="192.0.2.1"
    )
    assert response.status_code == 429


def test_the_rest_token_login_shares_the_lockout(settings, counselor):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        sign_in(Client(), "/login/", "wrong")
    response = login(APIClient(), PASSWORD, username="carol")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "E_LOCKED_OUT"
    assert isinstance(body["detail"], str)
    assert int(response["Retry-After"]) > 0


def test_rest_token_failures_count_towards_the_staff_lockout(settings, counselor):
    settings.AXES_FAILURE_LIMIT = 3
    client = APIClient()
    for _ in range(3):
        login(client, "wrong", username="carol")
    assert sign_in(Client(), "/login/", PASSWORD).status_code == 429


def test_failures_are_audited_for_admin_without_the_password(
    settings, counselor, django_user_model
):
    settings.AXES_FAILURE_LIMIT = 3
    sign_in(Client(), "/login/", "wrong-secret-1")
    attempt = AccessAttempt.objects.get(username="carol")
    assert attempt.failures_since_start == 1
    assert "wrong-secret-1" not in attempt.post_data
    assert AccessFailureLog.objects.filter(username="carol").count() == 1
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", "", "x"))
    page = admin.get(reverse("admin:axes_accessattempt_changelist"))
    assert page.status_code == 200
    assert "carol" in page.content.decode()
