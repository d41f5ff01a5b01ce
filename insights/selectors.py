"""Reads of the insights dashboard (SPEC §8, schema §9): the psychologist's hypotheses for
review, the analyses running and failed, the follow-ups due, and the statistics behind the
charts.

Every statistic is one aggregate query over the sessions the reader may see, so the page costs
the same number of queries at 10 sessions and at 10,000 (tests/insights/test_queries.py). Days
are the reader's local days (the active time zone).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    TextField,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy, pgettext_lazy

from psychologist.models import (
    Analysis,
    AnalysisRequest,
    Hypothesis,
    HypothesisEvidence,
    HypothesisStatus,
    HypothesisTarget,
    LLMAgent,
    LLMCall,
)
from sessions_app.access import SessionAction, role_require, sessions_visible_to
from sessions_app.models import AskSession, EventType, SessionEvent, Task, TaskStatus

RISK_LEVELS = ("L3", "L4")
MOODS = ("declining", "stable", "improving", "crisis")
MOOD_LABELS = {
    "declining": gettext_lazy("Declining"),
    "stable": gettext_lazy("Stable"),
    "improving": gettext_lazy("Improving"),
    # A session that escalated reads as a crisis, whatever mood the Analyst last reported.
    "crisis": pgettext_lazy("mood", "Crisis"),
}
HYPOTHESES_MAX = 200
LIST_MAX = 20
FOLLOW_UP_AHEAD = timedelta(days=14)
TECHNIQUES_MAX = 12


# --- scope and filters ---------------------------------------------------------------------------


def insights_scope(user: Any, *, client: int | None = None) -> QuerySet[AskSession]:
    """The real sessions behind the dashboard: what `user` may read (a counselor: its caseload
    and hand-offs; ops: everything), without deleted ones and without sandbox test sessions,
    which would skew the clinical numbers."""
    role_require(user, SessionAction.ANALYSE)
    sessions = sessions_visible_to(user).filter(sandbox__isnull=True)
    if client is not None:
        sessions = sessions.filter(user_id=client)
    return sessions


@dataclass(frozen=True)
class Filters:
    status: str = ""
    target: str = ""
    date_from: date | None = None
    date_to: date | None = None
    client: int | None = None

    @property
    def active(self) -> bool:
        return any((self.status, self.target, self.date_from, self.date_to, self.client))


def clients_in_scope(user: Any) -> list[Any]:
    """The clients the reader may filter by: those whose sessions it may read."""
    ids = insights_scope(user).values("user_id")
    return list(
        get_user_model()
        .objects.filter(pk__in=ids)
        .only("pk", "username", "first_name", "last_name")
        .order_by("first_name", "username")
    )


# --- hypotheses, analyses ------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetGroup:
    target: str
    label: str
    hypotheses: list[Hypothesis]


def hypothesis_rows(hypotheses: QuerySet[Hypothesis]) -> QuerySet[Hypothesis]:
    """Everything a hypothesis row shows, joined or prefetched: the analysis (tier, cost), the
    session and its client, who decided, and the evidence events in log order."""
    evidence = HypothesisEvidence.objects.select_related("event").order_by("event__seq")
    return hypotheses.select_related("analysis", "session__user", "decided_by").prefetch_related(
        Prefetch("evidence", queryset=evidence)
    )


def hypotheses_grouped(*, user: Any, filters: Filters) -> list[TargetGroup]:
    """Hypotheses of current analyses, newest first, grouped by target in a fixed order (every
    target appears, empty or not, so the reader sees where nothing was found)."""
    sessions = insights_scope(user, client=filters.client)
    hypotheses = Hypothesis.objects.filter(
        session__in=sessions.values("pk"), analysis__superseded=False
    )
    if filters.status:
        hypotheses = hypotheses.filter(status=filters.status)
    if filters.target:
        hypotheses = hypotheses.filter(target=filters.target)
    if filters.date_from:
        hypotheses = hypotheses.filter(session__created_at__date__gte=filters.date_from)
    if filters.date_to:
        hypotheses = hypotheses.filter(session__created_at__date__lte=filters.date_to)
    rows = list(hypothesis_rows(hypotheses).order_by("-created_at", "-id")[:HYPOTHESES_MAX])
    by_target: dict[str, list[Hypothesis]] = defaultdict(list)
    for hypothesis in rows:
        by_target[hypothesis.target].append(hypothesis)
    targets = [filters.target] if filters.target else HypothesisTarget.values
    return [
        TargetGroup(target, HypothesisTarget(target).label, by_target.get(target, []))
        for target in targets
    ]


def hypothesis_row(hypothesis_id: int) -> Hypothesis:
    """One row again after a decision (the caller has checked access)."""
    return hypothesis_rows(Hypothesis.objects.filter(pk=hypothesis_id)).get()


def analyses_running(*, user: Any) -> list[AnalysisRequest]:
    """Requests waiting or running, each with `iteration`: the last tool-loop iteration the run
    reported (its progress events), or None before the first."""
    iteration = (
        SessionEvent.objects.filter(
            session=OuterRef("session_id"),
            type=EventType.PSYCHOLOGIST_ITERATION,
            created_at__gte=OuterRef("created_at"),
        )
        .order_by("-seq")
        .annotate(number=KT("payload__iteration"))
        .values("number")[:1]
    )
    return list(
        AnalysisRequest.objects.filter(
            session__in=insights_scope(user).values("pk"),
            status__in=(AnalysisRequest.Status.PENDING, AnalysisRequest.Status.RUNNING),
        )
        .select_related("session__user")
        .annotate(iteration=Subquery(iteration))
        .order_by("-created_at", "-id")[:LIST_MAX]
    )


def analyses_failed(*, user: Any, now: datetime | None = None) -> list[AnalysisRequest]:
    """Runs that ended without an analysis in the last 30 days, with their reason."""
    since = (now or timezone.now()) - timedelta(days=30)
    return list(
        AnalysisRequest.objects.filter(
            session__in=insights_scope(user).values("pk"),
            status=AnalysisRequest.Status.FAILED,
            updated_at__gte=since,
        )
        .select_related("session__user")
        .order_by("-updated_at", "-id")[:LIST_MAX]
    )


def analyses_recent(*, user: Any) -> list[Analysis]:
    """The latest current analyses, with their hypotheses counted by status."""
    return list(
        Analysis.objects.current()
        .filter(session__in=insights_scope(user).values("pk"))
        .select_related("session__user")
        .annotate(
            proposed=Count("hypotheses", filter=Q(hypotheses__status=HypothesisStatus.PROPOSED)),
            decided=Count("hypotheses", filter=~Q(hypotheses__status=HypothesisStatus.PROPOSED)),
        )
        .order_by("-created_at", "-id")[:LIST_MAX]
    )


def follow_ups(*, user: Any, now: datetime | None = None) -> list[AskSession]:
    """Follow-ups overdue or due in the next two weeks, soonest first; `overdue` on each."""
    now = now or timezone.now()
    rows = list(
        insights_scope(user)
        .filter(follow_up_needed=True, follow_up_at__lte=now + FOLLOW_UP_AHEAD)
        .select_related("user")
        .order_by("follow_up_at", "id")[:LIST_MAX]
    )
    for session in rows:
        session.overdue = session.follow_up_at <= now
    return rows


# --- the charts ----------------------------------------------------------------------------------


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


def _day(field_name: str) -> TruncDate:
    return TruncDate(field_name, tzinfo=timezone.get_current_timezone())


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
    escalated = SessionEvent.objects.filter(
        session=OuterRef("pk"), type=EventType.RISK_ESCALATED, payload__level__in=RISK_LEVELS
    )
    at_risk = (
        Exists(escalated)
        | Q(initial_risk_level__in=RISK_LEVELS)
        | Q(final_risk_level__in=RISK_LEVELS)
    )
    counts = dict(
        sessions.filter(at_risk, created_at__gte=_since(now, days))
        .annotate(day=_day("created_at"))
        .values("day")
        .annotate(n=Count("pk"))
        .values_list("day", "n")
    )
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
    rows = sessions.filter(created_at__gte=_since(now, days)).values_list(
        "cbt_techniques_used", "satisfaction_score"
    )
    used: Counter[str] = Counter()
    ratings: dict[str, list[int]] = defaultdict(list)
    for techniques, score in rows:
        for technique in dict.fromkeys(techniques or []):
            used[technique] += 1
            if score is not None:
                ratings[technique].append(score)
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
    last_mood = (
        SessionEvent.objects.filter(session=OuterRef("pk"), payload__has_key="mood_delta")
        .order_by("-seq")
        .annotate(mood=KT("payload__mood_delta"))
        .values("mood")[:1]
    )
    rows = (
        sessions.filter(created_at__gte=_since(now, days))
        .annotate(
            day=_day("created_at"),
            mood=Case(
                When(intervention_triggered=True, then=Value("crisis")),
                default=Subquery(last_mood),
                output_field=TextField(),
            ),
        )
        .filter(mood__in=MOODS)
        .values("day", "mood")
        .annotate(n=Count("pk"))
        .values_list("day", "mood", "n")
    )
    counts = {(day, mood): n for day, mood, n in rows}
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
    rows = (
        sessions.filter(created_at__gte=_since(now, days))
        .exclude(status=AskSession.Status.ACTIVE)
        .annotate(day=_day("created_at"))
        .values("day")
        .annotate(
            ended=Count("pk"),
            abandoned=Count(
                "pk", filter=Q(termination_reason=AskSession.TerminationReason.ABANDONED_TIMEOUT)
            ),
        )
        .values_list("day", "ended", "abandoned")
    )
    by_day = {day: (ended, abandoned) for day, ended, abandoned in rows}
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
    rows = (
        LLMCall.objects.filter(session__in=sessions.values("pk"), created_at__gte=_since(now, days))
        .annotate(day=_day("created_at"))
        .values("day", "agent")
        .annotate(cost=Sum("cost_micro_usd"), calls=Count("pk"))
        .values_list("day", "agent", "cost", "calls")
    )
    cost: dict[tuple[date, str], int] = {}
    calls: Counter[str] = Counter()
    for day, agent, micro, n in rows:
        cost[(day, agent)] = micro or 0
        calls[agent] += n
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
    rows = (
        SessionEvent.objects.filter(
            session__in=sessions.values("pk"),
            type=EventType.HANDOFF_CREATED,
            payload__has_key="seconds_to_claim",
        )
        .annotate(at=Coalesce(F("session__handoff_time"), F("created_at")))
        .filter(at__gte=_since(now, days))
        .order_by("at", "id")
        .values_list("at", "payload", "session__user__first_name", "session__user__username")
    )
    claims = [
        (at, payload["seconds_to_claim"], first or username)
        for at, payload, first, username in rows
        if isinstance(payload.get("seconds_to_claim"), int | float)
    ]
    labels = [timezone.localtime(at).strftime("%-d %b %H:%M") for at, _, _ in claims]
    minutes = [round(seconds / 60, 1) for _, seconds, _ in claims]
    median = statistics.median(minutes) if minutes else None
    return _chart(
        "claim",
        days,
        kind="bar",
        unit=_("min"),
        labels=labels,
        series=[{"label": _("Minutes to claim"), "data": minutes}],
        summary=(
            ngettext(
                "median %(median)s min over %(count)d claim",
                "median %(median)s min over %(count)d claims",
                len(minutes),
            )
            % {"median": f"{median:g}", "count": len(minutes)}
            if median is not None
            else _("no claims")
        ),
        table_head=[_("Claimed"), _("Client"), _("Minutes")],
        table=[
            [label, who, f"{m:g}"]
            for label, m, (_, _, who) in zip(labels, minutes, claims, strict=True)
        ],
    )


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
    first = _days(now, days)[0]
    rows = (
        Task.objects.filter(session__in=sessions, due_date__gte=first, due_date__lte=now.date())
        .values("due_date", "status")
        .annotate(n=Count("pk"))
        .values_list("due_date", "status", "n")
    )
    counts: dict[tuple[date, str], int] = defaultdict(int)
    for day, status, n in rows:
        counts[(day, status)] += n
    span = _days(now, days)
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
    sessions = insights_scope(user, client=client)
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
