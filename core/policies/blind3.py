"""The ``blind3`` wording: a fourth set of phrasings and vocabularies, written after the policy froze.

``blind2`` stopped being a held-out set once its wording had been seen while the policy was built
(docs/policies.md). This set was written afterwards, once the recommended policy (``focus``) and
the supersession tracker under it were final (commit 2e8f02b), from what each kind of fact means,
and run once to report; nothing was changed after that run. It is not pristine either: its author
had read the tracker's word lists while working on them, and wrote it knowing that, trying to
phrase things as people would rather than around or against those lists.

Like ``blind2`` it replaces every vocabulary a policy could have memorised (names, cities, values,
acknowledgements, distractors, checkpoint queries) and wraps some statements in chat filler.

Key side: the generator reads this module; no policy module may import it.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Fennel", "Copperleaf", "Wayfarer", "Bluebell", "Ironwood", "Tamarind", "Halcyon", "Juniper",
    "Moonstone", "Ostrich", "Pumice", "Quokka", "Rosemary", "Skylark", "Tinder", "Umber",
    "Vireo", "Wombat", "Xylo", "Yucca", "Zephyr", "Alder", "Basalt", "Cobble",
)
PEOPLE: Final = (
    "Adaeze", "Bartosz", "Chiamaka", "Dagny", "Eitan", "Fumiko", "Gunnar", "Hamid", "Ingrid",
    "Jomo", "Katarzyna", "Leilani", "Mihai", "Nadia", "Obinna", "Pilar", "Quentin", "Rashida",
    "Sven", "Thandiwe", "Ulla", "Vikram", "Wanjiru", "Xochitl",
)
CITIES: Final = (
    "Lyon", "Nairobi", "Hanoi", "Tallinn", "Porto", "Denver", "Santiago", "Gdańsk", "Kyoto",
    "Auckland", "Marrakesh", "Valencia",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "{n}", "Project {n}", "the {n} project", "{n} (the project)")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "November 20", "the 3rd of June", "Wednesday week", "12/09", "Tuesday", "early August",
        "Friday the 13th", "Monday",
    ),
    "venue": (
        "the Boathouse", "the old brewery", "Studio 5", "the Orchard Pavilion", "the canteen",
        "the Riverside marquee", "the Copper Hall",
    ),
    "budget": ("$90k", "€15,500", "£60,000", "4,000 dollars", "$2.5 million", "seventy thousand euros"),
    "owner": PEOPLE,
    "status": (
        "blocked on legal", "ahead of plan", "parked", "in beta", "behind by two weeks", "wrapping up",
        "at risk", "amber",
    ),
    "office": CITIES,
    "role": (
        "data engineer", "chief of staff", "product designer", "support lead", "staff scientist",
        "finance partner", "release manager",
    ),
    "diet": ("pescatarian", "dairy-free", "vegetarian", "halal", "egg-free", "no red meat", "raw vegan"),
    "seat": ("aisle", "window", "exit-row", "over-the-wing"),
    "contact": ("Signal", "a phone call", "iMessage", "my work email", "Slack DM", "LinkedIn"),
    "meetings": (
        "after 10am", "Wednesday afternoons", "before 9", "around lunchtime", "late afternoons",
        "Mondays only", "outside school hours",
    ),
    "reports": (
        "three bullet points", "a one-page PDF", "a short voice memo", "a dashboard link",
        "a table with owners", "plain prose",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "{s} goes public on {v}.",
            "We've pencilled in {v} as the ship date for {s}.",
            "Launch date for {s}: {v}.",
            "{s} is due to launch {v}.",
        ),
        (
            "Heads up, {s} now launches {v}.",
            "{s} slipped: the new launch date is {v}.",
            "Change of plan, {s} ships {v} and not {old}.",
            "We moved {s} off {old}; it launches {v}.",
            "{s} launch is now {v} (was {old}).",
        ),
        ("{s} on {v}, noted.", "Okay, {v} for the {s} launch."),
    ),
    "venue": (
        (
            "The {s} launch party will be at {v}.",
            "{s} celebrates its launch at {v}.",
            "We booked {v} for the {s} launch event.",
            "Venue for the {s} launch: {v}.",
        ),
        (
            "The {s} launch event moved to {v}.",
            "Scrap {old}; the {s} launch party is at {v} now.",
            "New venue for {s}'s launch: {v}.",
            "{s} launch is at {v} instead of {old}.",
            "We had to swap venues, the {s} launch is now at {v}.",
        ),
        ("{v} for the {s} launch, got it.", "Noted the {s} launch venue: {v}."),
    ),
    "budget": (
        (
            "{s} has a budget of {v}.",
            "Finance gave {s} {v} to spend.",
            "The spending cap on {s} is {v}.",
            "{s} is funded at {v}.",
        ),
        (
            "{s}'s budget was cut to {v}.",
            "Budget update for {s}: {v} now.",
            "{s} now has {v} instead of {old}.",
            "They raised the {s} budget to {v}.",
            "{s} budget changed from {old} to {v}.",
        ),
        ("{s} budget {v}, recorded.", "Got it, {v} for {s}."),
    ),
    "owner": (
        (
            "{v} owns {s}.",
            "{s} is led by {v}.",
            "{v} is the lead on {s}.",
            "The owner of {s} is {v}.",
        ),
        (
            "{v} has taken over {s}.",
            "{s} is now led by {v}, not {old}.",
            "{old} handed {s} to {v}.",
            "New owner for {s}: {v}.",
            "{v} now runs {s}.",
        ),
        ("{v} owns {s}, noted.", "Okay, {s} is {v}'s."),
    ),
    "status": (
        (
            "{s} is {v}.",
            "Status of {s}: {v}.",
            "Right now {s} is {v}.",
            "{s} status is {v}.",
        ),
        (
            "{s} is {v} now.",
            "Status change on {s}: {v}, no longer {old}.",
            "{s} went from {old} to {v}.",
            "Update: {s} is {v}.",
            "{s} status is now {v}.",
        ),
        ("{s}: {v}, got it.", "Marked {s} as {v}."),
    ),
    "office": (
        (
            "{s} is based in {v}.",
            "{s} works from our {v} office.",
            "{s}'s office is in {v}.",
            "{s} lives and works in {v}.",
        ),
        (
            "{s} relocated to {v}.",
            "{s} is in {v} now, no longer in {old}.",
            "{s} moved from {old} to {v}.",
            "{s} transferred to the {v} office.",
            "{s} has moved to {v}.",
        ),
        ("{s} in {v}, noted.", "Got it, {s} is in {v}."),
    ),
    "role": (
        (
            "{s} is our {v}.",
            "{s} works as a {v}.",
            "{s}'s job title is {v}.",
            "{s} joined as {v}.",
        ),
        (
            "{s} was promoted to {v}.",
            "{s} is now our {v}.",
            "{s} changed roles and is a {v} now.",
            "{s} moved from {old} to {v}.",
            "New title for {s}: {v}.",
        ),
        ("{s} is a {v}, noted.", "Okay, {s}: {v}."),
    ),
    "diet": (
        (
            "I eat {v}.",
            "For meals, I'm {v}.",
            "My diet is {v}.",
            "Please order {v} food for me.",
        ),
        (
            "I'm {v} now.",
            "I've switched to {v}, no more {old}.",
            "My diet changed: {v} from now on.",
            "I'm not {old} anymore, I'm {v}.",
            "Order {v} for me from now on.",
        ),
        ("{v} meals for you, noted.", "Got it, you eat {v}."),
    ),
    "seat": (
        (
            "I always book {v} seats.",
            "On flights I sit in the {v} seat.",
            "My seat preference is {v}.",
            "Get me a {v} seat when I fly.",
        ),
        (
            "From now on book me {v} seats.",
            "I prefer {v} seats now, not {old}.",
            "Switch my seat preference to {v}.",
            "I've gone off {old} seats; {v} please.",
            "My seat preference is now {v}.",
        ),
        ("{v} seats for you, noted.", "Okay, {v} seat."),
    ),
    "contact": (
        (
            "The best way to reach me is {v}.",
            "Contact me on {v}.",
            "I'm easiest to reach via {v}.",
            "Use {v} when you need me.",
        ),
        (
            "Reach me on {v} now.",
            "I've stopped using {old}; contact me on {v}.",
            "From now on, use {v} to reach me.",
            "Please switch to {v} instead of {old} for reaching me.",
            "New contact method for me: {v}.",
        ),
        ("I'll reach you on {v}.", "{v} it is for contacting you."),
    ),
    "meetings": (
        (
            "I take meetings {v}.",
            "Schedule my meetings {v}.",
            "My calendar is open for meetings {v}.",
            "Book calls with me {v}.",
        ),
        (
            "From now on, meetings only {v}.",
            "I now take meetings {v} rather than {old}.",
            "Change my meeting hours to {v}.",
            "Meetings {v} from now on, please.",
            "My meeting window moved to {v}.",
        ),
        ("Meetings {v}, noted.", "I'll book your meetings {v}."),
    ),
    "reports": (
        (
            "Send my reports as {v}.",
            "I like my status reports as {v}.",
            "Format my updates as {v}.",
            "My report format is {v}.",
        ),
        (
            "From now on, send reports as {v}.",
            "Switch my reports to {v} instead of {old}.",
            "I want reports as {v} now.",
            "New report format for me: {v}.",
            "Reports should be {v} from now on, not {old}.",
        ),
        ("Reports as {v}, got it.", "I'll send your reports as {v}."),
    ),
}

WEEKDAYS: Final = ("Tuesday", "Monday", "Wednesday", "Friday")
CHANNELS: Final = ("Signal", "iMessage", "LinkedIn")

DISTRACTORS: Final = (
    ("question", "When does {p} launch again?"),
    ("question", "Is {p} still on for {day}?"),
    ("question", "What's the {p} budget these days?"),
    ("question", "Where is the {p} launch party?"),
    ("question", "Is {n} still in {city}?"),
    ("hypothetical", "If {p} launched {day}, would marketing be ready?"),
    ("hypothetical", "We might hold the {p} launch at {venue} if the weather is good."),
    ("hypothetical", "Imagine {p} with {money}; we could do so much more."),
    ("rumour", "I heard {n} may move to {city}, not confirmed."),
    ("rumour", "Apparently {p} could slip to {day}; rumour only."),
    ("denial", "{p} is not moving to {day}; that was a typo."),
    ("denial", "{n} is not leaving for {city}, whatever you heard."),
    ("third_party", "My cousin eats {diet}."),
    ("third_party", "My partner always takes the {seat} seat."),
    ("third_party", "{n}'s manager prefers {channel}."),
    ("collision", "Read a novel called {p} on the train."),
    ("collision", "The {city} marathon was on TV."),
    ("collision", "There's a {diet} food truck outside."),
    ("collision", "{weekday} is recycling day."),
    ("outdated", "The old roadmap still lists {p} for {day}; ignore it."),
)

QUERIES: Final = (
    (
        "Plan the {p} launch lunch: the date, the place, and what I can eat.",
        ("launch_day", "venue", "diet"),
    ),
    ("Book me a flight to the {p} launch.", ("launch_day", "seat", "venue")),
    ("Who owns {p} and how much can they spend?", ("owner", "budget")),
    ("Send {p}'s owner a status note in my report format.", ("status", "owner", "reports")),
)

PREFIXES: Final = ("Btw, ", "Note: ", "Quick update: ", "Just so you have it: ")
SUFFIXES: Final = (" Thx.", " Ta.", " Please note.", " Okay?")
WRAP_RATE: Final = 0.2
"""Share of user statements wrapped in a prefix or a suffix."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""
