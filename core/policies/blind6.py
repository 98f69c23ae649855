"""The ``blind6`` wording: a seventh set of phrasings and vocabularies, frozen before its first run.

``blind5`` has been run (docs/policies.md), so a fresh held-out set is needed. This one was written
by a helper who had read the generator and ``blind2`` … ``blind5`` (so had seen ``standard``,
``heldout`` and those sets), had not opened any policy module nor docs/policies.md's discussion of
the policy's rules (only, in passing, the README's one-paragraph summary of ``focus``), and never
ran a policy on it: it was committed with a test pinning its digest before any policy's first run
on it. The wording procedure was fixed first:

* one author style throughout, different in kind from the earlier sets: messages dictated by voice
  and sent as the speech-to-text came out — little or no punctuation, run-on sentences, fillers
  ("um", "uh", "like", "you know", "so yeah"), false starts and self-repairs mid-sentence ("the
  the", "on uh sorry on"), homophones the recogniser picked ("their", "for"/"four", "write"),
  numbers and dates as spoken ("twenty five grand", "the fourteenth of may"), and the odd
  dictation artefact ("[inaudible]", a spoken "period" or "new line");
* every kind of fact gets five first statements and six updates; the updates vary: some name the
  old value, some say the old one is off only indirectly ("that date didn't hold"), one per kind is
  worded like a first statement, one per kind asks and answers in one message ("where's it gonna
  be um {v} now"), and some restart mid-sentence;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler),
  and some statements are wrapped in spoken filler or come out in lower case, as in ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Bonsai", "Cormorant", "Dulcimer", "Espresso", "Flintlock", "Gazebo", "Hammock", "Ingot",
    "Jigsaw", "Kayak", "Lychee", "Mandolin", "Nougat", "Oregano", "Parsnip", "Quasar", "Rhubarb",
    "Sextant", "Trellis", "Ukulele", "Vortex", "Wicket", "Yodel", "Zucchini",
)
PEOPLE: Final = (
    "Abimbola", "Bogdan", "Catalina", "Dorota", "Eero", "Funmilayo", "Grigor", "Hinemoa", "Idris",
    "Jelena", "Keoni", "Ludmila", "Mbali", "Nuala", "Oisin", "Paulo", "Radek", "Saoirse", "Tevita",
    "Uchenna", "Vesna", "Waleed", "Xabier", "Zoltan",
)
CITIES: Final = (
    "Limerick", "Baku", "Brisbane", "Saskatoon", "Ljubljana", "Kampala", "Daejeon", "Turku",
    "Valparaiso", "Tartu", "Bologna", "Mombasa",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "{n}", "{n} project", "project {n}")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "the fourteenth of may", "tuesday the sixth", "march ninth", "Saturday the 8th", "the second of july",
        "August 30th", "the nineteenth", "november fourth",
    ),
    "venue": (
        "the bowling alley", "the yacht club", "Hangar 9", "the botanical gardens",
        "the old fire station", "the tapas place", "the community hall",
    ),
    "budget": (
        "twenty five grand", "eighteen thousand dollars", "sixty k", "forty two thousand euros",
        "a hundred and ten thousand dollars", "12,000 pounds", "$7,500",
    ),
    "owner": PEOPLE,
    "status": (
        "paused for now", "basically done", "in trouble", "in testing", "way behind", "ahead of schedule",
        "live", "waiting on the vendor",
    ),
    "office": CITIES,
    "role": (
        "research lead", "QA engineer", "scrum master", "account manager", "tech writer",
        "DevOps engineer", "intern", "head of sales",
    ),
    "diet": (
        "fish but no meat", "dairy free", "gluten free", "no mushrooms", "no spicy food", "paleo",
        "low sodium",
    ),
    "seat": ("rear", "back row", "upper deck", "front cabin"),
    "contact": ("Viber", "my work phone", "FaceTime", "Threema", "the landline", "Webex", "my pager"),
    "meetings": (
        "right at eight", "at half past one", "after five", "on Thursdays", "before nine",
        "between eleven and one", "on Wednesday mornings",
    ),
    "reports": (
        "a slide deck", "a shared doc", "a quick call", "a two minute video", "a one line summary",
        "an end of day email",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "okay so um {s} is going out on {v} just so you know",
            "so the the launch four {s} we said {v} period",
            "uh yeah {s} ships {v} that's what we agreed in the meeting",
            "{s} goes live {v} like that's the date you know",
            "note for later {s} release {v} new line thanks",
        ),
        (
            "so um {s} isn't {old} anymore it's {v} now",
            "okay that date didn't hold for {s} we're looking at {v} instead",
            "when's {s} going out uh {v} now they pushed it",
            "{s} got moved from {old} to uh {v} so yeah",
            "scrap the date i gave you for {s} it's {v}",
            "uh yeah {s} ships {v} that's what we agreed in the meeting",
        ),
        ("Right, {s} goes out {v}.", "Okay, {v} for {s}.", "Sure, {s} on {v} then."),
    ),
    "venue": (
        (
            "so for the {s} party we got {v} um booked it this morning",
            "the {s} launch thing is gonna be at {v} period",
            "uh we're doing the {s} celebration in {v} which is nice",
            "{s} party venue is {v} you know the one",
            "they confirmed {v} four the {s} do so yeah",
        ),
        (
            "okay so {old} fell through for {s} we're at {v} now",
            "where's the {s} party gonna be um {v} now apparently",
            "they moved the {s} thing it's at {v} not {old}",
            "so the venue for {s} changed um it's {v}",
            "we lost the booking so the {s} do is uh at {v} instead",
            "the {s} launch thing is gonna be at {v} period",
        ),
        ("Noted, the {s} party is at {v}.", "Okay, {v} for the {s} party."),
    ),
    "budget": (
        (
            "so finance says {s} has {v} to work with um that's it",
            "the budget four {s} is {v} okay",
            "uh we got {v} approved for {s} yesterday",
            "{s} is getting {v} total you know for everything",
            "money wise {s} has {v} period new line",
        ),
        (
            "so {s} got cut um it's {v} now not {old}",
            "how much does {s} have now uh {v} after the review",
            "okay forget the number i said for {s} it's {v}",
            "they bumped {s} from {old} to {v} so yeah",
            "finance came back and {s} is down to like {v}",
            "uh we got {v} approved for {s} yesterday",
        ),
        ("Okay, {s} has {v}.", "Alright, {v} for {s}."),
    ),
    "owner": (
        (
            "{v} is running {s} so uh go to them four anything",
            "so the owner of {s} is {v} period",
            "um {v} has {s} you know their the lead on it",
            "if you need something on {s} talk to {v} okay",
            "{s} that's {v} they own it",
        ),
        (
            "so {old} handed {s} over um {v} has it now",
            "who's got {s} these days uh {v} since the reshuffle",
            "okay {s} isn't with {old} anymore {v} took it",
            "so {v} is taking over {s} starting this week",
            "um scratch that about who runs {s} it's {v} now",
            "if you need something on {s} talk to {v} okay",
        ),
        ("Okay, {v} owns {s}.", "Right, {v} has {s}."),
    ),
    "status": (
        (
            "so {s} is {v} right now um nothing to worry about",
            "quick status on {s} it's {v} period",
            "uh {s} is like {v} at the moment you know",
            "how's {s} doing um {v} i'd say",
            "{s} is {v} as of this morning",
        ),
        (
            "so {s} was {old} but now it's {v}",
            "okay {s} is {v} now um things changed",
            "where are we on {s} uh {v} as of today",
            "{s} went from {old} to {v} this week so yeah",
            "so scratch the last update on {s} it's {v}",
            "{s} is {v} as of this morning",
        ),
        ("Okay, {s} is {v}.", "Noted: {s}, {v}."),
    ),
    "office": (
        (
            "{s} works out of {v} so um mind the time difference",
            "so {s} is based in {v} period",
            "uh {s} sits in the {v} office you know",
            "{s}'s in {v} if you need to visit",
            "{s} is over in {v} these days",
        ),
        (
            "so {s} moved um they're in {v} now",
            "okay {s} left {old} they're in {v}",
            "where's {s} now uh {v} since last month",
            "{s} transferred from {old} to {v} so yeah",
            "um {s} isn't where i said before they're in {v}",
            "so {s} is based in {v} period",
        ),
        ("Okay, {s} is in {v}.", "Noted, {s} works from {v}."),
    ),
    "role": (
        (
            "{s} is an {v} on the team um really solid",
            "so {s} works as an {v} period",
            "uh {s}'s job is {v} you know",
            "{s} does {v} stuff four us",
            "just so you know {s} is our {v}",
        ),
        (
            "so {s} got a new job um they're {v} now",
            "okay {s} is no longer {old} they're {v}",
            "what's {s} doing now uh {v} since the reorg",
            "{s} switched from {old} to {v} so yeah",
            "um {s} moved into the {v} role this month",
            "so {s} works as an {v} period",
        ),
        ("Okay, {s} is {v}.", "Noted, {s}: {v}."),
    ),
    "diet": (
        (
            "so for food um i'm {v} please remember that",
            "uh when you order lunch four me {v} okay",
            "i eat {v} you know so keep that in mind",
            "food wise i'm {v} period",
            "just so you know i'm {v}",
        ),
        (
            "so i'm not {old} anymore um {v} now",
            "okay my diet changed i'm {v} now",
            "what do i eat now uh {v} doctor's orders",
            "i went from {old} to {v} so yeah",
            "um forget what i said about food i'm {v}",
            "uh when you order lunch four me {v} okay",
        ),
        ("Okay, {v} for you.", "Noted, {v} meals."),
    ),
    "seat": (
        (
            "when you book flights um i want {v} seats",
            "so four planes i like the {v} you know",
            "uh {v} is my seat always period",
            "put me in {v} when i fly okay",
            "i sit {v} on flights",
        ),
        (
            "so no more {old} um {v} from now on",
            "okay i changed my mind on seats {v} now",
            "where do i sit now uh {v} after that last flight",
            "switch me from {old} to {v} so yeah",
            "um forget the seat thing i said it's {v}",
            "put me in {v} when i fly okay",
        ),
        ("Okay, {v} seats.", "Noted, {v} for flights."),
    ),
    "contact": (
        (
            "best way to reach me is um {v}",
            "so ping me on {v} if it's urgent period",
            "uh i'm always on {v} you know",
            "{v} is where i'll see it fastest",
            "get me on {v} okay",
        ),
        (
            "so i'm off {old} um use {v} now",
            "okay new phone so {v} is better now",
            "how do you reach me now uh {v}",
            "switch from {old} to {v} four me so yeah",
            "um don't use the thing i said before use {v}",
            "so ping me on {v} if it's urgent period",
        ),
        ("Okay, {v} it is.", "Noted, I'll reach you on {v}."),
    ),
    "meetings": (
        (
            "so put my meetings {v} um that works best",
            "uh i like to do calls {v} you know",
            "{v} is when i can meet period",
            "book my meetings {v} okay",
            "i'm free for meetings {v}",
        ),
        (
            "so {old} doesn't work anymore um {v} now",
            "okay my schedule changed meetings {v}",
            "when can i meet now uh {v} with the new hours",
            "move my meetings from {old} to {v} so yeah",
            "um forget the times i gave you {v} is better",
            "book my meetings {v} okay",
        ),
        ("Okay, meetings {v}.", "Noted, I'll book you {v}."),
    ),
    "reports": (
        (
            "four reports um i like {v}",
            "so send me updates as {v} period",
            "uh {v} is how i want the reports you know",
            "give me {v} when you report okay",
            "reports as {v} please",
        ),
        (
            "so no more {old} um give me {v} now",
            "okay i want {v} for reports from now on",
            "how do i want reports now uh {v} it's easier",
            "switch my reports from {old} to {v} so yeah",
            "um forget what i said about reports {v} works better",
            "so send me updates as {v} period",
        ),
        ("Okay, reports as {v}.", "Noted, {v} for your reports."),
    ),
}

WEEKDAYS: Final = ("Tuesday", "Sunday", "Thursday", "Friday")
CHANNELS: Final = ("Viber", "Threema", "FaceTime")

DISTRACTORS: Final = (
    ("question", "wait when is {p} going out again"),
    ("question", "um is {p} still {day} or did that change"),
    ("question", "how much money does {p} have uh remind me"),
    ("question", "where's the {p} party again"),
    ("question", "is {n} still in {city} or"),
    ("hypothetical", "so if {p} went out {day} that would be amazing honestly"),
    ("hypothetical", "imagine if {p} got {money} um we could do so much"),
    ("hypothetical", "{n} would probably like {city} you know"),
    ("rumour", "so i heard {p} might slip to {day} but nobody confirmed it"),
    ("rumour", "uh someone said {n} is moving to {city} not sure though"),
    ("denial", "no {p} is not moving to {day} ignore that email"),
    ("denial", "{n} isn't going to {city} that was a joke period"),
    ("third_party", "my brother went {diet} last year"),
    ("third_party", "my manager always books {seat} seats"),
    ("third_party", "{n}'s husband only answers on {channel}"),
    ("collision", "i was reading about the {p} um the animal it's wild"),
    ("collision", "the {city} game is on tonight"),
    ("collision", "the cafe downstairs has {diet} muffins now"),
    ("collision", "{weekday} is trivia night four me"),
    ("outdated", "the old planning doc says {p} goes out {day} that's wrong"),
    ("question", "[inaudible] the {p} thing um never mind"),
)

QUERIES: Final = (
    ("okay so plan the {p} launch lunch um date place and what i can eat", ("launch_day", "venue", "diet")),
    ("uh book me a flight four the {p} launch please", ("launch_day", "seat", "venue")),
    ("who do i talk to about {p} money and how much is there", ("owner", "budget")),
    ("send the {p} status to whoever runs it um the way i like reports", ("status", "owner", "reports")),
    ("set up a call with the {p} owner at a time that works four me", ("owner", "meetings")),
)

PREFIXES: Final = ("okay so ", "um ", "hey so ", "right so ")
SUFFIXES: Final = (" so yeah", " um thanks", " that's it", " send")
WRAP_RATE: Final = 0.35
"""Share of user statements wrapped in a prefix or a suffix."""
LOWER_RATE: Final = 0.25
"""Share of user statements typed in lower case without the final full stop."""
