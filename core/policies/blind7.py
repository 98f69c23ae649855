"""The ``blind7`` wording: an eighth set of phrasings and vocabularies, frozen before its first run.

``blind6`` has been run (docs/policies.md), so a fresh held-out set is needed. This one was written
by a helper who read the generator and ``blind6`` in full (so saw ``standard``, ``heldout`` and the
generator's shared chatter) and only grepped ``blind2`` … ``blind5`` for overlaps: a script checked
that its names, cities and values are in none of them nor in ``generator.py``, and that its phrases
share no three-word run with them beyond common ones ("is based in", "from {old} to"). The
helper did not open any policy module nor the sections of docs/policies.md that describe how the
recommended policy works (only the README's summary of ``focus`` went past on screen, in the lines
next to the wording list), and ran no policy and no bench_policies on it: it was committed with a
test pinning its digest before any policy's first run on it. Only the generator was run, to check
that ``blind7`` sessions generate (10,000 turns, seed 7: 170 facts, 244 updates, 9 checkpoints).
The wording procedure was fixed first:

* one register throughout, for the user and for the assistant's acknowledgements (the only
  assistant turns a wording set supplies), different in kind from the earlier sets: formal
  corporate email and meeting minutes — passive voice and nominalisations ("it has been decided
  that … shall be held in …", "please be advised that …"), long sentences of several clauses,
  some facts as "Key: value" lines or "Action item:" lines;
* every kind of fact gets five first statements and six updates; the updates vary: some name the
  old value, some refer back to it only by description ("the figure stated in my last note has
  been revised to …"), some are labelled "Erratum:" or "Correction:", one per kind is worded like a
  first statement, and one per kind is put as a question and its answer in one message;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler;
  the weekday names aside),
  and some statements are wrapped in salutations or sign-offs or come out in lower case, as in
  ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Bastion", "Cloister", "Dovecote", "Escarpment", "Foxglove", "Gantry", "Hawthorn", "Isthmus",
    "Jacquard", "Keelson", "Lanyard", "Mullion", "Nasturtium", "Obelisk", "Portcullis", "Quillwort",
    "Rampart", "Sandstone", "Tourmaline", "Undercroft", "Vellum", "Windlass", "Yardarm", "Zephyrine",
)
PEOPLE: Final = (
    "Obiageli", "Benedikt", "Cosima", "Dervla", "Ebere", "Fenella", "Gunnhild", "Henrike", "Ignatius",
    "Jolanta", "Kwabena", "Leopoldine", "Mstislav", "Nkechi", "Ottilie", "Perpetua", "Rosalind",
    "Sigrun", "Thaddeus", "Ulrike", "Valerian", "Wilhelmina", "Xiomara", "Zebulon",
)
CITIES: Final = (
    "Aberdeen", "Bratislava", "Cagliari", "Dunedin", "Eindhoven", "Fukuoka", "Groningen", "Harrogate",
    "Innsbruck", "Jaipur", "Kaunas", "Lausanne",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "Project {n}", "the {n} programme", "the {n} initiative")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "12 October", "3 February", "21 January", "1 December", "17 September", "28 April",
        "5 June", "26 March",
    ),
    "venue": (
        "the Orangery", "Conference Suite B", "the executive boardroom", "the Guildhall",
        "the Mezzanine Lounge", "the Long Gallery", "the Chamber of Commerce",
    ),
    "budget": (
        "GBP 45,000", "SEK 820,000", "CAD 72,500", "CHF 60,000", "NOK 540,000", "JPY 9,000,000",
        "AUD 38,000",
    ),
    "owner": PEOPLE,
    "status": (
        "under formal review", "judged satisfactory", "under remediation", "pending ratification",
        "in the pilot stage", "deferred", "concluded", "in procurement",
    ),
    "office": CITIES,
    "role": (
        "Chief Financial Officer", "compliance officer", "procurement specialist", "programme director",
        "legal counsel", "facilities coordinator", "data protection officer", "executive assistant",
    ),
    "diet": (
        "sesame-free", "fructose-free", "crustacean-free", "low-carbohydrate", "mustard-free",
        "gelatine-free", "low-cholesterol",
    ),
    "seat": ("first class", "row one", "business class", "premium economy"),
    "contact": (
        "the switchboard", "registered post", "the telex", "my secretary", "Skype", "Lotus Notes",
        "the intranet portal",
    ),
    "meetings": (
        "from 10:00 to 12:00", "after 14:30", "on Monday afternoons", "before 09:30", "at 16:00 sharp",
        "in the first week of each month", "on alternate Fridays",
    ),
    "reports": (
        "a formal memorandum", "a tabulated schedule", "a circulated briefing paper", "a status bulletin",
        "a bound quarterly report", "an executive summary", "minuted briefings",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "Please be advised that it has been decided that the go-live of {s} shall take place on {v}.",
            "Key: go-live date, {s}\nValue: {v}",
            "Following deliberation by the steering committee, the release of {s} has been scheduled "
            "for {v}, and all departments are requested to plan accordingly.",
            "Action item: all stakeholders to note that {s} is to be released on {v}.",
            "It is hereby confirmed, for the avoidance of doubt, that {v} has been fixed as the "
            "release date of {s}.",
        ),
        (
            "Further to my previous message, the release of {s} has been re-timetabled from {old} to {v}.",
            "Correction: the date stated in my last note for {s} has been revised; the go-live shall "
            "now take place on {v}.",
            "Erratum: the release of {s} was incorrectly minuted as {old}; the agreed date is {v}.",
            "With regard to the question of when {s} is now to be released: a date of {v} has been "
            "agreed by the committee.",
            "Owing to dependencies that could not be resolved in time, the previously communicated "
            "date for {s} can no longer be honoured, and {v} has been substituted.",
            "Action item: all stakeholders to note that {s} is to be released on {v}.",
        ),
        (
            "Duly noted: the release of {s} is scheduled for {v}.",
            "Acknowledged; {v} has been recorded as the go-live date of {s}.",
            "Receipt confirmed. {s} is to go live on {v}.",
        ),
    ),
    "venue": (
        (
            "It has been decided that the launch reception for {s} shall be held in {v}.",
            "Key: reception venue, {s}\nValue: {v}",
            "Please be advised that a reservation has been secured at {v} for the launch "
            "reception of {s}, subject to the usual catering arrangements.",
            "Action item: facilities to prepare {v} for the reception marking the launch of {s}.",
            "For the purposes of the launch reception of {s}, {v} has been designated as the venue.",
        ),
        (
            "Further to my previous message, the reception for {s} has been relocated from {old} to {v}.",
            "Correction: the venue indicated in my earlier circular for {s} is no longer available; "
            "the reception shall instead be held in {v}.",
            "Erratum: the reception for {s} was listed as taking place in {old}; it will take place in {v}.",
            "As to where the reception for {s} is now to be held, it has been confirmed that {v} will be "
            "used.",
            "Owing to a double booking, the arrangement previously communicated for the reception of "
            "{s} has been cancelled and {v} has been reserved in its place.",
            "Action item: facilities to prepare {v} for the reception marking the launch of {s}.",
        ),
        (
            "Duly noted: the reception for {s} will be held in {v}.",
            "Acknowledged; {v} has been recorded as the venue for the reception of {s}.",
        ),
    ),
    "budget": (
        (
            "Please be advised that an allocation of {v} has been approved by the finance committee "
            "for {s}.",
            "Key: approved allocation, {s}\nValue: {v}",
            "It is confirmed that expenditure on {s} shall not exceed {v}, this being the total "
            "sanctioned for the current financial year.",
            "Action item: budget holders to note that {s} has been allocated {v}.",
            "Following the review of capital requests, a sum of {v} has been earmarked for {s}.",
        ),
        (
            "Further to my previous message, the allocation for {s} has been revised from {old} to {v}.",
            "Correction: the figure stated in my last note for {s} has been revised to {v}.",
            "Erratum: the allocation for {s} was circulated as {old}; the approved sum is {v}.",
            "With reference to the query as to the funds now available to {s}: {v}, following the "
            "mid-year review.",
            "In light of the cost-containment measures, the sum originally sanctioned for {s} has "
            "been withdrawn and replaced by an allocation of {v}.",
            "Action item: budget holders to note that {s} has been allocated {v}.",
        ),
        (
            "Duly noted: {s} has an allocation of {v}.",
            "Acknowledged; {v} has been recorded against {s}.",
        ),
    ),
    "owner": (
        (
            "Please be advised that accountability for {s} has been assigned to {v}.",
            "Key: accountable owner, {s}\nValue: {v}",
            "It has been agreed that {v} shall assume overall responsibility for {s}, to whom all "
            "correspondence on the matter should be addressed.",
            "Action item: all queries concerning {s} to be directed to {v}, its designated owner.",
            "Responsibility for the delivery of {s} rests with {v}, as was minuted at the last "
            "meeting of the board.",
        ),
        (
            "Further to my previous message, ownership of {s} has been transferred from {old} to {v}.",
            "Correction: the individual named in my earlier note as owner of {s} has been reassigned; "
            "accountability now rests with {v}.",
            "Erratum: {old} was recorded as the owner of {s} in error; the owner is {v}.",
            "On the matter of who is now accountable for {s}: {v} has been appointed, with effect "
            "from Monday.",
            "Following the organisational realignment, the previous arrangements for {s} have been "
            "superseded, and {v} has been entrusted with it.",
            "Action item: all queries concerning {s} to be directed to {v}, its designated owner.",
        ),
        (
            "Duly noted: {v} is the accountable owner of {s}.",
            "Acknowledged; {s} has been recorded under {v}.",
        ),
    ),
    "status": (
        (
            "Please be advised that, as of the latest reporting cycle, {s} is {v}.",
            "Key: programme status, {s}\nValue: {v}",
            "It was reported to the committee that {s} is presently {v}, and no escalation was deemed "
            "necessary.",
            "Action item: the status of {s} ({v}) to be reflected in the portfolio register.",
            "The assessment of {s} undertaken this week concluded that it is {v}.",
        ),
        (
            "Further to my previous message, the status of {s} has been changed from {old} to {v}.",
            "Correction: the assessment given in my last report for {s} has been superseded; it is "
            "now {v}.",
            "Erratum: {s} was reported as {old}; it should have read {v}.",
            "In response to the enquiry regarding the present standing of {s}: it is {v}, as at close of "
            "business yesterday.",
            "Subsequent to the audit, the earlier assessment of {s} has been withdrawn, and it is now "
            "considered {v}.",
            "Action item: the status of {s} ({v}) to be reflected in the portfolio register.",
        ),
        (
            "Duly noted: {s} is {v}.",
            "Acknowledged; the status of {s} has been recorded as {v}.",
        ),
    ),
    "office": (
        (
            "Please be advised that {s} is stationed at our {v} office.",
            "Key: duty station, {s}\nValue: {v}",
            "It is noted for the staff directory that {s} is based in {v}, and visits should be "
            "arranged through that office.",
            "Action item: correspondence for {s} to be routed to the {v} office.",
            "For administrative purposes, {s} has been attached to the {v} branch.",
        ),
        (
            "Further to my previous message, {s} has been relocated from {old} to {v}.",
            "Correction: the duty station recorded for {s} in my earlier note has changed; {s} is now "
            "based in {v}.",
            "Erratum: {s} was listed under the {old} office; the correct station is {v}.",
            "With regard to where {s} is now stationed: {v}, with effect from the new quarter.",
            "Upon completion of the secondment, the former posting of {s} has lapsed, and {s} has "
            "taken up a position in {v}.",
            "Action item: correspondence for {s} to be routed to the {v} office.",
        ),
        (
            "Duly noted: {s} is based in {v}.",
            "Acknowledged; {v} has been recorded as the duty station of {s}.",
        ),
    ),
    "role": (
        (
            "Please be advised that {s} has been appointed as an {v}.",
            "Key: job title, {s}\nValue: {v}",
            "It is confirmed for the organisational chart that {s} holds the position of {v}, "
            "reporting to the divisional head.",
            "Action item: human resources to record {s} as {v}.",
            "In accordance with the staffing plan, the duties of {v} have been assigned to {s}.",
        ),
        (
            "Further to my previous message, {s} has been redesignated from {old} to {v}.",
            "Correction: the title given in my last note for {s} is obsolete; {s} now serves as "
            "{v}.",
            "Erratum: {s} was described as {old}; the correct title is {v}.",
            "As regards the position {s} now holds: {v}, following the restructuring.",
            "With the conclusion of the restructuring, the former appointment of {s} has been "
            "discontinued, and {s} has been confirmed as {v}.",
            "Action item: human resources to record {s} as {v}.",
        ),
        (
            "Duly noted: {s} holds the position of {v}.",
            "Acknowledged; {s} has been recorded as {v}.",
        ),
    ),
    "diet": (
        (
            "Please be advised that my catering requirements are {v}.",
            "Key: dietary requirement (myself)\nValue: {v}",
            "It would be appreciated if all meals ordered on my behalf could be {v}, in accordance "
            "with medical advice.",
            "Action item: catering to note that meals for the undersigned must be {v}.",
            "For the purposes of any hospitality arranged for me, a {v} menu is required.",
        ),
        (
            "Further to my previous message, my dietary requirement has changed from {old} to {v}.",
            "Correction: the requirement indicated in my earlier note no longer applies; my meals "
            "should now be {v}.",
            "Erratum: my catering requirement was recorded as {old}; it is {v}.",
            "Regarding what I may now be served: {v} meals, on the advice of my physician.",
            "Following a medical consultation, my former dietary instruction has been withdrawn; "
            "henceforth all catering for me should be {v}.",
            "Action item: catering to note that meals for the undersigned must be {v}.",
        ),
        (
            "Duly noted: your meals will be {v}.",
            "Acknowledged; a {v} requirement has been recorded for you.",
        ),
    ),
    "seat": (
        (
            "Please be advised that, for all air travel booked on my behalf, {v} seating is to be "
            "requested.",
            "Key: preferred seating (air travel)\nValue: {v}",
            "It would be appreciated if the travel desk could reserve {v} seats for me on every "
            "flight, where availability permits.",
            "Action item: travel desk to book the undersigned in {v} on all flights.",
            "For all future itineraries, my seating preference is {v}.",
        ),
        (
            "Further to my previous message, my seating preference has changed from {old} to {v}.",
            "Correction: the seating preference stated in my earlier note has been revised; please "
            "request {v} with immediate effect.",
            "Erratum: my seating was recorded as {old}; it should read {v}.",
            "As to which seating I now require: {v}, following the revision of the travel policy.",
            "In light of the revised travel policy, my earlier seating instruction has been "
            "rescinded, and {v} is to be requested instead.",
            "Action item: travel desk to book the undersigned in {v} on all flights.",
        ),
        (
            "Duly noted: {v} seating will be requested.",
            "Acknowledged; {v} has been recorded as your seating preference.",
        ),
    ),
    "contact": (
        (
            "Please be advised that I may most reliably be reached via {v}.",
            "Key: preferred channel of contact\nValue: {v}",
            "It would be appreciated if urgent matters could be communicated to me through {v}, as "
            "other channels are monitored less frequently.",
            "Action item: all urgent correspondence for the undersigned to be sent via {v}.",
            "For the duration of the programme, {v} should be regarded as my principal channel.",
        ),
        (
            "Further to my previous message, my preferred channel has changed from {old} to {v}.",
            "Correction: the channel given in my earlier note is no longer monitored; kindly use {v}.",
            "Erratum: my contact channel was listed as {old}; it is {v}.",
            "On the question of how I may now be contacted: via {v}, until further notice.",
            "Owing to the decommissioning of the former system, my earlier contact instruction has "
            "been withdrawn, and {v} is to be used henceforth.",
            "Action item: all urgent correspondence for the undersigned to be sent via {v}.",
        ),
        (
            "Duly noted: you will be contacted via {v}.",
            "Acknowledged; {v} has been recorded as your preferred channel.",
        ),
    ),
    "meetings": (
        (
            "Please be advised that meetings requiring my attendance should be scheduled {v}.",
            "Key: availability for meetings\nValue: {v}",
            "It would be appreciated if all meetings involving the undersigned could be arranged "
            "{v}, this being the only period without standing commitments.",
            "Action item: secretariat to schedule meetings with the undersigned {v}.",
            "For scheduling purposes, my availability is {v}.",
        ),
        (
            "Further to my previous message, my availability for meetings has changed from {old} "
            "to {v}.",
            "Correction: the times indicated in my earlier note can no longer be accommodated; "
            "meetings should now be arranged {v}.",
            "Erratum: my availability was recorded as {old}; it is {v}.",
            "With regard to when I may now attend meetings: {v}, under the new working pattern.",
            "Following the revision of my working pattern, my former availability has lapsed, and "
            "meetings are henceforth to be arranged {v}.",
            "Action item: secretariat to schedule meetings with the undersigned {v}.",
        ),
        (
            "Duly noted: meetings will be arranged {v}.",
            "Acknowledged; your availability has been recorded as {v}.",
        ),
    ),
    "reports": (
        (
            "Please be advised that progress reports addressed to me should take the form of {v}.",
            "Key: reporting format\nValue: {v}",
            "It would be appreciated if all updates submitted to the undersigned could be prepared "
            "as {v}, in line with the governance framework.",
            "Action item: project leads to submit reports to the undersigned as {v}.",
            "For the purposes of progress reporting, {v} is the format required.",
        ),
        (
            "Further to my previous message, the reporting format has changed from {old} to {v}.",
            "Correction: the format requested in my earlier note has been superseded; reports should "
            "now be submitted as {v}.",
            "Erratum: the reporting format was recorded as {old}; it is {v}.",
            "As to the form in which reports are now to be submitted: {v}, per the revised framework.",
            "Upon adoption of the revised governance framework, my former reporting instruction has "
            "been rescinded, and {v} is to be provided instead.",
            "Action item: project leads to submit reports to the undersigned as {v}.",
        ),
        (
            "Duly noted: reports will be submitted as {v}.",
            "Acknowledged; {v} has been recorded as your reporting format.",
        ),
    ),
}

WEEKDAYS: Final = ("Monday", "Wednesday", "Saturday", "Friday")
CHANNELS: Final = ("Skype", "the switchboard", "Lotus Notes")

DISTRACTORS: Final = (
    ("question", "Could it kindly be confirmed on what date the release of {p} is scheduled?"),
    ("question", "May I enquire whether {p} remains scheduled for {day}, or has this been revised?"),
    ("question", "Could the finance office remind me of the sum allocated to {p}?"),
    ("question", "It would be appreciated if the venue of the {p} reception could be restated."),
    ("question", "Might it be confirmed whether {n} remains stationed in {city}?"),
    ("hypothetical", "Should {p} be released on {day}, considerable benefits would be anticipated."),
    ("hypothetical", "Were {money} to be made available to {p}, the scope could be broadened."),
    ("hypothetical", "It is conceivable that {n} would find a posting in {city} agreeable."),
    (
        "rumour",
        "It has been suggested informally, though not confirmed, that {p} may be postponed until {day}.",
    ),
    ("rumour", "Unconfirmed reports indicate that {n} may be transferred to {city}."),
    (
        "denial",
        "Please disregard the circular suggesting that {p} has been put back to {day}; it is unfounded.",
    ),
    ("denial", "It is categorically denied that {n} is to be relocated to {city}."),
    ("third_party", "It is understood that the chairman's spouse has adopted a {diet} regimen."),
    ("third_party", "The visiting auditors have requested {seat} seats for their return journey."),
    ("third_party", "The external consultant, I am told, may only be reached via {channel}."),
    ("collision", "A press article concerning the {p} of classical architecture was circulated."),
    ("collision", "The {city} trade delegation is expected at the embassy this evening."),
    ("collision", "The staff canteen has introduced a {diet} option at the salad counter."),
    ("collision", "{weekday} has been designated as the day for the evacuation exercise."),
    ("outdated", "The superseded project charter lists {p} as due on {day}; it should be disregarded."),
    ("question", "With reference to item four of the agenda, has any decision been taken on {p}?"),
)

QUERIES: Final = (
    (
        "Kindly arrange the luncheon for the launch of {p}, taking account of the date, the venue and "
        "my dietary requirement.",
        ("launch_day", "venue", "diet"),
    ),
    (
        "Travel arrangements are requested for my attendance at the {p} launch reception.",
        ("launch_day", "seat", "venue"),
    ),
    (
        "To whom should funding enquiries concerning {p} be addressed, and what sum has been allocated?",
        ("owner", "budget"),
    ),
    (
        "Please forward the current status of {p} to its accountable owner in my preferred format.",
        ("status", "owner", "reports"),
    ),
    (
        "Kindly schedule a meeting with the owner of {p} at a time when I am available.",
        ("owner", "meetings"),
    ),
)

PREFIXES: Final = (
    "Dear colleagues, ", "Good afternoon. ", "For the record: ", "With reference to the above: ",
)
SUFFIXES: Final = (
    " Kind regards.", " Many thanks in advance.", " Please acknowledge receipt.", " Yours sincerely.",
)
WRAP_RATE: Final = 0.35
"""Share of user statements wrapped in a salutation or a sign-off."""
LOWER_RATE: Final = 0.10
"""Share of user statements typed in lower case without the final full stop."""
