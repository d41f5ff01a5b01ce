"""English patterns, by C-SSRS category. Written in plain spelling; the detector compiles them
through the matching skeleton (apostrophes dropped, doubled letters squeezed), so "don't",
"dont", "kill" and "kil" are the same to them — never write an optional apostrophe (`'?`).

`{NAME}` expands a macro below. A rule is `(category, pattern)`, or `(category, pattern, flags)`
with flags: "plan" (an explicit plan: L4 on its own), "support" (counts only next to another
finding)."""

from __future__ import annotations

MACROS = {
    # What a person wants / is about to do.
    "WANT": r"(?:want|wanna|wan|wana|wish i could|would like|need|needed|wanted|wanting|want ?ed)",
    "TO": r"(?:to|2|t)",
    "INTENT": (
        r"(?:going to|gonna|gunna|goin to|will|i'll|i'm about to|about to|decided to|"
        r"i've decided to|have decided to|ready to|planning to|plan to|planned to|plan on|"
        r"intend to|finally going to|gonna finally|made up my mind to|i'm finally going to|"
        r"i'm going to|tonight i|tonight i'll|today i'll|it's time to|time to)"
    ),
    "KILLME": (
        r"(?:kill|killing|kiling|kil) ?(?:my ?self|myslf|meself|mself|my self|myself)"
        r"|kms|unalive (?:my ?self|me)|unaliving (?:my ?self)|off (?:my ?self)|offing (?:my ?self)"
        r"|top (?:my ?self)|do myself in|self[- ]?delete|delete myself|end (?:my|my own) life"
        r"|ending (?:my|my own) life|take (?:my|my own) life|taking (?:my|my own) life"
        r"|end it all|ending it all|commit suicide|commit sudoku|commit die|sewerslide"
        r"|end myself|erase myself|end (?:my )?existence"
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
        r"(?:tonight|tonite|2nite|2night|tomorrow|tmrw|tmr|tomoro|today|this (?:morning|"
        r"afternoon|evening|weekend|week|friday|saturday|sunday|monday|tuesday|wednesday|"
        r"thursday|month)|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
        r"at (?:\d{1,2}(?::\d\d)? ?(?:am|pm|o'clock)?|midnight|noon|dawn)|midnight|"
        r"after (?:the kids|my kids|everyone|my wife|my husband|my parents|my mom|my mum|my dad|"
        r"they|the baby|my partner|my roommate|my flatmate|work|school|class|my shift|dinner)"
        r"(?: (?:are|is|go|goes|fall|falls|fell|have gone|get|gets))?(?: (?:asleep|to sleep|"
        r"to bed|out|home|back|gone|leave|left))?|when (?:everyone|the kids|they|my parents|"
        r"my wife|my husband|he|she)(?: is| are|'s|'re)? (?:asleep|sleeping|gone|out|at work|"
        r"away)|before (?:morning|sunrise|dawn|christmas|my birthday|new year|the weekend)|"
        r"by (?:friday|saturday|sunday|monday|the weekend|tomorrow|the end of the (?:week|month)"
        r"|morning)|in (?:an|one|two|a few|a couple of|\d+) (?:hours?|minutes?|days?|mins?)|"
        r"next (?:week|weekend|month)|this time tomorrow|on my birthday|new year's eve|"
        r"right now|later tonight|when i get home)"
    ),
}

RULES: list[tuple[str, ...]] = [
    # --- passive ideation: a wish to be dead, not to wake up, not to exist.
    ("passive_ideation", r"\b{WANT} (?:\w+ ){0,2}{TO} (?:just )?(?:die|dye|be dead|disappear forever|not exist|not be alive|stop existing|cease to exist|not wake up|never wake up|sleep forever|go to sleep forever|not be here|be gone|vanish forever|rot)\b"),
    ("passive_ideation", r"\b(?:wanna|want to|wan) (?:just )?(?:die|dye)\b"),
    ("passive_ideation", r"\b(?:wish|wished|wishing|hope|hoping) (?:that )?i (?:was|were|could be|would be|'d be) (?:dead|gone|never born|not alive|not here|not born)\b"),
    ("passive_ideation", r"\b(?:wish|wished|wishing) i (?:was never|had never been|wasn't|hadn't been|were never) (?:born|alive|here)\b"),
    ("passive_ideation", r"\b(?:wish|wished|wishing|hope|hoping|pray|praying) (?:that )?i (?:could )?(?:just )?(?:die|don't wake up|won't wake up|never wake up|not wake up|could fall asleep and not wake|fall asleep and never|would die|would just die|disappear|stop existing|get hit by|got hit by|had cancer|get cancer|don't make it|dont make it)\b"),
    ("passive_ideation", r"\b(?:fall|go|went|falling) (?:to )?(?:asleep|sleep) and (?:not|never|don't|dont) wake (?:up|again)\b"),
    ("passive_ideation", r"\b(?:don't|dont|do not|never) (?:want|wanna) (?:\w+ )?(?:to )?wake up\b(?! (?:early|at|for|so early|before))"),
    ("passive_ideation", r"\bsleep (?:forever|and never wake up|and not wake up|for ever)\b"),
    ("passive_ideation", r"\bbetter off dead\b|\brather be dead\b|\b(?:i'd|would) (?:rather )?(?:be|am) better dead\b"),
    ("passive_ideation", r"\b(?:i'd|i would|id) rather (?:just )?(?:die|be dead|not exist|not be alive|not wake up)\b(?! than (?:go|eat|wear|do|sing|watch|sit|listen|call|be seen|work|talk|meet|dance|lose|miss|admit))"),
    ("passive_ideation", r"\b(?:don't|dont|do not|no longer|never) (?:\w+ )?(?:want|wanna|wish) (?:\w+ )?(?:to )?(?:live|be alive|exist|be here|be around|go on living|keep living|stay alive|be on this earth)\b(?! (?:in|with|here|there|near|at|alone|by|under|on|next|together|abroad|like that)\b)"),
    ("passive_ideation", r"\b(?:tired|sick|exhausted|so tired|weary) (?:of|from) (?:living|life|being alive|existing|my life|this life|being me|breathing|waking up)\b(?! (?:in|with|at|near|under|paycheck|off|on|out of)\b)"),
    ("passive_ideation", r"\b(?:tired|sick|weary) of (?:it all|everything)\b(?=.{0,40}\b(?:live|living|life|alive|die|dying|end|go on|keep going|point)\b)"),
    ("passive_ideation", r"\b(?:i'm|i am|im) (?:so |just |really )?done with (?:life|living|being alive|existing|this life|everything and everyone|it all|this world)\b"),
    ("passive_ideation", r"\b(?:think|thinking|thought|thoughts|fantasi[sz]e|fantasi[sz]ing|dream|dreaming|obsessed) (?:\w+ )?(?:about|of) (?:death|dying|being dead|not being here|not existing|not waking up|my (?:own )?death|my funeral|disappearing forever)\b"),
    ("passive_ideation", r"\b(?:death|dying) (?:would be|sounds|seems|feels like) (?:a )?(?:relief|peaceful|better|nice|easier|the only way|an escape|freedom)\b"),
    ("passive_ideation", r"\b(?:wouldn't|would not|don't|do not) (?:mind|care) (?:if i )?(?:dying|died|if i died|not waking up|never waking up|getting hit|if i got hit|if i didn't wake up)\b"),
    ("passive_ideation", r"\b(?:why|what) (?:am i|is the point of me) (?:still )?(?:alive|even alive|here|still here)\b"),
    ("passive_ideation", r"\bi (?:should|need to|deserve to|ought to) (?:just )?(?:die|be dead|not exist|disappear)\b"),
    ("passive_ideation", r"\b(?:want|wanna|wish i could|need to) (?:just )?(?:disappear|vanish|not exist|stop existing|fade away)\b(?! (?:for (?:a|the) (?:while|week|weekend|day|bit|few)|into|to|from|off|under|in (?:a|my|bed|the))\b)"),
    ("passive_ideation", r"\bplease (?:just )?(?:let me die|kill me|end me)\b|\b(?:someone|somebody|anyone) (?:please )?(?:just )?(?:kill|end|shoot) me\b|\bkill me (?:please|already|pls|plz)\b"),
    ("passive_ideation", r"\b(?:want|wish|need) (?:someone|somebody) (?:to|would) (?:kill|shoot|end) me\b"),
    ("passive_ideation", r"\b(?:not|never) (?:want|wanna) to be (?:alive|here) (?:any ?more|anymore|any longer)\b"),
    ("passive_ideation", r"\b(?:life|living) (?:is|feels) (?:too )?(?:exhausting|unbearable|too much to bear|torture)\b"),
    ("passive_ideation", r"\bi (?:can't|cant|cannot) (?:keep|stay) (?:living|alive|breathing)\b"),
    ("passive_ideation", r"\b(?:i'm|im|i am) (?:so )?(?:ready|waiting) (?:to die|for death|for it all to end|for the end)\b"),
    ("passive_ideation", r"\b(?:want|wish|need) (?:it|everything|the pain|it all|this|my life|the world|life) (?:\w+ )?to (?:stop|end) (?:forever|for good|permanently)\b|\b(?:want|wish|need) (?:it all|everything|my life|life) to (?:end|be over)\b"),
    # --- active ideation: thoughts of killing oneself.
    ("active_ideation", r"\b{KILLME}\b"),
    ("active_ideation", r"\bsuicid(?:e|al|ality|ing)\w*|\bsuic\b|\bsui (?:thoughts|ideation|urges)\b|\bsuicide\w*|\bs[\W_]?(?:u|\*)[\W_]?icide\w*|\bsucid\w*"),
    ("active_ideation", r"\b(?:end|ending|finish|finishing) (?:it|things|everything)(?: all| for good| permanently| once and for all| now| tonight| today| soon)?\b(?! (?:with|here|early|for today|off|there|on|between|up)\b)(?=\s*(?:$|[.,!?;]|and|but|so|i|because|cause|cuz|tonight|today|now|soon|for good|permanently|once|all))"),
    ("active_ideation", r"\b(?:thinking|thought|think|considering|considered|contemplating|fantasi[sz]ing|planning) (?:\w+ )?(?:about|of|on)? ?(?:killing myself|ending it|ending my life|ending things|taking my life|suicide|not being alive|offing myself|unaliving)\b"),
    ("active_ideation", r"\b(?:urges?|thoughts?) (?:to|of) (?:kill|end|hurt|harm) (?:myself|it all|my life)\b"),
    ("active_ideation", r"\bhow (?:to|do i|do you|can i|could i) (?:kill (?:myself|yourself)|end (?:it|my life)|commit suicide|die (?:painlessly|quickly|peacefully|fast)|painlessly die)\b"),
    ("active_ideation", r"\b(?:painless|quick|easy|peaceful|quickest|easiest) (?:way|ways|method|methods) (?:to|of) (?:die|dying|go|end it|kill myself|suicide)\b"),
    # --- method or means.
    ("method", r"\b(?:take|taking|took|swallow|swallowing|swallowed|down|downing|neck|necking|chug|gulp|gulping|eat|eating|pop|popping|od on|overdose on|overdosing on) (?:\w+ ){0,3}?(?:all|every|the whole|a whole|whole|a bunch|bunch|handful|handfuls|a handful|lots|a lot|loads|enough|too many|entire|bottle|box|boxes|packet|packets|pack|strip|month's|stash|everything)\b(?:\w+ |\W+){0,4}?{PILLS}"),
    ("method", r"\b(?:how many|how much|what dose|which dose|the dose|a dose|enough)\b(?:\s+\w+){0,4}? ?{PILLS}?(?:\s+\w+){0,5}? (?:it (?:would|will|'d|does) take|would (?:it )?take|to (?:die|kill|end|od|overdose|not wake up|never wake up|be fatal|be lethal|stop my heart)|(?:would|will|could) (?:kill|be fatal|be lethal|be enough|do it|stop my heart)|is (?:lethal|fatal|deadly|enough to die))"),
    ("method", r"\b(?:overdos(?:e|ed|es|ing)|od'?ing|\bod\b|lethal dose|fatal dose|deadly dose)\b"),
    ("method", r"\b{PILLS}\b(?:\s+\w+){0,4}? (?:to (?:die|end it|kill myself|not wake up|never wake up|do it|end (?:my|this)|overdose|od))\b"),
    ("method", r"\b(?:hang|hanging|hanged|hung) ?(?:my ?self|me)\b|\bnoose\b|\bneck myself\b|\bnecking myself\b|\bcommit (?:rope|neck)\b|\b(?:rope|roping) (?:my ?self|tonight|today|soon)\b|\bwanna rope\b|\bwant to rope\b"),
    ("method", r"\b(?:rope|cord|belt|scarf|cable|ligature)\b(?:\s+\w+){0,4}? (?:around|round|on|over|to) (?:my )?(?:neck|throat|ceiling|beam|door|banister|hook|tree)\b"),
    ("method", r"\b(?:strong enough|sturdy enough)\b(?:\s+\w+){0,3}? (?:to )?(?:hold|take) (?:my weight|me)\b|\b(?:tie|tying|tied) (?:a |the )?(?:noose|knot)\b"),
    ("method", r"\b(?:jump|jumping|leap|leaping|throw myself|throwing myself|step|stepping|fall|falling|drop|dropping|hurl myself|launch myself|yeet myself) (?:\w+ )?(?:off|from|out of|out|over|of) (?:a |the |that |this |my |our |an |some |top of (?:a |the |my |our )?)?(?:\w+ )?{HIGH}\b"),
    ("method", r"\b(?:stand|standing|stood|sit|sitting|sat|been|going|went|walked|climbed|climbing|climb) (?:\w+ )?(?:on|onto|at|to|up to|over) (?:the )?(?:edge|ledge|railing|roof|rooftop|top) (?:of )?(?:a |the |my |this |that )?(?:\w+ )?{HIGH}?\b(?=.{0,60}\b(?:jump|end|die|step off|fall|let go|push myself|over)\b)"),
    ("method", r"\bhow (?:high|tall|far) (?:\w+ ){0,4}(?:to (?:die|kill|be fatal)|would kill|is fatal|is enough|do i need|would i need|is lethal)\b|\bhigh enough (?:to )?(?:die|kill|be fatal)\b"),
    ("method", r"\b(?:jump|jumping|step|stepping|walk|walking|throw myself|throwing myself|lie down|lay down|lying|laying|stand|standing|run|running|drive|driving|swerve|swerving|crash|crashing) (?:\w+ )?(?:in front of|under|onto|into|on) (?:a |the |an |some |oncoming |moving )?(?:\w+ )?{VEHICLE}\b"),
    ("method", r"\b(?:get|getting|be|being) (?:hit|run over|killed) by (?:a |the )?(?:\w+ )?{VEHICLE}\b(?=.{0,40}\b(?:want|wish|hope|maybe|would|should|if i)\b)|\b(?:wish|hope|hoping|want) (?:\w+ ){0,3}(?:hit|run over) by (?:a |the )?\w*"),
    ("method", r"\b(?:drive|driving|crash|crashing|steer|steering|swerve|swerving) (?:my )?(?:car )?(?:into|off) (?:a |the |an |oncoming )?(?:\w+ )?(?:wall|tree|bridge|cliff|traffic|pole|barrier|river|lake|truck|lorry)\b"),
    ("method", r"\b(?:slit|slitting|slice|slicing|cut|cutting|open|opening) (?:open )?(?:my )?(?:wrists?|veins?|throat|arteries|artery)\b(?: open)?|\b(?:bleed|bleeding) (?:myself )?out\b|\bcut (?:deep|deeper|too deep|vertical|down the road)\b"),
    ("method", r"\b(?:knife|blade|razor|razors|blades|scalpel|glass|scissors|box cutter|boxcutter|sharpener)\b(?:\s+\w+){0,3}? (?:to|on|in|into|across|against|over) (?:my )?(?:wrists?|throat|veins?|neck|arms?|skin|thighs?|chest|heart)\b"),
    ("method", r"\bcarbon monoxide\b|\bgas (?:my ?self|oven)\b|\bexhaust (?:pipe|fumes|hose)\b|\bhose (?:from|to) the exhaust\b|\b(?:charcoal|helium|nitrogen) (?:\w+ ){0,3}(?:tent|bag|room|car|to die|in the car|hood|method)\b|\b(?:burn|burning|light|lighting) (?:\w+ )?charcoal\b|\b(?:turn|leave|leaving|turning) (?:on )?the gas\b"),
    ("method", r"\b(?:shoot|shooting|shot) (?:my ?self|me)\b(?! in the foot)|\b(?:gun|pistol|rifle|revolver|shotgun|barrel|bullet)\b(?:\s+\w+){0,3}? (?:to|in|into|against|through|at) (?:my )?(?:head|mouth|temple|brain|chin|heart)\b|\bblow my brains out\b|\beat a bullet\b|\bbullet (?:in|through) my\b"),
    ("method", r"\b(?:drown|drowning|drowned) (?:my ?self)\b|\b(?:walk|walking|swim|swimming|go|going|wade|wading|jump|jumping) (?:\w+ )?(?:into|in|out into) (?:the |a )?(?:sea|ocean|river|lake|water|waves|canal)\b(?=.{0,40}\b(?:never|not come back|don't come back|drown|die|end|gone|until|sink|stones?|forever)\b|\s*$)"),
    ("method", r"\b(?:drink|drinking|swallow|swallowing|down|take) (?:\w+ )?(?:bleach|antifreeze|poison|rat poison|pesticide|weedkiller|drain cleaner|cyanide|chemicals)\b|\bpoison (?:my ?self)\b|\bpoisoning myself\b"),
    ("method", r"\b(?:starve|starving) myself to death\b|\bdrink myself to death\b|\b(?:freeze|freezing) myself to death\b"),
    ("method", r"\b(?:knife|rope|pills|gun|razor|blood|coffin|grave|skull|bridge|train)(?: (?:knife|rope|pills|gun|razor|blood|coffin|grave|skull|bridge|train))+\b", "support"),
    ("method", r"\b(?:my|the|a|his|dad's|mum's|mom's) (?:gun|pistol|rifle|shotgun|rope|noose|pills|meds|blade|razor)\b(?=.{0,60}\b(?:tonight|today|ready|waiting|decided|going to|gonna|it's time|do it|end it|use it|use them)\b)", "support"),
    # --- intent and plan.
    ("intent_plan", r"\b{INTENT} (?:\w+ ){0,2}?(?:{KILLME}|die|end (?:it|things|everything)|do it|jump|overdose|hang (?:my ?self)|shoot (?:my ?self)|slit|drown (?:my ?self)|take (?:all )?(?:my |the |these |those )?{PILLS}|swallow|walk into|step (?:off|in front)|throw myself|not be here|be gone|say goodbye|leave this world)\b"),
    ("intent_plan", r"\b(?:i|i've|ive|i have|i've got|ive got) (?:already )?(?:a|the|my) plan\b|\b(?:i've|ive|i have|i) (?:already )?(?:made|got|have|worked out|figured out|written|planned|picked|chosen|set|decided on) (?:a |the |my )?(?:plan|date|day|time|spot|place|method|bridge|way)\b(?=.{0,60}\b(?:die|end|kill|it|do it|jump|over|done|gone|suicide|pills|rope)\b|\s*$)|\bthe plan is (?:to )?(?:die|end|kill|jump|take)\b|\b(?:i know|i've figured out|ive figured out|i worked out) (?:exactly )?how (?:i'm going to|im going to|i'll|i will|to) (?:do it|end it|die|kill myself)\b|\bplanned (?:it|everything|my death|my suicide) (?:out)?\b", "plan"),
    ("intent_plan", r"\b(?:tonight|today|tomorrow|this) (?:is|'s|s) (?:the|my) (?:night|day|last night|last day)\b|\b(?:tonights|todays|tomorrows) the (?:night|day)\b|\bthis is (?:my|the) last (?:day|night|week|message|time|text|post|goodbye|weekend)\b|\bmy last (?:day|night|week|message|text|post|weekend) (?:on earth|alive|here|ever)\b|\b(?:by the time|when) (?:you|anyone|someone|they) (?:read|reads|see|sees|find|finds) this\b|\bi won't be (?:here|around|alive) (?:tomorrow|next week|much longer|for long|by|anymore|to see|after)\b|\bi'll be gone (?:soon|by|before|tomorrow|tonight)\b|\bgoodbye (?:forever|everyone|world|cruel world|all)\b|\bthis is goodbye\b|\byou won't (?:hear from|see) me (?:again|anymore|after)\b|\bit (?:will|'ll) (?:all )?be over (?:soon|tonight|tomorrow)\b|\bnot (?:going to|gonna) be (?:here|around) (?:much longer|tomorrow|next week|for long)\b|\b(?:i've|ive|i have) made (?:my )?peace\b"),
    ("intent_plan", r"\b(?:going to|gonna|will|i'll) do it\b", "support"),
    # --- preparatory behaviour.
    ("preparatory", r"\b(?:wrote|write|writing|written|finished|left|leave|leaving|drafted|drafting|typed|typing|started) (?:\w+ ){0,2}?(?:suicide|goodbye|farewell|final|last|good bye|goodby) (?:note|notes|letter|letters|message|messages|video|texts?|emails?)\b|\bsuicide (?:note|letter)s?\b|\bgoodbye (?:notes?|letters?)\b"),
    ("preparatory", r"\b(?:said|saying|say|told|telling) (?:my )?(?:goodbyes?|good byes?|farewells?)\b|\b(?:said|saying|say) goodbye to (?:everyone|everybody|my (?:family|friends|kids|mom|mum|dad|cat|dog|sister|brother|parents)|people|all)\b(?! (?:at|before|after|because|for the (?:summer|holidays|weekend))\b)"),
    ("preparatory", r"\b(?:giving|gave|give|given|handing|handed|sold|selling) (?:away )?(?:all )?(?:of )?(?:my |away my )?(?:stuff|things|belongings|possessions|clothes|books|games|cat|dog|pets?|jewelry|jewellery|guitar|plants|collection|savings|everything i own)\b(?: away)?(?=.{0,50}\b(?:won't need|wont need|not going to need|don't need|last|anymore|after|since|before i|gone|won't be|no longer|for good|to people|away)\b|\s*$)"),
    ("preparatory", r"\b(?:won't|wont|will not|not going to|don't|dont|never) (?:be )?need(?:ing)? (?:my|any of my|these|those|them|the|any) ?(?:things|stuff|clothes|belongings|books|stuff anymore|possessions|money|savings|phone|room)?\b(?=.{0,20}\b(?:anymore|any more|after|much longer|where i'm going|soon|now|again)\b|\s*$)"),
    ("preparatory", r"\b(?:wrote|write|writing|written|made|make|making|updated|updating|drew up|finished|sorted) (?:out )?(?:a |my )?(?:will|affairs)\b(?=.{0,40}\b(?:after|gone|in case|just in case|when i'm|for when|so (?:my|they|everyone)|before i)\b)|\b(?:put|putting|got|getting|sorted|sorting) (?:all )?(?:my )?(?:affairs|things|everything|life) in order\b(?=.{0,40}\b(?:after|gone|in case|so|before|for when|won't|last)\b|\s*$)"),
    ("preparatory", r"\b(?:saving|saved|save|stockpil\w*|hoard\w*|collecting|collected|stash\w*|storing|stored|hiding|hid|hidden|keeping|kept|getting|got|bought|buying|buy|ordered|order|ordering|picked up|acquired|stocking up on|stocked up on) (?:up )?(?:\w+ ){0,3}?{PILLS}\b(?=.{0,60}\b(?:for|in case|until|enough|when|to|just|all|so|months|weeks|die|end|night|plan|ready|secretly|drawer|lots|hundred|\d+)\b|\s*$)"),
    ("preparatory", r"\b(?:bought|buying|buy|ordered|ordering|got|getting|found|picked up|acquired|looking for|looked for|searching for|looked up|researched|googled|googling|researching) (?:\w+ ){0,2}?(?:a |the |some )?(?:rope|noose|gun|pistol|rifle|charcoal|helium|blades?|razors?|razor blades|poison|bleach|ligature)\b"),
    ("preparatory", r"\b(?:looked up|looking up|researched|researching|googled|googling|read up on|reading about|watching videos about|searched|searching) (?:\w+ ){0,3}?(?:how to (?:die|kill|hang|overdose|end)|methods|ways to die|lethal|painless|suicide|overdose|how many pills|the tallest|bridges|how high)\b"),
    ("preparatory", r"\b(?:found|picked|chose|chosen|scouted|checked out|visited) (?:a |the )?(?:perfect |good |right |high )?(?:spot|place|bridge|building|roof|tree|location|method)\b(?=.{0,40}\b(?:for it|to do it|to jump|to end|to die|where|for when|for tonight|high enough)\b)"),
    ("preparatory", r"\b(?:left|leaving|leave|write|wrote|writing) (?:\w+ ){0,3}(?:letters?|notes?|messages?) (?:for|to) (?:everyone|my (?:family|kids|mom|mum|dad|parents|wife|husband|partner|friends|sister|brother)) (?:to (?:find|read)|for after|for when|explaining why|so they know|saying (?:goodbye|sorry))\b"),
    ("preparatory", r"\b(?:deleted|deleting|cancelled|canceled|cancelling|closed|closing) (?:\w+ ){0,2}?(?:all )?(?:my )?(?:accounts|subscriptions|social media|socials)\b(?=.{0,50}\b(?:won't need|wont need|not going to need|don't need|last|anymore|after|gone|won't be|no longer|for good|before|ready|doesn't matter)\b)"),
    ("preparatory", r"\b(?:take care of|look after|have|keep) (?:my )?(?:cat|dog|kids|pets?|plants|things|stuff) (?:for me )?(?:when|after|once) i(?:'m| am)? (?:gone|not here|dead)\b|\b(?:when|after|once) i(?:'m| am| am) (?:gone|dead|no longer here|not around)\b"),
    # --- current self-harm.
    ("self_harm", r"\b(?:cut|cutting|cuts|cutted|carve|carving|carved|slice|slicing|sliced|scratch|scratching|scratched|burn|burning|burned|burnt|hit|hitting|punch|punching|punched|bite|biting|bit|stab|stabbing|stabbed) (?:my ?self|me|my (?:arms?|wrists?|legs?|thighs?|skin|stomach|hips?|body|hands?|face|ankles?))\b(?! (?:free|loose|off from|out of|some slack|up on)\b)"),
    ("self_harm", r"\b(?:hurt|hurting|hurts|harm|harming|harmed|injure|injuring|injured|punish|punishing|punished|mutilate|mutilating) (?:my ?self)\b(?! (?:at the gym|playing|lifting|skiing|running|during|in (?:a|the) (?:game|match|fall|gym|accident)|falling|tripping)\b)"),
    ("self_harm", r"\bself[- ]?(?:harm|harming|harmed|injury|injuring|mutilation|mutilate|hatred and cutting)\b|\bself ?inflicted\b|\bselfharm\w*"),
    ("self_harm", r"\b(?:relaps\w*|urges?|clean|scars?|cuts?|wounds?) (?:\w+ ){0,2}?(?:on |to |from |of |with )?(?:sh|self harm|cutting|the blade)\b|\bsh (?:urges|scars|relapse|again)\b|\b(?:started|start|starting|went back to|back to|relapsed into|been) (?:cutting|burning myself|hurting myself|scratching)\b(?! (?:the|a|my hair|back on|down|onions|vegetables|costs|class|corners|paper|bread|wood|sugar|carbs)\b)"),
    ("self_harm", r"\b(?:fresh|new|deep|bleeding|open) (?:cuts|wounds|scars|gashes)\b|\b(?:cuts|scars|wounds|marks|burns) (?:on|all over|across|up and down) my (?:arms?|wrists?|legs?|thighs?|skin|stomach|hips?|body)\b|\b(?:made|make|making) (?:my ?self) bleed\b|\buntil (?:i|it) bled?\b|\btill (?:i|it) bleeds?\b"),
    ("self_harm", r"\b(?:cutting|cut) again\b|\bi cut (?:again|last night|tonight|today|yesterday|deeper|this morning)\b|\b(?:pick|picking|picked|rip|ripping) (?:my skin|at my skin) (?:until|till|off)\b|\bbang(?:ing)? my head (?:against|on|into) (?:the )?(?:wall|floor|door|desk)\b"),
    ("self_harm", r"\b(?:blade|blades|razor|razors|lighter|cigarette|compass|safety pin|pencil sharpener|sharpener) (?:\w+ ){0,3}?(?:on|into|against|to) (?:my )?(?:skin|arms?|wrists?|legs?|thighs?|stomach|hips?|body)\b"),
    # --- being a burden.
    ("burden", r"\b(?:better|happier|easier|fine|okay|ok|relieved|free|lighter) (?:off )?without me\b|\bwithout me (?:around |here )?(?:everyone|everybody|they|the world|my family|you|people|things)(?:'d| would| will|'ll)? (?:be )?(?:better|happier|fine|easier|relieved|free)\b"),
    ("burden", r"\b(?:everyone|everybody|they|people|my family|the world|my kids|my parents|my friends|my wife|my husband|my partner|you all|you guys|he|she)(?:'d| would| will|'ll)? (?:\w+ )?(?:be )?(?:better|happier|fine|relieved|okay|glad|free|easier)(?: off)? (?:if|when|once) i(?:'m| am| was| were| wasn't| weren't| died| die| disappear| disappeared| left| left for good| gone)\b(?! (?:at home|away for|on (?:holiday|vacation)|out|busy)\b)"),
    ("burden", r"\b(?:i'm|im|i am|i feel like|feel like|i'm just|i'm only|just|i've become|i became|being|to be) (?:\w+ )?(?:a |such a |the |an |nothing but a |only a |just a |the biggest )?(?:burden|drain|weight|waste of (?:space|oxygen|air|life|skin)|problem for everyone|dead weight|mistake|disappointment to everyone)\b(?! (?:at work|to carry|of proof|of history)\b)"),
    ("burden", r"\b(?:burden|burdening) (?:to|on|for) (?:everyone|everybody|my|them|you|people|others|the people)\b|\b(?:no one|nobody|noone|none of them|not one person) (?:would|will|'d|is going to|gonna) (?:even )?(?:miss|notice|care|cry|mourn|come to my funeral)(?: me)?(?:[ ,]+(?:if|when|once) (?:i|i'm|im)\b|(?: me)?\s*$| me\b)"),
    ("burden", r"\b(?:won't|wont|will not|not going to|not gonna|i'll stop|stop) (?:be(?:ing)? )?(?:a )?(?:problem|burden|bother|trouble|nuisance|annoyance|in the way|in anyone's way|weight)(?: (?:for|to|on) (?:anyone|anybody|you|them|everyone|anyone else))? (?:much longer|for long|anymore|any longer|soon|after (?:tonight|today|this)|again)\b|\b(?:soon|after this|after tonight) (?:i )?(?:won't|wont|will not) (?:be )?(?:a )?(?:problem|burden|bother) (?:for|to) (?:anyone|anybody|you|them|everyone)\b"),
    ("burden", r"\bi (?:ruin|ruined|destroy|make worse|wreck) (?:everything|everyone's lives|everyone's life|it for everyone|their lives)\b(?=.{0,40}\b(?:without me|gone|better|should|die|disappear)\b|\s*$)|\b(?:they|everyone|everybody|people|my family) (?:would|will|'d) be (?:glad|relieved|happy) (?:if|when) i(?:'m| was| were)? (?:gone|dead|died|not here)\b"),
    ("burden", r"\b(?:the world|everyone|my family|they|you|people) (?:doesn't|don't|do not|does not|wouldn't|would not) (?:need|want|miss) me\b(?=.{0,40}\b(?:here|alive|around|anymore|gone)\b|\s*$)"),
    # --- hopelessness about living.
    ("hopelessness", r"\b(?:no|zero|not any|not a|there's no|theres no|there is no|don't see any|dont see any|can't see any|cant see any|don't see the|cant see the|can't see the|dont see the) (?:\w+ )?(?:point|reason|purpose|use|sense|meaning) (?:\w+ )?(?:in |to |of |for )?(?:living|live|life|being alive|going on|carrying on|trying|existing|keep(?:ing)? going|continuing|anything|me being here|waking up|getting up|staying alive|me|my life|it all|fighting|being here|any of it|this life)\b(?! (?:this (?:course|class|job|module|meeting)|with (?:him|her|them)|in (?:that|this) (?:job|class|course|app|game))\b)"),
    ("hopelessness", r"\bwhat(?:'s| is|s)? (?:even )?the point (?:of |in )?(?:living|life|being alive|going on|anything|it all|me|existing|waking up|trying anymore|any of it|even trying|carrying on|this life)\b"),
    ("hopelessness", r"\b(?:life|living|my life|existence|everything|being alive|my existence) (?:is|feels|seems|has become|became|'s) (?:\w+ )?(?:pointless|meaningless|worthless|hopeless|not worth (?:living|it)|empty and pointless|a waste|over)\b|\b(?:life|it) (?:isn't|is not|isnt|aint|ain't) worth (?:living|it anymore|it any more)\b|\bnot worth living\b"),
    ("hopelessness", r"\bnothing (?:\w+ )?(?:to live for|left (?:to live for|for me|to lose))\b|\b(?:no|nothing|nothin) (?:left )?to live for\b|\bno (?:reason|reasons) to (?:live|stay|keep going|go on|get up)\b"),
    ("hopelessness", r"\b(?:nothing|it|things|life|my life|this|it all|everything)(?:'s| is| will| is going to| isn't going to| won't|'ll)? (?:\w+ )?(?:ever |never )(?:get|gonna get|going to get|be|change|improve|feel|going to be) (?:any )?(?:better|okay|ok|good|different|easier)\b|\bit(?:'s| is) (?:never|not ever) (?:going to|gonna) (?:get|be) (?:better|okay|ok)\b|\bnothing (?:will|is going to|'s going to|gonna) (?:ever )?(?:change|get better|help|improve)\b|\bnever (?:going to|gonna) get better\b"),
    ("hopelessness", r"\b(?:can't|cant|cannot|can not|unable to|couldn't) (?:\w+ )?(?:go on|keep going|carry on|do this|take (?:it|this|any more|anymore)|keep living|live like this|handle (?:this|it|life) anymore|hold on|keep fighting|cope|continue living|bear (?:it|this|life)|survive this|face another day|keep doing this|do life|get through another day|take much more)\b(?! (?:with (?:this|the|these|our|you|today)|today|talking|answering|the session|this session|right now,? (?:can|let)|for today|for now|another question|(?:any|one) more questions?)\b)"),
    ("hopelessness", r"\b(?:don't|dont|do not|no longer) (?:\w+ )?(?:want|wanna) (?:\w+ )?(?:to )?(?:go on|carry on|keep going|keep fighting|continue living|keep trying|try anymore|fight anymore|do this anymore|do life)\b(?! (?:with (?:this|the|these|our|you|it|today|my studies|the course)|today|talking|answering|the session|this session|for today|for now|like this (?:for today|right now))\b)"),
    ("hopelessness", r"\b(?:no|zero|not any|there's no|theres no|there is no|see no|don't see a|can't see a|cant see a) (?:\w+ )?(?:way out|hope|future|light|escape|way forward|end to this|other way|other option|solution)\b(?! (?:for (?:the|this|our|that) (?:team|project|company|game|match|car|plant|relationship|business|season|economy)|at the end of the tunnel for the)\b)|\bhope(?:less|lessness)\b|\blost (?:all )?hope\b|\bgive up on (?:life|living|everything|myself|me)\b|\bgiven up on (?:life|living|everything|myself)\b|\b(?:i|i've|ive|i have) given up\b|\bi give up\b(?! on (?:this|the|that|him|her|them|trying to|the idea|cooking|dating|finding|learning)\b)"),
    ("hopelessness", r"\b(?:i'm|im|i am|i feel|feeling|so) (?:\w+ )?(?:trapped|stuck) (?:\w+ ){0,2}(?:no way out|forever|with no escape|in my own life|in this life)\b|\bi (?:just )?(?:can't|cant) (?:anymore|any more)\b|\b(?:i'm|im|i am) (?:so )?(?:done|finished|over it)\. ?(?:with )?(?:everything|it all|all of it)\b|\bi'm at the end of my rope\b"),
    ("hopelessness", r"\b(?:i'm|im|i am|i feel) (?:completely |totally |utterly )?(?:hopeless|worthless and hopeless|beyond help|beyond saving|a lost cause|unfixable|broken beyond repair)\b|\bnothing matters anymore\b|\bno one can help me\b|\bit's too late for me\b|\bthere's no hope for me\b"),
]

NEGATIVES: list[tuple[str, str]] = [
    # Exaggeration idioms: each excuses only the words it covers.
    ("idiom", r"\b(?:is|are|was|were|s|'s|it's|its|they're|you're|youre|keeps|keep|been|be|literally|lowkey|slowly|totally|actually|seriously)\s+(?:\w+ )?(?:killing|kiling|murdering) me\b"),
    ("idiom", r"\bkill(?:ing|s|ed)? (?:me|myself)\b (?:with|over|for|at|to get|trying to|to make|on|by|doing|studying|working|cleaning|laughing)\b(?:\s+\w+){0,3}"),
    ("idiom", r"\b(?:could|would|i'd|id) (?:\w+ )?(?:kill|die) for (?:a|an|some|one|that|this|those|these|the|another|it)\b|\bdying (?:to|for) (?:see|try|know|meet|go|get|hear|watch|read|visit|tell|eat|have|find|play|hug|a |an |some |the |that |this |my )\b|\b(?:to die for)\b"),
    ("idiom", r"\b(?:almost|nearly|literally|practically|basically|just) (?:\w+ )?(?:died|dying|dead|die) (?:laughing|of (?:laughter|embarrassment|boredom|shame|cringe|heat|thirst|hunger|happiness|excitement|envy)|from (?:laughing|embarrassment|boredom|shame|cringe|the heat|cuteness|excitement))\b|\b(?:die|died|dying|dead|kill me|killing me) (?:of|from) (?:laughter|laughing|embarrassment|boredom|cringe|shame|cuteness|curiosity|the heat|heat|jealousy|envy|excitement|happiness)\b|\bbored to death\b|\bscared to death\b|\bsick to death of\b|\bworried to death\b|\bdead tired\b|\bdead on my feet\b|\bdead (?:end|line|battery|phone)\b"),
    ("idiom", r"\bkill(?:ing|ed)? (?:time|it|two birds|the vibe|the mood|the lights|the engine|the process|the app|the game|the bug|the battery|my (?:boss|brother|sister|mom|dad|roommate|teacher))\b|\b(?:kill|hang) (?:me|myself) (?:now )?if (?:i|this|that)\b|\bi'll kill (?:him|her|them|you)\b"),
    ("idiom", r"\b(?:ugh|lol|lmao|omg|haha|ffs|god|honestly|seriously|literally)[,.! ]+(?:just |someone )?kill me(?: now)?\b(?=.{0,40}\b(?:meeting|exam|monday|homework|lecture|traffic|queue|work|email|this|another|class|boss|party|call)\b)|\bkill me now\b(?=.{0,40}\b(?:meeting|exam|monday|homework|lecture|traffic|queue|work|email|another|class|boss|party|call)\b)"),
    ("idiom", r"\b(?:shoot|shot) (?:my ?self) in the foot\b|\bshoot me (?:a|an) (?:text|message|email|dm|call)\b|\b(?:hang|hanging) (?:my|the) (?:coat|jacket|laundry|clothes|picture|pictures|painting|shelves|curtains)\b"),
    ("idiom", r"\b(?:overdos\w*|od'?d|od'?ing|od) on (?:coffee|caffeine|sugar|netflix|chocolate|memes|tv|anime|k-?dramas|work|candy|carbs|cheese|pizza|youtube|tiktok|nostalgia|cuteness|energy drinks|vitamins|happiness|drama|love|reality tv)\b"),
    ("idiom", r"\b(?:i'd|id|i would) rather die than\b(?:\s+\w+){0,2}|\bi(?:'m| am|m) dead\b(?= *(?:lol|lmao|haha|skull|💀|😂|$))|\b(?:you|that|this|he|she) (?:are|is|was) killing me\b|\bdying of (?:laughter|embarrassment)\b|\bsuicide (?:squad|mission|run|doors|blonde|drill|sprint|burpees|lane|shift)\b|\bsuicide (?:is painless)\b"),
    ("idiom", r"\b(?:this|the|that|my|our|their) (?:\w+ )?(?:is|are|was|were) (?:so |totally |absolutely )?(?:hopeless|pointless)\b(?=.{0,15}\b(?:lol|haha|at|with|but|anyway)\b)|\b(?:i'm|im|i am) (?:hopeless|useless) at (?:\w+)\b|\bhopeless (?:romantic|case at|at)\b|\b(?:a )?lost cause (?:at|with|in)\b"),
    # Accidents.
    ("accident", r"\b(?:accidentally|accidently|by accident|accidently|i slipped and) (?:\w+ ){0,2}?(?:cut|burn(?:ed|t)?|hurt|hit|sliced|stabbed|scratched|poisoned|overdosed|shot)\b(?:\s+\w+){0,4}|\b(?:cut|burn(?:ed|t)?|hurt|sliced|scratched|nicked|stabbed) (?:my ?self|my (?:finger|thumb|hand|leg|knee|arm|foot|lip|chin)) (?:\w+ ){0,2}?(?:while|when|chopping|slicing|cutting|shaving|cooking|making|opening|on (?:a |the |some )|with (?:a|the) (?:knife|razor|can|tin|paper|grater|peeler|scissors) (?:while|when|chopping|slicing|cooking|shaving|opening)|by accident|accidentally|at (?:the )?(?:gym|work|training|practice)|playing|lifting|skiing|running|falling|tripping|in (?:the|a) (?:kitchen|game|match|fall|garden))\b(?:\s+\w+){0,5}"),
    ("accident", r"\b(?:hurt|injured|pulled|strained|twisted|sprained|tweaked) (?:my ?self|my (?:back|knee|ankle|wrist|shoulder|neck)) (?:\w+ ){0,2}?(?:at|during|while|when|playing|lifting|running|skiing|in)\b(?:\s+\w+){0,4}"),
    # Devices and things that die.
    ("device", r"\b(?:phone|laptop|battery|batteries|computer|pc|car|tablet|charger|headphones|earbuds|plant|plants|flowers|fish|hamster|goldfish|tree|cactus|basil|orchid|succulent|tomatoes|garden|console|kindle|mouse|keyboard|tv|router|printer|vibe|party|conversation|group chat|server|engine) (?:\w+ ){0,2}?(?:is|are|was|were|keeps|just|finally|totally|has|have)? ?(?:dying|died|dead|dies|die|killed|gonna die|about to die)\b"),
    ("device", r"\b(?:kill|killed|killing) (?:the |my |a )?(?:process|app|task|server|tab|program|battery|plant|plants|weeds|spider|bugs|mosquito|fly|lights|music|engine|game|boss)\b"),
    # Someone else's crisis (reported), up to the first word about the client themself.
    ("third_party", r"\b(?:friend|friends|bestie|bff|bf|gf|boyfriend|girlfriend|brother|bro|sister|sis|mom|mum|mother|dad|father|son|daughter|cousin|classmate|coworker|co-worker|colleague|roommate|flatmate|partner|husband|wife|neighbou?r|client|patient|student|kid|child|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|teacher|he|she|they|someone|somebody|people|person|teenager|teens|guy|girl|man|woman|ex|stepdad|stepmom|everyone in|his|her|their|celebrity|singer|actor)\b{CLAUSE}(?:\b(?:kill|killed|kills|killing) (?:himself|herself|themselves|themself)\b|\b(?:wants?|wanted|wanting) to (?:die|kill)\b|\bsuicid\w*|\bself[- ]?harm\w*|\boverdos\w*|\b(?:cuts?|cutting|hurts?|hurting|harming|burns?) (?:himself|herself|themselves)\b|\bhang(?:ed)? (?:himself|herself|themselves)\b|\bjump(?:ed)? (?:off|from)\b[^.!?;\n]{0,30}|\bbetter off without (?:him|her|them)\b|\b(?:burden|hopeless|no point)\b[^.!?;\n]{0,30})"),
    ("third_party", r"\b(?:he|she|they|friend|brother|sister|mom|mum|dad|son|daughter|partner|husband|wife|kid|cousin|someone)\b (?:\w+ ){0,4}?(?:said|says|told|tells|texted|wrote|posted|keeps saying|kept saying|admitted|confessed|mentioned|thinks|thought|feels|felt)(?: me| us| that)?(?: that)?(?: (?:he|she|they))? (?:\w+ ){0,2}?(?:wants?|wanted|is going to|was going to|wanna|plans?|planned|might|would|will|feels?|felt|has been|had been|is|was)\b{CLAUSE}"),
    # Fiction and academic mentions, up to the first word about the client themself.
    ("fiction", r"\b(?:movie|movies|film|films|book|books|novel|novels|story|stories|show|shows|series|episode|episodes|game|games|anime|manga|comic|comics|character|characters|protagonist|villain|hero|heroine|plot|song|songs|lyrics?|play|poem|poems|fanfic|fanfiction|screenplay|script|chapter|scene|season finale|hamlet|romeo|juliet|ophelia|sitcom|drama|k-?drama|documentary|podcast|video essay|tv series|netflix|narrator|author|writer)\b{CLAUSE}"),
    ("academic", r"\b(?:essay|essays|paper|papers|article|articles|research|researching|thesis|dissertation|lecture|lectures|presentation|report|reports|course|seminar|webinar|workshop|training|statistics|stats|prevention|awareness|hotline|helpline|literature|survey|assignment|homework|campaign|volunteering|psychology|psychiatry|sociology|module|textbook|journal|conference|policy|documentary|podcast|epidemiology|risk factors|screening|questionnaire|guidelines|charity|fundraiser|quiz|curriculum|first aid|case study|study|studies|class|exam|lesson|news|headline|statistic)\b{CLAUSE}"),
    ("academic", r"\b(?:suicid\w*|self[- ]?harm\w*|overdos\w*) (?:prevention|awareness|rates?|statistics|research|risk|hotline|helpline|crisis line|among|in (?:teens|adolescents|men|women|young people|the uk|the us|japan|veterans)|data|studies|study|screening|assessment|protocol|policy|training|attempt survivors|survivors|bereavement|loss|is a (?:leading|major)|cases|epidemic|contagion|clusters?|methods in|and the media)\b(?:[^.!?;\n]{0,40})"),
    # Negated statements, truly negated ("I would never kill myself"; not "I don't want to live").
    ("negation", r"\b(?:would|will|could|i'd|id|i'll|ill|i)? ?(?:never|not|no|wouldn't|won't|wont|don't|dont|didn't|do not) (?:ever |really |actually |seriously |even )?(?:\w+ )?(?:kill|hurt|harm|end) (?:my ?self|my life|it)\b(?:\s+\w+){0,2}|\b(?:i'm|im|i am|i'm really|i'm definitely|i was|i've never been|never been|not feeling|i'm not feeling) (?:not |never )(?:\w+ )?(?:suicidal|going to (?:kill|hurt|harm) (?:my ?self)|going to do anything|a danger to myself|in danger)\b|\bnot (?:suicidal|thinking (?:about|of) (?:suicide|killing myself|ending it|dying|hurting myself))\b|\bno (?:suicidal )?(?:thoughts|plans|intentions|intent|urges) (?:of|to|about)? ?(?:suicide|killing myself|hurting myself|harming myself|self[- ]?harm|dying|ending it)?\b|\bnever (?:had|have|been) (?:any )?(?:suicidal|thoughts of suicide|self[- ]?harm)\w*\b|\b(?:don't|dont|do not|never) (?:want|wanna|wish) (?:\w+ )?(?:to )?die\b|\b(?:not|never) (?:going to|gonna) (?:do anything (?:stupid|to myself)|kill myself|hurt myself)\b|\bnot (?:a )?(?:suicide|suicidal)\b|\bi'm not (?:hopeless|a burden)\b"),
    # Plain session fatigue: stopping the conversation is not stopping living.
    ("fatigue", r"\b(?:can't|cant|cannot|don't|dont|do not|no longer) (?:\w+ )?(?:want to |wanna )?(?:go on|keep going|continue|do this|carry on|take (?:any more|anymore)|answer)\b[^.!?;\n]{0,10}?\b(?:today|for now|right now|tonight|session|questions?|conversation|chat|talking|this exercise|these questions|let's stop|can we stop|stop here|let's pause|this topic|anymore today)\b"),
]

FUZZY = [
    "suicide", "suicidal", "myself", "overdose", "overdosing", "overdosed", "noose", "wrists",
    "anymore", "unalive", "goodbye", "burden", "hopeless", "pointless", "worthless", "tonight",
    "disappear", "existing", "exist", "living", "alive", "painkillers", "paracetamol",
    "medication", "sleeping", "tablets", "without", "everyone", "everybody", "better", "dying",
    "hanging", "strangle", "bleach", "poison", "carbon", "monoxide", "meaningless", "forever",
    "kill myself", "killing", "self harm", "cutting", "harming", "hurting", "letters",
    "possessions", "belongings", "stockpiling", "tomorrow", "bridge", "building", "balcony",
    "anyone", "nobody", "yourself", "wanna", "breathing", "wake", "asleep", "future",
]  # fmt: skip
