"""Reads of the insights dashboard (SPEC §8, schema §9): the psychologist's hypotheses for
review, the analyses running and failed, the follow-ups due, and the statistics behind the
charts (which `insights.charts` names, draws and sums up).

Every statistic is one aggregate query over the sessions the reader may see, so the page costs
the same number of queries at 10 sessions and at 10,000 (tests/insights/test_queries.py). Days
are the reader's local days (the active time zone).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
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

from psychologist.models import (
    Analysis,
    AnalysisRequest,
    Hypothesis,
    HypothesisEvidence,
    HypothesisStatus,
    HypothesisTarget,
    LLMCall,
)
from sessions_app.access import SessionAction, role_require, sessions_visible_to
from sessions_app.models import AskSession, EventType, SessionEvent, Task

RISK_LEVELS = ("L3", "L4")
MOODS = ("declining", "stable", "improving", "crisis")
HYPOTHESES_MAX = 200
LIST_MAX = 20
FOLLOW_UP_AHEAD = timedelta(days=14)


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


# --- the statistics behind the charts (drawn by `insights.charts`) ------------------------------


def _day(field_name: str) -> TruncDate:
    return TruncDate(field_name, tzinfo=timezone.get_current_timezone())


def risk_sessions_by_day(sessions: QuerySet[AskSession], *, since: datetime) -> dict[date, int]:
    """Sessions that reached L3 or L4 — at the start, at the end, or by an escalation on the
    way — by the day the session started."""
    escalated = SessionEvent.objects.filter(
        session=OuterRef("pk"), type=EventType.RISK_ESCALATED, payload__level__in=RISK_LEVELS
    )
    at_risk = (
        Exists(escalated)
        | Q(initial_risk_level__in=RISK_LEVELS)
        | Q(final_risk_level__in=RISK_LEVELS)
    )
    return dict(
        sessions.filter(at_risk, created_at__gte=since)
        .annotate(day=_day("created_at"))
        .values("day")
        .annotate(n=Count("pk"))
        .values_list("day", "n")
    )


def technique_use(
    sessions: QuerySet[AskSession], *, since: datetime
) -> tuple[Counter[str], dict[str, list[int]]]:
    """(in how many sessions each CBT technique was used, the satisfaction scores of the rated
    ones), over every session type."""
    rows = sessions.filter(created_at__gte=since).values_list(
        "cbt_techniques_used", "satisfaction_score"
    )
    used: Counter[str] = Counter()
    ratings: dict[str, list[int]] = defaultdict(list)
    for techniques, score in rows:
        for technique in dict.fromkeys(techniques or []):
            used[technique] += 1
            if score is not None:
                ratings[technique].append(score)
    return used, ratings


def moods_by_day(sessions: QuerySet[AskSession], *, since: datetime) -> dict[tuple[date, str], int]:
    """Sessions by (day started, mood): the last `mood_delta` the Analyst reported in each, or
    "crisis" when it escalated."""
    last_mood = (
        SessionEvent.objects.filter(session=OuterRef("pk"), payload__has_key="mood_delta")
        .order_by("-seq")
        .annotate(mood=KT("payload__mood_delta"))
        .values("mood")[:1]
    )
    rows = (
        sessions.filter(created_at__gte=since)
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
    return {(day, mood): n for day, mood, n in rows}


def endings_by_day(
    sessions: QuerySet[AskSession], *, since: datetime
) -> dict[date, tuple[int, int]]:
    """(ended, abandoned — closed by the idle timeout) by the day the session started."""
    rows = (
        sessions.filter(created_at__gte=since)
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
    return {day: (ended, abandoned) for day, ended, abandoned in rows}


def llm_cost_by_day(
    sessions: QuerySet[AskSession], *, since: datetime
) -> tuple[dict[tuple[date, str], int], Counter[str]]:
    """(metered cost in micro-USD by (day, agent), calls by agent)."""
    rows = (
        LLMCall.objects.filter(session__in=sessions.values("pk"), created_at__gte=since)
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
    return cost, calls


def claims(sessions: QuerySet[AskSession], *, since: datetime) -> list[tuple[datetime, float, str]]:
    """(when, seconds from the crisis alert, the client's name) of each claim since `since`, the
    `seconds_to_claim` of `handoff.created`, dated by the hand-off; oldest first."""
    rows = (
        SessionEvent.objects.filter(
            session__in=sessions.values("pk"),
            type=EventType.HANDOFF_CREATED,
            payload__has_key="seconds_to_claim",
        )
        .annotate(at=Coalesce(F("session__handoff_time"), F("created_at")))
        .filter(at__gte=since)
        .order_by("at", "id")
        .values_list("at", "payload", "session__user__first_name", "session__user__username")
    )
    return [
        (at, payload["seconds_to_claim"], first or username)
        for at, payload, first, username in rows
        if isinstance(payload.get("seconds_to_claim"), int | float)
    ]


def tasks_due_by_day(
    sessions: QuerySet[AskSession], *, first: date, last: date
) -> dict[tuple[date, str], int]:
    """The CBT homework the sessions proposed, by (day due, status), due from `first` to
    `last`."""
    rows = (
        Task.objects.filter(session__in=sessions, due_date__gte=first, due_date__lte=last)
        .values("due_date", "status")
        .annotate(n=Count("pk"))
        .values_list("due_date", "status", "n")
    )
    counts: dict[tuple[date, str], int] = defaultdict(int)
    for day, status, n in rows:
        counts[(day, status)] += n
    return counts
