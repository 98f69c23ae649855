"""The ``blind9`` wording: a tenth set of phrasings and vocabularies, frozen before its first run.

``blind8`` has been run once to report; this is a further held-out set, in a register none of the
earlier sets uses. It was written by a helper who read the generator and ``blind8`` and ``blind7``
in full (so saw ``standard``, ``heldout`` and the generator's shared chatter) and grepped the other
sets only to avoid overlaps: a throwaway script checked that its names, cities and values are in
none of the earlier sets nor in ``generator.py``, and that its phrases share no three-word run with
them beyond common ones ("the {s} launch", "{s} to {v}", "in the {v}"). The helper did not
open any policy module nor the sections of docs/policies.md that describe how the recommended
policy works (a grep for where the wordings are listed printed eight unrelated lines of four policy
modules, and the README's one-paragraph summary of ``focus`` went past on screen next to the
wording list, both after the templates were drafted), and ran no policy and no bench_policies on
it: it was committed with a test pinning its digest before any policy's first run on it. Only the
generator was run, with a test that checks the answer key against the messages (10,000 turns,
seed 7: 170 facts, 244 updates, 9 checkpoints).
The wording procedure was fixed first:

* one register throughout, for the user and for the assistant's acknowledgements: third-person
  reported speech and meeting minutes kept as a chronicle — the user relays what others said or
  decided, in indirect speech with backshifted tenses ("the chair told us {s} would no longer open
  on {old} but had slid to {v}"), minute lines ("Minutes, item 4: {s} launch hall — agreed on
  {v}"), passive and nominalised phrasing ("relocation of {s} to {v} was approved once the lease
  on the old site ran out"), hedged attributions ("reportedly", "according to", "I'm told", "as I
  understand it"), "let the record show" entries, and log-entry acknowledgements ("Entered in the
  log: …", "So recorded — …");
* every kind of fact gets six first statements and seven updates; the updates vary: an amendment
  of earlier minutes naming the old value ("item 2 of last week's minutes is amended to read: …
  (formerly {old})"), a retraction of what the user relayed before that does not name it
  ("correction to what I relayed on Monday about {s}: …"), reported speech that names the old
  value, a question and its answer relayed in one message ("asked whether …, the secretary
  answered that …"), a nominalised decision with a reason and the old value left implicit, one
  worded like a first statement ("the minutes record the opening of {s} as {v}"), and a hedged
  report of a change ("reportedly {s} has slipped; …"); every kind gets two or three
  acknowledgements;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler;
  the weekday names aside), and some statements are wrapped in chronicle filler or come out in
  lower case, as in ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Bassoon", "Cadenza", "Descant", "Etude", "Fugue", "Gavotte", "Hornpipe", "Interlude", "Jongleur",
    "Kettledrum", "Lute", "Madrigal", "Nocturne", "Ostinato", "Pavane", "Quadrille", "Rondo",
    "Sarabande", "Toccata", "Undertone", "Virginal", "Waltz", "Xylophone", "Yueqin",
)
PEOPLE: Final = (
    "Agnieszka", "Bartholomew", "Cressida", "Dagfinn", "Eulalia", "Florentyna", "Gwendolen",
    "Hieronymus", "Isolde", "Jaroslav", "Kunigunde", "Lysander", "Mechthild", "Nikodem", "Ophelia",
    "Pankraz", "Radegund", "Sebastiaan", "Tancredi", "Ursula", "Vratislav", "Winifred", "Yevdokia",
    "Zuzanna",
)
CITIES: Final = (
    "Leuven", "Trondheim", "Plovdiv", "Cuzco", "Kotor", "Salzburg", "Rosario", "Dundee", "Nantes",
    "Bergamo", "Zanzibar", "Kilkenny",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "the {n} workstream", "the {n} undertaking")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "the 14th of November", "the 2nd of August", "the 9th of January", "the 27th of July",
        "the 5th of October", "the 18th of February", "the 30th of April", "the 23rd of September",
    ),
    "venue": (
        "the Assembly Rooms", "the chapter house", "the old granary", "the Cornmarket hall",
        "the tithe barn", "the members' library", "the glasshouse pavilion",
    ),
    "budget": (
        "€96,500", "£27,750", "$143,000", "€212,000", "£61,250", "$88,400", "€39,900",
    ),
    "owner": PEOPLE,
    "status": (
        "on hold pending sign-off", "in its closing phase", "at the tender stage", "back in design",
        "awaiting the auditors", "in soft launch", "mothballed", "running to plan",
    ),
    "office": CITIES,
    "role": (
        "records manager", "chief archivist", "programme treasurer", "events steward",
        "liaison officer", "head of partnerships", "quality assessor", "field researcher",
    ),
    "diet": (
        "lupin-free", "celery-free", "sulphite-free", "tree-nut-free", "low-purine", "yeast-free",
        "pork-free",
    ),
    "seat": ("bulkhead row", "forward cabin", "rearmost row", "emergency-exit row"),
    "contact": (
        "Briar", "Jami", "Delta Chat", "Element", "the reception desk", "my voicemail",
        "the porter's lodge",
    ),
    "meetings": (
        "between 08:30 and 10:00", "after lunch on Thursdays", "in the closing hour of work",
        "on the third Wednesday monthly", "before the mid-morning break", "from half past two",
        "in odd-numbered weeks",
    ),
    "reports": (
        "a single-sheet digest", "a spoken briefing", "an annotated timeline", "a traffic-light table",
        "a fortnightly newsletter", "a wall chart", "a logbook entry",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "Per the steering group, {s} was to be unveiled on {v}.",
            "Minutes, item 3: opening day of {s} — agreed, {v}.",
            "Let the record show: {s} to open on {v}.",
            "Word at the review was that {s} would be launched on {v}.",
            "The board gave its blessing to opening {s} on {v}, I'm told.",
            "According to the programme office, {s} would open its doors on {v}.",
        ),
        (
            "Item 2 of last week's minutes is amended to read: opening day of {s}, {v} (formerly {old}).",
            "Correction to what I relayed on Monday about {s}: the chair now says it opens on {v}.",
            "The chair told us {s} would no longer open on {old} but had slid to {v}.",
            "Asked whether {s} still kept its date, the secretary answered that it was now {v}.",
            "Postponement of {s} to {v} was approved, the earlier date having been judged unworkable.",
            "The minutes record the opening of {s} as {v}.",
            "Reportedly {s} has slipped; {v} was named at the stand-up as the revised go-live.",
        ),
        (
            "Entered in the log: {s} opens on {v}.",
            "So recorded — {s}, opening day {v}.",
            "Logged as relayed: opening of {s} on {v}.",
        ),
    ),
    "venue": (
        (
            "Per facilities, the launch gathering of {s} would convene in {v}.",
            "Minutes, item 4: {s} launch hall — agreed on {v}.",
            "Let the record show {v} booked for the opening of {s}.",
            "The organisers said {s}'s opening event would be staged in {v}.",
            "Hire of {v} for {s}'s launch was signed off, I gather.",
            "According to the events team, guests at the launch of {s} would gather in {v}.",
        ),
        (
            "Item 4 of Tuesday's minutes is amended to read: {s} launch hall, {v} (formerly {old}).",
            "Amendment to my last relay on {s}: the room I passed on was lost, and {v} was taken.",
            "Facilities told me {old} had fallen through and the launch of {s} had gone to {v}.",
            "Asked about the new hall for {s}'s launch, the organisers replied: {v}.",
            "Transfer of {s}'s launch to {v} was agreed after the flooding of the original room.",
            "The chronicle puts the launch of {s} in {v}.",
            "I'm told {s}'s launch has moved house; the name going round is {v}.",
        ),
        (
            "Entered in the log: {v}, {s} launch.",
            "So recorded — {v} hosts the launch of {s}.",
        ),
    ),
    "budget": (
        (
            "Per the treasurer, {s} had been granted {v}.",
            "Minutes, item 5: funding of {s} — {v}, carried unanimously.",
            "Let the record show {v} ring-fenced for {s}.",
            "The finance panel said {s} could spend {v} at most.",
            "An envelope of {v} for {s} was approved at the spring meeting, reportedly.",
            "According to the bursar, the ceiling on {s} stood at {v}.",
        ),
        (
            "Item 5 of the last minutes is amended to read: funding of {s}, {v} (formerly {old}).",
            "Correction to the figure I relayed for {s}: the treasurer has since quoted {v}.",
            "The bursar said the grant of {old} to {s} had been redrawn as {v}.",
            "Asked what {s} could still spend, the finance panel answered {v}.",
            "Resizing of {s}'s envelope to {v} was approved, the first sum having proved wrong.",
            "The ledger shows {v} against {s}.",
            "Word from finance: {s}'s ceiling now stands at {v}.",
        ),
        (
            "Entered in the log: {s} envelope, {v}.",
            "So recorded — {s} allotted {v}.",
        ),
    ),
    "owner": (
        (
            "Per the steering group, {v} was to lead {s}.",
            "Minutes, item 6: lead of {s} — {v}, nominated and seconded.",
            "Let the record show {s} falling to {v}.",
            "The director said {v} would be answerable for {s} from this quarter.",
            "Appointment of {v} as lead of {s} was confirmed, as I understand it.",
            "According to the org notes, {v} had taken the helm of {s}.",
        ),
        (
            "Item 6 of the previous minutes is amended to read: lead of {s}, {v} (formerly {old}).",
            "Correction to the name I relayed for {s}: the director has since put {v} in charge.",
            "The director told us {old} had stepped back from {s} and that {v} would carry it.",
            "Asked who was now answerable for {s}, the chair said {v}.",
            "Handover of {s} to {v} was approved, the previous lead having moved to other duties.",
            "The chronicle names {v} as lead of {s}.",
            "Reportedly {s} is now steered by {v}.",
        ),
        (
            "Entered in the log: {v} heads {s}.",
            "So recorded — {v} answers for {s}.",
        ),
    ),
    "status": (
        (
            "Per the last progress review, {s} was {v}.",
            "Minutes, item 7: state of {s} — {v}.",
            "Let the record show {s} as {v}.",
            "The project office said {s} was {v} when the report went out.",
            "{s} was called {v} during the portfolio meeting, I'm told.",
            "According to the weekly digest, {s} stood {v}.",
        ),
        (
            "Item 7 of last week's minutes is amended to read: state of {s}, {v} (formerly {old}).",
            "Correction to what I passed on about {s}: the project office now has it {v}.",
            "The reviewers reported that {s}, {old} until then, was now {v}.",
            "Asked how {s} stood, the project office replied that it was {v}.",
            "Reclassification of {s} as {v} was agreed after the audit of its milestones.",
            "The chronicle gives {s} as {v}.",
            "Reportedly {s} has changed standing and is {v} now.",
        ),
        (
            "Entered in the log: {s}, {v}.",
            "So recorded — state of {s}: {v}.",
        ),
    ),
    "office": (
        (
            "Per the staff list, {s} was attached to {v}.",
            "Minutes, item 8: base of {s} — {v}.",
            "Let the record show {s}'s base as {v}.",
            "HR said {s} had been placed in {v}.",
            "{s} was posted to {v}, as I understand it.",
            "According to the directory, {s} keeps a desk in {v}.",
        ),
        (
            "Item 8 of the April minutes is amended to read: base of {s}, {v} (formerly {old}).",
            "Correction to what I relayed about {s}: HR now places them in {v}.",
            "HR told us {s} was out of {old} and now had a desk in {v}.",
            "Asked where {s} was now based, HR answered {v}.",
            "Relocation of {s} to {v} was approved once the lease on the old site ran out.",
            "The directory lists {s} under {v}.",
            "Reportedly {s} has decamped to {v}.",
        ),
        (
            "Entered in the log: {s}, {v} office.",
            "So recorded — {v} is home base for {s}.",
        ),
    ),
    "role": (
        (
            "Per HR, {s} had been hired in as {v}.",
            "Minutes, item 9: post of {s} — {v}.",
            "Let the record show {s} in post as {v}.",
            "The director said {s} would act as {v} within the group.",
            "{s} was engaged, I'm told, to be an {v}.",
            "According to the org notes, {s} held the post of {v}.",
        ),
        (
            "Item 9 of the April minutes is amended to read: post of {s}, {v} (formerly {old}).",
            "Correction to the title I relayed for {s}: HR now gives it as {v}.",
            "The director told us {s} had given up being {old} and become {v}.",
            "Asked what {s} now did, HR replied: {v}.",
            "Regrading of {s} to {v} was approved in the autumn reshuffle.",
            "The org notes give {s} as {v}.",
            "Reportedly {s} took a fresh post; the notice says {v}.",
        ),
        (
            "Entered in the log: {s}, {v}.",
            "So recorded — {s}, post of {v}.",
        ),
    ),
    "diet": (
        (
            "Per my GP, my meals had to be {v}.",
            "Minutes, item 10: the meals I am to have — {v}.",
            "Let the record show my meals as {v}.",
            "The caterers were told that my plate had to be {v}.",
            "The organisers ordered {v} plates for me, as they put it.",
            "According to the offsite form, my plate ought to be {v}.",
        ),
        (
            "Item 10 of the previous minutes is amended to read: the meals I am to have, {v} "
            "(formerly {old}).",
            "Correction to what I relayed about my food: the dietitian now says {v}.",
            "My GP said I was no longer to keep {old} but should go {v}.",
            "Asked what I could now eat, the dietitian answered {v}.",
            "A change of my meals to {v} was advised after the latest tests.",
            "The caterers' sheet gives my meals as {v}.",
            "My doctor reportedly wants me eating {v}.",
        ),
        (
            "Entered in the log: your meals {v}.",
            "So recorded — {v} catering for you.",
        ),
    ),
    "seat": (
        (
            "Per the travel office, I was to be seated in the {v} when flying.",
            "Minutes, item 11: my seating — {v}.",
            "Let the record show my seat as the {v}.",
            "The travel clerk was told that my place had to be in the {v}.",
            "A seat in the {v} was requested for me, the agency said.",
            "According to my travel profile, I belong in the {v}.",
        ),
        (
            "Item 11 of Tuesday's minutes is amended to read: my seating, {v} (formerly {old}).",
            "Correction to what I relayed about my seating: the travel office now books {v}.",
            "The agency said I was no longer to be put in the {old} but in the {v}.",
            "Asked where I would now sit, the travel clerk answered: {v}.",
            "My transfer to the {v} was agreed following the last long-haul trip.",
            "My travel profile gives the {v} as my place.",
            "Reportedly the agency has switched me to the {v}.",
        ),
        (
            "Entered in the log: the {v} whenever you fly.",
            "So recorded — your place is the {v}.",
        ),
    ),
    "contact": (
        (
            "Per the admin team, I was to be reached through {v}.",
            "Minutes, item 12: my channel of choice — {v}.",
            "Let the record show {v} as my line.",
            "The office was told that messages for me belonged on {v}.",
            "Use of {v} for urgent word to me was agreed, as the secretary put it.",
            "According to my contact card, I pick things up on {v}.",
        ),
        (
            "Item 12 of the last minutes is amended to read: my channel of choice, {v} (formerly {old}).",
            "Correction to what I relayed about reaching me: the admin team now gives {v}.",
            "The secretary said {old} was no longer watched and that {v} was the one to use.",
            "Asked how I could now be reached, the admin team answered: {v}.",
            "Retirement of my old channel was approved, with {v} to take its place.",
            "My contact card gives {v}.",
            "Reportedly I've switched my messages to {v}.",
        ),
        (
            "Entered in the log: messages to you via {v}.",
            "So recorded — {v} is your line.",
        ),
    ),
    "meetings": (
        (
            "Per my manager, I was to be booked {v}.",
            "Minutes, item 13: my call hours — {v}.",
            "Let the record show that I can sit in on calls {v}.",
            "The schedulers were told that my calls had to fall {v}.",
            "Sessions involving me {v} were agreed, as the planner put it.",
            "According to my diary rules, calls go {v}.",
        ),
        (
            "Item 13 of the previous minutes is amended to read: my call hours, {v} (formerly {old}).",
            "Correction to what I relayed about my hours: my manager now says {v}.",
            "The planner said I could no longer do {old} and would be free {v}.",
            "Asked when I could now take calls, my manager answered: {v}.",
            "A shift of my calls to {v} was agreed when the rota changed.",
            "My diary rules give {v} for calls.",
            "Reportedly I now only join calls {v}.",
        ),
        (
            "Entered in the log: calls with you {v}.",
            "So recorded — meetings with you {v}.",
        ),
    ),
    "reports": (
        (
            "Per my manager, progress was meant to come my way as {v}.",
            "Minutes, item 14: reporting to me — {v}.",
            "Let the record show that I take progress as {v}.",
            "The team leads were told that my updates were to arrive as {v}.",
            "Reporting to me by {v} was agreed, as the secretary put it.",
            "The team charter lists {v} as my update format.",
        ),
        (
            "Item 14 of the last minutes is amended to read: reporting to me, {v} (formerly {old}).",
            "Correction to what I relayed about my updates: my manager now asks for {v}.",
            "The team leads heard that {old} was dropped and that I wanted {v}.",
            "Asked how progress should now reach me, the secretary answered: {v}.",
            "A switch of my updates to {v} was agreed following the latest retrospective.",
            "The team charter gives {v} as my format.",
            "Reportedly I'll only read {v} henceforward.",
        ),
        (
            "Entered in the log: updates to you as {v}.",
            "So recorded — progress to you by {v}.",
        ),
    ),
}

WEEKDAYS: Final = ("Wednesday", "Sunday", "Tuesday", "Saturday")
CHANNELS: Final = ("Briar", "Jami", "Delta Chat")

DISTRACTORS: Final = (
    ("question", "Had anyone heard whether {p} still kept {day}? The minutes are silent."),
    ("question", "Was a figure for {p} ever minuted? I can't find one."),
    ("question", "Did the organisers say which room the {p} launch would use?"),
    ("question", "Is it known if {n} has left {city}?"),
    ("question", "Who was it the chair named to lead {p} — does anyone recall?"),
    ("hypothetical", "The chair wondered aloud whether {p} might go on {day} instead; nothing was decided."),
    ("hypothetical", "It was floated that {money} more would let {p} take on a second writer."),
    ("hypothetical", "Someone mused that {n} might like {city}; just talk."),
    ("rumour", "Overheard in the corridor: {p} could slide to {day}. Unconfirmed."),
    ("rumour", "The grapevine has {n} heading for {city}; no one will put it in the minutes."),
    ("denial", "The chair denied that {p} would shift onto {day}; no such draft had ever been tabled."),
    ("denial", "HR said flatly that {n} was remaining where they were, not off to {city}."),
    ("denial", "The organisers said {venue} had never been in the running for {p}."),
    ("third_party", "My godmother has gone {diet}, she tells me."),
    ("third_party", "The visiting panel asked for the {seat} on their way home."),
    ("third_party", "Our printer's rep will only reply over {channel}, apparently."),
    ("collision", "The {p} recital at the conservatory was reported a success."),
    ("collision", "The {city} choir is touring next month."),
    ("collision", "The refectory served {diet} bread on {weekday}."),
    ("collision", "{weekday} was kept free for the first-aid course."),
    ("outdated", "An old agenda still carries {p} against {day}; that agenda was withdrawn."),
    ("outdated", "The archived org notes still had {n} over {p}; they predate the reshuffle."),
)

QUERIES: Final = (
    (
        "The organisers want me to arrange a lunch for when {p} opens on {day}: the room, and my meals?",
        ("launch_day", "venue", "diet"),
    ),
    ("Could you sort out my flights for the opening of {p}?", ("launch_day", "seat", "venue")),
    ("Whom should I approach about {p} funds, and how deep is the pot?", ("owner", "budget")),
    (
        "Send whoever leads {p} its current standing, in the form I take my updates.",
        ("status", "owner", "reports"),
    ),
    ("Find a slot for me with the lead of {p} when I'm free.", ("owner", "meetings")),
)

PREFIXES: Final = ("For the chronicle: ", "From the minutes — ", "Passing this on: ", "Item for the log: ")
SUFFIXES: Final = (" (as relayed to me)", " — so I was told.", " Source: the secretary.", " (second-hand)")
WRAP_RATE: Final = 0.35
"""Share of user statements wrapped in chronicle filler."""
LOWER_RATE: Final = 0.12
"""Share of user statements typed in lower case without the final full stop."""
