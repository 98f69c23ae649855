"""The ``blind12`` wording: a thirteenth set of phrasings and vocabularies, frozen before its first run.

``blind11`` is held out; this is a further held-out set, in a register none of the earlier sets
uses. It was written by a helper who read ``generator.py`` and ``blind11`` in full, a grep of the
top-level assignments of ``blind9`` and ``blind10`` and the first twelve lines of ``blind10``, the
first thirty lines of docs/policies.md, its generator's section and its datasets table (and the
lines of docs/policies.md and the README that name ``blind11``, some of which carry its reported
figures, which went past on screen), the tests of ``blind11``, tests/core/wording_checks.py and the
wording-registering parts of the bench script, the CLI and tests/core/test_policies_benchmark.py. A
throwaway script checked that its names, cities and values are in none of the earlier sets nor in
``generator.py``, and listed the four-word runs its phrases share with the earlier sets' templates,
distractors, queries and filler (by loading their data, not by reading their text); the phrases that
shared one were rewritten until none did. The helper did not open any policy module nor the sections
of docs/policies.md that describe how the policies work, and ran no policy and no bench_policies on
it: it was committed with tests pinning its digest and the digest of its 10,000-turn seed-7 session
before any policy's first run on it. Only the generator was run, with tests that check the answer
key against the messages (10,000 turns, seed 7: 170 facts, 253 updates, 9 checkpoints).

The wording procedure was fixed first:

* one register throughout, for the user and for the assistant: a hurried texter on a phone, in
  American English — abbreviations ("tmrw", "mtg", "b4", "thx", "idk", "rn", "abt", "bc", "u"),
  no capitals where a thumb would skip them, a typo fixed on the next line ("lanch\\n*launch",
  "chnage\\n*change lol", "*{v} not the other one"), one statement broken over several short
  texts, one per line ("venue\\n{s}\\n{v}\\nbooked"), times and dates the way people text them
  ("fri the 13th", "thurs 10/22", "after 1530", "noonish", "after 4ish"), amounts as "28 grand"
  or "$9.5k", emoji;
* every kind of fact gets five first statements and six updates; the updates vary: two name the old
  value — one waves it off first ("wait no not {old}", "lol jk not {old}"), one swaps it in
  passing ("{old} is out, {s} gets {v}"); three only imply it ("nvm", "scratch that", "actually",
  "ok new plan", "wait no"); the last is worded like a first statement, with no word of change;
  every kind gets two acknowledgements from an assistant that texts back in the same way ("👍 {s}
  on {v}", "got u, {v} runs {s}");
* the distractors carry the same voice: jokes and rhetorical lines that commit to nothing ("might
  just push {p} to {day} and then to mars tbh"), half-asked questions ("{n} in {city} still
  or?"), old screenshots and group chats, denials ("no we r NOT doing {day}"), other people's
  habits and keyword collisions;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler;
  the weekday names aside), and so are the system prompt, the user's chatter, the episodes and
  tasks and the assistant's chatter, hedges, answers and task replies (:data:`SHARED`); a quarter of
  the statements are wrapped in filler on a line of their own and a fifth come out in lower case
  without the final full stop.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Corndog", "Jetski", "Lasso", "Boombox", "Sparkler", "Hotrod", "Slushie", "Tailgate", "Hoagie",
    "Frisbee", "Rollerblade", "Popsicle", "Jukebox", "Pinball", "Funnelcake", "Hayride", "Bobblehead",
    "Minivan", "Lemonade", "Firecracker", "Scrunchie", "Walkman", "Bumpercar", "Dreamsicle",
)
PEOPLE: Final = (
    "Kayleigh", "Brantley", "Jaxon", "Madisyn", "Tyrell", "Bobbie", "Dustin", "Jolene", "Rusty",
    "Nevaeh", "Kendrick", "Destiny", "Brody", "Skyler", "Cheyenne", "Tripp", "Lacey", "Marquis",
    "Paisley", "Ricky", "Tamika", "Hayden", "Jenna", "Dalton",
)
CITIES: Final = (
    "Fresno", "Milwaukee", "Baton Rouge", "Louisville", "Pittsburgh", "Cleveland", "Kansas City",
    "Memphis", "Reno", "Buffalo", "El Paso", "Anchorage",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "the {n} proj", "proj {n}")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "fri the 13th", "thurs 10/22", "next weds", "mon 11/2", "sat the 26th", "tues 12/8",
        "the 30th", "weds 1/6",
    ),
    "venue": (
        "Topgolf", "Lucky Strike Lanes", "Dave's rooftop", "the Elks lodge", "the brewery by the ballpark",
        "the Hideout", "Sun Valley roller rink",
    ),
    "budget": ("$17k", "28 grand", "$4,200", "$9.5k", "65k", "$130k", "11 grand"),
    "owner": PEOPLE,
    "status": (
        "good to go", "stuck on the API thing", "on ice", "behind like a week", "almost done",
        "waiting on legal smh", "a total mess",
    ),
    "office": CITIES,
    "role": (
        "office manager", "social media manager", "sales rep", "devops guy", "brand ambassador",
        "ux person", "events intern", "IT help desk",
    ),
    "diet": (
        "keto-ish", "veggie-ish", "carb-free", "nut-allergic", "garlic-free", "shrimp-free",
        "sugar-free-ish",
    ),
    "seat": (
        "whatever's by the exit", "first row", "the back row", "aisle near the front",
        "any window on the left",
    ),
    "contact": ("Kik", "Snapchat", "Insta DMs", "Marco Polo", "blue bubbles", "Facebook Messenger"),
    "meetings": (
        "b4 9am", "after 1530", "noonish", "tues/thurs", "after 4ish", "first thing",
    ),
    "reports": (
        "a voice memo", "a quick text", "screenshots", "a 2-min video", "a shared spreadsheet",
        "one paragraph max", "a group text",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "{s} lanch is {v}\n*launch",
            "okok\n{s}\nis live\n{v}",
            "{s} drops {v} fyi, tell ppl",
            "{v} for {s}!! finally a date",
            "launch for {s} = {v}, just got off the phone w marketing",
        ),
        (
            "wait no not {old}\n{s} is {v}",
            "{old} is out, {s} gets {v}",
            "nvm abt that date\n{s} = {v}",
            "ok new plan: {s} goes {v} instead",
            "ugh legal again\n{s} pushed\n{v}",
            "{s} launching {v} 🚀",
        ),
        ("👍 {s} on {v}", "got u, {s} launches {v}"),
    ),
    "venue": (
        (
            "venue\n{s}\n{v}\nbooked",
            "got {v} locked in for {s}!!",
            "{s} party @ {v}, dont tell anyone yet",
            "found a place for {s}: {v}\nsorry typing w one hand",
            "we r doing {s} at {v} 🎉",
        ),
        (
            "{old} bailed 🙄 so {s} happens at {v}",
            "not {old} anymore, {s} moved to {v}",
            "scratch that abt where {s} is\n{v}",
            "actually {v} for {s}, the other place was sketchy",
            "chnage\n*change lol\n{s} @ {v}",
            "{s} at {v}. deposit paid",
        ),
        ("📍 {v} for {s}, saved", "cool cool, {v} for {s} 🎉"),
    ),
    "budget": (
        (
            "{s} budget is {v}\nthats it thats the text",
            "finance said {v} for {s} lol not a penny more",
            "we got {v} for {s}!!",
            "{s}\nbudget\n{v}",
            "heads up {s} can spend {v}, tell the vendor",
        ),
        (
            "lol jk not {old}, {s} budget is {v}",
            "{old}?? nope. {s} got {v}",
            "ok {s} new # is {v}",
            "finance came back smh\n{s} gets {v}",
            "actually make {s} {v}, cfo signed",
            "{s} money: {v}",
        ),
        ("💰 {v} for {s}, got it", "ok {s} has {v}"),
    ),
    "owner": (
        (
            "{v} runs the show on {s}",
            "{s} is {v}s baby now\n*{v}'s",
            "who owns {s}? {v}. tell everyone",
            "{v} has {s}, ping them not me",
            "{s} lead\n=\n{v}",
        ),
        (
            "not {old} lol, {v} took {s}",
            "{old} got pulled off {s}, {v} has it",
            "nvm {v} is on {s} now",
            "ok {v} takes over {s} starting tmrw",
            "{s} got handed to {v} at the mtg",
            "{v} owns {s} 👑",
        ),
        ("👌 {v} on {s}", "got u, {v} runs {s}"),
    ),
    "status": (
        (
            "{s} is {v} rn",
            "quick update on {s}\n{v}",
            "{s}?? {v}",
            "checked on {s}: {v}",
            "fyi b4 ur mtg {s} = {v}",
        ),
        (
            "{s} was {old}, now {v}",
            "{s} no longer {old}, its {v}",
            "nvm {s} is {v}",
            "update ugh: {s} is {v}",
            "wait wait {s} went {v}??",
            "{s} = {v}",
        ),
        ("👀 {s}: {v}", "k so {s} {v}, noted"),
    ),
    "office": (
        (
            "{s} is {v} office btw",
            "{s}s desk: {v}\n*{v} not the other one",
            "{s}s office = {v}",
            "fyi {s} is repping {v}",
            "{s}\nhome base\n{v}",
        ),
        (
            "{s} left {old}!! {v} now",
            "not {old}!! {s} packed up for {v}",
            "omg {s} moved to {v}",
            "{s} took the {v} job, packing rn",
            "scratch that abt {s}, {v} now",
            "{s}: {v} office",
        ),
        ("📍 {s} in {v}", "oh nice, {s} in {v}"),
    ),
    "role": (
        (
            "{s} is the {v} here btw",
            "{s} = {v}, be nice",
            "meet {s}!! {v}",
            "{s} started as {v} mon!!",
            "{s} handles {v} stuff fyi",
        ),
        (
            "{s} upgraded, {old} to {v}!!",
            "{s} isnt {old} anymore, {v}",
            "congrats to {s}!! {v} now",
            "actually {s} got moved to {v}",
            "{s} promoted!!! {v}",
            "{s}: {v}, per the new badge",
        ),
        ("👋 {s}, {v}", "noted, {s} is the {v}"),
    ),
    "diet": (
        (
            "fyi im {v} for any work food",
            "pls order me {v} stuff\nthx",
            "food thing: {v}",
            "{v}!! for me at the offsite",
            "im {v} so no surprises pls",
        ),
        (
            "not {old} anymore lol, {v} now",
            "{old} was a fail, {v}",
            "ok new plan im {v}",
            "doc says {v} now 😩",
            "actually {v} for my food from now",
            "im {v}",
        ),
        ("🥗 {v} for u", "got it, {v} food for u"),
    ),
    "seat": (
        (
            "seat pls: {v}",
            "book {v} on planes for me\nalways",
            "flying? {v} or i riot",
            "i do {v} on planes",
            "gimme {v} thx",
        ),
        (
            "not {old} lol, {v} from now",
            "{old} was awful, do {v}",
            "nvm {v} for flights",
            "actually {v} next time u book",
            "ok new plan for planes: {v}",
            "{v} on flights",
        ),
        ("✈️ {v} saved", "k, {v} when i book"),
    ),
    "contact": (
        (
            "text me on {v} pls",
            "{v} is best, i never check email",
            "fastest\nway 2 reach me\n{v}",
            "hit me up on {v} if its urgent",
            "{v} for anything quick thx",
        ),
        (
            "quit {old}, {v} now",
            "{old} deleted lol, use {v}",
            "nvm use {v}",
            "ok new plan: {v} for me",
            "actually {v} bc my phone is being weird",
            "{v} me",
        ),
        ("📱 {v} it is", "got u, {v}"),
    ),
    "meetings": (
        (
            "mtgs {v} pls",
            "i can only do {v} for calls",
            "calls\n{v}\nnot negotiable lol",
            "book my mtgs {v}",
            "{v} works for calls",
        ),
        (
            "not {old} anymore, mtgs {v}",
            "{old} doesnt work w the new job, {v}",
            "nvm calls {v} now",
            "actually {v} for mtgs",
            "wait no mtgs {v} from now",
            "calls {v}",
        ),
        ("📅 mtgs {v}", "ok, calls {v}"),
    ),
    "reports": (
        (
            "shoot me {v} for updates thx",
            "reports = {v} pls, i wont read anything longer",
            "{v}\nthats how i want status",
            "i like {v} for updates tbh",
            "status as {v} thx",
        ),
        (
            "not {old} anymore, send {v}",
            "{old} is too much, {v}",
            "nvm just send {v}",
            "actually {v} for status",
            "ok new plan: updates as {v}",
            "updates as {v}",
        ),
        ("📝 {v}, got it", "k, updates as {v}"),
    ),
}

WEEKDAYS: Final = ("Saturday", "Thursday", "Monday", "Friday")
CHANNELS: Final = ("Snapchat", "Marco Polo", "Kik")

DISTRACTORS: Final = (
    ("question", "{day} still the {p} day?? or nah"),
    ("question", "who has {p} again, i forgot"),
    ("question", "wait whats {p} budget, {money}?"),
    ("question", "{n} in {city} still or?"),
    ("question", "did we book {venue} or was that a maybe"),
    ("hypothetical", "might just push {p} to {day} and then to mars tbh"),
    ("hypothetical", "give {p} {money} and i buy a boat lol"),
    ("hypothetical", "{n} in {city}?? lmao can u imagine"),
    ("hypothetical", "{venue} would be sick for {p} but we cant afford it, forget it"),
    ("rumour", "heard {p} maybe slides to {day}?? idk from who"),
    ("rumour", "somebody thinks {n} heads to {city} soon, no clue if true"),
    ("denial", "no we r NOT doing {day} for {p}, ignore the group chat"),
    ("denial", "{venue}? no. never booked it. joking"),
    ("denial", "{n} isnt going to {city} lol stop"),
    ("third_party", "my mom is {diet} now and wont shut up about it"),
    ("third_party", "{n}s bf only sits {seat}, so dramatic"),
    ("third_party", "my roommate replies on {channel} only which is insane"),
    ("collision", "theres a {p} food truck outside rn"),
    ("collision", "{city} traffic is unreal today"),
    ("collision", "{diet} cookies at the bakery were gone by noon"),
    ("collision", "{weekday} trash pickup again ugh"),
    ("collision", "my {channel} keeps crashing, new phone time"),
    ("outdated", "found an old screenshot saying {p} is {day}, thats so old ignore it"),
    ("outdated", "old group chat says {n} owns {p}, thats from last yr"),
    ("outdated", "{money} for {p} was the number in like march, not now"),
)

QUERIES: Final = (
    ("can u sort {p} launch lunch {day}? where + food i can have", ("launch_day", "venue", "diet")),
    ("flights for {p} launch pls, u know the drill", ("launch_day", "seat", "venue")),
    ("who do i bug re {p} $ + whats left", ("owner", "budget")),
    ("{p} status → owner pls, my usual way", ("status", "owner", "reports")),
    ("call w me + {p} owner pls, when i can do it", ("owner", "meetings")),
)

PREFIXES: Final = ("omg ok\n", "sorry late\n", "real quick\n", "before i forget\n")
SUFFIXES: Final = ("\nsent from my iphone", "\nok back to work", "\nttyl", "\nsry typos")
WRAP_RATE: Final = 0.25
"""Share of user statements wrapped in filler."""
LOWER_RATE: Final = 0.2
"""Share of user statements typed in lower case without the final full stop."""

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (
        "You are texting with a busy person who types fast on a phone. Keep up with every project, "
        "every person and what they want for themselves, however the texts come in, and keep the "
        "latest straight.",
    ),
    (  # user chatter
        "thx!!", "k", "lmao", "omg", "ya", "bet", "ttyl", "np", "idk", "wait what", "ugh", "🤷",
        "😂", "hold on", "rn?",
    ),
    (  # episodes ({p}, {n})
        "{n} and i got boba after the {p} sync",
        "{p} demo froze for like 10 sec, nobody noticed",
        "stuck in traffic w {n}, talking {p} the whole time",
        "{p} standup was 45 min. 45!!",
        "{n} showed me memes about {p} all lunch",
        "phone at 4% dont judge",
        "the {p} retro had donuts so it was fine",
        "{n} and i fixed the {p} thing on a call",
    ),
    (  # tasks ({p}, {n})
        "can u make the {p} notes make sense",
        "text {n} back about {p} for me, keep it short",
        "list whats left on {p} pls",
        "what am i forgetting for {p}",
    ),
    ("np!", "anytime 🙌", "sure!!", "k 👍", "you got it", "haha same"),
    (  # hedges
        "ok not changing anything for that",
        "lol noted as not real",
        "gonna wait till its official",
    ),
    (  # answers ({p})
        "one sec, checking {p}",
        "here's {p} so far",
        "looking up {p} rn",
    ),
    ("done ✅", "here u go", "ok, draft below"),
)
"""The system prompt, user chatter, episodes, tasks and the assistant's chatter, hedges, answers and
task replies (the generator's ``SHARED``, reworded)."""
