"""Every text the product writes to a client, in English and Russian (other locales read
English), and the one seam through which they are read: `text(key, locale)`.

The engine's deterministic cards and lines that need no model — the opening, the topic card,
the completion card, "one last thing", the gentle fallback when a model fails, the scheduler's
questions, the crisis safety card — and the jobs' notifications and labels. They must work with
every model, the worker and Redis down.
"""

from __future__ import annotations

from typing import Any

# "On <day>" as a sentence says it, Monday first (ISO order). Russian takes the accusative after
# "в"/"во": "до встречи в четверг", "во вторник". The engine and the offline Narrator share it.
WEEKDAY_PHRASES = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "ru": (
        "в понедельник",
        "во вторник",
        "в среду",
        "в четверг",
        "в пятницу",
        "в субботу",
        "в воскресенье",
    ),
}
TEXTS: dict[str, dict[str, str]] = {
    # the jobs: notifications and the record of an unfinished session
    "resume_session": {
        "en": "We didn't finish last time. Shall we come back?",
        "ru": "Мы не успели закончить в прошлый раз. Вернёмся?",
    },
    "reactivation": {
        "en": "It's been a while. Whenever you feel like it, we're here — no pressure.",
        "ru": "Давно не виделись. Когда захочется — мы рядом, без спешки.",
    },
    "partial_label": {"en": "Unfinished session.", "ru": "Сессия не завершена."},
    # the engine
    "intro": {
        "en": "Hi. This is a quiet space to look at whatever is on your mind today.",
        "ru": "Привет. Здесь можно спокойно посмотреть на то, что сейчас у тебя на душе.",
    },
    "intro_returning": {
        "en": "Good to see you again. Let's take a calm look at where you are today.",
        "ru": "Рад снова тебя видеть. Давай спокойно посмотрим, как ты сегодня.",
    },
    "hook_topic": {
        "en": "Last time you talked about «{topic}».",
        "ru": "В прошлый раз ты говорил(а) о «{topic}».",
    },
    "hook_earlier": {
        "en": "The time before, it was «{topic}».",
        "ru": "А до этого — о «{topic}».",
    },
    "hook_pattern": {
        "en": "Something that came up before: {pattern}",
        "ru": "Раньше всплывало вот что: {pattern}",
    },
    "topic": {
        "en": "What would you like to talk about today?",
        "ru": "О чём тебе хочется поговорить сегодня?",
    },
    "topic_suggest": {
        "en": "What would you like to talk about today? If nothing comes to mind, we could "
        "pick up «{topic}» again.",
        "ru": "О чём тебе хочется поговорить сегодня? Если ничего не приходит в голову, можем "
        "вернуться к «{topic}».",
    },
    "completion": {
        "en": "Looks like we covered this well. End the session?",
        "ru": "Кажется, мы хорошо прошлись по теме. Завершить сессию?",
    },
    "open": {
        "en": "What else would you like to look at?",
        "ru": "На что ещё тебе хочется посмотреть?",
    },
    "fallback": {
        "en": "Let's pause on this one for a moment. In your own words — what feels most "
        "important about it right now?",
        "ru": "Давай немного задержимся на этом. Своими словами — что в этом сейчас самое важное?",
    },
    "refocus": {
        "en": "That's a fair question. What is happening for you right now, as it comes up?",
        "ru": "Это важный вопрос. Что происходит с тобой прямо сейчас, когда он возникает?",
    },
    "last_thing": {
        "en": "One last thing — is there anything you'd like to add?",
        "ru": "И последнее — хочешь что-нибудь добавить?",
    },
    "closing_fallback": {
        "en": "Thank you for taking this time today.",
        "ru": "Спасибо, что нашёл(ла) сегодня на это время.",
    },
    "see_you": {"en": "See you on {weekday}.", "ru": "До встречи {weekday}."},
    "see_you_later": {"en": "See you next time.", "ru": "До встречи в следующий раз."},
    "note_reply": {
        "en": "Thank you for telling me. {see_you}",
        "ru": "Спасибо, что поделился(ась). {see_you}",
    },
    "schedule_ask": {
        "en": "Of course. Which day would suit you better (and at what time, if it changes)?",
        "ru": "Конечно. Какой день тебе подойдёт лучше (и во сколько, если время меняется)?",
    },
    "schedule_confirmed": {
        "en": "Done — your next session is on {when}.",
        "ru": "Готово — следующая сессия {when}.",
    },
    "schedule_kept": {
        "en": "Let's keep the usual day for now; you can always move it later.",
        "ru": "Пока оставим обычный день; его всегда можно перенести позже.",
    },
    "crisis_safety": {
        "en": "I'm really glad you told me. Are you safe right now?",
        "ru": "Хорошо, что ты об этом сказал(а). Ты сейчас в безопасности?",
        "zh": "谢谢你愿意告诉我。你现在安全吗？",
    },
    "crisis_intro": {
        "en": "You don't have to go through this alone. You can reach someone right now:",
        "ru": "Тебе не нужно справляться с этим в одиночку. Прямо сейчас можно обратиться:",
        "zh": "你不必独自承受这些。现在就可以联系他们：",
    },
    "guardian_name": {
        "en": "Before we go on: what is the name of a parent or guardian who knows you use "
        "this app?",
        "ru": "Прежде чем продолжить: как зовут кого-то из родителей или опекуна, кто знает, "
        "что ты пользуешься этим приложением?",
    },
    "guardian_contact": {
        "en": "And how can we reach them (phone or e-mail)?",
        "ru": "И как с ним или с ней связаться (телефон или e-mail)?",
    },
    "safety_plan": {
        "en": "Let's make a small plan for the next hours: who could you reach out to, and "
        "what will you do to stay safe?",
        "ru": "Давай составим небольшой план на ближайшие часы: к кому ты можешь обратиться и "
        "что сделаешь, чтобы быть в безопасности?",
    },
    # The counselor's workspace: who joined the conversation when a person took it over.
    "counselor_default_name": {"en": "Your counselor", "ru": "Ваш консультант"},
    # CBT homework between sessions (issue 18): the closing's offer, the opening's hook and
    # review card, the reminder on the due date. The tasks themselves: data/task_banks.json.
    "tasks_offer": {
        "en": "Something small to try before next time, if it fits. Take it on or leave it.",
        "ru": "Небольшое задание до следующей встречи, если подходит. Можно взять или отказаться.",
        "zh": "下次见面前可以试试的一件小事，合适的话就接受，不合适也可以不做。",
    },
    "hook_task": {
        "en": "Last time you planned to try «{title}» — how did it go?",
        "ru": "В прошлый раз ты собирался(ась) попробовать «{title}» — как получилось?",
        "zh": "上次你打算尝试「{title}」——进行得怎么样？",
    },
    "hook_task_done": {
        "en": "Last time you planned «{title}», and you did it — how did it go?",
        "ru": "В прошлый раз ты запланировал(а) «{title}» и сделал(а) это — как всё прошло?",
        "zh": "上次你计划了「{title}」，而且完成了——感觉怎么样？",
    },
    "task_review_card": {
        "en": "In a few words: how did it go, and what did you notice?",
        "ru": "В двух словах: как получилось и что ты заметил(а)?",
        "zh": "简单说说：进行得怎么样，你注意到了什么？",
    },
    # The reminder's title names no task: an emailed notification carries its title only, and
    # a task's wording is session content (the inbox payload has `task_title` beside it).
    "task_reminder": {
        "en": "A gentle reminder: today is the day for the exercise you planned.",
        "ru": "Небольшое напоминание: сегодня день для упражнения, которое ты запланировал(а).",
        "zh": "温馨提醒：今天是完成你计划的练习的日子。",
    },
    # Neutral session titles (never the client's own words): kind · theme · date.
    "title_general": {"en": "Reflection", "ru": "Рефлексия", "zh": "反思"},
    "title_cbt_guided": {"en": "CBT session", "ru": "КПТ-сессия", "zh": "认知行为疗法"},
    "title_follow_up": {"en": "Follow-up", "ru": "Повторная встреча", "zh": "回访"},
    "title_crisis_intervention": {
        "en": "Support session",
        "ru": "Сессия поддержки",
        "zh": "支持会谈",
    },
    "focus_cognitive_restructuring": {"en": "thoughts", "ru": "мысли", "zh": "想法"},
    "focus_behavioral_activation": {"en": "activity", "ru": "активность", "zh": "活动"},
    "focus_emotion_regulation": {"en": "emotions", "ru": "эмоции", "zh": "情绪"},
    "focus_problem_solving": {"en": "problem solving", "ru": "решение задач", "zh": "解决问题"},
}

MONTHS: dict[str, tuple[str, ...]] = {
    "en": (
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ),
    "ru": (
        "янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек",
    ),
}  # fmt: skip

# Slots the engine may ask for itself with a card when a guard waits on them (and the answer
# fills the slot); slots not listed here are set by code (`counselor_notified`) or by a model.
ASKABLE_SLOTS = ("guardian_name", "guardian_contact", "safety_plan")


def lang_of(locale: str) -> str:
    """The language of a locale ("ru-RU" → "ru", "zh-Hant-TW" → "zh"); English otherwise. A text
    without a variant in that language is read in English."""
    lang = (locale or "").lower()[:2]
    return lang if lang in ("ru", "zh") else "en"


def text(key: str, locale: str, **values: Any) -> str:
    variants = TEXTS[key]
    template = variants.get(lang_of(locale), variants["en"])
    return template.format(**values) if values else template


def date_label(moment: Any, locale: str) -> str:
    """`14 May 2025` / `14 мая 2025` / `2025年5月14日`: a date a client reads in a title, in its
    own language."""
    lang = lang_of(locale)
    if lang == "zh":
        return f"{moment.year}年{moment.month}月{moment.day}日"
    return f"{moment.day} {MONTHS[lang][moment.month - 1]} {moment.year}"


def weekday_name(iso_weekday: int, locale: str) -> str:
    return WEEKDAY_PHRASES.get(lang_of(locale), WEEKDAY_PHRASES["en"])[iso_weekday - 1]
