"""Model prices are data: ops edit them in admin, and metering prices the next call with them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from psychologist.llm import metering
from psychologist.llm.metering import cost_micro_usd, prices_forget
from psychologist.llm.service import complete
from psychologist.llm.types import LLMRequest, Usage
from psychologist.models import LLMCall, ModelPrice
from sessions_app.engine.agents.schemas import ANALYST_TOOL
from tests import fake_anthropic as fake
from tests.agent_outputs import analyst_output
from tests.fake_anthropic import FakeAnthropic
from tests.psychologist.builders import agent_request
from tests.psychologist.conftest import ANTHROPIC_MODEL

pytestmark = pytest.mark.django_db

# 1,000 in, 200 out, 5,000 read from the cache, 400 written to it: at the default prices of
# claude-haiku-4-5 ($1, $5, $0.10, $1.25 per million) that is 3,000 micro-USD.
USAGE = {
    "input_tokens": 1000,
    "output_tokens": 200,
    "cache_read_input_tokens": 5000,
    "cache_creation_input_tokens": 400,
}


@pytest.fixture(autouse=True)
def fresh_prices() -> Iterator[None]:
    # Each test's rows roll back; this process's copy of the table must not outlive them.
    prices_forget()
    yield
    prices_forget()


@pytest.fixture
def ops_admin(client: Client) -> Client:
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw"))
    return client


def metered_call(fake_anthropic: FakeAnthropic) -> LLMCall:
    """One Analyst call through the real SDK against the fake Messages API; its meter row."""
    valid = analyst_output(questions=["What happened?"], observation="Work.", slots_updated={})
    fake_anthropic.queue(fake.tool_use(ANALYST_TOOL, valid, usage=USAGE))
    request = agent_request("analyst", turn_count=2)
    complete(request=LLMRequest(**{**request.__dict__, "opaque_user_id": "u-1"}))
    return LLMCall.objects.latest("id")


def price_form(price: ModelPrice, **changes: Any) -> dict[str, Any]:
    fields = ("model", "input", "output", "cache_read", "cache_write")
    return {field: getattr(price, field) for field in fields} | changes


def test_the_table_starts_with_the_default_prices() -> None:
    haiku = ModelPrice.objects.get(model=ANTHROPIC_MODEL)

    assert (haiku.input, haiku.output, haiku.cache_read, haiku.cache_write) == (
        1_000_000,
        5_000_000,
        100_000,
        1_250_000,
    )
    assert ModelPrice.objects.count() == 5


def test_a_price_edited_in_admin_meters_the_next_call(
    ops_admin: Client, fake_anthropic: FakeAnthropic
) -> None:
    assert metered_call(fake_anthropic).cost_micro_usd == 3000
    haiku = ModelPrice.objects.get(model=ANTHROPIC_MODEL)

    edit = ops_admin.post(
        f"/admin/psychologist/modelprice/{haiku.pk}/change/",
        price_form(haiku, input=2_000_000),
    )

    assert edit.status_code == 302
    # The input tokens now cost twice as much: 1,000 more micro-USD.
    assert metered_call(fake_anthropic).cost_micro_usd == 4000


def test_a_model_the_table_does_not_list_is_priced_at_its_default(
    ops_admin: Client, fake_anthropic: FakeAnthropic
) -> None:
    haiku = ModelPrice.objects.get(model=ANTHROPIC_MODEL)
    ops_admin.post(f"/admin/psychologist/modelprice/{haiku.pk}/change/", price_form(haiku, input=0))
    assert metered_call(fake_anthropic).cost_micro_usd == 2000

    removed = ops_admin.post(f"/admin/psychologist/modelprice/{haiku.pk}/delete/", {"post": "yes"})

    assert removed.status_code == 302
    assert metered_call(fake_anthropic).cost_micro_usd == 3000


def test_a_model_added_to_the_table_is_priced_and_may_be_bound(ops_admin: Client) -> None:
    usage = Usage(input_tokens=1_000_000)
    assert cost_micro_usd(model="claude-next-1", usage=usage) == 0  # priced nowhere: logged

    added = ops_admin.post(
        "/admin/psychologist/modelprice/add/",
        {"model": "claude-next-1", "input": 7, "output": 8, "cache_read": 1, "cache_write": 9},
    )

    assert added.status_code == 302
    assert cost_micro_usd(model="claude-next-1", usage=usage) == 7
    bind = ops_admin.post(
        "/admin/psychologist/modelbinding/add/",
        {"agent": "narrator", "provider": "anthropic", "model": "claude-next-1"},
    )
    assert bind.status_code == 302


def test_the_table_is_read_once_for_many_calls(django_assert_num_queries) -> None:
    usage = Usage(input_tokens=1000, output_tokens=200)
    with django_assert_num_queries(1):
        first = cost_micro_usd(model=ANTHROPIC_MODEL, usage=usage)
    with django_assert_num_queries(0):
        again = [cost_micro_usd(model=ANTHROPIC_MODEL, usage=usage) for _ in range(50)]

    assert again == [first] * 50 == [2000] * 50


def test_an_edit_made_by_another_process_is_read_once_the_copy_is_old(monkeypatch) -> None:
    usage = Usage(input_tokens=1_000_000)
    assert cost_micro_usd(model=ANTHROPIC_MODEL, usage=usage) == 1_000_000
    # Another process's edit sends no signal here: this process's copy is still the old one...
    ModelPrice.objects.filter(model=ANTHROPIC_MODEL).update(input=3_000_000)
    assert cost_micro_usd(model=ANTHROPIC_MODEL, usage=usage) == 1_000_000

    # ...until it is older than its maximum age.
    monkeypatch.setattr(metering, "PRICES_MAX_AGE_SECONDS", 0)
    assert cost_micro_usd(model=ANTHROPIC_MODEL, usage=usage) == 3_000_000
