"""Every text the product writes to a client, and the one seam through which they are read:
`text(key, locale, **values)`. The words are English msgids in Django's gettext catalogs
(`locale/{ru,zh_Hans}/LC_MESSAGES/django.po`); a locale without a catalog reads English.

The engine's deterministic cards and lines that need no model — the opening, the topic card,
the completion card, "one last thing", the gentle fallback when a model fails, the scheduler's
questions, the crisis safety card — and the jobs' notifications and labels. They must work with
every model, the worker and Redis down: catalogs are files, read in-process.

Russian translations are written so that they agree with any client (no "(а)"): a neutral
frame when the client's grammatical gender is unknown, and quotes of the client's words after a
colon, where the nominative they were written in stays right.
"""

from __future__ import annotations

from typing import Any

from django.utils import dateformat, translation
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

# "On <day>" as a sentence says it, Monday first (ISO order). Russian takes the accusative after
# "в"/"во" ("до встречи в четверг", "во вторник"); Chinese the short 周四.
WEEKDAY_PHRASES = (
    pgettext_lazy("on a weekday", "Monday"),
    pgettext_lazy("on a weekday", "Tuesday"),
    pgettext_lazy("on a weekday", "Wednesday"),
    pgettext_lazy("on a weekday", "Thursday"),
    pgettext_lazy("on a weekday", "Friday"),
    pgettext_lazy("on a weekday", "Saturday"),
    pgettext_lazy("on a weekday", "Sunday"),
)

TEXTS: dict[str, Promise] = {
    # the jobs: notifications and the record of an unfinished session
    "resume_session": _("We didn't finish last time. Shall we come back?"),
    "reactivation": _("It's been a while. Whenever you feel like it, we're here — no pressure."),
    "schedule_changed": _("Your next session is now on {when}."),
    "partial_label": _("Unfinished session."),
    "partial_topic": _("Topic: {topic}."),
    # the vault export's consent, as the profile API states it (jobs/markdown_export.py)
    "vault_consent_given": _(
        "Every night, your finished sessions and your profile are written as Markdown files into "
        "a private folder of yours on the server. You can withdraw at any time: the folder is "
        "then deleted at the next nightly run."
    ),
    "vault_consent_none": _(
        "Your sessions are not written to a folder on the server. If they were before, that "
        "folder is deleted at the next nightly run."
    ),
    # the engine
    "intro": _("Hi. This is a quiet space to look at whatever is on your mind today."),
    "intro_returning": _("Good to see you again. Let's take a calm look at where you are today."),
    # In Russian the quote follows a colon, so the client's words keep the case they were
    # written in (never "о «…»").
    "hook_topic": _("Last time you talked about «{topic}»."),
    "hook_earlier": _("The time before, it was «{topic}»."),
    "hook_pattern": _("Something that came up before: {pattern}"),
    # After a crisis session the opening quotes nothing back: it checks in (SPEC §3 Opening).
    "hook_after_crisis": _("Last time was a hard conversation. How are you today?"),
    "topic": _("What would you like to talk about today?"),
    "topic_suggest": _(
        "What would you like to talk about today? If nothing comes to mind, we could pick up "
        "«{topic}» again."
    ),
    "completion": _("Looks like we covered this well. End the session?"),
    # The completion card for a client who said it is tired: tiredness, not a finished topic.
    "completion_tired": _("Let's stop here for today — rest matters too. End the session?"),
    "open": _("What else would you like to look at?"),
    "fallback": _(
        "Let's pause on this one for a moment. In your own words — what feels most important "
        "about it right now?"
    ),
    "refocus": _("That's a fair question. What is happening for you right now, as it comes up?"),
    "last_thing": _("One last thing — is there anything you'd like to add?"),
    "closing_fallback": _("Thank you for taking this time today."),
    # The closing line's first words: the client's own topic, after a colon in Russian.
    "closing_topic": _("Today we looked at «{topic}»."),
    "see_you": _("See you on {weekday}."),
    "see_you_date": _("See you on {weekday}, {date}."),
    "see_you_later": _("See you next time."),
    "note_reply": _("Thank you for telling me. {see_you}"),
    "schedule_ask": _(
        "Of course. Which day would suit you better (and at what time, if it changes)?"
    ),
    "schedule_confirmed": _("Done — your next session is on {when}."),
    "day_and_date": _("{weekday}, {date}"),
    "day_at_time": _("{day} at {time}"),
    "schedule_kept": _("Let's keep the usual day for now; you can always move it later."),
    "crisis_safety": _("I'm really glad you told me. Are you safe right now?"),
    "crisis_intro": _("You don't have to go through this alone. You can reach someone right now:"),
    # the screening card (engine/crisis/screening.py): the first questions of the C-SSRS screener,
    # plainly
    "screening_wish": _(
        "Sometimes when things are this heavy, people think about not being alive, or about "
        "ending their life. Have you had thoughts like that?"
    ),
    "screening_wish_again": _(
        "It's okay to answer either way — there is no wrong answer here. Have you had thoughts "
        "of ending your life?"
    ),
    "screening_how": _(
        "Thank you for telling me. Have you thought about how you might do it, made a plan, or "
        "done anything to get ready?"
    ),
    "guardian_name": _(
        "Before we go on: what is the name of a parent or guardian who knows you use this app?"
    ),
    "guardian_contact": _("And how can we reach them (phone or e-mail)?"),
    "safety_plan": _(
        "Let's make a small plan for the next hours: who could you reach out to, and what will "
        "you do to stay safe?"
    ),
    # The counselor's workspace: who joined the conversation when a person took it over.
    "counselor_default_name": _("Your counselor"),
    # The first card after a counselor hands the conversation back to the AI: the pause is
    # acknowledged and the client checked in with, before any question.
    "handback_check_in": _("Thank you for waiting. How are you feeling right now?"),
    # CBT homework between sessions: the closing's offer, the opening's hook and
    # review card, the reminder on the due date. The tasks themselves: data/task_banks.json.
    "tasks_offer": _(
        "Something small to try before next time, if it fits. Take it on or leave it."
    ),
    "hook_task": _("Last time you planned to try «{title}» — how did it go?"),
    "hook_task_done": _("Last time you planned «{title}», and you did it — how did it go?"),
    "task_review_card": _("In a few words: how did it go, and what did you notice?"),
    # The reminder's title names no task: an emailed notification carries its title only, and
    # a task's wording is session content (the inbox payload has `task_title` beside it).
    "task_reminder": _("A gentle reminder: today is the day for the exercise you planned."),
    # Neutral session titles (never the client's own words): kind · theme · date.
    "title_general": _("Reflection"),
    "title_cbt_guided": _("CBT session"),
    "title_follow_up": _("Follow-up"),
    "title_crisis_intervention": _("Support session"),
    "focus_cognitive_restructuring": pgettext_lazy("session theme", "thoughts"),
    "focus_behavioral_activation": pgettext_lazy("session theme", "activity"),
    "focus_emotion_regulation": pgettext_lazy("session theme", "emotions"),
    "focus_problem_solving": pgettext_lazy("session theme", "problem solving"),
}

# Slots the engine may ask for itself with a card when a guard waits on them (and the answer
# fills the slot); slots not listed here are set by code (`counselor_notified`) or by a model.
ASKABLE_SLOTS = ("guardian_name", "guardian_contact", "safety_plan")
# Date formats (Django's `date` filter letters) are translated like any text: a day and month
# after a weekday ("14 May", "14 мая", "5月14日") and a date in a title ("14 May 2025").
DAY_MONTH = pgettext_lazy("day and month format", "j F")
DATE = pgettext_lazy("date format in a title", "j M Y")
LIST_SEPARATOR = pgettext_lazy("between the items of a list", ", ")
DJANGO_LANGUAGE = {"en": "en", "ru": "ru", "zh": "zh-hans"}


def lang_of(locale: str) -> str:
    """The language of a locale ("ru-RU" → "ru", "zh-Hant-TW" → "zh"); English otherwise."""
    lang = (locale or "").lower()[:2]
    return lang if lang in ("ru", "zh") else "en"


def django_language(locale: str) -> str:
    """The catalog a locale reads: traditional Chinese reads the simplified one."""
    return DJANGO_LANGUAGE[lang_of(locale)]


def text(key: str, locale: str, **values: Any) -> str:
    return say(TEXTS[key], locale, **values)


def plural(message: Promise, count: int, locale: str, **values: Any) -> str:
    """A count in the locale's plural form ("1 ответ", "2 ответа", "5 ответов"). `message` is
    `ngettext_lazy(singular, plural, "count")`, its placeholders in braces."""
    with translation.override(django_language(locale)):
        template = str(message % {"count": count})
    return template.format(count=count, **values)


def sentences(locale: str, *parts: str) -> str:
    """Sentences one after another: with a space, except in Chinese, whose full stop needs none."""
    return ("" if lang_of(locale) == "zh" else " ").join(part for part in parts if part)


def listed(items: list[str], locale: str) -> str:
    """Items of a list in a sentence: "work, sleep" / "工作、睡眠"."""
    return say(LIST_SEPARATOR, locale).join(items)


def date_label(moment: Any, locale: str) -> str:
    """`14 May 2025` / `14 мая 2025` / `2025年5月14日`: a date a client reads in a title, in its
    own language."""
    with translation.override(django_language(locale)):
        return dateformat.format(moment, str(DATE))


def day_month(moment: Any, locale: str) -> str:
    with translation.override(django_language(locale)):
        return dateformat.format(moment, str(DAY_MONTH))


def weekday_name(iso_weekday: int, locale: str) -> str:
    with translation.override(django_language(locale)):
        return str(WEEKDAY_PHRASES[iso_weekday - 1])


def say(message: Promise | str, locale: str, **values: Any) -> str:
    """One marked message (`gettext_lazy`) read in `locale`, its placeholders filled."""
    with translation.override(django_language(locale)):
        template = str(message) if isinstance(message, Promise) else gettext(message)
    return template.format(**values) if values else template
