"""The demo's people, agents and sessions, as plain data; `demo.py` loads them.

Kept apart from the loader so the story can be read (and changed) without the ORM around it.
Every row has a stable natural key — a username, an external agent id, a fixed conversation
UUID — which is what makes `manage.py demo` idempotent.
"""

from __future__ import annotations

import uuid
from datetime import time
from typing import Any

# One documented password per role; printed by `manage.py demo --logins`.
PASSWORDS: dict[str, str] = {
    "ops": "naisei-ops-demo",
    "counselor": "naisei-counselor-demo",
    "client": "naisei-client-demo",
}

OPS = {"username": "ops", "first_name": "Olga", "email": "ops@demo.naisei.test"}

COUNSELORS: list[dict[str, Any]] = [
    {"username": "counselor", "first_name": "Bob", "email": "counselor@demo.naisei.test"},
    {"username": "counselor2", "first_name": "Chiara", "email": "counselor2@demo.naisei.test"},
    # New on the team, with no caseload yet: her insights page is empty, not an error.
    {"username": "charlie", "first_name": "Charlie", "email": "charlie@demo.naisei.test"},
]

# username → user fields and profile (schedule: ISO weekdays at a local time in a zone).
CLIENTS: dict[str, dict[str, Any]] = {
    "alice": {
        "first_name": "Alice",
        "profile": {
            "display_name": "Alice",
            "locale": "en",
            "time_zone": "Europe/Berlin",
            "schedule_weekdays": [4],
            "schedule_time": time(18, 0),
            "typical_activity_time": time(18, 30),
        },
    },
    "dmitri": {
        "first_name": "Dmitri",
        "profile": {
            "display_name": "Дмитрий",
            "locale": "ru",
            "time_zone": "Europe/Moscow",
            "schedule_weekdays": [1, 3],
            "schedule_time": time(20, 0),
            "typical_activity_time": time(21, 15),
        },
    },
    "mei": {
        "first_name": "Mei",
        "profile": {
            "display_name": "美",
            "locale": "zh",
            "time_zone": "Asia/Shanghai",
            "schedule_weekdays": [6],
            "schedule_time": time(10, 0),
            "typical_activity_time": time(22, 0),
        },
    },
    "noor": {
        "first_name": "Noor",
        "profile": {
            "display_name": "Noor",
            "locale": "en",
            "time_zone": "Europe/London",
            "schedule_weekdays": [1, 4],
            "schedule_time": time(12, 30),
            "typical_activity_time": time(12, 45),
        },
    },
    "sam": {
        "first_name": "Sam",
        "profile": {
            "display_name": "Sam",
            "locale": "en",
            "time_zone": "America/New_York",
            "schedule_weekdays": [2, 5],
            "schedule_time": time(19, 30),
            "missed_in_row": 1,
        },
    },
}

# counselor → clients in its caseload. Sam's crisis session is handed off to `counselor`,
# who does not have Sam in its caseload: the hand-off alone grants access (SPEC §1).
CASELOADS: dict[str, list[str]] = {
    "counselor": ["alice", "mei", "noor"],
    "counselor2": ["dmitri", "sam"],
}

SYSTEM_AGENTS: list[dict[str, str]] = [
    {
        "key": "cbt_specialist",
        "name": "CBT specialist",
        "persona": "A calm cognitive-behavioural guide",
        "external_agent_id": "agt_cbt_default",
    },
    {
        "key": "emotion_advisor",
        "name": "Emotion advisor",
        "persona": "Names feelings gently and helps sit with them",
        "external_agent_id": "agt_emotion_default",
    },
    {
        "key": "behavior_coach",
        "name": "Behavior coach",
        "persona": "Small, concrete steps and honest check-ins",
        "external_agent_id": "agt_behavior_default",
    },
    {
        "key": "crisis_interventionist",
        "name": "Crisis interventionist",
        "persona": "Steady, safety-first emergency psychological support",
        "external_agent_id": "agt_crisis_default",
    },
]

# Schema §8 ask_session_003 uses this agent; usr_003 is mapped to dmitri below.
CUSTOM_AGENT: dict[str, str] = {
    "owner": "dmitri",
    "key": "custom_role",
    "name": "暖心导师",
    "persona": "擅长睡眠卫生与自我关怀的导师",
    "version": "2024.05",
    "external_agent_id": "agt_usr003_sleep",
}


def demo_uuid(name: str) -> uuid.UUID:
    """A conversation id that is the same on every run, so reruns find the row again."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"https://naisei.demo/sessions/{name}")


# The three example documents of schema §8, verbatim. `user_id` is mapped to a demo client and
# `counselor_handoff.counselor_id` to a demo counselor; the loader turns `counselor_handoff` into
# the handoff_reason / handoff_counselor / handoff_time columns.
SCHEMA_USERS: dict[str, str] = {"usr_001": "mei", "usr_002": "sam", "usr_003": "dmitri"}
SCHEMA_COUNSELORS: dict[str, str] = {"counselor_001": "counselor"}

SCHEMA_EXAMPLES: list[dict[str, Any]] = [
    {
        "_id": "ask_session_001",
        "_openid": "oAbcd123",
        "user_id": "usr_001",
        "dify_conversation_id": "3c90c3cc-0d44-4b50-8888-8dd25736052a",
        "session_title": "焦虑情绪梳理",
        "session_type": "cbt_guided",
        "trigger_source": "mood_checkin",
        "active_agent_key": "cbt_specialist",
        "agent_origin": "system_default",
        "agent_snapshot": {
            "name": "CBT助手",
            "persona": "认知行为疗法专家",
            "version": "2024.04",
            "origin": "system_default",
            "dify_agent_id": "agt_cbt_default",
        },
        "conversation_variables": {"mood": "anxious", "scene": "exam_preparation"},
        "modality_flags": {"text": True, "audio": True, "file": False},
        "voice_config": {
            "tts_voice": "calm_female_cn",
            "stt_language": "zh-CN",
            "enable_tts": True,
        },
        "cbt_focus": "cognitive_restructuring",
        "initial_risk_level": "L2",
        "final_risk_level": "L1",
        "session_summary": (
            "用户因学业压力产生焦虑，通过认知重构技巧识别了非理性信念，制定了行为实验计划"
        ),
        "key_insights": ["完美主义思维模式", "考试失败恐惧", "自我价值感低"],
        "cbt_techniques_used": ["证据检验", "替代思维生成", "行为实验设计"],
        "generated_task_ids": ["task_cbt_001", "task_cbt_002"],
        "audio_message_count": 3,
        "attachment_count": 0,
        "satisfaction_score": 4,
        "follow_up_needed": True,
        "follow_up_at": "2024-04-08T14:00:00Z",
        "message_count": 15,
        "duration_seconds": 480,
        "createdAt": "2024-04-06T10:30:00Z",
        "updatedAt": "2024-04-06T18:30:00Z",
        "endedAt": "2024-04-06T18:30:00Z",
    },
    {
        "_id": "ask_session_002",
        "_openid": "oAbcd456",
        "user_id": "usr_002",
        "dify_conversation_id": "6f7d9099-9ee9-4d9d-9cf1-0a0e2df4a001",
        "session_type": "crisis_intervention",
        "trigger_source": "journal_negative",
        "active_agent_key": "crisis_interventionist",
        "agent_origin": "system_default",
        "agent_snapshot": {
            "name": "危机干预",
            "persona": "紧急心理支持专家",
            "version": "2024.04",
            "origin": "system_default",
            "dify_agent_id": "agt_crisis_default",
        },
        "conversation_variables": {"riskFlag": "high", "autoEscalated": True},
        "modality_flags": {"text": True, "audio": False, "file": True},
        "attachment_count": 2,
        "initial_risk_level": "L3",
        "final_risk_level": "L2",
        "session_summary": "用户表达强烈的绝望情绪，进行了危机干预和资源推荐，已转交辅导员跟进",
        "key_insights": ["绝望感", "社交孤立", "无价值感"],
        "cbt_techniques_used": ["情绪稳定技巧", "安全规划", "社会支持激活"],
        "counselor_handoff": {
            "handoff_reason": "crisis_risk",
            "counselor_id": "counselor_001",
            "handoff_time": "2024-04-06T16:45:00Z",
        },
        "intervention_triggered": True,
        "message_count": 8,
        "duration_seconds": 320,
        "createdAt": "2024-04-06T16:20:00Z",
        "updatedAt": "2024-04-06T16:45:00Z",
        "endedAt": "2024-04-06T16:45:00Z",
    },
    {
        "_id": "ask_session_003",
        "_openid": "oAbcd789",
        "user_id": "usr_003",
        "dify_conversation_id": "b1dd8a56-847c-4a3f-bb0d-02e93d702010",
        "session_type": "general",
        "trigger_source": "manual_trigger",
        "active_agent_key": "custom_role",
        "custom_agent_id": "ask_agent_usr003_01",
        "agent_origin": "user_custom",
        "agent_snapshot": {
            "name": "暖心导师",
            "persona": "擅长睡眠卫生与自我关怀的导师",
            "version": "2024.05",
            "origin": "user_custom",
            "dify_agent_id": "agt_usr003_sleep",
        },
        "session_summary": "用户咨询睡眠问题，获得了睡眠卫生建议和放松技巧",
        "key_insights": ["入睡困难", "作息不规律"],
        "cbt_techniques_used": ["睡眠卫生教育", "放松训练"],
        "audio_message_count": 0,
        "attachment_count": 0,
        "satisfaction_score": 5,
        "message_count": 6,
        "duration_seconds": 180,
        "createdAt": "2024-04-05T22:15:00Z",
        "updatedAt": "2024-04-05T22:45:00Z",
        "endedAt": "2024-04-05T22:45:00Z",
    },
]

# A script is the session's message chain, oldest first: (role, kind, text[, modality]).
# Each message's parent is the one before it; the session's 'main' workline ends at the last.
Script = list[tuple[str, ...]]

SCHEMA_SCRIPTS: dict[str, Script] = {
    "ask_session_001": [
        ("narrator", "intro", "你好，我是CBT助手。今天想一起梳理一下让你紧张的事情吗？"),
        ("narrator", "question_card", "最近一次明显感到焦虑，是在什么情境下？"),
        ("client", "answer", "复习期末考试的时候，一想到可能考不好就心跳加速。", "audio"),
        ("narrator", "question_card", "那一刻，你脑海里闪过的第一个想法是什么？"),
        ("client", "answer", "如果考不到第一，我就是个失败的人。"),
        ("narrator", "question_card", "支持这个想法的证据有哪些？"),
        ("client", "answer", "上次模拟考我只考了第五名，爸妈有点失望。", "audio"),
        ("narrator", "question_card", "有没有不支持这个想法的证据？"),
        ("client", "answer", "其实我一直都在前十名，老师也说我进步很大。"),
        ("narrator", "question_card", "如果好朋友这样想，你会对他说什么？"),
        ("client", "answer", "我会说一次考试不能决定一个人的价值。", "audio"),
        ("narrator", "question_card", "这周可以做一个什么小实验来检验你的担心？"),
        ("client", "answer", "做一套模拟题，不追求满分，看看结果是否真的那么糟。"),
        ("narrator", "insight", "你注意到了完美主义的想法，也找到了更平衡的替代思维。"),
        ("narrator", "closing", "今天辛苦了。两天后我们再看看行为实验的结果。"),
    ],
    "ask_session_002": [
        ("narrator", "intro", "我注意到你刚写下的随笔很沉重。我在这里，愿意听你说。"),
        ("narrator", "question_card", "现在的你，心里最强烈的感受是什么？"),
        ("client", "answer", "觉得一切都没有意义，没有人需要我。这是我写的两页日记。", "file"),
        ("narrator", "question_card", "此刻你是安全的吗？身边有可以联系的人吗？"),
        ("client", "answer", "我现在在家。这是我和朋友最后的聊天截图。", "file"),
        (
            "narrator",
            "crisis_resources",
            "如果你有伤害自己的想法，请立即拨打心理援助热线或当地紧急电话。",
        ),
        ("system", "marker", "已转交辅导员跟进（crisis_risk）。"),
        ("narrator", "closing", "谢谢你愿意说出来。辅导员很快会联系你，你并不孤单。"),
    ],
    "ask_session_003": [
        ("narrator", "intro", "晚上好，我是暖心导师。今晚想聊聊睡眠吗？"),
        ("narrator", "question_card", "最近入睡大概需要多长时间？"),
        ("client", "answer", "经常要一个多小时，脑子停不下来。"),
        ("narrator", "question_card", "睡前一小时你通常在做什么？"),
        ("client", "answer", "刷手机，有时候还会喝咖啡赶作业。"),
        ("narrator", "closing", "试试固定起床时间，睡前放下手机做几分钟放松训练。晚安。"),
    ],
}

# The rest of the story, relative to the day the demo is loaded. `agent` names a system agent by
# its external id; `ago` is (days, hours) before now; `outcome` is completed, abnormal or active.
STORY_SESSIONS: list[dict[str, Any]] = [
    {
        "name": "alice-follow-up",
        "user": "alice",
        "agent": "agt_behavior_default",
        "ago": (9, 2),
        "minutes": 12,
        "outcome": "completed",
        "moods": ["stable", "improving"],
        "follow_up_in": 3,
        "fields": {
            "session_title": "Checking in on the morning walks",
            "session_type": "follow_up",
            "trigger_source": "scheduled_checkin",
            "active_agent_key": "behavior_coach",
            "cbt_focus": "behavioral_activation",
            "initial_risk_level": "L1",
            "final_risk_level": "L0",
            "session_summary": "Alice kept three of five planned walks and noticed better sleep.",
            "key_insights": ["Energy follows action", "Mornings are easier with a plan"],
            "cbt_techniques_used": ["Activity scheduling"],
            "satisfaction_score": 5,
        },
        "script": [
            ("narrator", "intro", "Welcome back, Alice. Last week you planned five walks."),
            ("narrator", "question_card", "How many of the walks happened?"),
            ("client", "answer", "Three. The rainy days were hard."),
            ("narrator", "question_card", "What did you notice on the days you walked?"),
            ("client", "answer", "I slept better and snapped at people less."),
            ("narrator", "closing", "Three is real progress. Same plan, with a rainy-day option?"),
        ],
    },
    {
        "name": "alice-general",
        "user": "alice",
        "agent": "agt_emotion_default",
        "ago": (5, 3),
        "minutes": 9,
        "outcome": "completed",
        "moods": ["declining", "stable"],
        "fields": {
            "session_title": "Tense after the team meeting",
            "session_type": "general",
            "trigger_source": "mood_checkin",
            "active_agent_key": "emotion_advisor",
            "cbt_focus": "emotion_regulation",
            "initial_risk_level": "L1",
            "final_risk_level": "L1",
            "session_summary": "Alice named frustration under the tension and chose a reply.",
            "key_insights": ["Frustration shows up as tiredness"],
            "cbt_techniques_used": ["Affect labelling"],
            "satisfaction_score": 4,
        },
        "script": [
            ("narrator", "intro", "Your mood check-in said 'tense'. Want to look at it?"),
            ("narrator", "question_card", "Where do you feel the tension right now?"),
            ("client", "answer", "Shoulders. The meeting went badly."),
            ("narrator", "question_card", "If the tension had a name, what would it be?"),
            ("client", "answer", "Frustration, I think. Nobody listened."),
            ("narrator", "closing", "Naming it is a first step. Be kind to yourself tonight."),
        ],
    },
    {
        "name": "alice-active",
        "user": "alice",
        "agent": "agt_cbt_default",
        "ago": (0, 1),
        "minutes": 6,
        "outcome": "active",
        "fields": {
            "session_title": "Sunday worries",
            "session_type": "cbt_guided",
            "trigger_source": "manual_trigger",
            "active_agent_key": "cbt_specialist",
            "cbt_focus": "cognitive_restructuring",
            "initial_risk_level": "L1",
        },
        "script": [
            ("narrator", "intro", "Hi Alice. What is on your mind this evening?"),
            ("narrator", "question_card", "What thought keeps coming back?"),
            ("client", "answer", "That I will fall behind at work this week."),
            ("narrator", "question_card", "What makes that thought feel true?"),
        ],
    },
    {
        "name": "dmitri-cbt",
        "user": "dmitri",
        "agent": "agt_cbt_default",
        "ago": (12, 4),
        "minutes": 14,
        "outcome": "completed",
        "moods": ["declining", "improving"],
        "fields": {
            "session_title": "Переезд и неопределённость",
            "session_type": "cbt_guided",
            "trigger_source": "journal_negative",
            "active_agent_key": "cbt_specialist",
            "cbt_focus": "problem_solving",
            "initial_risk_level": "L2",
            "final_risk_level": "L1",
            "session_summary": "Дмитрий разбил переезд на шаги и выбрал первый на эту неделю.",
            "key_insights": ["Катастрофизация", "Большая задача без первого шага"],
            "cbt_techniques_used": ["Решение проблем по шагам"],
            "satisfaction_score": 4,
            "locale": "ru",
        },
        "script": [
            ("narrator", "intro", "Здравствуйте, Дмитрий. Запись в дневнике звучала тревожно."),
            ("narrator", "question_card", "Что в переезде пугает больше всего?"),
            ("client", "answer", "Что я ничего не успею и всё развалится."),
            (
                "narrator",
                "question_card",
                "Какой самый маленький шаг можно сделать на этой неделе?",
            ),
            ("client", "answer", "Позвонить в две компании по перевозке."),
            ("narrator", "closing", "Отличный первый шаг. Вернёмся к нему в среду."),
        ],
    },
    {
        "name": "dmitri-crisis",
        "user": "dmitri",
        "agent": "agt_crisis_default",
        "ago": (3, 22),
        "minutes": 11,
        "outcome": "completed",
        "handoff": ("counselor2", "treehole_risk_l4", 10),
        "moods": ["declining"],
        "claim_seconds": 140,
        "follow_up_in": -1,
        "fields": {
            "session_title": "Тяжёлая ночь",
            "session_type": "crisis_intervention",
            "trigger_source": "treehole_risk",
            "active_agent_key": "crisis_interventionist",
            "initial_risk_level": "L4",
            "final_risk_level": "L2",
            "intervention_triggered": True,
            "follow_up_needed": True,
            "session_summary": "Ночной кризис: план безопасности, контакты, передано консультанту.",
            "cbt_techniques_used": ["План безопасности"],
            "locale": "ru",
        },
        "script": [
            ("narrator", "intro", "Дмитрий, я вижу, что сейчас очень тяжело. Я рядом."),
            ("narrator", "question_card", "Вы сейчас в безопасности?"),
            ("client", "answer", "Не уверен. Не могу уснуть и мысли очень тёмные."),
            ("narrator", "crisis_resources", "Телефон доверия: 8-800-2000-122, круглосуточно."),
            ("system", "marker", "Передано консультанту."),
            ("narrator", "closing", "Консультант свяжется с вами. Вы не один."),
        ],
    },
    {
        "name": "dmitri-abandoned",
        "user": "dmitri",
        "agent": "agt_emotion_default",
        "ago": (1, 5),
        "minutes": 3,
        "outcome": "abnormal",
        "fields": {
            "session_title": "Вечерняя проверка",
            "session_type": "general",
            "trigger_source": "scheduled_checkin",
            "active_agent_key": "emotion_advisor",
            "initial_risk_level": "L1",
            "locale": "ru",
        },
        "script": [
            ("narrator", "intro", "Добрый вечер. Как прошёл день?"),
            ("narrator", "question_card", "Одним словом: какое настроение сейчас?"),
        ],
    },
    {
        "name": "sam-follow-up",
        "user": "sam",
        "agent": "agt_emotion_default",
        "ago": (2, 6),
        "minutes": 10,
        "outcome": "completed",
        "moods": ["stable"],
        "follow_up_in": 6,
        "fields": {
            "session_title": "A week after the hard night",
            "session_type": "follow_up",
            "trigger_source": "scheduled_checkin",
            "active_agent_key": "emotion_advisor",
            "cbt_focus": "emotion_regulation",
            "initial_risk_level": "L2",
            "final_risk_level": "L1",
            "session_summary": "Sam has met the counselor twice and reached out to one friend.",
            "key_insights": ["Reconnecting helps"],
            "cbt_techniques_used": ["Social support activation"],
            "satisfaction_score": 4,
        },
        "script": [
            ("narrator", "intro", "Hi Sam, it's been a week. How are you holding up?"),
            ("narrator", "question_card", "Who have you been in touch with this week?"),
            ("client", "answer", "My counselor, twice. And I called Jo."),
            ("narrator", "closing", "That took courage. Keep those lines open."),
        ],
    },
    {
        "name": "sam-deleted",
        "user": "sam",
        "agent": "agt_cbt_default",
        "ago": (20, 1),
        "minutes": 4,
        "outcome": "completed",
        "deleted": True,
        "fields": {
            "session_title": "Deleted by the client",
            "session_type": "general",
            "trigger_source": "manual_trigger",
            "active_agent_key": "cbt_specialist",
            "session_summary": "Soft-deleted at the client's request; ops still see it.",
        },
        "script": [
            ("narrator", "intro", "Hello Sam. What brings you here today?"),
            ("client", "answer", "Just trying the app out."),
            ("narrator", "closing", "Welcome. Come back whenever you like."),
        ],
    },
]


# --- the last 30 days: enough history that every insights chart has something to show ----------

# Short conversations per language: (intro, question, answer, question, answer, closing).
_HISTORY_LINES = {
    "en": {
        "sleep": (
            "Hi {name}. Shall we look at how the nights have been?",
            "How have you been sleeping this week?",
            "Badly on the nights before work, fine at weekends.",
            "What goes through your mind when you lie awake?",
            "Lists of things I have not done.",
            "Writing the list down before bed might quiet it. Let's try that.",
        ),
        "work": (
            "Hello {name}. What is on your mind today?",
            "What was the hardest moment of the week?",
            "A deadline moved and I stayed late three times.",
            "What did you tell yourself when it moved?",
            "That I can never say no.",
            "You noticed the rule you live by. That is a first step.",
        ),
        "crisis": (
            "{name}, I can see things are very hard right now. I'm here.",
            "Are you safe right now?",
            "I don't know. Everything feels pointless tonight.",
            "Is there someone you can be with tonight?",
            "Maybe my brother.",
            "A counselor is joining you now. You are not alone.",
        ),
    },
    "zh": {
        "sleep": (
            "你好，{name}。我们聊聊最近的睡眠好吗？",
            "这周睡得怎么样？",
            "上班前的晚上睡不好，周末还可以。",
            "躺着睡不着的时候在想什么？",
            "想着还没做完的事情。",
            "睡前把清单写下来，也许能让脑子安静一点。",
        ),
        "work": (
            "你好，{name}。今天想聊点什么？",
            "这周最难的时刻是什么？",
            "考试临近，我每天都复习到很晚。",
            "那时你对自己说了什么？",
            "如果考不好，我就让大家失望了。",
            "你注意到了自己的想法，这是很好的开始。",
        ),
    },
    "ru": {
        "work": (
            "Здравствуйте, {name}. О чём хочется поговорить?",
            "Какой момент недели был самым тяжёлым?",
            "Переговоры с арендодателем, я всё откладывал.",
            "Что вы себе говорили, когда откладывали?",
            "Что всё равно ничего не выйдет.",
            "Вы заметили эту мысль. Давайте проверим её на деле.",
        ),
    },
}

_SCRIPT_ROLES = (
    ("narrator", "intro"),
    ("narrator", "question_card"),
    ("client", "answer"),
    ("narrator", "question_card"),
    ("client", "answer"),
    ("narrator", "closing"),
)


def _history_script(locale: str, theme: str, name: str, *, abandoned: bool = False) -> Script:
    lines = _HISTORY_LINES[locale][theme]
    script = [
        (role, kind, text.format(name=name))
        for (role, kind), text in zip(_SCRIPT_ROLES, lines, strict=True)
    ]
    return script[:2] if abandoned else script


# (name, user, first name, locale, theme, (days, hours) ago, outcome, fields, moods, extra)
_HISTORY: list[tuple[Any, ...]] = [
    (
        "alice-h27",
        "alice",
        "Alice",
        "en",
        "work",
        (27, 3),
        "completed",
        {
            "initial_risk_level": "L1",
            "final_risk_level": "L1",
            "satisfaction_score": 3,
            "cbt_techniques_used": ["Thought record"],
            "session_summary": "Alice found the rule 'I can never say no'.",
            "key_insights": ["Over-commitment at work"],
        },
        ["declining", "stable"],
        {},
    ),
    (
        "alice-h20",
        "alice",
        "Alice",
        "en",
        "sleep",
        (20, 2),
        "completed",
        {
            "initial_risk_level": "L1",
            "final_risk_level": "L0",
            "satisfaction_score": 4,
            "cbt_techniques_used": ["Sleep hygiene", "Worry list"],
            "session_summary": "Worry list before bed agreed.",
            "key_insights": ["Pre-work insomnia"],
        },
        ["stable", "improving"],
        {},
    ),
    (
        "alice-h14",
        "alice",
        "Alice",
        "en",
        "work",
        (14, 5),
        "abnormal",
        {"initial_risk_level": "L1"},
        [],
        {},
    ),
    (
        "mei-h25",
        "mei",
        "Mei",
        "zh",
        "sleep",
        (25, 4),
        "completed",
        {
            "initial_risk_level": "L2",
            "final_risk_level": "L1",
            "satisfaction_score": 4,
            "locale": "zh",
            "cbt_techniques_used": ["睡眠卫生教育"],
            "session_summary": "美决定睡前写下待办清单。",
            "key_insights": ["考前失眠"],
        },
        ["declining", "stable"],
        {},
    ),
    (
        "mei-h16",
        "mei",
        "Mei",
        "zh",
        "work",
        (16, 3),
        "completed",
        {
            "initial_risk_level": "L2",
            "final_risk_level": "L2",
            "satisfaction_score": 3,
            "locale": "zh",
            "cbt_techniques_used": ["证据检验"],
            "session_summary": "识别了“让大家失望”的想法。",
            "key_insights": ["完美主义思维模式"],
        },
        ["declining"],
        {},
    ),
    (
        "mei-h6",
        "mei",
        "Mei",
        "zh",
        "work",
        (6, 2),
        "completed",
        {
            "initial_risk_level": "L1",
            "final_risk_level": "L1",
            "satisfaction_score": 5,
            "locale": "zh",
            "cbt_techniques_used": ["证据检验", "替代思维生成"],
            "session_summary": "美找到了更平衡的替代想法。",
            "key_insights": ["进步被忽视"],
        },
        ["stable", "improving"],
        {},
    ),
    (
        "mei-h2",
        "mei",
        "Mei",
        "zh",
        "sleep",
        (2, 1),
        "abnormal",
        {"initial_risk_level": "L1", "locale": "zh"},
        [],
        {},
    ),
    (
        "dmitri-h22",
        "dmitri",
        "Дмитрий",
        "ru",
        "work",
        (22, 6),
        "completed",
        {
            "initial_risk_level": "L2",
            "final_risk_level": "L2",
            "satisfaction_score": 3,
            "locale": "ru",
            "cbt_techniques_used": ["Поведенческий эксперимент"],
            "session_summary": "Дмитрий согласился позвонить арендодателю.",
            "key_insights": ["Откладывание"],
        },
        ["declining", "declining"],
        {},
    ),
    (
        "dmitri-h8",
        "dmitri",
        "Дмитрий",
        "ru",
        "work",
        (8, 4),
        "abnormal",
        {"initial_risk_level": "L2", "locale": "ru"},
        [],
        {},
    ),
    (
        "sam-h28",
        "sam",
        "Sam",
        "en",
        "crisis",
        (28, 23),
        "completed",
        {
            "session_type": "crisis_intervention",
            "trigger_source": "treehole_risk",
            "active_agent_key": "crisis_interventionist",
            "initial_risk_level": "L3",
            "final_risk_level": "L2",
            "intervention_triggered": True,
            "cbt_techniques_used": ["Safety planning"],
            "session_summary": "A hard night; safety plan made with the counselor.",
            "key_insights": ["Isolation at night"],
        },
        ["declining"],
        {"handoff": ("counselor2", "crisis_risk", 6), "claim_seconds": 310},
    ),
    (
        "sam-h18",
        "sam",
        "Sam",
        "en",
        "sleep",
        (18, 2),
        "completed",
        {
            "initial_risk_level": "L2",
            "final_risk_level": "L1",
            "satisfaction_score": 4,
            "cbt_techniques_used": ["Sleep hygiene"],
            "session_summary": "Sam will keep a fixed wake-up time.",
            "key_insights": ["Irregular rhythm"],
        },
        ["stable"],
        {},
    ),
    (
        "noor-h24",
        "noor",
        "Noor",
        "en",
        "work",
        (24, 1),
        "completed",
        {
            "initial_risk_level": "L1",
            "final_risk_level": "L1",
            "satisfaction_score": 5,
            "cbt_techniques_used": ["Thought record", "Assertiveness script"],
            "session_summary": "Noor drafted how to decline extra work.",
            "key_insights": ["People-pleasing"],
        },
        ["stable", "improving"],
        {},
    ),
    (
        "noor-h13",
        "noor",
        "Noor",
        "en",
        "sleep",
        (13, 2),
        "completed",
        {
            "initial_risk_level": "L1",
            "final_risk_level": "L1",
            "satisfaction_score": 4,
            "cbt_techniques_used": ["Worry list"],
            "session_summary": "Noor tried the worry list twice.",
            "key_insights": ["Racing thoughts at night"],
        },
        ["stable"],
        {},
    ),
    (
        "noor-h4",
        "noor",
        "Noor",
        "en",
        "work",
        (4, 3),
        "abnormal",
        {"initial_risk_level": "L1"},
        [],
        {},
    ),
    (
        "noor-h1",
        "noor",
        "Noor",
        "en",
        "crisis",
        (1, 20),
        "completed",
        {
            "session_type": "crisis_intervention",
            "trigger_source": "treehole_risk",
            "active_agent_key": "crisis_interventionist",
            "initial_risk_level": "L2",
            "final_risk_level": "L3",
            "intervention_triggered": True,
            "satisfaction_score": 4,
            "cbt_techniques_used": ["Safety planning", "Grounding"],
            "session_summary": "Noor's risk rose mid-session; Bob took over and made a plan.",
            "key_insights": ["Sudden hopelessness after a conflict"],
        },
        ["declining", "stable"],
        {"handoff": ("counselor", "crisis_risk", 7), "claim_seconds": 95},
    ),
]

_HISTORY_AGENTS = {
    "crisis": "agt_crisis_default",
    "sleep": "agt_behavior_default",
    "work": "agt_cbt_default",
}
_HISTORY_TITLES = {
    "en": {
        "sleep": "Nights before work",
        "work": "A week of saying yes",
        "crisis": "A very hard night",
    },
    "zh": {"sleep": "考前的夜晚", "work": "复习的压力"},
    "ru": {"work": "Откладывание"},
}

for _name, _user, _first, _locale, _theme, _ago, _outcome, _fields, _moods, _extra in _HISTORY:
    STORY_SESSIONS.append(
        {
            "name": _name,
            "user": _user,
            "agent": _HISTORY_AGENTS[_theme],
            "ago": _ago,
            "minutes": 4 if _outcome == "abnormal" else 12,
            "outcome": _outcome,
            "moods": _moods,
            **_extra,
            "fields": {
                "session_title": _HISTORY_TITLES[_locale][_theme],
                "session_type": "cbt_guided" if _theme == "work" else "general",
                "trigger_source": "scheduled_checkin",
                "active_agent_key": "cbt_specialist" if _theme == "work" else "behavior_coach",
                **_fields,
            },
            "script": _history_script(_locale, _theme, _first, abandoned=_outcome == "abnormal"),
        }
    )
