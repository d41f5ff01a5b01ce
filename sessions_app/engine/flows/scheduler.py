"""The scheduler flow (SPEC §3 closing, §4 detours): moving the next session.

Deterministic on purpose — a date is something to parse and confirm, not to generate. Its moves
still go through the flow validator, so a guard an admin adds to a scheduler step holds. From
the middle of a dialogue it is a detour that resumes the session afterwards; from the closing
("one last thing") the session ends in it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from sessions_app import texts
from sessions_app.engine.cards.dealer import SCHEDULER, Draft, Turn, new_card, profile_of
from sessions_app.engine.flows.validator import (
    SCHEDULER_FLOW,
    Move,
    intent_detour,
    session_move_validate,
)
from sessions_app.engine.language import detectors
from sessions_app.events import EventType
from sessions_app.models import AskMessage, Notification, UserProfile, profile_zone

WEEKDAY_STEMS = {
    1: ("monday", "понедельник"),
    2: ("tuesday", "вторник"),
    3: ("wednesday", "сред"),
    4: ("thursday", "четверг"),
    5: ("friday", "пятниц"),
    6: ("saturday", "суббот"),
    7: ("sunday", "воскресень"),
}
TOMORROW = ("tomorrow", "завтра")
# Chinese names a weekday by its number after 周 / 星期 / 礼拜 (日 and 天 are Sunday), and
# says "can't" after the day: 周四不行, 星期四没空.
ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天1-7])")
ZH_WEEKDAY_NUMBER = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7}
ZH_DAYS_AHEAD = (("大后天", 3), ("后天", 2), ("明天", 1), ("明日", 1))
_ZH_NEGATED_AFTER = re.compile(
    r"^\s*(?:我|我们)?(?:不行|不可以|不太行|没空|没时间|去不了|来不了|不方便|有事)"
)
_ZH_NEGATED_BEFORE = re.compile(r"(?:不能|不是|没法|不在|别)(?:在)?\s*$")
_ZH_TIME = re.compile(
    r"(上午|早上|早晨|中午|下午|傍晚|晚上)?\s*([0-9]{1,2}|[零一二两三四五六七八九十]{1,3})\s*"
    r"(?:点|时|:|：)\s*(半|一刻|[0-9]{1,2}分?|[零一二三四五六七八九十]{1,3}分)?"
)
_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}  # fmt: skip
_ZH_AFTERNOON = ("下午", "傍晚", "晚上")
# A weekday right after one of these is the day the client cannot make, not the new one.
_NEGATION = re.compile(
    r"(?:can'?t|cannot|won'?t|not|unable|busy|не смогу|не могу|не получится|не выйдет|не)"
    r"(?:\s+\w+){0,3}\s*$"
)
_TIME = re.compile(r"\b(?:at|в|к)\s+(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?", re.IGNORECASE)
MAX_ASKS = 2


def next_session_date(profile: UserProfile, now: dt.datetime | None = None) -> dt.date | None:
    """The next scheduled day after today, in the client's own time zone."""
    days = [d for d in profile.schedule_weekdays or [] if isinstance(d, int) and 1 <= d <= 7]
    if not days:
        return None
    today = (now or timezone.now()).astimezone(profile_zone(profile)).date()
    return next(
        today + dt.timedelta(days=ahead)
        for ahead in range(1, 8)
        if (today + dt.timedelta(days=ahead)).isoweekday() in days
    )


@dataclass(frozen=True)
class Slot:
    weekday: int | None
    time: dt.time | None


def slot_parse(text: str, profile: UserProfile) -> Slot:
    """The new weekday (and time) the client asks for; a negated day is the old one."""
    clean = detectors.normalize(text)
    found: list[tuple[int, int]] = []
    for weekday, stems in WEEKDAY_STEMS.items():
        for stem in stems:
            for match in re.finditer(rf"\b{stem}\w*", clean):
                if not _NEGATION.search(clean[: match.start()].split(",")[-1]):
                    found.append((match.start(), weekday))
    for word in TOMORROW:
        for match in re.finditer(rf"\b{word}\b", clean):
            tomorrow = timezone.now().astimezone(profile_zone(profile)).date() + dt.timedelta(
                days=1
            )
            found.append((match.start(), tomorrow.isoweekday()))
    found += _zh_days(clean, profile)
    weekday = max(found)[1] if found else None
    return Slot(weekday=weekday, time=_zh_time_parse(clean) or _time_parse(clean))


def _zh_days(clean: str, profile: UserProfile) -> list[tuple[int, int]]:
    """(position, weekday) of each Chinese day named and not refused (周四不行 is the old one)."""
    found = []
    for match in ZH_WEEKDAY.finditer(clean):
        refused = _ZH_NEGATED_AFTER.search(clean[match.end() :]) or _ZH_NEGATED_BEFORE.search(
            clean[: match.start()]
        )
        if not refused:
            char = match.group(1)
            found.append((match.start(), ZH_WEEKDAY_NUMBER.get(char) or int(char)))
    today = timezone.now().astimezone(profile_zone(profile)).date()
    for word, ahead in ZH_DAYS_AHEAD:
        at = clean.find(word)
        if at >= 0 and not _ZH_NEGATED_AFTER.search(clean[at + len(word) :]):
            found.append((at, (today + dt.timedelta(days=ahead)).isoweekday()))
            break  # 后天 also holds 天: the longest word found is the day
    return found


def _zh_number(value: str) -> int | None:
    """10, 十, 两, 十二, 二十 → an int (hours and minutes need no more)."""
    if value.isdigit():
        return int(value)
    if "十" in value:
        tens, _, ones = value.partition("十")
        return (_ZH_DIGITS.get(tens, 1) if tens else 1) * 10 + (
            _ZH_DIGITS.get(ones, 0) if ones else 0
        )
    return _ZH_DIGITS.get(value) if len(value) == 1 else None


def _zh_time_parse(clean: str) -> dt.time | None:
    """下午三点, 晚上8点, 10点半, 下午3:30."""
    match = _ZH_TIME.search(clean)
    if match is None:
        return None
    hour = _zh_number(match.group(2))
    minutes = match.group(3) or ""
    if minutes == "半":
        minute = 30
    elif minutes == "一刻":
        minute = 15
    else:
        minute = _zh_number(minutes.rstrip("分")) if minutes else 0
    if hour is None or minute is None:
        return None
    if match.group(1) in _ZH_AFTERNOON and hour < 12:
        hour += 12
    if match.group(1) == "中午" and hour < 6:
        hour += 12
    return dt.time(hour, minute) if hour < 24 and minute < 60 else None


def _time_parse(clean: str) -> dt.time | None:
    match = _TIME.search(clean)
    if match is None:
        return None
    hour, minute, half = int(match.group(1)), int(match.group(2) or 0), match.group(3)
    if half == "pm" and hour < 12:
        hour += 12
    if half == "am" and hour == 12:
        hour = 0
    return dt.time(hour, minute) if hour < 24 and minute < 60 else None


def scheduler_enter(turn: Turn) -> None:
    intent_detour(turn, SCHEDULER_FLOW, slots={"reschedule": True})


def scheduler_resume(turn: Turn) -> None:
    session = turn.session
    intent, step = session.suspended_intent, session.resumable_step_code
    turn.set(
        current_intent_code=intent,
        current_step_code=step,
        slots=dict(session.resumable_slots),
        suspended_intent="",
        resumable_step_code="",
        resumable_slots={},
    )
    turn.event(EventType.INTENT_RESUMED, intent=intent, step=step, after=SCHEDULER_FLOW)


def scheduler_handle(turn: Turn, text: str, *, asks: int, carry: dict[str, Any]) -> bool:
    """Try to confirm a new date from `text`. True when confirmed (or given up on after
    MAX_ASKS), False when a scheduler card asking for the day was dealt instead."""
    session = turn.session
    profile = profile_of(session)
    slot = slot_parse(text, profile)
    if slot.weekday is None and asks < MAX_ASKS:
        card = new_card(texts.text("schedule_ask", session.locale), SCHEDULER)
        card["asks"] = asks + 1
        turn.open_batch([card, *carry.get("queue", [])], engine="engine", **_links(carry))
        return False
    if slot.weekday is None:
        _reply(turn, texts.text("schedule_kept", session.locale))
        return True
    _confirm(turn, profile, slot)
    return True


def _links(carry: dict[str, Any]) -> dict[str, Any]:
    return {key: carry[key] for key in ("analysis",) if carry.get(key) is not None}


def _confirm(turn: Turn, profile: UserProfile, slot: Slot) -> None:
    session = turn.session
    days = list(profile.schedule_weekdays or [])
    upcoming = next_session_date(profile)
    if upcoming is not None and len(days) > 1:
        days.remove(upcoming.isoweekday())
        days = sorted({*days, slot.weekday})
    else:
        days = [slot.weekday]
    profile.schedule_weekdays = days
    if slot.time is not None:
        profile.schedule_time = slot.time
    profile.save()
    when = next_session_date(profile)
    hhmm = profile.schedule_time.strftime("%H:%M") if profile.schedule_time else None
    label = when_label(when, hhmm, session.locale)
    Notification.objects.create(
        user=session.user,
        kind=Notification.Kind.SCHEDULE_CHANGED,
        session=session,
        payload={
            "weekdays": days,
            "time": hhmm,
            "next_session_date": str(when),
            "title": texts.text("schedule_changed", session.locale, when=label),
        },
    )
    weekday = texts.weekday_name(when.isoweekday(), session.locale) if when else ""
    _reply(turn, texts.text("schedule_confirmed", session.locale, when=weekday).strip())
    updates = {"new_weekday": slot.weekday, "new_time": hhmm}
    move = Move(state_after="confirmed", slots_updated=updates, source="scheduler")
    _move_apply(turn, move)
    turn.event(EventType.SCHEDULE_CHANGED, weekdays=days, time=hhmm, next_session_date=str(when))


def when_label(when: dt.date | None, hhmm: str | None, locale: str) -> str:
    """ "Thursday, 14 May" / "в четверг, 14 мая" / "周四（5月14日）", the time after it."""
    if when is None:
        return ""
    weekday = texts.weekday_name(when.isoweekday(), locale)
    label = texts.text("day_and_date", locale, weekday=weekday, date=texts.day_month(when, locale))
    return texts.text("day_at_time", locale, day=label, time=hhmm) if hhmm else label


def _reply(turn: Turn, line: str) -> None:
    turn.append(Draft(AskMessage.Role.NARRATOR, AskMessage.Kind.REPLY, line, {"engine": "engine"}))


def _move_apply(turn: Turn, move: Move) -> None:
    session = turn.session
    outcome = session_move_validate(session, move)
    turn.set(current_step_code=outcome.step, slots=outcome.slots)
    turn.events.append(outcome.event())
