"""The ``blind13`` wording: a fourteenth set of phrasings and vocabularies, frozen before its first run.

``blind12`` is held out and has been run by the lead to report; this is a further held-out set, in
a register none of the earlier sets uses. It was written by a helper who read ``generator.py`` and
``blind12`` in full, a grep of the top-level assignments of ``blind9``, ``blind10`` and ``blind11``
and the first twenty lines of ``blind11``, the tests of ``blind12``, tests/core/wording_checks.py,
the wording-registering parts of the bench script, the CLI and
tests/core/test_policies_benchmark.py (the head of its pinned-figure table went past on screen),
and a grep of the lines of the README and docs/policies.md that name ``blind11`` and ``blind12``
(among them the datasets table's rows and some of the figures reported for those two sets, which
went past on screen). A throwaway script checked that its names, cities and values are in none of
the earlier sets nor in ``generator.py``, and listed the four-word runs its phrases share with the
earlier sets' templates, distractors, queries and filler (by loading their data, not by reading
their text); the phrases that shared one were rewritten. The helper did not open any policy module
nor the sections of docs/policies.md that describe how the policies work, and ran no policy and no
bench_policies on it: it was committed with tests pinning its digest and the digest of its
10,000-turn seed-7 session before any policy's first run on it. Only the generator was run, with
tests that check the answer key against the messages (10,000 turns, seed 7: 170 facts, 240 updates,
9 checkpoints).

The wording procedure was fixed first:

* one register throughout, for the user and for the assistant: a question-and-answer intake
  interview at a support desk, in British and Irish English. The assistant asks ("Anything changed
  since last time?", "Anything else I should note down?") and reads answers back for
  confirmation ("Reading that back: {s} launches {v}. Correct?"); the user answers in fragments,
  often repeating the question first ("Where is {s} being held? {v}.", "Seat preference? {v}.")
  or leading with the value ("{v}, finally — that's where {s} is happening."), and confirms
  read-backs with "Yep, that's right." or "Correct.";
* the generator places every statement in a user message and picks the assistant message before
  it from what the user said before, so the question a fragment answers is, where it matters,
  inside the user's own message; for the user's own preferences the fragment is often the value
  alone with a word of the question ("Food-wise? {v}.", "Calls when? {v}.");
* every kind of fact gets five first statements and six updates; the updates vary: two name the
  old value, the way a person corrects an answer ("Sorry, I misspoke earlier — not {old}; …",
  "I said {old} for {s} earlier, didn't I? Sorry — it's {v}.", "{old}? No longer — …"); three
  only imply it, answering "anything changed?" ("Since we last spoke, …", "Correction on my
  food: …", "Actually, …"); the last is worded like a first statement, a question and its answer
  with no word of change; every kind gets two read-backs from the assistant, each ending in a
  question;
* the distractors carry the same voice: questions put back to the assistant ("Quick one back to
  you — {p} is {day} still, or did I dream that?"), what-ifs the user is asked for ("If you're
  asking what I'd do: …"), things said off the record by a caller, denials "for the record", the
  previous caller's or a colleague's needs, keyword collisions and an out-of-date intake form;
* every vocabulary is new (names, cities, values, read-backs, distractors, queries, filler; the
  weekday names aside), and so are the system prompt, the user's chatter, the episodes and tasks
  and the assistant's chatter (its interview questions), hedges, answers and task replies
  (:data:`SHARED`); a quarter of the statements are wrapped in filler ("Hmm, let me see. ", " Over to
  you.") and a tenth come out in lower case without the final full stop.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Barcarolle", "Sonata", "Siciliana", "Bourree", "Chaconne", "Habanera", "Minuet", "Ballad",
    "Galliard", "Scherzo", "Bolero", "Intermezzo", "Mazurka", "Polka", "Tarantella", "Allegro",
    "Adagio", "Largo", "Vivace", "Canon", "Chorale", "Passacaglia", "Serenade", "Rhapsody",
)
PEOPLE: Final = (
    "Bronagh", "Fiachra", "Ailbhe", "Cormac", "Muireann", "Peadar", "Orla", "Padraig", "Roisin",
    "Fionn", "Grainne", "Colm", "Sorcha", "Tadhg", "Maeve", "Tiernan", "Deirdre", "Cathal", "Eimear",
    "Ronan", "Sinead", "Donal", "Clodagh", "Ailish",
)
CITIES: Final = (
    "Carlow", "Mullingar", "Letterkenny", "Castlebar", "Sligo", "Tralee", "Derry", "Wexford", "Athlone",
    "Dundalk", "Ennis", "Waterford",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "case {n}", "the {n} account")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "Tuesday the 3rd of March", "the 9th of April", "Friday week", "the Monday after Easter",
        "the 2nd of June", "Thursday the 14th of July", "the last Wednesday in August",
        "the 19th of October",
    ),
    "venue": (
        "the Grange", "St Brigid's Hall", "the Marine Hotel ballroom", "the Gasworks studio",
        "the old Customs House", "the Linen Hall", "the Kilmainham courtyard",
    ),
    "budget": (
        "€18,500", "€42k", "twenty-six thousand euro", "€7,250", "€110,000", "€63k",
        "fifteen thousand euro",
    ),
    "owner": PEOPLE,
    "status": (
        "waiting on the customer", "with the vendor", "resolved pending sign-off", "escalated to tier two",
        "awaiting parts", "in the triage queue", "closed out",
    ),
    "office": CITIES,
    "role": (
        "intake coordinator", "field technician", "second-line support", "customer care lead",
        "billing specialist", "onboarding trainer", "service desk analyst",
    ),
    "diet": (
        "low-histamine", "allium-free", "low-iodine", "raw-food", "caffeine-free", "citrus-free",
        "tomato-free",
    ),
    "seat": ("the bulkhead row", "over the wing", "near the galley", "the front third", "the rear aisle"),
    "contact": (
        "WeChat", "KakaoTalk", "Ryver", "the desk phone", "the client portal", "voicemail", "a callback",
    ),
    "meetings": (
        "between 11 and 1", "before half nine", "after half three", "over lunch", "Wednesdays only",
        "on the hour, mornings",
    ),
    "reports": (
        "numbered points", "a two-line summary", "an emailed PDF", "a ticket comment", "a weekly digest",
        "a spoken summary on a call",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant read-backs); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "{s}? {v}, if all goes to plan.",
            "You asked when {s} is due — {v}.",
            "Go-live for {s}: {v}, that's confirmed.",
            "To answer your question, {s} is launching {v}.",
            "{v}, for {s}. That's the date we gave the client.",
        ),
        (
            "Sorry, I misspoke earlier — not {old}; {s} lands on {v}.",
            "You have {old} down for {s}? That's gone, it's {v}.",
            "Since last time, yes: {s} got pushed to {v}.",
            "One correction to my earlier answer — {s} is {v}.",
            "Something's shifted, actually: {s} launches {v}.",
            "When's {s} live? {v}.",
        ),
        ("Reading that back: {s} launches {v}. Correct?", "So {v} for {s} — have I got that right?"),
    ),
    "venue": (
        (
            "{v}, finally — that's where {s} is happening.",
            "Where is {s} being held? {v}.",
            "For the venue question on {s}: {v}.",
            "We settled on {v} for {s}.",
            "{s} — venue's {v}, booked and paid.",
        ),
        (
            "Sorry, I misspoke — {old} fell through, so {s} is happening at {v}.",
            "Not {old} any longer; we've taken {v} for {s}.",
            "Since you last asked, {s} has changed venue: {v}.",
            "Correction on {s}'s venue: {v}.",
            "Yes, there's a change — {s} has switched rooms to {v}.",
            "Venue for {s}? {v}, and the deposit's gone in.",
        ),
        ("Just to confirm: {s} at {v}, yes?", "I've got {v} down for {s}. Is that right?"),
    ),
    "budget": (
        (
            "{s}'s budget? {v}, all in.",
            "{v} — that's the ceiling for {s}.",
            "Finance signed off {v} for {s}, to answer your question.",
            "How much has {s} got? {v}.",
            "On {s} we have {v} to spend.",
        ),
        (
            "I said {old} for {s} earlier, didn't I? Sorry — it's {v}.",
            "Not {old}, no — {s} was revised to {v}.",
            "{s}'s figure has moved since last time: {v}.",
            "Correction on {s}'s figure: {v}, I'm told.",
            "Actually, finance rang about {s} — {v} now.",
            "Spend on {s}? {v}.",
        ),
        ("That's {v} for {s}, then — correct?", "Noting {v} as what {s} can spend — is that right?"),
    ),
    "owner": (
        (
            "Who's looking after {s}? {v}.",
            "{v}, for {s} — they're your contact.",
            "You'd want {v} for anything on {s}.",
            "To your question about {s}'s owner: {v}.",
            "{v} is the name against {s}.",
        ),
        (
            "Not {old} these days — {v} has taken {s}.",
            "Sorry, {old} was the old answer; {v} has {s} now.",
            "Since we last spoke, {s} has gone to {v}.",
            "Correction: {v} holds {s}, as of this week.",
            "Something changed there, actually — {v} took over {s}.",
            "Owner of {s}? {v}.",
        ),
        ("Right, {v} for {s}. Is that correct?", "So {s} is {v}'s — have I got that?"),
    ),
    "status": (
        (
            "Where's {s} at? {v}.",
            "{s} is {v}, to answer you.",
            "State of play on {s}: {v}, last I checked.",
            "{v} — that's {s} at the moment.",
            "As for {s}, {v}.",
        ),
        (
            "It used to be {old}; {s}'s now {v}.",
            "Not {old} these days — {s}: {v}.",
            "Since last time, {s} moved on — it's {v}.",
            "One thing's different: {s} is {v}.",
            "Actually, {s} changed this morning — {v}.",
            "How's {s} looking? {v}.",
        ),
        ("Okay — {s}, {v}. Correct?", "Logging {s} as {v}; is that right?"),
    ),
    "office": (
        (
            "Where's {s} based? {v}.",
            "{s}? Out of {v}.",
            "{s} is with the {v} team, to answer your question.",
            "{v} — that's where {s} works from.",
            "You'll reach {s} at the {v} office.",
        ),
        (
            "{old}? No longer — {s} transferred to {v}.",
            "I told you {old} for {s}, but that's out of date: {v}.",
            "Since we last spoke, {s} has been posted to {v}.",
            "Correction about {s}: {v} now.",
            "Something's changed with {s}, actually — {v}.",
            "Which office is {s} in? {v}.",
        ),
        ("{s} in {v} — have I got that right?", "{s}, {v} office, then — yes?"),
    ),
    "role": (
        (
            "What does {s} do? {v}.",
            "{s}'s our {v}, to answer your question.",
            "{v} — that's {s}'s job.",
            "{s} came in as {v}.",
            "For {s}? {v}, going by the staff directory.",
        ),
        (
            "Was {old}, yes, but {s}'s {v} these days.",
            "{old} isn't right for {s} any more — {v}.",
            "Since last time, {s} has moved into {v}.",
            "Sorry, I had that wrong — {s} is {v}.",
            "Actually, {s} changed jobs: {v}.",
            "{s}'s title? {v}.",
        ),
        ("And {s} is {v} — correct?", "Noted {s} as {v}. Is that right?"),
    ),
    "diet": (
        (
            "Dietary needs? {v}, please.",
            "{v}, for catering.",
            "For me? {v} at any work meal.",
            "To your food question — {v}.",
            "Mark my meals {v}.",
        ),
        (
            "I said {old} before; it's {v} now, sorry.",
            "Not {old} any longer — {v}.",
            "Since last time, I've had to go {v}.",
            "Correction on my food: {v}.",
            "Actually, that's changed — {v} for me.",
            "Food-wise? {v}.",
        ),
        ("So you'd like {v} food — right?", "I'll note {v} for you; is that correct?"),
    ),
    "seat": (
        (
            "Seat preference? {v}.",
            "{v}, if you're booking me a flight.",
            "On flights, {v} — that's my answer.",
            "For seats, {v}, every time.",
            "To your seating question: {v}.",
        ),
        (
            "Not {old} now; I'd like {v}.",
            "I said {old}, didn't I? Make it {v}.",
            "Since my last trip, I'd rather have {v}.",
            "Correction for flights: {v}.",
            "Actually, I've gone off that — {v}, please.",
            "Seating? {v}.",
        ),
        ("{v} on flights — have I got that?", "So I'll book {v}; correct?"),
    ),
    "contact": (
        (
            "How to reach me? {v}.",
            "{v}, for anything pressing.",
            "To your question about contact — {v}.",
            "{v} — I'll spot it quickest there.",
            "Contact me through {v}, please.",
        ),
        (
            "Not {old} now — {v}, please.",
            "{old} is no good any more; use {v}.",
            "Since last time, it's {v} for me.",
            "Correction on contact: {v}.",
            "Actually, that's different now — {v}.",
            "Reach me how? {v}.",
        ),
        ("You're reachable on {v} — correct?", "So I contact you via {v}; is that right?"),
    ),
    "meetings": (
        (
            "When suits for calls? {v}.",
            "{v}, for meetings.",
            "Meetings {v}, to answer you.",
            "To your scheduling question: {v}.",
            "I'm free for calls {v}.",
        ),
        (
            "Not {old} now; {v} suits better.",
            "{old} stopped working for me — {v}.",
            "Since last time, my calls have moved to {v}.",
            "Correction on scheduling: {v}.",
            "Actually, my diary's changed — {v}.",
            "Calls when? {v}.",
        ),
        ("Meetings {v} — correct?", "So I book you {v}; have I got that right?"),
    ),
    "reports": (
        (
            "Reporting, you asked? {v}.",
            "{v}, for status reports.",
            "Status for me: {v}, ideally.",
            "To your reporting question — {v}.",
            "I read {v} best.",
        ),
        (
            "No more {old} — {v}.",
            "{old} was too much; {v} from here.",
            "Since last time, I'd prefer {v}.",
            "Correction on reports: {v}.",
            "Actually, that's changed — {v} for reports.",
            "Report format? {v}.",
        ),
        ("Reports as {v} — right?", "Reports for you as {v}; correct?"),
    ),
}

WEEKDAYS: Final = ("Tuesday", "Friday", "Wednesday", "Thursday")
CHANNELS: Final = ("WeChat", "KakaoTalk", "Ryver")

DISTRACTORS: Final = (
    ("question", "Quick one back to you — {p} is {day} still, or did I dream that?"),
    ("question", "Can you remind me who's got {p}?"),
    ("question", "What did I tell you the {p} budget was — {money}?"),
    ("question", "Do you know if {n}'s still based in {city}?"),
    ("question", "Did we end up with {venue}? Or was it only pencilled in?"),
    ("hypothetical", "If you're asking what I'd do: shift {p} to {day}. But nobody's asked me."),
    ("hypothetical", "Say {p} were given {money} — what would that change? Purely a what-if."),
    ("hypothetical", "Would {n} take {city}, if it were offered? No idea."),
    ("hypothetical", "Hypothetically, {venue} for {p}. Not happening, but nice to think about."),
    ("rumour", "Off the record, a caller said {p} might go {day}. Unconfirmed."),
    ("rumour", "I've heard {n} could land in {city}; take it with a pinch of salt."),
    ("denial", "For the record, {p} won't be shifting to {day}, whatever the last caller said."),
    ("denial", "No, {venue} was never ours. That was someone else's ticket."),
    ("denial", "{n} has no plans for {city}. I asked them directly."),
    ("third_party", "The previous caller was {diet}, if that's where the confusion came from."),
    ("third_party", "My colleague always wants {seat}; that's her, not me."),
    ("third_party", "Our supplier insists on {channel}, which drives me mad."),
    ("collision", "The {p} hotel near the office has a new lobby."),
    ("collision", "Traffic out of {city} was dreadful this morning."),
    ("collision", "The canteen had {diet} scones today and they were gone by ten."),
    ("collision", "Bin collection moved to {weekday} on our street."),
    ("collision", "My {channel} app wants yet another restart."),
    ("outdated", "The old intake form has {p} down for {day}; that form's out of date."),
    ("outdated", "An earlier ticket lists {n} as owning {p} — that's from before the reshuffle."),
    ("outdated", "{money} was the {p} number on last year's form, not this one."),
)

QUERIES: Final = (
    (
        "Could you arrange lunch for the {p} go-live on {day}? Where, and food I'm able to eat.",
        ("launch_day", "venue", "diet"),
    ),
    ("Please book my travel for the {p} go-live — seat as usual.", ("launch_day", "seat", "venue")),
    ("Whose desk is {p}'s money on, and what's left of it?", ("owner", "budget")),
    ("Write up where {p} stands for whoever owns it, formatted my way.", ("status", "owner", "reports")),
    ("Book me a call with {p}'s owner, when my diary allows.", ("owner", "meetings")),
)

PREFIXES: Final = ("Let me think. ", "Okay. ", "Hmm, let me see. ", "Right. ")
SUFFIXES: Final = (" Over to you.", " Next?", " That's that one.", " Anything else?")
WRAP_RATE: Final = 0.25
"""Share of user statements wrapped in filler."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (
        "You are a support-desk assistant running an intake interview. Ask short questions, read the "
        "answers back to confirm them, and keep every project, person and personal preference on file "
        "up to date as the answers change.",
    ),
    (  # user chatter
        "Yep, that's right.", "Correct.", "Yes, spot on.", "That's it, yes.", "No, nothing else for now.",
        "Hang on a second.", "Sorry, say again?", "Good question — let me check.", "Mm-hm.", "Right.",
        "Not that I know of.", "That's all I've got.", "Go on.", "Next question?", "Fair enough.",
    ),
    (  # episodes ({p}, {n})
        "I was on hold to the {p} vendor for twenty minutes this morning.",
        "{n} sat in on the {p} call and barely said a word.",
        "The {p} walkthrough overran, but the client seemed happy.",
        "Had a coffee with {n}; we mostly moaned about {p}.",
        "The printer jammed halfway through the {p} pack.",
        "Took three calls back to back before lunch.",
        "{n} and I worked the {p} tickets one by one.",
        "The {p} demo room had no working projector, again.",
    ),
    (  # tasks ({p}, {n})
        "Could you write up my answers on {p} as a short note?",
        "Please draft something for {n} about where {p} stands.",
        "What questions are still open on {p}?",
        "Can you tell me what you still need from me on {p}?",
    ),
    (  # the assistant's chatter: its interview questions
        "Anything changed since last time?", "Anything else I should note down?",
        "Thanks. Next question, then?", "Is there anything I've missed?",
        "Take your time — I'm still here.", "Good. Shall we carry on?",
    ),
    (  # hedges
        "I'll leave the file as it is until that's confirmed.",
        "Understood — I won't record that as a decision.",
        "I'll note it as unconfirmed and ask again later.",
    ),
    (  # answers ({p})
        "Let me look at the {p} file — one moment.",
        "Pulling up what's on record for {p}.",
        "This is what's down for {p}; tell me if anything's off.",
    ),
    (
        "Done — have a look and tell me if it's right.", "Here's a first go.",
        "Written up below; anything to add?",
    ),
)
"""The system prompt, user chatter, episodes, tasks and the assistant's chatter, hedges, answers and
task replies (the generator's ``SHARED``, reworded)."""
