"""The ``blind4`` wording: a fifth set of phrasings and vocabularies, frozen before its first run.

``blind2`` was seen while the recommended policy was built (docs/policies.md), so it is a
development set. This set was written after the supersession tracker was rebuilt on learnt
paradigms, by its author, who had therefore seen ``standard``, ``heldout`` and ``blind2`` — and
committed before the policy was ever run on it. The wording procedure was fixed first:

* every kind of fact gets four first statements and five updates, spread over four registers —
  a syntactic paraphrase (passive, cleft, fronting), an idiom, English as speakers of other
  languages write it (calques: "since March he is sitting in Turin", "we make the launch on…",
  "for me please no meat"), and terse notes ("Seat: aisle.");
* some updates name the old value, some do not, one per kind is worded like a first statement;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, chat
  filler), and some statements are wrapped in filler or typed in lower case, as in ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Gannet", "Harrow", "Ibex", "Jackdaw", "Kittiwake", "Loom", "Magpie", "Nettle", "Osprey",
    "Puffin", "Quince", "Rook", "Sorrel", "Teasel", "Umbra", "Vetch", "Wren", "Yew", "Zinnia",
    "Bittern", "Clover", "Dunlin", "Eider", "Fieldfare",
)
PEOPLE: Final = (
    "Abebe", "Beatriz", "Cosmin", "Deepa", "Eamon", "Folake", "Goran", "Hyejin", "Imogen", "Joaquín",
    "Kalani", "Lars", "Malak", "Niamh", "Oluwaseun", "Paavo", "Qiu", "Radhika", "Stellan", "Tamsin",
    "Uzma", "Viggo", "Wiremu", "Ximena",
)
CITIES: Final = (
    "Turin", "Bilbao", "Chennai", "Wellington", "Ghent", "Busan", "Cork", "Tbilisi", "Halifax",
    "Kigali", "Tampere", "Cusco",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "{n}", "Project {n}", "the {n} project", "{n} (project)")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "the 4th of July", "Thursday", "March 30", "the first Monday of May", "Sept 9", "Friday",
        "2026-02-11", "the 17th",
    ),
    "venue": (
        "the Sail Loft", "the Granary", "Meeting Room 12", "the courtyard garden", "the Tin Shed",
        "the staff bar", "the Victoria Gallery",
    ),
    "budget": ("$15,000", "€48k", "£7,200", "90,000 euros", "$300k", "65 thousand dollars"),
    "owner": PEOPLE,
    "status": (
        "stuck", "moving along nicely", "frozen", "in pilot", "waiting for design", "done", "wobbly",
        "under review",
    ),
    "office": CITIES,
    "role": (
        "account director", "solutions engineer", "operations analyst", "content strategist",
        "mobile developer", "people partner", "delivery lead",
    ),
    "diet": ("pescetarian", "vegan", "no pork", "sugar-free", "wheat-free", "kosher", "veggie"),
    "seat": ("aisle", "window", "middle", "emergency-exit"),
    "contact": ("WhatsApp", "my mobile", "Teams chat", "a text", "email", "Google Chat"),
    "meetings": (
        "before 11am", "after 3pm", "on Fridays", "early mornings", "after lunch", "Thursdays only",
        "in the late morning",
    ),
    "reports": (
        "a bulleted list", "a half-page memo", "a chart", "three sentences", "a short video",
        "a plain email",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "It is on {v} that {s} comes out.",
            "{s} sees the light of day on {v}.",
            "We make the launch of {s} on {v}.",
            "{s} launch: {v}.",
        ),
        (
            "{s} is pushed to {v}, the {old} date is dead.",
            "Bad news, {s} will not be ready for {old}, we launch it {v}.",
            "{s} goes back to the drawing board a bit: launch {v} now.",
            "{s} launch: {v} (not {old}).",
            "It is on {v} that {s} comes out.",
        ),
        ("Okay, {s} comes out {v}.", "{v} for {s}, I have it."),
    ),
    "venue": (
        (
            "It's at {v} that we throw the {s} launch party.",
            "The {s} launch bash is at {v}.",
            "For the launch of {s} we have reserved the place {v}.",
            "{s} launch venue: {v}.",
        ),
        (
            "{old} cancelled on us, the {s} launch party goes to {v}.",
            "We take {v} for the {s} launch, not {old} any more.",
            "{s} launch party: {v} now.",
            "The {s} launch bash has a new home: {v}.",
            "The {s} launch bash is at {v}.",
        ),
        ("Got it, the {s} party is at {v}.", "{v} for the {s} launch bash."),
    ),
    "budget": (
        (
            "{s} was given {v}.",
            "{s} has {v} in the kitty.",
            "For {s} the money is {v}.",
            "{s} budget: {v}.",
        ),
        (
            "{s} had its budget slashed, {v} now.",
            "The {s} money is {v} from today, before it was {old}.",
            "Finance tightened the belt on {s}: {v}.",
            "{s} budget: {v} (not {old}).",
            "{s} was given {v}.",
        ),
        ("{v} for {s}, understood.", "Fine, {s} has {v}."),
    ),
    "owner": (
        (
            "It's {v} who is in the driver's seat for {s}.",
            "{s} is {v}'s baby.",
            "The responsible for {s} is {v}.",
            "{s} owner: {v}.",
        ),
        (
            "{v} took the reins of {s}.",
            "{old} passed the baton on {s} to {v}.",
            "Since this week the responsible for {s} is {v}.",
            "{s} owner: {v} (not {old}).",
            "It's {v} who is in the driver's seat for {s}.",
        ),
        ("{v} is in charge of {s}, noted.", "Okay, {s} sits with {v}."),
    ),
    "status": (
        (
            "{s} is looking {v}.",
            "As for {s}, it is {v}.",
            "{s} stays {v} at this moment.",
            "{s} status: {v}.",
        ),
        (
            "{s} turned {v}.",
            "{s} is not {old} any more, it is {v}.",
            "Since yesterday {s} is {v}.",
            "{s} status: {v} (was {old}).",
            "{s} is looking {v}.",
        ),
        ("{s} is {v}, I see.", "Understood: {s} {v}."),
    ),
    "office": (
        (
            "{s} hangs their hat in {v}.",
            "{s} is sitting in {v}.",
            "It's in {v} that {s} works.",
            "{s} office: {v}.",
        ),
        (
            "{s} upped sticks to {v}.",
            "Since March {s} is working in {v}, not {old}.",
            "{s} said goodbye to {old} and is in {v} now.",
            "{s} office: {v} (was {old}).",
            "{s} hangs their hat in {v}.",
        ),
        ("{s} works in {v}, okay.", "Noted that {s} is in {v}."),
    ),
    "role": (
        (
            "{s} wears the {v} hat.",
            "{s} makes the job of {v}.",
            "It's as {v} that {s} works here.",
            "{s} role: {v}.",
        ),
        (
            "{s} moved up to {v}.",
            "{s} is no more {old}, now {v}.",
            "{s} changed the hat: {v} now.",
            "{s} role: {v} (was {old}).",
            "{s} wears the {v} hat.",
        ),
        ("{s} is {v}, right.", "Okay, {s}: {v}."),
    ),
    "diet": (
        (
            "For me please {v} food only.",
            "Food-wise I'm {v}.",
            "{v} is what I eat.",
            "Diet: {v}.",
        ),
        (
            "I turned {v}.",
            "No more {old} for me, I eat {v} since this month.",
            "Doctor says {v}, so {v} it is for me.",
            "Diet: {v} (not {old}).",
            "Food-wise I'm {v}.",
        ),
        ("{v} food for you, okay.", "Sure, {v} for your meals."),
    ),
    "seat": (
        (
            "On planes give me always the {v} seat.",
            "I'm a {v}-seat person.",
            "The {v} seat is what I take when flying.",
            "Seat: {v}.",
        ),
        (
            "I changed camp, {v} seat for me.",
            "Not the {old} seat any more, give me {v}.",
            "Put me in {v} when I fly, from now.",
            "Seat: {v} (not {old}).",
            "I'm a {v}-seat person.",
        ),
        ("A {v} seat for you.", "{v} seat, got it."),
    ),
    "contact": (
        (
            "You catch me fastest on {v}.",
            "If you need me, write me on {v}.",
            "It's {v} where I answer.",
            "Contact: {v}.",
        ),
        (
            "I left {old}, write me on {v}.",
            "{v} is my channel now, not {old}.",
            "You catch me on {v} from today.",
            "Contact: {v} (not {old}).",
            "You catch me fastest on {v}.",
        ),
        ("I'll use {v} for you.", "{v} it is."),
    ),
    "meetings": (
        (
            "Meetings with me are {v}.",
            "I do my calls {v}.",
            "It's {v} that I have time for meetings.",
            "Meetings: {v}.",
        ),
        (
            "My calendar flips: meetings {v}.",
            "Not {old} any more for meetings, {v} is better.",
            "Since this quarter I do my calls {v}.",
            "Meetings: {v} (not {old}).",
            "Meetings with me are {v}.",
        ),
        ("Meetings {v} for you.", "I'll put your calls {v}."),
    ),
    "reports": (
        (
            "Reports to me come as {v}.",
            "I digest reports best as {v}.",
            "Please make my reports in {v}.",
            "Reports: {v}.",
        ),
        (
            "Change of taste: reports as {v}.",
            "No more {old} for reports, {v} please.",
            "Make my reports in {v} from now.",
            "Reports: {v} (not {old}).",
            "Reports to me come as {v}.",
        ),
        ("Reports as {v}, okay.", "I'll report as {v}."),
    ),
}

WEEKDAYS: Final = ("Thursday", "Friday", "Monday", "Tuesday")
CHANNELS: Final = ("WhatsApp", "Teams chat", "Google Chat")

DISTRACTORS: Final = (
    ("question", "Remind me, when does {p} come out?"),
    ("question", "Is {p} still planned for {day}?"),
    ("question", "How much money has {p} got?"),
    ("question", "Where do we throw the {p} launch party?"),
    ("question", "Does {n} still sit in {city}?"),
    ("hypothetical", "Should {p} come out {day}, sales would be happy."),
    ("hypothetical", "In a perfect world {p} gets {money}."),
    ("hypothetical", "Picture {n} in {city}, that would suit them."),
    ("rumour", "A little bird told me {p} slips to {day}."),
    ("rumour", "Word on the street: {n} goes to {city}."),
    ("denial", "{p} is not pushed to {day}, that's fake news."),
    ("denial", "No no, {n} is not leaving for {city}."),
    ("third_party", "My flatmate went {diet} in January."),
    ("third_party", "My father swears by the {seat} seat."),
    ("third_party", "{n}'s husband only uses {channel}."),
    ("collision", "Saw a {p} on the beach this morning, lovely bird."),
    ("collision", "The {city} film festival trailer is out."),
    ("collision", "The canteen had a {diet} special."),
    ("collision", "{weekday} is quiz night at the pub."),
    ("outdated", "An old slide says {p} comes out {day}; that slide is stale."),
)

QUERIES: Final = (
    ("Organise the {p} launch lunch: when, where and what I eat.", ("launch_day", "venue", "diet")),
    ("Get me on a plane to the {p} launch.", ("launch_day", "seat", "venue")),
    ("Who holds {p} and what money is there?", ("owner", "budget")),
    ("Write {p}'s owner a status note the way I like reports.", ("status", "owner", "reports")),
)

PREFIXES: Final = ("For info: ", "Small update: ", "PS: ", "To note: ")
SUFFIXES: Final = (" Cheers!", " Merci.", " Danke.", " OK?")
WRAP_RATE: Final = 0.2
"""Share of user statements wrapped in a prefix or a suffix."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""
