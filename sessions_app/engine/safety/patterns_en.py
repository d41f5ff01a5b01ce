"""English patterns, by C-SSRS category. Written in plain spelling; the detector compiles them
through the matching skeleton (apostrophes dropped, doubled letters squeezed), so "don't",
"dont", "kill" and "kil" are the same to them — never write an optional apostrophe (`'?`).

`{NAME}` expands a macro below. Each rule is a `Rule` record (see rules.py): an id a finding
carries, a category, flags ("plan": an explicit plan, L4 on its own; "support": counts only next
to another finding), lines it must match and lines it must spare, checked at import. To fix a
false alarm, find the finding's rule id here, add the line to its `spares` and narrow the
pattern (or add a `Negative`) until the import passes."""

from __future__ import annotations

from sessions_app.engine.safety.rules import Negative, Rule

# Words after which "off" is the verb ("gonna off myself"): lookbehinds, so that the word can
# also be the end of an intent ("{INTENT} {KILLME}").
_OFF_VERB_BEFORE = (
    "to",
    "gonna",
    "gunna",
    "wanna",
    "will",
    "i'll",
    "just",
    "should",
    "could",
    "might",
    "would",
    "gotta",
    "finally",
)
MACROS = {
    # What a person wants / is about to do.
    "WANT": r"(?:want|wanna|wan|wana|wish i could|would like|need|needed|wanted|wanting|want ?ed)",
    "TO": r"(?:to|2|t|t0|too)",
    "INTENT": (
        r"(?:going to|gonna|gunna|goin to|will|i'll|i'm about to|about to|decided to|"
        r"i've decided to|have decided to|ready to|planning to|plan to|planned to|plan on|"
        r"intend to|finally going to|gonna finally|made up my mind to|i'm finally going to|"
        r"i'm going to|tonight i|tonight i'll|today i'll|it's time to|time to)"
    ),
    "KILLME": (
        r"(?:kill|killing|kiling|kil) ?(?:my ?self|myslf|meself|mself|my self|myself)"
        r"|kms|unalive (?:my ?self|me)|unaliving (?:my ?self)|offing (?:my ?self)"
        # "off myself" keys as "of myself": only after a word that makes "off" the verb, so
        # "proud of myself" and "sick of myself" stay what they are.
        r"|(?:" + "|".join(f"(?<=\\b{word} )" for word in _OFF_VERB_BEFORE) + r")off (?:my ?self)"
        r"|top (?:my ?self)|do myself in|self[- ]?delete|delete myself|end (?:my|my own) life"
        r"|ending (?:my|my own) life|take (?:my|my own) life|taking (?:my|my own) life"
        r"|end it all|ending it all|commit suicide|commit sudoku|commit die|sewerslide"
        r"|end myself|erase myself|end (?:my )?existence|ctb"
        r"|(?:end|ending|ended) (?:everything|it all) (?:for good|forever|once and for all)"
        r"|(?:end|ending|ended) everything(?! (?:with|between|on|and start|i started|we))"
    ),
    "DIE": r"(?:die|dye|dead|death|be dead|not exist|not be alive|stop existing|cease to exist)",
    "PILLS": (
        r"(?:pills?|tablets?|meds|medication|medicine|sleeping pills|sleepers|painkillers|"
        r"paracetamol|tylenol|acetaminophen|ibuprofen|aspirin|insulin|antidepressants|"
        r"sertraline|xanax|benzos?|opioids?|oxy|oxycodone|codeine|prescription|pill bottle|"
        r"lithium|seroquel|ambien|zopiclone|diazepam|valium|amitriptyline|tramadol)"
    ),
    "HIGH": (
        r"(?:bridge|roof|rooftop|building|balcony|cliff|window|tower|ledge|car park|"
        r"parking garage|parking lot roof|overpass|top floor|\d+(?:th|st|nd|rd)? floor|floor|"
        r"edge|skyscraper|block of flats|dam|quarry|tall building|motorway bridge)"
    ),
    "VEHICLE": r"(?:train|trains|bus|truck|lorry|car|cars|traffic|tracks|subway|tube|metro|tram)",
    "ME": r"(?:my ?self|me)",
    # The rest of a clause, up to the first word about the client themself.
    "CLAUSE": (
        r"(?:(?!\b(?:i|me|my|myself|mine|im|ive|i'll|i'd|i'm|i've|but|and|so|honestly|because|"
        r"cause|cuz|tbh|though|anyway|also|u know|tho|ngl)\b)[^.!?;\n])*"
    ),
    "TIME": (
        r"(?:tonight|tonite|2nite|2night|tomorrow|tmrw|tmr|tomoro|this (?:morning|"
        r"afternoon|evening|weekend|week|friday|saturday|sunday|monday|tuesday|wednesday|"
        r"thursday|month)|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
        r"at (?:\d{1,2}(?::\d\d)? ?(?:am|pm|o'clock)?|midnight|noon|dawn)|midnight|"
        r"(?:after|once) (?:the kids|my kids|everyone|my wife|my husband|my parents|my mom|my mum|"
        r"my dad|"
        r"they|the baby|my partner|my roommate|my flatmate|work|school|class|my shift|dinner)"
        r"(?: (?:are|is|go|goes|fall|falls|fell|have gone|get|gets))?(?: (?:asleep|to sleep|"
        r"to bed|out|home|back|gone|leave|left))?|when (?:everyone|the kids|they|my parents|"
        r"my wife|my husband|he|she)(?: is| are|'s|'re)? (?:asleep|sleeping|gone|out|at work|"
        r"away)|before (?:morning|sunrise|dawn|christmas|my birthday|new year|the weekend)|"
        r"by (?:friday|saturday|sunday|monday|the weekend|tomorrow|the end of the (?:week|month)"
        r"|morning)|in (?:an|one|two|a few|a couple of|\d+) (?:hours?|minutes?|days?|mins?)|"
        r"next (?:week|weekend|month)|this time tomorrow|on my birthday|new year's eve|"
        r"right now|later tonight|when i get home|(?:when|after|once) i (?:get off|finish|clock "
        r"off|leave) (?:work|my shift|school|class)|(?:after|once) (?:my|the|this) (?:exams?|"
        r"finals|"
        r"birthday|wedding|holidays?|semester|term|funeral|graduation|results))"
    ),
}

# Round 8: people, treatments, drinks and the places of a recent attempt.
MACROS.update(
    {
        "KIN": (
            r"(?:dad|daddy|father|mom|mommy|mum|mummy|mother|mama|papa|grandma|grandmother|nan|"
            r"nana|granny|grandpa|grandad|granddad|grandfather|brother|sister|son|daughter|"
            r"husband|wife|baby|friend|best friend|boyfriend|girlfriend|twin|partner|fiance|"
            r"fiancee|child|little boy|little girl|boy|girl)"
        ),
        # A death spoken of before or after a wish to follow the person.
        "GRIEF": (
            r"(?:gone|passed|passed away|died|dead|death|lost (?:him|her|them|my \w+)|buried|"
            r"funeral|grave|heaven|up there|other side|afterlife|since (?:he|she|they) (?:died|"
            r"passed|left us)|rip|widow|widowed|widower|miscarriage|stillborn|stillbirth|"
            r"anniversary of (?:his|her|their) death)"
        ),
        # Treatment a life depends on, stopped or refused.
        "TREATSTOP": (
            r"(?:stopped|stopping|stop|quit|quitting|skipping|skipped|skip|not taking|"
            r"not refilling|won't refill|refusing|refused|refuse|giving up|gave up|ditched|"
            r"ditching|binned|flushed|no more|not going to|won't go to|not going|cancelled|"
            r"cancelling|cancel|hiding|not doing|won't do|done with) (?:\w+ ){0,2}?(?:my |the |"
            r"all my |any more |any )?(?:\w+ )?(?:insulin|meds|medication|medications|medicine|"
            r"heart meds|heart pills|blood thinners|lithium|dialysis|chemo|chemotherapy|"
            r"radiotherapy|radiation|treatment|transplant meds|inhaler|antiretrovirals|arvs|"
            r"injections|infusions|oxygen|feeding tube|epipen|anticoagulants|warfarin|"
            r"(?:blood pressure|thyroid|seizure|epilepsy) (?:meds|pills|tablets|medication))\b"
        ),
        "ALCOHOL": (
            r"(?:vodka|whiskey|whisky|wine|beer|alcohol|booze|gin|rum|tequila|liquor|spirits|"
            r"brandy|cider|bourbon|drink|drinks)"
        ),
        "UNTILGONE": (
            r"\b(?:drink|drinking|drank|booze|boozing|take|taking|took|swallow|swallowing|"
            r"swallowed|pop|popping|popped|use|using|shoot up|shooting up|shot up|inject|"
            r"injecting|snort|snorting|mix|mixing|neck|necking|chug|chugging|down|downing)\b"
            r"(?: \w+){0,5}? (?:until|till|til|untill|so) (?:i|my heart|my body|it) (?:\w+ )?"
            r"(?:don't|dont|do not|never|won't|wont|can't|cant|no longer) (?:wake|come round|"
            r"come to|breathe|come back)\b"
            r"|\b(?:drink|drinking|drank|take|taking|swallow|swallowing|pop|popping|shoot up|"
            r"shooting up|inject|injecting)\b(?: \w+){0,5}? (?:until|till|til|untill) "
            r"(?:i|my heart) (?:stop breathing|stops|stop|die|am dead|'m dead|give out|"
            r"gives out)\b"
        ),
        # Alcohol and pills together, with a quantity, not a warning against it.
        "MIXING": (
            r"(?<!\bnot )(?<!\bdont )(?<!\bnever )(?<!\bto )(?<!\bshouldnt )"
            r"\b(?:mix|mixes|mixed|mixing|combine|combined|combining|wash|washing|washed)\b"
            r"(?=[^.!?]{0,80}\b(?:all|whole|bottle|every|lot|handful|everything|bunch|entire|"
            r"full|box|pack|packet)\b)"
            r"(?: \w+){0,4}? (?:{ALCOHOL}|{PILLS})\b(?: \w+){0,3}? (?:with|and|plus|down with) "
            r"(?:\w+ ){0,3}?(?:{PILLS}|{ALCOHOL})\b"
        ),
        # Where a recent attempt is spoken of.
        "ATTEMPT": (
            r"(?:(?:hospital|er|a&e|icu|intensive care|psych ward|the ward|paramedics|ambulance|"
            r"discharged)(?![^.!?\n]{0,30}\b(?:surgery|operation|op|knee|hip|fall|accident|birth|"
            r"baby|appointment|check ?up|scan|injury|broken|fracture|flu|covid|infection)\b)|"
            r"stomach pumped|pumped my stomach|the pills|my overdose|the overdose|"
            r"my attempt|the attempt|tried to (?:kill myself|end it|die)|cut too deep|"
            r"woke up in)"
        ),
    }
)

RULES: list[Rule] = [
    Rule(
        id="en.passive.part_of_me_wants_to_die",
        category="passive_ideation",
        pattern=(
            r"\b(?:part of me|a part of me|half of me|something in me|"
            r"all of me) (?:\w+ )?(?:wants?|wishes|longs|needs) (?:to )?(?:just )?(?:die|be dead|"
            r"end it|disappear|not exist|kill myself|stop existing|not wake up)\b"
        ),
        matches=("part of me wants to die",),
        spares=("my friend said she wants to die",),
    ),
    Rule(
        id="en.hopeless.whats_the_point",
        category="hopelessness",
        pattern=(
            r"\bwhat(?:'s| is|s)? (?:even )?the point(?: anymore| of anything| of it all|"
            r" of trying| of me| any ?more)?(?=\s*(?:$|[.,!?;]|i\b|anymore|honestly|tbh|lol))|"
            r"\b(?:can't|cant|cannot|don't think i can|dont think i can|not sure i can|"
            r"doubt i can|won't|wont) (?:\w+ )?(?:make it|get through|survive|last|"
            r"face) (?:through )?(?:another|one more|the|this) (?:night|day|week|weekend|year)\b"
        ),
        matches=(
            "whats even the point of me tbh",
            "nothing is ever going to get better, whats the point of trying",
        ),
        spares=("i dont see the point of this meeting",),
    ),
    Rule(
        id="en.passive.want_it_all_to_stop",
        category="passive_ideation",
        pattern=(
            r"\b(?:want|wish|need) (?:it all|everything|my life|life|all of it|"
            r"this) to (?:just )?(?:stop|end|be over)\b(?! (?:for (?:a|the) (?:bit|second|minute|"
            r"moment|while|day|weekend)|raining|hurting my))"
        ),
        matches=(
            "i just want it all to end",
            "i want everything to stop forever",
        ),
        spares=("i want to end it with him",),
    ),
    # --- passive ideation: a wish to be dead, not to wake up, not to exist.
    Rule(
        id="en.passive.want_to_die",
        category="passive_ideation",
        pattern=(
            r"\b{WANT} (?:\w+ ){0,2}{TO} (?:just )?(?:die|dye|be dead|disappear forever|not exist|"
            r"not be alive|stop existing|cease to exist|not wake up|never wake up|sleep forever|"
            r"go to sleep forever|not be here|be gone|vanish forever|rot)\b"
        ),
        matches=(
            "i want to die",
            "i just want to diiiie",
        ),
        spares=(
            "they said they want to die",
            "i dont want to die i just want things to change",
        ),
    ),
    Rule(
        id="en.passive.wanna_die",
        category="passive_ideation",
        pattern=r"\b(?:wanna|want to|wan) (?:just )?(?:die|dye)\b",
        matches=(
            "i want to die",
            "i just wanna die tbh",
        ),
        spares=(
            "they said they want to die",
            "i dont want to die i just want things to change",
        ),
    ),
    Rule(
        id="en.passive.wish_i_was_dead",
        category="passive_ideation",
        pattern=(
            r"\b(?:wish|wished|wishing|hope|hoping) (?:that )?i (?:was|were|could be|would be|"
            r"'d be) (?:dead|gone|never born|not alive|not here|not born)\b"
        ),
        matches=(
            "sometimes i wish i was dead",
            "lowkey wish i was never born fr",
        ),
        spares=("i wish i was on a beach",),
    ),
    Rule(
        id="en.passive.wish_never_born",
        category="passive_ideation",
        pattern=(
            r"\b(?:wish|wished|wishing) i (?:was never|had never been|wasn't|hadn't been|"
            r"were never) (?:born|alive|here)\b"
        ),
        matches=(
            "i wish i had never been born",
            "lowkey wish i was never born fr",
        ),
        spares=("i wish i was on a beach",),
    ),
    Rule(
        id="en.passive.hope_i_dont_wake",
        category="passive_ideation",
        pattern=(
            r"\b(?:wish|wished|wishing|hope|hoping|pray|"
            r"praying) (?:\w+ ){0,3}?(?:that )?i (?:could )?(?:just )?(?:die|don't wake up|"
            r"won't wake up|never wake up|not wake up|wouldn't wake up|didn't wake up|"
            r"could fall asleep and not wake|"
            r"fall asleep and never|would die|would just die|disappear|stop existing|get hit by|"
            r"got hit by|had cancer|get cancer|don't make it|dont make it)\b"
        ),
        matches=(
            "i hope i don't wake up",
            "i hope i die in my sleep",
        ),
        spares=("i don't want to wake up early tomorrow",),
    ),
    Rule(
        id="en.passive.sleep_and_not_wake",
        category="passive_ideation",
        pattern=(
            r"\b(?:fall|go|went|falling) (?:to )?(?:asleep|sleep) and (?:not|never|don't|"
            r"dont) wake (?:up|again)\b"
        ),
        matches=(
            "i wish i could fall asleep and not wake up",
            "i want to go to sleep and never wake up again",
        ),
        spares=("i just want to sleep all weekend",),
    ),
    Rule(
        id="en.passive.dont_want_to_wake_up",
        category="passive_ideation",
        pattern=(
            r"\b(?:don't|dont|do not|never) (?:want|wanna) (?:\w+ )?(?:to )?wake up\b(?! (?:early|"
            r"at|for|so early|before))"
        ),
        matches=("i honestly dont want to wake up tomorrow",),
        spares=("i don't want to wake up early tomorrow",),
    ),
    Rule(
        id="en.passive.sleep_forever",
        category="passive_ideation",
        pattern=r"\bsleep (?:forever|and never wake up|and not wake up|for ever)\b",
        matches=(
            "i want to sleep forever",
            "i just wanna sleep and never wake up",
        ),
        spares=(
            "I want to sleep forever on Sundays lol",
            "i wish i could sleep more",
        ),
    ),
    Rule(
        id="en.passive.better_off_dead",
        category="passive_ideation",
        pattern=(
            r"\bbetter off dead\b|\brather be dead\b|\b(?:i'd|would) (?:rather )?(?:be|"
            r"am) better dead\b"
        ),
        matches=(
            "i'd be better off dead",
            "i'd rather be dead than go back there",
        ),
        spares=("my boyfriend said everyone would be better off without him",),
    ),
    Rule(
        id="en.passive.rather_be_dead",
        category="passive_ideation",
        pattern=(
            r"\b(?:i'd|i would|id) rather (?:just )?(?:die|be dead|not exist|not be alive|"
            r"not wake up)\b(?! than (?:go|eat|wear|do|sing|watch|sit|listen|call|be seen|work|"
            r"talk|meet|dance|lose|miss|admit))"
        ),
        matches=("i'd rather be dead than feel like this",),
        spares=("i'd rather die than sing karaoke",),
    ),
    Rule(
        id="en.passive.dont_want_to_be_alive",
        category="passive_ideation",
        pattern=(
            r"\b(?:don't|dont|do not|no longer|never) (?:\w+ )?(?:want|wanna|"
            r"wish) (?:\w+ )?(?:to )?(?:live|be alive|exist|be here|be around|go on living|"
            r"keep living|stay alive|be on this earth)\b(?! (?:in|with|here|there|near|at|alone|"
            r"by|under|on|next|together|abroad|like that)\b)"
        ),
        matches=(
            "I don't want to live anymore",
            "i dont want to exist anymore",
        ),
        spares=("i don't want to live with my parents anymore",),
    ),
    Rule(
        id="en.passive.tired_of_living",
        category="passive_ideation",
        pattern=(
            r"\b(?:tired|sick|exhausted|so tired|weary) (?:of|from) (?:living|life|being alive|"
            r"existing|my life|this life|being me|breathing|waking up)\b(?! (?:in|with|at|near|"
            r"under|paycheck|off|on|out of)\b)"
        ),
        matches=(
            "im tired. tired of living",
            "im so tired of being alive",
        ),
        spares=("tired of living in this city tbh",),
    ),
    Rule(
        id="en.passive.tired_of_it_all_life",
        category="passive_ideation",
        pattern=(
            r"\b(?:tired|sick|weary) of (?:it all|everything)\b(?=.{0,40}\b(?:live|living|life|"
            r"alive|die|dying|end|go on|keep going|point)\b)"
        ),
        matches=("i'm tired of it all, i don't want to live like this",),
        spares=("I'm so tired of this rain",),
    ),
    Rule(
        id="en.passive.done_with_life",
        category="passive_ideation",
        pattern=(
            r"\b(?:i'm|im|i am) (?:so |just |really |honestly )?done (?:being alive|living|"
            r"existing|"
            r"breathing)\b|\b(?:i'm|i am|im) (?:so |just |really )?done with (?:life|living|being "
            r"alive|"
            r"existing|this life|everything and everyone|it all|this world)\b"
        ),
        matches=(
            "im so done with life",
            "i'm so done with being alive",
        ),
        spares=("i'm so done with this project",),
    ),
    Rule(
        id="en.passive.think_about_death",
        category="passive_ideation",
        pattern=(
            r"\b(?:think|thinking|thought|thoughts|fantasi[sz]e|fantasi[sz]ing|dream|dreaming|"
            r"obsessed) (?:\w+ )?(?:about|of) (?:death|dying|being dead|not being here|"
            r"not existing|not waking up|my (?:own )?death|my funeral|disappearing forever)\b"
        ),
        matches=(
            "i think about death all the time now",
            "I think about dying every single day",
        ),
        spares=("not thinking about suicide at all",),
    ),
    Rule(
        id="en.passive.death_would_be_relief",
        category="passive_ideation",
        pattern=(
            r"\b(?:death|dying|being dead) (?:would be|sounds|seems|feels like|feels|looks) "
            r"(?:\w+ ){0,2}?(?:a |so )?(?:relief|peaceful|"
            r"better|nice|easier|the only way|an escape|freedom)\b"
        ),
        matches=(
            "dying would be a relief at this point",
            "death sounds kind of peaceful right now",
        ),
        spares=("dying for a nap",),
    ),
    Rule(
        id="en.passive.wouldnt_mind_not_waking",
        category="passive_ideation",
        pattern=(
            r"\b(?:wouldn't|would not|don't|do not) (?:mind|care) (?:if i )?(?:just |simply "
            r")?(?:dying|died|die(?! (?:trying|doing|for|in|on|at|of|from)\b)|"
            r"if i died|not waking up|never waking up|getting hit|if i got hit|"
            r"if i didn't wake up|stopped existing|stop existing|didn't exist|disappeared|"
            r"was dead|were dead|was gone|wasn't here|never woke up|not existing)\b"
        ),
        matches=(
            "i wouldnt mind if i didnt wake up tomorrow",
            "at 84 i wouldn't mind not waking up tomorrow",
        ),
        spares=("i feel like giving up on this diet",),
    ),
    Rule(
        id="en.passive.why_still_alive",
        category="passive_ideation",
        pattern=(
            r"\b(?:why|what) (?:am i|is the point of me) (?:even |still |even still "
            r")*(?:alive|here)\b"
        ),
        matches=("why am i even still alive",),
        spares=("i will never be happy with this haircut",),
    ),
    Rule(
        id="en.passive.cant_wait_to_die",
        category="passive_ideation",
        pattern=(
            r"\b(?:wanna|want to|wan|wish i could|just want to) (?:\w+ ){0,2}(?:and|then|"
            r"or) (?:just )?(?:die|dye|disappear forever|not wake up)\b|\b(?:can't|cant|"
            r"cannot) wait (?:to|till i|until i|for the day i) (?:die|be dead|be gone|not exist|"
            r"stop existing)\b"
        ),
        matches=(
            "lowkey wanna rot and die",
            "cant wait to die honestly",
        ),
        spares=("they said they want to die",),
    ),
    Rule(
        id="en.passive.should_just_die",
        category="passive_ideation",
        pattern=(
            r"\bi (?:should|need to|deserve to|ought to) (?:just )?(?:die|be dead|not exist|"
            r"disappear)\b"
        ),
        matches=(
            "i deserve to die",
            "i should just die honestly",
        ),
        spares=("i wanted to die of embarrassment lol",),
    ),
    Rule(
        id="en.passive.wish_i_could_disappear",
        category="passive_ideation",
        pattern=(
            r"\b(?:want|wanna|wish i could|need to) (?:just )?(?:disappear|vanish|not exist|"
            r"stop existing|fade away)\b(?! (?:for (?:a|the) (?:while|week|weekend|day|bit|few)|"
            r"into|to|from|off|under|in (?:a|my|bed|the))\b)"
        ),
        matches=(
            "i wish i could just not exist",
            "wish i could just disappear forever",
        ),
        spares=("i wish i could sleep more",),
    ),
    Rule(
        id="en.passive.let_me_die",
        category="passive_ideation",
        pattern=(
            r"\bplease (?:just )?(?:let me die|kill me|end me)\b|\b(?:someone|somebody|"
            r"anyone) (?:please )?(?:just )?(?:kill|end|shoot) me\b|\bkill me (?:please|already|"
            r"pls|plz)\b"
        ),
        matches=("please just let me die",),
        spares=("kill the lights please",),
    ),
    Rule(
        id="en.passive.want_someone_to_kill_me",
        category="passive_ideation",
        pattern=r"\b(?:want|wish|need) (?:someone|somebody) (?:to|would) (?:kill|shoot|end) me\b",
        matches=("i just want someone to kill me",),
        spares=("i just want to sleep all weekend",),
    ),
    Rule(
        id="en.passive.not_want_to_be_alive_anymore",
        category="passive_ideation",
        pattern=(
            r"\b(?:not|never) (?:want|wanna) to be (?:alive|here) (?:any ?more|anymore|any "
            r"longer)\b"
        ),
        matches=("i do not want to be alive anymore",),
        spares=("i don't want to live with my parents anymore",),
    ),
    Rule(
        id="en.passive.living_is_torture",
        category="passive_ideation",
        pattern=(
            r"\b(?:life|living) (?:is|feels) (?:too )?(?:exhausting|unbearable|too much to bear|"
            r"torture)\b"
        ),
        matches=("living is torture",),
        spares=("i'm tired of living with roommates",),
    ),
    Rule(
        id="en.passive.cant_keep_living",
        category="passive_ideation",
        pattern=r"\bi (?:can't|cant|cannot) (?:keep|stay) (?:living|alive|breathing)\b",
        matches=(
            "i cant keep living like this",
            "i can't keep living like this",
        ),
        spares=("they'd have more room if i wasn't living at home",),
    ),
    Rule(
        id="en.passive.ready_to_die",
        category="passive_ideation",
        pattern=(
            r"\b(?:i'm|im|i am) (?:so |just )?(?:ready|waiting) (?:to die|for death|"
            r"for it all to end|"
            r"for the end|for (?:it all|everything|life|my life|all of it) to (?:be over|end|"
            r"stop))\b"
        ),
        matches=(
            "im ready to die",
            ("im not going to dialysis on monday. i'm ready to die and i'm letting my body go"),
        ),
        spares=("i'm ready to go",),
    ),
    Rule(
        id="en.passive.want_it_to_end_forever",
        category="passive_ideation",
        pattern=(
            r"\b(?:want|wish|need) (?:it|everything|the pain|it all|this|my life|the world|"
            r"life) (?:\w+ )?to (?:stop|end) (?:forever|for good|permanently)\b|\b(?:want|wish|"
            r"need) (?:it all|everything|my life|life) to (?:end|be over)\b"
        ),
        matches=(
            "i just want it all to end",
            "i want everything to stop forever",
        ),
        spares=("i want to end it with him",),
    ),
    # --- active ideation: thoughts of killing oneself.
    Rule(
        id="en.active.kill_myself",
        category="active_ideation",
        pattern=r"\b{KILLME}\b",
        matches=(
            "kms fr",
            "gonna sewerslide fr",
        ),
        spares=(
            "I would never kill myself",
            "she broke my heart",
        ),
    ),
    Rule(
        id="en.active.suicide_words",
        category="active_ideation",
        pattern=(
            r"\bsuicid(?:e|al|ality|ing)\w*|\bsuic\b|\bsui (?:thoughts|ideation|urges)\b|"
            r"\bsuicide\w*|\bs[\W_]?(?:u|\*)[\W_]?icide\w*|\bsucid\w*"
        ),
        matches=(
            "suicidal af rn",
            "ive written a suicide note",
        ),
        spares=(
            "that song is about suicide",
            "im not suicidal just stressed",
        ),
    ),
    Rule(
        id="en.active.end_it_all",
        category="active_ideation",
        pattern=(
            r"\b(?:end|ending|finish|finishing) (?:it|things|everything)(?: all| for good|"
            r" permanently| once and for all| now| tonight| today| soon| for real|"
            r" forever)?\b(?! (?:with|here|early|"
            r"for today|off|there|on(?! (?:{TIME}|my birthday|the \d))|between|up)\b)(?=\s*(?:$|"
            r"[.,!?;]|and|but|so|i|because|cause|"
            r"cuz|tonight|today|now|soon|for good|permanently|once|all|lol|lmao|tbh|honestly|ngl|"
            r"idk|fr|already|on (?:{TIME}|my birthday)))"
        ),
        matches=(
            "might just end it lol",
            "tonight i'm ending it",
        ),
        spares=(
            "he told me he wants to end it all",
            "i want to end it with him",
        ),
    ),
    Rule(
        id="en.active.thinking_about_killing_myself",
        category="active_ideation",
        pattern=(
            r"\b(?:thinking|thought|think|considering|considered|contemplating|fantasi[sz]ing|"
            r"planning) (?:\w+ )?(?:about|of|on)? ?(?:killing myself|ending it|ending my life|"
            r"ending things|taking my life|suicide|not being alive|offing myself|unaliving)\b"
        ),
        matches=(
            "thinking about unaliving",
            "considering ending things",
        ),
        spares=(
            "not thinking about suicide at all",
            "thinking about quitting my job this weekend",
        ),
    ),
    Rule(
        id="en.active.thoughts_of_suicide",
        category="active_ideation",
        pattern=(
            r"\b(?:urges?|thoughts?) (?:to|of) (?:kill|end|hurt|harm) (?:myself|it all|my life)\b|"
            r"\b(?:thoughts?|thinking|urges?|ideas?|fantasies) (?:of|about) (?:ending (?:it|"
            r"things|my life|everything)|killing myself|suicide)\b"
        ),
        matches=(
            "i keep thinking about suicide",
            "i'm thinking of ending things",
        ),
        spares=(
            "not thinking about suicide at all",
            "my coworker said he has been thinking about suicide",
        ),
    ),
    Rule(
        id="en.active.how_do_i_kill_myself",
        category="active_ideation",
        pattern=(
            r"\bhow (?:to|do i|do you|can i|could i) (?:kill (?:myself|yourself)|end (?:it|"
            r"my life)|commit suicide|die (?:painlessly|quickly|peacefully|fast)|painlessly die)\b"
        ),
        matches=("how do i kill myself",),
        spares=("I would never kill myself",),
    ),
    Rule(
        id="en.active.painless_way_to_die",
        category="active_ideation",
        pattern=(
            r"\b(?:painless|quick|easy|peaceful|quickest|easiest) (?:way|ways|method|"
            r"methods) (?:to|of) (?:die|dying|go|end it|kill myself|suicide)\b"
        ),
        matches=(
            "what's the most painless way to die",
            "I've been researching painless ways to go",
        ),
        spares=("they said they want to die",),
    ),
    # --- method or means.
    Rule(
        id="en.method.take_all_my_pills",
        category="method",
        pattern=(
            r"\b(?:take|taking|took|swallow|swallowing|swallowed|down|downing|neck|necking|chug|"
            r"gulp|gulping|eat|eating|pop|popping|od on|overdose on|"
            r"overdosing on) (?:\w+ ){0,3}?(?:all|every|the whole|a whole|whole|a bunch|bunch|"
            r"handful|handfuls|a handful|lots|a lot|loads|enough|too many|entire|bottle|box|boxes|"
            r"packet|packets|pack|strip|month's|stash|everything)\b(?:\w+ |\W+){0,4}?{PILLS}"
            r"(?![^.!?]{0,20}\b(?:as prescribed|prescribed|on time|every day|daily|like i should|"
            r"like i'm supposed to|with (?:food|breakfast|dinner|lunch|me)|along|on (?:the|my|our) "
            r"(?:trip|holiday|vacation|flight))\b)"
        ),
        matches=(
            "i could just take all my pills",
            "tonight I'm taking every pill in the cabinet",
        ),
        spares=("i'm going to take my pills now",),
    ),
    Rule(
        id="en.method.how_many_pills_would_kill",
        category="method",
        pattern=(
            r"\b(?:how many|how much|what dose|which dose|the dose|a dose|enough|"
            r"how many of)\b(?:\s+\w+){0,3}? ?{PILLS}\b(?:\s+\w+){0,5}? (?:it (?:would|will|'d|"
            r"does) take|would (?:it )?take|to (?:die|kill|end|od|overdose|not wake up|"
            r"never wake up|be fatal|be lethal|stop my heart)|(?:would|will|could) (?:kill|"
            r"be fatal|be lethal|be enough|do it|stop my heart)|is (?:lethal|fatal|deadly|"
            r"enough to die))|\bhow many (?:\w+ )?(?:would|will|does it|do i need|it would|"
            r"would it) (?:take|kill me|be lethal|be fatal)\b"
        ),
        matches=(
            "how many paracetamol would kill me",
            "i looked up how many pills would be lethal",
        ),
        spares=("I would never kill myself",),
    ),
    Rule(
        id="en.method.staring_at_the_means",
        category="method",
        pattern=(
            r"\b(?:thinking|think|thought|thoughts|fantasi[sz]ing|dreaming) (?:\w+ )?(?:about|"
            r"of) (?:jumping|hanging myself|hanging|overdosing|drowning myself|drowning|slitting|"
            r"shooting myself|throwing myself|stepping in front|gassing myself|poisoning myself|"
            r"taking all)\b|\b(?:staring|stare|stared|keep looking|kept looking|"
            r"can't stop looking|cant stop looking) at (?:the|my|that|those|these|"
            r"a) (?:\w+ )?(?:rope|pills|gun|knife|blade|razor|noose|pill bottle|tracks|ledge|"
            r"bridge|train tracks|medicine cabinet|window|balcony|edge)\b|\b(?:rope|belt|beam|"
            r"hook|cord|scarf|ceiling fan|shower rod|door|banister|"
            r"branch)\b(?:\s+\w+){0,2}? (?:would|will|could|can|might) (?:hold|take|"
            r"support) (?:my weight|me)\b"
        ),
        matches=(
            "thinking about hanging myself",
            "i think about shooting myself",
        ),
        spares=("not thinking about suicide at all",),
    ),
    Rule(
        id="en.method.overdose_words",
        category="method",
        pattern=r"\b(?:overdos(?:e|ed|es|ing)|od'?ing|\bod\b|lethal dose|fatal dose|deadly dose)\b",
        matches=(
            "i want to overdose",
            "thinking about just od'ing and being done with it",
        ),
        spares=(
            "overdosed on coffee today haha",
            "research on overdose deaths in the uk",
        ),
    ),
    Rule(
        id="en.method.pills_to_not_wake_up",
        category="method",
        pattern=(
            r"\b{PILLS}\b(?:\s+\w+){0,4}? (?:to (?:die|end it|kill myself|not wake up|"
            r"never wake up|do it|end (?:my|this)|overdose|od))\b"
        ),
        matches=(
            "how many paracetamol would it take to not wake up",
            "how many of my sertraline would it take to not wake up",
        ),
        spares=("i don't want to wake up early tomorrow",),
    ),
    Rule(
        id="en.method.hang_myself",
        category="method",
        pattern=(
            r"\b(?:hang|hanging|hanged|hung) ?(?:my ?self|me)\b|\bnoose\b|\bneck myself\b|"
            r"\bnecking myself\b|\bcommit (?:rope|neck)\b|\b(?:rope|roping) (?:my ?self|tonight|"
            r"soon)\b|\bwanna rope\b|\bwant to rope\b"
        ),
        matches=(
            "wanna rope honestly",
            "thinking about hanging myself",
        ),
        spares=("i bought rope for the camping trip", "i need to hang my coat up"),
    ),
    Rule(
        id="en.method.ligature_around_neck",
        category="method",
        pattern=(
            r"\b(?:rope|cord|belt|scarf|cable|ligature)\b(?:\s+\w+){0,4}? (?:around|round|on|over|"
            r"to) (?:my )?(?:neck|throat|ceiling|beam|door|banister|hook|tree)\b"
        ),
        matches=("i put the belt around my neck last night",),
        spares=("we absolutely killed it at the gig last night",),
    ),
    Rule(
        id="en.method.strong_enough_to_hold_me",
        category="method",
        pattern=(
            r"\b(?:strong enough|sturdy enough)\b(?:\s+\w+){0,3}? (?:to )?(?:hold|"
            r"take) (?:my weight|me)\b|\b(?:tie|tying|tied) (?:a |the )?(?:noose|knot)\b"
        ),
        matches=("i checked if the beam is strong enough to hold my weight",),
        spares=("i'm going to do it tonight, the homework i mean",),
    ),
    Rule(
        id="en.method.jump_off_a_height",
        category="method",
        pattern=(
            r"\b(?:jump|jumping|leap|leaping|throw myself|throwing myself|step|stepping|fall|"
            r"falling|drop|dropping|hurl myself|launch myself|yeet myself) (?:\w+ )?(?:off|from|"
            r"out of|out|over|of) (?:a |the |that |this |my |our |an |some |top of (?:a |the |my |"
            r"our )?)?(?:\w+ )?{HIGH}\b"
        ),
        matches=(
            "i want to jump off a building",
            "i could just jump out the window",
        ),
        spares=(
            "the game has a quest where you jump off a bridge",
            "gonna jump in the lake after the race to cool off",
        ),
    ),
    Rule(
        id="en.method.standing_on_the_edge",
        category="method",
        pattern=(
            r"\b(?:stand|standing|stood|sit|sitting|sat|been|going|went|walked|climbed|climbing|"
            r"climb) (?:\w+ )?(?:on|onto|at|to|up to|over) (?:the )?(?:edge|ledge|railing|roof|"
            r"rooftop|top) (?:of )?(?:a |the |my |this |"
            r"that )?(?:\w+ )?{HIGH}?\b(?=.{0,60}\b(?:jump|end|die|step off|fall|let go|"
            r"push myself|over)\b)"
        ),
        matches=("i've been standing on the edge of the roof thinking about whether to jump",),
        spares=("not thinking about suicide at all",),
    ),
    Rule(
        id="en.method.how_high_to_die",
        category="method",
        pattern=(
            r"\bhow (?:high|tall|far) (?:\w+ ){0,4}(?:to (?:die|kill|be fatal)|would kill|"
            r"is fatal|is enough|do i need|would i need|is lethal)\b|\bhigh enough (?:to )?(?:die|"
            r"kill|be fatal)\b"
        ),
        matches=("how high a fall is lethal",),
        spares=("this heat is killing me",),
    ),
    Rule(
        id="en.method.in_front_of_a_train",
        category="method",
        pattern=(
            r"\b(?:jump|jumping|step|stepping|stepped|walk|walking|throw myself|throwing myself|"
            r"lie down|"
            r"lay down|lying|laying|stand|standing|run|running|drive|driving|swerve|swerving|"
            r"crash|crashing) (?:\w+ )?(?:in front of|under|onto|into|on) (?:a |the |an |some |"
            r"oncoming |moving )?(?:\w+ )?{VEHICLE}\b"
        ),
        matches=(
            "i want to step in front of a train",
            "tomorrow im going to jump in front of the train",
        ),
        spares=("i'm afraid of dying on a plane",),
    ),
    Rule(
        id="en.method.hit_by_a_vehicle",
        category="method",
        pattern=(
            r"\b(?:get|getting|be|being) (?:hit|run over|killed) by (?:a |"
            r"the )?(?:\w+ )?{VEHICLE}\b(?=.{0,40}\b(?:want|wish|hope|maybe|would|should|if i)\b)|"
            r"\b(?:wish|hope|hoping|want) (?:\w+ ){0,3}(?:hit|run over) by (?:a |the )?\w*"
        ),
        matches=("i keep hoping i get run over by a bus",),
        spares=("i'm going to take a bath tonight",),
    ),
    Rule(
        id="en.method.drive_car_into_wall",
        category="method",
        pattern=(
            r"\b(?:drive|driving|crash|crashing|steer|steering|swerve|"
            r"swerving) (?:my )?(?:car )?(?:into|off) (?:a |the |an |oncoming )?(?:\w+ )?(?:wall|"
            r"tree|bridge|cliff|traffic|pole|barrier|river|lake|truck|lorry)\b"
        ),
        matches=(
            "sometimes i think about driving my car into a wall",
            "im going to drive my car off the bridge after work",
        ),
        spares=("i'm giving away my sofa, anyone want it?",),
    ),
    Rule(
        id="en.method.slit_my_wrists",
        category="method",
        pattern=(
            r"\b(?:slit|slitting|slice|slicing|cut|cutting|open|"
            r"opening) (?:open )?(?:my )?(?:wrists?|veins?|throat|arteries|artery)\b(?: open)?|"
            r"\b(?:bleed|bleeding) (?:myself )?out\b|\bcut (?:deep|deeper|too deep|vertical|"
            r"down the road)\b"
        ),
        matches=(
            "i want to slit my wrists",
            "feel like slitting my wrists",
        ),
        spares=("i cut my hair", "i sprained my wrist at the gym"),
    ),
    Rule(
        id="en.method.blade_to_my_wrists",
        category="method",
        pattern=(
            r"\b(?:knife|blade|razor|razors|blades|scalpel|glass|scissors|box cutter|boxcutter|"
            r"sharpener)\b(?:\s+\w+){0,3}? (?:to|on|in|into|across|against|"
            r"over) (?:my )?(?:wrists?|throat|veins?|neck|arms?|skin|thighs?|chest|heart)\b"
        ),
        matches=("i held the razor to my wrist for a long time",),
        spares=("I stood on the platform for an hour waiting for the train",),
    ),
    Rule(
        id="en.method.carbon_monoxide",
        category="method",
        pattern=(
            r"\bcarbon monoxide\b(?! (?:alarms?|detectors?|sensors?|leaks?|levels?)\b)"
            r"|\bgas (?:my ?self|oven)\b|\bexhaust (?:pipe|fumes|hose)\b|"
            r"\bhose (?:from|to) the exhaust\b|\b(?:charcoal|helium|"
            r"nitrogen) (?:\w+ ){0,3}(?:tent|bag|room|car|to die|in the car|hood|method)\b|"
            r"\b(?:burn|burning|light|lighting) (?:\w+ )?charcoal\b|\b(?:turn|leave|leaving|"
            r"turning) (?:on )?the gas\b"
        ),
        matches=("carbon monoxide seems peaceful",),
        spares=("i harm no one", "we installed a carbon monoxide alarm"),
    ),
    Rule(
        id="en.method.shoot_myself",
        category="method",
        pattern=(
            r"\b(?:shoot|shooting|shot) (?:my ?self|me)\b(?! in the foot)|\b(?:gun|pistol|rifle|"
            r"revolver|shotgun|barrel|bullet)\b(?:\s+\w+){0,3}? (?:to|in|into|against|through|"
            r"at) (?:my )?(?:head|mouth|temple|brain|chin|heart)\b|\bblow my brains out\b|"
            r"\beat a bullet\b|\bbullet (?:in|through) my\b"
        ),
        matches=(
            "i think about shooting myself",
            "i keep thinking about putting a gun to my head",
        ),
        spares=("i wouldnt hurt myself",),
    ),
    Rule(
        id="en.method.drown_myself",
        category="method",
        pattern=(
            r"\b(?:drown|drowning|drowned) (?:my ?self)\b|\b(?:walk|walks|walked|walking|swim|"
            r"swam|swimming|go|went|going|wade|waded|wading|jump|jumped|jumping) (?:\w+ )?(?:into|"
            r"in|out into) (?:the |a )?(?:sea|"
            r"ocean|river|lake|water|waves|canal)\b(?=.{0,40}\b(?:never|not come back|"
            r"not coming back|never coming back|not coming out|and not|don't come back|drown|die|"
            r"end|gone|until|sink|stones?|forever)\b|\s*$)"
        ),
        matches=(
            "i want to drown myself",
            "I'm going to walk into the sea",
        ),
        spares=("i cut my hair myself",),
    ),
    Rule(
        id="en.method.drink_bleach",
        category="method",
        pattern=(
            r"\b(?:drink|drinking|swallow|swallowing|down|take) (?:\w+ )?(?:bleach|antifreeze|"
            r"poison|rat poison|pesticide|weedkiller|drain cleaner|cyanide|chemicals)\b|"
            r"\bpoison (?:my ?self)\b|\bpoisoning myself\b"
        ),
        matches=("i want to drink bleach",),
        spares=(
            "we're reading Romeo and Juliet, the ending where they take poison is so sad",
            "we're gonna drink until we can't stand lol",
            "i want to clean the sink with bleach",
        ),
    ),
    Rule(
        id="en.method.starve_myself_to_death",
        category="method",
        pattern=(
            r"\b(?:starve|starving) myself to death\b|\bdrink myself to death\b|\b(?:freeze|"
            r"freezing) myself to death\b"
        ),
        matches=("i'm going to starve myself to death",),
        spares=("i'm going to end the call",),
    ),
    Rule(
        id="en.method.method_emoji",
        category="method",
        pattern=(
            r"\b(?:knife|rope|pills|gun|razor|blood|coffin|grave|skull|bridge|train)(?: (?:knife|"
            r"rope|pills|gun|razor|blood|coffin|grave|skull|bridge|train))+\b"
        ),
        flags=("support",),
        matches=(
            "i'm so done 🔪🩸",
            "tonight 💊💊💊 im done",
        ),
        spares=("the new knife set arrived 🔪 finally i can cook properly",),
    ),
    Rule(
        id="en.method.means_named",
        category="method",
        pattern=(
            r"\b(?:my|the|a|his|dad's|mum's|mom's|these|those|all the|all my|"
            r"some) (?:\w+ )?(?:gun|pistol|rifle|shotgun|rope|noose|pills|meds|tablets|blade|"
            r"blades|razor|razors|charcoal)\b|\b(?:pills|rope|noose|blade|razor|"
            r"gun)\b(?= (?:ready|are ready|is ready|waiting|in my (?:bag|hand|drawer|pocket)|"
            r"on the (?:table|desk|bed)))"
        ),
        flags=("support",),
        matches=(
            "i bought a rope today",
            "I bought a gun last week",
        ),
        spares=(
            "bought a rope for the climbing gym",
            "i bought rope for the camping trip",
        ),
    ),
    # --- intent and plan.
    Rule(
        id="en.intent.going_to_kill_myself",
        category="intent_plan",
        pattern=(
            r"\b{INTENT} (?:\w+ ){0,2}?(?:{KILLME}|die|end (?:it|things|everything)|"
            r"jump\b(?! (?:in(?! front)|into|on|onto|at|for|up|around|ahead|through|rope|ship|"
            r"start|back|aboard|to conclusions|the (?:queue|line|gun))\b)|overdose|"
            r"hang (?:my ?self)|shoot (?:my ?self)|slit|drown (?:my ?self)|take (?:all (?:of )?|"
            r"every one of |the rest of |a bunch of |too many |loads of |"
            r"the whole (?:bottle|box|pack) of )(?:my |the |these |those )?{PILLS}|"
            r"take (?:everything|all|whatever) (?:i have|i've got|i can find|in (?:the|my) "
            r"(?:\w+ )?(?:cabinet|cupboard|drawer|box|kit))\b(?! (?:to|with|into|out|home|back|"
            r"off|for|on|from|apart|away)\b)|"
            r"take (?:the|these|those) {PILLS}\b(?! (?:now|with|in the morning|as|every|daily|"
            r"on time|my doctor)\b)|swallow|walk "
            r"into|step (?:off|in front)|throw myself|"
            r"not be here|be gone|be dead|say goodbye|leave this world)\b"
        ),
        matches=(
            "im ready to die",
            "gonna sewerslide fr",
        ),
        spares=(
            "i'll be gone next week on holiday",
            "i'm ready to go",
        ),
    ),
    Rule(
        id="en.intent.i_have_a_plan_set",
        category="intent_plan",
        pattern=(
            r"\b(?:i've|ive|i have|i) (?:already )?(?:made|"
            r"got|have|worked out|figured out|written|planned|picked|chosen|set|decided on) (?:a |"
            r"the |my )?(?:plan|date|day|time|spot|place|method|bridge|way)\b(?! (?:for|to (?:go|"
            r"get|study|move|visit|finish|start|make|buy|see|meet|travel|learn|save|fix|talk|"
            r"apply|quit|change|celebrate|marry|propose))\b)(?=.{0,60}\b(?:die|end|kill|it|do it|"
            r"jump|over|done|gone|suicide|pills|rope|bridge|roof|train|gun|tracks|building|spot|"
            r"place|method)\b|\s*$)|\bthe plan is (?:to )?(?:die|end|kill|jump|take)\b|"
            r"\b(?:i know|i've figured out|ive figured out|"
            r"i worked out) (?:exactly )?how (?:i'm going to|im going to|i'll|i will|to) (?:do it|"
            r"end it|die|kill myself)\b|\bplanned (?:it|everything|my death|my suicide) (?:out)?\b"
        ),
        flags=("plan",),
        matches=(
            "i have a plan to end it",
            "i've picked a date and the bridge",
        ),
        spares=("i have a plan for my career",),
    ),
    # "I have a plan" is a plan to die next to any other sign (or inside a crisis
    # conversation), and coping on its own ("I feel calmer now that I have a plan").
    Rule(
        id="en.intent.i_have_a_plan",
        category="intent_plan",
        pattern=(
            r"\b(?:i|i've|ive|i have|i've got|ive got) (?:already )?(?:a|the|my) plan\b(?! (?:for|"
            r"to (?:go|get|study|move|visit|finish|start|make|buy|see|meet|travel|learn|save|fix|"
            r"talk|apply|quit|change|celebrate))\b)(?! and a date for (?:the|my|our|a)\b)"
        ),
        flags=("plan", "support"),
        matches=("i have a plan to end it",),
        spares=("i have a plan for my career", "i have a plan and a date for the wedding"),
    ),
    # Swallowing "them all" / "the lot": pills named earlier in the message.
    Rule(
        id="en.intent.take_them_all_at_once",
        category="intent_plan",
        pattern=(
            r"\b(?:i'm|im|i am|i'll|ill|i will|gonna|going to)? ?(?:take|taking|swallow|swallowing|"
            r"down|downing) (?:them|it|all of them|the lot|every single one|every one) (?:all )?"
            r"(?:at once|in one go|tonight|today|tomorrow|after|when|before|this (?:weekend|week|"
            r"evening))\b"
        ),
        flags=("support",),
        matches=("i'm going to take them all at once tonight",),
        spares=("i'm going to take a bath tonight",),
    ),
    Rule(
        id="en.intent.im_done_or_decided",
        category="intent_plan",
        pattern=(
            r"\b(?:tonight|today|tomorrow|this) (?:is|'s|s) (?:the|my) (?:night|day)\b|"
            r"\b(?:tonights|todays|tomorrows) the (?:night|day)\b|\b(?:it's|its|it is) (?:time|"
            r"decided|over)\b|\b(?:i've|ive|i have|i) (?:decided|made up my mind|"
            r"made my decision)\b|\b(?:i'm|im|i am) (?:so |just |really |totally |"
            r"fucking )?(?:done|"
            r"ready)\b(?! (?:for|with (?:this|the|"
            r"work|school|my)|to (?:go|start|eat|talk|order|leave for|work))\b)|"
            r"\bno turning back\b"
        ),
        flags=("support",),
        matches=(
            "im ready to die",
            "im so done with life",
        ),
        spares=("i'm ready to go",),
    ),
    Rule(
        id="en.intent.goodbye_everyone",
        category="intent_plan",
        pattern=(
            r"\b(?:tonight|today|tomorrow|this) (?:is|'s|s) (?:my) (?:last night|last day)\b(?! "
            r"(?:at|of|in|on|with|here|as|for)\b)|"
            r"\bthis is (?:my|the) last (?:day|night|week|message|time|text|post|goodbye|"
            r"weekend)\b(?! (?:at|of|in|on|with|before|here|as|for|working|together|until|"
            r"till)\b)|\bmy last (?:day|night|week|message|text|post|weekend) (?:on earth|alive|"
            r"here|ever)\b|\b(?:by the time|when) (?:you|anyone|someone|they) (?:read|reads|see|"
            r"sees|find|finds) this\b|\bi won't be (?:here|around|alive) (?:tomorrow|next week|"
            r"much longer|for long|by|anymore|to see|after)\b|\bi'll be gone (?:soon|by|before|"
            r"tomorrow|tonight)\b(?! (?:\w+ ){0,3}(?:on|for) (?:holiday|vacation|a trip|business|"
            r"work|the weekend|leave)\b)|\bgoodbye (?:forever|everyone|world|cruel world|all)\b|"
            r"\bthis is goodbye\b|\byou won't (?:hear from|see) me (?:again|anymore|after)\b|"
            r"\bit (?:will|'ll) (?:all )?be over (?:soon|tonight|tomorrow)\b|\bnot (?:going to|"
            r"gonna) be (?:here|around) (?:much longer|tomorrow|next week|for long)\b|\b(?:i've|"
            r"ive|i have) made (?:my )?peace\b"
        ),
        matches=(
            "this is goodbye",
            "this is my last week",
        ),
        spares=("this cake is to die for",),
    ),
    Rule(
        id="en.intent.going_to_do_it",
        category="intent_plan",
        pattern=(
            # Not "i'm going to do it tonight, the homework i mean".
            r"\b(?:going to|gonna|will|i'll) do it\b(?![^.!?\n]{0,30}\b(?:the|my) \w+ i mean\b)"
        ),
        flags=("support",),
        matches=(
            "I worked out how I'm going to do it and when",
            "i'll do it tonight with the pills i've been saving",
        ),
        spares=(
            "i'm not going to do anything stupid, promise",
            "i'm going to do it tonight, the homework i mean",
        ),
    ),
    # --- preparatory behaviour.
    Rule(
        id="en.prep.suicide_note",
        category="preparatory",
        pattern=(
            r"\b(?:wrote|write|writing|written|finished|left|leave|leaving|drafted|drafting|typed|"
            r"typing|started) (?:\w+ ){0,2}?(?:suicide|goodbye|farewell|final|last|good bye|"
            r"goodby) (?:note|notes|letter|letters|message|messages|video|texts?|emails?)\b|"
            r"\bsuicide (?:note|letter)s?\b|\bgoodbye (?:notes?|letters?)\b"
        ),
        matches=(
            "i wrote my goodbye letters",
            "ive written a suicide note",
        ),
        spares=(
            "in the book she writes a suicide note",
            "i wrote a goodbye card for my colleague who's leaving",
        ),
    ),
    Rule(
        id="en.prep.said_my_goodbyes",
        category="preparatory",
        pattern=(
            r"\b(?:said|saying|say|told|telling) (?:my |all my |our )?(?:goodbyes|good byes|"
            r"farewells)\b|\b(?:said|saying|say) goodbye to (?:everyone|everybody|my (?:family|"
            r"friends|kids|mom|mum|dad|cat|dog|sister|brother|parents)|people|all)\b(?! (?:at|"
            r"before|after|because|for the (?:summer|holidays|weekend))\b)"
        ),
        matches=(
            "i said my goodbyes to everyone",
            "updated my will and said goodbye to my cat",
        ),
        spares=("my friend said she wants to die",),
    ),
    Rule(
        id="en.prep.giving_things_away",
        category="preparatory",
        pattern=(
            r"\b(?:giving|gave|give|given|handing|handed|sold|"
            r"selling) (?:away )?(?:all )?(?:of )?(?:my |away my )?(?:stuff|things|belongings|"
            r"possessions|clothes|books|games|cat|dog|pets?|jewelry|jewellery|guitar|plants|"
            r"collection|savings|everything i own)\b(?: away)?(?=.{0,50}\b(?:won't need|wont need|"
            r"not going to need|don't need|last|anymore|after|since|before i(?! (?:go|leave|move|"
            r"travel|fly|head) (?:on|to|away|abroad|back|home|out|for|off|overseas)\b)|gone|"
            r"won't be|"
            r"no longer|for good|to people|away|remember me)\b|\s*$)"
        ),
        matches=(
            "i gave my cat to my sister since i wont be around",
            "ive been giving my stuff away to people, i wont need it",
        ),
        spares=("i gave my old phone to my brother",),
    ),
    Rule(
        id="en.prep.wont_need_my_things",
        category="preparatory",
        pattern=(
            r"\b(?:won't|wont|will not|not going to|don't|dont|never) (?:be )?need(?:ing)? (?:my|"
            r"any of my|these|those|them|the|any) ?(?:things|stuff|clothes|belongings|books|"
            r"stuff anymore|possessions|money|savings|phone|room)?\b(?=.{0,20}\b(?:anymore|"
            r"any more|after|much longer|where i'm going|soon|now|again)\b|\s*$)"
        ),
        matches=(
            "i've made my peace, i won't need my things",
            "deleted all my accounts, wont need them anymore",
        ),
        spares=("I finally ended things with my boyfriend",),
    ),
    Rule(
        id="en.prep.wrote_a_will",
        category="preparatory",
        pattern=(
            r"\b(?:wrote|write|writing|written|made|make|making|updated|updating|drew up|finished|"
            r"sorted) (?:out )?(?:a |my )?(?:will|affairs)\b(?=.{0,40}\b(?:after|gone|in case|"
            r"just in case|when i'm|for when|so (?:my|they|everyone)|before i)\b)|\b(?:put|"
            r"putting|got|getting|sorted|sorting) (?:all )?(?:my )?(?:affairs|things|everything|"
            r"life) in order\b(?=.{0,40}\b(?:after|gone|in case|so|before|for when|won't|last)\b|"
            r"\s*$)"
        ),
        matches=(
            "i wrote a will for after",
            "i put my affairs in order so nobody has to deal with it",
        ),
        spares=("i wrote a farewell card for my colleague",),
    ),
    Rule(
        id="en.prep.saving_up_pills",
        category="preparatory",
        pattern=(
            r"\b(?:saving|saved|save|stockpil\w*|hoard\w*|collecting|collected|stash\w*|storing|"
            r"stored|hiding|hid|hidden|keeping|kept|getting|got|bought|buying|buy|ordered|order|"
            r"ordering|picked up|acquired|stocking up on|"
            r"stocked up on) (?:up )?(?:\w+ ){0,3}?{PILLS}\b(?=.{0,60}\b(?:for|in case|until|"
            r"enough|when|to|just|all|so|months|weeks|die|end|night|plan|ready|secretly|drawer|"
            r"lots|hundred|\d+)\b|\s*$)(?![^.!?]{0,25}\b(?:headaches?|migraines?|a cold|colds?|"
            r"the flu|flu|fever|toothache|back pain|cramps|period|hay ?fever|allerg\w*|the kids?|"
            r"my (?:son|daughter|mum|mom|dad|husband|wife|grandma|grandmother|kids?)|"
            r"prescribed|prescription|as usual)\b)"
        ),
        matches=(
            "i've been stockpiling my meds",
            "ive been saving up pills for months",
        ),
        spares=("my plant died", "i've been saving up for a new bike"),
    ),
    Rule(
        id="en.prep.pills_ready",
        category="preparatory",
        pattern=(
            r"\b(?:i|i've|ive|i have|i've got|ive got|have|got|i keep|i kept) (?:all )?(?:the |"
            r"my |some |enough |a lot of |lots of |a stash of |a bottle of |a box of )?(?:\w+ )?"
            r"{PILLS} "
            r"(?:saved|stashed|stockpiled|hidden|hid|ready|set aside|put away|put aside|lined up|"
            r"counted out)(?: up)?\b"
        ),
        matches=(
            "i have a stash of pills saved up",
            "its decided. tonight. i have the pills ready",
        ),
        spares=("i have a plan for the weekend",),
    ),
    Rule(
        id="en.prep.bought_a_rope",
        category="preparatory",
        pattern=(
            r"\b(?:bought|buying|buy|ordered|ordering|got|getting|found|picked up|acquired|"
            r"looking for|looked for|searching for|looked up|researched|googled|googling|"
            r"researching) (?:\w+ ){0,2}?(?:a |the |some )?(?:rope|noose|gun|pistol|rifle|"
            r"charcoal|helium|blades?|razors?|razor blades|poison|bleach|ligature)\b"
        ),
        matches=(
            "i bought a rope today",
            "i ordered a rope online",
        ),
        spares=(
            "i bought rope for the camping trip",
            "bought a rope for the climbing gym",
        ),
    ),
    Rule(
        id="en.prep.researched_how",
        category="preparatory",
        pattern=(
            r"\b(?:looked up|looking up|researched|researching|googled|googling|read up on|"
            r"reading about|watching videos about|searched|"
            r"searching) (?:\w+ ){0,3}?(?:how to (?:die|kill|hang|overdose|end)|methods|"
            r"ways to die|lethal|painless|suicide|overdose|how many pills|the tallest|bridges|"
            r"how high)\b"
        ),
        matches=(
            "been researching painless methods",
            "i looked up how many pills would be lethal",
        ),
        spares=("research says overdose rates are rising",),
    ),
    Rule(
        id="en.prep.found_the_spot",
        category="preparatory",
        pattern=(
            r"\b(?:found|picked|chose|chosen|scouted|checked out|visited) (?:a |the )?(?:perfect |"
            r"good |right |high )?(?:spot|place|bridge|building|roof|tree|location|"
            r"method)\b(?=.{0,40}\b(?:for it|to do it|to jump|to end|to die|where|for when|"
            r"for tonight|high enough)\b)"
        ),
        matches=("i found the perfect bridge to jump from",),
        spares=("in the novel the heroine jumps off a bridge at the end",),
    ),
    Rule(
        id="en.prep.letters_for_family",
        category="preparatory",
        pattern=(
            r"\b(?:left|leaving|leave|write|wrote|writing) (?:\w+ ){0,3}(?:letters?|notes?|"
            r"messages?) (?:for|to) (?:everyone|my (?:family|kids|mom|mum|dad|parents|wife|"
            r"husband|partner|friends|sister|brother)) (?:to (?:find|read)|for after|for when|"
            r"explaining why|so they know|saying (?:goodbye|sorry))\b"
        ),
        matches=(
            "i left letters for my family to find",
            "i wrote letters for my family to read after i'm gone",
        ),
        spares=("i left a note for my flatmate to buy milk",),
    ),
    Rule(
        id="en.prep.deleted_my_accounts",
        category="preparatory",
        pattern=(
            r"\b(?:deleted|deleting|cancelled|canceled|cancelling|closed|"
            r"closing) (?:\w+ ){0,2}?(?:all )?(?:my )?(?:accounts|subscriptions|social media|"
            r"socials)\b(?=.{0,50}\b(?:won't need|wont need|not going to need|don't need|last|"
            r"anymore|after|gone|won't be|no longer|for good|before|ready|doesn't matter)\b)"
        ),
        matches=(
            "deleted all my accounts, wont need them anymore",
            "deleted all my socials and gave my guitar away, won't need it where i'm going",
        ),
        spares=("i accidentally burnt my hand on the kettle",),
    ),
    Rule(
        id="en.prep.when_im_gone",
        category="preparatory",
        pattern=(
            r"\b(?:take care of|look after|have|keep) (?:my )?(?:cat|dog|kids|pets?|plants|things|"
            r"stuff) (?:for me )?(?:when|after|once) i(?:'m| am)? (?:gone|not here|dead)\b|"
            r"\b(?:when|after|once) i(?:'m| am| am) (?:gone|dead|no longer here|not around)\b"
        ),
        matches=(
            "please take care of my dog when im gone",
            "i gave my dog to my sister so hes looked after when im gone",
        ),
        spares=("I burned my hand on the stove",),
    ),
    # --- current self-harm.
    Rule(
        id="en.self_harm.cut_myself",
        category="self_harm",
        pattern=(
            r"\b(?:cut|cutting|cuts|cutted|carve|carving|carved|slice|slicing|sliced|scratch|"
            r"scratching|scratched|burn|burning|burned|burnt|hit|hitting|punch|punching|punched|"
            r"bite|biting|bit|stab|stabbing|stabbed) (?:my ?self|me|my (?:arms?|wrists?|legs?|"
            r"thighs?|skin|stomach|hips?|body|hands?|face|ankles?))\b(?! (?:free|loose|off from|"
            r"out of|some slack|up on)\b)"
        ),
        matches=(
            "i relapsed and cut my thighs",
            "i cut myself again last night",
        ),
        spares=(
            "I cut myself chopping onions",
            "i cut my hair",
        ),
    ),
    Rule(
        id="en.self_harm.hurt_myself",
        category="self_harm",
        pattern=(
            r"\b(?:hurt|hurting|hurts|harm|harming|harmed|injure|injuring|injured|punish|"
            r"punishing|punished|mutilate|mutilating) (?:my ?self)\b(?! (?:at the gym|playing|"
            r"lifting|skiing|running|during|in (?:a|the) (?:game|match|fall|gym|accident)|falling|"
            r"tripping)\b)"
        ),
        matches=(
            "i keep hurting myself",
            "i want to hurt myself so bad",
        ),
        spares=(
            "i wouldnt hurt myself",
            "no thoughts of hurting myself, just sad",
        ),
    ),
    Rule(
        id="en.self_harm.self_harm_words",
        category="self_harm",
        pattern=(
            r"\bself[- ]?(?:harm|harming|harmed|injury|injuring|mutilation|mutilate|"
            r"hatred and cutting)\b|\bself ?inflicted\b|\bselfharm\w*"
        ),
        matches=(
            "been self harming again",
            "the urge to self harm is so strong tonight",
        ),
        spares=(
            "my psychology class covered self-harm today",
            "my mum has been self harming and i dont know how to help",
        ),
    ),
    Rule(
        id="en.self_harm.relapsed_on_sh",
        category="self_harm",
        pattern=(
            r"\b(?:relaps\w*|urges?|clean|scars?|cuts?|wounds?) (?:\w+ ){0,2}?(?:on |to |from |"
            r"of |with )?(?:sh|self harm|cutting|the blade)\b|\bsh (?:urges|scars|relapse|"
            r"again)\b|\b(?:started|start|starting|went back to|back to|relapsed into|"
            r"been) (?:cutting|burning myself|hurting myself|scratching)\b(?! (?:the|a|my hair|"
            r"back on|down|onions|vegetables|costs|class|corners|paper|bread|wood|sugar|carbs)\b)"
        ),
        matches=(
            "i relapsed on sh",
            "i've been cutting again",
        ),
        spares=("i relapsed and cut my hair short lol",),
    ),
    Rule(
        id="en.self_harm.fresh_cuts",
        category="self_harm",
        pattern=(
            r"\b(?:fresh|new|deep|bleeding|open) (?:cuts|wounds|scars|gashes)\b|\b(?:cuts|scars|"
            r"wounds|marks|burns) (?:on|all over|across|up and down) my (?:arms?|wrists?|legs?|"
            r"thighs?|skin|stomach|hips?|body)\b|\b(?:made|make|making) (?:my ?self) bleed\b|"
            r"\buntil (?:i|it) bled?\b|\btill (?:i|it) bleeds?\b"
        ),
        matches=(
            "i have fresh cuts on my thighs",
            "i punched myself until it bled",
        ),
        spares=("my best friend cuts herself and i'm scared",),
    ),
    Rule(
        id="en.self_harm.cutting_again",
        category="self_harm",
        pattern=(
            r"\b(?:cutting|cut) again\b|\bi cut (?:again|last night|tonight|today|yesterday|"
            r"deeper|this morning)\b|\b(?:pick|picking|picked|rip|ripping) (?:my skin|"
            r"at my skin) (?:until|till|off)\b|\bbang(?:ing)? my head (?:against|on|"
            r"into) (?:the )?(?:wall|floor|door|desk)\b"
        ),
        matches=(
            "i've been cutting again",
            "cut again last night, deeper than usual",
        ),
        spares=("cutting back on coffee", "i cut again last night, the fabric for the dress"),
    ),
    Rule(
        id="en.self_harm.blade_on_my_skin",
        category="self_harm",
        pattern=(
            r"\b(?:blade|blades|razor|razors|lighter|cigarette|compass|safety pin|"
            r"pencil sharpener|sharpener) (?:\w+ ){0,3}?(?:on|into|against|to) (?:my )?(?:skin|"
            r"arms?|wrists?|legs?|thighs?|stomach|hips?|body)\b"
        ),
        matches=("i pressed the lighter against my arm",),
        spares=("i hurt myself at the gym yesterday",),
    ),
    # --- being a burden.
    Rule(
        id="en.burden.better_off_without_me",
        category="burden",
        pattern=(
            r"\b(?:better|happier|easier|fine|okay|ok|relieved|free|lighter) (?:off )?(?:without|"
            r"w/o|w/out) me\b|\bwithout me (?:around |here )?(?:everyone|everybody|they|the world|"
            r"my family|you|people|things)(?:'d| would| will|'ll)? (?:be )?(?:better|happier|fine|"
            r"easier|relieved|free)\b"
        ),
        matches=(
            "my kids would be fine without me",
            "the world would be better without me",
        ),
        spares=("i'd die without my morning coffee lol",),
    ),
    Rule(
        id="en.burden.theyd_be_relieved_if_i_was_gone",
        category="burden",
        pattern=(
            r"\b(?:everyone|everybody|they|people|my family|the world|my kids|my parents|"
            r"my friends|my wife|my husband|my partner|you all|you guys|he|she)(?:'d| would| will|"
            r"'ll)? (?:\w+ )?(?:be )?(?:better|happier|fine|relieved|okay|glad|free|"
            r"easier)(?: off)? (?:if|when|once) i(?: just| simply)?(?:'m| am| was| were| wasn't|"
            r" weren't| died| die|"
            r" disappear| disappeared| vanish| vanished| left| left for good| gone| never existed|"
            r" didn't exist)\b(?! (?:at home|away for|"
            r"on (?:holiday|vacation)|out(?! of (?:the picture|their lives|your lives|everyone's "
            r"lives|the way|this world))|busy)\b)"
        ),
        matches=(
            "they'd be relieved if i was gone",
            "everyone would be happier if i was gone",
        ),
        spares=("it would be better if i was there",),
    ),
    Rule(
        id="en.burden.im_a_burden",
        category="burden",
        pattern=(
            r"\b(?:i'm|im|i am|i feel like|feel like|i'm just|i'm only|just|i've become|i became|"
            r"being|to be) (?:\w+ )?(?:a |such a |the |an |nothing but a |only a |just a |"
            r"the biggest )?(?:burden|drain|weight|waste of (?:space|oxygen|air|life|skin)|"
            r"problem for everyone|dead weight|mistake|"
            r"disappointment to everyone)\b(?! (?:at work|to carry|of proof|of history)\b)"
        ),
        matches=(
            "im a waste of space",
            "i feel like a burden",
        ),
        spares=(
            "i'm not a burden, my therapist helped me see that",
            "I'm a waste of space at the gym, can't lift anything",
        ),
    ),
    Rule(
        id="en.burden.burden_to_everyone",
        category="burden",
        pattern=(
            r"\b(?:burden|burdening) (?:to|on|for) (?:everyone|everybody|my|them|you|people|"
            r"others|the people)\b|\b(?:no one|nobody|noone|none of them|not one person) (?:would|"
            r"will|'d|is going to|gonna) (?:even )?(?:miss|notice|care|cry|mourn|"
            r"come to my funeral)(?: me)?(?:[ ,]+(?:if|when|once) (?:i|i'm|im)\b|(?: me)?\s*$|"
            r" me\b)"
        ),
        matches=(
            "nobody would miss me",
            "i'm a burden on my family",
        ),
        spares=("nobody texted me back today, feels bad",),
    ),
    Rule(
        id="en.burden.wont_be_a_problem_much_longer",
        category="burden",
        pattern=(
            r"\b(?:won't|wont|will not|not going to|not gonna|i'll stop|"
            r"stop) (?:be(?:ing)? )?(?:a )?(?:problem|burden|bother|trouble|nuisance|annoyance|"
            r"in the way|in anyone's way|weight)(?: (?:for|to|on) (?:anyone|anybody|you|them|"
            r"everyone|anyone else))? (?:much longer|for long|anymore|any longer|soon|"
            r"after (?:tonight|today|this)|again)\b|\b(?:soon|after this|"
            r"after tonight) (?:i )?(?:won't|wont|will not) (?:be )?(?:a )?(?:problem|burden|"
            r"bother) (?:for|to) (?:anyone|anybody|you|them|everyone)\b"
        ),
        matches=(
            "soon i wont be a bother to anyone",
            "I won't be a problem for anyone much longer",
        ),
        spares=("i love the train ride to work",),
    ),
    Rule(
        id="en.burden.i_ruin_everything",
        category="burden",
        pattern=(
            r"\bi (?:ruin|ruined|destroy|make worse|wreck) (?:everything|everyone's lives|"
            r"everyone's life|it for everyone|their lives)(?: for (?:everyone|everybody|my family|"
            r"them|all|the people i love))?\b(?=.{0,40}\b(?:without me|gone|better|"
            r"should|die|disappear)\b|\s*$)|\b(?:they|everyone|everybody|people|"
            r"my family) (?:would|will|'d) be (?:glad|relieved|happy) (?:if|when) i(?:'m| was|"
            r" were)? (?:gone|dead|died|not here)\b"
        ),
        matches=(
            "i ruin everything for everyone",
            "my family would be relieved if i was gone",
        ),
        spares=("i need a break from everything",),
    ),
    Rule(
        id="en.burden.world_doesnt_need_me",
        category="burden",
        pattern=(
            r"\b(?:the world|everyone|my family|they|you|people) (?:doesn't|don't|do not|does not|"
            r"wouldn't|would not) (?:need|want|miss) me\b(?=.{0,40}\b(?:here|alive|around|anymore|"
            r"gone)\b|\s*$)"
        ),
        matches=("the world doesnt need me",),
        spares=("i need to kill the process",),
    ),
    # --- hopelessness about living.
    Rule(
        id="en.hopeless.no_point_in_living",
        category="hopelessness",
        pattern=(
            r"\b(?:no|zero|not any|not a|there's no|theres no|there is no|don't see any|"
            r"dont see any|can't see any|cant see any|don't see the|cant see the|can't see the|"
            r"dont see the|don't see a|can't see a|can't find a|can't find any|cannot find a|"
            r"don't have a|don't have any|no longer see a|no longer see any) (?:\w+ )?(?:point|"
            r"reason|purpose|use|sense|meaning) (?:\w+ )?(?:in |"
            r"to |of |for )?(?:living|live|life|being alive|going on|carrying on|trying|existing|"
            r"keep(?:ing)? going|keep(?:ing)? living|continuing|anything|me being here|waking up|"
            r"getting up|"
            r"staying alive|me|my life|it all|fighting|being here|any of it|"
            r"this life)\b(?! (?:this (?:course|class|job|module|meeting)|with (?:him|her|them)|"
            r"in (?:that|this) (?:job|class|course|app|game))\b)"
        ),
        matches=(
            "no reason to keep going",
            "there's no point in living",
        ),
        spares=("i keep going back to the knife drawer to grab a spoon",),
    ),
    Rule(
        id="en.hopeless.whats_the_point_of_living",
        category="hopelessness",
        pattern=(
            r"\bwhat(?:'s| is|s)? (?:even )?the point (?:of |in )?(?:living|life|being alive|"
            r"going on|anything|it all|me|existing|waking up|trying anymore|any of it|even trying|"
            r"carrying on|this life)\b"
        ),
        matches=(
            "whats the point of living",
            "whats even the point of me tbh",
        ),
        spares=("i dont see the point of this meeting",),
    ),
    Rule(
        id="en.hopeless.life_isnt_worth_living",
        category="hopelessness",
        pattern=(
            r"\b(?:life|living|my life|existence|everything|being alive|my existence)(?: is| feels|"
            r" seems| has become| became|'s) (?:\w+ )?(?:pointless|meaningless|worthless|hopeless|"
            r"not worth (?:living|it)|empty and pointless|a waste|over)\b|\b(?:life|it) (?:isn't|"
            r"is not|isnt|aint|ain't) worth (?:living|it anymore|it any more)\b|"
            r"\bnot worth living\b"
        ),
        matches=(
            "life isnt worth living",
            "my life is meaningless",
        ),
        spares=(
            "my client keeps saying life is pointless",
            "i want to live a long life",
        ),
    ),
    Rule(
        id="en.hopeless.nothing_to_live_for",
        category="hopelessness",
        pattern=(
            r"\bnothing (?:\w+ )?(?:to live for|left (?:to live for|for me|to lose))\b|\b(?:no|"
            r"nothing|nothin) (?:left )?to live for\b|\bno (?:reason|reasons) to (?:live|stay|"
            r"keep going|go on|get up)\b"
        ),
        matches=(
            "no reason to keep going",
            "i have nothing to live for",
        ),
        spares=("i keep going back to the knife drawer to grab a spoon",),
    ),
    Rule(
        id="en.hopeless.nothing_will_get_better",
        category="hopelessness",
        pattern=(
            r"\b(?:nothing|it|things|life|my life|this|it all|everything)(?:'s| is| will|"
            r" is going to| isn't going to| won't|'ll)? (?:\w+ )?(?:ever |never )(?:get|gonna get|"
            r"going to get|be|change|improve|feel|going to be) (?:any )?(?:better|okay|ok|good|"
            r"different|easier)\b(?! (?:with|for|at|in|on|about) (?:this|the|that|my|our|"
            r"these) (?:\w+ )?(?:printer|team|car|phone|wifi|laptop|project|job|game|weather|"
            r"traffic|city|government|economy|show|app|landlord|boss|course|class)\b)|\bit(?:'s|"
            r" is) (?:never|not ever) (?:going to|gonna) (?:get|be) (?:better|okay|ok)\b|"
            r"\bnothing (?:will|is going to|'s going to|gonna) (?:ever )?(?:change|get better|"
            r"help|improve)\b(?! (?:with|for|at|in|on|about) (?:this|the|that|my|our|"
            r"these) (?:\w+ )?(?:printer|team|car|phone|wifi|laptop|project|job|game|weather|"
            r"traffic|city|government|economy|show|app|landlord|boss|course|class)\b)|"
            r"\bnever (?:going to|gonna) get better\b"
        ),
        matches=(
            "it's never going to get better",
            "nothing will ever get better, I can't go on",
        ),
        spares=("i cant see how it gets better without a new gpu lol",),
    ),
    Rule(
        id="en.hopeless.cant_go_on",
        category="hopelessness",
        pattern=(
            r"\b(?:can't|cant|cannot|can not|unable to|couldn't) (?:\w+ )?(?:go on|keep going|"
            r"carry on|do this|take (?:it|this|any more|anymore)|keep living|live like this|"
            r"handle (?:this|it|life) anymore|hold on|keep fighting|cope|continue living|"
            r"bear (?:it|this|life)|survive this|face another day|keep doing this|do life|"
            r"get through another day|take much more)\b(?! (?:the|a|an|that|my|our|their|his|her|"
            r"holiday|vacation|social|tiktok|instagram|facebook|twitter|stage|air|about|"
            r"at)\b)(?! (?:with (?:this|the|these|our|you|today)|today|talking|answering|"
            r"the session|this session|right now,? (?:can|let)|for today|for now|another question|"
            r"(?:any|one) more questions?)\b)"
        ),
        matches=(
            "i cant go on anymore",
            "i cant do this anymore",
        ),
        spares=(
            "i can't do this exercise anymore today",
            "i cant go on with these questions today",
        ),
    ),
    Rule(
        id="en.hopeless.dont_want_to_go_on",
        category="hopelessness",
        pattern=(
            r"\b(?:don't|dont|do not|no longer) (?:\w+ )?(?:want|wanna) (?:\w+ )?(?:to )?(?:go on|"
            r"carry on|keep going|keep fighting|continue living|keep trying|try anymore|"
            r"fight anymore|do this anymore|do life)\b(?! (?:the|a|an|that|my|our|their|his|her|"
            r"holiday|vacation|social|tiktok|instagram|facebook|twitter|stage|air|about|"
            r"at)\b)(?! (?:with (?:this|the|these|our|you|it|today|my studies|the course)|today|"
            r"talking|answering|the session|this session|for today|for now|like this (?:for today|"
            r"right now))\b)"
        ),
        matches=(
            "I don't want to go on",
            "i dont want to go on like this anymore",
        ),
        spares=("i don't want to go on the trip",),
    ),
    Rule(
        id="en.hopeless.no_way_out",
        category="hopelessness",
        pattern=(
            r"\b(?:no|zero|not any|there's no|theres no|there is no|see no|don't see a|"
            r"can't see a|cant see a|can't see any|cannot see any|don't see any|can't find a|"
            r"can't find any|there isn't a|there isn't any) (?:\w+ )?(?:way out|hope|future|light|"
            r"escape|way forward|"
            r"end to this|other way|other option|solution)\b(?! (?:for|in|with|on) (?:the|this|"
            r"our|that|my|their|his|her) (?:\w+ )?(?:team|project|company|game|match|car|plant|"
            r"relationship|business|season|economy|job|plan|idea|phone|printer|exam|class|course|"
            r"show|series|band)\b)|\bhope(?:less|lessness)\b|\blost (?:all )?hope\b(?! (?:in|for|"
            r"on|with) (?:the|this|our|that|my|their|his|her) (?:\w+ )?(?:team|project|company|"
            r"game|match|car|plant|relationship|business|season|economy|job|plan|idea|phone|"
            r"printer|exam|class|course|show|series|band)\b)|\bgive up on (?:life|living|"
            r"everything|myself|me)\b|\bgiven up on (?:life|living|everything|myself)\b|\b(?:i|"
            r"i've|ive|i have) given up\b|\bi give up\b(?! on (?:this|the|that|him|her|them|"
            r"trying to|the idea|cooking|dating|finding|learning)\b)"
        ),
        matches=(
            "there's no way out",
            "no hope left for me",
        ),
        spares=(
            "i'm hopeless romantic lol",
            "there's no point in arguing with him",
        ),
    ),
    Rule(
        id="en.hopeless.i_cant_anymore",
        category="hopelessness",
        pattern=(
            r"\b(?:i'm|im|i am|i feel|feeling|so) (?:\w+ )?(?:trapped|"
            r"stuck) (?:\w+ ){0,2}(?:no way out|forever|with no escape|in my own life|"
            r"in this life)\b|\bi (?:just )?(?:can't|cant) (?:anymore|any more)\b|\b(?:i'm|im|"
            r"i am) (?:so )?(?:done|finished|over it)\. ?(?:with )?(?:everything|it all|"
            r"all of it)\b|\bi'm at the end of my rope\b"
        ),
        matches=("kms kms kms i can't anymore",),
        spares=("i can't do this exercise anymore today",),
    ),
    Rule(
        id="en.hopeless.completely_hopeless",
        category="hopelessness",
        pattern=(
            r"\b(?:i'm|im|i am|i feel) (?:completely |totally |utterly )?(?:hopeless|"
            r"worthless and hopeless|beyond help|beyond saving|a lost cause|unfixable|"
            r"broken beyond repair)\b|\bnothing matters anymore\b|\bno one can help me\b|"
            r"\bit's too late for me\b|\bthere's no hope for me\b"
        ),
        matches=(
            "nothing matters anymore",
            "i feel completely hopeless",
        ),
        spares=(
            "i'm hopeless romantic lol",
            "i can't do this exercise anymore today",
        ),
    ),
    # --- general additions from a held-out phrase check.
    Rule(
        id="en.passive.easier_if_i_wasnt_here",
        category="passive_ideation",
        pattern=(
            r"\b(?:it )?(?:would|'d|will|'ll) (?:\w+ ){0,3}?(?:be )?(?:\w+ ){0,2}?(?:easier|better|"
            r"simpler|best|a relief|kinder)(?: for (?:everyone|everybody|all|me))? (?:if|when) i "
            r"(?:just |simply )?(?:was|were|am|'m|died|die|disappeared|was gone|wasn't here|"
            r"stopped existing|didn't exist|never woke up|didn't wake up)(?: (?:dead|gone|not here|"
            r"not alive|never born))?\b(?! (?:at|in|on|for|from|home|out|away|there|here|"
            r"prepared|ready|told|asked|able|allowed|awake|sober|taller|richer|smarter|older|"
            r"younger|faster|better|more|less)\b)"
        ),
        matches=("would be so much easier if i was just dead",),
        spares=("it would be better if i was there",),
    ),
    Rule(
        id="en.passive.wish_a_car_would_hit_me",
        category="passive_ideation",
        pattern=(
            r"\b(?:hope|hoping|wish|wishing|pray|praying) (?:that )?(?:a|some|the|someone|"
            r"somebody|something)? ?(?:\w+ ){0,3}?(?:hits|hit|kills|kill|would hit|will hit|"
            r"runs me over|run me over|would kill|will kill|ends|crashes into) me\b(?! (?:up|"
            r"back|with)\b)|\b(?:hope|hoping|wish|pray|praying) "
            r"(?:that )?(?:the|my) (?:plane|car|bus|train) (?:crashes|crash|hits|would crash)\b"
        ),
        matches=(
            "i wish a car would hit me on the way home",
            (
                "my endo keeps asking about my a1c, truth is i've been letting my sugar "
                "run high on purpose, hoping it ends me"
            ),
        ),
        spares=("a car nearly hit me on my bike, scary",),
    ),
    Rule(
        id="en.active.check_out_permanently",
        category="active_ideation",
        pattern=r"\bcheck(?:ing)? out (?:permanently|for good|of (?:life|this life|this world))\b",
        matches=("ready to check out permanently",),
        spares=("my character died permanently in hardcore mode, 200 hours gone",),
    ),
    Rule(
        id="en.intent.tonights_the_night",
        category="intent_plan",
        pattern=(
            r"\b(?:tonight|today|tomorrow)(?:s| is) the (?:night|day)\W+(?:i'm|im|i am|i'll|ill) "
            r"(?:finally |really )?(?:doing|going to do|gonna do|do) it\b\W*$"
        ),
        flags=("plan",),
        matches=("tonight's the night. i'm doing it",),
        spares=("tonight's the night, the finale airs",),
    ),
    Rule(
        id="en.intent.have_it_all_planned",
        category="intent_plan",
        pattern=(
            r"\b(?:have|got|had|i've|ive) (?:it|everything) (?:all )?(?:planned|figured|worked) out"
            r"\b(?=\W*$|.{0,30}\b(?:how|when|where|method|date)\b)|\b(?:know|knows|decided|"
            r"figured out|planned|picked|worked out) (?:exactly )?(?:when and how|how and when|"
            r"where and when|when and where|how and where)\b"
        ),
        flags=("plan",),
        matches=("i have it all planned out, when and how",),
        spares=("i have it all planned out, the party starts at 8",),
    ),
    Rule(
        id="en.intent.my_last_night_alive",
        category="intent_plan",
        pattern=(
            r"\b(?:this is|tonight is|today is|tonights|todays|it's|its) (?:going to be )?my "
            r"(?:very )?last (?:night|day) (?:alive|on earth|ever|of my life|breathing)\b"
        ),
        flags=("plan",),
        matches=("this is my last night alive",),
        spares=("this is my last week at this job",),
    ),
    Rule(
        id="en.prep.something_to_remember_me_by",
        category="preparatory",
        pattern=r"\bsomething to remember me by\b|\bto remember me by\b",
        matches=("i've been giving away my stuff so my friends have something to remember me by",),
        spares=(
            "this exam is going to be the death of me",
            "she gave me a photo, something to remember her by",
        ),
    ),
    Rule(
        id="en.passive.fine_if_i_died",
        category="passive_ideation",
        pattern=(
            r"\b(?:i'd|id|i would|i will|i'll) be (?:\w+ )?(?:fine|ok|okay|happy|glad|relieved|at "
            r"peace|"
            r"grateful) (?:if|when) i (?:just )?(?:died|die|was dead|were dead|didn't wake up|"
            r"never woke up|don't wake up|stopped existing|got hit)\b"
        ),
        matches=("id be fine if i died tonight",),
        spares=("if i died tomorrow at least i'd have seen paris lol",),
    ),
    Rule(
        id="en.active.unalive",
        category="active_ideation",
        pattern=(
            r"\bunaliv(?:e|ing)\b(?! (?:him|her|them|you|people|someone|others)\b)"
            r"(?! is a (?:word|term)\b| means\b)"
        ),
        matches=(
            "i wanna unalive",
            "thinking about unaliving",
        ),
        spares=(
            "my friend wants to unalive",
            "i'm glad i'm alive",
            "unalive is a word tiktok made up",
        ),
    ),
    Rule(
        id="en.intent.im_ending_it",
        category="intent_plan",
        pattern=(
            r"\b(?:i'm|im|i am) (?:\w+ )?(?:killing myself|ending it|ending my life|ending things|"
            r"ending it all|jumping off|overdosing|hanging myself|taking my life)\b(?! (?:with|"
            r"over|for|"
            r"at|to get|trying|on|by|doing|studying|working|cleaning|laughing|here|off|early|"
            r"between)\b)"
        ),
        matches=(
            "tonight i'm ending it",
            "i'm killing myself tomorrow",
        ),
        spares=("im ending it with him tonight",),
    ),
    Rule(
        id="en.method.looking_at_the_knife",
        category="method",
        pattern=(
            r"\b(?:looking|sitting here looking|holding|sitting with|staring) (?:at )?(?:the|my|a|"
            r"this) (?:\w+ )?(?:knife|blade|razor|rope|noose|pills|gun|pill bottle)\b"
            r"(?=.{0,40}\b(?:thinking|wondering|tempted|could|should|just end|do it)\b)|"
            r"\b(?:jump|jumping|throw myself|fall|falling) (?:off|from) (?:something|somewhere) "
            r"(?:high|tall|really high)\b"
        ),
        matches=(
            "i want to jump off something high",
            "looking at the knife in the kitchen and thinking",
        ),
        spares=("i'm scared i might do something stupid at the interview",),
    ),
    Rule(
        id="en.self_harm.relapsed_and_cut",
        category="self_harm",
        pattern=(
            r"\brelaps(?:e|ed|ing)\b(?:\s+\w+){0,3}? (?:cut|cutting|sh|self harm|self-harm|burning|"
            r"burned)\b(?! (?:my|the|a|some|out|down|back|off|class|carbs|ties|it)\b)|\b(?:i|and) "
            r"(?:\w+ )?(?:cut|cutting) (?:again|last night|yesterday|today|"
            r"this morning|tonight|deep|deeper)\b"
        ),
        matches=(
            "i relapsed on sh",
            "i started cutting again",
        ),
        spares=(
            "i relapsed and cut my hair short lol",
            "i cut again last night, the fabric for the dress",
        ),
    ),
    Rule(
        id="en.hopeless.never_going_to_get_better",
        category="hopelessness",
        pattern=(
            r"\b(?:can't|cant|cannot|don't|dont) see (?:any )?(?:way|how) (?:this|it|things|my "
            r"life|"
            r"anything|life) (?:\w+ )?(?:gets?|will get|could get|is going to get|can get|"
            r"would get) (?:any )?better\b(?! (?:without|until|till|unless)\b)"
            r"|\b(?:i'm|im|i am|i'll|ill|i will) never (?:going to |"
            r"gonna )?(?:be )?(?:happy|okay|ok|get better|feel better|be okay)\b(?! (?:with|about|"
            r"at|until)\b)"
        ),
        matches=(
            "i can't see any way this gets better",
            "i'm never going to be happy, why keep trying",
        ),
        spares=(
            "i can't do this exercise anymore today",
            "i cant see how it gets better without a new gpu lol",
        ),
    ),
    Rule(
        id="en.self_harm.want_to_hurt_myself_so_bad",
        category="self_harm",
        pattern=(
            r"\b(?:want|wanna|need|urge|urges|urging|craving|itching|tempted) (?:\w+ )?(?:to )?"
            r"(?:cut|burn myself|hurt myself|harm myself|sh|self harm|self-harm)(?: (?:again|so "
            r"bad|"
            r"so badly|tonight|right now|deep|deeper|really bad))*\b(?=\W*$|\W*(?:so|again|"
            r"right now|tonight|deep|really|badly|but|and|i)\b)"
        ),
        matches=(
            "i want to hurt myself so bad",
            "i want to hurt myself so bad right now",
        ),
        spares=("i wouldnt hurt myself",),
    ),
    Rule(
        id="en.burden.i_make_lives_worse",
        category="burden",
        pattern=(
            r"\bi (?:only |just |always )?(?:make|making|made) (?:everyone'?s|everybody'?s|their|"
            r"my family'?s|my parents'?|people'?s|every ?one'?s|everyones|everybodys|your) "
            r"(?:life|lives|day|days) (?:worse|harder|miserable|hell|a misery)\b"
        ),
        matches=("i only make everyones life worse",),
        spares=("i'm worried my sister wants to end her life",),
    ),
]

# Generalisations found by a third, blind writer: euphemisms, generic "you"/"they" in questions,
# reversed or looser word orders.
RULES.extend(
    [
        Rule(
            # "I just want to join my dad, he's been gone 2 years": to be with a dead relative.
            id="en.passive.want_to_join_the_dead",
            category="passive_ideation",
            pattern=(
                r"\b(?:{WANT}|ready|longing|can't wait) (?:\w+ ){0,2}?{TO} (?:go )?(?:join|be with|"
                r"see|go to|meet|be reunited with) (?:my |our )?(?:late )?(?:dad|daddy|father|mom|"
                r"mommy|mum|mummy|mother|mama|papa|grandma|grandmother|nan|nana|granny|grandpa|"
                r"grandad|granddad|grandfather|brother|sister|son|daughter|husband|wife|baby|"
                r"friend|best friend|bff|boyfriend|girlfriend|twin|him|her(?! (?:family|parents|"
                r"kids|children|friends|mum|mom|dad|husband|wife|brother|sister|son|daughter|"
                r"side|grave|things)\b)|them)(?: again)?\b"
                r"(?=[^.!?]{0,80}\b(?:gone|passed|died|dead|heaven|buried|funeral|grave|"
                r"lost (?:him|her|them)|since (?:he|she|they) (?:died|passed|left us)|up there|"
                r"other side|afterlife|rest in peace|rip)\b)"
            ),
            matches=(
                "ready to go see grandma in heaven",
                "i just want to join my dad, he's been gone 2 years and i'm so tired",
            ),
            spares=("i'm ready to go",),
        ),
        Rule(
            id="en.passive.wish_id_never_been_born",
            category="passive_ideation",
            pattern=(
                r"\b(?:wish|wished|wishing)(?: that)? i(?:'d| had| would have)? (?:never|not) "
                r"(?:been )?(?:born|existed)\b"
            ),
            matches=(
                "wish i'd never been born",
                "i wish i had never been born",
            ),
            spares=("I'd never hurt myself, I just need to vent",),
        ),
        Rule(
            # A question about "you" / "they" that is about the writer: "does anyone else pray
            # they won't wake up?", "do you ever wish you were dead?"
            id="en.passive.pray_they_wont_wake",
            category="passive_ideation",
            pattern=(
                r"\b(?:anyone|anybody|any1|you ever|u ever|is it normal to|is it weird to|"
                r"is it bad to|how do you stop) (?:else )?(?:\w+ ){0,2}?(?:pray|prays|hope|hopes|"
                r"wish|wishes|want|wants|wanna|fantasi[sz]e|think about) (?:\w+ ){0,2}?(?:they|you|"
                r"u|theyd|youd) (?:won't|wont|don't|dont|wouldn't|would never|will never|never|"
                r"didn't) (?:just )?wake up\b|\b(?:anyone|anybody|any1|you ever|u ever) (?:else )?"
                r"(?:\w+ ){0,2}?(?:pray|prays|hope|hopes|wish|wishes) (?:\w+ ){0,2}?(?:they|you|u) "
                r"(?:were|was|could be|would be) (?:dead|never born|gone)\b"
            ),
            matches=("Does anyone else pray they won't wake up in the morning?",),
            spares=("i won't be around on friday, can we move it",),
        ),
        Rule(
            # Looking up how high a place is: "googling which bridge is high enough".
            id="en.method.high_enough_to_die",
            category="method",
            pattern=(
                r"\b(?:{HIGH})\b[^.!?;\n]{0,40}?\b(?:high|tall) enough\b(?! (?:for (?:the|a|my|"
                r"our|kids|children|dogs?|cats?)|to (?:see|reach|get|dive|climb|hold|keep|stop)))|"
                r"\bhow (?:high|tall|many floors) (?:does|do|would|should|must) (?:a |the |an )?"
                r"(?:{HIGH}) (?:\w+ )?(?:need|have|has) to be\b"
            ),
            matches=(
                "how high does a building need to be to die",
                "i've been googling which bridge in the city is high enough",
            ),
            spares=("how long to boil an egg to make sure",),
        ),
        Rule(
            id="en.method.step_in_front_of_a_train",
            category="method",
            pattern=(
                r"\b(?:what if i|i could|wanna|want to|tempted to|urge to|feel like|thinking of|"
                r"thinking about|think about) (?:just )?(?:step|stepped|stepping|walk|walked|"
                r"walking|lie|lay|lying) (?:out )?(?:in front of|under|onto) (?:a |the |an |some |"
                r"oncoming |moving )?(?:\w+ )?{VEHICLE}\b"
            ),
            matches=(
                "i want to step in front of a train",
                "thinking of stepping in front of a train",
            ),
            spares=("i don't want to go on the trip",),
        ),
        Rule(
            # "letters to my sister, just in case i'm not around after this week".
            id="en.prep.in_case_im_not_around",
            category="preparatory",
            pattern=(
                r"\b(?:just )?in case i(?:'m| am|m)? (?:not|no longer) (?:around|here|alive)"
                r"(?: anymore| any more)?\b(?! (?:when|to|for|at|on|while|during|because|tomorrow "
                r"morning|this (?:morning|afternoon)|later)\b)|\bi (?:won't|wont|will not) be "
                r"(?:around|here|alive) (?:much |for )?(?:longer|long)\b"
            ),
            matches=(
                (
                    "wrote letters to my sister and my best friend, just in case i'm not "
                    "around after this week"
                ),
            ),
            spares=("i'm not suicidal, just tired",),
        ),
    ]
)

RULES.extend(
    [
        Rule(
            # Indifference to dying: "if i got hit by a car tomorrow i wouldn't mind".
            id="en.passive.wouldnt_mind_getting_hit",
            category="passive_ideation",
            pattern=(
                r"\b(?:if|when) i (?:got|get|was|were|just) (?:hit|run over|killed|died|"
                r"didn't wake "
                r"up|never woke up|don't wake up)\b[^.!?]{0,50}\b(?:i )?(?:wouldn't|would not|"
                r"won't|"
                r"wont|wouldnt) (?:even |really )?(?:mind|care)\b"
            ),
            matches=("honestly if i got hit by a car tomorrow i wouldnt mind",),
            spares=("got hit by a car last year but i'm fine now",),
        ),
        Rule(
            id="en.passive.not_scared_of_dying",
            category="passive_ideation",
            pattern=(
                r"\b(?:look|looking|looked) forward to (?:dying|death|being dead|my death|not "
                r"existing|not waking up)\b|\b(?:not|no longer|never) (?:scared|"
                r"afraid) of (?:dying|"
                r"death) (?:anymore|any more)\b|\b(?:peaceful|nice|easier|easy|good|a relief|"
                r"better|great|lovely|calm|quiet) (?:it )?(?:would|must|will) (?:be|feel) (?:to|if "
                r"i) (?:just )?(?:not exist|die|died|be dead|not be here|wasn't here|disappear|"
                r"stop existing|not wake up|never wake up|fall asleep forever|sleep forever)\b"
            ),
            matches=(
                "i'm not scared of dying anymore, i kind of look forward to it",
                "sometimes I think about how peaceful it would be to just not exist",
            ),
            spares=("dying for a nap",),
        ),
        Rule(
            # Means put away: "a bottle of sleeping pills hidden under my bed".
            id="en.prep.stockpiling_meds",
            category="preparatory",
            pattern=(
                r"\b(?:hidden|hiding|hid|stashed|stashing|stash of|stockpiled|stockpiling|hoarded|"
                r"hoarding|squirrel(?:l)?ed away)\b[^.!?]{0,40}\b{PILLS}\b|\b{PILLS}\b[^.!?]{0,40}"
                r"\b(?:hidden|hid|stashed|stockpiled|hoarded|squirrel(?:l)?ed away|put away for)\b"
            ),
            matches=(
                "i've been stockpiling my meds",
                "i have a stash of pills saved up",
            ),
            spares=("my plant died", "i've been stockpiling toilet paper"),
        ),
        Rule(
            id="en.hopeless.cant_see_myself_here",
            category="hopelessness",
            pattern=(
                r"\b(?:can't|cant|cannot|don't|dont) (?:see|imagine|picture) (?:myself|"
                r"me) (?:still "
                r")?(?:being )?(?:here|alive|around|living)\b(?! (?:in (?:this|that|the)|at "
                r"(?:this|that|the)|working|doing|with)\b)"
            ),
            matches=("i can't see myself still being here next year",),
            spares=("my sister burned her hand cooking",),
        ),
    ]
)

RULES.extend(
    [
        Rule(
            id="en.passive.disappointed_i_woke_up",
            category="passive_ideation",
            pattern=(
                r"\b(?:disappointed|upset|sad|angry|annoyed|pissed|gutted|"
                r"mad) (?:that )?i (?:woke up|"
                r"wake up|am still alive|'m still alive|survived|didn't die|am still here|'m still "
                r"here|keep waking up)\b|\b(?:wake up|woke up|waking up) (?:and )?(?:feel |"
                r"feeling )?"
                r"(?:disappointed|upset|angry) (?:that )?(?:i'm|im|i am) (?:still )?(?:alive|"
                r"here)\b"
            ),
            matches=("every morning i'm disappointed i woke up",),
            spares=(
                "it'd be nice to disappear for the weekend",
                "disappointed i missed the sunrise this morning",
            ),
        ),
        Rule(
            id="en.passive.want_to_stop_being_alive",
            category="passive_ideation",
            pattern=(
                r"\b{WANT} (?:\w+ ){0,2}?{TO} (?:just )?(?:stop|quit) (?:being alive|living|"
                r"breathing|existing|my life)\b(?! (?:in|with|like|for|under|at|off|paycheck)\b)"
            ),
            matches=("i want to stop being alive, is that weird?",),
            spares=("i want to stop working so hard",),
        ),
        Rule(
            id="en.hopeless.why_im_still_here",
            category="hopelessness",
            pattern=(
                r"\b(?:don't know|dont know|idk|not sure|no idea|wonder) why i(?:'m| am|m)? still "
                r"(?:here|alive|around|breathing|living|trying)\b(?! (?:at|in|on|with|working|"
                r"waiting)\b)|\bwhy am i still (?:here|alive|breathing)\b(?! (?:at|in|on|with|"
                r"working|waiting)\b)"
            ),
            matches=("idk why im still here honestly",),
            spares=("lol i'm dead 😂", "idk why the bus is still not here"),
        ),
        Rule(
            id="en.hopeless.tired_of_surviving",
            category="hopelessness",
            pattern=(
                r"\b(?:tired|sick|exhausted|done|weary) (?:of|with) (?:trying to |having to )?"
                r"(?:survive|surviving|stay alive|staying alive|keep going|keeping going|fighting "
                r"to live|fighting for my life|holding on|hold on)\b"
            ),
            matches=("nothing is ever going to change and i'm so tired of trying to survive",),
            spares=("I'm so tired of this rain",),
        ),
        Rule(
            id="en.method.at_the_railing",
            category="method",
            pattern=(
                r"\b(?:{HIGH})\b[^.!?;\n]{0,60}\b(?:think|thinking|thought|stare|staring|look|"
                r"looking) (?:about|at|of) (?:the )?(?:railing|railings|edge|ledge|drop|fall|"
                r"tracks|"
                r"water below|going over|climbing over)\b"
            ),
            matches=("i keep driving past the bridge and thinking about the railing",),
            spares=("I keep thinking about the knife skills class, it was fun",),
        ),
        Rule(
            # A chosen place and day: "i've already picked the spot and the day".
            id="en.intent.picked_the_spot_and_day",
            category="intent_plan",
            pattern=(
                r"\bi(?:'ve| have)? (?:already |finally |now )?(?:picked|chosen|chose|decided on|"
                r"set|found|planned|worked out) (?:out )?(?:the |a |my )?(?:spot|place|location|"
                r"date|"
                r"day|time|method|way) (?:and|&) (?:the |a |my )?(?:spot|place|location|date|day|"
                r"time|method|way)\b(?! (?:for|of) (?:the|our|my|a)\b)(?![^.!?]{0,40}\b(?:see you|"
                r"meet|"
                r"party|dinner|wedding|date night|trip|reservation|booking|meeting|interview)\b)"
            ),
            flags=("plan",),
            matches=("i've already picked the spot and the day",),
            spares=("god, take me to the beach already, this winter is endless",),
        ),
        Rule(
            # Affairs settled "because it's easier this way".
            id="en.prep.deleted_socials_gave_pet",
            category="preparatory",
            pattern=(
                r"\b(?:gave|giving|given|rehomed|rehoming|deleted|deleting|sold|cancell?ed|wiped) "
                r"(?:\w+ ){0,2}?(?:my|all my|all of my) (?:\w+ )?(?:dogs?|cats?|pets?|stuff|things|"
                r"belongings|possessions|savings|money|accounts?|socials|social media|plants|"
                r"clothes|books)\b[^.!?]{0,60}\b(?:it's|its|it is|it'll be|will be) (?:easier|"
                r"better|"
                r"simpler) "
                r"(?:this way|for everyone|for them|when i'm gone)\b"
            ),
            matches=(
                "deleted all my socials and gave my dog to my neighbour, it's easier this way",
            ),
            spares=("i can't take it anymore, this noise from the neighbours",),
        ),
        Rule(
            id="en.burden.ruining_lives_by_existing",
            category="burden",
            pattern=(
                r"\bi(?:'m| am|m)? (?:\w+ ){0,4}?(?:ruin|hurt|burden|disappoint|annoy|bother|make|"
                r"destroy)\w* (?:\w+ ){0,4}?(?:just |simply )?by (?:just |simply )?(?:existing|"
                r"being alive|being born|being here|breathing)\b"
            ),
            matches=("i feel like i'm just ruining everyone's life by existing",),
            spares=("i feel numb",),
        ),
    ]
)

RULES.extend(
    [
        Rule(
            id="en.passive.easier_if_i_didnt_exist",
            category="passive_ideation",
            pattern=(
                r"\b(?:easier|better|simpler|best) (?:for (?:\w+ ){1,2})?if i (?:just )?(?:didn't|"
                r"did not|didnt|never) (?:exist|existed|wake up|woke up|be born|was born)\b"
            ),
            matches=("wud be so much easier if i just didnt exist",),
            spares=("it will be easier if i am prepared",),
        ),
        Rule(
            # Means kept at hand "just in case".
            id="en.prep.razor_just_in_case",
            category="preparatory",
            pattern=(
                r"\b(?:keep|keeping|kept|carry|carrying|have|got) (?:a |my |the |some )?(?:razor|"
                r"razors|blade|blades|razor blades?|rope|noose|sleeping pills|lethal dose)\b"
                r"[^.!?]{0,30}\b(?:just in case|in case i need|for when i need|for emergencies|"
                r"for the right moment)\b"
            ),
            matches=("i keep a razor in my bag just in case",),
            spares=("i keep my meds in a drawer",),
        ),
        Rule(
            # Goodbye letters that clear the people left behind.
            id="en.prep.letters_not_your_fault",
            category="preparatory",
            pattern=(
                r"\b(?:letters?|notes?|messages?|writing|wrote|"
                r"write)\b[^.!?]{0,60}\bknows? (?:that )?"
                r"it (?:wasn't|was not|isn't|is not|wasnt|isnt) (?:their|your|anyone's|anyones|his|"
                r"her) fault\b|\b(?:letters?|notes?) to (?:everyone|everybody|all the people|each "
                r"person|all of those) i love\b"
            ),
            matches=("writing letters to everyone i love so they know it wasn't their fault",),
            spares=("i'm writing letters to my pen pals tonight",),
        ),
    ]
)

RULES.extend(
    [
        Rule(
            # An overdose already taken is an attempt in progress: L4 on its own.
            id="en.method.took_a_bunch_of_pills",
            category="method",
            pattern=(
                r"\b(?:took|swallowed|downed|taken|ate|overdosed on) (?:like |about |around |over |"
                r"almost )?(?:\d{2,}|all|every one of|the whole|a whole|a full|an entire|"
                r"a handful of|"
                r"a bunch of|loads of|way too many|too many)(?: of)? (?:my |the |his |her |mom's |"
                r"mums |those |these )?(?:\w+ )?(?:bottle of |pack of |box of |packet of |"
                r"strip of )?"
                r"{PILLS}\b(?![^.!?]{0,30}\b(?:this morning|today|as prescribed|prescribed|doctor|"
                r"on time|with (?:breakfast|dinner|food)|every day|daily|for my)\b)"
            ),
            flags=("plan",),
            matches=(
                "i took a bunch of my moms sleeping pills an hour ago",
                "i took 30 of my pills an hour ago",
            ),
            spares=("i took my pills this morning",),
        ),
        Rule(
            id="en.passive.want_the_pain_to_end_forever",
            category="passive_ideation",
            pattern=(
                r"\b{WANT} (?:\w+ ){0,2}?(?:the )?(?:pain|hurt|hurting|suffering|everything|"
                r"it all) "
                r"to (?:stop|end),? (?:\w+ )?(?:any way possible|any way i can|by any means|"
                r"no matter "
                r"how|one way or another|permanently|for good|forever)\b|\bnot (?:sleepy|"
                r"physically|"
                r"normal) tired\b.{0,20}?\b(?:the other kind|of (?:life|living|everything|"
                r"existing)|"
                r"soul)\b|\btired\b.{0,30}?\bsleep (?:can't|doesn't|won't|wont|cant|doesnt|"
                r"will not|"
                r"does not) fix\b"
            ),
            matches=(
                "i want everything to stop forever",
                "i just want the pain to end forever",
            ),
            spares=("I want to sleep forever on Sundays lol",),
        ),
        Rule(
            id="en.prep.see_you_on_the_other_side",
            category="preparatory",
            pattern=r"\bsee (?:you|u|ya|y'all|everyone|you all) on the other side\b(?! of\b)",
            matches=("see you on the other side",),
            spares=("see you on the other side of finals lol",),
        ),
        Rule(
            # Command hallucinations.
            id="en.active.voices_say_jump",
            category="active_ideation",
            pattern=(
                r"\b(?:voices?|the voice|something in my head)\b[^.!?]{0,20}\b(?:tell|tells|"
                r"telling|"
                r"told|say|says|saying|said|want|wants) (?:me )?(?:to|that i should|i should|"
                r"i have "
                r"to|i need to|i must) (?:jump|die|kill myself|end it|hurt myself|cut|do it)\b"
            ),
            matches=("the voices say i should jump",),
            spares=("i feel hopeful for once", "my coach says i should jump higher"),
        ),
    ]
)

RULES.extend(
    [
        Rule(
            # A means at hand that the person keeps coming back to ("there's a rope in the
            # garage and I keep thinking about it").
            id="en.method.the_rope_on_my_mind",
            category="method",
            pattern=(
                r"\b(?:rope|noose|gun|pistol|rifle|pills|tablets|blade|blades|razor|knife|belt|"
                r"ledge|bridge|tracks)\b[^.!?]{0,40}?\b(?:keep|kept|keeps|can't stop|cant stop|"
                r"been|always|constantly) (?:thinking|think) (?:about|of) (?:it|them|using it|"
                r"using them)\b"
                r"|\b(?:rope|noose|gun|pistol|rifle|shotgun|pills|tablets|blade|blades|razor|"
                r"belt|ledge|bridge|tracks)\b[^\n]{0,60}?\bi (?:think|thought) (?:about|of) "
                r"(?:it|them|using it|using them) (?:every|each) (?:night|day|evening|morning)\b"
            ),
            matches=("there's a rope in my garage and I keep thinking about it",),
            spares=("my grandma passed last week and i keep thinking about her funeral",),
        ),
        Rule(
            # Goodbyes left "in case": letters to the people who would be left.
            id="en.prep.letters_in_case",
            category="preparatory",
            pattern=(
                r"\b(?:letters?|notes?|messages?|videos?|voice notes?) (?:to|for) (?:my |all my |"
                r"each of my )?(?:\w+ )?(?:kids|children|family|parents|mom|mum|dad|wife|husband|"
                r"partner|friends|sister|brother|son|daughter|girlfriend|boyfriend)\b[^.!?]{0,30}?"
                r"\b(?:in case|if) (?:i|i'm) (?:don't|do not|won't|will not|am not|not) (?:make it|"
                r"survive|come back|wake up|here|around|alive)\b"
            ),
            matches=(
                "I wrote letters to my kids in case I don't make it through the weekend",
                (
                    "wrote letters to my sister and my best friend, just in case i'm not "
                    "around after this week"
                ),
            ),
            spares=(
                "my boss is going to kill me if i'm late",
                "I wrote letters to my kids while I was away at camp",
            ),
        ),
        Rule(
            # Rehearsal: standing at a height for a long time, or looking down.
            id="en.prep.stood_at_the_edge",
            category="preparatory",
            pattern=(
                r"\b(?:stood|standing|stand|was standing) (?:on|at|by) (?:the |a |that |my )?"
                r"(?:edge of (?:the |a )?)?(?:bridge|ledge|edge|cliff|rooftop|roof|railing|"
                r"parapet|train tracks|tracks|balcony railing)\b(?: (?:\w+ ){0,3}?)?(?:for (?:an|"
                r"one|two|a few|several|like an|almost an|over an) hours?|for hours|for ages|for "
                r"(?:a|so) long(?: time)?|looking down|staring down|staring at the (?:water|"
                r"ground|drop)|almost (?:jumped|went over|stepped off))\b"
                r"(?![^.!?]{0,30}\b(?:photos?|pictures?|view|sunset|sunrise|fireworks|waiting for|"
                r"queue|the bus|the train came|tour|guide)\b)"
            ),
            matches=(
                "I stood on the bridge for an hour yesterday",
                "I stood at the edge of the cliff looking down",
            ),
            spares=("we stood on the bridge for an hour taking photos of the sunset",),
        ),
        Rule(
            # Indifferent to dying, no future imagined, wondering what not existing is like.
            id="en.passive.okay_if_i_died",
            category="passive_ideation",
            pattern=(
                r"\bif i (?:died|die|were to die|was to die|didn't wake up)(?: \w+){0,2}?,? "
                r"i(?:'d| would)? (?:be )?(?:okay|ok|fine|alright|at peace|good) with (?:that|it)\b"
                r"|\bi (?:wouldn't|would not|won't|will not) mind (?:dying|being dead|if i died|"
                r"not waking up)\b"
                r"|\b(?:can't|cannot|can not|don't|do not) (?:imagine|see|picture) (?:myself )?"
                r"(?:being )?(?:alive|here|around|still alive|still here) (?:in|by|next|at) "
                r"(?!this (?:job|company|city|place|school))\w+"
                r"|\b(?:wonder\w*|imagin\w*|thinking) (?:about )?what it (?:would|'d|might) "
                r"(?:feel|be) like to (?:just )?(?:not exist|be dead|die|disappear|not be here|"
                r"stop existing)\b"
            ),
            matches=(
                "if i died tomorrow i'd be okay with that",
                "i can't imagine being alive in five years",
            ),
            spares=("if i died tomorrow at least i'd have seen paris lol",),
        ),
        Rule(
            # "Scared I might do something stupid tonight": the euphemism, with a time or "to
            # myself".
            id="en.intent.might_do_something_stupid",
            category="intent_plan",
            pattern=(
                r"\b(?:scared|afraid|worried|terrified|frightened) (?:that )?(?:i might|i'll|"
                r"i will|i'm going to|i am going to|i could) do something (?:stupid|dumb|bad|"
                r"drastic|terrible|crazy)(?: to myself)?"
                r"(?: (?:tonight|today|later|soon|this time|again))?"
                r"\b(?!\s*(?:at|in|during|with|on|when|if|while|before|after)\b)"
            ),
            matches=("im scared i might do something stupid tonight",),
            spares=("i'm scared i might do something stupid at the interview",),
        ),
        Rule(
            # "Everyone would be happier at my funeral."
            id="en.burden.happier_at_my_funeral",
            category="burden",
            pattern=(
                r"\b(?:happier|better off|relieved|glad|celebrat\w*|party|partying|dance|dancing)"
                r" (?:\w+ ){0,2}?at my (?:own )?(?:funeral|grave)\b"
            ),
            matches=(
                (
                    "work was fine i guess but honestly i've been thinking everyone would "
                    "be happier at my funeral"
                ),
            ),
            spares=("my grandma died last week and i want to be with her family at the funeral",),
        ),
        Rule(
            # At the wheel, or in front of a means for a long time.
            id="en.method.let_go_of_the_wheel",
            category="method",
            pattern=(
                r"\b(?:let go of|letting go of|take my hands off|taking my hands off) the "
                r"(?:steering )?wheel\b|\b(?:look|looked|looking|stare|stared|staring) at (?:the |"
                r"my |a |those |these )?(?:knives|knife|blades?|razors?|pills|tablets|rope|noose|"
                r"gun)\b[^.!?]{0,40}?\b(?:for (?:a long time|an hour|hours|ages|so long|a while)|"
                r"a long time)\b"
            ),
            matches=(
                "i looked at the knives in the kitchen for a long time last night",
                "sometimes when i'm driving i think about just letting go of the wheel",
            ),
            spares=("i looked at knives in the shop for my new kitchen",),
        ),
        Rule(
            # No point in anything, self included.
            id="en.hopeless.dont_see_the_point",
            category="hopelessness",
            pattern=(
                r"\b(?:don't|do not|can't|cannot|no longer) (?:really |even )?see (?:the|any) "
                r"point (?:in|of) (?:anything|everything|living|life|going on|me|myself|existing|"
                r"trying)\b"
            ),
            matches=("i don't really see the point in anything, including me",),
            spares=("i dont see the point of this meeting",),
        ),
        Rule(
            # A plan with a date, and the means laid out.
            id="en.intent.plan_and_a_date",
            category="intent_plan",
            pattern=(
                r"\bi (?:have|'ve got|got|now have) (?:a |my )?plan and (?:a |the )?(?:date|time|"
                r"place|method|day)\b(?! (?:for|to|of)\b)"
            ),
            flags=("plan",),
            matches=("i have a plan and a date",),
            spares=("i have a plan and a date for the wedding",),
        ),
        Rule(
            id="en.prep.meds_in_one_pile",
            category="preparatory",
            pattern=(
                r"\b(?:meds|pills|tablets|medication|sleeping pills|painkillers)\b[^.!?]{0,20}?"
                r"\b(?:in (?:one|a) (?:pile|heap|stack|row|line)|lined up|counted out|laid out|"
                r"all out on (?:the|my) (?:table|desk|bed))\b"
            ),
            matches=("my meds are all in one pile now",),
            spares=("i cried all morning",),
        ),
        Rule(
            # Cutting kept up, or cutting to feel.
            id="en.self_harm.been_cutting",
            category="self_harm",
            pattern=(
                r"\b(?:keep|kept|been|started|start|still) cutting\b(?! (?:\w+ )?(?:hair|back|"
                r"down|costs?|corners|class|classes|onions?|vegetables|veggies|wood|paper|fabric|"
                r"coupons|ties|people off|in|out|the|them|it|him|her|sugar|carbs|meat|grass))"
                r"|\bcut(?:ting)? (?:my ?self )?(?:just )?to (?:feel|be able to feel) (?:something|"
                r"anything|alive|real|better|numb|in control)\b"
            ),
            matches=(
                "i've been cutting again",
                "i started cutting again",
            ),
            spares=("cutting back on coffee",),
        ),
        Rule(
            # Disappearing for good.
            id="en.passive.disappear_never_come_back",
            category="passive_ideation",
            pattern=(
                r"\b(?:disappear|vanish|go away|fade away)\b (?:and|&) never (?:come back|return|"
                r"be found|wake up|be seen again)\b"
            ),
            matches=("i want to disappear and never come back",),
            spares=("i want to disappear for the weekend and turn my phone off",),
        ),
        Rule(
            # Unsure of wanting to wake up, to live.
            id="en.passive.not_sure_i_want_to_wake",
            category="passive_ideation",
            pattern=(
                r"\b(?:not sure|not certain|don't know if|do not know if|unsure if|unsure whether|"
                r"not sure if|not sure whether|don't even know if) i (?:even |really |still )?"
                r"(?:want|wanna) (?:to )?(?:wake up|be alive|live|keep living|keep going on|exist|"
                r"be here anymore|see tomorrow|make it to tomorrow)\b"
            ),
            matches=("honestly i'm not sure i want to wake up tomorrow",),
            spares=("i don't want to wake up early tomorrow",),
        ),
        Rule(
            # "Easier for everyone if I wasn't here."
            id="en.burden.happier_if_i_was_gone",
            category="burden",
            pattern=(
                r"\b(?:easier|better|happier|lighter|simpler|fine|relieved|better off|safer)\b"
                r"[^.!?]{0,40}?\bif i (?:wasn't|weren't|was not|were not|was gone|were gone|"
                r"was dead|were dead|didn't exist|did not exist|disappeared|wasn't here|"
                r"wasn't around|weren't around)\b"
                r"(?! (?:for|at|during|on|in|until|till|this|next|tonight|today|tomorrow)\b)"
            ),
            matches=(
                "they'd be relieved if i was gone",
                "everyone would be happier if i was gone",
            ),
            spares=("it would be better if i was there",),
        ),
        Rule(
            # Planning how, wanting out of life, no way out but death.
            id="en.intent.planning_how_id_do_it",
            category="intent_plan",
            pattern=(
                r"\b(?:started|been|begun|began|am|i'm) planning (?:out )?(?:how|when|where) "
                r"(?:i'd|i would|i will|i'll|i'm going to|to) (?:do it|end it|go through with it)\b"
                r"(?!\s*[-:,—]\s*\w)"
            ),
            matches=("i've started planning how i'd do it",),
            spares=("I planned how I'd do the presentation",),
        ),
        Rule(
            id="en.passive.want_out_of_this_life",
            category="passive_ideation",
            pattern=(
                r"\b(?:want|wanna|need|wish i could) (?:out of|to get out of|to check out of|to "
                r"escape|to leave) (?:this|my) (?:life|existence|world)\b|\bno way out\b"
                r"[^.!?]{0,30}?\b(?:except|but|other than) (?:dying|death|to die|killing myself|"
                r"ending it|suicide)\b|\b(?:any|a|no|the only) way out\b[^.!?]{0,30}?\b(?:except|"
                r"but|other than|is) (?:dying|death|to die|killing myself|ending it|suicide)\b"
            ),
            matches=(
                "i'm so done, i just want out of this life",
                "i can't see any way out of this except dying",
            ),
            spares=("i want to live a long life",),
        ),
        Rule(
            # Not expecting to be here much longer.
            id="en.passive.wont_be_around_much_longer",
            category="passive_ideation",
            pattern=(
                r"\b(?:won't|will not|don't think i'll|do not think i'll|doubt i'll|not going to|"
                r"probably won't|i might not) be (?:around|here|alive) (?:for )?"
                r"(?:(?:much|very|that)? ?(?:longer|long)|by (?:christmas|my birthday|new year|"
                r"next (?:week|month|year|summer)|the end of (?:the )?(?:week|month|year|summer)|"
                r"spring|summer|the weekend)|to see (?:christmas|my birthday|next year|"
                r"the new year|"
                r"another (?:year|birthday|christmas)))\b(?![^.!?]{0,40}\b(?:moving|move|moved|"
                r"flying|flight|trip|travel\w*|holiday|vacation|visa|contract|relocat\w*|"
                r"transfer\w*|abroad|new job)\b)(?! (?:at|in|with) (?:this|the|my) "
                r"(?:company|job|team|office|city|town|school|place|house|flat|apartment|club|"
                r"country)\b)"
            ),
            matches=(
                "i dont think ill be here by christmas",
                "i dont think ill be around much longer tbh",
            ),
            spares=("i'm writing a will now that we have a baby",),
        ),
        Rule(
            # Dwelling on one's own death or funeral.
            id="en.passive.imagining_my_funeral",
            category="passive_ideation",
            pattern=(
                r"\b(?:imagin|pictur|fantasi[sz]|daydream|dream)\w* (?:about |of )?(?:my (?:own )?"
                r"(?:funeral|death|grave)|being dead|not being here|not existing)\b"
            ),
            matches=("i keep imagining my own funeral and it feels peaceful",),
            spares=("my grandma passed last week and i keep thinking about her funeral",),
        ),
        Rule(
            # Affairs put in order: the will written and belongings or pets given away.
            id="en.prep.updated_will_and_gave",
            category="preparatory",
            pattern=(
                r"\b(?:updated|wrote|made|finished|sorted|redid|changed) (?:out )?my will\b"
                r"[^.!?]{0,60}?"
                r"\b(?:gave|giving|given|rehomed|found (?:a )?(?:new )?home for)\b"
                r"|\b(?:gave|giving|given|rehomed) (?:away )?(?:my|all my) \w+[^.!?]{0,60}?"
                r"\b(?:updated|wrote|made|finished|sorted) (?:out )?my will\b"
            ),
            matches=("I updated my will and gave my cat to my neighbour",),
            spares=("the pills my doctor gave me help a lot",),
        ),
        Rule(
            # Hurting oneself as a punishment.
            id="en.self_harm.starving_myself",
            category="self_harm",
            pattern=(
                r"\b(?:starv|punish|hurt|burn|hit|bruis|scratch)\w* (?:my ?self)\b[^.!?]{0,40}?"
                r"\b(?:as (?:a )?punishment|to punish (?:my ?self|me)|because i deserve(?: it)?|"
                r"for (?:days|a week|weeks|two weeks))\b|\bpunish (?:my ?self) (?:by|with) "
                r"(?:cutting|burning|starving|hitting|not eating|scratching)\b"
            ),
            matches=("I've been starving myself for a week as punishment",),
            spares=("cut myself shaving again lol",),
        ),
    ]
)

# Round 7: understated wishes, conditionals, means named without a pill word, goodbyes "for after".
RULES.extend(
    [
        Rule(
            # "it'd be nice to just stop existing", "how peaceful it would be to be gone".
            id="en.passive.nice_to_stop_existing",
            category="passive_ideation",
            pattern=(
                r"\b(?:it'd|itd|it would|would|it will|it'll|it must|must|it might|might) (?:\w+ )?"
                r"be (?:so |really |kind of |kinda |sort of |quite |just )?(?:nice|peaceful|"
                r"easier|easy|a relief|better|good|lovely|calm|restful|quiet|a mercy|freeing) "
                r"(?:to|if i) (?:just |finally |simply )?(?:stop existing|stopped existing|"
                r"not exist|"
                r"didn't exist|die|died|be dead|was dead|be gone|was gone|not be here|wasn't here|"
                r"not be around|never wake up|not wake up|didn't wake up|go to sleep forever|"
                r"sleep forever|disappear forever|vanish forever|not be alive|cease to exist)\b"
                r"(?! (?:for (?:a|the|one|two|an?)|from|on|at|to)\b)"
                r"|\b(?:peaceful|nice|easier|easy|a relief|better|good|lovely|calm|quiet|restful) "
                r"(?:it )?(?:would|must|will|might) (?:be|feel) (?:to|if i) (?:just )?(?:be gone|"
                r"was gone|not be around|cease to exist|not be alive|not be here)\b"
                r"(?! (?:for (?:a|the|one|two|an?)|from|on|at|to)\b)"
            ),
            matches=(
                "been thinking how peaceful it would be to be gone",
                "sometimes i think it'd be nice to just stop existing for good",
            ),
            spares=("i would be happy if i got the job",),
        ),
        Rule(
            # "wouldn't mind if a bus hit me", "don't care if something happened to me".
            id="en.passive.wouldnt_mind_a_bus",
            category="passive_ideation",
            pattern=(
                r"\b(?:wouldn't|would not|won't|will not|don't|do not|wouldn't even|would honestly "
                r"not) (?:even |really |honestly |actually )?(?:mind|care|be sad|be upset|cry) "
                r"(?:if|when) (?:a|an|the|some) (?:\w+ )?(?:bus|car|truck|lorry|van|train|tram|"
                r"plane|"
                r"meteor|asteroid|driver|drunk driver|lightning|tree)\b[^.!?]{0,15}?\b(?:hit|hits|"
                r"killed|kills|ran over|runs over|run over|crashed into|crashes into|struck|"
                r"strikes|"
                r"fell on|falls on|took|takes) me\b(?! (?:up|back|with)\b)"
                r"|\b(?:wouldn't|would not|don't|do not) (?:even |really |honestly )?(?:mind|care) "
                r"(?:if|when) (?:something|anything) (?:bad )?(?:happened|happens|were to happen) "
                r"to me\b"
            ),
            matches=("wouldnt mind if a bus hit me tbh",),
            spares=("i wouldnt hurt myself",),
        ),
        Rule(
            # "I pray every night that god just takes me", "begging god to let me die".
            id="en.passive.pray_god_takes_me",
            category="passive_ideation",
            pattern=(
                r"\b(?:pray|prays|prayed|praying|hope|hoping|wish|wishing|beg|begging|begged|ask|"
                r"asking|asked) (?:\w+ ){0,3}?(?:that )?(?:god|the lord|jesus|allah|the universe|"
                r"death|someone up there|whoever is up there|the gods)(?: would| will| could| to)?"
                r"(?: just| finally| please)? (?:take|takes|took|come for|comes for|call|calls) me"
                r"(?: (?:away|home|already|now|tonight|in my sleep|soon))?\b(?! (?:to|through|"
                r"under|by|back|seriously|into|out|on)\b)"
                r"|\b(?:pray|prays|prayed|praying|beg|begging|begged|ask|asking|asked) (?:\w+ )?"
                r"(?:god|the lord|jesus|allah|the universe) (?:to |would |will )?(?:just )?"
                r"(?:let me die|let me go|end my life|end it|kill me|not let me wake up)\b"
            ),
            matches=("i pray every night that god just takes me",),
            spares=("thanks for everything, heading to the roof for the party",),
        ),
        Rule(
            # "i hope the plane goes down on my trip".
            id="en.passive.hope_the_plane_goes_down",
            category="passive_ideation",
            pattern=(
                r"\b(?:hope|hoping|wish|wishing|pray|praying) (?:that )?(?:the|my|our) (?:plane|"
                r"flight|car|bus|train|ferry|boat|taxi|coach) (?:just )?(?:goes down|would go down|"
                r"crashes|would crash|falls out of the sky|comes down|sinks|would sink|"
                r"goes off the "
                r"road|flips)\b(?! (?:safely|smoothly|on time|early|soon|in price)\b)"
            ),
            matches=("is it bad that i kinda hope the plane goes down on my trip",),
            spares=("i hope the plane lands safely",),
        ),
        Rule(
            # How high a fall would have to be not to survive it.
            id="en.method.how_high_a_fall",
            category="method",
            pattern=(
                r"\bhow (?:high|tall|far|deep|many floors) (?:\w+ ){0,5}?(?:to not survive|not to "
                r"survive|so (?:i|you) (?:don't|wouldn't|won't|can't) survive|to not wake up|"
                r"to never wake up|to be deadly|for it to (?:kill|be fatal))\b"
                r"|\bhow (?:high|tall|far|deep|many floors) (?:\w+ ){0,5}?(?:fall|jump|drop|{HIGH})"
                r"\b(?:\s+\w+){0,4}? (?:to make sure|to be sure|to be certain|to guarantee|"
                r"for certain|to die)\b"
            ),
            matches=(
                "how high does a building need to be to die",
                "wondering how high a fall has to be to not survive it",
            ),
            spares=("i'm reading a novel where the hero wants to die",),
        ),
        Rule(
            # Knowing which place or means one would use.
            id="en.method.know_which_bridge",
            category="method",
            pattern=(
                r"\b(?:know|knew|picked|chosen|chose|decided|decided on|figured out|worked out|"
                r"found) "
                r"(?:exactly |already |out )?(?:which|what|the) (?:one |exact )?(?:{HIGH}|rope|"
                r"belt|gun|knife|blade|razor|pills|{PILLS}|tracks|train|spot|place|tree|method|"
                r"way) (?:i'd|i would|id) (?:use|jump from|jump off|take|go to|do it (?:with|at|"
                r"from))\b"
            ),
            matches=("i know exactly which bridge i'd use",),
            spares=("i know exactly which train i'll take to get home",),
        ),
        Rule(
            id="en.intent.chosen_the_one_ill_use",
            category="intent_plan",
            pattern=(
                r"\b(?:know|knew|picked|chosen|chose|decided on|figured out|worked out|found) "
                r"(?:exactly |already |out )?(?:which|what|the) (?:one |exact )?(?:{HIGH}|rope|"
                r"belt|gun|knife|blade|razor|pills|{PILLS}|tracks|train|spot|place|tree|method|"
                r"way) (?:i'll|ill|i will|i'm going to|im going to|i'm gonna|im gonna|to) (?:use|"
                r"jump from|jump off|take|go to|do it)\b(?! (?:for (?:the|my|our|a) (?:trip|party|"
                r"wedding|holiday|project|presentation|essay|exam|class)|to get (?:there|home))\b)"
            ),
            flags=("plan",),
            matches=("i know exactly which bridge i'll use",),
            spares=("i know exactly which train i'll take to get home",),
        ),
        Rule(
            # A whole bottle or box taken, the pills not named.
            id="en.method.taking_the_whole_bottle",
            category="method",
            pattern=(
                r"\b(?:take|taking|took|swallow|swallowing|swallowed|down|downing|downed|chug|"
                r"chugging|neck|necking|empty|emptying) (?:the |a |my |that |this )?(?:whole|"
                r"entire|"
                r"full|last) (?:bottle|box|pack|packet|strip|blister|tub|jar|pot)\b(?! (?:of (?!"
                r"{PILLS}|sleeping|pain)|to|with|home|back|out|along|for|in|on|into|off)\b)"
            ),
            matches=("once the kids are asleep im taking the whole bottle",),
            spares=("i'm taking the whole bottle of wine to the party",),
        ),
        Rule(
            # Driving into water or off a height, said as an intent.
            id="en.intent.going_to_drive_off",
            category="intent_plan",
            pattern=(
                r"\b{INTENT} (?:\w+ ){0,2}?(?:drive|driving|crash|crashing|steer|steering|swerve) "
                r"(?:my |the )?(?:car )?(?:into|off) (?:a |the |an |oncoming )?(?:\w+ )?(?:wall|"
                r"tree|bridge|cliff|traffic|pole|barrier|river|lake|truck|lorry|sea|quarry|pier)\b"
            ),
            matches=(
                "im going to drive my car off the bridge after work",
                "planning to drive my car into the river when i get off work",
            ),
            spares=("i jumped off the diving board today",),
        ),
        Rule(
            # Letters left "for after", "for when i'm gone".
            id="en.prep.letters_left_for_after",
            category="preparatory",
            pattern=(
                r"\b(?:letters?|notes?|messages?|videos?|voice notes?|cards?)\b[^.!?]{0,60}?"
                r"\bfor (?:after(?=\s*(?:$|[.,!?;]|i'm gone|im gone|i go|i die))|afterwards|"
                r"when i'm gone|when im gone|when i'm not (?:here|around)|when i die|once i'm gone|"
                r"after i'm gone|after i die)"
            ),
            matches=("wrote letters to my mum and my brother, left them in my desk for after",),
            spares=("my plan for tonight is to take a bath and go to bed early",),
        ),
        Rule(
            # Deleting one's accounts and giving things away, or tying up loose ends.
            id="en.prep.deleted_socials_gave_away",
            category="preparatory",
            pattern=(
                r"\b(?:deleted|deleting|closed|closing|wiped|deactivated|"
                r"deactivating) (?:\w+ ){0,2}?"
                r"(?:accounts?|socials|social media|profiles?|instagram|facebook|"
                r"tiktok)\b[^.!?]{0,50}?"
                r"\b(?:gave|giving|given|give|rehomed|rehoming|sold|selling) (?:away )?(?:all )?"
                r"(?:of )?(?:my|the) \w+|\b(?:gave|giving|given|give|rehomed|rehoming) (?:away )?"
                r"(?:all )?(?:of )?my \w+[^.!?]{0,50}?\b(?:deleted|deleting|closed|closing|wiped|"
                r"deactivated) (?:\w+ ){0,2}?(?:accounts?|socials|social media|profiles?)\b"
                r"|\b(?:gave|giving|given|give|rehomed|deleted|deleting|sold|selling) (?:away )?"
                r"(?:all )?(?:of )?my (?:\w+ )?(?:stuff|things|belongings|possessions|socials|"
                r"accounts|pets?|cats?|dogs?)\b[^.!?]{0,50}?\b(?:tying|tie|tied|wrapping|wrap) up "
                r"(?:all )?(?:the |my )?(?:loose ends|things)\b"
            ),
            matches=(
                "deleted all my socials and gave away my stuff, feels like tying up loose ends",
                "deleted all my socials and gave my dog to my neighbour, it's easier this way",
            ),
            spares=(
                "i gave away my old clothes to charity",
                "deleted instagram for a month to focus on exams",
            ),
        ),
        Rule(
            # Looking up the dose that would kill.
            id="en.prep.dose_that_would_kill",
            category="preparatory",
            pattern=(
                r"\b(?:the |a |what |which )?(?:dose|amount|dosage|quantity|number of (?:pills|"
                r"tablets))\b(?:\s+\w+){0,3}? (?:that |which )?(?:would|will|could|'d|can|is "
                r"enough to|it takes to) (?:kill|be fatal|be lethal|stop (?:my|a|the) heart)\b"
                r"(?! (?:a|the|an|my|your|his|her) (?:dog|cat|horse|elephant|rat|mouse|bacteria|"
                r"germs|weeds|pests|bugs|virus|infection|fish|plant)s?\b)(?! (?:bacteria|germs|"
                r"weeds|pests|bugs|lice|mold|mould|viruses)\b)"
            ),
            matches=("looked up the dose that would kill someone my weight",),
            spares=(
                "that workout killed me",
                "looked up the dose of ibuprofen for my son's weight",
            ),
        ),
        Rule(
            # Hurting oneself on purpose: until the knuckles bleed, the head against a wall.
            id="en.self_harm.hurt_myself_on_purpose",
            category="self_harm",
            pattern=(
                r"\b(?:punch|punching|punched|hit|hitting|bang|banging|banged|bash|bashing|slam|"
                r"slamming|scratch|scratching|scratched|pick|picking|picked|bite|biting|bit|claw|"
                r"clawing|dig|digging|pinch|pinching|squeeze|squeezing)\b[^.!?]{0,40}?\b(?:until|"
                r"till|til|untill) (?:my (?:knuckles|hands?|fists?|arms?|skin|legs?|head|nose|"
                r"lips?|"
                r"fingers?|wrists?|thighs?|scalp|nails|face)|it) (?:\w+ )?(?:bleed|bleeds|bled|"
                r"bleeding|bruise|bruises|bruised|are raw|is raw|split|splits|swell|swells|broke|"
                r"break|crack|cracked)\b"
                r"|\b(?:hit|hitting|slam|slamming|slammed|smash|smashing|smashed|bash|bashing|"
                r"bashed|"
                r"knock|knocking) my head (?:against|into|on) (?:the |a )?(?:wall|walls|floor|door|"
                r"desk|table|mirror|steering wheel)\b(?=[^.!?]{0,40}\b(?:when i(?:'m| am| get|"
                r" feel)?|"
                r"on purpose|until|till|over and over|again and again|repeatedly|to (?:feel|stop|"
                r"punish|calm|make)|because i|every time|whenever)\b)"
                r"|\b(?:punch|punching|punched|hit|hitting|burn|burning|burned|burnt|scratch|"
                r"scratching|bruise|bruising|bruised|cut|cutting|hurt|hurting) (?:my ?self|walls?|"
                r"the wall|a wall|my (?:arms?|wrists?|legs?|thighs?|skin|hands?|knuckles|fists?|"
                r"head|"
                r"face|stomach|body))(?: \w+){0,3}?,? (?:on purpose|deliberately|intentionally)\b"
            ),
            matches=(
                "i punched myself until it bled",
                "i burned myself with a lighter on purpose",
            ),
            spares=(
                "i didn't cut my hand on purpose",
                "i wouldnt hurt myself",
            ),
        ),
        Rule(
            # Not eating as a punishment: "i don't deserve food".
            id="en.self_harm.dont_deserve_food",
            category="self_harm",
            pattern=(
                r"\b(?:don't|do not|dont) deserve (?:to eat|food|to be fed|dinner|meals?|a meal|"
                r"anything to eat)\b|\b(?:won't|will not|don't|do not|"
                r"not) let(?:ting)? myself eat\b"
                r"(?! (?:junk|sweets|sugar|chocolate|cake|after|before|late|past|fast food|crisps|"
                r"chips|carbs|snacks|dessert|meat|dairy)\b)|\bnot letting myself eat\b(?! (?:junk|"
                r"sweets|sugar|chocolate|cake|after|before|late|past|fast food|crisps|chips|carbs|"
                r"snacks|dessert|meat|dairy)\b)"
            ),
            matches=("havent eaten in 3 days, i dont deserve food",),
            spares=("drop dead gorgeous dress", "havent eaten in 3 days because of the flu"),
        ),
        Rule(
            # Others would gain if the writer weren't there: "they'd save so much money".
            id="en.burden.save_money_if_i_wasnt_here",
            category="burden",
            pattern=(
                r"\b(?:they'd|theyd|they would|everyone would|everybody would|my family would|"
                r"my parents would|my mum would|my mom would|my dad would|my wife would|"
                r"my husband would|my kids would|you'd|you would|we'd|we would|people would) "
                r"(?:\w+ ){0,3}?(?:save|have|spend|get|gain|"
                r"keep)\b[^.!?]{0,30}?\bif i (?:(?:wasn't|"
                r"weren't|was not|were not)(?: (?:here|around|alive|born|in the picture|in their "
                r"lives))?(?=\s*(?:$|[.,!?;]|any ?more|tbh|honestly|lol|and|but|so)\b)|was gone|"
                r"were gone|was dead|were dead|died|didn't exist|disappeared)\b"
                r"(?! (?:for|at|during|on|in|until|till|this|next|tonight|today|tomorrow|home|"
                r"there)\b)"
            ),
            matches=("they'd save so much money if i wasnt here",),
            spares=("they'd have more room if i wasn't living at home",),
        ),
        Rule(
            # Holding oneself under the water.
            id="en.method.holding_myself_under",
            category="method",
            pattern=(
                r"\b(?:hold|holding|held|keep|keeping|push|pushing|pushed|stay|"
                r"staying) (?:my ?self|"
                r"my head|me) under\b(?: (?:the )?water)?(?=[^.!?]{0,30}\b(?:until|till|and not|"
                r"never|forever|for good|die|drown|stop breathing)\b|\s*(?:[,.!?;]|$|and\b|"
                r"anyway\b|"
                r"but\b))"
            ),
            matches=(
                (
                    "ok so the exam went badly and my parents are furious and i just sat in "
                    "the bath thinking about holding myself under, anyway sorry for the "
                    "rant"
                ),
            ),
            spares=(
                "I cut myself chopping onions",
                "i held my breath under water at the pool for a minute",
            ),
        ),
        Rule(
            # A lethal means one would already have used: "if i had a gun i'd have used it".
            id="en.method.if_i_had_a_gun",
            category="method",
            pattern=(
                r"\bif i (?:had|owned|could get|got|had access to|could find|could buy|kept) "
                r"(?:a |the |some |my )?(?:gun|pistol|rifle|shotgun|rope|noose|enough (?:pills|"
                r"sleeping pills|{PILLS})|sleeping pills|lethal dose|way to do it)\b[^.!?]{0,30}?"
                r"\b(?:i'd|i would|id) (?:have )?(?:already |probably |definitely |honestly )?"
                r"(?:used it|use it|done it|do it|ended it|end it|taken them|take them|shot myself|"
                r"shoot myself|hanged myself|hang myself|be gone|be dead|be done|not be here)\b"
            ),
            matches=("honestly if i had a gun i'd have used it by now",),
            spares=("i'd kill to have your hair",),
        ),
    ]
)

# Round 7, the check written after the fixes: things handed out "now rather than later",
# the mind going back to a means, the engine running in a closed garage, sleep one stays in.
RULES.extend(
    [
        Rule(
            id="en.prep.handing_things_out",
            category="preparatory",
            pattern=(
                r"\b(?:giving|gave|give|given|handing|handed|passing|passed|selling|sold) (?:away |"
                r"out |on |down )?(?:all )?(?:of )?my (?:\w+ )?(?:stuff|things|belongings|"
                r"possessions|"
                r"clothes|books|games|consoles?|jewel\w*|guitar|collection|records|vinyls?|savings|"
                r"art|paintings|plants|shoes)\b(?: (?:away|out|on))?(?=[^.!?]{0,60}\b(?:now rather "
                r"than later|rather than later|before i go(?=\s*(?:$|[.,!?;]))|while i (?:still )?"
                r"can(?=\s*(?:$|[.,!?;]))|to remember me by|won't be needing|no use to me)\b)"
            ),
            matches=(
                (
                    "been handing my games out to my cousins, figure they should have them "
                    "now rather than later"
                ),
                "i've been giving away my stuff so my friends have something to remember me by",
            ),
            spares=("handing my books out to students before i go on holiday",),
        ),
        Rule(
            # "my mind keeps going back to the pills in the cabinet".
            id="en.method.mind_goes_to_the_pills",
            category="method",
            pattern=(
                r"\b(?:my mind|my thoughts|my head|my brain) (?:keeps?|kept|always|just) (?:going|"
                r"going back|"
                r"drifting|wandering|coming back|returning|circling back) to (?:the|my|those|that|"
                r"these) (?:\w+ ){0,2}?(?:pills|tablets|meds|sleeping pills|painkillers|rope|noose|"
                r"knife|knives|blade|blades|razor|razors|gun|bridge|tracks|ledge|rooftop|roof|"
                r"balcony|medicine cabinet|pill bottle)\b(?! (?:drawer|block|set|rack|shop|store|"
                r"aisle|"
                r"bar|garden|party|cafe|restaurant)\b)"
            ),
            matches=("my mind keeps going to the pills in the bathroom cabinet",),
            spares=("i'm going to take my pills now",),
        ),
        Rule(
            # "i keep imagining everyone at my grave".
            id="en.passive.everyone_at_my_grave",
            category="passive_ideation",
            pattern=(
                r"\b(?:imagin|pictur|fantasi[sz]|daydream|dream|think)\w* (?:about |of )?"
                r"(?:\w+ ){0,3}?(?:at|around|by|beside|near|crying at|standing at) my (?:own )?"
                r"(?:funeral|grave|coffin|memorial|headstone|casket)\b"
            ),
            matches=("i keep imagining everyone at my grave and it doesnt even scare me",),
            spares=("i have a plan for my career", "i keep imagining everyone at my wedding"),
        ),
        Rule(
            # Sitting in a car in a closed garage with the engine running.
            id="en.method.engine_running_in_garage",
            category="method",
            pattern=(
                r"\b(?:sat|sit|sitting|stayed|stay|staying|waited|lay|lying|locked myself)\b"
                r"[^.!?]{0,30}?\b(?:car|van)\b[^.!?]{0,30}?\bgarage\b[^.!?]{0,30}?\b(?:engine|"
                r"motor) "
                r"(?:running|on|idling|going)\b(?![^.!?]{0,30}\b(?:warm|door (?:open|up)|"
                r"by mistake|"
                r"accident\w*|forgot)\w*)"
                r"|\b(?:sat|sit|sitting|stayed|stay|staying|waited|lay|"
                r"lying)\b[^.!?]{0,30}?\bgarage\b"
                r"[^.!?]{0,30}?\b(?:engine|motor) (?:running|on|idling)\b(?![^.!?]{0,30}\b(?:warm|"
                r"door (?:open|up)|by mistake|accident\w*|forgot)\w*)"
            ),
            matches=("sat in my car in the garage with the engine running for a while last night",),
            spares=("sat in the car in the garage with the engine running to warm it up",),
        ),
        Rule(
            # "just want to go to sleep and stay asleep".
            id="en.passive.sleep_and_stay_asleep",
            category="passive_ideation",
            pattern=(
                r"\b{WANT} (?:\w+ ){0,2}?{TO} (?:go to |fall )?(?:sleep|"
                r"asleep) and (?:just )?(?:stay "
                r"asleep|stay that way|never wake|not wake|never come back|stay there)(?: forever|"
                r" for "
                r"good)?\b(?! (?:until|till|til|for|all|through|in)\b)"
            ),
            matches=(
                "honestly just want to go to sleep and stay asleep",
                "i want to go to sleep and never wake up again",
            ),
            spares=("I want to sleep forever on Sundays lol",),
        ),
        Rule(
            id="en.intent.going_through_with_it",
            category="intent_plan",
            pattern=r"\b(?:going|gonna|go|went|finally) through with it\b",
            flags=("support",),
            matches=("tonight i'm finally going through with it, i've got the pills right here",),
            spares=("i'm going to shoot my shot with her",),
        ),
        Rule(
            # "none of this is ever going to change".
            id="en.hopeless.nothing_will_change",
            category="hopelessness",
            pattern=(
                r"\bnone of (?:this|it) (?:is |will |is ever |will ever )?(?:ever )?(?:going to |"
                r"gonna )?"
                r"(?:change|get better|improve|end|stop)\b(?! (?:in|at|with|for|about|unless|until|"
                r"if|"
                r"before|after)\b)"
            ),
            matches=(
                "none of this is ever going to change and i'm so tired of pretending it will",
            ),
            spares=("this heat is going to kill me",),
        ),
        Rule(
            # "if i just didn't wake up would anyone even notice".
            id="en.passive.if_i_died_would_anyone_notice",
            category="passive_ideation",
            pattern=(
                r"\bif i (?:just |simply |suddenly )?(?:died|disappeared|vanished|didn't wake up|"
                r"never "
                r"woke up|wasn't here|was gone|killed myself|stopped existing),? (?:\w+ )?(?:would|"
                r"will|'d) (?:anyone|anybody|someone|people|they|my family) (?:even |actually |"
                r"really )?"
                r"(?:notice|care|cry|miss me|be sad|come)\b"
            ),
            matches=("if i just disappeared would anyone even notice",),
            spares=("I want to disappear into a book this weekend",),
        ),
    ]
)

# Round 8: contexts the earlier rounds under-covered: treatment stopped to die, drinking or
# taking everything "until I don't wake up", eating as a means, following the dead, old age,
# prayer, gaming words, emoji, goodbyes on the way to a height, guns at home, debt, an attempt
# just survived.
RULES.extend(
    [
        # Treatment stopped: a means next to any other sign, a purpose or a hope of dying.
        Rule(
            id="en.method.treatment_stopped",
            category="method",
            pattern=r"\b{TREATSTOP}",
            flags=("support",),
            matches=(
                "i quit my insulin last week so that it's over sooner",
                "been skipping my blood thinners on purpose so i can go",
            ),
            spares=(
                "my plan is to quit sugar by friday",
                "i stopped my meds because the side effects were awful, my gp knows",
                "skipped chemo today because my counts were low, hoping to go next week",
            ),
        ),
        Rule(
            id="en.intent.stopped_treatment_on_purpose",
            category="intent_plan",
            pattern=(
                r"\b{TREATSTOP}[^.!?]{0,40}?\b(?:on purpose so|deliberately so|so (?:that )?"
                r"(?:it|this|the end|death|everything|it all) (?:\w+ )?(?:happens|comes|come|"
                r"goes|ends|end|is over|will be over|can happen|can end)|so (?:that )?i (?:can )?"
                r"(?:die|go (?:for good|forever|sooner|faster|peacefully)|be gone|don't wake up|"
                r"never wake up)|to (?:die|let (?:it|myself|me) "
                r"(?:go|die|happen))|(?:until|till) (?:it|this|the disease|the cancer|my heart|"
                r"my body|my kidneys) (?:kills|takes|gives out|stops|fails))\b"
            ),
            matches=(
                "been skipping my blood thinners on purpose so i can go",
                "stopped taking my insulin on purpose so it happens faster",
            ),
            spares=("i didn't cut my hand on purpose",),
        ),
        Rule(
            id="en.passive.stopped_treatment_hoping_to_die",
            category="passive_ideation",
            pattern=(
                r"\b{TREATSTOP}[^.!?]{0,50}?\b(?:hop(?:e|ing)|pray(?:ing)?|wish(?:ing)?) "
                r"(?:that )?(?:my heart|my body|my kidneys|my liver|my lungs|it|this|the cancer|"
                r"the disease|i) (?:just |finally )?(?:gives? out|stops?|fails?|kills? me|"
                r"takes? me|shuts? down|will stop|would stop|dies?|don't wake up|won't wake up|"
                r"never wake up|finishes me|ends it)\b"
            ),
            matches=(
                "i've been skipping my heart meds, honestly hoping my heart just gives out",
                (
                    "she's refusing dialysis now and honestly i'm hoping my kidneys just "
                    "give out too, i mean mine, i stopped mine"
                ),
            ),
            spares=("she broke my heart",),
        ),
        # Drinking or taking things "until I don't wake up"; "gonna" makes it an intent.
        Rule(
            id="en.method.drink_until_i_dont_wake",
            category="method",
            pattern=r"{UNTILGONE}",
            matches=(
                "i'm going to drink till i stop breathing",
                "gonna drink until i don't wake up tonight",
            ),
            spares=("i'm going to take a bath tonight",),
        ),
        Rule(
            id="en.intent.gonna_drink_until_i_dont_wake",
            category="intent_plan",
            pattern=r"\b{INTENT} (?:\w+ ){0,2}?{UNTILGONE}",
            matches=(
                "i'm going to drink till i stop breathing",
                "gonna drink until i don't wake up tonight",
            ),
            spares=("i'm going to take a bath tonight",),
        ),
        Rule(
            id="en.method.shoot_up_and_not_come_back",
            category="method",
            pattern=(
                r"\b(?:shoot up|shooting up|inject|injecting|use|using|take|taking|snort|snorting|"
                r"smoke|smoking|do|doing)\b (?:\w+ ){0,4}?(?:more than (?:usual|ever|i should|"
                r"normal)|way too much|too much|everything i have|the whole (?:bag|stash|lot))\b"
                r"[^.!?]{0,30}?\b(?:not come back|never come back|not wake up|never wake up|die|"
                r"od|overdose|stop my heart|not make it)\b"
            ),
            matches=("i want to shoot up way more than usual and not come back",),
            spares=("that test was so bad i wanted to crawl into a hole",),
        ),
        Rule(
            # Everything one has, the pills not named: "take everything i have tonight".
            id="en.method.swallow_the_medicine_cabinet",
            category="method",
            pattern=(
                r"(?<!\bit )(?<!\bthat )\b(?:take|taking|took|swallow|swallowing|swallowed|down|"
                r"downing|downed|neck|necking) (?:everything|all|whatever|every (?:pill|tablet|"
                r"single pill)) (?:i have|i've got|ive got|i got|i can find|that's left|in (?:the|"
                r"my|this) (?:\w+ )?(?:cabinet|cupboard|drawer|box|kit|house)|from (?:the|my) "
                r"(?:\w+ )?(?:cabinet|cupboard|drawer|box|kit))\b(?! (?:to|with(?! (?:a |the |"
                r"some )?(?:bottle of |glass of |can of )?{ALCOHOL}\b)|into|out|home|back|off|for|"
                r"on|from|apart|away|in|and put|not)\b)"
            ),
            matches=(
                "tonight I'm taking every pill in the cabinet",
                "im gonna swallow everything in the medicine cabinet",
            ),
            spares=("took everything i had to the charity shop today",),
        ),
        Rule(
            # Already taken: an attempt in progress.
            id="en.method.took_everything_ive_got",
            category="method",
            pattern=(
                r"(?<!\bit )(?<!\bthat )\b(?:took|swallowed|downed|necked) (?:everything|all|"
                r"whatever|every (?:pill|tablet|single pill)) (?:i have|i've got|ive got|i got|"
                r"i had|i could find|that was left|in (?:the|my|this) (?:\w+ )?(?:cabinet|"
                r"cupboard|drawer|box|kit)|from (?:the|my) (?:\w+ )?(?:cabinet|cupboard|drawer|"
                r"box|kit))\b(?=\s*(?:$|[.,!;]|with (?:a |the |some )?(?:bottle of |glass of |"
                r"can of )?{ALCOHOL}\b|and (?:went|lay|lied|laid) down|tonight|just now|"
                r"an hour ago|"
                r"and (?:now|waiting)))"
            ),
            flags=("plan",),
            matches=("took everything i've got with a bottle of wine, let's see if i wake up",),
            spares=("it took everything i've got not to scream at him",),
        ),
        # Alcohol with the pills.
        Rule(
            id="en.method.alcohol_with_pills",
            category="method",
            pattern=r"{MIXING}",
            matches=(
                "gonna mix the whole bottle of gin with my sleeping pills",
                "mixed a bottle of vodka with all my xanax, lets see if i wake up",
            ),
            spares=("i'm taking the whole bottle of wine to the party",),
        ),
        Rule(
            id="en.intent.gonna_mix_alcohol_and_pills",
            category="intent_plan",
            pattern=r"\b{INTENT} (?:\w+ ){0,2}?{MIXING}",
            matches=("gonna mix the whole bottle of gin with my sleeping pills",),
            spares=("i'm taking the whole bottle of wine to the party",),
        ),
        Rule(
            # Already mixed: an attempt in progress, L4 on its own.
            id="en.method.mixed_alcohol_and_pills",
            category="method",
            pattern=(
                r"(?<!\bnot )(?<!\bnever )\b(?:mixed|combined|washed)\b"
                r"(?=[^.!?]{0,80}\b(?:all|whole|bottle|every|lot|handful|everything|bunch|entire|"
                r"full|box|pack|packet)\b)"
                r"(?: \w+){0,4}? (?:{ALCOHOL}|{PILLS})\b(?: \w+){0,3}? (?:with|and|plus|down with) "
                r"(?:\w+ ){0,3}?(?:all|every|the whole|a whole|a handful of|a bunch of|the rest of)"
                r" (?:\w+ )?(?:{PILLS}|{ALCOHOL})\b"
            ),
            flags=("plan",),
            matches=("mixed a bottle of vodka with all my xanax, lets see if i wake up",),
            spares=("my doctor said never mix all my meds with alcohol",),
        ),
        Rule(
            id="en.passive.lets_see_if_i_wake_up",
            category="passive_ideation",
            pattern=(
                r"\b(?:let's|lets|we'll|i'll|gonna|going to|and|then) see if i (?:even |still |"
                r"actually )?(?:wake up|survive|make it|live|am still alive|'m still alive|"
                r"see (?:tomorrow|the morning))\b(?=\s*(?:$|[.,!?;]|tomorrow\s*(?:$|[.,!?;])|"
                r"after (?:this|that|these|those)\b))|\bif i wake up,? i wake up\b|"
                r"\bif i don't wake up,? "
                r"(?:so be it|oh well|whatever|fine|good|even better)\b"
            ),
            matches=(
                "mixed a bottle of vodka with all my xanax, lets see if i wake up",
                "took everything i've got with a bottle of wine, let's see if i wake up",
            ),
            spares=(
                "i don't want to wake up early tomorrow",
                "set three alarms, lets see if i wake up in time",
            ),
        ),
        Rule(
            # Not eating as the means: "not eating until my heart stops".
            id="en.method.not_eating_until_heart_stops",
            category="method",
            pattern=(
                r"\b(?:not eating|stop eating|stopped eating|won't eat|wont eat|not going to eat|"
                r"refuse to eat|refusing to eat|refusing food|starve|starving|starving myself|"
                r"starve myself|fasting|restricting|not eat)\b(?: \w+){0,3}? (?:until|till|til) "
                r"(?:i|my heart|my body|my organs|it) (?:\w+ )?(?:die|dies|stop|stops|give out|"
                r"gives out|collapse|collapses|shut down|shuts down|disappear|kill me|kills me|"
                r"am dead|'m dead|fail|fails)\b"
                r"|\b(?:starv\w*|not eating|restricting)\b[^.!?]{0,40}?\b(?:way|chance|means) "
                r"(?:to|of) (?:die|dying|disappear|disappearing|go|end it|kill myself|not exist)\b"
            ),
            matches=(
                "i refuse to eat until my body shuts down",
                "i'm not eating until my heart stops, that's the whole point",
            ),
            spares=("bored to death in this lecture",),
        ),
        Rule(
            id="en.intent.thats_the_whole_point",
            category="intent_plan",
            pattern=(
                r"\b(?:that's|thats|that is) (?:the )?(?:whole )?(?:point|idea|plan|goal)\b"
                r"(?=\s*(?:$|[.!,;]))"
            ),
            flags=("support",),
            matches=("i'm not eating until my heart stops, that's the whole point",),
            spares=("i dont see the point of this meeting",),
        ),
        Rule(
            # Purging until one bleeds; hurting oneself "because i deserve it".
            id="en.self_harm.purge_until_bleeding",
            category="self_harm",
            pattern=(
                r"\b(?:purge|purging|purged|throw up|throwing up|threw up|vomit\w*|(?:make|making|"
                r"made) myself (?:sick|throw up|vomit))\b[^.!?]{0,30}?\b(?:until|till|til) (?:i|"
                r"it|there|my throat)(?:'s| is| am|'m)? (?:\w+ )?(?:bleed\w*|bled|blood)\b"
                r"|\b(?:until|till|til) (?:i|it)(?:'m| am| is|'s) bleeding\b"
                r"|\b(?:purge|purging|cut|cutting|burn|burning|hit|hitting|punch|punching|"
                r"scratch|scratching|starve|starving|bang|banging)\b[^.!?]{0,40}?\b(?:because|"
                r"cause|cuz|coz|since) i deserve (?:it|to hurt|to suffer|pain|the pain|to bleed|"
                r"to be punished|this)\b"
            ),
            matches=(
                "i threw up until there was blood",
                "i purge until i'm bleeding because i deserve to hurt",
            ),
            spares=("it would be better if i was there",),
        ),
        Rule(
            # Following the dead, the death spoken of first: "she's been gone 6 months and i
            # want to go where she is", "since my son died i should have gone with him".
            id="en.passive.want_to_go_where_they_are",
            category="passive_ideation",
            pattern=(
                r"\b{GRIEF}\b[^\n]{0,80}?\b(?:{WANT}|ready|longing|can't wait) (?:\w+ ){0,2}?"
                r"{TO} (?:go |be )?(?:join|be with|go to|be reunited with|follow) (?:(?:my |our )?"
                r"(?:late )?(?:{KIN}) again|(?:him|her|them)(?: again)?\b(?! (?:family|parents|"
                r"kids|"
                r"children|friends|mum|mom|dad|husband|wife|brother|sister|son|daughter|side|grave|"
                r"things|at|in|on|for|to|when|while|more)\b))"
                r"|\b{GRIEF}\b[^\n]{0,80}?\b{WANT} (?:\w+ ){0,2}?{TO} (?:go|be) where (?:she|he|"
                r"they|my \w+) (?:is|are|went|has gone|have gone|'s)\b"
                r"|\b{WANT} (?:\w+ ){0,2}?{TO} (?:go|be) where (?:she|he|they|my \w+) (?:is|are|"
                r"went|has gone|have gone|'s)\b(?=[^\n]{0,80}\b{GRIEF}\b)"
                r"|\b{GRIEF}\b[^\n]{0,80}?\b(?:should|should've|should have|could have|wish i had|"
                r"wish i'd|ought to have) (?:just )?(?:gone|died|left|went) (?:with|alongside|"
                r"together with) (?:him|her|them|my \w+)\b(?! (?:to|for|on|into|instead|that|"
                r"when|because)\b)"
                r"|\b(?:should've|should have|wish i had|wish i'd|ought to have|"
                r"it should have been "
                r"me who) (?:just )?died (?:with|alongside|instead of|together with|in place of) "
                r"(?:him|her|them|my \w+)\b"
            ),
            matches=(
                "i want to go where my son is. he's been dead a year",
                "my wife has been gone 6 months and i want to go where she is",
            ),
            spares=("i don't want to go on the trip",),
        ),
        Rule(
            # "i'll see her soon", "i'll be with him again": an intent next to a clear sign.
            id="en.intent.ill_see_them_soon",
            category="intent_plan",
            pattern=(
                r"\b(?:i'll|ill|i will|i'm going to|im going to|gonna|soon i'll|i can finally|"
                r"i get to) (?:finally |soon )?(?:see|join|be with|be reunited with|hold) (?:my )?"
                r"(?:late )?(?:{KIN}|him|her|them)(?: again)? (?:soon|very soon|tonight|"
                r"before long|at last)\b"
                # A visit, not a reunion in death.
                r"(?![^.!?\n]{0,40}\b(?:visit|visits|visiting|coming|comes|flying|flies|arrives|"
                r"arriving|christmas|birthday|holidays?|dinner|lunch|weekend)\b)"
            ),
            flags=("support",),
            matches=("mum is waiting for me, i'll see her soon, i've got the tablets ready",),
            spares=(
                "i'll see my dad again in heaven one day, that's what my faith tells me",
                "i'll see my mum soon, she's visiting at christmas",
            ),
        ),
        Rule(
            id="en.method.under_the_water_and_stay",
            category="method",
            pattern=(
                r"\b(?:go|going|went|slip|slipping|slide|sliding|sink|sinking|put(?:ting)? my head|"
                r"duck(?:ing)?|lie|lying|lay|laying) (?:\w+ )?under (?:the )?(?:water|surface|"
                r"bath ?water)\b(?: myself)?[^.!?]{0,20}?\b(?:and|to) (?:just )?(?:stay|staying|"
                r"stayed|not come (?:up|back)|never come (?:up|back)|not coming (?:up|back)|"
                r"never coming (?:up|back)|not surface|not breathe|stop breathing)\b"
            ),
            matches=(
                "i keep sinking under the bath water and wanting to stay",
                (
                    "when i'm bathing him i think about going under the water myself and "
                    "staying there"
                ),
            ),
            spares=("what are the warning signs of suicide in teenagers?",),
        ),
        Rule(
            # Old age: "i've lived long enough", "ready to meet my maker".
            id="en.passive.lived_long_enough",
            category="passive_ideation",
            pattern=(
                r"\b(?:i've|ive|i have|i) (?:lived|been alive|been on this earth) (?:long enough|"
                r"too long|more than long enough|way too long|enough years)\b(?! (?:to|in|with|at|"
                r"here|there|on|for)\b)"
                r"|\b(?:ready|time|waiting) (?:for me )?to (?:meet my maker|go home to (?:the lord|"
                r"god|jesus)|be with (?:the lord|god|jesus))\b"
            ),
            matches=(
                "i'm 91, i've lived too long",
                "i've lived long enough, i'm ready to go now",
            ),
            spares=("i've lived long enough to know when a deal is too good",),
        ),
        Rule(
            # Prayer: "praying that god doesn't let me wake up", "lord, please take me".
            id="en.passive.pray_god_takes_me_tonight",
            category="passive_ideation",
            pattern=(
                r"\b(?:pray|prays|prayed|praying|ask|asking|asked|beg|begging|begged) "
                r"(?:\w+ ){0,4}?(?:that )?(?:god|the lord|jesus|allah|the universe|he)\b "
                r"(?:\w+ )?(?:doesn't|does not|won't|will not|wouldn't|would not|never) let me "
                r"(?:wake up|see (?:another (?:day|morning|night|year)|tomorrow|the (?:morning|"
                r"sunrise)|morning))\b"
                r"|\b(?:lord|god|jesus|allah)\b,? (?:please )?(?:just )?(?:take me|call me home|"
                r"let me die|end my life|don't let me wake up)\b(?! (?:to|through|under|by|back|"
                r"home from|out|on|there|with|seriously|away from)\b)(?![^.!?]{0,40}\b(?:meeting|"
                r"exam|monday|homework|lecture|traffic|queue|work|email|class|boss|party|call|"
                r"lol|lmao|haha)\b)"
            ),
            matches=(
                "lord please just take me, i'm so tired",
                "i pray god won't let me see another morning",
            ),
            spares=("i just want to sleep all weekend",),
        ),
        Rule(
            # "god forgive me for what i'm going to do tonight".
            id="en.intent.god_forgive_me_for_what_ill_do",
            category="intent_plan",
            pattern=(
                r"\b(?:god|lord|jesus|allah|mum|mom|dad|mama|everyone|please),? (?:please )?"
                r"(?:forgive me|i'm sorry|im sorry) (?:\w+ ){0,2}?for (?:what|the thing|"
                r"this thing) (?:i'm|im|i am|i'll|ill) (?:going to|gonna|about to) do\b"
                r"(?! (?:to (?:this|that|the|your|my)|with (?:this|that|the|your) (?:cake|pizza|"
                r"song|photo|car|hair))\b)"
            ),
            matches=("god forgive me for what i'm going to do tonight with the pills",),
            spares=("i'm going to end the call",),
        ),
        Rule(
            id="en.intent.sorry_for_what_ill_do",
            category="intent_plan",
            pattern=(
                r"\b(?:forgive me|i'm sorry|im sorry|i am sorry|sorry) (?:\w+ ){0,2}?for (?:what|"
                r"the thing|this thing) (?:i'm|im|i am|i'll|ill) (?:going to|gonna|about to) do\b"
                r"(?! (?:to (?:this|that|the|your|my)|with (?:this|that|the|your) (?:cake|pizza|"
                r"song|photo|car|hair))\b)"
                r"(?!,? (?:\w+ ){0,3}?(?:post|rant|thread|message|spam|essay)\b)"
            ),
            flags=("support",),
            matches=("god forgive me for what i'm going to do tonight with the pills",),
            spares=(
                "sorry for what i'm about to do to this pizza",
                "sorry for what i'm about to do, a very long post incoming",
            ),
        ),
        Rule(
            # A suicidal thought with a time to it: "thinking abt ctb this weekend".
            id="en.intent.thinking_of_ctb_this_weekend",
            category="intent_plan",
            pattern=(
                r"\b(?:thinking|think|thought|considering|planning) (?:about |abt |bout |of |on )?"
                r"(?:\w+ )?(?:{KILLME}|ctb|suicide|ending it|ending my life|ending things|"
                r"taking my life)\b[^.!?]{0,20}?\b{TIME}\b"
            ),
            matches=(
                "considering ending it on friday",
                "fr thinking abt ctb this weekend",
            ),
            spares=("i want to end this conversation",),
        ),
        # Emoji: a blade and blood; a means and then a grave or a coffin.
        Rule(
            id="en.method.means_emoji_then_grave",
            category="method",
            pattern=(
                r"\b(?:pills|rope|gun|knife|razor)\b(?: (?:pills|rope|gun|knife|razor))*"
                r"[^.!?\n]{0,30}?\b(?:grave|coffin)\b"
            ),
            matches=(
                "🪢 and then ⚰️",
                "💊💊💊 tonight and then 🪦",
            ),
            spares=("finishing this 12 pack and then bed, long week",),
        ),
        Rule(
            # Gaming words about oneself.
            id="en.active.uninstall_myself",
            category="active_ideation",
            pattern=(
                r"\bgame over (?:for me )?(?:irl|in real life|for real|for good|in life)\b"
                r"|\bgame over for me\b(?=[^.!?]{0,30}\b(?:irl|in real life|for real|life)\b)"
                r"|\b(?:uninstall|uninstalling|uninstalled|unsubscribe|unsubscribing|alt[- +]?f4|"
                r"ctrl[- +]?alt[- +]?delete|ctrl[- +]?alt[- +]?del) (?:my ?self|me|from life|life|"
                r"irl|my life|my existence)\b"
                r"|\b(?:log|logging|logged|sign|signing|signed|quit|quitting|rage ?quit\w*|exit|"
                r"exiting) (?:off |out )?(?:from |of )?(?:life|this life|existence|reality|"
                r"the world|this world|the game of life)\b[^.!?]{0,20}?\b(?:permanently|for good|"
                r"forever|for real|irl|once and for all)\b"
                r"|\bno (?:more )?respawns?\b[^.!?]{0,40}?\b(?:irl|for real|in real life|i mean me|"
                r"meaning me|mean me)\b"
            ),
            matches=(
                "logging off life for good",
                "i want to uninstall myself",
            ),
            spares=("logging off for the weekend, bye everyone",),
        ),
        Rule(
            # A goodbye, then on the way to a height: "love you all. im going to the bridge now".
            id="en.intent.love_you_all_going_to_the_bridge",
            category="intent_plan",
            pattern=(
                r"\b(?:love you all|love you guys|goodbye|good bye|bye everyone|bye all|bye guys|"
                r"thank you for everything|thanks for everything|sorry for everything|"
                r"forgive me)\b[^\n]{0,60}?\b(?:i'm |im |i am )?(?:going|heading|off|walking|"
                r"driving|on my way|leaving) (?:up )?(?:to|out to|for) (?:the )?(?:\w+ )?(?:bridge|"
                r"roof|rooftop|tracks|railway|railway line|cliff|cliffs|ledge|top floor|"
                r"tall building|car park roof)\b(?! (?:for (?:a|the) (?:party|smoke|drink|view|"
                r"photos?|picnic|barbecue|bbq|sunset|walk)|terrace|garden|bar|party|deck|"
                r"restaurant|cafe|club|game|night|tournament|players|walk)\b)"
                r"|\b(?:i'm |im |i am )?(?:going|heading|off|walking|driving|on my way) (?:up )?to "
                r"(?:the )?(?:\w+ )?(?:bridge|roof|rooftop|tracks|railway|cliff|cliffs|ledge|"
                r"top floor)\b(?! (?:terrace|garden|bar|party|deck|restaurant|cafe|club|game|"
                r"night|tournament|players|walk)\b)(?: now| tonight)?[^\n]{0,20}?\b(?:goodbye|"
                r"good bye|bye everyone|"
                r"love you all|forgive me|thank you for everything|thanks for everything)\b"
            ),
            flags=("plan",),
            matches=(
                "goodbye everyone, heading to the cliffs",
                "love you all. im going to the bridge now",
            ),
            spares=("thanks for everything, heading to the roof for the party",),
        ),
        Rule(
            # Guns at home: "eating it", "putting it to my head", loaded "for me".
            id="en.method.gun_to_my_head",
            category="method",
            pattern=(
                r"\b(?:eat|eating|ate|eaten|suck|sucking|swallow|swallowing) (?:my |the |a |his |"
                r"dad's )?(?:gun|rifle|pistol|shotgun|barrel|revolver|glock|service weapon|"
                r"sidearm)\b|\b(?:gun|rifle|pistol|shotgun|revolver|glock|sidearm)\b[^.!?]{0,50}?"
                r"\b(?:eat|eating|ate|suck|sucking) (?:it|the barrel|a bullet|lead)\b"
                r"|\b(?:put|putting|hold|holding|held|press|pressing|pressed|point|pointing|"
                r"pointed|stick|sticking) (?:it|the gun|a gun|my gun|the barrel|the pistol|"
                r"the rifle|the muzzle|the revolver) (?:to|against|in|into|under|at) my (?:head|"
                r"temple|mouth|chin)\b|\b(?:put|putting|hold|holding|press|pressing|point|"
                r"pointing) (?:the gun|a gun|my gun|the barrel|the pistol|the muzzle) (?:to|"
                r"against|at) my (?:chest|heart)\b"
            ),
            matches=(
                "sometimes i think about eating my gun",
                "i keep thinking about putting a gun to my head",
            ),
            spares=("i cut my own bangs",),
        ),
        Rule(
            id="en.intent.loaded_gun_is_for_me",
            category="intent_plan",
            pattern=(
                r"\b(?:gun|pistol|rifle|shotgun|revolver|glock|sidearm|service weapon)\b"
                r"[^.!?]{0,60}?\b(?:loaded|ready|one in the chamber|within reach|next to (?:the|"
                r"my) bed|by (?:the|my) bed|under my pillow)\b[^.!?]{0,30}?(?:(?:it's|its|it is|"
                r"that's|thats) (?:for me|meant for me)\b(?! to\b)|\bfor myself\b|"
                r"\bnot for (?:intruders|"
                r"burglars|protection|anyone else|them)\b|\bin case i (?:need it|decide|can't take "
                r"it)\b)"
            ),
            matches=(
                "since deployment i keep my service pistol loaded next to the bed, it's for me",
            ),
            spares=("the gun is loaded and ready, it's for me to use at the range",),
        ),
        Rule(
            # Debt: worth more dead, the insurance as the way out.
            id="en.burden.worth_more_dead",
            category="burden",
            pattern=(
                r"\b(?:i'm|im|i am|i'd be|id be|i would be|i'll be|i'd honestly be|i'm probably) "
                r"(?:\w+ )?worth more (?:to (?:them|my family|everyone|my kids|my wife|"
                r"my husband) )?"
                r"dead\b|\b(?:better off|be better|be fine|be okay|manage better|cope better) "
                r"(?:\w+ )?with (?:the|my) (?:life )?insurance(?: money| payout| pay ?out)?\b"
                r"|\b(?:only|one|best|easiest) (?:way out|way|option|solution|answer)\b"
                r"[^.!?]{0,30}?\b(?:my |the )?(?:life insurance|insurance (?:money|payout))\b"
            ),
            matches=(
                "i'm worth more dead than alive with all this debt",
                "i owe 40k and the only way out i see is my life insurance paying it",
            ),
            spares=("i'm dead 💀",),
        ),
        Rule(
            # An attempt just survived: let out of hospital "after the pills".
            id="en.prep.discharged_after_attempt",
            category="preparatory",
            pattern=(
                r"\b(?:hospital|er|a&e|icu|intensive care|psych ward|ward|paramedics|ambulance|"
                r"discharged|released|let me (?:go|out)|sent me home|got out|out of (?:the )?"
                r"(?:hospital|er|a&e|icu))\b[^.!?]{0,40}?\bafter (?:the |my |that |i took "
                r"(?:\w+ ){0,2}?)(?:pills|overdose|od|attempt|suicide attempt|tablets|i tried|"
                r"trying to|cutting|jumping)\b(?! (?:worked|kicked in|helped|cleared|did|made|"
                r"started|fixed|for|of)\b)"
            ),
            matches=(
                "just out of hospital after the attempt. next time i won't fail",
                "they discharged me after my overdose and i wish they hadn't found me",
            ),
            spares=(
                (
                    "got out of hospital after my knee surgery, next time i'll take more "
                    "painkillers home"
                ),
            ),
        ),
        Rule(
            id="en.passive.wish_it_had_worked",
            category="passive_ideation",
            pattern=(
                r"\b{ATTEMPT}\b[^\n]{0,80}?\b(?:wish|wished|wishing) (?:it|that it|they|"
                r"the pills) (?:had |would have |'d )?(?:worked|been enough|finished me|killed me|"
                r"let me die|let me go)\b(?! out\b)"
                r"|\b(?:wish|wished) (?:they|the paramedics|the doctors|my \w+|someone|somebody) "
                r"(?:hadn't|had not|didn't|never) (?:found|saved|revived|woken) me\b"
            ),
            matches=(
                "they discharged me after my overdose and i wish they hadn't found me",
                ("the hospital let me go yesterday after the pills and i still wish it had worked"),
            ),
            spares=("i wish i could sleep more", "i wish the diet had worked"),
        ),
        Rule(
            id="en.intent.next_time_ill_take_more",
            category="intent_plan",
            pattern=(
                r"\b{ATTEMPT}\b[^\n]{0,80}?\bnext time,? (?:i'll|ill|i will|i'm going to|"
                r"im going to|gonna|i'm gonna|im gonna|i won't|i wont|i will not) (?:just )?"
                r"(?:take (?:more|all|the lot|twice as many|the whole)|do it (?:right|properly|"
                r"better)|make sure|cut deeper|go deeper|use (?:more|a gun|a rope)|jump|"
                r"not (?:fail|mess it up|wake up|survive|call anyone)|fail|survive|succeed|"
                r"finish it|get it right|wake up|be found|call anyone|tell anyone)\b"
            ),
            flags=("plan",),
            matches=(
                "got out of the ER this morning, next time i'll take more",
                "just out of hospital after the attempt. next time i won't fail",
            ),
            spares=(
                (
                    "got out of hospital after my knee surgery, next time i'll take more "
                    "painkillers home"
                ),
            ),
        ),
        Rule(
            # "better off without a mum like me".
            id="en.burden.kids_better_without_me",
            category="burden",
            pattern=(
                r"\b(?:better off|happier|fine|okay|ok) without (?:a |such a |this )?(?:\w+ ){0,2}?"
                r"(?:like me|as bad as me|as useless as me)\b"
            ),
            matches=("my kids would be happier without a dad like me",),
            spares=("i feel like a failure at my job",),
        ),
    ]
)

# Round 8, the check written after the fixes: a drink and the rest of the pills, "i'm taking the
# whole bottle", lying down beside the dead, a means that "looks friendly", holding a gun for
# hours, a party if i killed myself, the car, the garage and a hose, starving "until i'm nothing".
RULES.extend(
    [
        Rule(
            id="en.method.bottle_and_all_my_pills",
            category="method",
            pattern=(
                r"\b(?:a |the |this |my )?(?:bottle|fifth|handle|case|crate) of (?:\w+ ){1,2}?"
                r"(?:and|&|plus|with) (?:the rest of|all|all of|a bunch of|a handful of|enough|"
                r"every one of|the whole (?:bottle|box|pack) of) (?:my |the |those |these )?"
                r"{PILLS}\b"
            ),
            matches=(
                "got a fifth of vodka and all my sertraline lined up on the desk",
                "mixed a bottle of vodka with all my xanax, lets see if i wake up",
            ),
            spares=("slipped on ice and hit my head",),
        ),
        Rule(
            id="en.intent.taking_the_whole_bottle_of",
            category="intent_plan",
            pattern=(
                r"\b(?:i'm|im|i am) (?:\w+ )?(?:taking|swallowing|downing|necking) (?:the whole|"
                r"a whole|the entire|the rest of|every single one of|"
                r"all of) (?:\w+ )?(?:bottle of |"
                r"box of |pack of |packet of )?(?:my |the |these |those )?{PILLS}\b"
                r"(?![^.!?]{0,20}\b(?:as prescribed|prescribed|on time|every day|daily|"
                r"with (?:food|breakfast|dinner|lunch|me)|along|on (?:the|my|our) (?:trip|holiday|"
                r"vacation|flight))\b)"
            ),
            matches=(
                "i'm swallowing the entire box of paracetamol tonight",
                "finishing this 12 pack and then i'm taking the whole bottle of tylenol",
            ),
            spares=("i'm taking the whole bottle of wine to the party",),
        ),
        Rule(
            # Lying down beside the dead and not getting up.
            id="en.passive.lie_down_next_to_them",
            category="passive_ideation",
            pattern=(
                r"\b(?:lie|lying|lay|laying|sleep|sleeping|be buried|being buried|rest|resting) "
                r"(?:down )?(?:next to|beside|with|by) (?:him|her|them|my (?:\w+ )?{KIN})\b"
                r"[^.!?]{0,30}?\b(?:and (?:not|never) (?:get|getting|wake|waking) up|forever|"
                r"for good|and stay(?:ing)? there|in the (?:ground|grave|cemetery)|under the "
                r"(?:ground|earth))\b"
            ),
            matches=(
                (
                    "since the funeral all i think about is lying down next to her in the "
                    "cemetery and not getting up"
                ),
            ),
            spares=(
                (
                    "the cemetery was peaceful today, i sat with mum's grave for an hour "
                    "and talked to her"
                ),
            ),
        ),
        Rule(
            # A means that "looks friendly".
            id="en.method.means_calling_me",
            category="method",
            pattern=(
                r"\b(?:rope|noose|gun|pills|ledge|tracks|blade|edge)\b[^.!?]{0,30}?\b(?:is|"
                r"are|'s|looks|look|looking|seems|seem|sounds|feels) (?:so |real |really |pretty |"
                r"kinda |kind of |very |more and more |too )?(?:friendly|tempting|inviting|"
                r"comforting|like an option|like a way out|like the answer|like a solution|"
                r"like my only option)\b(?![^.!?]{0,20}\b(?:sale|deal|price|discount|hike|walk|"
                r"photos?|snow)\b)|\b(?:rope|noose|gun|pills|ledge|tracks|blade|razor)\b"
                r"[^.!?]{0,30}?\b(?:is |are |keeps |keep )?(?:calling (?:to )?me|calling my name)\b"
            ),
            matches=(
                "the pills keep calling my name",
                "ngl the 🪢 in my closet is looking real friendly rn",
            ),
            spares=("my pills make me sleepy",),
        ),
        Rule(
            # Holding a gun for hours.
            id="en.method.sat_holding_the_gun",
            category="method",
            pattern=(
                r"\b(?:holding|held|hold|sat|sitting|sit|cradling|staring at|"
                r"stared at) (?:\w+ ){0,4}?"
                r"(?:with )?(?:my|the|a|dad's|his) (?:\w+ )?(?:gun|pistol|rifle|shotgun|revolver|"
                r"glock|handgun|sidearm)\b[^.!?]{0,30}?\b(?:for (?:hours|an hour|a long time|ages|"
                r"so long|a while)|all night|every night)\b|"
                r"(?:\b(?:gun|guns|pistol|rifle|shotgun|revolver|glock|sidearm|handgun|firearm|"
                r"service weapon)\b|(?<!\w)\.\d{2,3}\b|\b\d{1,2} ?mm\b)[^.!?\n]{0,60}?\b(?:holding|"
                r"hold|held|sit with|sitting with|sat with|staring at|stare at|stared at|"
                r"looking at|cradling|cradle)\b (?:it|the gun|them|that|the pistol|the rifle)\b"
                r"[^.!?]{0,20}?\b(?:for (?:hours|an hour|a long time|ages|so long|a while)|"
                r"all night|every night)\b"
            ),
            matches=(
                "sat on the floor with my rifle for an hour last night",
                (
                    "vet here. the .45 is in my nightstand and some nights i sit on the bed "
                    "holding it for hours"
                ),
            ),
            spares=(
                (
                    "the cemetery was peaceful today, i sat with mum's grave for an hour "
                    "and talked to her"
                ),
            ),
        ),
        Rule(
            # "everyone would throw a party if i killed myself".
            id="en.burden.theyd_celebrate_if_i_died",
            category="burden",
            pattern=(
                r"\b(?:throw a party|have a party|party|celebrate|celebrating|dance|cheer|"
                r"be glad|be happy|be relieved) (?:\w+ ){0,2}?(?:if|when|once) i (?:killed myself|"
                r"kill myself|died|die|was dead|were dead|was gone|disappeared|wasn't here)\b"
            ),
            matches=(
                "they'd be relieved if i was gone",
                "my classmates would celebrate if i died",
            ),
            spares=("it would be better if i was there",),
        ),
        Rule(
            id="en.active.if_i_killed_myself",
            category="active_ideation",
            pattern=(
                r"\b(?:if|when|once|after) i (?:killed|kill) (?:my ?self)\b(?! (?:with|over|for|at|"
                r"to get|trying|to make|on|by|doing|studying|working|cleaning|laughing|every)\b)"
            ),
            matches=(
                (
                    "everyone at school would throw a party if i killed myself. maybe i "
                    "should give them one"
                ),
            ),
            spares=("if i killed myself studying i'd still fail this exam",),
        ),
        Rule(
            # The car, the garage and a hose, listed.
            id="en.method.car_garage_hose",
            category="method",
            pattern=(
                r"\b(?:the |a |my )?(?:car|garage|hose|exhaust|duct tape|tape)\b,? (?:the |a |my |"
                r"and )*(?:car|garage|hose|exhaust|duct tape|tape)\b,? (?:the |a |my |and )*"
                r"(?:car|garage|hose|exhaust|duct tape|tape)\b(?![^.!?]{0,40}\b(?:wash\w*|clean\w*|"
                r"water\w*|garden\w*|plants?|lawn|sale|for sale|fix\w*|repair\w*|insurance|rent\w*|"
                r"pay\w*|need\w*|broke\w*|service\w*|mot)\b)(?<!\bcar car)"
            ),
            matches=(
                (
                    "i can't tell my wife we lost everything. the car, the garage, a hose. "
                    "that's my plan"
                ),
            ),
            spares=("car, garage and hose all need fixing this month",),
        ),
        Rule(
            id="en.intent.thats_my_plan",
            category="intent_plan",
            pattern=(
                r"\b(?:that's|thats|that is|this is|here's|heres) (?:my|the) plan\b(?=\s*(?:$|"
                r"[.!,;]))"
            ),
            flags=("plan", "support"),
            matches=(
                (
                    "i can't tell my wife we lost everything. the car, the garage, a hose. "
                    "that's my plan"
                ),
            ),
            spares=("i'll see my dad again in heaven one day, that's what my faith tells me",),
        ),
        Rule(
            id="en.intent.thats_what_i_want",
            category="intent_plan",
            pattern=(
                r"\b(?:that's|thats|that is) (?:exactly |just )?what i want"
                r"\b(?=\s*(?:$|[.!,;]))"
            ),
            flags=("support",),
            matches=("honestly that's exactly what i want.",),
            spares=("that test was so bad i wanted to crawl into a hole",),
        ),
        Rule(
            id="en.method.starve_until_nothing",
            category="method",
            pattern=(
                r"\b(?:starve|starving|not eat|not eating|stop eating)\b(?: \w+){0,3}? (?:until|"
                r"till|"
                r"til) (?:i'm|im|i am|there's|theres) (?:nothing|gone|dead|bones|skin and bones|"
                r"invisible|nothing left)\b"
            ),
            matches=("gonna starve until i'm nothing, literally nothing",),
            spares=("i'm cutting sugar this month",),
        ),
        Rule(
            # After an attempt: "next time i won't let anyone find me", "this time no one will".
            id="en.intent.next_time_no_one_finds_me",
            category="intent_plan",
            pattern=(
                r"\b{ATTEMPT}\b[^\n]{0,80}?\b(?:next time|this time)\b,? (?:i (?:won't|will not|"
                r"wont) let (?:anyone|anybody|them|you) (?:find|stop|save) me|no one (?:will|'ll) "
                r"(?:find|stop|save) me|nobody (?:will|'ll) (?:find|stop|save) me|i'll make sure "
                r"(?:no one|nobody))\b"
            ),
            flags=("plan",),
            matches=("got out of the hospital yesterday, next time no one will find me",),
            spares=(
                (
                    "got out of hospital after my knee surgery, next time i'll take more "
                    "painkillers home"
                ),
            ),
        ),
    ]
)

NEGATIVES: list[Negative] = [
    Negative(
        id="en.idiom.die_of_embarrassment",
        kind="idiom",
        pattern=(
            r"\b(?:want|wanted|wanting|wanna|could|would|just|i|almost|nearly) (?:\w+ )?(?:to )?"
            r"(?:die|died|dying) (?:of|from) (?:embarrassment|shame|cringe|laughing|laughter|"
            r"boredom|"
            r"cuteness|the heat|heat|jealousy|envy|excitement|happiness)\b"
        ),
    ),
    Negative(
        id="en.academic.signs_of_suicide",
        kind="academic",
        pattern=(
            r"\b(?:warning )?(?:signs|symptoms|causes|risk factors|myths|facts|statistics) (?:of|"
            r"for|about) (?:suicid\w*|self[- ]?harm\w*|overdos\w*|depression)\b(?:[^.!?;\n]{0,40})"
        ),
    ),
    # Exaggeration idioms: each excuses only the words it covers.
    Negative(
        id="en.idiom.is_killing_me",
        kind="idiom",
        pattern=(
            r"\b(?:is|are|was|were|s|'s|it's|its|they're|you're|youre|keeps|keep|been|be|"
            r"literally|lowkey|slowly|totally|actually|seriously)\s+(?:\w+ )?(?:killing|kiling|"
            r"murdering) me\b"
        ),
    ),
    Negative(
        id="en.idiom.killing_myself_at_work",
        kind="idiom",
        pattern=(
            r"\bkill(?:ing|s|ed)? (?:me|myself)\b (?:with|over|for|at|to get|trying to|to make|on|"
            r"by|doing|studying|working|cleaning|laughing)\b(?:\s+\w+){0,3}"
        ),
    ),
    Negative(
        id="en.idiom.would_kill_for",
        kind="idiom",
        pattern=(
            r"\b(?:could|would|i'd|id) (?:\w+ )?(?:kill|die) for (?:a|an|some|one|that|this|those|"
            r"these|the|another|it)\b|\bdying (?:to|for) (?:see|try|know|meet|go|get|hear|watch|"
            r"read|visit|tell|eat|have|find|play|hug|a |an |some |the |that |this |my )\b|"
            r"\b(?:to die for)\b"
        ),
    ),
    Negative(
        id="en.idiom.nearly_died_laughing",
        kind="idiom",
        pattern=(
            r"\b(?:almost|nearly|literally|practically|basically|just) (?:\w+ )?(?:died|dying|"
            r"dead|die) (?:laughing|of (?:laughter|embarrassment|boredom|shame|cringe|heat|thirst|"
            r"hunger|happiness|excitement|envy)|from (?:laughing|embarrassment|boredom|shame|"
            r"cringe|the heat|cuteness|excitement))\b|\b(?:die|died|dying|dead|kill me|"
            r"killing me) (?:of|from) (?:laughter|laughing|embarrassment|boredom|cringe|shame|"
            r"cuteness|curiosity|the heat|heat|jealousy|envy|excitement|happiness)\b|"
            r"\bbored to death\b|\bscared to death\b|\bsick to death of\b|\bworried to death\b|"
            r"\bdead tired\b|\bdead on my feet\b|\bdead (?:end|line|battery|phone)\b"
        ),
    ),
    Negative(
        id="en.idiom.kill_time",
        kind="idiom",
        pattern=(
            r"\bkill(?:ing|ed)? (?:time|it|two birds|the vibe|the mood|the lights|the engine|"
            r"the process|the app|the game|the bug|the battery|my (?:boss|brother|sister|mom|dad|"
            r"roommate|teacher))\b|\b(?:kill|hang) (?:me|myself) (?:now )?if (?:i|this|that)\b|"
            r"\bi'll kill (?:him|her|them|you)\b"
        ),
    ),
    Negative(
        id="en.idiom.ugh_kill_me",
        kind="idiom",
        pattern=(
            r"\b(?:ugh|lol|lmao|omg|haha|ffs|god|honestly|seriously|literally)[,.! ]+(?:just |"
            r"someone )?kill me(?: now)?\b(?=.{0,40}\b(?:meeting|exam|monday|homework|lecture|"
            r"traffic|queue|work|email|this|another|class|boss|party|call)\b)|"
            r"\bkill me now\b(?=.{0,40}\b(?:meeting|exam|monday|homework|lecture|traffic|queue|"
            r"work|email|another|class|boss|party|call)\b)"
        ),
    ),
    Negative(
        id="en.idiom.shoot_myself_in_the_foot",
        kind="idiom",
        pattern=(
            r"\b(?:shoot|shot) (?:my ?self) in the foot\b|\bshoot me (?:a|an) (?:text|message|"
            r"email|dm|call)\b|\b(?:hang|hanging) (?:my|the) (?:coat|jacket|laundry|clothes|"
            r"picture|pictures|painting|shelves|curtains)\b"
        ),
    ),
    Negative(
        id="en.idiom.overdosed_on_coffee",
        kind="idiom",
        pattern=(
            r"\b(?:overdos\w*|od'?d|od'?ing|od) on (?:coffee|caffeine|sugar|netflix|chocolate|"
            r"memes|tv|anime|k-?dramas|work|candy|carbs|cheese|pizza|youtube|tiktok|nostalgia|"
            r"cuteness|energy drinks|vitamins|happiness|drama|love|reality tv)\b"
        ),
    ),
    Negative(
        id="en.idiom.rather_die_than",
        kind="idiom",
        pattern=(
            r"\b(?:i'd|id|i would) rather die than\b(?:\s+\w+){0,2}|\bi(?:'m| am|"
            r"m) dead\b(?= *(?:lol|lmao|haha|skull|💀|😂|$))|\b(?:you|that|this|he|she) (?:are|is|"
            r"was) killing me\b|\bdying of (?:laughter|embarrassment)\b|\bsuicide (?:squad|"
            r"mission|run|doors|blonde|drill|sprint|burpees|lane|shift)\b|"
            r"\bsuicide (?:is painless)\b"
        ),
    ),
    Negative(
        id="en.idiom.this_is_hopeless",
        kind="idiom",
        pattern=(
            r"\b(?:this|the|that|my|our|their) (?:\w+ )?(?:is|are|was|were) (?:so |totally |"
            r"absolutely )?(?:hopeless|pointless)\b(?=.{0,15}\b(?:lol|haha|at|with|but|anyway)\b)|"
            r"\b(?:i'm|im|i am) (?:hopeless|useless) at (?:\w+)\b|\bhopeless (?:romantic|case at|"
            r"at)\b|\b(?:a )?lost cause (?:at|with|in)\b"
        ),
    ),
    Negative(
        id="en.idiom.cant_take_this_heat",
        kind="idiom",
        pattern=(
            r"\b(?:can't|cant|cannot) (?:take|stand|bear) (?:it|this|that) (?:any ?more|"
            r"any longer)\b(?=[^.!?;]{0,30}\b(?:noise|neighbou?rs?|traffic|heat|weather|printer|"
            r"wifi|internet|commute|construction|drilling|music|snoring|meetings?|boss|landlord|"
            r"rain|queue|line)\b)|\b(?:i'm |im |i am )?(?:a |so |such a )?hopeless (?:romantic|at|"
            r"with|case at)\b|\b(?:i feel|feel|i'm|im|i am) (?:like )?(?:a |"
            r"such a )?burden (?:when|if) i (?:ask|need|call|text|rely|talk|lean|"
            r"have to ask)\b[^.!?;\n]{0,40}"
        ),
    ),
    Negative(
        id="en.purpose.bought_rope_for",
        kind="purpose",
        pattern=(
            r"\b(?:bought|buying|buy|got|getting|ordered|ordering|"
            r"picked up) (?:\w+ ){0,2}?(?:rope|ropes|charcoal|blades?|razors?|bleach|rat poison|"
            r"a gun|helium) (?:\w+ )?(?:for|to) (?:the |a |my |our )?(?:camping|climbing|hiking|"
            r"boat|sailing|garden|washing|laundry|clothes ?line|tent|dog|swing|gym|crafts?|bbq|"
            r"barbecue|grill|cleaning|party|balloons|shaving|hunting|range|work|kitchen|bathroom|"
            r"moving)\b|\b(?:said|saying|say) (?:my )?goodbyes? (?:\w+ ){0,3}?(?:before|at|"
            r"after) (?:moving|leaving|the (?:trip|flight|airport|station|holiday|party)|"
            r"my (?:flight|trip|holiday)|heading|going)\b|\b(?:i'll|ill|i will|i'm going to|"
            r"im going to|i won't|i wont)? ?(?:be gone|be away|not be (?:here|around)|"
            r"won't be (?:here|around))\b(?:\s+\w+){0,4}? (?:on|for) (?:holiday|vacation|a trip|"
            r"business|work|the weekend|a week|a few days|leave)\b"
        ),
    ),
    # Accidents.
    Negative(
        id="en.accident.cut_myself_by_accident",
        kind="accident",
        pattern=(
            r"\b(?:accidentally|accidently|by accident|accidently|"
            r"i slipped and) (?:\w+ ){0,2}?(?:cut|burn(?:ed|t)?|hurt|hit|sliced|stabbed|scratched|"
            r"poisoned|overdosed|shot)\b(?:\s+\w+){0,4}|\b(?:cut|burn(?:ed|t)?|hurt|sliced|"
            r"scratched|nicked|stabbed) (?:my ?self|my (?:finger|thumb|hand|leg|knee|arm|foot|lip|"
            r"chin)) (?:\w+ ){0,2}?(?:while|when|chopping|slicing|cutting|shaving|cooking|making|"
            r"opening|on (?:a |the |some )|with (?:a|the) (?:knife|razor|can|tin|paper|grater|"
            r"peeler|scissors) (?:while|when|chopping|slicing|cooking|shaving|opening)|"
            r"by accident|accidentally|at (?:the )?(?:gym|work|training|practice)|playing|lifting|"
            r"skiing|running|falling|tripping|in (?:the|a) (?:kitchen|game|match|fall|"
            r"garden))\b(?:\s+\w+){0,5}"
        ),
    ),
    Negative(
        id="en.accident.hurt_myself_lifting",
        kind="accident",
        pattern=(
            r"\b(?:hurt|injured|pulled|strained|twisted|sprained|tweaked) (?:my ?self|my (?:back|"
            r"knee|ankle|wrist|shoulder|neck)) (?:\w+ ){0,2}?(?:at|during|while|when|playing|"
            r"lifting|running|skiing|in)\b(?:\s+\w+){0,4}"
        ),
    ),
    # Devices and things that die.
    Negative(
        id="en.device.phone_is_dying",
        kind="device",
        pattern=(
            r"\b(?:phone|laptop|battery|batteries|computer|pc|car|tablet|charger|headphones|"
            r"earbuds|plant|plants|flowers|fish|hamster|goldfish|tree|cactus|basil|orchid|"
            r"succulent|tomatoes|garden|console|kindle|mouse|keyboard|tv|router|printer|vibe|"
            r"party|conversation|group chat|server|engine) (?:\w+ ){0,2}?(?:is|are|was|were|keeps|"
            r"just|finally|totally|has|have)? ?(?:dying|died|dead|dies|die|killed|gonna die|"
            r"about to die)\b"
        ),
    ),
    Negative(
        id="en.device.kill_the_process",
        kind="device",
        pattern=(
            r"\b(?:kill|killed|killing) (?:the |my |a )?(?:process|app|task|server|tab|program|"
            r"battery|plant|plants|weeds|spider|bugs|mosquito|fly|lights|music|engine|game|boss)\b"
        ),
    ),
    # Someone else's crisis (reported), up to the first word about the client themself.
    Negative(
        id="en.third_party.friend_is_suicidal",
        kind="third_party",
        pattern=(
            r"\b(?:friend|friends|bestie|bff|bf|gf|boyfriend|girlfriend|brother|bro|sister|sis|"
            r"mom|mum|mother|dad|father|son|daughter|cousin|classmate|coworker|co-worker|"
            r"colleague|roommate|flatmate|partner|husband|wife|neighbou?r|client|patient|student|"
            r"kid|child|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|teacher|"
            r"he|she|they|someone|somebody|people|person|teenager|teens|guy|girl|man|woman|ex|"
            r"stepdad|stepmom|everyone in|his|her|their|celebrity|singer|"
            r"actor)\b{CLAUSE}(?:\b(?:kill|killed|kills|killing) (?:himself|herself|themselves|"
            r"themself)\b|\b(?:wants?|wanted|wanting) to (?:die|kill)\b|\bsuicid\w*|"
            r"\bself[- ]?harm\w*|\boverdos\w*|\b(?:cuts?|cutting|hurts?|hurting|harming|"
            r"burns?) (?:himself|herself|themselves)\b|\bhang(?:ed)? (?:himself|herself|"
            r"themselves)\b|\bjump(?:ed)? (?:off|from)\b[^.!?;\n]{0,30}|"
            r"\bbetter off without (?:him|her|them)\b|\b(?:burden|hopeless|"
            r"no point)\b[^.!?;\n]{0,30}|\bunaliv\w*)"
        ),
    ),
    Negative(
        id="en.third_party.he_wants_to_end_it",
        kind="third_party",
        pattern=(
            r"\b(?:he|she|they|friend|brother|sister|mom|mum|mother|dad|father|son|daughter|"
            r"partner|husband|wife|kid|cousin|someone|client|patient|student|roommate|flatmate|"
            r"coworker|colleague|boyfriend|girlfriend|bf|gf|bestie|neighbou?r|teacher|aunt|uncle|"
            r"grandma|grandpa)\b (?:\w+ ){0,4}?(?:said|says|told|tells|texted|wrote|posted|"
            r"keeps saying|kept saying|admitted|confessed|mentioned|thinks|thought|feels|"
            r"felt)(?: me| us| that)?(?: that)?(?: (?:he|she|they))? (?:\w+ ){0,2}?(?:wants?|"
            r"wanted|is going to|was going to|wanna|plans?|planned|might|would|will|feels?|felt|"
            r"has been|had been|is|was|s|s been|been|keeps|talks|talked|thinks|thought)\b{CLAUSE}"
        ),
    ),
    # Fiction and academic mentions, up to the first word about the client themself.
    Negative(
        id="en.fiction.in_a_movie",
        kind="fiction",
        pattern=(
            r"\b(?:movie|movies|film|films|book|books|novel|novels|story|stories|show|shows|"
            r"series|episode|episodes|game|games|anime|manga|comic|comics|character|characters|"
            r"protagonist|villain|hero|heroine|plot|song|songs|lyrics?|play|poem|poems|fanfic|"
            r"fanfiction|screenplay|script|chapter|scene|season finale|hamlet|romeo|juliet|"
            r"ophelia|sitcom|drama|k-?drama|documentary|podcast|video essay|tv series|netflix|"
            r"narrator|author|writer)\b{CLAUSE}"
        ),
    ),
    Negative(
        id="en.academic.essay_on",
        kind="academic",
        pattern=(
            r"\b(?:essay|essays|paper|papers|article|articles|research|thesis|dissertation|"
            r"lecture|lectures|presentation|report|reports|course|seminar|webinar|workshop|"
            r"training|statistics|stats|prevention|awareness|hotline|helpline|literature|survey|"
            r"assignment|homework|campaign|volunteering|psychology|psychiatry|sociology|module|"
            r"textbook|journal|conference|policy|documentary|podcast|epidemiology|risk factors|"
            r"screening|questionnaire|guidelines|charity|fundraiser|quiz|curriculum|first aid|"
            r"case study|study|studies|class|exam|lesson|news|headline|statistic)\b{CLAUSE}"
        ),
    ),
    Negative(
        id="en.academic.suicide_prevention",
        kind="academic",
        pattern=(
            r"\b(?:suicid\w*|self[- ]?harm\w*|overdos\w*) (?:prevention|awareness|rates?|"
            r"statistics|research|risk|hotline|helpline|crisis line|among|in (?:teens|adolescents|"
            r"men|women|young people|the uk|the us|japan|veterans)|data|studies|study|screening|"
            r"assessment|protocol|policy|training|attempt survivors|survivors|bereavement|loss|"
            r"is a (?:leading|major)|cases|epidemic|contagion|clusters?|methods in|"
            r"and the media)\b(?:[^.!?;\n]{0,40})"
        ),
    ),
    # Negated statements, truly negated ("I would never kill myself"; not "I don't want to live").
    Negative(
        id="en.negation.never_kill_myself",
        kind="negation",
        pattern=(
            r"\b(?:would|will|could|i'd|id|i'll|ill|i)? ?(?:never|not|no|wouldn't|won't|wont|"
            r"don't|dont|didn't|do not) (?:ever |really |actually |seriously |"
            r"even )?(?:\w+ )?(?:kill|hurt|harm|end) (?:my ?self|my life|it)\b(?:\s+\w+){0,2}|"
            r"\b(?:i'm|im|i am|i'm really|i'm definitely|i was|i've never been|never been|"
            r"not feeling|i'm not feeling) (?:not |never )(?:\w+ )?(?:suicidal|going to (?:kill|"
            r"hurt|harm) (?:my ?self)|going to do anything|a danger to myself|in danger)\b|"
            r"\bnot (?:suicidal|thinking (?:about|of) (?:suicide|killing myself|ending it|dying|"
            r"hurting myself))\b|\bno (?:suicidal )?(?:thoughts|plans|intentions|intent|"
            r"urges) (?:of|to|about)? ?(?:suicide|killing myself|hurting myself|harming myself|"
            r"self[- ]?harm|dying|ending it)?\b|\bnever (?:had|have|been) (?:any )?(?:suicidal|"
            r"thoughts of suicide|self[- ]?harm)\w*\b|\b(?:don't|dont|do not|never) (?:want|wanna|"
            r"wish) (?:\w+ )?(?:to )?die\b|\b(?:not|never) (?:going to|"
            r"gonna) (?:do anything (?:stupid|to myself)|kill myself|hurt myself)\b|"
            r"\bnot (?:a )?(?:suicide|suicidal)\b|\bi'm not (?:hopeless|a burden)\b"
        ),
    ),
    # Plain session fatigue: stopping the conversation is not stopping living.
    Negative(
        id="en.fatigue.cant_do_this_task_anymore",
        kind="fatigue",
        pattern=(
            r"\b(?:can't|cant|cannot|don't|dont|do not|no longer) (?:\w+ )?(?:want to |"
            r"wanna )?(?:go on|keep going|continue|do this|carry on|take (?:any more|anymore)|"
            r"answer)\b[^.!?;\n]{0,10}?\b(?:today|for now|right now|tonight|session|questions?|"
            r"conversation|chat|talking|this exercise|these questions|let's stop|can we stop|"
            r"stop here|let's pause|this topic|anymore today)\b"
        ),
    ),
]

# Four-letter words are corrected only by a swap of two letters ("wnat" → "want").
NEGATIVES.extend(
    [
        Negative(
            id="en.accident.nearly_hit_by_a_car",
            kind="accident",
            pattern=(
                r"\b(?:nearly|almost|accidentally|barely|practically|just about) (?:hit|punched|"
                r"bit|cut|burned|burnt|stabbed|scratched|ran over) me\b|\b(?:car|bus|truck|van|"
                r"bike|cyclist|driver|ball|door|branch|wave|dog|cat|puppy|kitten|horse|kid|baby|"
                r"toddler|brother|sister) (?:\w+ ){0,2}?(?:hit|bit|scratched|punched|kicked) me\b"
            ),
        ),
        Negative(
            id="en.purpose.goodbye_letter_moving",
            kind="purpose",
            pattern=(
                r"\b(?:(?:wrote|writing|write|written|sent|send|sending|left|made|making|signed|"
                r"signing) )?(?:a |my |the |some |our )?goodbye (?:letters?|notes?|cards?|emails?|"
                r"messages?|posts?|speech)(?= (?:to|for) (?:my |the |our |all my |all the )?"
                r"(?:co-?workers|colleagues|team|class|classmates|students|teachers?|boss|office|"
                r"clients|customers|neighbou?rs|followers|subscribers|group|club|staff)\b|"
                r"[^.!?]{0,40}\b(?:moving|retiring|relocating|graduating|last day|new job|"
                r"transferring|leaving (?:the company|my job|work|town|the team|school|for)|"
                r"quitting (?:my|the) job)\b)"
            ),
        ),
        Negative(
            id="en.negation.used_to_feel_suicidal",
            kind="negation",
            pattern=(
                r"\b(?:used to|years ago i|when i was (?:younger|a teen|a teenager|a kid|"
                r"in school)|"
                r"in the past i|back in (?:school|college|high school)) (?:\w+ ){0,3}?(?:suicidal|"
                r"self[- ]?harm\w*|cut myself|wanted to die|"
                r"thought about suicide)(?:[^.!?;\n]{0,30}?)"
                r",? (?:but|and) (?:now|these days|today|since then)(?: \w+){0,5}? (?:better|fine|"
                r"okay|ok|good|well|happy|safe|recovered|healed|stable)\b"
            ),
        ),
    ]
)

NEGATIVES.extend(
    [
        Negative(
            id="en.device.battery_about_to_die",
            kind="device",
            pattern=(
                r"\b(?:battery|phone|laptop|charge|tablet|computer|engine|plant|torch|flashlight|"
                r"headphones|airpods|car|controller)\b[^.!?]{0,25}\b(?:about to|going to|gonna) "
                r"die\b"
            ),
        ),
        Negative(
            id="en.purpose.plan_to_finish_homework",
            kind="purpose",
            pattern=(
                r"\b(?:deadline|homework|essay|project|assignment|report|paper|book|series|season|"
                r"puzzle|thesis|game|show|painting|work|chores|shift|exam|draft|course)\b"
                r"[^.!?]{0,60}\b(?:finish|finishing) (?:it|this|that|everything)(?: (?:tonight|"
                r"today|tomorrow|later|now|soon))?\b"
            ),
        ),
    ]
)

NEGATIVES.extend(
    [
        Negative(
            id="en.negation.im_not_going_to",
            kind="negation",
            pattern=(
                r"\b(?:i'm|im|i am) not (?:going|gonna|about|planning|trying) (?:to )?(?:end my "
                r"life|end my own life|kill myself|hurt myself|harm myself|take my (?:own )?life|"
                r"commit suicide)\b"
            ),
        ),
    ]
)

FUZZY4 = ["want", "live", "life", "kill", "dead", "hope", "rope", "wake", "pill", "gone", "jump"]

FUZZY = [
    "suicide", "suicidal", "myself", "overdose", "overdosing", "overdosed", "wrists",
    "anymore", "unalive", "goodbye", "burden", "hopeless", "pointless", "worthless", "tonight",
    "point", "reason", "nothing",
    "disappear", "existing", "exist", "living", "alive", "painkillers", "paracetamol",
    "medication", "sleeping", "tablets", "without", "everyone", "everybody", "better", "dying",
    "hanging", "strangle", "bleach", "poison", "carbon", "monoxide", "meaningless", "forever",
    "killing", "cutting", "harming", "hurting", "letters",
    "possessions", "belongings", "stockpiling", "tomorrow", "bridge", "building", "balcony",
    "anyone", "nobody", "yourself", "wanna", "breathing", "wake", "asleep", "future",
]  # fmt: skip

NEGATIVES.extend(
    [
        Negative(
            id="en.idiom.sleep_forever_on_sundays",
            kind="idiom",
            pattern=(
                r"(?:\b\w+ ){0,3}?\bsleep (?:forever|for ever) (?:on|at|this|every|during|in|till|"
                r"until|over) (?:the |a )?(?:weekends?|sundays?|saturdays?|holidays?|vacation|"
                r"my days? off|noon|lunch|morning|break)\b"
                r"|\b(?:i'm|i am|im) (?:such |just )?a (?:total |complete |bit of a )?waste of "
                r"space (?:at|in|on|during|when it comes to) (?!this world|the world|this planet|"
                r"this earth|earth|everyone)\w+"
            ),
        ),
    ]
)

NEGATIVES.extend(
    [
        Negative(
            id="en.negation.not_as_hopeless",
            kind="negation",
            pattern=(
                r"\b(?:not|isn't|isnt|wasn't|wasnt|never|less|no longer|nothing is|nothing's) "
                r"(?:(?:as|so|that|too|completely|totally|entirely|really|quite|at all) )?"
                r"(?:hopeless|pointless|meaningless)\b"
            ),
        ),
    ]
)

NEGATIVES.extend(
    [
        Negative(
            id="en.negation.didnt_cut_on_purpose",
            kind="negation",
            pattern=(
                r"\b(?:didn't|did not|wasn't|was not|never|not|don't|do not) (?:\w+ ){0,5}?(?:on "
                r"purpose|deliberately|intentionally)\b"
            ),
        ),
        Negative(
            id="en.idiom.one_more_meeting_ill_jump",
            kind="idiom",
            pattern=(
                r"\b(?:if|one more|another)\b[^.!?]{0,60}?\b(?:meetings?|emails?|calls?|class|"
                r"lectures?|exams?|spreadsheets?|reports?|songs?|ads|adverts?|commercials?|"
                r"questions?|forms?|surveys?|zoom|queues?|traffic|customers?|homework|deadlines?|"
                r"presentations?|slides?|chores?|dishes|laundry|notifications?|timesheets?|"
                r"group projects?|assignments?|invoices?|tickets?|spam|karaoke|christmas songs?|"
                r"small talk)\b[^.!?]{0,40}?\b(?:i'll|ill|i will|i'm going to|im going to|"
                r"i'm gonna|im gonna|gonna|imma|i'd|id|i would) (?:\w+ ){0,3}?(?:jump|kill|die|"
                r"throw myself|walk into|drown|hang|shoot)\b(?:(?!\b(?:not|no|never)\b)"
                r"[^.!?()]){0,40}?(?=[\s,.!(]*(?:(?:lol|lmao|haha\w*)[\s,.!]+)?(?:jk|joking|"
                r"just joking|only joking|just kidding|kidding|i'm kidding|im kidding)\b)"
            ),
        ),
        Negative(
            id="en.idiom.burden_on_the_group_chat",
            kind="idiom",
            pattern=(
                r"\b(?:i'm|im|i am) (?:such |just |kind of |kinda )?(?:a |the )?(?:burden|menace|"
                r"nuisance)\b[^.!?]{0,40}?\bwith (?:all )?(?:my|these|those|the) (?:\w+ )?(?:memes|"
                r"puns|jokes|gifs|stickers|spam|voice notes|typos|emojis|selfies|cat pictures|"
                r"photos|reels|tiktoks)\b"
            ),
        ),
    ]
)

# Treatment stopped on a doctor's word or for a reason of the day, not to die.
NEGATIVES.append(
    Negative(
        id="en.purpose.treatment_stopped_for_a_reason",
        kind="purpose",
        pattern=(
            r"\b{TREATSTOP}[^.!?\n]{0,60}?\b(?:(?:my |the )?(?:gp|doctor|doc|consultant|"
            r"oncologist|nurse|specialist|care team|renal team) (?:knows|said|says|told|agreed|"
            r"approved|suggested|recommended|allowed|changed|switched|stopped|okayed)|side effects|"
            r"counts (?:were|are) low|(?:doctor|gp|consultant)s? (?:advice|orders|approval)|"
            r"so (?:that )?i can go to|hoping to go (?:back )?next)\b"
        ),
    )
)

# Cutting cloth, hair or paper "again", not skin.
NEGATIVES.append(
    Negative(
        id="en.purpose.cut_fabric_again",
        kind="purpose",
        pattern=(
            r"\bi (?:\w+ )?cut(?:ting)? (?:again|last night|today|yesterday|this morning|tonight)"
            r"\b[^.!?\n]{0,20}?,? (?:the|my|some|a) (?:\w+ )?(?:fabric|cloth|pattern|hair|bangs|"
            r"fringe|paper|wood|coupons|grass|lawn|hedge|material)\b"
        ),
    )
)
