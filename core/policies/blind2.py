"""The ``blind2`` wording: a third, frozen set of phrasings and vocabularies for the generator.

Written before the supersession policy was reworked for generality, from what each kind of fact
*means* (a launch date, a venue, a budget…) and without reading the policy's cue lists. It is the
honest held-out test of that rework: run once at the end, never tuned against. Do not edit it; if
it has to change, write a fourth set instead and say so in docs/policies.md.

Compared with ``standard`` and ``heldout`` it replaces, not just the fact and update templates,
but every vocabulary a policy could have memorised: project and people names, cities, the values
of every kind (dates in several formats, amounts in several currencies and spellings, statuses,
roles, diets, seats, channels, meeting windows, report formats), the assistant's
acknowledgements, the distractors (questions, hypotheticals, rumours, denials, other people's
habits, outdated notes, keyword collisions) and the checkpoint queries. Statements are sometimes
wrapped in chat filler ("FYI: …", "… Thanks!") and sometimes typed in lower case without a full
stop, as people do. Some updates are worded exactly like a first statement (the only sign of the
change is that the same thing is said again with a new value), some imperative ("Please order
keto for me now."), some name the old value only in a negation ("not Oct 2").

Key side: the generator reads this module; no policy module may import it.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Kelp", "Mosaic", "Paperclip", "Northstar", "Bramble", "Tidewater", "Lantern", "Saffron",
    "Orchid", "Hopscotch", "Redwood", "Pinwheel", "Marble", "Sparrow", "Thimble", "Cinder",
    "Driftwood", "Gossamer", "Quill", "Velvet", "Larkspur", "Nutmeg", "Prism", "Yarrow",
)
PEOPLE: Final = (
    "Ngozi", "Björn", "Wei", "Carmen", "Dmitri", "Aroha", "Tariq", "Siobhan", "Kenji", "Lucía",
    "Emeka", "Anneke", "Farhan", "Ilse", "Mateo", "Oksana", "Rohan", "Sunita", "Tobias", "Valentina",
    "Yusuf", "Zara", "Haruto", "Elif",
)
CITIES: Final = (
    "Montreal", "Cape Town", "Kraków", "Buenos Aires", "Melbourne", "São Paulo", "Reykjavik",
    "Hamburg", "Osaka", "Zurich", "Manila", "Accra",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "{n}", "Project {n}", "the {n} project", "project {n}")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "Saturday", "March 3", "April 14th", "the 28th", "Thursday the 9th", "Oct 2", "2025-09-18",
        "Sunday",
    ),
    "venue": (
        "the Lighthouse Café", "Conference Room 4B", "the Glasshouse", "Hangar 2", "the library annex",
        "the Maple Street studio", "the north lawn",
    ),
    "budget": ("€25,000", "£18k", "$42,500", "50k", "USD 70,000", "$1.2M", "€8k", "30 grand"),
    "owner": PEOPLE,
    "status": (
        "green", "waiting on security sign-off", "slipping", "on hold", "feature-frozen", "in QA",
        "live on staging", "red",
    ),
    "office": CITIES,
    "role": (
        "principal engineer", "UX researcher", "head of marketing", "site reliability engineer",
        "program manager", "security architect", "engineering director",
    ),
    "diet": ("keto", "low-FODMAP", "nut-free", "plant-based", "lactose-free", "low-carb", "flexitarian"),
    "seat": ("bulkhead", "front-row", "back-row", "premium-legroom"),
    "contact": ("WhatsApp", "Telegram", "Discord", "text message", "my personal email", "Zoom chat"),
    "meetings": (
        "before lunch", "between 1 and 3pm", "on Tuesdays and Thursdays", "after 4pm",
        "first thing in the morning", "mid-morning", "at the end of the day",
    ),
    "reports": (
        "a numbered list", "a two-sentence recap", "a spreadsheet", "a Markdown doc", "a single slide",
        "an email digest",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "We're aiming to get {s} into users' hands on {v}.",
            "{s} will be available from {v}.",
            "The go-live for {s} is set for {v}.",
            "Expect {s} to be released on {v}.",
            "{v} is D-day for {s}.",
            "The {s} rollout begins on {v}.",
            "Public availability of {s}: {v}.",
        ),
        (
            "{s} won't be ready on {old}, we're now looking at {v}.",
            "The {s} rollout has been rescheduled for {v}.",
            "{s} isn't happening on {old} any more; {v} is the new go-live.",
            "Engineering asked for a few extra days, so {s} goes out on {v} rather than {old}.",
            "Forget {old} for {s}, {v} it is.",
            "{s} release postponed to {v}.",
            "{s} was brought forward to {v}.",
            "Revised timeline: {s} on {v}.",
            "The go-live for {s} is set for {v}.",
        ),
        (
            "Understood, {s} is set for {v}.",
            "I've logged {v} for {s}.",
            "Thanks, I'll plan for {s} on {v}.",
        ),
    ),
    "venue": (
        (
            "Guests for the {s} launch should head to {v}.",
            "The {s} launch reception is hosted at {v}.",
            "We've secured {v} to host the {s} launch.",
            "The {s} launch gathering will take place at {v}.",
            "Location for the {s} launch: {v}.",
            "We've secured {v} for {s}'s big day.",
        ),
        (
            "{v} is now hosting the {s} launch; {old} fell through.",
            "{old} is unavailable, so the {s} launch gathering has been moved to {v}.",
            "New location for the {s} launch: {v}.",
            "We're relocating the {s} launch reception from {old} to {v}.",
            "The {s} launch won't be at {old} after all, it'll be at {v}.",
            "Guests for the {s} launch should head to {v} instead.",
            "{s}'s big day moves to {v}.",
        ),
        ("Great, {v} for the {s} launch.", "I'll point people to {v} for {s}."),
    ),
    "budget": (
        (
            "{s} is funded to the tune of {v}.",
            "The money set aside for {s} is {v}.",
            "{s} can draw on {v} in total.",
            "Spending on {s} must stay under {v}.",
            "We've earmarked {v} for {s}.",
        ),
        (
            "{s} funding went from {old} to {v}.",
            "After the review, {s} is left with {v}.",
            "{s} lost some funding and now has {v}.",
            "Good news: {s} got topped up to {v}.",
            "The {s} ceiling is {v} now, no longer {old}.",
            "Money for {s}: {v} (was {old}).",
            "We've earmarked {v} for {s}.",
        ),
        ("Understood, {s} has {v}.", "I'll track {s} spending against {v}."),
    ),
    "owner": (
        (
            "{v} is the lead on {s}.",
            "{s} sits under {v}.",
            "Questions about {s} go to {v}.",
            "{v} is accountable for {s}.",
            "{v} heads up {s}.",
            "{s} is {v}'s baby.",
        ),
        (
            "{v} has replaced {old} as the lead on {s}.",
            "{old} handed {s} over to {v}.",
            "{s} is {v}'s responsibility from now on.",
            "With {old} on leave, {v} is driving {s}.",
            "{s} moved under {v}.",
            "Questions about {s} now go to {v}, not {old}.",
        ),
        ("Thanks, I'll route {s} questions to {v}.", "{v} for {s}, understood."),
    ),
    "status": (
        (
            "{s} health check: {v}.",
            "Latest on {s}: {v}.",
            "The {s} tracker says {v}.",
            "{s} is currently {v}.",
            "Quick status on {s}: {v}.",
        ),
        (
            "{s} is no longer {old}; it's {v}.",
            "{s} moved from {old} to {v} this week.",
            "Latest on {s}: {v}.",
            "Since yesterday's review {s} is {v}.",
            "{s} is {v} as of this morning.",
            "Correction on {s}: it's {v}, not {old}.",
        ),
        ("Thanks for the {s} status: {v}.", "Logged {s} as {v}."),
    ),
    "office": (
        (
            "{s} is stationed in {v}.",
            "{s} commutes to our {v} site.",
            "{s}'s home base is {v}.",
            "{s} operates from {v}.",
            "You can meet {s} in person in {v}.",
        ),
        (
            "{s} has moved to the {v} site.",
            "{s} left {old} and is now in {v}.",
            "{s} is {v}-based these days.",
            "{s} swapped {old} for {v}.",
            "{s} is stationed in {v} now.",
            "Since the reorg, {s} operates out of {v}.",
        ),
        ("I'll remember {s} is in {v}.", "{s} in {v}, got it."),
    ),
    "role": (
        (
            "{s}'s title is {v}.",
            "{s} serves as our {v}.",
            "{s} is employed as {v}.",
            "{s} has the {v} position.",
            "On the org chart {s} is listed as {v}.",
        ),
        (
            "{s} moved into the {v} position.",
            "{s} isn't {old} anymore, they're {v}.",
            "Congrats to {s}, our newest {v}.",
            "{s} changed jobs internally: {v}.",
            "{s} was made {v}.",
            "{s}'s title is {v} now.",
        ),
        ("Good to know {s} is {v}.", "I'll note {s} as {v}."),
    ),
    "diet": (
        (
            "When ordering food for me, stick to {v}.",
            "I only eat {v} food.",
            "Food-wise I'm {v}.",
            "Please make my meals {v}.",
            "My diet: {v}.",
            "Anything you cater for me has to be {v}.",
        ),
        (
            "I'm not doing {old} anymore, {v} instead.",
            "New diet for me: {v}.",
            "I dropped {old}; my meals should be {v}.",
            "Please order {v} for me now.",
            "Ever since the checkup I've been eating {v}.",
            "Food-wise I'm {v} these days.",
        ),
        ("I'll make sure your meals are {v}.", "{v} it is for your food orders."),
    ),
    "seat": (
        (
            "When you book travel, get me a {v} seat.",
            "I fly in a {v} seat whenever possible.",
            "For air travel, {v} seating for me.",
            "My go-to airline seat is {v}.",
        ),
        (
            "I've gone off {old} seats, book {v}.",
            "For flights, {v} seats from now.",
            "No more {old} for me on flights; {v} please.",
            "My go-to airline seat is {v} now.",
            "Next time I fly, put me in {v}.",
        ),
        ("I'll request {v} seats for you.", "{v} seating noted for your flights."),
    ),
    "contact": (
        (
            "If something's on fire, {v} reaches me fastest.",
            "The quickest route to me is {v}.",
            "I'm reachable over {v}.",
            "Contact me via {v}.",
        ),
        (
            "Don't bother with {old}, I've moved to {v}.",
            "I'm reachable over {v} now.",
            "I quit {old}; try {v}.",
            "Contact me via {v} going forward.",
            "{old} notifications are muted, {v} works.",
        ),
        ("I'll use {v} to reach you.", "{v} for getting hold of you, noted."),
    ),
    "meetings": (
        (
            "Schedule my calls {v}.",
            "I can do meetings {v}.",
            "The best slot to meet me is {v}.",
            "Anything that needs me live should land {v}.",
            "My availability for calls: {v}.",
        ),
        (
            "My availability for calls has shifted to {v}.",
            "Instead of {old}, book my meetings {v}.",
            "I can't do {old} anymore; meetings {v}.",
            "Schedule my calls {v} now.",
            "Let's do my syncs {v} going forward.",
        ),
        ("I'll keep your meetings {v}.", "Calls {v}, understood."),
    ),
    "reports": (
        (
            "I digest status best as {v}.",
            "Write my progress updates as {v}.",
            "Status for me should come as {v}.",
            "Hand me {v} when you report.",
        ),
        (
            "Stop sending {old}; I want {v}.",
            "Status for me should come as {v} now.",
            "I've changed my mind about reports: {v} please.",
            "Rather than {old}, give me {v}.",
            "Use {v} for my status updates going forward.",
        ),
        ("I'll format your reports as {v}.", "{v} for your status, got it."),
    ),
}

WEEKDAYS: Final = ("Saturday", "Sunday", "Monday", "Thursday")
CHANNELS: Final = ("WhatsApp", "Telegram", "Discord")

DISTRACTORS: Final = (
    # questions
    ("question", "Remind me, when is {p} landing?"),
    ("question", "Has {p} shifted to {day}?"),
    ("question", "How much money does {p} have left?"),
    ("question", "Which room is the {p} party in?"),
    ("question", "Who's driving {p} at the moment?"),
    ("question", "Did {n} end up in {city}?"),
    ("question", "What did I say I eat?"),
    # hypotheticals and rumours
    ("hypothetical", "Suppose {p} slid to {day}, would that break anything?"),
    ("hypothetical", "In a perfect world {p} would ship on {day}."),
    ("hypothetical", "With {money} more, {p} could hire a contractor."),
    ("hypothetical", "It'd be fun if {n} went to {city} for a while."),
    ("hypothetical", "Could we conceivably do {p} at {venue}? Brainstorming only."),
    ("rumour", "The grapevine says {p} could be pushed to {day}; unverified."),
    ("rumour", "Apparently {n} is eyeing a move to {city}, but who knows."),
    ("rumour", "Word in the hallway is {p} is going to {venue}, unconfirmed."),
    # denials
    ("denial", "{p} is staying put; the {day} thing was a false alarm."),
    ("denial", "Ignore the email about {p} moving to {venue}, it went out by mistake."),
    ("denial", "Nope, {n} isn't relocating to {city}."),
    # other people's habits
    ("third_party", "My brother-in-law is doing {diet} for a month."),
    ("third_party", "My manager always grabs the {seat} seat."),
    ("third_party", "{n}'s kid just went {diet}."),
    ("third_party", "My roommate only answers on {channel}."),
    # keyword collisions
    ("collision", "Watched a documentary about {p} beetles."),
    ("collision", "{city} won the football last night."),
    ("collision", "Saw a {diet} bakery open near the station."),
    ("collision", "{weekday} is the fire drill."),
    ("collision", "The {p} font on the poster looks off."),
    ("collision", "{venue} had a leak last winter, someone mentioned."),
    # outdated notes
    ("outdated", "That old wiki page still says {p} ships on {day}; it's stale."),
    ("outdated", "An ancient email claims {n} is in {city}, ignore it, it's years old."),
)

QUERIES: Final = (
    (
        "I'm sorting catering for the {p} launch on {day}. What should I get for myself, and where "
        "does it go?",
        ("launch_day", "diet", "venue"),
    ),
    (
        "Put together a calendar hold for the {p} launch with the place, the date and my food needs.",
        ("launch_day", "venue", "diet"),
    ),
    ("Arrange my travel to the {p} launch.", ("launch_day", "seat", "venue")),
    ("Who signs off on {p} spending, and what's the ceiling?", ("owner", "budget")),
    (
        "Write the {p} owner a progress note on where {p} stands, laid out the way I like.",
        ("status", "owner", "reports"),
    ),
)

PREFIXES: Final = ("Quick one. ", "FYI: ", "For the record: ", "Small thing. ", "Oh, one more thing. ")
SUFFIXES: Final = (" Thanks!", " Cheers.", " Just so you know.", " Can you keep track of that?")
WRAP_RATE: Final = 0.2
"""Share of user statements wrapped in a prefix or a suffix."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""
