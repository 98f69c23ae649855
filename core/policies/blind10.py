"""The ``blind10`` wording: an eleventh set of phrasings and vocabularies, frozen before its first run.

``blind9`` is held out and not yet run; this is a further held-out set, in a register none of the
earlier sets uses. It was written by a helper who read ``generator.py`` and ``blind9`` in full, the
first three lines of ``blind2`` … ``blind8``, the generator's section and the datasets table of
docs/policies.md, the README's lines that name the wordings, the tests of ``blind9`` and the
wording-registering parts of the bench script, the CLI and tests/core/test_policies_benchmark.py.
A throwaway script checked that its names, cities and values are in none of the earlier sets nor
in ``generator.py``, and listed the four-word runs its phrases share with the earlier sets'
templates, distractors, queries and filler (by loading their data, not by reading their text);
the phrases that came close to an earlier one were rewritten until only common runs were left
("has been revised to {v}", "if you need me"). The helper did not open any policy module nor the
sections of docs/policies.md that describe how the recommended policy works, and ran no policy and
no bench_policies on it: it was committed with tests pinning its digest and the digest of its
10,000-turn seed-7 session before any policy's first run on it. Only the generator was run, with
a test that checks the answer key against the messages (10,000 turns, seed 7: 170 facts, 244
updates, 9 checkpoints).

The wording procedure was fixed first:

* one register throughout, for the user and for the assistant, combining two of the suggested
  ones: heavy coreference — the subject is introduced in one sentence or clause and its value given
  in another through a pronoun or a definite description ("Had a word with {s}'s team this
  morning. They reckon it goes live on {v}.", "the same", "that one", "the former" / "the latter"
  beside a second, unrelated referent such as "the canteen refit" or "the lift upgrade") — in
  Commonwealth English as written in India, Nigeria, Australia and Britain ("preponed", "do the
  needful", "kitty", "sanction", "shifted base", "in the arvo", "after tiffin", "reckon", "the
  do", "no wahala"), with dates day-first and numeric ("17/03", "22.05") and amounts in rupees
  (lakh, crore), naira, pounds and Australian and New Zealand dollars;
* every kind of fact gets five first statements and six updates; the updates vary: two name the
  old value, three only imply it ("the date we'd pencilled for {s} won't hold", "of the lift
  upgrade and {s}, the latter has changed", "the seat I asked for"), and the last of them is worded
  exactly like a first statement, with no word of change; every kind gets two acknowledgements,
  which refer back the same way ("Right, so that one goes live {v}; jotted down for {s}.");
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler;
  the weekday names aside), and so, for the first time, are the system prompt, the user's chatter,
  the episodes and tasks and the assistant's chatter, hedges, answers and task replies
  (:data:`SHARED`, which the earlier sets take from the generator); some statements are wrapped in
  filler or come out in lower case, as in ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Wattle", "Banyan", "Neem", "Jacaranda", "Kookaburra", "Baobab", "Gulmohar", "Peepal", "Bilby",
    "Galah", "Dingo", "Iroko", "Obeche", "Ackee", "Kola", "Harmattan", "Monsoon", "Koel", "Bulbul",
    "Myna", "Mulga", "Numbat", "Gidgee", "Kurrajong",
)
PEOPLE: Final = (
    "Yetunde", "Babajide", "Lakshmi", "Venkatesh", "Anirudh", "Pooja", "Harpreet", "Declan",
    "Lachlan", "Kylie", "Nneka", "Meenakshi", "Sridhar", "Rhys", "Aoife", "Folasade", "Gurinder",
    "Callum", "Ikechukwu", "Olumide", "Temitope", "Bhavesh", "Hamish", "Deepika",
)
CITIES: Final = (
    "Nagpur", "Ibadan", "Ballarat", "Coimbatore", "Enugu", "Wollongong", "Mysuru", "Port Harcourt",
    "Leicester", "Townsville", "Abeokuta", "Chandigarh",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "the {n} programme", "the {n} job")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": ("17/03", "4/12", "29/06", "11/09", "22.05", "31/01", "8/10", "13.02"),
    "venue": (
        "the gymkhana lawns", "the RSL function room", "the shamiana on the back lawn",
        "the church hall annexe", "the old cricket pavilion", "the surf club deck",
        "the banquet hall at the club",
    ),
    "budget": ("₹18 lakh", "₹2.4 crore", "₦36 million", "A$74,500", "NZ$52,000", "£43,500", "₹65 lakh"),
    "owner": PEOPLE,
    "status": (
        "in UAT", "stuck at procurement", "on the back burner", "ticking along",
        "pending the board's nod", "in the soup", "signed off and done", "pear-shaped",
    ),
    "office": CITIES,
    "role": (
        "programme coordinator", "site engineer", "finance controller", "delivery head",
        "chartered accountant", "company secretary", "solutions architect", "principal consultant",
    ),
    "diet": ("Jain", "eggetarian", "sattvic", "shellfish-free", "no-beef", "macrobiotic", "low-salt"),
    "seat": ("a seat over the wing", "the last-but-one row", "the first row behind business",
             "the row nearest the loo"),
    "contact": (
        "Zoho Cliq", "my desk extension", "my home landline", "Jabber", "Hangouts",
        "the office BlackBerry",
    ),
    "meetings": (
        "after tiffin", "before the school run", "in the arvo", "between 11 and 1 IST",
        "over elevenses", "post-lunch", "before the 9:15 train",
    ),
    "reports": (
        "three slides", "a Gantt printout", "a RAG spreadsheet", "a two-para précis", "a marked-up PDF",
        "a whiteboard photo", "a podcast-style recording",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "Had a word with {s}'s team this morning. They reckon it goes live on {v}.",
            "About {s}: the go-live for the same is fixed for {v}.",
            "{s} and the canteen refit were both on the agenda; the former launches {v}.",
            "You know {s}? That one's launching {v}.",
            "Regarding {s}, kindly note the same launches on {v}.",
        ),
        (
            "The date we'd pencilled for {s} won't hold. It's been preponed to {v}.",
            "Remember {s} was meant for {old}? That's off; they've pushed it to {v}.",
            "Between the canteen refit and {s}, only the latter moved: {v} now, and {old} is off.",
            "Spoke to {s}'s team again. They've shifted it to {v}, so scrap what I told you before.",
            "{s}'s launch, the same has been revised to {v}.",
            "Sat with {s}'s lead over chai, and she says it goes live on {v}.",
        ),
        (
            "Right, so that one goes live {v}; jotted down for {s}.",
            "Understood: {s}, and the go-live for it is {v}.",
        ),
    ),
    "venue": (
        (
            "Booked a place for {s}'s launch. It's {v}, and they've confirmed in writing.",
            "For {s}, the do will be at {v}; the same has been blocked for the whole evening.",
            "{s} needed somewhere for its launch, and we've found it: {v}.",
            "Went round to see {v} for {s}. Lovely spot, so that's where the launch party goes.",
            "As for {s}'s launch do, we'll hold it at {v}.",
        ),
        (
            "The place I mentioned for {s}'s do fell through, so we've taken {v} instead.",
            "{old} couldn't have us for {s} after all; the launch moves across to {v}.",
            "About {s}'s launch: it was at {old}, but the same has been shifted to {v}.",
            "Scrap the hall for {s}. The new one is {v}, which is bigger anyway.",
            "{s} and the awards night were clashing, so the former's launch now happens at {v}.",
            "As regards {s}, its launch do is at {v}.",
        ),
        (
            "Got it, the do for {s} is at {v}; I'll keep the same in mind.",
            "Right, {v} for that one, then. That's where {s} launches.",
        ),
    ),
    "budget": (
        (
            "Finance sat down with {s} yesterday. They've given it {v} for the year.",
            "{s} has got sanction for {v}; the same is final as per accounts.",
            "Re {s}: its kitty is {v}, no more.",
            "The board looked at {s} and the fleet renewal; the former gets {v}.",
            "{s}? That one's been allotted {v}.",
        ),
        (
            "{s}'s kitty isn't {old} any more; accounts have made it {v}.",
            "The figure I gave you for {s} was wrong. It's {v} now.",
            "Of the fleet renewal and {s}, only the latter's money changed: it's {v}.",
            "Accounts came back about {s}. They've revised the same to {v}, replacing {old}.",
            "Good news on {s}: accounts found more, and its sanction now stands at {v}.",
            "{s} has got {v} sanctioned, as per accounts.",
        ),
        (
            "Okay, so that one has {v}. Noted against {s}.",
            "Understood: {s}, and its kitty is {v}.",
        ),
    ),
    "owner": (
        (
            "Talked to {v} about {s}. They're the one running it.",
            "{s} is under {v}; any queries, route them to the same.",
            "{v} and I went through {s}. It's theirs, start to finish.",
            "Who's on {s}? {v} is; they own it.",
            "For {s}, the person in charge is {v}. Ping them for anything.",
        ),
        (
            "{old} has let go of {s}. {v} carries it now, so speak to them.",
            "The person I said was running {s} has moved on; it's {v}'s baby now.",
            "{s}: it was with {old}, but the same is with {v} henceforth.",
            "Caught {v} in the corridor. Turns out they've taken over {s}.",
            "{s} has changed hands. The new owner? {v}.",
            "Talked to {v} about {s}; they're the one in charge of it.",
        ),
        (
            "Right, so {v} runs that one; jotted down for {s}.",
            "Understood: {s}, and the person on it is {v}.",
        ),
    ),
    "status": (
        (
            "Checked in on {s}. It's {v}, last I heard.",
            "{s}: the same is {v}, going by this week's review.",
            "Asked after {s} and the lift upgrade; the former is {v}.",
            "How's {s} going? It's {v}, honestly.",
            "Regarding {s}, its status is {v}.",
        ),
        (
            "Forget '{old}' for {s}; it's {v}.",
            "What I told you about {s}'s progress is out of date. It's {v} now.",
            "Of the lift upgrade and {s}, the latter has changed: {v}, would you believe.",
            "{s} was {old}, but the same is now {v}.",
            "Rang {s}'s lead. Says it's {v} these days.",
            "Looked in on {s}. It's {v}, as far as I know.",
        ),
        (
            "Okay, that one's {v}; jotted down for {s}.",
            "Understood: {s}, and it's {v}.",
        ),
    ),
    "office": (
        (
            "Had a chat with {s}. They're out of {v}, it turns out.",
            "{s} holds a desk in {v}; the same goes for most of their team.",
            "{s} and their manager are in different places; the former sits in {v}.",
            "Where's {s}? In {v}, at the regional office.",
            "{s} is posted at {v}, as per the HR sheet.",
        ),
        (
            "{s} has shifted base from {old} to {v}.",
            "Remember where I said {s} sat? Not any more: they've moved to {v}.",
            "{s} was in {old}; the same person has now relocated to {v}.",
            "Bumped into {s} on a call. They've gone and moved to {v}.",
            "{s} and their manager swapped offices, so the former is now in {v}.",
            "Had a word with {s}; they work out of {v}.",
        ),
        (
            "Right, so they're in {v}; jotted down for {s}.",
            "Understood: {s}, and the office for them is {v}.",
        ),
    ),
    "role": (
        (
            "Met {s} properly today. They're the {v}, it turns out.",
            "{s} joined last year; the same is our {v}.",
            "You'll like {s}. They work as our {v}.",
            "{s}? That's our {v}.",
            "{s} and their deputy came to the review; the former is the {v}.",
        ),
        (
            "{s} isn't {old} any longer; they've been made {v}.",
            "Ignore what I told you about {s}'s post. They're {v} now.",
            "{s} was {old}; the same has been elevated to {v}.",
            "Got the circular about {s}. They've taken up the {v} post.",
            "{s} and their deputy have swapped, so the former is now {v}.",
            "Met {s} today; they're our {v}.",
        ),
        (
            "Right, so they're the {v}; jotted down for {s}.",
            "Understood: {s}, and the job is {v}.",
        ),
    ),
    "diet": (
        (
            "One thing about food for me: it has to be {v}. Please remember the same.",
            "Tell the caterers I'm {v}; that applies to every offsite.",
            "My meals? They're {v}, strictly.",
            "About lunches, mine should be {v}, that's all.",
            "I eat {v}. It's been that way for years.",
        ),
        (
            "I'm no longer {old}; make it {v} from now.",
            "What I told you about my food has changed. It's {v} these days.",
            "Doctor's had a look at me, and the same diet won't do. Make it {v}.",
            "Was {old}, but now I'm {v}; kindly update the same.",
            "My meals, the ones you book for me: {v} henceforth.",
            "Tell whoever caters that my plate is {v}.",
        ),
        (
            "Right, so yours will be {v}. I'll keep the same in mind.",
            "Understood: food for you is {v}.",
        ),
    ),
    "seat": (
        (
            "On a flight I head for {v}. The same for return legs.",
            "My seat on planes? It's always {v}.",
            "For flights, my place is {v}; that's how I like it.",
            "Tell the travel desk: {v} for me.",
            "On aeroplanes I go for {v}, every time.",
        ),
        (
            "{old} won't do any more; book {v} instead.",
            "The seat I asked for on flights, change it to {v}.",
            "I used to take {old}; these days make it {v}, please.",
            "Knee's playing up, so that seat won't work. Put me in {v}.",
            "For flights, the same applies as before, except the seat: {v}.",
            "When I fly, I want {v}.",
        ),
        (
            "Right, so that's {v} for you when you fly.",
            "Understood: on planes, yours is {v}.",
        ),
    ),
    "contact": (
        (
            "If you need me, it's {v}. I check the same all day.",
            "Best to catch me on {v}; I'm always on it.",
            "Drop me a line on {v}, that's where I am.",
            "My go-to for messages? {v}.",
            "Anything urgent, use {v}. It's the quickest.",
        ),
        (
            "I'm done with {old}; give {v} a go instead.",
            "The channel I told you about, I'm off it. Use {v}.",
            "It was {old} before, but now it's {v}; the same for urgent stuff.",
            "Gave up on that app, so message me on {v} from here.",
            "For reaching me, the same rule with one change: {v}.",
            "If you need me, drop me a line on {v}.",
        ),
        (
            "Right, so that's {v} for reaching you.",
            "Understood: I'll use {v}, and the same for anything urgent.",
        ),
    ),
    "meetings": (
        (
            "My calendar has one rule: calls {v}. Stick to the same.",
            "Slot my meetings {v}; that's when I'm free.",
            "I do calls {v}, and that's it.",
            "When am I free to meet? Mostly {v}.",
            "Meetings for me happen {v}.",
        ),
        (
            "Can't manage {old} any more; keep my calls {v}.",
            "That meeting slot I gave you is gone. Make it {v}.",
            "It was {old}, but my calls are now {v}.",
            "New timetable at home, so the same slot won't work. Meetings {v}, please.",
            "My calendar rule has changed: calls {v}.",
            "Book my calls {v}; that's when I'm around.",
        ),
        (
            "Right, so you're free {v} for calls.",
            "Understood: I'll keep the same, meetings {v}.",
        ),
    ),
    "reports": (
        (
            "Progress reports for me: {v}. Please do the needful.",
            "Send my updates as {v}; I read the same on the train.",
            "Status reports, the ones you send me: I like them as {v}.",
            "What shape should my reports take? Always {v}.",
            "For reporting, {v} suits me best.",
        ),
        (
            "Enough of {old}; my reports are to be {v}.",
            "That report format I asked for isn't working. Switch to {v}.",
            "It was {old} before; the same should now be {v}.",
            "Boss wants things differently, so my updates should come as {v}.",
            "Reports from here: {v}, please.",
            "Progress notes to me should be {v}, please.",
        ),
        (
            "Right, so yours come as {v}.",
            "Understood: I'll write yours up as {v}, and the same every week.",
        ),
    ),
}

WEEKDAYS: Final = ("Thursday", "Monday", "Friday", "Saturday")
CHANNELS: Final = ("Zoho Cliq", "Jabber", "Hangouts")

DISTRACTORS: Final = (
    ("question", "Did {p} ever get a date? I thought it was {day}, but I'm not sure about the same."),
    ("question", "Is {n} based in {city} these days? I've lost the thread on that one."),
    ("question", "What was {p}'s kitty again? Someone asked me and I blanked on it."),
    ("question", "Where's the do for {p}? Was it {venue}?"),
    ("question", "Who's looking after {p}? I've lost track of it."),
    ("hypothetical", "What if {p} went on {day}, would the same team cope? Just thinking aloud."),
    ("hypothetical", "Suppose {p} got {money}; it could take on two more freshers. Only a thought."),
    ("hypothetical", "Say {n} moved to {city}; would they like it? Idle question."),
    ("rumour", "Heard on the grapevine that {p} might be preponed to {day}. Nobody's confirmed the same."),
    ("rumour", "Someone reckons {n} is off to {city}, but I wouldn't bank on it."),
    ("denial", "No, {p} isn't shifting to {day}; whoever said that got it wrong."),
    ("denial", "{venue} was never on the cards for {p}, despite what the circular implied."),
    ("denial", "{n} moving to {city}? Rubbish; the same was never on."),
    ("third_party", "My cousin's gone {diet}; the whole family's cooking around it."),
    ("third_party", "{n}'s flatmate always books {seat}, apparently."),
    ("third_party", "My landlord will only answer on {channel}, mad as it is."),
    ("collision", "The {p} cricket eleven won on {weekday}."),
    ("collision", "There's a {city} food festival in the park this weekend."),
    ("collision", "The canteen's {diet} thali was sold out by noon."),
    ("collision", "{weekday} is when the cleaners come; don't leave stuff on desks."),
    ("collision", "Saw a documentary called {p}; nothing to do with ours."),
    ("outdated", "Found a mail from last year putting {p} on {day}; that one's long dead."),
    ("outdated", "The old org chart still shows {n} on {p}; the same is years out of date."),
)

QUERIES: Final = (
    (
        "Could you sort a lunch for {p}'s launch on {day}? Need the venue and my food, please.",
        ("launch_day", "venue", "diet"),
    ),
    ("Book my flights for {p}'s launch, kindly.", ("launch_day", "seat", "venue")),
    ("Whom do I chase for {p}'s funds, and what's left in its kitty?", ("owner", "budget")),
    (
        "Let the person running {p} know where it stands, written up my usual way.",
        ("status", "owner", "reports"),
    ),
    ("Fix a call between me and whoever owns {p}, at an hour that suits me.", ("owner", "meetings")),
)

PREFIXES: Final = ("Just to update you: ", "Quick one: ", "Small thing: ", "Before I forget: ")
SUFFIXES: Final = (" Cheers.", " Do the needful.", " No wahala.", " Ta.")
WRAP_RATE: Final = 0.3
"""Share of user statements wrapped in filler."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (
        "You're helping a programme team plan. Keep tabs on the programmes, the people, and what the "
        "person you're talking to likes and doesn't, right through the chat.",
    ),
    (  # user chatter
        "cheers!", "ta", "no worries", "righto", "one tick", "will revert", "ok, noted the same",
        "haha true", "sure thing", "back in a jiffy", "morning all!", "fair enough", "lovely",
        "brilliant", "hang on a tick",
    ),
    (  # episodes ({p}, {n})
        "{p}'s design walkthrough went off without a hitch, touch wood.",
        "Had chai with {n}; they were in good form.",
        "Whole forenoon gone on {p}'s build. The blessed thing finally works.",
        "Showed {p} to the client; it hung once, then came right.",
        "Ran into {n} by the lifts, and we yarned about {p} for a bit.",
        "Cleared my inbox this morning; it took ages.",
        "{p}'s retro dragged on, but it was worth it.",
        "Sat with {n} over {p}'s data move; took most of the arvo.",
    ),
    (  # tasks ({p}, {n})
        "Kindly clean up my jottings from the {p} catch-up.",
        "Write back to {n} on {p}'s dates, something short.",
        "Put together the open points on {p}.",
        "List what's pending before {p} goes live.",
    ),
    ("No worries!", "Any time.", "Sure thing.", "Righto.", "No rush at all.", "Lovely to hear."),
    (  # hedges
        "Okay, I'll treat the same as unconfirmed.",
        "Right, I won't act on that one.",
        "Let me know if it firms up.",
    ),
    (  # answers ({p})
        "Let me look up what I have on {p}.",
        "One tick, pulling up {p}.",
        "Here's where {p} stands in my notes.",
    ),
    ("All sorted; draft below.", "There you go.", "I've put the same together below."),
)
"""The system prompt, user chatter, episodes, tasks and the assistant's chatter, hedges, answers and
task replies (the generator's ``SHARED``, reworded)."""
