"""The lexicon of the supersession tracker: English cues, value types and attribute vocabularies.

Everything here reads text only (no session state): which sentences of a message could assert a
current fact, which spans negate or name a replaced value, and the word lists the claim extractor
(:mod:`.claims`) scores attributes with. The first two steps of the tracker live here:

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

The twelve attribute kinds (:data:`SLOTS`) are a schema: they are domain knowledge for a planning
assistant and mirror the generator's twelve fact families. They are kept because the recommended
policy's supersession on the generated sessions depends on them; docs/policies.md says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .text import STOP_WORDS, stem


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

PAST_NARRATIVE: Final = _rx(
    r"\b(?:i|we)\s+(?:just\s+|finally\s+|recently\s+|also\s+)?(?:went|had|did|made|took|saw|got|ate|met"
    r"|found|tried|bought|gave|spent|visited|started|joined|finished|learned|learnt|watched|read|ran"
    r"|signed up|[a-z]+ed)\b"
)
"""First-person simple past ("I went", "we tried"): narration, unless update wording says otherwise."""

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

EXPLICIT_OLD_VALUE: Final = _rx(
    r"(?:\b(?:instead of|rather than|in place of|replacing|replaces|used to be|previously|formerly"
    r"|originally|down from|up from|no longer)|\(was|, was|\bfrom(?=\s[^.;,!?]*\bto\b))\s+"
)
"""The old-value markers that say, on their own, that a value is replaced ("from X to", "instead of")."""

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

NAME_WORD: Final = re.compile(r"[^\W\d_][\w'’-]*")
VALUE_TERM: Final = re.compile(r"[$€£]?\w[\w'’.$€£-]*")
_SENTENCE_BREAK: Final = re.compile(r"(?<=[.!?])\s+")
SENTENCE_START: Final = re.compile(r"(?:^|[.!?:;]\s+|\n)\s*$")
PROJECT_NEAR: Final = re.compile(r"\b[Pp]roject ([^\W\d_][\w'’-]*)|\b([A-Z][^\W\d_]+) project\b")
LOWER_PLACE: Final = re.compile(r"\b(?:in|to|from|into|out of|at)\s+(?!the\b)([a-z][\w'-]+)")
PRONOUN_AFTER: Final = _rx(r"\s+(?:me|my|us|our|you|your|them|it|him|her)\b")
"""A capitalised word followed by an object pronoun opens an imperative ("Give me…"), not a name."""
PREPOSITION_BEFORE: Final = _rx(rf"\b{LOCATIVE}\s+(?:the\s+|our\s+)?$")

CALENDAR_WORDS: Final = _word_set(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
    "july august september october november december"
)
NOT_NAMES: Final = _word_set(
    "i i'm i've i'd i'll ok okay tl;dr update project the we my you your it this that"
)
"""Capitalised words that are not names even when seen mid-sentence."""


def value_words(text: str) -> list[str]:
    """Lower-cased value-ish terms (words, amounts), possessives and trailing dots stripped."""
    out = []
    for raw in VALUE_TERM.findall(text.lower()):
        term = raw.rstrip(".'’-").replace("’", "'")
        if term.endswith("'s"):
            term = term[:-2]
        if term:
            out.append(term)
    return out


def content_terms(text: str) -> set[str]:
    return {stem(t) for t in value_words(text) if t not in STOP_WORDS and t not in GENERIC and len(t) > 1}


def split_sentences(text: str) -> list[str]:
    return [s for s in (part.strip() for part in _SENTENCE_BREAK.split(text)) if s]


def is_question(sentence: str) -> bool:
    if sentence.rstrip().endswith("?"):
        return True
    return re.match(
        r"^\s*(?:who|what|when|where|which|why|how|is|are|was|were|do|does|did|has|have|had|can|could"
        r"|would|will|should|shall|am)\b(?!\s*\d)", sentence, re.IGNORECASE
    ) is not None and sentence == sentence.lower()


def negated_spans(text: str, patterns: Sequence[re.Pattern[str]] = ()) -> list[tuple[int, int]]:
    """Spans that name a value being negated or replaced."""
    spans: list[tuple[int, int]] = []
    for pattern in patterns or (NEGATOR, OLD_VALUE):
        for match in pattern.finditer(text):
            start = match.end()
            end_match = _CLAUSE_END.search(text, start)
            end = end_match.start() if end_match else len(text)
            if pattern is OLD_VALUE or pattern is EXPLICIT_OLD_VALUE:
                # an old value is a short noun phrase: up to four words (or the "to" of "from X to Y")
                words = list(re.finditer(r"\S+", text[start:end]))[:4]
                stop = next((w for w in words if w.group(0).lower() in ("to", "for", "with")), None)
                if stop is not None:
                    end = start + stop.start()
                elif words:
                    end = start + words[-1].end()
            spans.append((match.start(), end))
    return spans


def mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
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
    for sentence in split_sentences(text):
        if is_question(sentence):
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

