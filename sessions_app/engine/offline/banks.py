"""The offline engine's data: question banks, insights, themes and labels, in English and
Russian. Every question is written in the third person, exactly as the Analyst must write it;
the Narrator's grammar rules turn it into the card the client reads."""

from __future__ import annotations

from typing import NamedTuple

FOCI = (
    "cognitive_restructuring",
    "behavioral_activation",
    "emotion_regulation",
    "problem_solving",
)
STAGES = ("opening", "exploring", "deepening")


class BankQuestion(NamedTuple):
    tags: tuple[str, ...]
    en: str
    ru: str


Q = BankQuestion

BANK: dict[str, dict[str, tuple[BankQuestion, ...]]] = {
    "cognitive_restructuring": {
        "opening": (
            Q(
                ("thought",),
                "What does the user tell themselves when things go wrong?",
                "Что пользователь говорит себе, когда что-то идёт не так?",
            ),
            Q(
                ("thought", "anxiety"),
                "Which recent situation does the user keep coming back to in their thoughts?",
                "К какой недавней ситуации пользователь мысленно возвращается снова и снова?",
            ),
            Q(
                ("selfcrit", "anxiety"),
                "The user expects the worst outcome before anything has happened.",
                "Пользователь ожидает худшего исхода ещё до того, как что-то произошло.",
            ),
        ),
        "exploring": (
            Q(
                ("thought", "anxiety"),
                "What thought goes through the user's mind right before the feeling grows?",
                "Какая мысль проносится у пользователя в голове прямо перед тем, как чувство "
                "усиливается?",
            ),
            Q(
                ("selfcrit",),
                "The user judges themselves more harshly than a friend.",
                "Пользователь судит себя строже, чем друга.",
            ),
            Q(
                ("thought", "evidence"),
                "What evidence does the user have that this thought is completely true?",
                "Какие у пользователя есть доказательства, что эта мысль полностью верна?",
            ),
            Q(
                ("work", "selfcrit"),
                "The user believes a single mistake at work says something about their worth.",
                "Пользователь считает, что одна ошибка на работе говорит о собственной ценности.",
            ),
            Q(
                ("people", "thought"),
                "The user assumes they know what others think of them.",
                "Пользователь часто додумывает, что о нём думают другие.",
            ),
        ),
        "deepening": (
            Q(
                ("thought",),
                "What would a more balanced version of this thought sound like for the user?",
                "Как звучала бы для пользователя более взвешенная версия этой мысли?",
            ),
            Q(
                ("selfcrit", "people"),
                "What would the user say to a close friend in the same situation?",
                "Что пользователь сказал бы близкому другу в такой же ситуации?",
            ),
            Q(
                ("thought", "evidence"),
                "How does the situation look to the user after looking at the facts?",
                "Как выглядит для пользователя ситуация, если опереться на факты?",
            ),
        ),
    },
    "behavioral_activation": {
        "opening": (
            Q(
                ("energy",),
                "Which everyday activities has the user stopped doing lately?",
                "Какие повседневные дела пользователь забросил в последнее время?",
            ),
            Q(
                ("energy", "avoid"),
                "The user puts off things that used to bring them pleasure.",
                "Пользователь откладывает то, что раньше приносило ему удовольствие.",
            ),
            Q(
                ("sleep", "energy"),
                "How does a typical day look for the user from morning to evening?",
                "Как у пользователя выглядит обычный день с утра до вечера?",
            ),
        ),
        "exploring": (
            Q(
                ("energy",),
                "Which small activity gives the user even a little energy?",
                "Какое небольшое дело даёт пользователю хоть немного сил?",
            ),
            Q(
                ("avoid",),
                "What does the user do instead of the tasks they put off?",
                "Чем пользователь занимается вместо отложенных дел?",
            ),
            Q(
                ("people", "energy"),
                "The user spends less time with people who matter to them.",
                "Пользователь проводит меньше времени с близкими людьми.",
            ),
            Q(
                ("plan",),
                "What is one thing the user could do tomorrow in less than ten minutes?",
                "Какое одно дело пользователь мог бы сделать завтра меньше чем за десять минут?",
            ),
        ),
        "deepening": (
            Q(
                ("energy",),
                "How did the user feel after the last thing they managed to do?",
                "Что пользователь почувствовал после последнего дела, которое удалось сделать?",
            ),
            Q(
                ("plan",),
                "Which activity is the user ready to plan for the coming week?",
                "Какое занятие пользователь готов запланировать на ближайшую неделю?",
            ),
            Q(
                ("plan", "avoid"),
                "What could get in the way of this plan, and how could the user prepare for it?",
                "Что может помешать этому плану и как пользователь может к этому подготовиться?",
            ),
        ),
    },
    "emotion_regulation": {
        "opening": (
            Q(
                ("body",),
                "Where in the body does the user notice this feeling?",
                "Где в теле пользователь замечает это чувство?",
            ),
            Q(
                ("anxiety", "anger", "sadness"),
                "Which emotion has been the strongest for the user this week?",
                "Какая эмоция была у пользователя самой сильной на этой неделе?",
            ),
            Q(
                ("anger", "anxiety"),
                "The user feels the emotion take over before they can think.",
                "Пользователю кажется, что эмоция накрывает раньше, чем удаётся подумать.",
            ),
        ),
        "exploring": (
            Q(
                ("anxiety", "body"),
                "What does the user usually do to calm down, and how well does it work?",
                "Что пользователь обычно делает, чтобы успокоиться, и насколько это помогает?",
            ),
            Q(
                ("anxiety", "sadness"),
                "What is the feeling trying to tell the user?",
                "О чём это чувство пытается сказать пользователю?",
            ),
            Q(
                ("people", "anger"),
                "The user holds back their feelings around other people.",
                "Пользователь сдерживает свои чувства рядом с другими людьми.",
            ),
            Q(
                ("body", "anxiety"),
                "How intense is the feeling for the user right now, from 0 to 10?",
                "Насколько сильно это чувство у пользователя прямо сейчас, от 0 до 10?",
            ),
        ),
        "deepening": (
            Q(
                ("body",),
                "What helps the user stay with the feeling without pushing it away?",
                "Что помогает пользователю побыть с этим чувством, не отталкивая его?",
            ),
            Q(
                ("sadness", "selfcrit"),
                "How could the user treat themselves more gently when this feeling comes back?",
                "Как пользователь мог бы отнестись к себе мягче, когда это чувство вернётся?",
            ),
            Q(
                ("plan",),
                "Which calming technique is the user willing to try this week?",
                "Какой способ успокоиться пользователь готов попробовать на этой неделе?",
            ),
        ),
    },
    "problem_solving": {
        "opening": (
            Q(
                ("decision",),
                "What exactly is the problem that weighs on the user the most?",
                "В чём именно состоит проблема, которая больше всего тяготит пользователя?",
            ),
            Q(
                ("work", "decision"),
                "The user feels stuck between several options.",
                "Пользователь застрял между несколькими вариантами.",
            ),
            Q(
                ("plan",),
                "What would a good outcome look like for the user?",
                "Как для пользователя выглядел бы хороший исход?",
            ),
        ),
        "exploring": (
            Q(
                ("plan", "decision"),
                "What options does the user see, even the imperfect ones?",
                "Какие варианты пользователь видит, даже неидеальные?",
            ),
            Q(
                ("decision",),
                "What has the user already tried, and what happened?",
                "Что пользователь уже пробовал сделать и что из этого вышло?",
            ),
            Q(
                ("people",),
                "Who could help the user with this problem?",
                "Кто мог бы помочь пользователю с этой проблемой?",
            ),
            Q(
                ("avoid", "decision"),
                "The user postpones the decision because every option has a cost.",
                "Пользователь откладывает решение, потому что у каждого варианта есть цена.",
            ),
        ),
        "deepening": (
            Q(
                ("plan",),
                "What is the smallest first step the user could take this week?",
                "Какой самый маленький первый шаг пользователь мог бы сделать на этой неделе?",
            ),
            Q(
                ("decision",),
                "How will the user know that the chosen step worked?",
                "Как пользователь поймёт, что выбранный шаг сработал?",
            ),
            Q(
                ("plan", "avoid"),
                "What could stop the user from taking this step, and what would help then?",
                "Что может помешать пользователю сделать этот шаг и что тогда поможет?",
            ),
        ),
    },
}

REFOCUS_QUESTION = {
    "en": "What is happening for the user right now, as this question comes up?",
    "ru": "Что происходит с пользователем прямо сейчас, когда возникает этот вопрос?",
}
SAFETY_QUESTION = {
    "en": "The user feels safe right now.",
    "ru": "Пользователь сейчас в безопасности.",
}

# Insights by theme first, then by focus; third person, like everything the Analyst writes.
INSIGHT_BY_THEME = {
    "avoid": (
        "The user steps back from what feels risky, and the relief does not last.",
        "Пользователь отступает от того, что кажется рискованным, и облегчение длится недолго.",
    ),
    "selfcrit": (
        "The user is much harder on themselves than on other people.",
        "Пользователь гораздо строже к себе, чем к другим людям.",
    ),
    "anxiety": (
        "The user's anxiety grows when they try to predict how things will go.",
        "У пользователя тревога растёт, когда он пытается предсказать, как всё сложится.",
    ),
    "people": (
        "The user keeps their needs to themselves to avoid conflict.",
        "Пользователь держит свои потребности при себе, чтобы избежать конфликта.",
    ),
    "work": (
        "Work takes up most of the user's energy and leaves little for the rest.",
        "Работа забирает у пользователя большую часть сил и мало оставляет на остальное.",
    ),
}
INSIGHT_BY_FOCUS = {
    "cognitive_restructuring": (
        "The user tends to treat a harsh thought about themselves as a fact.",
        "Пользователь склонен принимать резкую мысль о себе за факт.",
    ),
    "behavioral_activation": (
        "The user feels a little better on days when they do at least one small thing.",
        "Пользователю становится чуть легче в дни, когда удаётся сделать хотя бы одно "
        "небольшое дело.",
    ),
    "emotion_regulation": (
        "The user notices the feeling earlier when they pay attention to the body.",
        "Пользователь раньше замечает чувство, если прислушаться к телу.",
    ),
    "problem_solving": (
        "The user moves forward more easily when a problem is broken into small steps.",
        "Пользователю проще двигаться вперёд, когда проблема разбита на маленькие шаги.",
    ),
}

# Theme detection: regexes over normalized client text (English words, Russian stems).
THEMES: dict[str, tuple[str, ...]] = {
    "work": (
        r"\b(?:work\w*|job|boss|colleague\w*|office|deadline\w*|career)\b",
        r"\b(?:работ\w*|начальни\w*|коллег\w*|офис\w*|дедлайн\w*|карьер\w*)",
    ),
    "people": (
        r"\b(?:friend\w*|partner|wife|husband|mother|mom|father|dad|parents?|family|"
        r"people|conflict\w*)\b",
        r"\b(?:друз\w*|друг\w*|подруг\w*|муж\w*|жен\w*|мам\w*|пап\w*|родител\w*|"
        r"семь\w*|люд\w*|конфликт\w*)",
    ),
    "avoid": (
        r"\b(?:avoid\w*|put (?:it )?off|putting off|procrastinat\w*|postpon\w*|delay\w*)\b",
        r"\b(?:избега\w*|отклад\w*|тян\w* до последнего|прокрастин\w*)",
    ),
    "anxiety": (
        r"\b(?:anxi\w*|worr\w*|nervous|panic\w*|afraid|scared|fear\w*)\b",
        r"\b(?:тревог\w*|тревож\w*|волну\w*|беспоко\w*|паник\w*|страх\w*|боюсь)",
    ),
    "anger": (
        r"\b(?:angry|anger|irritat\w*|furious|annoyed|rage)\b",
        r"\b(?:злю\w*|злост\w*|злит\w*|раздраж\w*|бесит\w*|ярост\w*)",
    ),
    "sadness": (
        r"\b(?:sad\w*|down|empty|lonely|cry\w*|hopeless\w*|grief)\b",
        r"\b(?:грус\w*|тоск\w*|пуст\w*|одинок\w*|плач\w*|печал\w*)",
    ),
    "selfcrit": (
        r"\b(?:stupid|failure|useless|my fault|should have|not good enough|loser|"
        r"blame myself)\b",
        r"\b(?:глуп\w*|неудачни\w*|бесполезн\w*|винова\w*|должен был|должна была|"
        r"ни на что не)",
    ),
    "body": (
        r"\b(?:body|chest|heart|breath\w*|stomach|tense|tension|shak\w*)\b",
        r"\b(?:тел\w*|груд\w*|сердц\w*|дыш\w*|дыхан\w*|живот\w*|напряж\w*|дрож\w*)",
    ),
    "energy": (
        r"\b(?:energy|bed|lazy|nothing to do|motivat\w*|pleasure)\b",
        r"\b(?:сил[аы]?|энерги\w*|кроват\w*|лень|мотивац\w*|удовольств\w*)",
    ),
    "sleep": (r"\b(?:sleep\w*|insomnia|night\w*)\b", r"\b(?:сон|сна|сплю|спать|бессонниц\w*)"),
    "plan": (
        r"\b(?:plan\w*|step\w*|try|schedule|tomorrow|goal\w*)\b",
        r"\b(?:план\w*|шаг\w*|попроб\w*|завтра|цел[ьи]\w*)",
    ),
    "decision": (
        r"\b(?:decid\w*|decision\w*|choice|choose|option\w*|problem\w*)\b",
        r"\b(?:реш\w*|выбор\w*|выбра\w*|вариант\w*|проблем\w*)",
    ),
    "thought": (
        r"\b(?:think\w*|thought\w*|believe|tell myself|mind)\b",
        r"\b(?:дума\w*|мысл\w*|счита\w*|говорю себе|кажется)",
    ),
}

# The theme that most points at a focus, used when the session has no CBT focus yet.
FOCUS_BY_THEME = {
    "thought": "cognitive_restructuring",
    "selfcrit": "cognitive_restructuring",
    "evidence": "cognitive_restructuring",
    "energy": "behavioral_activation",
    "sleep": "behavioral_activation",
    "avoid": "behavioral_activation",
    "anxiety": "emotion_regulation",
    "anger": "emotion_regulation",
    "sadness": "emotion_regulation",
    "body": "emotion_regulation",
    "decision": "problem_solving",
    "plan": "problem_solving",
    "work": "problem_solving",
}

# Closure: the client signals the topic has landed ("now I see it", "понятно").
CLOSURE = (
    r"\b(?:i (?:understand|see it|get it) now|now i (?:understand|see|get it)|that'?s all|"
    r"nothing (?:else|more)|makes sense now|i think that'?s it)\b",
    r"\b(?:теперь (?:понятно|ясно|я понимаю)|понял[аи]?|вс[её] ясно|больше нечего|"
    r"ничего больше|вот и вс[её])\b",
)

THEME_LABELS = {
    "work": ("work", "работа"),
    "people": ("relationships", "отношения"),
    "avoid": ("avoidance", "избегание"),
    "anxiety": ("anxiety", "тревога"),
    "anger": ("anger", "злость"),
    "sadness": ("sadness", "грусть"),
    "selfcrit": ("self-criticism", "самокритика"),
    "body": ("body sensations", "ощущения в теле"),
    "energy": ("energy", "силы"),
    "sleep": ("sleep", "сон"),
    "plan": ("plans", "планы"),
    "decision": ("decisions", "решения"),
    "thought": ("thoughts", "мысли"),
}
FOCUS_LABELS = {
    "cognitive_restructuring": ("cognitive restructuring", "когнитивная реструктуризация"),
    "behavioral_activation": ("behavioral activation", "поведенческая активация"),
    "emotion_regulation": ("emotion regulation", "регуляция эмоций"),
    "problem_solving": ("problem solving", "решение проблем"),
}

# Canonical English technique names, so statistics can group them across locales.
TECHNIQUES_BY_FOCUS = {
    "cognitive_restructuring": ("Socratic questioning", "Identifying automatic thoughts"),
    "behavioral_activation": ("Activity monitoring", "Activity scheduling"),
    "emotion_regulation": ("Emotion labelling", "Mindful observation of feelings"),
    "problem_solving": ("Problem definition", "Generating alternatives"),
}
TECHNIQUES_BY_THEME = {
    "evidence": "Examining the evidence",
    "selfcrit": "Compassionate self-talk",
    "plan": "Action planning",
    "body": "Body awareness",
    "avoid": "Approaching avoided situations",
}
