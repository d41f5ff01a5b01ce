from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from psychologist.llm.metering import record_call
from psychologist.llm.types import Usage
from psychologist.models import ModelBinding

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_logged_in(client: Client) -> Client:
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)
    return client


def test_admins_can_list_and_edit_model_bindings(admin_client_logged_in: Client) -> None:
    binding = ModelBinding.objects.create(agent="narrator", provider="offline", model="x")

    listing = admin_client_logged_in.get("/admin/psychologist/modelbinding/")
    edit = admin_client_logged_in.post(
        f"/admin/psychologist/modelbinding/{binding.pk}/change/",
        {"agent": "narrator", "provider": "anthropic", "model": "claude-haiku-4-5"},
    )

    assert listing.status_code == 200
    assert edit.status_code == 302
    binding.refresh_from_db()
    assert (binding.provider, binding.model) == ("anthropic", "claude-haiku-4-5")


def test_llm_calls_are_read_only_in_admin(admin_client_logged_in: Client) -> None:
    call = record_call(
        agent="analyst",
        provider="offline",
        model="offline-rules-v1",
        session_id=None,
        usage=Usage(input_tokens=10, output_tokens=5),
        cost_micro_usd=0,
        latency_ms=3,
        stop_reason="tool_use",
    )

    assert admin_client_logged_in.get("/admin/psychologist/llmcall/").status_code == 200
    assert admin_client_logged_in.get("/admin/psychologist/llmcall/add/").status_code == 403
    detail = admin_client_logged_in.get(f"/admin/psychologist/llmcall/{call.pk}/change/")
    assert detail.status_code == 200
    assert b"Save" not in detail.content
