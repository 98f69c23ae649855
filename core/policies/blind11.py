"""The ``blind11`` wording: a twelfth set of phrasings and vocabularies, frozen before its first run.

``blind10`` is held out and has been run by the lead to report; this is a further held-out set, in
a register none of the earlier sets uses. It was written by a helper who read ``generator.py`` and
``blind10`` in full, the first 30 lines of ``blind9`` and a grep of the top-level assignments of
``blind8`` and ``blind9``, the answer key's docstring, the generator's section and the datasets
table of docs/policies.md, the README's lines that name the wordings (the paragraph beside them,
which sums up ``focus`` in a few sentences, went past on screen), the tests of ``blind10``,
tests/core/wording_checks.py and the wording-registering parts of the bench script, the CLI and
tests/core/test_policies_benchmark.py. A throwaway script checked that its names, cities and values
are in none of the earlier sets nor in ``generator.py`` (printing the earlier sets' values of the
kinds that collided, so as to pick others), and listed the four-word runs its phrases share with
the earlier sets' templates, distractors, queries and filler (by loading their data, not by reading
their text); the phrases that came close to an earlier one were rewritten until only common runs
were left ("for the {s} launch", "{v} instead of {old}"). The helper did not open any policy
module nor the sections of docs/policies.md that describe how the policies work, and ran no policy
and no bench_policies on it: it was committed with tests pinning its digest and the digest of its
10,000-turn seed-7 session before any policy's first run on it. Only the generator was run, with
tests that check the answer key against the messages (10,000 turns, seed 7: 170 facts, 253
updates, 9 checkpoints).

The wording procedure was fixed first:

* one register throughout, for the user and for the assistant: a planner who keeps everything in
  Markdown, in American English — values inside tables ("| launch date | **{v}** |"), bullet lists
  and checklists ("- [x] {s} launch venue booked: **{v}**"), bold and code spans, pasted YAML
  blocks and single JSON lines (``"venue": "{v}"``, no braces); values settled by elimination and
  negation ("Not email, not Slack — {v} is where I actually answer"); American dates ("Thu
  5/14", "the Tuesday after Labor Day"), dollar amounts ("$310K", "$1.35M"), "DRI", "standup";
* every kind of fact gets five first statements and six updates; the updates vary: two name the
  old value — one quotes the earlier message in a Markdown block quote ("> {s} launches {old}")
  and then replaces it ("Scratch that — it's **{v}** now"), so the old value comes back quoted in
  the message that supersedes it, and one swaps it ("Swap {old} for **{v}**", "{v} in place of
  {old}"); three only imply it ("pushed", "bump to", "instead", "reverting", a ticked checklist
  item "new: `{v}`"); the last is worded like a first statement, with no word of change; every
  kind gets two acknowledgements in the same Markdown (a table row, a saved key, or a block quote of
  the statement, "> {s} launches {v}", which a later update's quote of the old value repeats);
* the distractors carry the same Markdown: conditionals and fallbacks that commit to nothing ("If
  {venue} falls through we could try somewhere downtown — not a plan", a "Plan B" table of a real
  day and venue), quoted stale lines and pasted YAML from old drafts marked obsolete, bold
  negations ("**no** move to {day}") and an unchecked, rejected checklist item;
* every vocabulary is new (names, cities, values, acknowledgements, distractors, queries, filler;
  the weekday names aside), and so are the system prompt, the user's chatter, the episodes and
  tasks and the assistant's chatter, hedges, answers and task replies (:data:`SHARED`); some
  statements are wrapped in filler on lines of their own or come out in lower case, as in
  ``blind2``.

Key side: the generator reads this module; no policy module may import it. Do not edit it: write
another set instead.
"""

from __future__ import annotations

from typing import Final

PROJECTS: Final = (
    "Atlas",  # the worked example's project (SPEC §4) must come first
    "Mesquite", "Bluebonnet", "Saguaro", "Sawtooth", "Tahoe", "Shenandoah", "Ozark", "Palomino",
    "Bayou", "Appaloosa", "Magnolia", "Cottonwood", "Prairie", "Flatiron", "Boardwalk", "Keystone",
    "Sandhill", "Bristlecone", "Tumbleweed", "Catskill", "Adirondack", "Mojave", "Sonoran", "Everglade",
)
PEOPLE: Final = (
    "Dakota", "Brianna", "Tanner", "Maribel", "Deshawn", "Kelsey", "Trevor", "Lupita", "Garrett",
    "Jasmine", "Colton", "Rochelle", "Darnell", "Whitney", "Hunter", "Imani", "Cody", "Marisol",
    "Travis", "Latoya", "Bryce", "Esperanza", "Wyatt", "Shelby",
)
CITIES: Final = (
    "Tulsa", "Boise", "Spokane", "Albuquerque", "Savannah", "Omaha", "Raleigh", "Tucson", "Des Moines",
    "Chattanooga", "Madison", "Sacramento",
)
SUBJECT_FORMS: Final = ("{n}", "{n}", "`{n}`", "**{n}**")
"""How a project is named in a statement ({n} the name)."""

VALUES: Final[dict[str, tuple[str, ...]]] = {
    "launch_day": (
        "Thu 5/14", "Tue 6/2", "Wednesday 7/8", "Fri 7/24", "Mon 8/10", "the Tuesday after Labor Day",
        "Oct 6", "Thu 9/17",
    ),
    "venue": (
        "the Marlow Ballroom", "Foundry Hall", "the Greenpoint warehouse", "the Lyric Theater mezzanine",
        "the 14th-floor sky lounge", "the Fairmont's Gold Room", "the taproom on Fifth Street",
    ),
    "budget": ("$48,500", "$1.35M", "$310K", "USD 72,000", "$2.75 million", "$640K", "$19,900"),
    "owner": PEOPLE,
    "status": (
        "all green", "flagged yellow", "flagged red", "parked until Q3", "in final QA", "in code freeze",
        "waiting on the security review",
    ),
    "office": CITIES,
    "role": (
        "launch coordinator", "customer success lead", "growth analyst", "infrastructure lead",
        "VP of partnerships", "field marketing lead", "sales engineer", "accessibility specialist",
    ),
    "diet": (
        "Whole30", "low-glycemic", "carnivore", "seafood-free", "low-oxalate", "high-protein", "low-fat",
    ),
    "seat": ("Comfort+", "Economy Plus", "front-cabin aisle", "window behind the wing", "rows 8-12"),
    "contact": ("Google Voice", "Basecamp", "GroupMe", "RingCentral", "Asana comments", "Twist", "Voxer"),
    "meetings": (
        "right after standup", "after 3pm Eastern", "on Mondays and Wednesdays",
        "between 10 and noon Pacific", "no earlier than 9:30", "right after school drop-off",
    ),
    "reports": (
        "a Loom walkthrough", "a Notion page", "an Airtable view", "a five-bullet checklist",
        "a Markdown table", "a GitHub project board", "a Google Doc with comments",
    ),
}

TEMPLATES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # (facts, updates, assistant echoes); {s} subject, {v} value, {old} the value it replaces
    "launch_day": (
        (
            "Launch plan for {s}:\n\n| item | value |\n|---|---|\n| launch date | **{v}** |\n"
            "| comms | draft in review |",
            "Ruled out the holiday week and the end of the quarter, so {s} launches **{v}**.",
            "- [x] {s} launch date locked: `{v}`",
            "Pasted from the {s} release doc:\n\n```yaml\nlaunch: {v}\n```",
            "{s} goes out the door on **{v}**. That's the commitment.",
        ),
        (
            "> {s} launches {old}\n\nScratch that — it's **{v}** now.",
            "Swap {old} for **{v}** on the {s} launch row.",
            "Pushed the {s} launch; it lands **{v}** instead (release notes to follow).",
            "Bump {s} to **{v}** in the launch column, please — the earlier date is off the table.",
            "- [ ] hold the current {s} date\n- [x] move the {s} launch to **{v}**",
            "Status board, {s} row:\n\n| project | launch |\n|---|---|\n| {s} | {v} |",
        ),
        (
            "> {s} launches {v}\n\nLogged ✅ — the launch row matches.",
            "Got it — the {s} launch sits on **{v}** in the plan.",
        ),
    ),
    "venue": (
        (
            "Toured the options for {s}. The convention center was too big, the co-op too small — "
            "**{v}** it is.",
            "`\"venue\": \"{v}\"` — that's the {s} event config as of this morning.",
            "- [x] {s} launch venue booked: **{v}**",
            "| {s} launch | where |\n|---|---|\n| party | {v} |",
            "Deposit's in: {s} celebrates at {v}.",
        ),
        (
            "> {s} party at {old}\n\nThat's dead — they gave our date away. **{v}** instead.",
            "Putting {v} in place of {old} for the {s} launch.",
            "Venue swap for {s}: we're now at **{v}**.",
            "Our hold on the first room expired; {s} is at **{v}** for the launch now.",
            "- [x] re-book the {s} launch at **{v}**\n- [x] cancel the previous hold",
            "Where's the {s} launch? {v}. Deposit cleared this week.",
        ),
        (
            "Booked in the plan: **{v}** for the {s} launch ✅",
            "| {s} | venue | {v} |  ← saved",
        ),
    ),
    "budget": (
        (
            "{s} budget, straight from the finance sheet:\n\n```yaml\nbudget: {v}\n```",
            "Finance came back on {s}: not the full ask, not zero — **{v}**.",
            "- [x] {s} budget approved at `{v}`",
            "| project | budget |\n|---|---|\n| {s} | {v} |",
            "The spend ceiling for {s} is {v}, and that's all-in.",
        ),
        (
            "> {s} has {old} to spend\n\nNot anymore — finance moved it to **{v}**.",
            "Replace {old} with {v} in the {s} budget cell.",
            "Bump the {s} budget to **{v}** — the CFO signed off this morning.",
            "{s} got re-forecast. Working number is `{v}` going forward.",
            "If anyone asks, the {s} envelope changed this week: **{v}**.",
            "Finance sheet for {s} reads `{v}`.",
        ),
        (
            "> {s} budget: {v}\n\nCopied into the sheet.",
            "✅ {s} budget recorded as {v}.",
        ),
    ),
    "owner": (
        (
            "Owner for {s}: **{v}**. DRI on everything launch-related.",
            "| project | DRI |\n|---|---|\n| {s} | {v} |",
            "- [x] assign the {s} owner: @{v}",
            "We went back and forth on {s} — not me, not the agency — {v} is driving it.",
            "`owner: {v}` is what the {s} charter says.",
        ),
        (
            "> {old} owns {s}\n\nNot after today — {v} is picking it up.",
            "Put **{v}** in for {old} as the {s} DRI.",
            "{s} has a new DRI: @{v}. Please route questions there.",
            "Reassigned {s}.\n\n- [x] handoff doc written\n- [x] **{v}** accepted",
            "The {s} handoff is done; **{v}** has the keys now.",
            "DRI on {s} is {v}.",
        ),
        (
            "Roster noted — {v} on {s} ✅",
            "| {s} | owner | @{v} |",
        ),
    ),
    "status": (
        (
            "Weekly rollup:\n\n| project | status |\n|---|---|\n| {s} | {v} |",
            "Quick pulse on {s}: **{v}**.",
            "- [x] {s} status check: `{v}`",
            "Checked the board — {s}: **{v}**.",
            "{s}, per the status YAML: `status: {v}`",
        ),
        (
            "> {s}: {old}\n\nStale. It's **{v}** as of standup.",
            "{s} badge: swap {old} out, put {v} in.",
            "Re-rate {s} on the board: **{v}**.",
            "- [x] re-rate {s}\n  - now: **{v}**",
            "Standup recap: {s} is {v} — different story from last week.",
            "Board says {s} is {v}.",
        ),
        (
            "Board refreshed — {s}: **{v}**.",
            "Got it, {s} tracked as `{v}`.",
        ),
    ),
    "office": (
        (
            "Team directory excerpt:\n\n| name | office |\n|---|---|\n| {s} | {v} |",
            "{s} isn't remote and isn't at HQ — they're in **{v}**.",
            "- [x] confirm {s}'s office: {v}",
            "`\"office\": \"{v}\"` — from {s}'s HR profile.",
            "{s} commutes into our {v} office most days.",
        ),
        (
            "> {s} sits in {old}\n\nOld news. {s} moved out to **{v}** last month.",
            "Directory fix: {v} instead of {old} for {s}.",
            "{s} took the transfer to **{v}**; their desk here is cleared out.",
            "- [x] {s} relocation approved\n- [x] new office: **{v}**",
            "{s} is officially a {v} local now; the lease came through.",
            "Office for {s}: {v}.",
        ),
        (
            "Directory noted: {s} in **{v}**.",
            "| {s} | {v} | ✅ |",
        ),
    ),
    "role": (
        (
            "| name | title |\n|---|---|\n| {s} | {v} |",
            "{s}'s title, per the org chart: **{v}**.",
            "- [x] intro {s} to the team as our {v}",
            "Not a contractor, not an intern: {s} is our {v}.",
            "`title: {v}` — {s}'s badge says it too.",
        ),
        (
            "> {s} is our {old}\n\nTitle change went through — {s} is **{v}** now.",
            "Retitle {s}: {v} in place of {old}.",
            "{s} moved over to **{v}** this cycle.",
            "Org chart refresh:\n\n- [x] {s} re-leveled as {v}",
            "New hat for {s}: {v}.",
            "{s}: {v}, per HR.",
        ),
        (
            "Org chart noted — {s}, **{v}**.",
            "Logged {s} as `{v}` ✅",
        ),
    ),
    "diet": (
        (
            "For catering, my line item:\n\n| who | diet |\n|---|---|\n| me | **{v}** |",
            "Not picky, just **{v}** — please flag it for every offsite.",
            "- [x] tell catering I'm {v}",
            "`dietary: {v}` — paste that into my attendee profile.",
            "Food-wise, {v} is my thing.",
        ),
        (
            "> I'm {old}, for catering\n\nIgnore that — **{v}** now.",
            "Swap {old} out of my catering notes; put {v} in.",
            "Nutritionist says {v} for the next while; please adjust my meal orders.",
            "- [x] new diet: **{v}**\n- [ ] tell the caterer (can you?)",
            "Going {v} instead — the last plan wasn't working for me.",
            "My catering line: {v}.",
        ),
        (
            "Added to your profile: `dietary: {v}` ✅",
            "> {v}\n\nGot it — that goes on every catering order of yours.",
        ),
    ),
    "seat": (
        (
            "Travel profile:\n\n| pref | value |\n|---|---|\n| seat | {v} |",
            "On flights: not the middle, never the back — **{v}**.",
            "- [x] set my airline seat pref to {v}",
            "`seat: {v}` in my travel profile, please.",
            "When I fly, my seat pick is {v}.",
        ),
        (
            "> seat: {old}\n\nChanging that — **{v}** from now on.",
            "For flights, {v} in place of {old}.",
            "Reverting my seat pref to **{v}** — the experiment's over.",
            "Bump my seat pref to {v} when you book.",
            "- [x] change the flight seat pref\n  - new: `{v}`",
            "My seat pick on planes: {v}.",
        ),
        (
            "Travel profile saved — seat **{v}** ✈️",
            "| seat | {v} | ✅ |",
        ),
    ),
    "contact": (
        (
            "Contact card:\n\n| channel | use for |\n|---|---|\n| **{v}** | everything |",
            "Not email, not Slack — {v} is where I actually answer.",
            "- [x] move my notifications to {v}",
            "`preferred_channel: {v}` — put that on my card.",
            "I live on {v}; that's the place to reach me.",
        ),
        (
            "> reach me on {old}\n\nNope, muted it. Use **{v}**.",
            "Drop {old}; {v} in its place.",
            "Moved all my pings to {v} this week.",
            "- [x] notifications off on the old app\n- [x] on **{v}** now",
            "Use {v} instead for anything time-sensitive.",
            "`preferred_channel` for me is {v}.",
        ),
        (
            "Saved: `preferred_channel: {v}` ✅",
            "> {v}\n\nSaved as the way to reach you.",
        ),
    ),
    "meetings": (
        (
            "Calendar rules:\n\n- meetings **{v}**\n- no recurring invites without an agenda",
            "Not lunch, not late evening — book me {v}.",
            "- [x] block my calendar so meetings land {v}",
            "`meeting_window: {v}` — add it to my scheduling link.",
            "I'm only bookable {v}.",
        ),
        (
            "> meetings {old}\n\nNo longer works for me. Make it **{v}**.",
            "Calendar rule swap: {v} instead of {old}.",
            "New school schedule — meetings {v}, please, starting Monday.",
            "- [x] rework my scheduling link\n  - window: **{v}**",
            "Starting next week, meetings {v} — the current window is killing me.",
            "Bookable window: {v}.",
        ),
        (
            "Scheduling link set — meetings **{v}**.",
            "Got it: `meeting_window: {v}`.",
        ),
    ),
    "reports": (
        (
            "Report format I want:\n\n| cadence | format |\n|---|---|\n| weekly | {v} |",
            "No decks, no long docs — send status as {v}.",
            "- [x] agree my report format: {v}",
            "`report_format: {v}` — that's my standing ask.",
            "Status reports should come as {v}.",
        ),
        (
            "> reports as {old}\n\nLet's not. Switch to **{v}**.",
            "Retire {old} for my reports; {v} instead.",
            "Starting this sprint, I'd like {v} for status.",
            "- [x] change my report format\n  - now: **{v}**",
            "My boss wants {v} going forward, so send mine that way.",
            "For my status reports: {v}.",
        ),
        (
            "Report format saved: **{v}** ✅",
            "Will do — your reports as {v}.",
        ),
    ),
}

WEEKDAYS: Final = ("Tuesday", "Wednesday", "Sunday", "Monday")
CHANNELS: Final = ("GroupMe", "RingCentral", "Voxer")

DISTRACTORS: Final = (
    ("question", "Quick q — {p}: still **{day}**? Or has that shifted?"),
    ("question", "Who's the DRI on {p} right now? The roster looks stale."),
    ("question", "What did finance land on for {p}? I have {money} in my head but I'm not sure."),
    ("question", "Is {n} still out of {city}?"),
    ("question", "Did we lock {venue} for {p}, or is that still open?"),
    (
        "hypothetical",
        "If {venue} falls through we could try somewhere downtown — not a plan, just a fallback.",
    ),
    ("hypothetical", "Hypothetically, if {p} slipped to {day}, would marketing survive? Not proposing it."),
    ("hypothetical", "If we had {money} for {p} we'd add a second vendor. We don't, so it's moot."),
    ("hypothetical", "What if {n} moved to {city}? Just spitballing."),
    (
        "hypothetical",
        "Plan B for {p}, only if plan A collapses:\n\n| launch | venue |\n|---|---|\n| {day} | {venue} |",
    ),
    ("rumour", "Hallway rumor: {p} might slide to {day}. Nothing in writing."),
    ("rumour", "Someone on the shuttle said {n} is eyeing {city}. Grain of salt."),
    ("denial", "To be clear, {p} stays put — **no** move to {day}; that thread was a joke."),
    ("denial", "No, we never booked {venue} for {p} — that was a different team."),
    ("denial", "- [ ] move {p} to {day} — **rejected** in review, so it stays unchecked"),
    ("denial", "{n} isn't going anywhere near {city}, whatever the calendar invite implied."),
    ("third_party", "My stepdad went {diet} and won't stop talking about it."),
    ("third_party", "{n}'s manager insists on {seat} every trip."),
    ("third_party", "My contractor replies exclusively over {channel}, which is a whole thing."),
    ("collision", "The {p} coffee roaster downtown just opened a second shop."),
    ("collision", "There's a {city}-style barbecue truck on Fifth today."),
    ("collision", "The cafeteria's {diet} bowl sold out by 11."),
    ("collision", "{weekday} is when the printer gets serviced; plan around it."),
    ("collision", "Our {channel} workspace theme changed and I hate it."),
    ("outdated", "> {p} launches {day}\n\nFound that in a thread from last spring — obsolete, ignore it."),
    ("outdated", "The archived planning doc still lists {n} as the owner of {p}. That doc is dead."),
    ("outdated", "```yaml\nbudget: {money}\n```\n\nThat's from a {p} draft two quarters back; not current."),
)

QUERIES: Final = (
    (
        "Draft the {p} launch-day lunch plan for {day} as a table: venue, time, and my meal.",
        ("launch_day", "venue", "diet"),
    ),
    (
        "Put together my travel checklist for the {p} launch — date, seat, where it is.",
        ("launch_day", "seat", "venue"),
    ),
    ("Which DRI do I ping about {p} money, and what's the remaining balance?", ("owner", "budget")),
    ("Write up the {p} status for its owner, in my format.", ("status", "owner", "reports")),
    ("Book time with me and the {p} owner that fits my calendar rules.", ("owner", "meetings")),
)

PREFIXES: Final = ("For the running doc:\n\n", "Adding to the plan:\n\n", "Heads-up for the notes:\n\n")
SUFFIXES: Final = (
    "\n\n_(mirrored in the planning doc)_", "\n\nHoller if that breaks anything.",
    "\n\n— sent from my phone, pardon the formatting",
)
WRAP_RATE: Final = 0.25
"""Share of user statements wrapped in filler."""
LOWER_RATE: Final = 0.05
"""Share of user statements typed in lower case without the final full stop."""

SHARED: Final[tuple[tuple[str, ...], ...]] = (
    (
        "You support a planner who keeps everything in Markdown notes. Track each project, each "
        "person and what the planner prefers, from the first message to the last, and keep the plan "
        "current.",
    ),
    (  # user chatter
        "ty!", "kk", "👍", "sgtm", "word", "lmk", "ha, fair", "ok cool", "omw", "yep yep", "got it, thx",
        "circling back later", "nice nice", "hmm ok", "🙏",
    ),
    (  # episodes ({p}, {n})
        "Whiteboarded the {p} timeline with {n}; we filled two walls.",
        "{p}'s sprint demo went sideways for a minute, then recovered.",
        "Grabbed tacos with {n} — mostly talked about their kid's soccer team.",
        "Spent two hours reformatting the {p} planning doc. Worth it.",
        "{n} walked me through the {p} analytics dashboard.",
        "Inbox zero for once. Don't expect it to last.",
        "The {p} retro got heated over the estimates, but we landed okay.",
        "Paired with {n} on the {p} vendor contract this afternoon.",
    ),
    (  # tasks ({p}, {n})
        "Turn my {p} notes into a clean checklist, please.",
        "Two-line note to {n} re {p}, please.",
        "Make a table of the open {p} risks.",
        "What's still unchecked on the {p} launch list?",
    ),
    ("Happy to help!", "Of course.", "👍 Anytime.", "Sounds good.", "No problem at all.", "Enjoy!"),
    (  # hedges
        "Noted as a maybe — I won't change the plan for it.",
        "Keeping that out of the plan until it's confirmed.",
        "Got it; filing that under what-ifs.",
    ),
    (  # answers ({p})
        "Pulling up the {p} section of the plan.",
        "Checking my notes for {p}…",
        "Here's the current {p} table as I have it.",
    ),
    ("Done — draft below.", "Here's the checklist.", "Table's below; edit freely."),
)
"""The system prompt, user chatter, episodes, tasks and the assistant's chatter, hedges, answers and
task replies (the generator's ``SHARED``, reworded)."""
