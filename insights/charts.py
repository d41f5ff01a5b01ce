"""The dashboard's charts (SPEC §8, schema §9): what each one is called, how it is drawn and
summed up, in the reader's language. The numbers come from `insights.selectors`, one aggregate
query a chart; days are the reader's local days (the active time zone)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy, pgettext_lazy

from insights import selectors
from insights.selectors import MOODS
from psychologist.models import LLMAgent
from sessions_app.models import AskSession, TaskStatus

TECHNIQUES_MAX = 12
MOOD_LABELS = {
    "declining": gettext_lazy("Declining"),
    "stable": gettext_lazy("Stable"),
    "improving": gettext_lazy("Improving"),
    # A session that escalated reads as a crisis, whatever mood the Analyst last reported.
    "crisis": pgettext_lazy("mood", "Crisis"),
}


@dataclass
class Chart:
    """One chart and its table: the same numbers, drawn by static/insights/insights.js from
    `as_json()` and printed by the template from `table`."""

    id: str
    title: str
    kind: str  # bar | line | combo
    labels: list[str]
    series: list[dict[str, Any]]
    summary: str
    table_head: list[str] = field(default_factory=list)
    table: list[list[Any]] = field(default_factory=list)
    unit: str = ""
    stacked: bool = False

    @property
    def empty(self) -> bool:
        return not any(value for s in self.series for value in s["data"] if value)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "labels": self.labels,
            "series": self.series,
            "unit": self.unit,
            "stacked": self.stacked,
        }


def _days(now: datetime, count: int) -> list[date]:
    today = timezone.localdate(now)
    return [today - timedelta(days=offset) for offset in range(count - 1, -1, -1)]


def _since(now: datetime, days: int) -> datetime:
    """Midnight (local) at the start of the first of the last `days` days."""
    first = _days(now, days)[0]
    return timezone.make_aware(datetime.combine(first, datetime.min.time()))


def _label(day: date) -> str:
    return day.strftime("%-d %b")


# Each chart's title over its window of `days` days, by its id.
CHART_TITLES = {
    "risk": ngettext_lazy(
        "Risk sessions (L3/L4), last %(days)d day",
        "Risk sessions (L3/L4), last %(days)d days",
        "days",
    ),
    "cbt": ngettext_lazy(
        "CBT techniques, last %(days)d day",
        "CBT techniques, last %(days)d days",
        "days",
    ),
    "mood": ngettext_lazy(
        "Mood across sessions, last %(days)d day",
        "Mood across sessions, last %(days)d days",
        "days",
    ),
    "abandoned": ngettext_lazy(
        "Abandoned sessions, last %(days)d day",
        "Abandoned sessions, last %(days)d days",
        "days",
    ),
    "cost": ngettext_lazy(
        "LLM cost per day by agent and tier, last %(days)d day",
        "LLM cost per day by agent and tier, last %(days)d days",
        "days",
    ),
    "claim": ngettext_lazy(
        "Time from crisis alert to claim, last %(days)d day",
        "Time from crisis alert to claim, last %(days)d days",
        "days",
    ),
    "homework": ngettext_lazy(
        "Homework completion, due in the last %(days)d day",
        "Homework completion, due in the last %(days)d days",
        "days",
    ),
}


def _chart(chart_id: str, days: int, **fields: Any) -> Chart:
    return Chart(id=chart_id, title=CHART_TITLES[chart_id] % {"days": days}, **fields)


def _stacked_per_day(span: list[date]) -> dict[str, Any]:
    """What a chart of one stack of bars a day of `span` says of its drawing."""
    return {"kind": "bar", "stacked": True, "labels": [_label(d) for d in span]}


def risk_sessions_per_day(
    sessions: QuerySet[AskSession], *, now: datetime, days: int = 30
) -> Chart:
    """Sessions that reached L3 or L4 — at the start, at the end, or by an escalation on the
    way — per day the session started (schema §9 "风险会话统计")."""
    counts = selectors.risk_sessions_by_day(sessions, since=_since(now, days))
    span = _days(now, days)
    data = [counts.get(day, 0) for day in span]
    total = sum(data)
    return _chart(
        "risk",
        days,
        kind="bar",
        labels=[_label(d) for d in span],
        series=[{"label": _("Sessions at L3/L4"), "data": data}],
        summary=ngettext("%(count)d session at L3/L4", "%(count)d sessions at L3/L4", total)
        % {"count": total},
        table_head=[_("Day"), _("Sessions at L3/L4")],
        table=[[_label(d), n] for d, n in zip(span, data, strict=True) if n],
    )


def cbt_techniques(sessions: QuerySet[AskSession], *, now: datetime, days: int = 7) -> Chart:
    """Each CBT technique used in the last `days` days: in how many sessions, and their average
    satisfaction (rated sessions only) — schema §9 "CBT技术应用统计", over every session type."""
    used, ratings = selectors.technique_use(sessions, since=_since(now, days))
    top = [name for name, _ in used.most_common(TECHNIQUES_MAX)]
    averages = [round(statistics.fmean(ratings[n]), 2) if ratings[n] else None for n in top]
    return _chart(
        "cbt",
        days,
        kind="combo",
        labels=top,
        series=[
            {"label": _("Sessions"), "data": [used[n] for n in top]},
            {"label": _("Average satisfaction (1–5)"), "data": averages, "axis": "right"},
        ],
        summary=ngettext("%(count)d technique in use", "%(count)d techniques in use", len(used))
        % {"count": len(used)},
        table_head=[_("Technique"), _("Sessions"), _("Average satisfaction")],
        table=[
            [n, used[n], "—" if a is None else f"{a:.1f}"]
            for n, a in zip(top, averages, strict=True)
        ],
    )


def mood_trend(sessions: QuerySet[AskSession], *, now: datetime, days: int = 30) -> Chart:
    """How each session's mood moved (the last `mood_delta` the Analyst reported in it, or
    "crisis" when it escalated), per day the session started."""
    counts = selectors.moods_by_day(sessions, since=_since(now, days))
    span = _days(now, days)
    series = [
        {
            "label": str(MOOD_LABELS[mood]),
            "mood": mood,
            "data": [counts.get((d, mood), 0) for d in span],
        }
        for mood in MOODS
    ]
    totals = {s["mood"]: sum(s["data"]) for s in series}
    return _chart(
        "mood",
        days,
        **_stacked_per_day(span),
        series=series,
        # Translators: one mood's count in the chart's summary, e.g. "3 declining".
        summary=", ".join(
            _("%(count)d %(mood)s") % {"count": totals[m], "mood": str(MOOD_LABELS[m]).lower()}
            for m in MOODS
        ),
        table_head=[_("Day"), *(str(MOOD_LABELS[m]) for m in MOODS)],
        table=[
            [_label(d), *(counts.get((d, m), 0) for m in MOODS)]
            for d in span
            if any(counts.get((d, m)) for m in MOODS)
        ],
    )


def abandoned_rate(sessions: QuerySet[AskSession], *, now: datetime, days: int = 30) -> Chart:
    """Of the sessions that ended, the share left unfinished (closed by the idle timeout), per
    day the session started, and over the whole window."""
    by_day = selectors.endings_by_day(sessions, since=_since(now, days))
    span = _days(now, days)
    data = [round(100 * by_day[d][1] / by_day[d][0], 1) if d in by_day else None for d in span]
    ended = sum(e for e, _ in by_day.values())
    abandoned = sum(a for _, a in by_day.values())
    rate = round(100 * abandoned / ended, 1) if ended else 0.0
    return _chart(
        "abandoned",
        days,
        kind="line",
        unit="%",
        labels=[_label(d) for d in span],
        # xgettext:no-python-format
        series=[{"label": _("Abandoned (% of ended)"), "data": data}],
        summary=ngettext(
            "%(rate)s%% abandoned (%(abandoned)d of %(ended)d ended)",
            "%(rate)s%% abandoned (%(abandoned)d of %(ended)d ended)",
            ended,
        )
        % {"rate": f"{rate:g}", "abandoned": abandoned, "ended": ended},
        table_head=[_("Day"), _("Ended"), _("Abandoned"), _("Rate")],
        table=[
            [_label(d), by_day[d][0], by_day[d][1], f"{data[i]:g}%"]
            for i, d in enumerate(span)
            if d in by_day
        ],
    )


AGENT_LABELS = {
    LLMAgent.ANALYST: gettext_lazy("Analyst"),
    LLMAgent.NARRATOR: gettext_lazy("Narrator"),
    LLMAgent.SUMMARIZER: gettext_lazy("Summarizer"),
    LLMAgent.PSYCHOLOGIST: gettext_lazy("Psychologist · heavy"),
    LLMAgent.PSYCHOLOGIST_LIGHT: gettext_lazy("Psychologist · light"),
    LLMAgent.SAFETY: gettext_lazy("Safety check"),
}


def llm_cost_per_day(sessions: QuerySet[AskSession], *, now: datetime, days: int = 30) -> Chart:
    """Metered LLM cost per day, by agent; the psychologist's two tiers are its two agents."""
    cost, calls = selectors.llm_cost_by_day(sessions, since=_since(now, days))
    span = _days(now, days)
    agents = [a for a in AGENT_LABELS if calls[a]]
    series = [
        {
            "label": str(AGENT_LABELS[a]),
            "data": [round(cost.get((d, a), 0) / 1_000_000, 4) for d in span],
        }
        for a in agents
    ]
    total = sum(cost.values()) / 1_000_000
    return _chart(
        "cost",
        days,
        **_stacked_per_day(span),
        unit="$",
        series=series,
        summary=ngettext(
            "%(cost)s over %(calls)d call", "%(cost)s over %(calls)d calls", sum(calls.values())
        )
        % {"cost": f"${total:.4f}", "calls": sum(calls.values())},
        table_head=[_("Agent"), _("Calls"), _("Cost")],
        table=[
            [
                str(AGENT_LABELS[a]),
                calls[a],
                f"${sum(v for (_, ag), v in cost.items() if ag == a) / 1_000_000:.4f}",
            ]
            for a in agents
        ],
    )


def time_to_claim(sessions: QuerySet[AskSession], *, now: datetime, days: int = 30) -> Chart:
    """Minutes from a crisis alert to a counselor's claim, each claim of the last `days` days
    (the `seconds_to_claim` of `handoff.created`), dated by the hand-off."""
    claims = selectors.claims(sessions, since=_since(now, days))
    labels = [timezone.localtime(at).strftime("%-d %b %H:%M") for at, _, _ in claims]
    minutes = [round(seconds / 60, 1) for _, seconds, _ in claims]
    return _chart(
        "claim",
        days,
        kind="bar",
        unit=_("min"),
        labels=labels,
        series=[{"label": _("Minutes to claim"), "data": minutes}],
        summary=_claim_summary([seconds for _, seconds, _ in claims]),
        table_head=[_("Claimed"), _("Client"), _("Minutes")],
        table=[
            [label, who, f"{m:g}"]
            for label, m, (_, _, who) in zip(labels, minutes, claims, strict=True)
        ],
    )


def _claim_summary(seconds: list[float]) -> str:
    """The median time to claim, in seconds under a minute ("median 40 s", not "0.7 min")."""
    if not seconds:
        return _("no claims")
    median = statistics.median(seconds)
    if median < 60:
        return ngettext(
            "median %(median)s s over %(count)d claim",
            "median %(median)s s over %(count)d claims",
            len(seconds),
        ) % {"median": f"{round(median):d}", "count": len(seconds)}
    return ngettext(
        "median %(median)s min over %(count)d claim",
        "median %(median)s min over %(count)d claims",
        len(seconds),
    ) % {"median": f"{round(median / 60, 1):g}", "count": len(seconds)}


# How the homework chart stacks a task's status, in drawing order.
HOMEWORK_STACKS = {
    "done": (gettext_lazy("Done"), (TaskStatus.DONE,)),
    "skipped": (gettext_lazy("Skipped"), (TaskStatus.SKIPPED,)),
    "expired": (gettext_lazy("Expired"), (TaskStatus.EXPIRED,)),
    "open": (gettext_lazy("Still open"), (TaskStatus.PROPOSED, TaskStatus.ACCEPTED)),
}


def homework_completion(sessions: QuerySet[AskSession], *, now: datetime, days: int = 30) -> Chart:
    """CBT homework the sessions in scope proposed, by the day it was due: done,
    skipped, expired or still open — stacked — and the share done of those no longer open."""
    span = _days(now, days)
    counts = selectors.tasks_due_by_day(sessions, first=span[0], last=now.date())
    per_stack = {
        key: [sum(counts[(d, status)] for status in statuses) for d in span]
        for key, (_label_text, statuses) in HOMEWORK_STACKS.items()
    }
    series = [
        {"label": str(label), "data": per_stack[key]}
        for key, (label, _statuses) in HOMEWORK_STACKS.items()
    ]
    totals = {key: sum(data) for key, data in per_stack.items()}
    settled = totals["done"] + totals["skipped"] + totals["expired"]
    rate = round(100 * totals["done"] / settled) if settled else 0
    return _chart(
        "homework",
        days,
        **_stacked_per_day(span),
        series=series,
        summary=_("%(rate)d%% done (%(done)d of %(settled)d settled, %(open)d still open)")
        % {"rate": rate, "done": totals["done"], "settled": settled, "open": totals["open"]},
        table_head=[_("Due"), *[s["label"] for s in series]],
        table=[
            [_label(d), *[s["data"][i] for s in series]]
            for i, d in enumerate(span)
            if any(s["data"][i] for s in series)
        ],
    )


def charts(*, user: Any, client: int | None = None, now: datetime | None = None) -> list[Chart]:
    now = now or timezone.now()
    sessions = selectors.insights_scope(user, client=client)
    return [
        risk_sessions_per_day(sessions, now=now),
        cbt_techniques(sessions, now=now),
        mood_trend(sessions, now=now),
        abandoned_rate(sessions, now=now),
        llm_cost_per_day(sessions, now=now),
        time_to_claim(sessions, now=now),
        homework_completion(sessions, now=now),
    ]


def charts_json(items: Iterable[Chart]) -> list[dict[str, Any]]:
    return [chart.as_json() for chart in items]
