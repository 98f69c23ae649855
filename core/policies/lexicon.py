"""The lexicon of the supersession tracker: English cues and general value types.

Everything here reads text only (no session state): which sentences of a message could assert a
current fact, which spans negate or name a replaced value, and the general value types the claim
extractor (:mod:`.claims`) reads. The first two steps of the tracker live here:

1. **Is it an assertion?** Questions and exclamations ("That's amazing!") are set aside sentence by
   sentence ("Kelp ships Friday. Can
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
   "(was X)"; "from X" alone in a statement worded as a change) mark spans that name the value
   being *replaced*; what remains is asserted. When nothing remains, a negated verb of change
   ("We are not moving Kelp to Monday") is a denial and a past state ("Tom used to lead Kelp",
   "was in Lagos") is not current. The negated words are kept as evidence of which earlier claim
   is replaced.

Beyond these it holds only general value *types* that any text has (a date, an amount of money,
a time of day, a number) and closed classes of English (pronouns, modal verbs, negators, the
vocabulary of change). It holds no list of attributes and no values of any attribute: which words
are of one kind is learnt from the session itself (:mod:`.paradigms`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import islice
from typing import Final

from .chat import normalise
from .text import STOP_WORDS


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _words(*items: str) -> str:
    """A word-bounded alternation (hyphens bind: "dairy-free" is not "free"); items may be small regexes."""
    return r"(?<![\w'-])(?:" + "|".join(sorted(items, key=len, reverse=True)) + r")(?![\w'-])"


# -- 1. assertion or not ------------------------------------------------------------------------------

HEDGE: Final = _rx(
    _words(
        r"what if", r"if we", r"if only",
        # the speaker's counterfactual, offered unasked ("If you're asking what I'd do: …")
        r"what (?:i|we)(?:'d| would) do", r"if you(?:'re| are) asking(?: me)?",
        r"even if", r"suppose", r"supposing", r"imagine", r"imagining",
        r"hypothetically", r"in theory", r"theoretically", r"maybe", r"perhaps", r"possibly",
        r"probably", r"likely", r"might", r"could(?!\s+(?:not|no longer|never)\b)", r"wish", r"hope",
        r"hopefully",
        r"not sure", r"unsure", r"no idea", r"(?:do not|don't|does not|doesn't) know", r"dunno",
        r"if (?:it's |that's |this is |it is )?true", r"who knows", r"thinking out loud", r"thinking about",
        r"considering", r"wondering", r"just an idea", r"tentative\w*", r"tbd", r"tbc",
        # "pending" as an adjective ("approval is pending", "still pending.") is undecided; as a
        # preposition before its noun ("on hold pending sign-off") it bounds a state that holds
        r"to be confirmed", r"pending(?!\s+\w)", r"assuming", r"speculat\w*", r"i guess", r"in case",
        # "no doubt", "for the avoidance of doubt" are certainty, not doubt
        r"(?<!no )(?<!without )(?<!beyond )(?<!avoidance of )doubt\w*", r"thinks?", r"believes?",
        r"suspects?", r"whether", r"propos\w*", r"suggest\w*",
        r"decided against", r"reject\w*", r"talked about", r"would be nice",
        # "as discussed" refers to an agreement; "discussing X" is talk about a possibility
        r"(?<!as )(?<!like )discuss\w*",
    )
    # a conditional clause opening the sentence ("If X slips to Friday we lose the slot"); one
    # put to the hearer ("If you need X, talk to Y", "If urgent, call me") instructs, and "…, if
    # possible" after a statement is a courtesy
    + r"|(?:^|(?<=: ))(?:(?:oh|and|but|so|also|well|just),?[ \t])?if\b"
    + r"(?!\s+(?:you|u|anyone|anybody|someone|somebody|possible|needed|necessary|urgent|required|in doubt"
    + r"|in a hurry|any)\b)"
    + r"|\b(?:would|'d)\s+be\b|\bwould\b(?!\s+(?:like|love|prefer|rather|appreciate))"
    # the modal "may": lower case, or opening the sentence; "May" mid-sentence and "of/in may" are
    # the month ("the first Monday of May")
    + r"|(?<![\w'-])(?<!of )(?<!in )(?-i:may)(?![\w'-])(?!\s*\d)|^\s*May\b(?!\s*\d)"
)
"""Modality, hypotheticals and uncertainty: the statement does not assert a current fact."""

HEARSAY: Final = _rx(
    _words(
        r"rumou?r\w*", r"someone said", r"somebody said", r"people say", r"they say", r"i heard",
        # an indefinite source and its verb of saying ("someone on the shuttle said …")
        r"some(?:one|body)(?:\s+[\w'-]+){1,4}?\s+(?:said|says|told|mentioned|claimed|reckons)",
        # "reportedly" names its source as a report, as "according to" does; "allegedly",
        # "supposedly" put the statement in doubt
        r"heard", r"hearing", r"apparently", r"allegedly", r"supposedly",
        r"unconfirmed", r"unverified", r"not confirmed", r"nothing confirmed", r"not official",
        r"gossip\w*", r"word is", r"hearsay", r"grapevine", r"overheard",
        # reported speech with the speaker as its hearer: someone else's word, passed on
        r"(?:told|tells|informed|informs)\s+(?:me|us)",
    )
)
"""Evidentials: second-hand, unconfirmed information."""

NEVER_SUBJECT: Final = _rx(
    r"(?:^|(?<=\bthat )|(?<=[,;:] ))([^,;:.!?]{1,60}?)\s+(?:has|had|have|'s|'d|was|were|is|are)\s+never\b"
)
"""The subject of a clause negated with "never" ("X had never been in the running for Y", "X was
never an option for Y"): what it denies is that subject, so the subject names no value set."""

DENIAL: Final = _rx(
    r"\b(?:(?:is|are|was|were|been|be)\s+(?:\w+ly\s+)?denied|den(?:y|ies)|refut(?:e|es|ed))\s+that\b"
    r"|\b(?:it is|it's|that is|that's)\s+(?:\w+ly\s+)?(?:untrue|unfounded|baseless|false)\s+that\b"
    r"|[;,]\s*(?:it is|it's|this is|that is)\s+(?:\w+ly\s+)?(?:unfounded|baseless|untrue|false)\b"
    # an intention denied: "X has no plans for Y", "we have no intention of moving"
    r"|\b(?:has|have|had)\s+no\s+(?:plans?|intention)\s+(?:to|for|of)\b"
)
"""A proposition denied ("it is categorically denied that X is to move to Y"; "…; it is
unfounded"): embedded under a verb of denial, it is not asserted."""

RETRACTION: Final = _rx(
    r"\b(?:ignore|disregard)\s+(?:that|this|it|those|these|the|my|what)\b"
    r"|\bnever\s?mind\b|\bscratch that\b|\bforget (?:that|it|what i said)\b|\bmy mistake\b"
)
"""Wording that withdraws something said elsewhere."""

RETRACTION_CUE: Final = _rx(
    r"(?<!n't )(?<!not )(?<!never )(?<!\bi )(?<!to )\b(?:scratch|scrap|forget|ignore|disregard|strike)\b"
    r"|\bnever\s?mind\b|\bmy (?:mistake|bad)\b"
)
"""A verb of withdrawing ("scratch", "forget", "ignore"): with a new statement after it in the same
sentence ("forget it, it's $140k"; "scratch what I said, Kelp is on Monday") it is a correction,
and what it withdraws is replaced; with none ("ignore that thread") the sentence is withdrawn."""

CANCELLED: Final = _rx(
    r"\s(?:fell|falls|has fallen|have fallen|is falling) through\b"
    r"|\s(?:bailed|backed out|pulled out)\b"
    r"|\s(?:is|are|was|were|'s|got|has been|have been)\s+(?:now\s+)?(?:off(?!\s+to\b)|out(?=\s*[,.;:!?]|\s*$)"
    r"|cancel+ed|called off"
    r"|scrapped|dropped|dead|axed|canned|shelved|history|void|off the table"
    r"|over(?=\s*(?:[,.;:!?)]|$|\s(?:now|and|but)\b)))\b"
    r"|\s(?:did not|didn't|won't|will not) (?:work out|happen)\b|\s(?:is|are)(?: not|n't) happening\b"
)
"""A predicate of cancellation ("X fell through", "X is off", "the X phase is over", "X didn't work
out"): the noun phrase before it, in its clause, names a value no longer in force."""

_BACK_REFERENCE: Final = _rx(
    r"^\s*(?:it|that|this|those|these|all that|what i (?:said|wrote|told you)(?: \w+)?|the above)?\s*$"
)
"""The object of a withdrawing verb that points back ("forget *it*", "scratch *what I said before*")."""

EARLIER_VALUE: Final = _rx(
    r"\b(?:previous|earlier|prior|former|old|last|original)\s+(?:\w+\s+)?(?:is\s+|are\s+)?(?=\S)"
)
"""A reference to the value said before ("the previous status", "earlier date")."""

OUTDATED_RECORD: Final = _rx(
    r"\b(?:old|archived|withdrawn|superseded|former|earlier|previous|obsolete|outdated)\s+(?:[\w'-]+\s+){0,2}?"
    r"(?:agenda|notes|minutes|list|records?|version|draft|cop(?:y|ies)|files?|documents?|charts?|directory"
    r"|roster|schedules?|sheets?|pages?|wiki|docs?|memos?|plans?|calendar|entry|tickets?|spreadsheets?)"
    r"\s+(?:still|lists|listed|says|shows|gives|names)\b"
)
"""An out-of-date record still saying something ("an old agenda still carries X against Friday",
"the archived notes still had Y over X", "an earlier ticket lists X as …"): what it says is what
held once, not what holds."""

OUTDATED: Final = _rx(
    r"\boutdated\b|\bout[- ]of[- ]date\b|\bobsolete\b|\bdeprecated\b|\bsuperseded\b"
    r"|\bno longer (?:valid|accurate|true|current|correct)\b|\bnot current\b"
    # dated by what came after it: "that's from before the reshuffle"
    r"|\b(?:that's|that is|it's|it is|that was)\s+from\s+before\b"
    # what held once, said as such and denied for the present ("X was the figure in spring, not now")
    r"|\b(?:was|were)\b[^.;!?\n]{1,80}?,\s*(?:but\s+)?not (?:now|anymore|any more|these days)\b"
    r"|\bold\s+(?:\w+\s+)?(?:notes?|e-?mails?|docs?|documents?|pages?|wiki|messages?|threads?|tickets?"
    r"|slides?|decks?|plans?|invites?|calendars?|records?|files?|spreadsheets?|info|information)\b"
)
"""Pointers to superseded material ("old notes say…")."""

EPISODIC: Final = _rx(
    r"\byesterday\b|\blast (?:week|year|night|month|time|monday"
    r"|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|quarter)\b(?!\s+(?:of|in)\b)"
    r"|\bthis morning\b|\bearlier today\b|\bthe other day\b"
    # an event of today ("expected at the embassy this evening"): an episode, not a standing fact
    r"|\bthis (?:afternoon|evening)\b|\btonight\b"
    r"|\b(?:a|one|two|three|few|couple of|\d+)\s+(?:\w+\s+)?(?:days|weeks|months|years) ago\b"
    r"|\bover the weekend\b"
    # a past tense about today ("Lunch with Mo was fun today") is read by :func:`episodic_span`
)
"""A past episode (the past tense about today aside: see :func:`episodic_span`)."""

_PAST_TENSE: Final = _rx(r"\b(?:was|were)\b")
_TODAY: Final = _rx(r"\b(?:today|tonight)\b")
_EPISODE_BREAK: Final = re.compile(r"[.;!?]")


def _first_in_clause(
    text: str,
    base: re.Pattern[str],
    first: re.Pattern[str],
    last: re.Pattern[str],
    brk: re.Pattern[str],
    pos: int = 0,
) -> tuple[int, int] | None:
    """The span of the leftmost match of ``base`` with the alternative ``first[^marks]*last``
    after its others (``brk`` a mark), as one search of that pattern finds it, in linear work.

    Only the first ``first`` of a clause can open the leftmost match of ``first[^marks]*last``, and
    the greedy repeat ends it at the clause's last ``last``: each clause is read once (the pattern
    itself reads to the clause end from every ``first``). At one position, ``base`` wins (its
    alternatives come first, and none of those after opens as ``first`` does). With ``pos``, the
    search starts there, as ``pattern.search(text, pos)`` does."""
    found = base.search(text, pos)
    limit = found.start() if found is not None else len(text)
    while (opener := first.search(text, pos)) is not None and opener.start() < limit:
        mark = brk.search(text, opener.end())
        clause_end = mark.start() if mark is not None else len(text)
        closer = None
        for closer in last.finditer(text, opener.end(), clause_end):  # noqa: B007 (the last one)
            pass
        if closer is not None:
            return opener.start(), closer.end()
        pos = clause_end + 1  # no later opener of this clause has a closer after it either
    return found.span() if found is not None else None


def episodic_span(text: str) -> tuple[int, int] | None:
    """The span of the first past episode in ``text``: :data:`EPISODIC`, or a past tense about
    today ("Lunch with Mo was fun today": ``\b(?:was|were)\b[^.;!?]*\b(?:today|tonight)\b``, an
    episode of the day), as one search of the pattern with that alternative last, in linear work."""
    return _first_in_clause(text, EPISODIC, _PAST_TENSE, _TODAY, _EPISODE_BREAK)


PRESENT_STATE: Final = _rx(
    _words(
        r"now", r"currently", r"as of", r"since", r"these days", r"nowadays", r"anymore", r"any more",
        r"no longer", r"from now on", r"going forward", r"from here on", r"at the moment", r"right now",
        r"effective", r"starting", r"henceforth", r"today on", r"as at", r"at present", r"presently",
        r"with effect from", r"until further notice",
    )
)
"""Wording about the present state, which keeps a statement with a past-time phrase a claim."""

_PAST_VERB: Final = (
    r"(?:just\s+|finally\s+|recently\s+|also\s+)?(?:went|had|did|made|took|saw|got|ate|met"
    r"|found|tried|bought|gave|spent|visited|started|joined|finished|learned|learnt|watched|read|ran"
    r"|sat|stood|caught|came|drove|flew|wrote|spoke|sent|heard|kept|brought|thought|felt|lost|won"
    r"|signed up|[a-z]+(?<!e)ed)\b"
)
DISCOURSE_OPENER: Final = r"(?:(?:oh|and|also|so|ok|okay|anyway|hey|hi|hmm|well|right)\b[\s,]*)*"
"""Words that open a chat sentence before what it says ("oh and …", "also, …", "so …")."""

PAST_NARRATIVE: Final = _rx(
    rf"\b(?:i|we)\s+{_PAST_VERB}"
    # the subject left out, as chat does ("Spent the morning debugging…", "Had coffee with…"): a
    # sentence that opens with a past verb and its object
    # (after a short lead-in too: "small thing: Spent the morning…")
    # (or with the company or the place it was spent in: "Sat with Tom over…", "Ran into Tom…")
    rf"|(?:^|(?<=[.!?]\s)|(?<=: )){DISCOURSE_OPENER}(?!sat\s+the\s+\d){_PAST_VERB}"
    r"(?=\s+(?:a|an|the|my|our|some|\w+\s+with|with|into|through)\b)"
    # the speaker as the object of a named person's past verb ("Tom walked me through the
    # dashboard"; not "It made me realise…", an evaluation), the name typed in lower case too when
    # it opens the message ("tom walked me …")
    rf"|(?-i:\b(?!(?:It|This|That|They|He|She|We|You|There|What|Which|Who)\b)[A-Z][\w'-]*|^[a-z][\w'-]*)\s+"
    rf"{_PAST_VERB}\s+(?:me|us)\b"
)
"""First-person simple past ("I went", "we tried", "Spent the morning…", "Tom walked me through
…"): narration, unless update wording says otherwise."""

_NOT_REPAIRED: Final = (
    r"(?!\s+(?:the|a|an|that|this|my|our)\s+(?:[\w'-]+\s+){0,2}?(?:thing|bug|issue|problem|glitch|error|crash|leak"
    r"|build|test|typo|link|printer|laptop|screen)s?\b)"
)
"""Not "fixed the X bug": "fixed" settles ("we fixed the date") unless what it fixes is a fault."""

DECISION: Final = _rx(
    r"\b(?:i|we|they)\s+(?:just\s+|finally\s+|now\s+|have\s+|'ve\s+)?(?:decided|agreed|settled|chose|picked"
    r"|fixed" + _NOT_REPAIRED
    + r"|confirmed|finali[sz]ed|locked in|opted|went with|signed off|approved|booked|set)\b"
)
"""A decision reported in the past ("we decided", "we agreed on", "we settled on"): what it settled
is in force now, unlike a narrated episode."""

PAST_STATE: Final = re.compile(
    # a passive of deciding or assigning ("was approved", "was attached to") reports a decision in
    # force, not "was a…", "was at…"
    r"\b(?:[Ww]as|[Ww]ere)\s+(?!(?:approv|agre|accept|adopt|appoint|assign|allocat|authori[sz]|award"
    r"|attach|ordain|install)ed\b)(?:in|at|on|with|there|here|a|an|the|[A-Z$€£\d])"
)
"""A past state ("was in Lagos", "was Tom") once negated and replaced values are set aside."""

PAST_EVALUATION: Final = re.compile(
    r"\b(?:[Ww]as|[Ww]ere)\s+(?:really\s+|very\s+|so\s+|quite\s+|pretty\s+)?"
    r"(?!(?:not|no|never|also|still|now|then|being|going|to|due|set|about|just)\b)(?![a-z]+(?:ed|en)\b)"
    # a passive with an irregular participle reports an action ("was brought forward", "was made lead")
    r"(?!(?:made|brought|put|set|cut|sent|kept|held|told|paid|bought|built|left|lost|found|shown|done"
    r"|run|won|sold|led|met|read|spent|hit|let|shut|sat|stood|got|heard|meant|taught|thought|caught"
    r"|dealt|lent|bent|struck|hung|chosen|moved|named)\b)[a-z]+\b"
    r"(?!\s+(?:to|that|as|for|by|from)\b)"
)
"""A past evaluation ("the retro ran long but was useful"): with no present-tense verb beside it
(:data:`PRESENT_VERB`), the sentence narrates an episode."""

PRESENT_VERB: Final = _rx(
    r"\b(?:is|are|am|has|have|will|shall|must|should|can|does|do)\b|'s\b|'re\b|'m\b|'ll\b"
)
"""A finite verb of the present or the future."""

TASK_VERB: Final = _rx(
    r"^\s*" + DISCOURSE_OPENER + r"(?:please\s+|pls\s+|kindly\s+)?"
    r"(?:send|draft|write|list|summari[sz]e|tidy|plan|prepare|check"
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
    r"(?:\b(?:from(?=\s[^.;,!?]*\bto\b)|instead of|rather than|in place of|replacing|replaces|used to be"
    r"|used to|previously"
    r"|formerly|originally|down from|up from|no longer"
    # what a record said, in a correction: "was (incorrectly) recorded as X; it is Y"
    r"|(?:was|were)\s+(?:\w+ly\s+)?(?:recorded|listed|reported|circulated|minuted|described|given|stated"
    r"|entered|shown|logged|noted)(?:\s+as\s+taking\s+place)?\s+(?:as|under(?:\s+the)?|in|at|for))"
    # a past state contrasted with the present: "was X but now Y", "was X, now Y", "was X, yes,
    # but Y these days"
    r"|(?:was|were)(?=\s[^.;!?]{0,80}(?:(?:\bbut|,)\s+|\bbut\b[^.;!?]{0,60}\b)"
    r"(?:now|today|these days|currently)\b)"
    r"|\((?:was|before|earlier|until now)|, was"
    # the speaker's own earlier answer, taken back in the same sentence: "I told you X for Y, but
    # that's out of date", "I said X earlier, didn't I?"
    r"|\b(?:i|we)\s+(?:told you|said|gave you)(?=\s[^.;!?]{1,60}(?:\bbut\b|\bdidn't\b)))\s+"
    r"(?!(?:now|today|tonight|tomorrow|here|then|there|on|the (?:start|beginning)|next|this|that|for)\b)"
)
"""Words after which the value being replaced is named ("from Lisbon to", "instead of Slack")."""

FROM_VALUE: Final = _rx(r"\bfrom\s+(?!(?:now|today|here|then|there|the (?:start|beginning)|next|this)\b)")
"""In a statement worded as a change, "from X" alone names the old value ("taking over Kelp from Tom")."""

_CLAUSE_END: Final = re.compile(
    r"[,;:.!?()\n]|\s(?:but|and|so|instead|rather|it's|it is|we're|they're|they are|he's|she's|he is|she is"
    r"|anymore|any more)(?:\s|$)|\s[-–—→]+\s|->"
)

EXPLICIT_OLD_VALUE: Final = _rx(
    r"(?:\b(?:instead of|rather than|in place of|replacing|replaces|used to be|previously|formerly"
    r"|originally|down from|up from|no longer)|\((?:was|before|earlier|until now)|, was"
    r"|\bfrom(?=\s[^.;,!?]*\bto\b))\s+"
)
"""The old-value markers that say, on their own, that a value is replaced ("from X to", "instead of")."""

CHANGE_VERB: Final = _rx(
    _words(
        r"mov\w*", r"chang\w*", r"switch\w*", r"shift\w*", r"relocat\w*", r"postpon\w*", r"delay\w*",
        r"cancel\w*", r"replac\w*", r"swap\w*", r"resched\w*", r"transferr?\w*", r"going", r"happening",
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
        r"going forward", r"from here on", r"these days", r"nowadays", r"as of", r"effective",
        r"henceforth", r"update[ds]?", r"updating", r"chang\w*", r"switch\w*", r"swap\w*",
        r"mov(?:e|es|ed|ing)", r"shift\w*", r"relocat\w*", r"transferr?\w*", r"replac\w*", r"new",
        r"revis\w*", r"correct(?:ion|ed)", r"actually", r"turns out", r"no more", r"bec(?:o|a)me",
        r"becoming", r"resched\w*", r"postpon\w*", r"delay\w*", r"cancel\w*", r"amend\w*",
        r"adjust\w*", r"modif\w*", r"alter(?:s|ed|ing)?", r"increas\w*", r"decreas\w*",
        r"rais(?:e|es|ed|ing)", r"lower(?:s|ed|ing)", r"reduc\w*", r"extend\w*",
        r"t(?:ake|akes|aking|ook) over",
        # the vocabulary of formal correction: a notice that a record was wrong or has been replaced
        r"errat(?:um|a)", r"corrigend(?:um|a)", r"incorrectly", r"in error", r"should (?:have )?read",
        r"supersed\w*", r"rescind\w*", r"withdrawn", r"lapsed", r"substitut\w*", r"re-?designat\w*",
        r"reassign\w*", r"re-?timetabl\w*", r"reallocat\w*", r"obsolete", r"no longer applies",
    )
    + r"|\bfrom\b[^.;]*\bto\b|→|->"
)
"""The general English vocabulary of change (time adverbs of the present, verbs of changing,
moving, replacing, correcting, raising and lowering; "from X to Y"): a statement with it says
that something is different from before."""

_UPDATE_FROM_TO: Final = r"|\bfrom\b[^.;]*\bto\b"
_UPDATE_MARKER_BASE: Final = re.compile(
    UPDATE_MARKER.pattern.replace(_UPDATE_FROM_TO, "", 1), UPDATE_MARKER.flags
)
_FROM: Final = _rx(r"\bfrom\b")
_CLAUSE_TO: Final = _rx(r"\bto\b")
_UPDATE_BREAK: Final = re.compile(r"[.;]")


def marker_span(text: str, pos: int = 0) -> tuple[int, int] | None:
    """The span :data:`UPDATE_MARKER`'s search (from ``pos``) finds, in linear work: its "from X
    to" (``\bfrom\b[^.;]*\bto\b``) is read clause by clause (see :func:`_first_in_clause`). The
    pattern itself is kept for ``fullmatch``, where it reads from one position only."""
    return _first_in_clause(text, _UPDATE_MARKER_BASE, _FROM, _CLAUSE_TO, _UPDATE_BREAK, pos)


def update_marker_span(text: str) -> tuple[int, int] | None:
    """The first wording of change in ``text`` (:func:`marker_span`), but for two uses of its words
    that say nothing changed: a word of change used as a noun that ends its clause, after a
    determiner or a possessive ("sat with Tom over the data move;", "a lot of change."), names an
    event, and one whose object is the hearer ("just to update you: …") tells the news. The search
    goes on after either."""
    pos = 0
    while (span := marker_span(text, pos)) is not None:
        start, end = span
        noun = (
            _CHANGE_NOUN.fullmatch(text, start, end)
            and _NOUN_BEFORE.search(text, max(0, start - 40), start)
            and _CLAUSE_END_AFTER.match(text, end)
        )
        if not (noun or _HEARER_AFTER.match(text, end)):
            return start, end
        pos = end
    return None


_NOUN_BEFORE: Final = _rx(
    r"(?:'s|’s|\b(?:the|a|an|its|their|our|my|your|his|her|of))\s+(?:[\w-]+\s+)?$"
)
"""A determiner or a possessive (and a modifier) just before a word: the word is a noun."""
_CLAUSE_END_AFTER: Final = re.compile(r"\s*(?:[.;,!?)]|$)")
_CHANGE_NOUN: Final = _rx(
    r"(?:move|moves|changes?|switch(?:es)?|shifts?|swaps?|updates?|transfers?|delays?|increases?"
    r"|decreases?|reductions?|revisions?|amendments?|adjustments?|replacements?|extensions?)"
)
"""The words of change that are nouns too ("the move", "a change")."""
_HEARER_AFTER: Final = _rx(r"\s+(?:you|y'all|everyone|everybody|all)\b")

STANDING: Final = _rx(
    _words(
        r"from now on", r"going forward", r"from here on", r"always", r"never", r"only", r"these days",
        r"nowadays", r"anymore", r"any more", r"for good", r"whenever", r"every time", r"by default",
        r"as a rule", r"usually", r"please",
    )
)
"""Standing wording: an elliptical statement with it ("Switching to vegan from now on") is the
speaker's own, like first-person wording."""

HEADING: Final = re.compile(r"^\s*(?:[^\W\d_][\w'-]*\s+){0,2}[^\W\d_][\w'-]*:\s+")
"""A short label opening a message ("Update: …", "Side note: …", "Heads-up: …"): it says the
message is news, not who or what the message is about, nor that a narrated episode is a state."""

OWN_EARLIER_MESSAGE: Final = _rx(
    r"\b(?:my|our)\s+(?:(?:previous|last|earlier|prior|former|original|recent)\s+)?(?:\w+\s+)?"
    r"(?:message|note|mail|e-?mail|circular|memo|letter|post|reply|answer|correspondence|minutes|report|relay)s?\b"
    r"(?<!\bmy report)(?<!\bmy reports)(?<!\bour report)(?<!\bour reports)"
    # the speaker's own earlier words: "where I said before", "the date I gave you"
    r"|\bi\s+(?:said|told you|gave you|mentioned|wrote|sent you)\b"
    # the news the speaker passed on before: "correction to what I relayed", "the title I passed on"
    r"|\bi\s+(?:relayed|passed on|reported|forwarded)\b"
    # the speaker owning up to an earlier slip: "I misspoke", "I had that wrong", "…, didn't I?"
    r"|\b(?:i|we)\s+(?:misspoke|misspeak|misremembered|misheard|misread)\b"
    r"|\b(?:i|we)\s+(?:had|got)\s+(?:that|it|this)\s+wrong\b|\bdidn't\s+(?:i|we)\b"
    # the speaker as the hearer of a report ("HR told me X", "I'm told X", "as I understand it")
    r"|\b(?:told|informed|tells|informs)\s+(?:me|us)\b|\b(?:i'm|i am|i was|we were|we're)\s+told\b"
    r"|\b(?:i|we)\s+(?:gather|hear)\b|\bas\s+(?:i|we)\s+understand\s+it\b"
    # how sure the speaker is, an aside about the statement, not about the speaker: "as far as I
    # know", "to my knowledge", "if I'm not mistaken", "if I remember rightly"
    r"|\bas\s+far\s+as\s+(?:i|we)\s+(?:know|can\s+tell|can\s+see|are\s+aware|am\s+aware)\b"
    r"|\bto\s+(?:my|our)\s+(?:knowledge|mind)\b|\bif\s+(?:i'm|i\s+am)\s+not\s+mistaken\b"
    r"|\bif\s+(?:i|we)\s+remember\s+(?:rightly|correctly)\b|\bif\s+(?:i|we)\s+recall\b"
)
"""The speaker's own earlier message ("further to my previous message", "the figure in my last
note", "where I said before"): a reference to the conversation, not to the speaker's attributes."""

FIRST_PERSON: Final = _rx(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|i'll)\b|\bthe undersigned\b")
"""The speaker ("the undersigned" is the writer of a formal letter)."""
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
_WEEKDAY_SHORT: Final = r"(?:mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)"
"""A weekday's abbreviation ("weds", "thurs")."""
_BEFORE_NOUN: Final = (
    r"(?=\s+(?!(?:of|and|or|but|nor|is|are|was|were|be|been|will|would|could|should|can|may|might|must"
    r"|now|instead|then|than|at|in|on|for|to|from|with|by|so|as|if|it|its|this|that|these|those|the|a|an"
    r"|because|since|until|till|too|also|please|thanks|works|work|again|anymore|still|only|not|no|we|i"
    r"|you|they|he|she|who|which|when|where|what|or|latest|onwards|sharp|already|yet)\b)[a-z]{3,}\b)"
)
"""An ordinal before a noun ("the 3rd floor", "the 7th round"; "the 14th-floor lounge", joined to it
by a hyphen) is an adjective of that noun, not a day of the month."""
DATE_VALUE: Final = _rx(
    # a weekday with its day of the month, and "the 14th of May", are one date; a weekday's
    # abbreviation is one only so placed ("fri the 13th", "thurs 10/22", "next weds"): alone,
    # "sat", "sun", "wed" are words of their own
    rf"\b{_WEEKDAY_SHORT}\.?\s+(?:the\s+\d{{1,2}}(?:st|nd|rd|th)|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?)\b"
    rf"|\b(?:next|this)\s+{_WEEKDAY_SHORT}\b"
    rf"|\b{_WEEKDAY}\s+the\s+\d{{1,2}}(?:st|nd|rd|th)\b|\bthe\s+\d{{1,2}}(?:st|nd|rd|th)\s+of\s+{_MONTH}\b"
    rf"|\b{_WEEKDAY}\b(?!s)|\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b"
    r"|\bthe \d{1,2}(?:st|nd|rd|th)\b(?!-)(?-i:(?!" + _BEFORE_NOUN + r"))"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
    # day and month with dots, as much of the world writes them ("22.05", "3.11.2026"): a day
    # of 1-31 and a month of two digits, 01-12, not part of a longer figure or an amount
    r"|(?<![\d.,])(?<![$¢£¥€₹₦])(?<!version )(?<!\bv)(?:0?[1-9]|[12]\d|3[01])\.(?:0[1-9]|1[0-2])"
    r"(?:\.\d{2,4})?(?!\d|[.,]\d|%)"
    r"(?!\s?(?:k|m|mn|bn|million|thousand|billion|lakhs?|crores?|x|kg|km|mb|gb|hours?|h|per)\b)"
    r"|\btomorrow\b|\bnext (?:week|month|quarter|sprint)\b|\bend of (?:the )?(?:week|month|quarter|year)\b"
    r"|\bq[1-4]\b|\bmid-?(?:" + _MONTH + r")\b"
)
"""A day or date (for a schedule)."""

_CURRENCY_SIGN: Final = (
    "$¢£¤¥\u058f\u060b\u09f2\u09f3\u0e3f\u17db\u20a0-\u20c0\ufdfc\ufe69\uff04\uffe0\uffe1\uffe5\uffe6"
)
"""Unicode's currency signs (category Sc: $, £, ¥, and U+20A0–U+20C0, ₹, ₦, ₩, ₱, ₫, € …)."""
_MULTIPLIER: Final = r"(?:k|m|mn|bn|million|thousand|billion|lakhs?|lacs?|crores?)"
"""Words that multiply an amount (with the lakh, 100,000, and the crore, 10,000,000, of South Asia)."""
MONEY_VALUE: Final = _rx(
    # a sign, with the country's letters before a dollar ("A$", "NZ$", "US$", "HK$")
    rf"(?-i:\b[A-Z]{{1,3}}(?=\$))?[{_CURRENCY_SIGN}]\s?\d[\d,.]*\s?{_MULTIPLIER}?\b"
    rf"|\b\d[\d,.]*\s?(?:k|m|mn|bn)\b(?!\s*(?:users|people|rows|downloads|views|visits|steps|miles|km))"
    rf"|\b\d[\d,.]*\s?(?:dollars|euros?|pounds|bucks|grand|rupees|usd|eur|gbp|million|thousand|billion|lakhs?"
    r"|crores?)\b"
    r"|\b(?:usd|eur|gbp|chf|jpy|cad|aud|sek|nok|dkk|nzd|inr|cny|hkd|sgd|zar|pln|czk|huf|brl|mxn)\s?\d[\d,.]*"
    # an ISO 4217 code before an amount, as business writing puts it ("NOK 540,000")
    r"|(?-i:\b[A-Z]{3})\s?\d[\d,.]*\d"
)
"""An amount of money (for a budget)."""

TIME_VALUE: Final = _rx(
    r"\b(?:in the |early in the |late in the )?(?:morning|afternoon|evening|night)s?\b|\bnoon\b|\bmidday\b"
    r"|\bmidnight\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b"
    r"|\b(?:before|after|until|till|between|by|around)\s+(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)?"
    r"(?:\s?(?:and|-|to)\s?\d{1,2}(?::\d{2})?\s?(?:am|pm)?)?|lunch|noon|dinner|breakfast)"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"
)
"""A time of day or a recurring day."""

NUMBER_VALUE: Final = re.compile(
    # a number after a noun of enumeration ("item 4", "point 3", "section 2") labels an entry of a
    # document; it is no figure
    r"(?<![Ii]tem )(?<![Pp]oint )(?<![Ss]ection )(?<![Cc]lause )(?<![Pp]aragraph )(?<![Mm]otion )"
    r"(?<![\w$€£,.])\d[\d,.]*(?:(?:st|nd|rd|th)(?!-|" + _BEFORE_NOUN[3:] + r"|%)?(?![\w])"
    # a number of seconds, minutes or hours is how long something took, no figure of an attribute
    r"(?!\s?(?:secs?|seconds?|mins?|minutes?|hrs?|hours?)\b)"
)
"""A bare number (a count, a figure); not a duration ("froze for 10 sec")."""


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
SENTENCE_MARKS: Final = frozenset(".!?:;")


def at_sentence_start(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence: only whitespace before it, or a line
    break or a sentence mark and whitespace just before it. Looks at the whitespace before the
    word only (a cost of its length, never of the text before it)."""
    j = start
    while j > 0 and text[j - 1].isspace():
        j -= 1
    return j == 0 or "\n" in text[j:start] or (j < start and text[j - 1] in SENTENCE_MARKS)
PRONOUN_AFTER: Final = _rx(r"\s+(?:me|my|us|our|you|your|them|it|him|her)\b")
"""A capitalised word followed by an object pronoun opens an imperative ("Give me…"), not a name."""

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




def split_sentences(text: str) -> list[str]:
    return [s for s in (part.strip() for part in _SENTENCE_BREAK.split(text)) if s]


def is_question(sentence: str) -> bool:
    if sentence.rstrip().endswith("?"):
        return True
    return re.match(
        r"^\s*(?:who|what|when|where|which|why|how|is|are|was|were|do|does|did|has|have|had|can|could"
        r"|would|will|should|shall|am)\b(?!\s*\d)", sentence, re.IGNORECASE
    ) is not None and sentence == sentence.lower()


_FROM_TO: Final = r"from(?=\s[^.;,!?]*\bto\b)"
"""The "from" of "from X to": a lookahead that reads to the clause end from every "from"; the
searches below test it against the positions of "to" and of the clause marks, found once."""
_TO: Final = _rx(r"\bto\b")
_FROM_TO_STOP: Final = re.compile(r"[.;,!?]")
_NON_SPACE: Final = re.compile(r"\S+")
_CLAUSE_END_AT: Final = re.compile(r"(?=" + _CLAUSE_END.pattern + r")")
"""Every position where a clause end begins (overlapping ones too: what a search from any
position finds first)."""


def _without_from_to(pattern: re.Pattern[str]) -> re.Pattern[str]:
    assert pattern.pattern.count(_FROM_TO) == 1
    return re.compile(pattern.pattern.replace(_FROM_TO, r"(?P<from_to>from)(?=\s)"), pattern.flags)


_LINEAR_FROM_TO: Final = {
    OLD_VALUE: _without_from_to(OLD_VALUE), EXPLICIT_OLD_VALUE: _without_from_to(EXPLICIT_OLD_VALUE)
}


def _positions(pattern: re.Pattern[str], text: str) -> list[int]:
    return [m.start() for m in pattern.finditer(text)]


def old_value_matches(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, in work linear in the text for the patterns with the lookahead of
    "from X to" (:data:`OLD_VALUE`, :data:`EXPLICIT_OLD_VALUE`); any other pattern as it is.

    The "from" is kept when a "to" begins after its blank before any of ``.;,!?``: the same test
    as the lookahead, read off the sorted positions of "to" and of those marks (found once)."""
    linear = _LINEAR_FROM_TO.get(pattern)
    if linear is None:
        yield from pattern.finditer(text)
        return
    tos: list[int] | None = None
    stops: list[int] = []
    pos = 0
    while (match := linear.search(text, pos)) is not None:
        if match.group("from_to") is not None:
            if tos is None:
                tos, stops = _positions(_TO, text), _positions(_FROM_TO_STOP, text)
            after = match.end("from_to") + 1  # past the blank the lookahead reads first
            to = bisect_left(tos, after)
            stop = bisect_left(stops, after)
            if to == len(tos) or (stop < len(stops) and stops[stop] < tos[to]):
                pos = match.start() + 1  # no "to" in its clause: no match here (none other starts "from")
                continue
        yield match
        pos = match.end()  # never empty: every alternative reads a character


def old_value_search(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """``pattern.search(text)`` in linear work (see :func:`old_value_matches`)."""
    return next(old_value_matches(pattern, text), None)


def negated_spans(text: str, patterns: Sequence[re.Pattern[str]] = ()) -> list[tuple[int, int]]:
    """Spans that name a value being negated or replaced.

    Linear in the text: the clause ends are found once (every position one begins at) and each
    span's end is looked up; an old value reads at most four words of its clause."""
    spans: list[tuple[int, int]] = []
    ends: list[int] | None = None
    for pattern in patterns or (NEGATOR, OLD_VALUE):
        for match in old_value_matches(pattern, text):
            start = match.end()
            if ends is None:
                ends = _positions(_CLAUSE_END_AT, text)
            index = bisect_left(ends, start)
            end = ends[index] if index < len(ends) else len(text)
            if pattern is OLD_VALUE or pattern is EXPLICIT_OLD_VALUE or pattern is FROM_VALUE:
                # an old value is a short noun phrase: up to four words (or the "to" of "from X to Y")
                words = list(islice(_NON_SPACE.finditer(text, start, end), 4))
                stop = next((w for w in words if w.group(0).lower() in ("to", "for", "with")), None)
                if stop is not None:
                    end = stop.start()
                elif words:
                    end = words[-1].end()
            spans.append((match.start(), end))
    return spans


def mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the characters of ``spans`` blanked; the spans are merged first, so that
    many overlapping spans (one per negator of a long clause) cost their count, not their sum."""
    size = len(text)
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if start < 0:  # a negative index counts from the end (as the loop over the list once did)
            chars = list(text)
            for i in range(start, min(end, size)):
                chars[i] = " "
            text = "".join(chars)
            continue
        end = min(end, size)
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    pieces: list[str] = []
    last = 0
    for start, end in merged:
        pieces += [text[last:start], " " * (end - start)]
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _colon_value(sentence: str, clause_end: re.Match[str]) -> bool:
    """Whether a colon ends the clause and a name follows it ("…, but that's out of date:
    Mullingar."): what the colon introduces is the value that holds instead."""
    return clause_end.group(0) == ":" and re.match(r"\s*[A-Z]", sentence[clause_end.end() :]) is not None


def _states_value(text: str) -> bool:
    """Whether a clause sets something: a typed value, wording of change, or a capitalised word
    past its first ("forget it, it's $140k"; "…, Kelp is now Monday"; "…, the Mill it is")."""
    if any(p.search(text) for p in (DATE_VALUE, MONEY_VALUE, TIME_VALUE, NUMBER_VALUE)) or (
        update_marker_span(text) is not None
    ):
        return True
    return any(
        m.group(0)[:1].isupper() and not at_sentence_start(text, m.start()) for m in NAME_WORD.finditer(text)
    )


def _withdrawal_end(text: str, cue: re.Match[str]) -> tuple[int, int] | None:
    """Where the clause of a withdrawing verb ends and where what follows it starts (None: at the
    text's end). "Never mind" with no object ("never mind, …"; "never mind X is Y") withdraws
    something said before and ends where it is said."""
    if _BARE_NEVER_MIND.match(text, cue.start()):
        return cue.end(), cue.end()
    end_match = _CLAUSE_END.search(text, cue.end())
    return None if end_match is None else end_match.span()


_BARE_NEVER_MIND: Final = _rx(r"never\s?mind\b(?!\s*(?:about|abt|that|this|it|what|the\s+\w+\s*[,\n]))")
""""Never mind" with no object, before a clause of its own ("never mind, Kelp is on Monday")."""


def _withdrawn_object(text: str, cue: re.Match[str]) -> tuple[int, int]:
    """The span a withdrawing verb's object covers: its clause, or, when it points back ("forget
    it"), what the sentence said before the verb."""
    bounds = _withdrawal_end(text, cue)
    end = bounds[0] if bounds else len(text)
    if _BACK_REFERENCE.match(text[cue.end() : end]):
        start = max(text.rfind(mark, 0, cue.start()) for mark in ".!?") + 1
        return start, cue.start()
    return cue.start(), end


def correction(sentence: str) -> bool:
    """Whether a sentence withdraws something and states what holds instead, after the clause of
    its withdrawing verb ("forget it, it's $140k"), in the next text (a line of its own after
    "scratch that about X": the text after a withdrawal is what replaces it), or after a bare
    "never mind" ("never mind, Kelp is on Monday")."""
    cue = RETRACTION_CUE.search(sentence)
    if cue is None:
        return False
    bounds = _withdrawal_end(sentence, cue)
    if bounds is None:
        return False
    rest = sentence[bounds[1] :]
    if _states_value(rest):
        return True
    told = bounds[0] == cue.end() or sentence[bounds[0] : bounds[1]] == "\n"
    return told and re.search(r"\w", rest) is not None and (
        PRESENT_VERB.search(rest) is not None or "\n" in sentence[bounds[0] : bounds[1]]
    )


_CANCELLED_CLAUSE_MARK: Final = re.compile(r"[,;:(.!?]")


def withdrawn_spans(text: str) -> list[tuple[int, int, bool]]:
    """Spans of ``text`` that name what a correction or a cancellation withdraws, each with whether
    the span holds nothing else (a parenthesis: "(the Boathouse is off)") — otherwise it may also
    name the subject ("Monday for Kelp fell through")."""
    spans: list[tuple[int, int, bool]] = []
    marks: list[int] | None = None
    for match in CANCELLED.finditer(text):
        # the clause opens after the last of ",;:(.!?" before the predicate: looked up among the
        # marks' positions, found once (a search back from every predicate reads the text again)
        if marks is None:
            marks = _positions(_CANCELLED_CLAUSE_MARK, text)
        index = bisect_left(marks, match.start())
        start = marks[index - 1] + 1 if index else 0
        spans.append((start, match.start(), start > 0 and text[start - 1] == "("))
    for sentence_match in re.finditer(r"[^.!?]+[.!?]*", text):
        sentence = sentence_match.group(0)
        cue = RETRACTION_CUE.search(sentence)
        if cue is not None and correction(sentence):
            offset = sentence_match.start()
            start, end = _withdrawn_object(sentence, cue)
            spans.append((offset + start, offset + end, False))
            if end == cue.start():  # it points back: its own clause says nothing ("scratch what I said")
                bounds = _withdrawal_end(sentence, cue)
                stop = bounds[0] if bounds else cue.end()
                spans.append((offset + cue.start(), offset + stop, True))
    return spans


def _answered(question: str, answer: str) -> bool:
    """Whether ``answer``, the next sentence, answers a question the speaker asked themselves
    ("Who runs Kelp? Tom now."; "Remember the $9k for Kelp? Forget it, it's $12k."): the question is
    addressed to no one ("you") and the answer is short or a correction."""
    if SECOND_PERSON.search(question) or ANYONE.search(question) or is_question(answer):
        return False  # asked of the hearer, or of anyone who knows
    if answer.lstrip().startswith(("(", "[")):
        return False  # a parenthesis comments on the question ("(asking for the invite)"); it answers nothing
    if ALTERNATIVE.match(answer.lstrip()):
        return False  # "… still on Friday? or not?": an alternative the question offers, no answer
    if APOLOGY.match(answer.lstrip()) and not _GIVES_VALUE.search(answer):
        return False  # "… 28 grand? sorry, typos": an apology answers nothing
    if not re.search(r"\d", answer) and all(
        w in STOP_WORDS or w in GENERIC for w in re.findall(r"[a-z']+", answer.lower())
    ):
        return False  # "Thanks." answers nothing; a figure ("€7,250, all in.") does
    if REJECTION.match(answer.lstrip()) or IGNORANCE.search(answer):
        return False  # "Rubbish; …" rejects what the question proposed; "No idea." knows no answer
    if CONDITIONAL.search(EXPECTATION.sub(" ", answer)):
        return False  # "Holler if that breaks anything." is a conditional: it commits to nothing
    # the answer is its first clause; what a comma adds after it ("…, and the deposit's gone in")
    # comments on it
    return len(answer.split(",")[0].split()) <= SHORT_ANSWER_WORDS or correction(answer)


_GIVES_VALUE: Final = _rx(r"\b(?:it's|it is|that's|that is)\s+(?=\S)")
"""An apology that goes on to give the value ("Sorry — it's €7,250") corrects; it answers."""
EXPECTATION: Final = _rx(r"\bif (?:all|everything) goes (?:to plan|according to plan|well)\b")
""""If all goes to plan": the speaker's expectation, no condition the statement waits on."""


ALTERNATIVE: Final = _rx(r"or\b")
APOLOGY: Final = _rx(r"(?:sorry|sry|soz|apologies|my bad)\b")
"""A sentence opening with an apology."""
"""A sentence opening with "or" after a question: the question's other alternative ("… or nah")."""
REJECTION: Final = _rx(
    r"(?:no|nope|nah|rubbish|nonsense|not at all|not true|untrue|false|wrong|of course not"
    r"|certainly not|definitely not|absolutely not)\b(?!\s*(?:longer|more|one)\b)"
)
"""An answer that opens by rejecting the question's proposal ("X moving to Oslo? Nonsense, …")."""
IGNORANCE: Final = _rx(
    r"\b(?:no idea|no clue|not sure|unsure|(?:don't|do not|didn't|did not) know|dunno|lost track"
    r"|(?:can't|cannot|can not|don't|do not) (?:remember|recall)|i forget|i forgot|beats me|who knows)\b"
)
"""Saying one does not know ("No idea.", "I've lost track of it.")."""
CONDITIONAL: Final = _rx(r"\b(?:if|unless)\b")
"""A conditional clause anywhere in a sentence ("Holler if that breaks anything.")."""


ANYONE: Final = _rx(r"\b(?:anyone|anybody|someone|somebody|everyone|everybody|any of you|does any ?one)\b")
"""A question put to whoever knows ("anyone knows the budget?"): it waits for an answer from another."""

SHORT_ANSWER_WORDS: Final = 8
"""Longest answer read with the question before it as one statement."""


PREAMBLE: Final = _rx(r"^.*?\b(?:anyway|anyways|anyhow|long story short|in any case|point is)\b[\s,:]*(?=\w)")
"""Talk before a return to the point ("Had coffee with the team, long story, anyway Kelp ships
Monday"): what follows it is what the sentence says."""


def _without_preamble(sentence: str) -> str:
    match = PREAMBLE.search(sentence)
    return sentence[match.end() :] if match else sentence


OPINION: Final = _rx(r"\b(?:i|we)\s+(?:think|guess|believe|suppose|feel|reckon|hope)\b")
"""A first-person verb of opinion ("I think", "I guess")."""

SETTLED: Final = _rx(
    r"\b(?:confirmed|decided|agreed|approved|settled|finali[sz]ed|signed off|locked in|fixed" + _NOT_REPAIRED
    + r"|booked"
    r"|reserved|chose|picked)\b"
)
"""Participles of deciding: a past-time phrase with one ("confirmed by the boss yesterday") dates
the decision, and what it settled holds now."""


def _without_opinions(sentence: str) -> str:
    """The sentence without its closing clauses that give the speaker's opinion of what the first
    clause said ("…, better than nothing I guess"; "…, I think good choice"): a comment with its own
    content does not hedge the statement; a bare one ("…, I think") does, and is kept."""
    clauses = sentence.split(", ")
    while len(clauses) > 1 and (opinion := OPINION.search(clauses[-1])) is not None:
        rest = mask(clauses[-1], [opinion.span()])
        if not any(w not in STOP_WORDS for w in re.findall(r"[a-z']+", rest.lower())):
            break
        clauses.pop()
    return ", ".join(clauses)


REPORTING_FRAME: Final = _rx(
    r"\b(?:said|told\s+(?:me|us|them|him|her)|reported|answered|replied|stated|announced|confirmed"
    r"|informed\s+(?:me|us)|wrote|according\s+to)\b"
    r"|\bword\s+(?:at|from|in)\s+[^.;:!?]{1,40}?\s+was\s+that\b"
)
"""A verb of saying in the past, or an attribution ("according to", "word at the review was
that"): what follows is reported speech, its tenses shifted back."""

BACKSHIFTED: Final = _rx(r"(?<![\w'-])(?:would|could|was|were)(?![\w'-])")
"""The verbs of reported speech shifted back a tense: "would", "could", "was", "were" stand for
"will", "can", "is", "are" ("the chair said X would open on Friday" reports "X will open on
Friday"; "the office replied that it was at the tender stage" reports "it is"): not a hedge of the
speaker's, nor a past state."""

_PRESENT_OF: Final = {"would": "will", "could": "can", "was": "is", "were": "are"}


def reported_present(text: str) -> str:
    """``text`` with the tenses after a verb of saying in the past (:data:`REPORTING_FRAME`) shifted
    forward again: what the source said, as the source said it ("…said X would open" → "…said X
    will open")."""
    frame = REPORTING_FRAME.search(text)
    if frame is None:
        return text
    start = frame.end()
    return text[:start] + BACKSHIFTED.sub(lambda m: _PRESENT_OF[m.group(0).lower()], text[start:])

INDIRECT_QUESTION: Final = _rx(
    r"^\W*(?:[^:—]{1,30}[:—]\s*)?asked\s+(?:whether|if|what|how|when|where|who|which)\b[^,;]{0,120},"
    r"(?=[^.;!?]{0,80}?\b(?:answered|replied|said|confirmed|stated)\b)"
)
"""A relayed question with its answer ("Asked whether X still kept its date, the secretary
answered that…"): the question frames the answer, which is what the sentence states."""

ATTRIBUTED_TELLER: Final = re.compile(
    r"(?:^|(?<=[\s:—(-]))(?!(?:[Ss]omeone|[Ss]omebody|[Pp]eople|[Tt]hey|[Ee]veryone|[Aa]nyone)\b)"
    r"(?:[Tt]he\s+[\w'-]+(?:\s+[\w'-]+)?|[A-Z][\w'-]*)\s+(?:told|tells|informed|informs)\s+(?:me|us)\b"
)
"""A named or definite source telling the speaker ("HR told us…", "the director told me…"): a
statement relayed from its source, not hearsay ("a little bird told me", "someone told me")."""


def _without_reported_frame(sentence: str) -> str:
    """The sentence as its hedges read: a relayed question before its answer is left out, and after
    a verb of saying "would" and "could" are the backshifted "will" and "can"."""
    question = INDIRECT_QUESTION.search(sentence)
    if question is not None:
        sentence = mask(sentence, [question.span()])
    return reported_present(sentence)


def _hearsay(sentence: str) -> bool:
    match = HEARSAY.search(sentence)
    if match is None:
        return False
    if ATTRIBUTED_TELLER.search(sentence) is None:
        return True
    return HEARSAY.search(ATTRIBUTED_TELLER.sub(" ", sentence)) is not None


def _not_asserting(sentence: str) -> bool:
    if HEDGE.search(_without_reported_frame(sentence)) or _hearsay(sentence) or DENIAL.search(sentence):
        return True
    if OUTDATED_RECORD.search(sentence):
        return True
    if RETRACTION.search(sentence) and not correction(sentence):
        return True
    outdated = OUTDATED.search(sentence)
    if outdated is not None:
        # "the title given in my last note is obsolete; X now serves as Y": what is obsolete is
        # named, and the clause after it says what holds instead (a correction, not a pointer)
        rest = _CLAUSE_END.search(sentence, outdated.end())
        if rest is not None and (_states_value(sentence[rest.end() :]) or _colon_value(sentence, rest)):
            return False
        # "X went Y, the previous status is outdated": the clause before says what holds, and the
        # one calling the speaker's earlier value outdated corrects it (a pointer to old material,
        # "the archive is outdated", names no earlier value of the speaker's)
        start = max(sentence.rfind(mark, 0, outdated.start()) for mark in ",;")
        return not (
            start > 0 and EARLIER_VALUE.search(sentence, start, outdated.start()) is not None
            and _states_value(sentence[:start])
        )
    # a past time compared with ("a different story from last week", "busier than yesterday")
    # dates the comparison, not the statement
    if episodic_span(COMPARED_PAST.sub(" ", sentence)) is None:
        return False
    # a past-time phrase dates a change or a decision that holds now ("went from X to Y this
    # morning"; "confirmed yesterday"), or narrates an episode
    if old_value_search(EXPLICIT_OLD_VALUE, sentence) is not None:
        return False
    return not any(p.search(sentence) for p in (PRESENT_STATE, SETTLED, CHANGE_VERB))


COMPARED_PAST: Final = _rx(
    r"\b(?:different|differs?|unlike|changed|better|worse|more|less|[a-z]+er)\b(?:\s+[\w'-]+){0,2}?\s+"
    r"(?:from|than)\s+(?:last\s+\w+|yesterday)\b"
)
"""A past time that a comparison is made with ("different story from last week", "busier than
yesterday")."""

CLOSING_FILLER: Final = re.compile(r",\s*(?:\S+\s+)?\S+!\s*$")
"""A short exclamation closing a sentence after a comma ("…, thanks!"): filler around a statement."""


def _without_closing_filler(sentence: str) -> str:
    """The sentence without a closing ", thanks!": "Helix moved to Sept 2, thanks!" still states
    ("…, support lead now!!" is news, not filler)."""
    match = CLOSING_FILLER.search(sentence)
    if match is None or update_marker_span(match.group(0)) is not None:
        return sentence
    return sentence[: match.start()] + "."


ELLIPTICAL_WORDS: Final = 5
"""A hedging sentence this short ("Nothing confirmed.", "Not sure.") qualifies the whole message."""


@lru_cache(maxsize=65_536)
def assertive_part(text: str) -> str:
    """The sentences of ``text`` that could assert a current fact.

    Questions and exclamations are set aside, and so are sentences that hedge, report hearsay,
    retract, point to outdated material or narrate a past episode; a short one of those ("Nothing
    confirmed.") qualifies the whole message, which then asserts nothing.

    Args:
        text: A message.

    Returns:
        The remaining sentences (empty when nothing is asserted).
    """
    kept: list[str] = []
    sentences = split_sentences(normalise(text))
    asked = ""
    for index, sentence in enumerate(sentences):
        sentence = _without_opinions(_without_closing_filler(_without_preamble(sentence)))
        if asked:
            # "Wexford? No longer — …": the answer's negation is of what the question put
            negative = _NEGATIVE_ANSWER.match(sentence)
            if negative:
                sentence = f"{negative.group(0)} {asked}{sentence[negative.end() :]}"
            else:
                sentence = f"{asked}: {sentence}"
            asked = ""
        elif is_question(sentence):
            if index + 1 < len(sentences) and _answered(sentence, sentences[index + 1]):
                asked = sentence.rstrip().rstrip("?")  # read with its answer as one statement
            elif index + 1 < len(sentences) and _READ_BACK_REJECTED.match(sentences[index + 1]) and (
                _HOLDS_INSTEAD.search(sentences[index + 1])
            ):
                # "You have X down for Y? That's gone, it's Z.": the answer rejects what the
                # question read back, and says what holds instead
                asked = "not " + sentence.rstrip().rstrip("?")
            continue  # a question asks
        if HESITATION.fullmatch(sentence):
            continue  # "Hmm, let me see.": the speaker gathering their thoughts says nothing
        if EXCLAIMED.search(sentence) and update_marker_span(sentence) is None:
            continue  # an exclamation expresses ("That's amazing!"), unless it is news ("X is lead now!!")
        if _not_asserting(sentence):
            if len(sentence.split()) < ELLIPTICAL_WORDS:
                return ""
            continue
        kept.append(sentence)
    return " ".join(_without_narration(kept))


_READ_BACK_REJECTED: Final = _rx(
    r"^\s*(?:that's|that is|that was)\s+(?:gone|wrong|out|changed|old news|not right)\b"
)
"""An answer that rejects what a question put ("That's gone, …")."""
_HOLDS_INSTEAD: Final = _rx(r",\s*(?:it's|it is)\b")
"""The clause of a rejecting answer that says what holds instead ("…, it's Z")."""

_NEGATIVE_ANSWER: Final = _rx(r"^\s*(?:no longer|not any ?more)\b")
"""An answer that opens by saying the question's value holds no more."""

HESITATION: Final = _rx(
    r"^\W*(?:(?:hmm+|um+|uh+|erm+|well|okay|ok|right|so),?\s)?"
    r"(?:let me (?:see|think|check)|let's see|let me just (?:see|think|check))\W*"
)
"""A sentence that only holds the floor while the speaker thinks ("Hmm, let me see.", "Let me
think."): a property of talk, not of a register. (:func:`_rx` anchors its start.)"""

EXCLAIMED: Final = re.compile(r"(?<!!)!\s*$")
"""A sentence closing on one exclamation mark. Two or more ("X starts Monday!!") are a texter's
emphasis of what the sentence states, not an exclamation."""

_CLAUSE_BREAK: Final = re.compile(r"(?<=;)\s+|(?<=,)\s+(?=(?:and|so|but)\b)")
"""Where a clause of a sentence ends: a semicolon, or a comma before a coordinating conjunction."""


def _narrates(clause: str) -> bool:
    """A clause that tells a past episode and says nothing of the present (:data:`PAST_NARRATIVE`)."""
    return PAST_NARRATIVE.search(clause) is not None and not (
        PRESENT_VERB.search(clause) or PRESENT_STATE.search(clause) or SETTLED.search(clause)
        or STANDING.search(clause) or update_marker_span(clause) is not None
    )


def _without_narration(sentences: list[str]) -> list[str]:
    """The sentences without the clauses that narrate a past episode, when another clause of the
    message states something in the present ("Got a note about Rosa. Rosa has taken the lead
    post."): the episode sets the scene, the statement says what holds. A message that only
    narrates is left whole (the claim reader sets it aside)."""
    clauses = [[c for c in _CLAUSE_BREAK.split(sentence) if c] for sentence in sentences]
    narrating = [[_narrates(c) for c in parts] for parts in clauses]
    states = any(
        not told and PRESENT_VERB.search(c)
        for parts, flags in zip(clauses, narrating, strict=True) for c, told in zip(parts, flags, strict=True)
    )
    if not states or not any(any(flags) for flags in narrating):
        return sentences
    kept = [
        " ".join(c for c, told in zip(parts, flags, strict=True) if not told)
        for parts, flags in zip(clauses, narrating, strict=True)
    ]
    return [k for k in kept if k]


def is_assertion(text: str) -> bool:
    """Whether ``text`` could assert a current fact at all (see :func:`assertive_part`).

    Args:
        text: A message.

    Returns:
        False for questions, hedges, hearsay, retractions, outdated notes and past episodes.
    """
    return bool(assertive_part(text).strip())

