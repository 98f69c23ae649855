"""The ``blind14`` wording: a fifteenth set of phrasings and vocabularies, frozen before its first run.

``blind13`` is held out; this is a further held-out set, in a register none of the earlier sets
uses: a first-person diary written in the evening, in the past tense. It was written by a helper
who read ``generator.py``, ``blind13`` (for the module's shape), tests/core/wording_checks.py, the
tests of ``blind13``, the wording-registering parts of the bench script, the CLI and
tests/core/test_policies_benchmark.py (its list of key-side modules and the held-out comment), and
who opened no policy-side module, nor the parts of docs/policies.md or the README that describe the
policies or report their figures. It ran no policy and no bench_policies on it: it was committed
with tests pinning its digest and the digest of its 10,000-turn seed-7 session before any policy's
first run on it. Only the generator was run, with tests that check the answer key against the
messages (10,000 turns, seed 7: 170 facts, 240 updates, 9 checkpoints).

The wording procedure:

* one register throughout, for the user and for the assistant: the user keeps an evening diary and
  tells the assistant the day as it went ("Rang the caterers this afternoon and it turns out …",
  "Spent the morning with {s}'s papers; …"), values sit inside long story sentences, and a change
  is told as what happened ("I'd written {old} in my notebook, but after lunch it became {v}");
  the assistant answers as a patient reader of the diary ("So the day ended with {s} at {v}, if
  I followed you?");
* every kind of fact gets five first statements and six updates; two updates name the old value
  before the new one, three tell the change as an event of the day without naming what it was
  before, and the last is told like a first statement, with no word of change;
* the distractors are in the same voice: things the user wondered about in the bath, gossip
  overheard on the bus, a dream, a friend's or a neighbour's habits, denials ("nobody moved
  anything, whatever I feared this morning"), keyword collisions and an old page of the diary;
* every vocabulary is new (names, cities, values, read-backs, distractors, queries, filler; the
  weekday names aside), and so are the system prompt, the user's chatter, the episodes and tasks
  and the assistant's chatter, hedges, answers and task replies (:data:`SHARED`); a quarter of the
  statements are wrapped in filler ("Dear diary, ", " Anyway, bedtime.") and a tenth come out in
  lower case without the final full stop.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Bowline", "Sheepshank", "Halyard", "Orlop", "Marline", "Becket", "Fairlead", "Gunwale",
    "Spinnaker", "Mizzen", "Deadeye", "Capstan", "Bumpkin", "Thwart", "Cathead", "Bobstay",
    "Futtock", "Ratline", "Scupper", "Taffrail", "Binnacle", "Sprit", "Forestay", "Gudgeon",
)
PEOPLE: Final = (
    "Kadri", "Tiit", "Liis", "Triin", "Jaanika", "Urmas", "Kersti", "Priit", "Heino", "Reet",
    "Toomas", "Helle", "Aivar", "Maret", "Indrek", "Sirje", "Rein", "Tarmo", "Piret", "Ulvi",
    "Margus", "Anneli", "Jaak", "Kaja",
)
CITIES: Final = (
    "Viljandi", "Rakvere", "Haapsalu", "Kuressaare", "Paide", "Valga", "Jogeva", "Kardla", "Rapla",
    "Polva", "Sillamae", "Otepaa",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "the {n} job", "our {n} work")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "the first Saturday of spring", "midsummer eve", "the day after the harvest fair",
        "the twelfth of the month after next", "the week of the lantern walk", "the morning of the regatta",
        "the last day of the school term", "the feast of St Martin",
    ),
    "venue": (
        "the boathouse by the lake", "the old dairy barn", "the lighthouse keeper's cottage",
        "the glasshouse at the botanic garden", "the upstairs room of the sauna club",
        "the rope works", "the manor's orangery",
    ),
    "budget": (
        "nine thousand four hundred kroons' worth", "a little over thirty-one thousand",
        "exactly 4,480", "about 77 thousand all told", "a round 12,600", "close to 208 thousand",
        "barely 2,950",
    ),
    "owner": PEOPLE,
    "status": (
        "stuck behind the planning office", "half-built and drying out", "ready bar the paint",
        "waiting for the frost to lift", "shelved until the new year", "humming along nicely",
        "back at the drawing board",
    ),
    "office": CITIES,
    "role": (
        "boatwright's apprentice", "archive keeper", "festival steward", "kitchen quartermaster",
        "ferry timetabler", "orchard surveyor", "sauna warden",
    ),
    "diet": (
        "mushroom-free", "rye-free", "beetroot-free", "herring-free", "dill-free", "berry-free",
        "sorrel-free",
    ),
    "seat": (
        "the seat by the lavatory door", "a seat facing backwards", "the very last row",
        "the row behind the crew", "a seat above the wheels",
    ),
    "contact": (
        "Tox", "Wire", "Session", "a postcard", "the landline at the cabin", "a note under the door",
        "the village noticeboard",
    ),
    "meetings": (
        "after the milking", "before the ferry leaves", "at dusk", "on market days",
        "straight after breakfast", "during the siesta hour",
    ),
    "reports": (
        "a handwritten letter", "a diary-style page", "a picture of the whiteboard", "three bullet lines",
        "a chat over tea", "a message on the answerphone",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant read-backs); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "Walked home past the hall tonight thinking about {s}, which opens {v}, and I felt ready.",
            "At supper I told the family that {s} goes out {v}, and nobody believed me.",
            "Spent the morning with {s}'s papers and pencilled {v} in as the day it opens.",
            "Wrote it on the fridge before bed: {s}, {v}.",
            "Heard from the board this evening that {s} starts {v}; I'd hoped as much.",
        ),
        (
            "I'd written {old} in my notebook for {s}, but after lunch it became {v}.",
            "All week I had {old} in my head for {s}; the letter this morning said {v}.",
            "Rang the board after tea, and it turns out {s} has slid along to {v}.",
            "The surprise of the day: {s} got moved, and now it opens {v}.",
            "A long phone call this afternoon ended with {s} put back to {v}.",
            "Sat on the porch and marked {v} for {s} in the margin of the calendar.",
        ),
        ("So {s} opens {v}, if I followed your day?", "You ended the day with {v} for {s}, then."),
    ),
    "venue": (
        (
            "Cycled out to see {v} this morning, which is where {s} will happen, and it was lovely.",
            "We signed for {v} today, so {s} has a home at last.",
            "By the evening we had {s} settled at {v}, and I slept better for it.",
            "Drove past {v}, where {s} is booked, and waved at the caretaker.",
            "Told my sister over dinner that {s} will be held at {v}.",
        ),
        (
            "I'd pictured {s} at {old} all month, but they rang at noon and we're at {v} instead.",
            "Crossed out {old} for {s} this afternoon and wrote {v} above it.",
            "The caretaker rang today — they've moved {s} to {v}.",
            "Late in the day came news that {s} lost its room and went to {v}.",
            "Spent the evening redrawing the map, because {s} is now at {v}.",
            "Took the bus to {v} and measured the floor for {s}.",
        ),
        ("{s} at {v}, by the sound of your evening?", "So {v} is where {s} will be held, then."),
    ),
    "budget": (
        (
            "The treasurer came by after lunch and said {s} has {v} to spend, which is more than I feared.",
            "Counted it twice at the kitchen table: {s} gets {v}.",
            "Over coffee we agreed {v} for {s}, and shook on it.",
            "The envelope for {s} arrived at teatime with {v} written on the flap.",
            "I fell asleep doing the sums for {s}, with {v} to work with.",
        ),
        (
            "I had {old} pencilled in for {s}, but the treasurer crossed it out today and wrote {v}.",
            "Went to bed last night believing in {old} for {s}; woke to an email saying {v}.",
            "The treasurer phoned during supper, and {s}'s pot is {v} now.",
            "Bad news, or good, at the meeting this afternoon: {s} was given {v}.",
            "After the board rose tonight, {s} came out with {v}.",
            "Wrote {v} at the top of {s}'s ledger page before I put the kettle on.",
        ),
        ("{v} for {s}, as your evening tells it?", "So {s} has {v} to spend, I take it."),
    ),
    "owner": (
        (
            "Met {v} at the station today; {s} is theirs to look after, they told me proudly.",
            "Over dinner {v} admitted that {s} is on their shoulders.",
            "Bumped into {v} at the market, the one running {s}, and we talked for an hour.",
            "It's {v} who carries {s}, I learned this afternoon.",
            "Wrote {v}'s name beside {s} in my notebook tonight.",
        ),
        (
            "I'd always thought of {s} as {old}'s, but today it was handed to {v}.",
            "All spring it was {old} on {s}; this morning {v} took the keys.",
            "At the meeting this afternoon {s} was passed across the table to {v}.",
            "The big news of the day: {v} has taken {s} on.",
            "By evening it was settled that {v} will carry {s} from now.",
            "Had tea with {v}, who looks after {s}, and we sketched the next steps.",
        ),
        ("So {s} sits with {v}, from your day?", "{v} looks after {s}, then, by your account."),
    ),
    "status": (
        (
            "Went to look at {s} after lunch and found it {v}, as I'd half expected.",
            "By the end of the day {s} was {v}.",
            "Told my neighbour over the fence that {s} is {v}.",
            "Spent the evening with the drawings; {s} is {v}.",
            "Walked round {s} at dusk, and it's {v}.",
        ),
        (
            "This morning {s} was {old}; by teatime it was {v}.",
            "I'd have told you {s} was {old} yesterday, but I went to look today and it's {v}.",
            "Came back from the site tonight to find {s} has gone {v}.",
            "The foreman rang at four, and {s} is suddenly {v}.",
            "Something shifted today, and {s} ended up {v}.",
            "Stood in the rain by {s} and saw it {v}.",
        ),
        ("So {s} ended the day {v}?", "{s}, {v}, by the sound of it."),
    ),
    "office": (
        (
            "{s} wrote from {v}, where they keep their desk, and sent photographs.",
            "Had lunch with {s}, who works out of {v}, on their day in town.",
            "I learned tonight that {s} sits in the {v} office.",
            "Posted a parcel to {s} at {v} this afternoon.",
            "{s} spent the whole day at their desk in {v}, they told me.",
        ),
        (
            "I'd been sending {s}'s letters to {old}, but today I heard they've gone to {v}.",
            "{s} packed up in {old} this week and unpacked in {v} this morning.",
            "A postcard came at noon: {s} has been sent to work in {v}.",
            "Over the phone this evening {s} said they're at a desk in {v} now.",
            "It turns out, as I learned on the bus home, that {s} is posted to {v}.",
            "Waved {s} off at the station, back to their desk in {v}.",
        ),
        ("{s} works out of {v}, then?", "So {s}'s desk is in {v}, by your telling."),
    ),
    "role": (
        (
            "{s} showed me round today and told me they're the {v}.",
            "Over soup {s} explained what a {v} does, since that's their job.",
            "Saw {s} at work this morning, busy being our {v}.",
            "{s} signs their letters as {v}, I noticed tonight.",
            "At the party {s} was introduced as the {v}.",
        ),
        (
            "{s} was our {old} for years, but since this morning they're the {v}.",
            "I still had {s} down as {old}; today they started as {v}.",
            "{s} rang tonight, giddy, because they've been made {v}.",
            "The notice went up at lunchtime: {s} is the new {v}.",
            "By the afternoon {s} had swapped desks and become {v}.",
            "Spent the evening helping {s} learn the ropes as {v}.",
        ),
        ("{s} is the {v}, then?", "So {s} works as {v}, if I followed you."),
    ),
    "diet": (
        (
            "Explained to the cook again tonight that I eat {v}, and she sighed.",
            "Packed my own lunch today, {v} as always.",
            "At the dinner I had to remind them I'm {v}.",
            "The doctor said this morning I should stay {v}, so I will.",
            "Shopped after work for {v} things only.",
        ),
        (
            "I'd been eating {old} since the winter, but the doctor said today to go {v}.",
            "Gave up on {old} at breakfast this morning; from lunch on I've been {v}.",
            "Had a bad night, and since today I eat {v}.",
            "The clinic rang in the afternoon, so it's {v} for me from here.",
            "A new leaf this evening: I'm {v}.",
            "Cooked a {v} supper for myself and read by the stove.",
        ),
        ("So you eat {v}, from your evening?", "{v} food for you, then."),
    ),
    "seat": (
        (
            "Flew home tonight in {v}, which is always my choice.",
            "Booked my tickets this morning and asked for {v}, as usual.",
            "On every flight I ask for {v}, I told the agent today.",
            "The crew found me {v} this afternoon, and I was content.",
            "Sat in {v} on the way back and slept.",
        ),
        (
            "I used to ask for {old}, but after today's flight I want {v}.",
            "Sat in {old} this morning and hated it; it's {v} from now.",
            "After a long flight tonight I've decided on {v} from here.",
            "Told the travel desk at lunch that I'm going with {v} from today.",
            "Today's trip taught me something: {v}, every time.",
            "Settled into {v} on the evening flight with a book.",
        ),
        ("{v} on the plane for you, then?", "So you'd sit in {v}, by the sound of your flight."),
    ),
    "contact": (
        (
            "Told the new people today that {v} is the way to reach me.",
            "Checked {v} at bedtime, since that's where people find me.",
            "Anyone who wants me, I said at lunch, should use {v}.",
            "Spent the evening answering messages on {v}, my usual place.",
            "Gave the school {v} as my way of being reached.",
        ),
        (
            "I'd been reachable on {old} for years, but I gave it up today for {v}.",
            "Switched off {old} this morning; people find me on {v} from now.",
            "After a maddening day I've moved everyone over to {v}.",
            "Told the whole street tonight that I'm on {v} from today.",
            "Something gave this afternoon, and I'm only on {v} now.",
            "Wrote {v} on the card I left for the postman.",
        ),
        ("So people reach you on {v}?", "{v} is where you're found, then."),
    ),
    "meetings": (
        (
            "Told the committee I meet people {v}, and they took it well.",
            "Had my only call of the day {v}, the way I like it.",
            "My diary has meetings {v}, and today was no different.",
            "Booked the plumber for {v}, as I do with everyone.",
            "Met the neighbours {v} for the monthly chat.",
        ),
        (
            "I'd always met people {old}, but from today it's {v}.",
            "Gave up meeting {old} this week; I told them this evening it's {v}.",
            "After a tiring week I've moved my meetings to {v} from today.",
            "This morning I rearranged everything, so I see people {v}.",
            "Something snapped at lunch, and my calls are {v} now.",
            "Saw the committee {v} and we got through the agenda.",
        ),
        ("You meet people {v}, then?", "So your calls go {v}, from your day."),
    ),
    "reports": (
        (
            "Asked the team today to send me news as {v}, the way I read best.",
            "Got the weekly update as {v} this evening and read it in the bath.",
            "I told them at lunch I want {v} for every update.",
            "Updates come to me as {v}, I reminded the new lad.",
            "Read {v} from the team at breakfast, which is how I like news.",
        ),
        (
            "I'd asked for {old} all year, but today I asked them for {v} instead.",
            "Put away {old} this morning; from now I want {v}.",
            "Tired of the old way, I told the team tonight to send me {v}.",
            "After lunch I asked for my updates as {v} from today.",
            "A new rule, made this evening: {v} for all my news.",
            "Curled up with {v} from the team before bed.",
        ),
        ("News for you as {v}, then?", "So the team writes to you as {v}."),
    ),
}

WEEKDAYS: Final = ("Monday", "Saturday", "Sunday", "Thursday")
CHANNELS: Final = ("Tox", "Wire", "Session")

DISTRACTORS: Final = (
    ("question", "Lay awake wondering whether {p} was still set for {day}; must ask."),
    ("question", "Couldn't remember tonight who has {p} now — do you know?"),
    ("question", "Was it {money} for {p}? I forgot to write it down."),
    ("question", "I wondered on the bus whether {n} is still in {city}."),
    ("question", "Did we ever take {venue}, or did I imagine it?"),
    ("hypothetical", "In the bath I imagined {p} on {day} instead; just a daydream."),
    ("hypothetical", "Had {p} been given {money}, we'd have bought a boat. We weren't."),
    ("hypothetical", "Dreamt last night that {n} moved to {city}; only a dream."),
    ("hypothetical", "Mused over supper on {p} at {venue}, if things had been different."),
    ("rumour", "Overheard on the bus that {p} might go to {day}; just talk."),
    ("rumour", "A neighbour swore {n} is off to {city}, but she says a lot of things."),
    ("denial", "Nobody moved {p} to {day}, whatever I feared this morning."),
    ("denial", "We never took {venue}; that was the other lot, I found out."),
    ("denial", "{n} isn't going to {city}; they laughed when I asked."),
    ("third_party", "My friend Ulla eats {diet}, which is why I had it on my mind."),
    ("third_party", "Grandad always wants {seat}; he told the whole family again."),
    ("third_party", "The landlord only answers on {channel}, the old goat."),
    ("collision", "Walked past the {p} bakery and bought rolls."),
    ("collision", "The rain in {city} was all over the radio tonight."),
    ("collision", "Someone left a {diet} cake at the door; lovely."),
    ("collision", "The bins go out on {weekday} now, the council says."),
    ("collision", "My {channel} kept buzzing at the cinema."),
    ("outdated", "Found an old page of this diary with {p} on {day}; long out of date."),
    ("outdated", "Last spring's notebook has {n} running {p}; that was before everything."),
    ("outdated", "An old letter puts {p} at {money}, but that was last year."),
)

QUERIES: Final = (
    (
        "Could you plan the picnic for the {p} opening on {day}? Where it is, and what I can eat.",
        ("launch_day", "venue", "diet"),
    ),
    ("Sort my flight for the {p} opening, with the seat I like.", ("launch_day", "seat", "venue")),
    ("Who holds {p}'s purse these days, and how full is it?", ("owner", "budget")),
    ("Write a note on how {p} is going to whoever looks after it, the way I like my news.",
     ("status", "owner", "reports")),
    ("Arrange a chat with whoever has {p}, at a time that suits me.", ("owner", "meetings")),
)

PREFIXES: Final = ("Dear diary, ", "Long day. ", "Before I forget, ", "Tonight's entry: ")
SUFFIXES: Final = (" Anyway, bedtime.", " Tea's gone cold.", " More tomorrow.", " What a day.")
WRAP_RATE: Final = 0.25
"""Share of user statements wrapped in filler."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (
        "You are a patient reader of the user's evening diary. The user tells you about the day in "
        "the past tense; keep every project, person and personal preference it mentions up to date "
        "as the story changes them.",
    ),
    (  # user chatter
        "Where was I?", "Oh, and the cat was sick.", "Nothing much else happened.", "It rained again.",
        "I'm yawning already.", "That's the day, more or less.", "Funny old day.", "Can't complain.",
        "The kettle's whistling.", "Mm, where did the evening go.", "Quiet one today.",
        "I'll write more tomorrow.", "Good night, then.", "Oh, I nearly forgot.",
    ),
    (  # episodes ({p}, {n})
        "Spent an hour in the queue at the post office with the {p} forms.",
        "{n} and I ate sandwiches on the steps after the {p} meeting.",
        "The {p} slides froze twice in front of everyone.",
        "Took {n} to the sauna after work; we never mentioned {p} once.",
        "Missed the ferry and read the {p} file on the quay.",
        "Washed the car and thought about nothing at all.",
        "{n} brought cake to the {p} review and everyone cheered.",
        "The heating failed in the {p} room, so we wore coats.",
    ),
    (  # tasks ({p}, {n})
        "Would you write tonight's {p} news as a short letter?",
        "Draft a few lines to {n} about how {p} is getting on.",
        "What's still loose on {p}, from everything I've told you?",
        "Remind me what I haven't told you yet about {p}.",
    ),
    (  # the assistant's chatter
        "And how did the rest of the day go?", "That sounds like a long one.", "Go on, I'm listening.",
        "Anything else from today?", "Sleep well when you get there.", "What happened after that?",
    ),
    (  # hedges
        "I'll keep that as a passing thought, not as something that happened.",
        "Noted as a wondering; nothing in the record changes.",
        "I'll wait until it actually happens before writing it in.",
    ),
    (  # answers ({p})
        "Let me leaf back through what you told me about {p}.",
        "Here's {p} as your diary has it so far.",
        "Going back over your evenings for {p}.",
    ),
    (
        "Here it is; see if it reads right.", "A first draft, below.", "Written out — change what you like.",
    ),
)
"""The system prompt, user chatter, episodes, tasks and the assistant's chatter, hedges, answers and
task replies (the generator's ``SHARED``, reworded)."""
