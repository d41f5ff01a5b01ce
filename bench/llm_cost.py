"""QUALITY P6: what a psychologist analysis costs, per tier, and how much of every call's input
sits in the cached prefix.

Runs the real tool loop through the anthropic SDK against the suite's fake Messages API (usage
simulated per cache breakpoint, per model) with the production bindings: heavy → Opus, light →
Haiku. Sessions of 10 and 60 events are each analysed on both tiers with the same three-turn
conversation (a search, a rejected batch, a valid batch), so the light/heavy ratio compares like
with like; the tier triage would pick for each size is marked.
"""

from __future__ import annotations

from _django import bench_database, table

HEAVY_MODEL = "claude-opus-4-6"
LIGHT_MODEL = "claude-haiku-4-5"
ANSWERS = [
    "I noticed I calmed down after a walk, though thoughts about work came back later.",
    "I kept replaying the meeting, what my manager said and how I answered.",
    "Sleep was short again; I woke at four and could not stop planning the day.",
    "My sister called and that helped, we laughed about our father's garden.",
    "I'm tired of always being the one who fixes things at home and at work.",
]


def closed_session(events: int):
    """A session of `events` events, closed gracefully (no analysis enqueued: the bench runs
    the loop itself, once per tier)."""
    from django.utils import timezone

    from sessions_app.events import event_append
    from sessions_app.models import AskSession
    from tests.psychologist.builders import session_with_log

    answers = [ANSWERS[n % len(ANSWERS)] for n in range((events - 2) // 2)]
    session = session_with_log(answers=answers)
    AskSession.objects.filter(pk=session.pk).update(
        status=AskSession.Status.COMPLETED, ended_at=timezone.now()
    )
    session.refresh_from_db()
    event_append(session=session, type="session.closed", payload={}, actor="engine")
    return session


def conversation(session) -> list:
    from psychologist.schemas import EMIT_HYPOTHESES_TOOL, SEARCH_EVENTS_TOOL
    from tests.fake_anthropic import tool_use
    from tests.psychologist.builders import event_ids, hypothesis_data

    ids = event_ids(session)
    return [
        tool_use(SEARCH_EVENTS_TOOL, {"query": "tired"}),
        tool_use(EMIT_HYPOTHESES_TOOL, {"hypotheses": [hypothesis_data([10**9])]}),
        tool_use(
            EMIT_HYPOTHESES_TOOL,
            {"hypotheses": [hypothesis_data(ids[-4:-1]), hypothesis_data(ids[1:3])]},
        ),
    ]


def run(fake, session, tier) -> list:
    """One analysis on `tier`; its metered calls, in order."""
    from psychologist.analysis import analysis_context
    from psychologist.models import LLMCall
    from psychologist.toolloop import loop_run

    before = LLMCall.objects.filter(session=session).count()
    fake.queue(*conversation(session))
    result = loop_run(
        context=analysis_context(session=session, tier=tier), on_iteration=lambda report: None
    )
    assert result.ok, result.detail
    return list(LLMCall.objects.filter(session=session).order_by("id"))[before:]


def configure(fake) -> None:
    from django.conf import settings

    settings.ANTHROPIC_BASE_URL = fake.base_url
    settings.ANTHROPIC_API_KEY = "bench-key-not-secret"
    settings.ANTHROPIC_MAX_RETRIES = 0
    settings.LLM_BINDINGS = {
        **settings.LLM_BINDINGS,
        "psychologist": {"provider": "anthropic", "model": HEAVY_MODEL},
        "psychologist-light": {"provider": "anthropic", "model": LIGHT_MODEL},
    }


def main() -> None:
    from psychologist.triage import HEAVY, LIGHT, tier_for
    from tests.fake_anthropic import FakeAnthropic

    fake = FakeAnthropic().start()
    configure(fake)
    runs, calls, ratios = [], [], []
    try:
        for size in (10, 60):
            session = closed_session(size)
            natural = tier_for(size).name
            costs = {}
            for tier in (LIGHT, HEAVY):
                metered = run(fake, session, tier)
                costs[tier.name] = sum(c.cost_micro_usd for c in metered)
                mark = " (triage)" if tier.name == natural else ""
                runs.append(summary(size, f"{tier.name}{mark}", metered, costs[tier.name]))
                calls += [per_call(size, tier.name, n, c) for n, c in enumerate(metered, 1)]
            ratios.append((size, costs["light"], costs["heavy"], costs["light"] / costs["heavy"]))
    finally:
        fake.stop()
    report(runs, calls, ratios)


def summary(size: int, tier: str, metered: list, cost: int) -> tuple:
    return (
        size,
        tier,
        metered[0].model,
        len(metered),
        sum(c.input_tokens for c in metered),
        sum(c.cache_read_tokens for c in metered),
        sum(c.cache_write_tokens for c in metered),
        sum(c.output_tokens for c in metered),
        cost,
        f"${cost / 1e6:.4f}",
    )


def per_call(size: int, tier: str, number: int, call) -> tuple:
    total = call.input_tokens + call.cache_read_tokens + call.cache_write_tokens
    prefix = call.cache_read_tokens + call.cache_write_tokens
    return (
        size,
        tier,
        number,
        total,
        call.input_tokens,
        call.cache_write_tokens,
        call.cache_read_tokens,
        f"{100 * prefix / total:.1f} %",
        f"{100 * call.cache_read_tokens / total:.1f} %",
    )


def report(runs: list, calls: list, ratios: list) -> None:
    print("P6 — one analysis per session size and tier (same three-turn tool loop)")
    header = ("events", "tier", "model", "calls", "input", "cache read", "cache write", "output")
    print(table(runs, (*header, "cost µ$", "cost")))
    print()
    print("P6 — light vs heavy for the same session (target: light ≤ 1/5 of heavy)")
    rows = [
        (size, light, heavy, f"{ratio:.4f}", f"{light - heavy / 5:+.1f}")
        for size, light, heavy, ratio in ratios
    ]
    print(table(rows, ("events", "light µ$", "heavy µ$", "light / heavy", "light − heavy/5 µ$")))
    print(
        "Haiku's prices are exactly 1/5 of Opus's; metering rounds every call up to a whole "
        "micro-USD (never under-bills), which is what shows beyond 1/5."
    )
    print()
    print("P6 — input tokens per call in the cached prefix (target: ≥ 70 % after the first)")
    header = ("events", "tier", "call", "input total", "uncached", "cache write", "cache read")
    print(table(calls, (*header, "in cached prefix", "read from cache")))


if __name__ == "__main__":
    with bench_database():
        main()
