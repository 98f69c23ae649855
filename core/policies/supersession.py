"""Supersession from linguistic structure: which statements a later statement about the same thing replaces.

The tracker reads each message once, in order, and extracts at most one *claim*: a statement that
sets an attribute (a *slot*) of a *subject*. A later claim about the same ``(subject, slot)``
supersedes the earlier ones unless it is worded as a refinement ("not just", "as well as"). It works
only from the text it is given, in six steps, each built on general properties of English rather
than on particular sentences:

1. **Is it an assertion?** Questions are set aside sentence by sentence ("Kelp ships Friday. Can
   you note that?" still asserts the first), and so are sentences that hedge (modal verbs, "what
   if", "maybe", "I doubt", "X thinks", "proposed"), report hearsay ("apparently", "rumour",
   "someone said", "unconfirmed"), retract ("ignore that", "never mind"), point to outdated material
   ("old notes say…", "outdated") or narrate a past episode ("yesterday", "last week", "… ago") with
   nothing about the present ("now", "as of", "since"). A short hedge of its own ("Nothing
   confirmed.") qualifies the whole message. A one-off task for the assistant about a named thing
   ("Summarise the open questions for Kelp") asserts nothing; an instruction about the speaker's
   own things ("Book me aisle seats") is a standing preference.
2. **What is asserted, what is negated?** Negation ("not", "n't", "no longer", "no more") and
   old-value markers ("from X to", "instead of X", "rather than X", "used to X", "down from X",
   "(was X)", "off X", "dropped X"…) mark spans that name the value being *replaced*; what remains
   is asserted. When nothing remains, a negated verb of change ("We are not moving Kelp to Monday")
   is a denial and a past state ("Tom used to lead Kelp", "was in Lagos") is not current; a negated
   state ("I don't eat pork") is still a claim. The negated words are kept as evidence of which
   earlier claim is replaced.
3. **Who is it about?** Names are learnt from the session: a capitalised word seen mid-sentence is a
   name; one only ever seen starting a sentence, and never in lower case, is a tentative name (used
   when nothing surer is there); one seen next to "project" is a project; subjects of person
   attributes are people, values of office claims places. Names are matched case-insensitively in
   messages typed all in lower case, and a capitalised run ("the Harbor Room", "Pier 9") is one
   name, a thing rather than a person. The subject of a project attribute is the project named; of
   a person attribute the first person named (not "X's partner"); the speaker's own attributes need
   first-person, standing ("from now on", "always") or update wording, and no project, person or
   third party ("my sister") in the sentence. For the assistant, "you" is the user.
4. **Which attribute?** Each slot is scored from several kinds of evidence: its *semantic field*,
   general vocabulary for what the attribute is about (eating and food; flying and seats; reaching
   someone; meetings and calendars; reports and formats; launches, releases and deadlines; budgets
   and spending; leading and owning; venues and events; a project's state; offices and moving;
   jobs and titles); the *type or kind of value* (a date, an amount of money, a time of day, a
   second name in a locative position such as "in Lisbon" for a person's office, a diet, a seat, a
   channel, a report format, a project state, a job title, a kind of room); *values learnt from
   the session* (once "Signal" was a contact channel, a terse "Only on Signal now" is one too);
   and, strongest, *the replaced value*: when a negated or old-value span names the value of a
   claim in force about the same subject ("not Lisbon", "instead of Slack"), it is that claim's slot.
5. **How sure?** A claim backed by its slot's field vocabulary, or naming the value it replaces, or
   a value together with an update marker ("now", "instead", "changed", "switched", "new", "as of",
   "anymore"…), standing wording (for the speaker's own preferences) or a present-tense "is" (for
   states, titles, diets, seats: "Kelp is blocked", "I'm vegan"), is *strong* and supersedes. A
   claim backed only by its value ("Customers get Kelp May 6") is *weak*: it supersedes nothing but
   earlier weak claims worded the same way with another value ("The review is on June 3." → "The
   review is on June 10."), and it is superseded by the next strong claim about the same slot, as
   are assistant acknowledgements.
6. **Anything else?** A statement about a subject that fits no known kind opens an *open* attribute
   (``open:<turn>``). A later statement about the same subject that shares its wording (two content
   terms, or half of the smaller set) is about the same attribute, and supersedes it when it names
   the replaced value, states a different number ("Atlas headcount is 12." → "… is 15."), or carries
   an update marker and a new term.

The vocabularies are domain knowledge for a planning assistant (projects, people, the user's own
preferences), written as general English rather than as any benchmark's sentences. What none of
them covers and the open attributes do not catch, the tracker cannot follow; such statements still
reach the prompt through retrieval, the recent window and the policy's fill, just without
supersession. One claim per message: a message that changes two things is tracked for one of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from .records import PolicyMessage
from .text import STOP_WORDS, stem

AUTHORITATIVE_ROLES: Final = frozenset({"user", "system", "tool"})
"""Roles whose claims supersede earlier ones."""


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _words(*items: str) -> str:
    """A word-bounded alternation (hyphens bind: "dairy-free" is not "free"); items may be small regexes."""
    return r"(?<![\w'-])(?:" + "|".join(sorted(items, key=len, reverse=True)) + r")(?![\w'-])"


# -- 1. assertion or not ------------------------------------------------------------------------------

HEDGE: Final = _rx(
    _words(
        r"what if", r"if we", r"if only", r"even if", r"suppose", r"supposing", r"imagine", r"imagining",
        r"hypothetically", r"in theory", r"theoretically", r"maybe", r"perhaps", r"possibly",
        r"probably", r"likely", r"might", r"could", r"may(?!\s*\d)", r"wish", r"hope", r"hopefully",
        r"not sure", r"unsure", r"no idea", r"who knows", r"thinking out loud", r"thinking about",
        r"considering", r"wondering", r"just an idea", r"tentative\w*", r"tbd", r"tbc",
        r"to be confirmed", r"pending", r"assuming", r"speculat\w*", r"i guess", r"in case",
        r"doubt\w*", r"thinks?", r"believes?", r"suspects?", r"whether", r"propos\w*", r"suggest\w*",
        r"decided against", r"reject\w*", r"talked about", r"discuss\w*", r"would be nice",
    )
    + r"|\bwould\b(?!\s+(?:like|love|prefer|rather|appreciate))"
)
"""Modality, hypotheticals and uncertainty: the statement does not assert a current fact."""

HEARSAY: Final = _rx(
    _words(
        r"rumou?r\w*", r"someone said", r"somebody said", r"people say", r"they say", r"i heard",
        r"heard", r"hearing", r"apparently", r"allegedly", r"reportedly", r"supposedly",
        r"unconfirmed", r"unverified", r"not confirmed", r"nothing confirmed", r"not official",
        r"gossip\w*", r"word is", r"hearsay",
    )
)
"""Evidentials: second-hand, unconfirmed information."""

RETRACTION: Final = _rx(
    r"\b(?:ignore|disregard)\s+(?:that|this|it|those|these|the|my|what)\b"
    r"|\bnever\s?mind\b|\bscratch that\b|\bforget (?:that|it|what i said)\b|\bmy mistake\b"
)
"""Wording that withdraws something said elsewhere."""

OUTDATED: Final = _rx(
    r"\boutdated\b|\bout[- ]of[- ]date\b|\bobsolete\b|\bdeprecated\b|\bsuperseded\b"
    r"|\bno longer (?:valid|accurate|true|current|correct)\b"
    r"|\bold\s+(?:\w+\s+)?(?:notes?|e-?mails?|docs?|documents?|pages?|wiki|messages?|threads?|tickets?"
    r"|slides?|decks?|plans?|invites?|calendars?|records?|files?|spreadsheets?|info|information)\b"
)
"""Pointers to superseded material ("old notes say…")."""

EPISODIC: Final = _rx(
    r"\byesterday\b|\blast (?:week|year|night|month|time|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|weekend|quarter)\b|\bthis morning\b|\bearlier today\b|\bthe other day\b"
    r"|\b(?:a|one|two|three|few|couple of|\d+)\s+(?:\w+\s+)?(?:days|weeks|months|years) ago\b"
    r"|\bover the weekend\b"
)
"""A past episode."""

PRESENT_STATE: Final = _rx(
    _words(
        r"now", r"currently", r"as of", r"since", r"these days", r"nowadays", r"anymore", r"any more",
        r"no longer", r"from now on", r"going forward", r"from here on", r"at the moment", r"right now",
        r"effective", r"starting", r"henceforth", r"today on",
    )
)
"""Wording about the present state, which keeps a statement with a past-time phrase a claim."""

COPULA: Final = _rx(r"\b(?:is|are|am|remains|stays)\b|'s\b|'m\b|'re\b")
"""A present-tense link between a subject and its state."""

PAST_STATE: Final = re.compile(
    r"\b(?:[Ww]as|[Ww]ere)\s+(?:in|at|on|with|there|here|a|an|the|[A-Z$€£\d])"
)
"""A past state ("was in Lagos", "was Tom") once negated and replaced values are set aside."""

TASK_VERB: Final = _rx(
    r"^\s*(?:please\s+|pls\s+|kindly\s+)?(?:send|draft|write|list|summari[sz]e|tidy|plan|prepare|check"
    r"|find|remind|show|tell|give|make|put|schedule|arrange|organi[sz]e|create|book|e-?mail|ping|review"
    r"|compile|set up|look|pull|sort|fix|add|remove|share|forward|notify|invite|translate|collect"
    r"|gather|confirm|reserve|order|get|help|read|note|remember|draw up|outline|research|compare)\b"
)
"""A sentence that opens with an instruction to the assistant."""

# -- 2. negated and replaced values ----------------------------------------------------------------

NEGATOR: Final = _rx(
    r"\b(?:not|no longer|no more|never again)\b(?!\s+just\b)|n't\b|\bnope\b|^\s*no\b"
)
"""Negation; its span runs to the next clause boundary."""

OLD_VALUE: Final = _rx(
    r"(?:\b(?:from|instead of|rather than|in place of|replacing|replaces|used to be|used to|previously"
    r"|formerly|originally|down from|up from|off|quit|quitting|dropped|dropping|ditched|ditching|scratch"
    r"|forget|left|stopped(?: using| checking)?|leaving|swapped|swapping|over)|\(was|, was)\s+"
    r"(?!(?:now|today|tonight|tomorrow|here|then|there|on|the (?:start|beginning)|next|this|that|for)\b)"
)
"""Words after which the value being replaced is named ("from Lisbon to", "instead of Slack")."""

_CLAUSE_END: Final = re.compile(
    r"[,;:.!?()]|\s(?:but|and|so|instead|rather|it's|it is|we're)\s|\s[-–—→]+\s|->"
)

CHANGE_VERB: Final = _rx(
    _words(
        r"mov\w*", r"chang\w*", r"switch\w*", r"shift\w*", r"relocat\w*", r"slipp?\w*", r"push\w*",
        r"delay\w*", r"postpon\w*", r"cancel\w*", r"going", r"leav\w*", r"transferr?\w*", r"happening",
        r"replac\w*", r"swap\w*", r"resched\w*", r"bump\w*",
    )
)
"""Verbs of change: negated ("not moving Kelp to Monday"), they deny a change instead of stating a fact."""

REFINES: Final = _rx(
    r"\bnot just\b|\bnot only\b|\bas well as\b|\bin addition to\b|\bon top of\b|\band also\b"
)
"""Wording that adds to an earlier statement instead of replacing it."""

UPDATE_MARKER: Final = _rx(
    _words(
        r"now", r"no longer", r"anymore", r"any more", r"instead", r"rather than", r"from now on",
        r"going forward", r"from here on", r"these days", r"nowadays", r"as of", r"since", r"effective",
        r"henceforth", r"update[ds]?", r"chang\w*", r"switch\w*", r"swap\w*", r"mov(?:e|es|ed|ing)",
        r"shift\w*", r"relocat\w*", r"transferr?\w*", r"replac\w*", r"new", r"revised", r"revis\w*",
        r"correction", r"actually", r"turns out", r"no more", r"took over", r"tak(?:e|es|ing) over",
        r"hand\w*", r"promot\w*", r"became", r"become\w*", r"bump\w*", r"push\w*", r"pull\w*",
        r"postpon\w*", r"delay\w*", r"resched\w*", r"slipp?\w*", r"brought forward", r"cut", r"rais\w*",
        r"increas\w*", r"decreas\w*", r"reduc\w*", r"trimm?\w*", r"lower\w*", r"upped", r"dropp?\w*",
        r"quit", r"stopp?\w*", r"stepped \w+", r"flipp?\w*", r"went", r"gone", r"got", r"inherit\w*",
        r"is taking", r"from today", r"starting",
    )
    + r"|\bfrom\b[^.;]*\bto\b|→|->"
)
"""Temporal and update markers: the statement changes something."""

STANDING: Final = _rx(
    _words(
        r"from now on", r"going forward", r"from here on", r"always", r"never", r"only", r"these days",
        r"nowadays", r"anymore", r"any more", r"for good", r"whenever", r"every time", r"by default",
        r"as a rule", r"usually", r"please",
    )
)
"""Standing wording: an elliptical statement with it ("Switching to vegan from now on") is the
speaker's own, like first-person wording."""

FIRST_PERSON: Final = _rx(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|i'll)\b")
SECOND_PERSON: Final = _rx(r"\b(?:you|your|yours|yourself|you're|you've|you'd|you'll)\b")

PERSON_NOUN: Final = (
    r"(?:sister|brother|mom|mum|mother|dad|father|parents?|partner|wife|husband|spouse|boyfriend"
    r"|girlfriend|fianc[ée]e?|kids?|children|child|son|daughter|family|friends?|neighbou?rs?|cousins?"
    r"|roommates?|flatmates?|housemates?|colleagues?|co-?workers?|boss|manager|aunt|uncle|grand\w+"
    r"|nieces?|nephews?|in-laws?|team ?mates?|doctor|dentist)"
)
THIRD_PARTY: Final = _rx(
    rf"\b(?:my|his|her|their)\s+(?:\w+\s+)?{PERSON_NOUN}\b|\w'?s\s+{PERSON_NOUN}\b"
)
"""Someone else's attribute ("my sister went vegan", "Priya's partner is vegan")."""

# -- value types ----------------------------------------------------------------------------------

_MONTH: Final = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAY: Final = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
DATE_VALUE: Final = _rx(
    rf"\b{_WEEKDAY}\b(?!s)|\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b"
    r"|\bthe \d{1,2}(?:st|nd|rd|th)\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
    r"|\btomorrow\b|\bnext (?:week|month|quarter|sprint)\b|\bend of (?:the )?(?:week|month|quarter|year)\b"
    r"|\bq[1-4]\b|\bmid-?(?:" + _MONTH + r")\b"
)
"""A day or date (for a schedule)."""

MONEY_VALUE: Final = _rx(
    r"[$€£¥]\s?\d[\d,.]*\s?(?:k|m|mn|bn|million|thousand|billion)?\b"
    r"|\b\d[\d,.]*\s?(?:k|m|mn|bn)\b(?!\s*(?:users|people|rows|downloads|views|visits|steps|miles|km))"
    r"|\b\d[\d,.]*\s?(?:dollars|euros|pounds|bucks|usd|eur|gbp|million|thousand|billion)\b"
    r"|\b(?:usd|eur|gbp|chf|jpy|cad|aud)\s?\d[\d,.]*"
)
"""An amount of money (for a budget)."""

TIME_VALUE: Final = _rx(
    r"\b(?:in the |late in the |early in the )?(?:morning|afternoon|evening)s?\b|\bnoon\b|\bmidday\b"
    r"|\blunchtime\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b(?:before|after|until|till|between)\s+\d"
    r"|\b(?:before|after|around|until|till|by)\s+(?:lunch|lunchtime|noon|dinner|breakfast)\b"
    r"|\blate in the day\b|\bend of (?:the|my) day\b|\bearly\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"
)
"""A time of day or a recurring day (for meeting hours)."""

LOCATIVE: Final = r"(?:in|at|to|from|into|out of|near|for|left|leaving|calls|joined|joining)"


# -- slots ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SlotSpec:
    """One kind of attribute.

    Attributes:
        slot: The attribute kind.
        holder: ``project``, ``person`` or ``user`` — what kind of subject has it.
        field: General vocabulary of the attribute's semantic field.
        value: The type of the attribute's values, or typical values (an amount; "vegan"; "aisle").
        required: True when a statement about the attribute must carry such a value (a date, an
            amount).
        stative: True when a present-tense "is" linking the subject to one of the values is enough to
            be sure of the attribute ("Kelp is blocked", "I'm vegan"); dates, places and channels
            name too many other things for that.
        second_name: ``any`` when the value is another name (an owner), ``locative`` when it is a
            name in a locative position ("in Lisbon", "to Berlin": a person's office); else empty.
    """

    slot: str
    holder: str
    field: re.Pattern[str]
    value: re.Pattern[str] | None = None
    second_name: str = ""
    required: bool = False
    stative: bool = False


DIET_VALUE: Final = _rx(
    _words(
        r"vegan\w*", r"vegetarian\w*", r"pescatarian\w*", r"gluten\w*", r"halal", r"kosher", r"dairy\w*",
        r"meat", r"pork", r"beef", r"chicken", r"fish", r"seafood", r"shellfish", r"paleo", r"eggs?",
        r"\w+-free", r"allerg\w*", r"intoleran\w*",
    )
)
SEAT_VALUE: Final = _rx(_words(r"aisle", r"window", r"exit row", r"exit-row"))
CHANNEL_VALUE: Final = re.compile(
    _words(r"[Ss]lack", r"e-?mail", r"[Pp]hone", r"SMS", r"sms", r"[Mm]obile", r"[Cc]ell", r"text message",
           r"texting", r"Teams", r"Signal", r"[Cc]alls?")
)
FORMAT_VALUE: Final = _rx(
    _words(r"bullet\w*", r"paragraphs?", r"tables?", r"tl;?dr", r"one-liners?", r"one-line\w*", r"prose")
)
STATE_VALUE: Final = _rx(
    _words(
        r"on track", r"off track", r"at risk", r"block\w*", r"unblock\w*", r"paus\w*", r"on hold",
        r"beta", r"alpha", r"code complete", r"feature complete", r"complete", r"completed", r"done",
        r"finish\w*", r"stall\w*", r"stuck", r"behind", r"ahead", r"cancell?\w*", r"shelv\w*", r"freez\w*",
        r"frozen", r"in review", r"testing",
    )
)
TITLE_VALUE: Final = _rx(
    _words(
        r"engineer\w*", r"manager", r"designer", r"scientist", r"lead", r"analyst", r"director",
        r"researcher", r"architect", r"developer", r"pm", r"head of \w+", r"vp", r"chief \w+", r"cto",
        r"ceo", r"cfo", r"coo", r"cpo", r"officer", r"intern", r"consultant", r"specialist", r"coordinator",
        r"administrator", r"recruiter", r"marketer", r"qa", r"tester", r"writer", r"editor", r"principal",
        r"counsel", r"accountant", r"strategist", r"producer",
    )
)
PLACE_VALUE: Final = _rx(
    _words(
        r"rooms?", r"hall", r"terrace", r"atrium", r"loft", r"auditorium", r"pier", r"lobby", r"rooftop",
        r"caf[eé]", r"restaurant", r"bar", r"hotel", r"garden", r"park", r"gallery", r"theat(?:er|re)",
        r"arena", r"cent(?:er|re)", r"building", r"campus", r"lounge", r"ballroom",
    )
)

SLOTS: Final[tuple[SlotSpec, ...]] = (
    SlotSpec(
        "schedule", "project",
        _rx(_words(
            r"launch\w*", r"ship\w*", r"releas\w*", r"go(?:es|ing)? live", r"went live", r"live",
            r"roll\w* out", r"rollout", r"debut\w*", r"availab\w*", r"ga", r"dates?", r"deadlines?",
            r"due", r"schedul\w*", r"resched\w*", r"timeline\w*", r"target\w*", r"slipp?\w*", r"delay\w*",
            r"postpon\w*", r"push\w*", r"pull\w* in", r"brought forward", r"bring\w* forward",
            r"mov(?:e|es|ed|ing)", r"land\w*", r"drop\w*", r"hits?", r"out", r"kick\w* off", r"ready",
            r"go(?:es|ing)? out", r"go(?:es|ing)? public", r"market", r"bump\w*", r"arriv\w*",
        )),
        DATE_VALUE, required=True,
    ),
    SlotSpec(
        "budget", "project",
        _rx(_words(
            r"budget\w*", r"spend\w*", r"spent", r"cost\w*", r"fund\w*", r"money", r"cash", r"allocat\w*",
            r"capp?\w*", r"limit\w*", r"approv\w*", r"financ\w*", r"ceiling", r"envelope", r"headroom",
            r"pric\w*", r"paid", r"grant\w*", r"worth", r"afford\w*",
        )),
        MONEY_VALUE, required=True,
    ),
    SlotSpec(
        "owner", "project",
        _rx(_words(
            r"leads?", r"leading", r"led", r"own\w*", r"runs?", r"running", r"in charge", r"responsib\w*",
            r"accountab\w*", r"manag\w*", r"heads?", r"heading", r"headed", r"point person",
            r"point of contact", r"contact for", r"contact", r"reports? to", r"reporting to",
            r"tak(?:e|es|en|ing) over", r"took over", r"hand\w*", r"inherit\w*", r"belong\w*", r"assign\w*",
            r"driv(?:e|es|er|ing)", r"steward\w*", r"sponsor\w*", r"champion\w*", r"overs(?:ee|ees|aw)",
            r"ask", r"talk to", r"stepped \w+", r"step\w* (?:back|down|in|up)", r"team",
            r"(?:took|take|takes|taking) \w+ over", r"hand\w* \w+ (?:over|off)",
        )),
        second_name="any",
    ),
    SlotSpec(
        "venue", "project",
        _rx(_words(
            r"venues?", r"locations?", r"place", r"held", r"host\w*", r"events?", r"party", r"parties",
            r"reception\w*", r"celebrat\w*", r"gathering\w*", r"kick-?off", r"offsite", r"ceremony",
            r"unveil\w*", r"meetup", r"book(?:ed|ing)", r"reserv\w*", r"tak(?:e|es|ing) place", r"took place",
        )),
        PLACE_VALUE,
    ),
    SlotSpec(
        "status", "project",
        _rx(_words(r"status", r"state", r"stands?", r"standing", r"health\w*", r"progress\w*")),
        STATE_VALUE, stative=True,
    ),
    SlotSpec(
        "office", "person",
        _rx(_words(
            r"offices?", r"based", r"located", r"lives?", r"living", r"works? out of", r"out of", r"sits? in",
            r"desk", r"relocat\w*", r"mov(?:e|es|ed|ing)", r"transferr?\w*", r"hub", r"home", r"city",
            r"remote\w*", r"branch", r"headquarter\w*", r"hq", r"left for", r"went (?:over )?to",
            r"head(?:ed|ing) to", r"packed up", r"works? from",
        )),
        second_name="locative",
    ),
    SlotSpec(
        "role", "person",
        _rx(_words(
            r"roles?", r"title", r"position", r"job", r"promot\w*", r"hired", r"joined as", r"works? as",
            r"serv\w* as", r"appoint\w*", r"manag\w*",
        )),
        TITLE_VALUE, stative=True,
    ),
    SlotSpec(
        "diet", "user",
        _rx(_words(
            r"eat\w*", r"ate", r"food\w*", r"meals?", r"lunch\w*", r"dinners?", r"breakfast", r"brunch",
            r"snacks?", r"cater\w*", r"menus?", r"diet\w*", r"cuisine", r"dish\w*",
        )),
        DIET_VALUE, stative=True,
    ),
    SlotSpec(
        "seat", "user",
        _rx(_words(
            r"seats?", r"seating", r"rows?", r"fly", r"flying", r"flies", r"flew", r"flights?", r"planes?",
            r"cabin", r"travel\w*", r"boarding",
        )),
        SEAT_VALUE, stative=True,
    ),
    SlotSpec(
        "contact", "user",
        _rx(_words(
            r"reach\w*", r"contact\w*", r"ping\w*", r"message me", r"text me", r"call me", r"e-?mail me",
            r"dm", r"get hold of", r"hold of me", r"get me", r"find me", r"want me", r"need me",
            r"i check", r"channel\w*", r"respond\w*", r"call(?:ing)? (?:me|my)",
        )),
        CHANNEL_VALUE,
    ),
    SlotSpec(
        "meetings", "user",
        _rx(_words(
            r"meetings?", r"calls", r"calendar\w*", r"availab\w*", r"free", r"busy", r"focus time", r"meet",
            r"standups?", r"1:1s?", r"one-on-ones?", r"book me",
        )),
        TIME_VALUE,
    ),
    SlotSpec(
        "reports", "user",
        _rx(_words(
            r"reports?", r"reporting", r"summar(?:y|ies|ise|ize)", r"updates", r"status", r"format\w*",
            r"write-?ups?", r"brief\w*",
        )),
        FORMAT_VALUE,
    ),
)
SLOT_BY_NAME: Final = {spec.slot: spec for spec in SLOTS}

def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


GENERIC: Final = _word_set(
    "keep make put get set use want like prefer need please best way thing stuff go going goes went project "
    "now new just really actually also always only well good great sure thank thanks know think mind "
    "note noted got update updat heads head plan plans today day time week right okay ok let will "
    "said say says work works better rather happy fine anything something everything whatever here "
    "there back forward official officially currently current moment since as from instead change "
    "changed switch switching moving move moved stay stays one two first last next much many more "
    "less lot bit able doing did does do had has have having been being was were is are am"
)
"""Light words that never identify a value."""

_WORD: Final = re.compile(r"[^\W\d_][\w'’-]*")
_TERM: Final = re.compile(r"[$€£]?\w[\w'’.$€£-]*")
_SENTENCE_BREAK: Final = re.compile(r"(?<=[.!?])\s+")
_SENTENCE_START: Final = re.compile(r"(?:^|[.!?:;]\s+|\n)\s*$")
_PROJECT_NEAR: Final = re.compile(r"\b[Pp]roject ([^\W\d_][\w'’-]*)|\b([A-Z][^\W\d_]+) project\b")
_LOWER_PLACE: Final = re.compile(r"\b(?:in|to|from|into|out of|at)\s+(?!the\b)([a-z][\w'-]+)")
_PRONOUN_AFTER: Final = _rx(r"\s+(?:me|my|us|our|you|your|them|it|him|her)\b")
"""A capitalised word followed by an object pronoun opens an imperative ("Give me…"), not a name."""
_PREPOSITION_BEFORE: Final = _rx(rf"\b{LOCATIVE}\s+(?:the\s+|our\s+)?$")

CALENDAR_WORDS: Final = _word_set(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
    "july august september october november december"
)
NOT_NAMES: Final = _word_set(
    "i i'm i've i'd i'll ok okay tl;dr update project the we my you your it this that"
)
"""Capitalised words that are not names even when seen mid-sentence."""


def _terms(text: str) -> list[str]:
    """Lower-cased value-ish terms (words, amounts), possessives and trailing dots stripped."""
    out = []
    for raw in _TERM.findall(text.lower()):
        term = raw.rstrip(".'’-").replace("’", "'")
        if term.endswith("'s"):
            term = term[:-2]
        if term:
            out.append(term)
    return out


def _content_terms(text: str) -> set[str]:
    return {stem(t) for t in _terms(text) if t not in STOP_WORDS and t not in GENERIC and len(t) > 1}


def _split_sentences(text: str) -> list[str]:
    return [s for s in (part.strip() for part in _SENTENCE_BREAK.split(text)) if s]


def _is_question(sentence: str) -> bool:
    if sentence.rstrip().endswith("?"):
        return True
    return re.match(
        r"^\s*(?:who|what|when|where|which|why|how|is|are|was|were|do|does|did|has|have|had|can|could"
        r"|would|will|should|shall|am)\b(?!\s*\d)", sentence, re.IGNORECASE
    ) is not None and sentence == sentence.lower()


def _negated_spans(text: str, patterns: Sequence[re.Pattern[str]] = ()) -> list[tuple[int, int]]:
    """Spans that name a value being negated or replaced."""
    spans: list[tuple[int, int]] = []
    for pattern in patterns or (NEGATOR, OLD_VALUE):
        for match in pattern.finditer(text):
            start = match.end()
            end_match = _CLAUSE_END.search(text, start)
            end = end_match.start() if end_match else len(text)
            if pattern is OLD_VALUE:
                # an old value is a short noun phrase: up to four words (or the "to" of "from X to Y")
                words = list(re.finditer(r"\S+", text[start:end]))[:4]
                stop = next((w for w in words if w.group(0).lower() in ("to", "for", "with")), None)
                if stop is not None:
                    end = start + stop.start()
                elif words:
                    end = start + words[-1].end()
            spans.append((match.start(), end))
    return spans


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(start, min(end, len(chars))):
            chars[i] = " "
    return "".join(chars)


def _not_asserting(sentence: str) -> bool:
    if HEDGE.search(sentence) or HEARSAY.search(sentence) or RETRACTION.search(sentence):
        return True
    if OUTDATED.search(sentence):
        return True
    return EPISODIC.search(sentence) is not None and PRESENT_STATE.search(sentence) is None


ELLIPTICAL_WORDS: Final = 5
"""A hedging sentence this short ("Nothing confirmed.", "Not sure.") qualifies the whole message."""


@lru_cache(maxsize=65_536)
def assertive_part(text: str) -> str:
    """The sentences of ``text`` that could assert a current fact.

    Questions are set aside, and so are sentences that hedge, report hearsay, retract, point to
    outdated material or narrate a past episode; a short one of those ("Nothing confirmed.")
    qualifies the whole message, which then asserts nothing.

    Args:
        text: A message.

    Returns:
        The remaining sentences (empty when nothing is asserted).
    """
    kept: list[str] = []
    for sentence in _split_sentences(text):
        if _is_question(sentence):
            continue
        if _not_asserting(sentence):
            if len(sentence.split()) < ELLIPTICAL_WORDS:
                return ""
            continue
        kept.append(sentence)
    return " ".join(kept)


def is_assertion(text: str) -> bool:
    """Whether ``text`` could assert a current fact at all (see :func:`assertive_part`).

    Args:
        text: A message.

    Returns:
        False for questions, hedges, hearsay, retractions, outdated notes and past episodes.
    """
    return bool(assertive_part(text).strip())


@dataclass(frozen=True, slots=True)
class Claim:
    """A statement that sets one attribute of one subject.

    Attributes:
        turn: The message's turn.
        subject: ``user`` for the speaker, otherwise a name (lower-case).
        slot: The attribute kind.
        refines: True when it adds to the earlier statement instead of replacing it.
        authoritative: False for assistant messages (they echo; they do not decide).
        strong: False for a claim backed only by the type of its value (it never supersedes).
        values: Terms naming the value it sets (to recognise it when a later statement replaces it).
        frame: The other content terms: what it says about the subject, minus the value.
    """

    turn: int
    subject: str
    slot: str
    refines: bool
    authoritative: bool
    strong: bool = True
    values: frozenset[str] = frozenset()
    frame: frozenset[str] = frozenset()

    @property
    def key(self) -> tuple[str, str]:
        """The ``(subject, slot)`` a claim is about."""
        return (self.subject, self.slot)


@dataclass
class Ledger:
    """What the tracker knows after reading a prefix of the session.

    Attributes:
        current: Per ``(subject, slot)``, the turns of the strong authoritative claims in force.
        weak: Per ``(subject, slot)``, weak authoritative claims not yet superseded.
        superseded: Turns of claims (of any kind) replaced by a later strong authoritative claim.
        claims: Every claim by turn.
        echoes: Non-authoritative claims per key not yet superseded.
    """

    current: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    weak: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    superseded: set[int] = field(default_factory=set)
    claims: dict[int, Claim] = field(default_factory=dict)
    echoes: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    open_slots: dict[str, list[str]] = field(default_factory=dict)
    """Per subject, its attributes outside the known kinds (``open:<turn>``)."""


@dataclass
class _Knowledge:
    """What the tracker has learnt from the session so far (never from any answer key)."""

    names: set[str] = field(default_factory=set)
    tentative: set[str] = field(default_factory=set)
    """Capitalised words seen only at the start of sentences and never in lower case: maybe names."""
    lower_seen: set[str] = field(default_factory=set)
    projects: set[str] = field(default_factory=set)
    people: set[str] = field(default_factory=set)
    places: set[str] = field(default_factory=set)
    slot_values: dict[str, Counter[str]] = field(default_factory=dict)


class SupersessionTracker:
    """Reads messages in order and keeps the :class:`Ledger` up to date."""

    def __init__(self) -> None:
        self.knowledge = _Knowledge()
        self.ledger = Ledger()
        self.read_through = -1
        """The last turn read (-1 before any)."""

    @property
    def names(self) -> set[str]:
        """Names learnt so far."""
        return self.knowledge.names

    @property
    def projects(self) -> set[str]:
        """Names known to be projects."""
        return self.knowledge.projects

    def read(self, message: PolicyMessage) -> Claim | None:
        """Read the next message (turn order) and update the ledger.

        Args:
            message: The message.

        Returns:
            The claim it makes, if any.
        """
        if message.turn <= self.read_through:
            return self.ledger.claims.get(message.turn)
        self._learn_names(message.content)
        return self._extract(message)

    def _extract(self, message: PolicyMessage) -> Claim | None:
        self.read_through = message.turn
        claim = extract_claim(message, self.knowledge, self.ledger)
        if claim is None:
            return None
        self._record(claim)
        return claim

    def read_many(self, messages: Sequence[PolicyMessage]) -> None:
        """Read a batch of new messages: learn the names in all of them, then extract in order.

        Learning first means a name that only ever starts a sentence in one message ("Chen works as
        ...") is still recognised when another message of the batch uses it mid-sentence.

        Args:
            messages: Messages after :attr:`read_through`, in turn order.
        """
        fresh = [m for m in messages if m.turn > self.read_through]
        for message in fresh:
            self._learn_names(message.content)
        for message in fresh:
            if message.turn > self.read_through:
                self._extract(message)

    def _record(self, claim: Claim) -> None:
        ledger, knowledge = self.ledger, self.knowledge
        ledger.claims[claim.turn] = claim
        spec = SLOT_BY_NAME.get(claim.slot)
        if spec is None:  # an open attribute
            slots = ledger.open_slots.setdefault(claim.subject, [])
            if claim.slot not in slots:
                slots.append(claim.slot)
        elif claim.subject != "user":
            name = next((n for n in knowledge.names if n.lower() == claim.subject), None)
            if name is not None and claim.strong and claim.slot in ("schedule", "budget"):
                knowledge.projects.add(name)
            if name is not None and claim.strong and spec.holder == "person":
                knowledge.people.add(name)
            if claim.slot == "office" and claim.strong:
                knowledge.places.update(n for n in knowledge.names if _name_in(n, claim.values))
            if claim.slot == "owner" and claim.strong:
                knowledge.people.update(n for n in knowledge.names if _name_in(n, claim.values))
        if claim.strong and spec is not None:
            counter = knowledge.slot_values.setdefault(claim.slot, Counter())
            counter.update(claim.values)
        if not claim.authoritative:
            ledger.echoes.setdefault(claim.key, []).append(claim.turn)
            return
        if not claim.strong:
            # a weak claim retires only earlier weak ones worded the same way with another value
            # ("The review is on June 3." → "The review is on June 10.")
            kept = []
            for turn in ledger.weak.get(claim.key, []):
                old = ledger.claims[turn]
                same = _same_frame(old.frame, claim.frame) or not (old.frame or claim.frame)
                if not claim.refines and old.values and old.values != claim.values and same:
                    ledger.superseded.add(turn)
                else:
                    kept.append(turn)
            ledger.weak[claim.key] = [*kept, claim.turn]
            return
        previous = ledger.current.get(claim.key, [])
        if claim.refines:
            ledger.current[claim.key] = [*previous, claim.turn]
        else:
            ledger.superseded.update(previous)
            ledger.current[claim.key] = [claim.turn]
        ledger.superseded.update(ledger.weak.pop(claim.key, []))
        ledger.superseded.update(ledger.echoes.pop(claim.key, []))

    def _learn_names(self, text: str) -> None:
        knowledge = self.knowledge
        for match in _WORD.finditer(text):
            word = match.group(0).replace("’", "'")
            if word.endswith("'s"):
                word = word[:-2]
            if word[:1].islower():
                if word not in knowledge.lower_seen:
                    knowledge.lower_seen.add(word)
                    knowledge.tentative.discard(word.capitalize())
                continue
            if len(word) < 2 or not word[1:].islower():
                continue
            lower = word.lower()
            if lower in CALENDAR_WORDS or lower in NOT_NAMES or lower in STOP_WORDS or lower in GENERIC:
                continue
            if _SENTENCE_START.search(text[: match.start()]):
                imperative = TASK_VERB.match(text[match.start() :]) is not None or _PRONOUN_AFTER.match(
                    text, match.end()
                ) is not None
                if word not in knowledge.names and lower not in knowledge.lower_seen and not imperative:
                    knowledge.tentative.add(word)
                continue
            knowledge.names.add(word)
            knowledge.tentative.discard(word)
        for match in _PROJECT_NEAR.finditer(text):
            name = match.group(1) or match.group(2)
            if name[:1].islower():
                name = next((n for n in knowledge.names if n.lower() == name), "")
            if name and name.lower() not in NOT_NAMES and name.lower() not in CALENDAR_WORDS:
                knowledge.projects.add(name)
                knowledge.names.add(name)
                knowledge.tentative.discard(name)


def _same_frame(a: frozenset[str], b: frozenset[str]) -> bool:
    shared = len(a & b)
    return shared > 0 and 2 * shared >= min(len(a), len(b))


def _name_in(name: str, values: frozenset[str]) -> bool:
    lower = name.lower()
    return lower in values or stem(lower) in values


@dataclass(frozen=True, slots=True)
class _Mention:
    name: str
    start: int
    after_preposition: bool
    definite: bool
    """Preceded by "the" ("the Riverside loft"): a thing or a place, not a person."""
    compound: bool
    """Followed by another capitalised word or a number ("Harbor Room", "Pier 9"): part of a longer name."""
    tentative: bool = False
    """Only ever seen starting a sentence (a likely name, but less sure than one seen mid-sentence)."""


def _mentions(
    text: str, names: set[str], tentative: set[str] | None = None, projects: set[str] | None = None
) -> list[_Mention]:
    """Known names in ``text`` in order, each once (case-insensitive when typed all in lower case).

    The words after a known name in one capitalised run ("Harbor Room") are part of it, not names.
    """
    lowered = text == text.lower()
    by_lower = {n.lower(): n for n in names} if lowered else {}
    maybe = tentative or set()
    projects = projects or set()
    found: list[_Mention] = []
    seen: set[str] = set()
    previous_end = -2
    previous_name = False
    for match in _WORD.finditer(text):
        word = match.group(0).replace("’", "'")
        if word.endswith("'s"):
            word = word[:-2]
        joined = previous_name and text[previous_end : match.start()] == " " and match.group(0)[:1].isupper()
        name = by_lower.get(word) if lowered else (word if word in names or word in maybe else None)
        if joined and name is not None and name in projects:
            joined = False  # "Handing Atlas to…": a known project starts its own name
        previous_end, previous_name = match.end(), name is not None and name in names and not joined
        if name is None or name in seen or joined:
            continue
        seen.add(name)
        before = text[max(0, match.start() - 30) : match.start()]
        after = text[match.end() : match.end() + 2]
        found.append(
            _Mention(
                name,
                match.start(),
                _PREPOSITION_BEFORE.search(before) is not None,
                before.lower().endswith("the "),
                re.match(r" [A-Z0-9]", after) is not None,
                name not in names,
            )
        )
    return found


def names_in(text: str, names: set[str]) -> list[str]:
    """Known names mentioned in ``text``, in order of first mention.

    Args:
        text: A message.
        names: Names learnt so far.

    Returns:
        The names found (possessive ``'s`` stripped), each once.
    """
    return [m.name for m in _mentions(text, names)]


def _value_terms(
    text: str, spec: SlotSpec, exclude: set[str], names: Sequence[str] = ()
) -> frozenset[str]:
    """Terms of ``text`` that name the value it sets for ``spec``'s slot."""
    if spec.second_name and names:
        return frozenset(n.lower() for n in names)
    if spec.value is not None:
        typed = {" ".join(_terms(m.group(0))) for m in spec.value.finditer(text)}
        typed.discard("")
        if typed:
            return frozenset(typed)
    out = set()
    for term in _terms(text):
        if term in STOP_WORDS or term in GENERIC or len(term) < 2 or term in exclude:
            continue
        if any(other.field.fullmatch(term) for other in SLOTS) or UPDATE_MARKER.fullmatch(term):
            continue
        out.add(stem(term))
    return frozenset(out)


def extract_claim(
    message: PolicyMessage, knowledge: _Knowledge | set[str], ledger: Ledger | set[str] | None = None
) -> Claim | None:
    """The claim a message makes, if it makes one.

    Args:
        message: The message.
        knowledge: What the tracker has learnt (or, for a one-off call, a set of known names).
        ledger: The claims so far (or, for a one-off call, a set of known project names).

    Returns:
        The claim, or None when the message asserts no tracked attribute.
    """
    if isinstance(knowledge, set):
        known_projects = set(ledger) if isinstance(ledger, set) else set()
        knowledge = _Knowledge(names=set(knowledge), projects=known_projects)
    if not isinstance(ledger, Ledger):
        ledger = Ledger()
    body = assertive_part(message.content)
    if not body.strip():
        return None
    assistant = message.role not in AUTHORITATIVE_ROLES
    mentions = _mentions(body, knowledge.names, knowledge.tentative, knowledge.projects)
    projects = [m for m in mentions if m.name in knowledge.projects]
    # a one-off task about a named thing ("Summarise the open questions for Kelp") asserts nothing
    named = [m for m in mentions if m.name in knowledge.projects or m.name in knowledge.people]
    personal_instruction = FIRST_PERSON.search(body) is not None and not named
    if mentions and not personal_instruction and any(TASK_VERB.search(s) for s in _split_sentences(body)):
        task_sentences = [s for s in _split_sentences(body) if TASK_VERB.search(s)]
        if all(_mentions(s, knowledge.names) for s in task_sentences):
            return None
    negated = _negated_spans(body)
    asserted = _mask(body, negated)
    negations = _negated_spans(body, (NEGATOR,))
    denies_change = any(CHANGE_VERB.search(body[a:b]) for a, b in negations)
    # a negated state ("I don't eat pork", "no meetings before 10") still says something
    said = {t for a, b in negations for t in _terms(body[a:b]) if t not in STOP_WORDS}
    old_terms = set()
    for start, end in negated:
        old_terms |= {t for t in _terms(body[start:end]) if t not in STOP_WORDS}
    for start, end in negated:
        old_terms |= {" ".join(_terms(m.group(0))) for m in DATE_VALUE.finditer(body[start:end])}
    if PAST_STATE.search(asserted) and not PRESENT_STATE.search(body):
        return None  # "Amara was in Lagos for a conference": a past state, not the current one
    update = UPDATE_MARKER.search(body) is not None
    standing = STANDING.search(body) is not None
    own = SECOND_PERSON if assistant else FIRST_PERSON
    third_party = THIRD_PARTY.search(body) is not None
    personal_ok = (
        not projects
        and not any(m.name in knowledge.people for m in mentions)
        and not third_party
        and (
            own.search(body) is not None
            or STANDING.search(body) is not None
            or (not mentions and (assistant or update))
        )
    )
    refines = REFINES.search(body) is not None
    asserted_terms = _content_terms(asserted)

    sure_names = [m.name.lower() for m in mentions if not m.tentative]
    mention_names = set(sure_names) | {stem(n) for n in sure_names}
    best: tuple[float, SlotSpec, str, bool] | None = None
    for spec in SLOTS:
        subject = _subject_for(spec, mentions, knowledge, personal_ok, third_party)
        if subject is None:
            continue
        field_hit = spec.field.search(body) is not None
        score = 2.0 if field_hit else 0.0
        has_value = spec.value is not None and spec.value.search(asserted) is not None
        if spec.value is not None:
            if spec.required and not has_value:
                continue  # a date or an amount is what these attributes are
            if has_value:
                score += 1.5
        if spec.second_name:
            first = _first_start(mentions, subject)
            others = [
                m for m in mentions
                if m.name.lower() != subject and m.name not in knowledge.projects
                and (spec.second_name == "any" or m.after_preposition or m.start > first)
            ]
            if not others and spec.second_name == "locative" and body == body.lower():
                # typed in lower case: no capitals to show the place, so trust the structure
                place = _LOWER_PLACE.search(asserted)
                if place is not None and place.group(1) not in STOP_WORDS and place.group(1) not in GENERIC:
                    others = [_Mention(place.group(1), place.start(1), True, False, False)]
            if not others:
                continue
            if spec.second_name == "locative" and any(m.after_preposition for m in others):
                has_value = True
                score += 1.5
            else:
                score += 1.0
        # the value it replaces: a negated or old-value term that a claim in force about it carried
        replaced = _replaced(ledger, subject, spec.slot, old_terms)
        if replaced:
            score += 3.0
        learnt_hits = _learnt_hits(knowledge, spec.slot, asserted_terms - mention_names)
        score += min(2, learnt_hits)
        if score <= 1.0 and not has_value:
            continue
        if not (asserted_terms - mention_names - {subject, stem(subject)}) and not has_value and (
            denies_change or not (said - mention_names - {subject})
        ):
            continue  # nothing asserted beyond the subject, or a change denied ("not moving X to Y")
        marked = update or (spec.holder == "user" and standing) or (
            spec.stative and has_value and COPULA.search(asserted) is not None
        )
        strong = field_hit or replaced or (marked and (learnt_hits > 0 or has_value))
        if spec.slot == "budget" and has_value:
            strong = True  # an amount of money stated for a project is what it has to spend
        if best is None or score > best[0]:
            best = (score, spec, subject, strong)
    if best is None:
        personal = personal_ok and own.search(body) is not None
        return _open_claim(
            message, asserted, old_terms, mentions, knowledge, ledger, personal, update, refines
        )
    _score, spec, subject, strong = best
    exclude = {m.name.lower() for m in mentions if m.name.lower() == subject}
    value_names = [
        m.name for m in mentions
        if m.name.lower() != subject and m.name not in knowledge.projects and not m.tentative
        and m.start < len(asserted) and asserted[m.start : m.start + len(m.name)] == m.name
    ]
    values = _value_terms(asserted, spec, exclude, value_names)
    return Claim(
        turn=message.turn,
        subject=subject,
        slot=spec.slot,
        refines=refines,
        authoritative=not assistant,
        strong=bool(strong),
        values=values,
        frame=frozenset(asserted_terms - mention_names - values - {subject, stem(subject)}),
    )


OPEN_PREFIX: Final = "open:"
"""Slots of attributes outside the known kinds are named ``open:<turn of their first statement>``."""
_NUMBER: Final = re.compile(r"\d[\d,.:/]*")
OPEN_SCAN: Final = 200
"""Open attributes of one subject compared with a new statement (the most recent ones)."""


def _open_claim(
    message: PolicyMessage,
    asserted: str,
    old_terms: set[str],
    mentions: list[_Mention],
    knowledge: _Knowledge,
    ledger: Ledger,
    personal: bool,
    update: bool,
    refines: bool,
) -> Claim | None:
    """A claim about an attribute none of the known kinds covers, matched by lexical overlap.

    A statement about a subject that shares at least two content terms (or half of the smaller set)
    with the latest statement of one of that subject's open attributes is about that attribute; it
    supersedes it when it names the replaced value, carries an update marker and a new term, or
    states a different number for the same thing ("Atlas headcount is 12." → "Atlas headcount is
    15."). Otherwise it opens a new attribute.
    """
    if THIRD_PARTY.search(asserted):
        return None  # about someone else ("Priya's partner is…")
    candidates = [
        m for m in mentions if not m.after_preposition and not m.compound and m.name not in knowledge.places
    ]
    sure = [m for m in candidates if not m.tentative]
    if candidates:
        subject = (sure or candidates)[0].name.lower()
    elif personal:
        subject = "user"
    else:
        return None
    terms = {
        t for t in _content_terms(asserted)
        if t not in (subject, stem(subject)) and not UPDATE_MARKER.fullmatch(t) and not t[:1].isdigit()
    }
    numbers = {"#" + n.rstrip(".,") for n in _NUMBER.findall(asserted)}
    if len(terms) < (1 if numbers else 2):
        return None
    values = frozenset(terms | numbers)
    best: tuple[int, str, Claim] | None = None
    for slot in ledger.open_slots.get(subject, [])[-OPEN_SCAN:]:
        turns = ledger.current.get((subject, slot), []) + ledger.weak.get((subject, slot), [])
        if not turns:
            continue
        last = ledger.claims[max(turns)]
        last_terms = {v for v in last.values if not v.startswith("#")}
        shared = len(terms & last_terms)
        overlapping = shared >= 2 or (shared and 2 * shared >= min(len(terms), len(last_terms)))
        if overlapping and (best is None or shared > best[0]):
            best = (shared, slot, last)
    frame = frozenset(terms)
    if best is None:
        return Claim(message.turn, subject, f"{OPEN_PREFIX}{message.turn}", refines,
                     message.role in AUTHORITATIVE_ROLES, True, values, frame)
    _shared, slot, last = best
    last_numbers = {v for v in last.values if v.startswith("#")}
    replaced = bool({stem(t) for t in old_terms} & last.values)
    new_terms = bool(terms - last.values)
    changed_number = bool(numbers) and bool(last_numbers) and numbers != last_numbers
    strong = replaced or (update and (new_terms or changed_number)) or changed_number
    authoritative = message.role in AUTHORITATIVE_ROLES
    return Claim(message.turn, subject, slot, refines, authoritative, strong, values, frame)


def _first_start(mentions: list[_Mention], subject: str) -> int:
    return next((m.start for m in mentions if m.name.lower() == subject), -1)


def _subject_for(
    spec: SlotSpec, mentions: list[_Mention], knowledge: _Knowledge, personal_ok: bool, third_party: bool
) -> str | None:
    if spec.holder == "user":
        return "user" if personal_ok else None
    if not mentions or (spec.holder == "person" and third_party):
        return None
    if spec.holder == "project":
        projects = [m for m in mentions if m.name in knowledge.projects]
        if projects:
            return projects[0].name.lower()
        things = [
            m for m in mentions
            if m.name not in knowledge.people and m.name not in knowledge.places and not m.compound
        ]
        sure_things = [m for m in things if not m.tentative]
        chosen = sure_things or things
        return chosen[0].name.lower() if chosen else None
    people = [
        m for m in mentions
        if m.name not in knowledge.projects and m.name not in knowledge.places and not m.after_preposition
        and not m.definite and not m.compound
    ]
    if not people:
        return None
    sure = [m for m in people if not m.tentative]
    return (sure or people)[0].name.lower()


def _learnt_hits(knowledge: _Knowledge, slot: str, terms: set[str]) -> int:
    """How many of ``terms`` were values of ``slot`` (and of no other slot) in earlier claims."""
    learnt = knowledge.slot_values.get(slot)
    if not learnt:
        return 0
    hits = 0
    for term in terms:
        if learnt[term] > 0 and not any(
            counter[term] > 0 for other, counter in knowledge.slot_values.items() if other != slot
        ):
            hits += 1
    return hits


def _replaced(ledger: Ledger, subject: str, slot: str, old_terms: set[str]) -> bool:
    if not old_terms:
        return False
    key = (subject, slot)
    turns = ledger.current.get(key, []) + ledger.weak.get(key, [])
    stems = {stem(t) for t in old_terms} | old_terms
    return any(ledger.claims[t].values & stems for t in turns)
