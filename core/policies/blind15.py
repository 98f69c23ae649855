"""The ``blind15`` wording: a sixteenth set of phrasings and vocabularies, frozen before its first run.

``blind14`` is held out; this is a further held-out set, in a register none of the earlier sets
uses: a colleague whose first language is German writes long run-on chat messages in English with
German word order and habits. It was written by a helper who read ``generator.py``, ``blind14``
and the head of ``blind13`` (for the module's shape), tests/core/wording_checks.py, the tests of
``blind14``, the wording-registering parts of the bench script, the CLI and
tests/core/test_policies_benchmark.py (its list of key-side modules and the held-out comment), and
who opened no policy-side module. It ran no policy and no bench_policies on it: it was committed
with tests pinning its digest and the digest of its 10,000-turn seed-7 session before any policy's
first run on it. Only the generator was run, with tests that check the answer key against the
messages (10,000 turns, seed 7: 170 facts, 240 updates, 9 checkpoints).

The wording procedure:

* one register throughout for the user: verb-final subordinate clauses ("because I the emails only
  in the evening read", "that {s} in {v} takes place"), "since two years" for durations, no article
  before a job ("{s} is {v} with us"), German words in between (Termin, Kantine, Jour fixe),
  false friends (become for get, chef for boss, actual for current, eventually for perhaps, also
  for so), in-line self-corrections that end on the value stated ("ah no, I mean the big room
  there, not the small, but yes, {v}", "no wait, falsely"), the fillers genau, na ja, doch, halt,
  and chit-chat about the weather, the canteen or the printer mixed into the same message; the
  assistant answers in plain English;
* every kind of fact gets six first statements and six updates; two updates name the old value
  before the new one ("Not anymore {old} for {s}, since last week it is {v}"), three tell the
  change without naming what it was before ("that has changed, now …", "since the
  reorganisation …"), and the last is worded like a first statement, often opening with genau or
  doch; the same cue words ("that has changed", "not anymore", "since", "genau", "eventually")
  also occur in first statements and distractors, so none of them marks a role by itself;
* the distractors are in the same voice and vocabulary: questions ("Sits {n} still in {city}?"),
  "eventually" in its German sense of perhaps, plans of the canteen gossip, denials with doch and
  genau, the wife's, the brother's or the chef's own habits, project names that are German
  mountains (a weekend hike "on the {p}"), and old states explicitly ended ("but that is over
  since long, not actual anymore");
* every vocabulary is new (names, cities, values, read-backs, distractors, queries, filler; the
  weekday names aside), and so are the system prompt, the user's chatter, the episodes and tasks
  and the assistant's chatter, hedges, answers and task replies (:data:`SHARED`); a quarter of the
  statements are wrapped in filler ("Na ja, ", " Or?") and a tenth come out in lower case without
  the final full stop.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Zugspitze", "Brocken", "Feldberg", "Wendelstein", "Watzmann", "Fichtelberg", "Hochkalter",
    "Arber", "Inselsberg", "Schneekopf", "Rennsteig", "Hegau", "Kyffhaeuser", "Teutoburg",
    "Spessart", "Odenwald", "Rhoen", "Eifel", "Hunsrueck", "Taunus", "Deister", "Harz", "Solling",
    "Vogelsberg",
)
PEOPLE: Final = (
    "Uwe", "Dagmar", "Heiko", "Sabine", "Gerd", "Birgit", "Torsten", "Annegret", "Ruediger", "Silke",
    "Dirk", "Kerstin", "Holger", "Gabi", "Joerg", "Monika", "Rainer", "Heike", "Detlef", "Hannelore",
    "Jens", "Doris", "Volker", "Britta",
)
CITIES: Final = (
    "Chemnitz", "Zwickau", "Plauen", "Goerlitz", "Bautzen", "Cottbus", "Jena", "Dessau", "Erfurt",
    "Magdeburg", "Rostock", "Wuerzburg",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "the Projekt {n}", "our {n} project")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "the Tuesday after Whitsun", "the first Sunday of Advent", "the day after Ascension",
        "the last Friday before the summer holidays", "the eleventh of the eleventh",
        "the week after Carnival", "the Thursday before Easter", "the second week of the Christmas market",
    ),
    "venue": (
        "the Stadthalle", "the back room of the Ratskeller", "the Volkshochschule",
        "the Kulturbahnhof", "the club house of the Schrebergarten", "the Turnhalle of the Gymnasium",
        "the Zeiss planetarium",
    ),
    "budget": (
        "round about 14,800 Euro", "exactly 3,250 Euro", "nearly 61 thousand Euro",
        "a bit over 9,900 Euro", "good 122 thousand Euro", "only 1,475 Euro", "27,300 Euro flat",
    ),
    "owner": PEOPLE,
    "status": (
        "stuck at the Betriebsrat", "on ice since the audit", "nearly fertig", "in the test phase",
        "finished except the documentation", "totally chaotic", "waiting on the Genehmigung",
    ),
    "office": CITIES,
    "role": (
        "working student", "head of purchasing", "Azubi in the warehouse", "Betriebsrat chairman",
        "quality manager for the suppliers", "Hausmeister of the whole building",
        "assistant to the Geschaeftsfuehrung",
    ),
    "diet": (
        "without pork", "without lactose", "without onions", "without garlic", "without wheat",
        "without nuts", "without fish",
    ),
    "seat": (
        "the seat at the Notausgang", "a seat over the left wing", "the first row after business class",
        "the aisle seat near the toilets", "a place in the very front",
    ),
    "contact": (
        "Stashcat", "Ginlo", "Xing", "the Handy", "the Festnetz at home", "a Fax to the office",
        "SMS on the Diensthandy",
    ),
    "meetings": (
        "before the Mittagspause", "after Feierabend", "early in the morning before eight",
        "on Tuesday and Thursday afternoons", "in the Kernzeit between ten and three", "never before ten",
    ),
    "reports": (
        "a PDF with Stichpunkte", "an Excel table", "a short Protokoll", "a Powerpoint with max five slides",
        "a mail in German", "a printed Ausdruck on my desk",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant read-backs); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "So, I come just from the Besprechung and my chef says that {s} {v} starts, genau, "
            "{v}, I have it written in my calendar.",
            "Na ja, the weather is bad here since Monday, but the good news is, {s} goes live {v}, "
            "that is now fix.",
            "I tell you quickly because I it otherwise forget: {s} starts {v}, ah no, I mean the "
            "official start, the Go-live, but yes, {v}.",
            "Also, for the planning: {s} has its start {v}, my colleague has it confirmed this morning "
            "in the Jour fixe.",
            "You must know that {s} {v} live goes, because I the whole week already the Folien for it make.",
            "That has changed a lot with us since the new chef, everything is new organised, and {s} "
            "starts {v}, no wait, falsely, not the test, the real start, but yes, {v}.",
        ),
        (
            "Not anymore {old} for {s}, since last week it is {v}, the customer wanted it so.",
            "Attention, {s} starts not {old} like I told you, that has changed, now it is {v}, sorry "
            "for the chaos.",
            "The thing with {s} has changed, now it goes live {v}, because the Abnahme is not ready, "
            "na ja, typical.",
            "My chef has today said that we {s} to {v} shift must, also the date from before is gone.",
            "Since yesterday it is official: the new start for {s} is {v}, I have the whole weekend "
            "for nothing planned, haha.",
            "Genau, and {s} goes {v} live, I have it in the calendar eingetragen, the rest is like always.",
        ),
        ("So {s} starts {v}; I have that down.", "Understood: {v} for {s}."),
    ),
    "venue": (
        (
            "We have for {s} {v} booked, that was not easy because in this time everybody a room wants.",
            "The event for {s} is in {v}, genau, there where we also the Weihnachtsfeier had.",
            "Na ja, I was today with my chef at {v} and we have it for {s} reserved, it is nice there, "
            "a bit old.",
            "So that you it know: {s} takes place in {v}, the Hausmeister there is a friend of me.",
            "For {s} we go to {v}, ah no, I mean the big room there, not the small, but yes, {v}.",
            "I think I have it not said: the location for {s} is {v}, parking is there halt difficult.",
        ),
        (
            "Not anymore {old}, since Monday we have for {s} {v}, the other room was doppelt booked.",
            "For {s} we had {old}, but that has changed, now it is {v} because of the Brandschutz.",
            "We had to switch, also {s} is now in {v}, I have the invitation already corrected.",
            "Since last week it is clear that {s} in {v} takes place, my chef has it so decided.",
            "Bad news from the Facility people, the room for {s} is gone and we are now in {v}, "
            "na ja, it goes also.",
            "Doch, {s} is in {v}, I have the contract on my desk, the Catering we must still order.",
        ),
        ("{s} takes place at {v}, then.", "Got it, the venue for {s} is {v}."),
    ),
    "budget": (
        (
            "The budget for {s} is {v}, that is not much but it goes, we must halt sparen.",
            "I have today with Controlling spoken and {s} becomes {v}, genau, {v}, I have it twice asked.",
            "Also, {s} has {v} to spend, the actual number stands in the Excel from Friday.",
            "You know that we for {s} {v} have, because the Vorstand it so decided has.",
            "Na ja, money: {s} has {v}, ah no wait, I must look, yes, {v}, that is correct.",
            "My chef said in the meeting that the Topf for {s} {v} is, and more there is not.",
        ),
        (
            "Not anymore {old}, since the last Vorstand meeting {s} has {v}, we must the whole "
            "calculation new make.",
            "I told you {old} for {s}, but that has changed, now it is {v}, the Controlling has it "
            "corrected.",
            "That has changed, now {s} becomes {v}, I was really surprised in the meeting.",
            "Since this week the budget of {s} is {v}, after long discussions, na ja.",
            "The Finanzen have today the number for {s} new fixed, also {v}, that is the actual stand.",
            "Genau, {s} has {v} budget, I have it in the Protokoll read, the rest we discuss later.",
        ),
        ("So {s} has {v} to spend.", "Noted: the budget for {s} is {v}."),
    ),
    "owner": (
        (
            "{v} is the chef of {s}, since two years already, and knows everything about it.",
            "For {s} is {v} responsible, genau, you must always ask {v} first.",
            "I had today lunch with {v}, who {s} leads, and we have about the holidays talked.",
            "So that you it know: {s} belongs to {v}, that is the Verantwortliche.",
            "The one who for {s} the hat on has is {v}, ah no, I mean the Projektleitung, but yes, "
            "that is {v}.",
            "Na ja, {v} leads {s}, also if you questions have, go to {v} directly.",
        ),
        (
            "Not anymore {old} leads {s}, since last week it is {v}, {old} is now in another department.",
            "{s} had {old} as chef, but that has changed, now {v} has it taken over.",
            "That has changed, now {v} is responsible for {s}, the decision came from above.",
            "Since the reorganisation {v} leads {s}, I have it just in the Intranet read.",
            "My chef has today announced that {v} {s} takes over, also we must all the emails new address.",
            "Doch, {s} is with {v}, I had today a long call with {v} about the Termine.",
        ),
        ("So {v} leads {s}.", "Understood, {s} is with {v}."),
    ),
    "status": (
        (
            "{s} is {v}, I was this morning there and have it myself seen.",
            "Na ja, what shall I say, {s} is {v}, the colleagues are a bit frustrated.",
            "The actual stand of {s} is: {v}, genau, and the Kaffeemaschine is again broken.",
            "I tell you it because you it eventually need: {s} is {v}.",
            "My chef asked in the meeting how it goes with {s} and I have said that it {v} is, ah "
            "no, I mean the second part, but yes, {v}.",
            "Since two years we work on {s}, and now it is {v}, that is halt so with big projects.",
        ),
        (
            "Not anymore {old}, since Friday {s} is {v}, the colleagues have really Gas given.",
            "Last week {s} was still {old}, but that has changed, now it is {v}.",
            "That has changed, now {s} is {v}, I have it today in the status meeting heard.",
            "Since yesterday {s} is {v}, who had that thought.",
            "My chef says that {s} since this week {v} is, also we need a new Zeitplan.",
            "Genau, {s} is {v}, and the Kantine had today Currywurst, very good.",
        ),
        ("So {s} is {v} at the moment.", "Noted, {s}: {v}."),
    ),
    "office": (
        (
            "{s} works in {v}, because the whole team there sits, since two years already.",
            "I have {s} today called, in {v}, where the office is, and it was very nice.",
            "So that you it know, {s} sits in {v}, also for Termine you must the travel plan.",
            "{s} is in the office in {v}, genau, not in the Zentrale.",
            "I think I told you not that {s} in {v} works, ah no, I mean the Dienstort, the flat is "
            "elsewhere, but the office is {v}.",
            "Na ja, {s} has the desk in {v} and comes only sometimes to us.",
        ),
        (
            "{s} is not anymore in {old}, since last week {s} works in {v}.",
            "{s} was in {old}, but that has changed, now the office is in {v}, the move was last month.",
            "That has changed, now {s} sits in {v}, the Versetzung came very fast.",
            "Since the first of the month {s} works in {v}, I have {s} at the farewell party seen.",
            "My chef told me that {s} now to {v} changed is, also the Termine become more complicated.",
            "Doch, {s} works in {v}, I have yesterday with {s} telephoned, the connection was bad.",
        ),
        ("So {s} works in {v}.", "Understood, {s}'s office is in {v}."),
    ),
    "role": (
        (
            "{s} is {v} with us, since two years, and does that very good.",
            "I have {s} today in the Kantine met, {s} works as {v} and has a lot to do.",
            "So that you it know, {s} is {v}, genau, not in the other department.",
            "Our {v}, {s}, has today a cake brought, because of the birthday.",
            "Na ja, {s} makes the job as {v}, ah no, I mean officially, on the paper, but yes, {v}.",
            "You know that {s} {v} is, because {s} always the reports signs.",
        ),
        (
            "{s} is not anymore {old}, since last week {s} is {v}, that was a big step.",
            "{s} was before {old}, but that has changed, now {s} works as {v}.",
            "That has changed, now {s} is {v}, the promotion came surprising.",
            "Since the reorganisation {s} is {v}, we have it with a Sekt celebrated.",
            "My chef says that {s} from now on {v} is, also I must the Organigramm new make.",
            "Doch, {s} works as {v}, I have the new Visitenkarte seen.",
        ),
        ("So {s} works as {v}.", "Noted, {s} is {v}."),
    ),
    "diet": (
        (
            "I eat {v}, since two years, the doctor has it said and I feel me better.",
            "For the Essen at the events: I eat {v}, genau, please do not forget that.",
            "Na ja, you know, I am a bit complicated with the food, I eat {v}, also I bring often my "
            "own Brotdose.",
            "Because I {v} eat, is the Kantine for me always a problem, ah no, I mean not always, but often.",
            "My wife says I am strange, but I eat halt {v}, that is so since the Kur.",
            "I tell you it once: {v}, that is how I eat, and please write it to the Caterer.",
        ),
        (
            "I ate {old}, but not anymore, since last week I eat {v}, the doctor wanted it.",
            "Not anymore {old}, since the Kur I eat {v}, that is better for my stomach.",
            "That has changed, now I eat {v}, I have a book read and am convinced.",
            "Since this month I eat {v}, my wife cooks now also so, na ja, she must.",
            "The doctor has me told that I from now on {v} eat must, also please note it for the Essen.",
            "Genau, I eat {v}, and the weather here is since days terrible.",
        ),
        ("So you eat {v}.", "Noted: food {v} for you."),
    ),
    "seat": (
        (
            "In the plane I sit always on {v}, because I otherwise no air become.",
            "When you flights for me book: {v}, genau, that is important for me.",
            "I fly since two years only on {v}, my back thanks me.",
            "Na ja, I am a bit eigen, but I want {v}, ah no, I mean on long flights, but also on the "
            "short ones, so {v}.",
            "Because I on {v} sitting want, book please early, the good places are fast gone.",
            "My Reisebuero knows it already: {v}, always, since many years.",
        ),
        (
            "I sat always on {old}, but not anymore, since the last flight I want {v}.",
            "Not anymore {old}, that has changed, now I take {v}, my knee is better so.",
            "That has changed, now I sit on {v}, I have it on the last trip tested.",
            "Since my operation I book {v}, the doctor has it recommended.",
            "Since last week I want {v}, also please change that in my Profil.",
            "Genau, {v}, so I sit in the plane, and the Lufthansa had again Verspaetung.",
        ),
        ("So {v} on your flights.", "Understood, you fly on {v}."),
    ),
    "contact": (
        (
            "You reach me the best over {v}, because I the emails only in the evening read.",
            "Na ja, for fast things: {v}, genau, I look there always.",
            "Since two years I use {v} for everything, also write me there.",
            "Because I mostly on the road am, is {v} the best way, ah no, I mean for the short "
            "things, but yes, {v}.",
            "My colleagues know it: if it burns, then {v}.",
            "I tell you it so you can it note: {v} is how you me reach.",
        ),
        (
            "Before you reached me over {old}, but not anymore, since last week only {v}.",
            "Not anymore {old}, that has changed, now {v}, the firm wants it so.",
            "That has changed, now I am only on {v}, the other one I have cancelled.",
            "Since the IT the rules changed has, reach me please over {v}.",
            "Since Monday I use {v}, my chef has it for all of us so decided.",
            "Genau, {v}, there you find me, and my laptop has again no battery.",
        ),
        ("So I reach you on {v}.", "Noted: {v} is the way to you."),
    ),
    "meetings": (
        (
            "My meetings I have {v}, because I otherwise my work not fertig make.",
            "Na ja, put the Termine {v}, genau, that is for me the best.",
            "Since two years I make all meetings {v}, also the whole team knows it.",
            "Because I {v} the best concentrated am, want I the meetings then, ah no, I mean the long "
            "meetings, but yes, {v}.",
            "The Jour fixe and everything else please on Mondays, no wait, falsely, not Mondays, {v}, my "
            "calendar is otherwise full.",
            "I tell you it, because you it eventually need: meetings with me {v}.",
        ),
        (
            "I had the meetings always {old}, but not anymore, since this week {v}.",
            "Not anymore {old}, that has changed, now please {v}, because of the Kita.",
            "That has changed, now I make the meetings {v}, my Gleitzeit is new.",
            "Since I the new contract have, are my Termine {v}.",
            "Since the summer time I want the meetings {v}, also please put everything new.",
            "Genau, meetings {v}, and the coffee here is since the new machine terrible.",
        ),
        ("So your meetings go {v}.", "Understood, Termine with you {v}."),
    ),
    "reports": (
        (
            "The reports I want as {v}, because I them otherwise not read, honestly.",
            "Na ja, for the Statusbericht: {v}, genau, nothing else.",
            "Since two years I become the updates as {v}, and that works good.",
            "Because I little time have, please {v}, ah no, I mean for the weekly reports, but yes, {v}.",
            "My chef wants it different, but I want {v} for my reports.",
            "I tell you it once for all: reports as {v}, then I am happy.",
        ),
        (
            "I wanted {old}, but not anymore, since last week I want {v} for the reports.",
            "Not anymore {old}, that has changed, now {v}, the new chef likes that more.",
            "That has changed, now please {v} for the updates, I have no time more for the long things.",
            "Since this quarter I want the reports as {v}, tell it please the team.",
            "Since Monday I become the reports as {v}, and I find that better.",
            "Genau, {v} for the reports, and the Drucker is again broken.",
        ),
        ("So your reports come as {v}.", "Noted: {v} for your updates."),
    ),
}

WEEKDAYS: Final = ("Tuesday", "Wednesday", "Friday", "Saturday")
CHANNELS: Final = ("Stashcat", "Ginlo", "Xing")

DISTRACTORS: Final = (
    ("question", "Na ja, and {p}, is that still {day} or not? I have it forgotten."),
    ("question", "Who is the actual chef of {p}, do you know it? I find it nowhere."),
    ("question", "Had {p} really {money}, or have I that dreamed?"),
    ("question", "Sits {n} still in {city}? I wanted to write a postcard."),
    ("question", "Eventually you know it: has {n} now {p}, or is that still open?"),
    ("question", "Were we with {p} not in {venue}? I am not sure anymore."),
    ("hypothetical", "Eventually {p} moves to {day}, but that is not sure, only an idea from me."),
    ("hypothetical", "If {p} {money} had, could we a second Azubi take, but it has that not."),
    ("hypothetical", "Eventually {n} goes to {city}, who knows, {n} thinks about it since two years."),
    ("hypothetical", "If I {diet} would eat, the Kantine would be easier, but I do that not, na ja."),
    ("hypothetical", "It would be nice if {p} in {venue} took place, but that has not changed, forget it."),
    ("rumour", "My colleague says {p} shall be moved to {day}, but that is only Flurfunk."),
    ("rumour", "In the Kantine they say {n} goes to {city}, genau, but I believe it not."),
    ("rumour", "My chef has heard that {p} eventually {money} becomes, but nothing is signed since weeks."),
    ("denial", "No, {p} is not moved to {day}, that was a misunderstanding, nothing has changed."),
    ("denial", "We have {venue} not taken for {p}, doch, that was the other department."),
    ("denial", "{n} goes not to {city}, genau, that was a joke in the Kantine."),
    ("third_party", "My wife eats {diet} since two years, also I cook at home mostly like that."),
    ("third_party", "{n} eats since the Kur {diet}, genau, and sits in the plane always on {seat}."),
    ("third_party", "My brother sits always on {seat}, he is a bit strange, na ja."),
    ("third_party", "My chef reaches you only over {channel}, he has no email, can you imagine."),
    ("collision", "We were on the weekend on the {p}, beautiful hiking, the weather was top."),
    ("collision", "In {city} there was again a Stau on the Autobahn, terrible, two hours."),
    ("collision", "The bakery makes now a cake {diet}, for the Kinder, genau."),
    ("collision", "{weekday} is with us Schnitzel day in the Kantine, since two years."),
    ("collision", "{channel} had yesterday a Stoerung, nothing went, not anymore the whole afternoon."),
    ("outdated", "In my old notes stands the start of {p} as {day}, but that is from last year, long over."),
    ("outdated", "Before, {n} had {p}, but that is since long past, not actual anymore."),
    ("outdated", "Earlier {p} had {money}, but that was the calculation from last year, over."),
)

QUERIES: Final = (
    (
        "Can you organise the Essen for the {p} start on {day}? Where it is and what I eat, you know it.",
        ("launch_day", "venue", "diet"),
    ),
    ("Book me please the flight to the {p} start, with my seat, you know.", ("launch_day", "seat", "venue")),
    ("Who has the money of {p} under him, and how much is it still?", ("owner", "budget")),
    ("Write please the stand of {p} to the chef of it, in the form that I like.",
     ("status", "owner", "reports")),
    ("Make me a Termin with the one who {p} leads, at a time that fits me.", ("owner", "meetings")),
)

PREFIXES: Final = ("Na ja, ", "Also, ", "Ach, quickly: ", "Moin, ")
SUFFIXES: Final = (" Or?", " Genau.", " Na ja.", " Tschuess for now.")
WRAP_RATE: Final = 0.25
"""Share of user statements wrapped in filler."""
LOWER_RATE: Final = 0.1
"""Share of user statements typed in lower case without the final full stop."""

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (
        "You are the assistant of a colleague who writes long chat messages in English with German "
        "word order and German words in between. Keep every project, person and personal preference "
        "up to date, also when a message corrects itself or says that something has changed.",
    ),
    (  # user chatter
        "Genau.", "Na ja.", "Moment, I look.", "Ach so, okay.", "Alles klar, thanks.", "Ja, ja.",
        "Doch, doch.", "Super, danke.", "I am back, sorry, the chef called.", "Wait a moment please.",
        "So, further.", "That is halt so.", "Mahlzeit!", "Kein Problem.",
    ),
    (  # episodes ({p}, {n})
        "Today I had with {n} a long Mittagessen, we have about {p} spoken, but nothing decided.",
        "The {p} meeting was again too long, na ja, like always.",
        "{n} has today Kuchen brought for the whole {p} team.",
        "I sat the whole morning on the {p} Praesentation, and the Beamer went not.",
        "The Zug was late, also I came too late to the {p} Abstimmung.",
        "Was today the whole day on the phone, nothing with {p}.",
        "{n} and I have the {p} documents sorted, that was a lot of work.",
        "Betriebsausflug today, we were in the Biergarten, no {p} at all.",
    ),
    (  # tasks ({p}, {n})
        "Can you me please a short summary of {p} write?",
        "Write please a mail to {n} about the {p} Zeitplan.",
        "What is for {p} still open, from all that I told you?",
        "Make me a list what before the {p} start still happen must.",
    ),
    (  # the assistant's chatter
        "Alles klar, go on.", "No stress, tell me more.", "I am here when you need me.",
        "Take all the time you need.", "Good to hear that.", "Understood, carry on.",
    ),
    (  # hedges
        "I read that as a maybe, so I change nothing for now.",
        "That sounds unconfirmed; the record stays as it is.",
        "I will wait until it is really decided.",
    ),
    (  # answers ({p})
        "I will look at everything you told me about {p}.",
        "Here is what I know about {p} so far.",
        "Let me collect the points on {p}.",
    ),
    (
        "Here is a first version for you.", "I wrote it below; tell me what to change.",
        "Finished, see below.",
    ),
)
"""The system prompt, user chatter, episodes, tasks and the assistant's chatter, hedges, answers and
task replies (the generator's ``SHARED``, reworded)."""
