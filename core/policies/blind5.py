"""The ``blind5`` wording: a sixth set of phrasings and vocabularies, frozen before its first run.

``blind3`` and ``blind4`` were studied turn by turn while the recommended policy was improved
(docs/policies.md), so they are development sets now. This set was written by the author of that
work before the policy was ever run on it, and committed with a test pinning its digest before the
first run. The author had seen ``standard``, ``heldout``, ``blind2``, ``blind3`` and ``blind4``.
The wording procedure was fixed first:

* one author style throughout, unlike the earlier sets: a chatty typist — typos ("teh",
  "unfortunatly", "dont"), abbreviations ("pls", "w/", "fyi", "afaik", "smth", "ppl"), lower case mid-message, several
  sentences per message with the fact buried among small talk, and English written by a speaker
  of another language (articles dropped, "since two years", "make meetings");
* every kind of fact gets four first statements and five updates; the updates vary: some name the
  old value, some say the old one is off only indirectly ("that one fell through", "scratch what i
  said"), one per kind is worded like a first statement, and a few ask and answer in one message
  ("who runs X? Y now");
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, chat
  filler), and some statements are wrapped in filler or typed in lower case, as in ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Marlin", "Basalt", "Cobalt", "Dervish", "Ember", "Fjord", "Glacier", "Hopscotch", "Indigo",
    "Juniper", "Kestrel", "Lantern", "Meridian", "Nimbus", "Orchid", "Pylon", "Quartz", "Ripple",
    "Saffron", "Tundra", "Upland", "Velvet", "Walrus", "Zephyr",
)
PEOPLE: Final = (
    "Ayodele", "Bronwyn", "Ciaran", "Dagny", "Emeka", "Farida", "Gustavo", "Hanne", "Ishaan", "Jurgis",
    "Keiko", "Lorcan", "Mirela", "Nadia", "Obinna", "Pernille", "Rafferty", "Sunniva", "Thandiwe",
    "Ugne", "Valentin", "Wanjiru", "Yusuf", "Zdenka",
)
CITIES: Final = (
    "Porto", "Gdansk", "Accra", "Hobart", "Utrecht", "Daegu", "Galway", "Yerevan", "Winnipeg",
    "Arusha", "Oulu", "Arequipa",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "{n}", "proj {n}", "the {n} thing", "{n} project")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "the 12th of June", "Wednesday", "April 22", "the last Friday of March", "Oct 3", "Monday",
        "2026-05-19", "the 28th",
    ),
    "venue": (
        "the Boathouse", "the old Mill", "Room 4B", "the roof deck", "the Glasshouse", "the canteen",
        "the Corn Exchange",
    ),
    "budget": ("$22,000", "€31k", "£9,500", "75,000 euros", "$140k", "40 thousand pounds"),
    "owner": PEOPLE,
    "status": (
        "blocked", "going ok", "parked", "in beta", "waiting on legal", "shipped", "shaky",
        "in QA",
    ),
    "office": CITIES,
    "role": (
        "product owner", "data scientist", "support lead", "copywriter", "backend developer",
        "recruiter", "program manager",
    ),
    "diet": ("lacto-vegetarian", "plant-based", "no shellfish", "low-carb", "nut-free", "halal", "keto"),
    "seat": ("aisle", "window", "front-row", "bulkhead"),
    "contact": ("Signal", "my cell", "Slack DM", "SMS", "Outlook", "Telegram"),
    "meetings": (
        "before 10am", "after 4pm", "on Mondays", "mid mornings", "after 2pm", "Tuesdays only",
        "around noon",
    ),
    "reports": (
        "a one-pager", "bullet points", "a dashboard screenshot", "two paragraphs", "a voice note",
        "a table",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "ok so after the long call today, {s} goes out {v}, pls keep this in mind for later.",
            "Had coffee w/ the team, long story, anyway {s} is releasing on {v}.",
            "{s} launch date is {v} afaik, we fixed it in teh planning.",
            "fyi {s} release = {v}.",
        ),
        (
            "hmm scratch what i said before, {s} is now {v}.",
            "{old} for {s} fell through unfortunatly, new date {v}.",
            "so the {s} release, we decided finally {v}, dont ask why lol.",
            "{s} release = {v}, not {old} anymore.",
            "Had coffee w/ the team, long story, anyway {s} is releasing on {v}.",
        ),
        ("kk, {s} goes out {v}.", "{v} for {s}, noted!"),
    ),
    "venue": (
        (
            "For the {s} party we have booked {v}, it was not easy to find smth.",
            "the {s} launch do is happening in {v}, ppl seem happy w/ it.",
            "we make the {s} celebration at {v}, i think good choice.",
            "{s} party place: {v}.",
        ),
        (
            "{old} didnt work out in the end so {s} party moves to {v}.",
            "ugh they double booked us, the {s} launch do is in {v} now.",
            "small change for {s} celebration, we go to {v} instead.",
            "{s} party place: {v} ({old} is off).",
            "the {s} launch do is happening in {v}, ppl seem happy w/ it.",
        ),
        ("cool, {s} party at {v}.", "{v} for the {s} do, got it."),
    ),
    "budget": (
        (
            "finance finally answered, {s} gets {v}, better than nothing i guess.",
            "The money for {s} is {v}, pls dont go over it.",
            "{s} has {v} to spend, confirmed by the boss yesterday.",
            "{s} $$: {v}.",
        ),
        (
            "bad news from finance again, {s} only has {v} now.",
            "remember the {old} for {s}? forget it, its {v}.",
            "they cut {s} down to {v}, sigh.",
            "{s} $$: {v} (was {old}).",
            "The money for {s} is {v}, pls dont go over it.",
        ),
        ("{v} for {s}, ok.", "noted, {s} has {v}."),
    ),
    "owner": (
        (
            "{v} is the person for {s}, ask them for everything.",
            "for {s} pls talk w/ {v}, they run it.",
            "{s} is lead by {v} since the start.",
            "{s} lead: {v}.",
        ),
        (
            "{old} is off {s} now, {v} runs it.",
            "{v} picked up {s} after the reorg.",
            "who runs {s}? {v} now, since last week.",
            "{s} lead: {v} (not {old}).",
            "for {s} pls talk w/ {v}, they run it.",
        ),
        ("{v} runs {s}, ok.", "got it, {s} is with {v}."),
    ),
    "status": (
        (
            "quick one: {s} is {v} at the moment, nothing dramatic.",
            "{s} right now is {v}, i checked w/ the devs.",
            "how is {s}? its {v}.",
            "{s} state: {v}.",
        ),
        (
            "{s} went from {old} to {v} this morning.",
            "update on {s}, its {v} now, finally.",
            "{s} is {v} since today, the {old} phase is over.",
            "{s} state: {v} (before {old}).",
            "{s} right now is {v}, i checked w/ the devs.",
        ),
        ("{s} is {v}, thx.", "ok, {s}: {v}."),
    ),
    "office": (
        (
            "{s} works from {v}, so mind the timezone pls.",
            "{s} is based in {v} since two years.",
            "our {s} sits in the {v} office.",
            "{s} location: {v}.",
        ),
        (
            "{s} relocated to {v}, big move for them.",
            "{s} is not anymore in {old}, they went to {v}.",
            "so {s} finally moved, {v} now.",
            "{s} location: {v} (ex {old}).",
            "{s} is based in {v} since two years.",
        ),
        ("{s} is in {v}, noted.", "ok {s} works from {v}."),
    ),
    "role": (
        (
            "{s} is our {v}, really good one btw.",
            "{s} works as {v} in the team.",
            "{s} has the {v} position.",
            "{s} job: {v}.",
        ),
        (
            "{s} got promoted, {v} now!!",
            "{s} switched to {v}, no more {old}.",
            "{s} is doing the {v} job from this month.",
            "{s} job: {v} (prev {old}).",
            "{s} works as {v} in the team.",
        ),
        ("{s}: {v}, noted.", "ok so {s} is {v}."),
    ),
    "diet": (
        (
            "btw for food im {v}, pls remember for the events.",
            "when you order for me: {v} pls.",
            "I eat only {v}, since long time.",
            "food for me: {v}.",
        ),
        (
            "my doctor made me go {v}, so pls change my food.",
            "no more {old} for me, its {v} now.",
            "im {v} these days, the {old} thing was too hard.",
            "food for me: {v} (not {old}).",
            "when you order for me: {v} pls.",
        ),
        ("{v} for your food, ok.", "noted, {v} meals for you."),
    ),
    "seat": (
        (
            "when u book flights for me, {v} seat pls, always.",
            "i always take {v} on the plane, my back thanks me.",
            "{v} is my seat of choice.",
            "plane seat: {v}.",
        ),
        (
            "changed my mind on seats, {v} from now.",
            "forget {old} seats, book me {v}.",
            "after the last trip i want {v} seats.",
            "plane seat: {v} (no more {old}).",
            "i always take {v} on the plane, my back thanks me.",
        ),
        ("{v} seat for you.", "ok, {v} seats."),
    ),
    "contact": (
        (
            "best reach me on {v}, i check it all the time.",
            "pls ping me via {v} if smth urgent.",
            "{v} is where i answer fastest.",
            "reach me: {v}.",
        ),
        (
            "i stopped using {old}, its {v} now.",
            "pls use {v} for me from now, {old} is dead to me lol.",
            "new phone so {v} is best now.",
            "reach me: {v} (not {old}).",
            "pls ping me via {v} if smth urgent.",
        ),
        ("{v} it is, ok.", "i'll ping you on {v}."),
    ),
    "meetings": (
        (
            "pls put my meetings {v}, otherwise i am not focused.",
            "I prefer to make meetings {v}.",
            "{v} is my meeting time.",
            "meetings: {v}.",
        ),
        (
            "my schedule changed, meetings {v} now pls.",
            "{old} doesnt work for me anymore, lets do {v}.",
            "from next week meetings {v}, kids school started.",
            "meetings: {v} (was {old}).",
            "I prefer to make meetings {v}.",
        ),
        ("meetings {v}, ok.", "got it, calls {v}."),
    ),
    "reports": (
        (
            "for reports i like {v}, short and clear.",
            "pls send me reports as {v}.",
            "{v} is the report format for me.",
            "reports: {v}.",
        ),
        (
            "the {old} reports are too much, give me {v} now.",
            "lets switch my reports to {v}.",
            "i'd like {v} for reports from now on, pls.",
            "reports: {v} (not {old}).",
            "pls send me reports as {v}.",
        ),
        ("{v} for reports, ok.", "reports as {v}, noted."),
    ),
}

WEEKDAYS: Final = ("Wednesday", "Monday", "Thursday", "Saturday")
CHANNELS: Final = ("Signal", "Slack DM", "Telegram")

DISTRACTORS: Final = (
    ("question", "wait when does {p} go out again?"),
    ("question", "is {p} still {day} or did smth change?"),
    ("question", "how much $$ does {p} have?"),
    ("question", "where is the {p} party again?"),
    ("question", "is {n} still in {city} or not?"),
    ("hypothetical", "if {p} would go out {day} that would be nice honestly."),
    ("hypothetical", "imagine {p} gets {money}, dream scenario."),
    ("hypothetical", "{n} would maybe like {city}, who knows."),
    ("rumour", "heard in the kitchen {p} is slipping to {day}, not confirmed."),
    ("rumour", "ppl say {n} goes to {city}, dunno if true."),
    ("denial", "no, {p} is NOT moving to {day}, ignore the email."),
    ("denial", "{n} is not going to {city}, that was a joke."),
    ("third_party", "my cousin is {diet} since the summer."),
    ("third_party", "my boss always takes {seat} seats."),
    ("third_party", "{n}'s wife only answers on {channel}."),
    ("collision", "watched a documentary about the {p}, crazy animal."),
    ("collision", "the {city} marathon is on tv tonight."),
    ("collision", "bakery downstairs has {diet} cookies now."),
    ("collision", "{weekday} is football night for me."),
    ("outdated", "old wiki page still says {p} goes out {day}, its wrong."),
)

QUERIES: Final = (
    ("pls sort out the {p} launch lunch: date, place, and food for me.", ("launch_day", "venue", "diet")),
    ("book me a flight for the {p} launch pls.", ("launch_day", "seat", "venue")),
    ("who do i ask about {p} money and how much is there?", ("owner", "budget")),
    ("send a {p} status to the person who runs it, my usual report style.", ("status", "owner", "reports")),
)

PREFIXES: Final = ("oh and ", "also, ", "ps ", "before i forget: ")
SUFFIXES: Final = (" thx!!", " ty", " :)", " ok?")
WRAP_RATE: Final = 0.3
"""Share of user statements wrapped in a prefix or a suffix."""
LOWER_RATE: Final = 0.15
"""Share of user statements typed in lower case without the final full stop."""
