"""The ``blind8`` wording: a ninth set of phrasings and vocabularies, frozen before its first run.

``blind7`` is held out and not yet run; this is a further held-out set, in a register none of the
earlier sets uses. It was written by a helper who read the generator and ``blind7`` in full, the
top of ``blind6`` and of ``blind5`` (their docstrings and first vocabularies) and grepped the other
sets only to avoid overlaps: a script checked that its names, cities and values are in none of the
earlier sets nor in ``generator.py``, and that its phrases share no three-word run with them beyond
common ones ("at the moment", "is responsible for", "I have time for"). The helper did not open any
policy module nor the sections of docs/policies.md that describe how the recommended policy works
(only the README's one-paragraph summary of ``focus`` went past on screen, next to the wording
list, before the templates were written), and ran no policy and no bench_policies on it: it was
committed with a test pinning its digest before any policy's first run on it. Only the generator
was run, with a test that checks the answer key against the messages (10,000 turns, seed 7: 170
facts, 244 updates, 9 checkpoints).
The wording procedure was fixed first:

* one register throughout, for the user and for the assistant's acknowledgements: team-chat and
  issue-tracker shorthand by a second-language English speaker — tracker field lines
  ("{s} status: {old} -> {v}", "[travel profile] seat = {v}"), ISO dates, "@here"/"@name" mentions,
  sed-style and strike-through corrections ("s/{old}/{v}/", "~~{old}~~ {v}"), "edit:" follow-ups,
  standup notes, dropped articles and calqued prepositions ("moved on {v}", "in hands of"), emoji;
* every kind of fact gets six first statements and seven updates; the updates vary: a field line
  naming the old value, a sed correction, an "edit:" that names the old value or only refers to it
  ("date I wrote before"), a question and its answer in one message, a reason with the old value
  left implicit, one worded like a first statement, and a strike-through; every kind gets two or
  three acknowledgements;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler;
  the abbreviated weekday names aside), and some statements are wrapped in chat filler or come
  out in lower case, as in ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Bollard", "Chisel", "Dowel", "Eyelet", "Ferrule", "Grommet", "Hasp", "Isobar", "Jackscrew",
    "Kingpin", "Latchkey", "Mortise", "Nozzle", "Oarlock", "Pulley", "Quoin", "Rivet", "Sprocket",
    "Tappet", "Uplink", "Valance", "Washer", "Yoke", "Zipline",
)
PEOPLE: Final = (
    "Ainura", "Bolat", "Chidera", "Dilnoza", "Ebuka", "Farrukh", "Gulnara", "Hakimjon", "Ilona", "Jasur",
    "Kateryna", "Lwazi", "Mihaela", "Nurlan", "Olesya", "Pradeep", "Rustam", "Svetlana", "Timur",
    "Ulugbek", "Vusi", "Wambui", "Yerlan", "Zarina",
)
CITIES: Final = (
    "Narva", "Brno", "Cluj", "Braga", "Da Nang", "Pune", "Curitiba", "Izmir", "Batumi", "Lviv",
    "Medellin", "Cebu",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "{n} epic", "proj {n}")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "2027-01-18", "2027-02-09", "2027-03-03", "2027-03-27", "2027-04-15", "2027-05-06",
        "2027-06-21", "2027-07-12",
    ),
    "venue": (
        "Huddle Room 4B", "the maker lab", "the atrium cafe", "the 7th floor kitchen", "the co-working loft",
        "the L2 auditorium", "the roof garden",
    ),
    "budget": (
        "18k EUR", "62k USD", "140k PLN", "9.5k EUR", "1.2M INR", "33k CHF", "410k CZK",
    ),
    "owner": PEOPLE,
    "status": (
        "BLOCKED BY INFRA", "IN STAGING", "IN TRIAGE", "READY FOR UAT", "SHELVED", "WIP",
        "WAITING FOR VENDOR", "IN CODE REVIEW",
    ),
    "office": CITIES,
    "role": (
        "test automation lead", "agile coach", "platform engineer", "backend dev", "UX writer",
        "build and release engineer", "localisation specialist", "data steward",
    ),
    "diet": (
        "histamine-free", "corn-free", "soy-free", "no-added-sugar", "peanut-free", "low-sodium",
        "nightshade-free",
    ),
    "seat": ("front-row aisle", "rear window", "over-wing", "extra-legroom"),
    "contact": (
        "Mattermost", "Wickr", "Jira comments", "Keybase", "Zulip", "Rocket.Chat", "the on-call pager",
    ),
    "meetings": (
        "between 09:00 and 11:00 CET", "after 13:00 CET", "Tue/Thu only", "before standup",
        "in the 15:00-17:00 slot", "on Wed mornings", "outside planning days",
    ),
    "reports": (
        "a Loom video", "a Confluence page", "a Jira dashboard link", "bullet points in the thread",
        "a burndown chart", "a changelog entry", "a Notion doc",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "{s} go-live fixed for {v} 🚀",
            "[{s}] target release: {v}",
            "after sprint review we agree: {s} ships on {v}, please plan your tasks around it",
            "Standup note - {s}: release date is {v}, no buffer in plan.",
            "@here {v} = release day for {s}. mark in calendar 📅",
            "We push {s} to prod on {v}, like discussed in retro.",
        ),
        (
            "{s} go-live: {old} -> {v} (infra not ready)",
            "oops s/{old}/{v}/ for {s} release, my bad",
            "edit: {s} is not shipping on date I wrote before, new target is {v} ⚠️",
            "when {s} goes live now? -> {v}, confirmed by PO",
            "Release of {s} slipped, we cannot hold {old}. Moved on {v}.",
            "Release day for {s} is {v}.",
            "~~{old}~~ {v} - {s} release date, tracker updated",
        ),
        (
            "👍 {s} release on {v}, noted",
            "ack: {s} go-live {v}",
            "ok, logged {v} as {s} go-live",
        ),
    ),
    "venue": (
        (
            "{s} launch party location: {v}",
            "booked {v} for {s} launch event 🎉",
            "[{s}] launch meetup will be in {v}, capacity ok for whole team",
            "For {s} kickoff celebration we take {v}, facility team confirmed.",
            "@channel {s} launch get-together -> {v}, bring laptops for demo",
            "{v} is reserved for launch of {s}, catering inside.",
        ),
        (
            "{s} launch location: {old} -> {v}",
            "typo above: s/{old}/{v}/ (launch event of {s}) sorry",
            "{old} cancelled us 😞 launch of {s} happens in {v} now",
            "where {s} launch party happens now? {v}. new invite follows",
            "Room for {s} launch changed, one from my last msg is not available. New place: {v}.",
            "{v} is place for launch event of {s}.",
            "edit: {s} launch goes to {v} because of renovation works",
        ),
        (
            "📍 {v} noted for {s} launch",
            "ack, {s} launch event in {v}",
        ),
    ),
    "budget": (
        (
            "{s} budget: {v} (approved)",
            "finance gave {v} for {s}, this is hard cap",
            "[{s}] cost center approved {v} for this FY 💰",
            "We have {v} for {s}, not more, so plan licenses with this.",
            "budget for {s} = {v}, PO signed off",
            "Spend limit on {s} is {v}.",
        ),
        (
            "{s} budget: {old} -> {v} after Q-review",
            "{s} budget s/{old}/{v}/ - fat fingers, sorry 🙈",
            "finance cut {s}. number I gave before is not valid, we have {v} now",
            "how much for {s} now? {v}, confirmed in steering call",
            "~~{old}~~ {v} for {s}, cost center updated",
            "{v} is approved amount for {s}.",
            "edit: {s} got extra money, total is {v} 🎉",
        ),
        (
            "💰 ack, {s} budget {v}",
            "noted: {v} for {s}",
        ),
    ),
    "owner": (
        (
            "{s} owner: @{v}",
            "{v} takes {s}, all questions to {v} directly",
            "[{s}] assignee = {v}",
            "From this sprint {v} is responsible for {s}, ping them for any blockers.",
            "Who drives {s}: {v}. Tag in PRs please.",
            "{s} is in hands of {v} 👌",
        ),
        (
            "{s} owner: @{old} -> @{v}",
            "reassigned {s} to {v} ({old} went to other team)",
            "edit: not {old}, {v} owns {s}, I mixed names 🤦",
            "who owns {s} now? {v}, handover done yesterday",
            "Person I named before for {s} is on parental leave, {v} takes over till end of year.",
            "{v} is responsible for {s}.",
            "fix in {s} ticket: s/@{old}/@{v}/",
        ),
        (
            "ok, {v} is owner of {s} in tracker",
            "noted, {v} owns {s} 👍",
        ),
    ),
    "status": (
        (
            "{s} status: {v}",
            "[{s}] card sits in column {v} on board",
            "standup: {s} currently {v}, no blockers from my side",
            "Quick one - {s} is {v} since this morning.",
            "board says {s} = {v} 📋",
            "for your info {s} has status {v} right now.",
        ),
        (
            "{s} status: {old} -> {v}",
            "argh s/{old}/{v}/ for {s}, wrong column",
            "{s} left the state I wrote, it is {v} now ✅",
            "status of {s}? {v} after today's sync",
            "edit: {s} went {v}, previous status outdated",
            "Board shows {s} as {v}.",
            "~~{old}~~ {v} ({s})",
        ),
        (
            "ok, {s} is {v}",
            "📋 noted {s}: {v}",
        ),
    ),
    "office": (
        (
            "{s} location: {v}",
            "{s} sits in {v} office, keep timezone in mind ⏰",
            "[team page] {s} - based in {v}",
            "{s} works at our {v} hub.",
            "For onsite stuff ask {s}, they are in {v}.",
            "@{s} is {v}-based",
        ),
        (
            "{s} location: {old} -> {v}",
            "{s} relocated to {v} last week, update your contacts 📦",
            "edit: {s} is not in {old}, it was my mistake, correct is {v}",
            "where {s} sits now? {v} hub, since the move",
            "{s} left the office I mentioned before, new base: {v}.",
            "{s} sits in {v}.",
            "{s} profile: s/{old}/{v}/",
        ),
        (
            "ok, {s} in {v}",
            "noted: {s} based {v} 🌍",
        ),
    ),
    "role": (
        (
            "{s} role: {v}",
            "{s} joins as {v} 👋",
            "[org chart] {s} = {v}",
            "Meet {s}, our new {v}, please add to channels.",
            "{s} is working as {v} in our squad, questions in this topic -> them.",
            "{s} hired as an {v}, starting this month",
        ),
        (
            "{s} role: {old} -> {v}",
            "{s} got promotion -> {v} 🎉",
            "edit: {s} is {v}, not {old} like I wrote 🙏",
            "what is {s} doing now? {v} since reorg",
            "After reorg {s} has another title: {v}.",
            "Title of {s} is {v}.",
            "title of {s}, s/{old}/{v}/ (HR told me)",
        ),
        (
            "ok, {s} is {v}",
            "noted {s}: {v} 👍",
        ),
    ),
    "diet": (
        (
            "my diet: {v}",
            "for team lunch I need {v} food please 🥗",
            "[offsite form] dietary: {v}",
            "Reminder for catering: me = {v}.",
            "Only {v} for me, doctor's rule.",
            "pizza order for team: mine {v} 🍕",
        ),
        (
            "my diet: {old} -> {v}",
            "my catering info, s/{old}/{v}/ please",
            "edit: no more {old} diet, now {v} 😅",
            "my food now? {v}, since last checkup",
            "Catering info I gave earlier is outdated, put {v} for me.",
            "For me food should be {v}.",
            "~~{old}~~ {v} - my lunch option",
        ),
        (
            "🥗 ok, {v} for you",
            "noted: {v} meals",
        ),
    ),
    "seat": (
        (
            "flight seat pref: {v}",
            "when booking my flights take {v} ✈️",
            "[travel profile] seat = {v}",
            "I always fly {v}, tell travel agency please.",
            "For trips: {v} for me if possible.",
            "Put me {v} on flights, working while flying.",
        ),
        (
            "seat pref: {old} -> {v}",
            "travel profile fix: s/{old}/{v}/",
            "edit: not {old} anymore, {v} starting today ✈️",
            "which seat I want now? {v}, my back is grateful",
            "Travel agency has old info from me, change to {v} please.",
            "For flights I take {v}.",
            "~~{old}~~ {v} - seat",
        ),
        (
            "✈️ noted {v}",
            "ok, {v} on your bookings",
        ),
    ),
    "contact": (
        (
            "best channel for me: {v}",
            "msg me on {v}, there I see it first 📱",
            "[profile] preferred contact = {v}",
            "If urgent, {v} please, mails I read only in evening.",
            "Reach me via {v}.",
            "for blockers write me in {v}",
        ),
        (
            "contact: {old} -> {v}",
            "where to ping me: s/{old}/{v}/",
            "edit: I muted {old}, use {v} now 🔕",
            "how to contact me now? {v}, other one is too noisy",
            "Channel I gave before I don't check anymore. {v} from today.",
            "Most reliable for me is {v}.",
            "~~{old}~~ {v} for pings",
        ),
        (
            "📱 ok, will ping on {v}",
            "noted: {v} for you",
        ),
    ),
    "meetings": (
        (
            "meeting slots for me: {v}",
            "calendar rule: book me {v} 🗓️",
            "[availability] {v}",
            "Calls only {v}, rest of day is focus time.",
            "Syncs with me work {v}.",
            "set invites {v} please, otherwise I miss them",
        ),
        (
            "my meeting slots: {old} -> {v}",
            "calendar rules s/{old}/{v}/, sorry for confusion",
            "edit: {old} is impossible now, book me {v} ⏰",
            "when I have time for calls now? {v}, new kindergarten hours",
            "My availability changed with new sprint, now {v}.",
            "My free window for calls is {v}.",
            "~~{old}~~ {v} - my slots for calls",
        ),
        (
            "🗓️ ok, invites {v}",
            "noted: meetings {v}",
        ),
    ),
    "reports": (
        (
            "reporting format (mine): {v}",
            "status updates to me as {v} please 📝",
            "[team agreement] reporting = {v}",
            "I read progress best in {v}.",
            "Weekly update -> {v}, thanks.",
            "progress to me please as {v}, long mails nobody reads",
        ),
        (
            "reporting: {old} -> {v}",
            "for status reports: s/{old}/{v}/",
            "edit: stop with {old}, send me {v} instead 📝",
            "how you send reports now? {v}, easier to read on phone",
            "Format I asked before is too heavy, from now {v}.",
            "Reports for me in form of {v}.",
            "~~{old}~~ {v} - reporting",
        ),
        (
            "📝 ok, {v} it is",
            "noted: {v} for reporting",
        ),
    ),
}

WEEKDAYS: Final = ("Tue", "Thu", "Mon", "Sat")
CHANNELS: Final = ("Wickr", "Zulip", "Keybase")

DISTRACTORS: Final = (
    ("question", "{p} go-live still {day}? or changed?"),
    ("question", "anyone knows budget of {p}? cannot find in wiki"),
    ("question", "where is {p} launch party? link?"),
    ("question", "{n} still in {city} or moved?"),
    ("question", "who is PO for {p} at the moment? 🤔"),
    ("hypothetical", "if {p} slips to {day} we lose demo slot, just saying"),
    ("hypothetical", "with {money} more we could add second tester to {p}, wdyt?"),
    ("hypothetical", "{n} would enjoy {city} probably, good food there"),
    ("rumour", "heard in kitchen {p} maybe goes {day}, not confirmed 👀"),
    ("rumour", "rumor: {n} goes to {city} office? nobody knows"),
    ("denial", "nope, {p} stays, NOT shifting to {day}, that thread is wrong ❌"),
    ("denial", "{n} is not relocating to {city}, fake news 😄"),
    ("denial", "{p} launch is not in {venue}, it was only a draft"),
    ("third_party", "my flatmate is {diet} from january, crazy"),
    ("third_party", "client wants {seat} for their trip"),
    ("third_party", "vendor's PM replies just in {channel} 🙄"),
    ("collision", "{p} is also name of cafe downstairs lol"),
    ("collision", "{city} marathon blocked roads today"),
    ("collision", "canteen has {diet} soup on {weekday}"),
    ("collision", "{weekday} = hackathon day, don't forget"),
    ("outdated", "old roadmap says {p} on {day}, ignore it, not maintained"),
    ("outdated", "archived ticket still shows {n} owning {p}, archive is outdated"),
)

QUERIES: Final = (
    ("organise lunch for {p} launch on {day}: venue + my diet 🍱", ("launch_day", "venue", "diet")),
    ("book me flight to {p} launch party", ("launch_day", "seat", "venue")),
    ("who I ask for {p} money and what is left?", ("owner", "budget")),
    ("send current {p} status to its owner in format I like", ("status", "owner", "reports")),
    ("set up sync with owner of {p} in one of my free slots", ("owner", "meetings")),
)

PREFIXES: Final = ("heads-up: ", "morning all ☕ ", "small thing: ", "re sprint board: ")
SUFFIXES: Final = (" thx", " 🙏", " ty!", " (cc PO)")
WRAP_RATE: Final = 0.35
"""Share of user statements wrapped in chat filler."""
LOWER_RATE: Final = 0.12
"""Share of user statements typed in lower case without the final full stop."""
