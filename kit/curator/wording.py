"""Words as the grounding guard compares them (kit/curator/grounding.py): one form per word
(case, accents, plurals and endings, a few everyday synonyms), numbers in one form ("two",
"2", "$1,200", "1.2k"), and which words say nothing a message must back ("the", "is",
"owner"). English only; deterministic; no model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"'})
TOKEN = re.compile(
    r"\$?£?€?\d(?:[\d,]*\d)?(?:\.\d+)?(?::\d\d)?(?:k\b|%)?|[^\W\d_][\w'-]*", re.UNICODE
)

# Words whose presence in a fact needs no support: grammar, the owner, and verbs so general
# that any statement can carry them ("has", "is", "got").
STOP = frozenset(
    """a about above after again against all also am an and any are as at be been before being
    below between both but by can did do does doing done during each either else ever every few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not of off on once only or other
    our ours out over own same she so some such than that the their theirs them themselves then
    there these they this those through to too under until up upon us very was we were what
    when where which while who whom whose why will with within without would you your yours
    owner owners user users kit currently recently now still already lately usually often
    regularly generally really quite also well much many lot lots one's someone something
    get gets got getting gotten make makes made making go goes went going gone
    has's he's she's it's they're there's that's its' day days time times year years
    part kind sort type way ways thing things named called who's whose since ago per each
    because cause 'cause book books song songs film films movie movies series novel album
    place person someone event events activity activities hobby
    use uses used using year-old years-old yearold
    """.split()
)
# Words that say a fact is a wish, a plan or a question rather than what is so: a fact with
# one may rest on a message that hedges; one without may not (grounding.py). A deliberation
# ("is weighing X against Y") is one: it may rest on "I'm torn between X and Y" (round 20).
HEDGES = frozenset(
    """plan plans planned planning plan's consider considers considering considered think
    thinks thinking thought wonder wonders wondering might may could would should want wants
    wanted wanting wanna wish wishes hope hopes hoping hoped dream dreams dreaming goal goals
    aim aims aiming intend intends intending interested interest curious keen possibly maybe
    perhaps whether if idea ideas option options potential potentially exploring explore
    explores undecided torn deciding decide decides prospective future someday eventually
    target targets targeting looking aspire aspires aspiring
    weigh weighs weighing debating contemplating mulling comparing choosing
    """.split()
)
# ... and a fact that says a worry or a hesitation ("is hesitant about a backyard movie
# night") may rest on one too; unlike a hedge, the worry itself must be said (round 22B).
WORRIES = frozenset(
    "hesitant hesitating hesitates unsure worried worries worry worrying concerned nervous".split()
)
# ... and the verbs that turn down what follows them ("I rejected that subscription"): a
# word a fact's messages must say too (round 27C)
REFUSALS = frozenset("rejected declined refused cancelled canceled".split())
NEGATIONS = frozenset("not no never none nothing neither nor n't cannot".split()) | REFUSALS

_IRREGULAR = {
    "went": "go", "gone": "go", "made": "make", "took": "take", "taken": "take", "got": "get",
    "ran": "run", "bought": "buy", "met": "meet", "gave": "give", "given": "give",
    "felt": "feel", "children": "kid", "child": "kid", "kids": "kid", "kiddo": "kid",
    "men": "man", "women": "woman", "people": "person", "folks": "person", "folk": "person",
    "wives": "wife", "lives": "live", "living": "live", "lived": "live", "left": "leave",
    "won": "win", "began": "begin", "begun": "begin", "chose": "choose", "chosen": "choose",
    "wrote": "write", "written": "write", "saw": "see", "seen": "see", "told": "tell",
    "said": "say", "paid": "pay", "spent": "spend", "sold": "sell", "built": "build",
    "found": "find", "held": "hold", "kept": "keep", "lost": "lose", "taught": "teach",
    "brought": "bring", "thought": "think", "did": "do", "done": "do", "had": "have",
    "has": "have", "having": "have", "was": "be", "were": "be", "been": "be", "is": "be",
    "are": "be", "am": "be", "mum": "mother", "mom": "mother", "mommy": "mother",
    "mama": "mother", "ma": "mother", "dad": "father", "daddy": "father", "papa": "father",
    "grandma": "grandmother", "granny": "grandmother", "nana": "grandmother",
    "grandpa": "grandfather", "granddad": "grandfather", "hubby": "husband",
    "fam": "family", "pup": "dog", "puppy": "dog", "doggy": "dog", "kitty": "cat",
    "kitten": "cat", "bday": "birthday", "b-day": "birthday", "edu": "education",
    "uni": "university", "biz": "business", "comp": "competition", "pic": "photo",
    "pics": "photo", "picture": "photo", "pictures": "photo", "mtg": "meeting",
    "fave": "favourite", "fav": "favourite", "favorite": "favourite", "favorites": "favourite",
    "color": "colour", "colors": "colour", "center": "centre", "neighbor": "neighbour",
    "neighborhood": "neighbourhood", "organization": "organisation", "vet": "veterinarian",
    "gym": "gym", "job": "work", "jobs": "work", "career": "work", "careers": "work",
    "employment": "work", "employed": "work", "salary": "earn", "earns": "earn",
    "earning": "earn", "earned": "earn", "income": "earn", "wage": "earn",
    "annually": "year", "annual": "year", "yearly": "year", "monthly": "month",
    "weekly": "week", "daily": "day", "nightly": "night",
    "attend": "go", "attended": "go", "attends": "go", "attending": "go", "visit": "go",
    "visited": "go", "visits": "go", "visiting": "go", "trip": "go", "trips": "go",
    "spouse": "partner", "wife": "partner", "husband": "partner", "boyfriend": "partner",
    "girlfriend": "partner", "fiance": "partner", "fiancee": "partner", "married": "marry",
    "marriage": "marry", "wedding": "marry", "wed": "marry",
    "reduce": "cut", "reduced": "cut", "reduces": "cut", "reducing": "cut", "lowered": "cut",
    "increase": "rise", "increased": "rise", "rose": "rise", "raised": "rise",
    "improve": "rise", "improved": "rise", "grew": "rise", "deadline": "due",
    "deadlines": "due", "move": "live", "moved": "live", "moving": "live", "moves": "live",
    "relocate": "live", "relocated": "live", "relocating": "live", "relocation": "live",
    "based": "live", "reside": "live", "resides": "live",
    # clipped forms as a chat writes them (round 27C): "prepping for my studio" is preparing
    "prep": "prepare", "preps": "prepare", "prepping": "prepare", "prepped": "prepare",
    "convo": "conversation", "convos": "conversation", "vacay": "vacation",
}  # fmt: skip
# Endings stripped to compare words ("adoption" ~ "adopted", "counselor" ~ "counseling"),
# longest first; a stem keeps at least three letters.
_SUFFIXES = (
    "ational", "ations", "ation", "ments", "ment", "ness", "ingly", "ings", "ing", "ers",
    "ors", "ies", "ied", "ion", "ions", "ists", "ist", "ity", "ful", "ous", "ive", "ly",
    "er", "or", "ed", "es", "s", "e", "y", "al",
)  # fmt: skip
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
    "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "twentieth": 20, "thirtieth": 30,
    "fortieth": 40, "fiftieth": 50,
}  # fmt: skip
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "dozen": 12, **ORDINAL_WORDS, "once": 1, "twice": 2, "both": 2, "pair": 2,
    "half": 0.5, "single": 1,  # not "couple": "a couple of" is two or three
}  # fmt: skip
_NUMBER = re.compile(r"^[$£€]?(\d[\d,]*(?:\.\d+)?)(k|%)?$")
_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


def fold(text: str) -> str:
    """Accents off, quotes straight: "Café" and "Cafe", "don’t" and "don't" compare equal."""
    text = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    return "".join(c for c in text if not unicodedata.combining(c))


def tokens(text: str) -> Iterator[re.Match[str]]:
    return TOKEN.finditer(fold(text))


def number_of(token: str) -> str | None:
    """A token as a number in one written form ("$1,200" -> "1200", "18th" -> "18",
    "twelve" -> "12", "1.5k" -> "1500"), or None when it is no number."""
    low = token.lower().strip("'-")
    if low in NUMBER_WORDS:
        return plain(NUMBER_WORDS[low])
    if "-" in low:  # "twenty-five", "twenty-first"; "ten-minute", "five-year-old": the count
        return _compound(low.split("-"))
    if ordinal := _ORDINAL.match(low):
        return ordinal.group(1).lstrip("0") or "0"
    if ":" in low and low.replace(":", "").isdigit():
        return low  # a time: "3:30"
    match = _NUMBER.match(low)
    if match is None:
        return None
    value = float(match.group(1).replace(",", ""))
    if match.group(2) == "k":
        value *= 1000
    return plain(value)


TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_COUNTED = frozenset(
    """minute minutes hour hours day days week weeks month months year years mile miles
    kilometre kilometres kilometer kilometers km page pages person people step steps course
    piece pieces night nights part parts game games seater star""".split()
)


def _compound(parts: list[str]) -> str | None:
    first, rest = parts[0], parts[1:]
    if first in TENS and len(rest) == 1 and 0 < NUMBER_WORDS.get(rest[0], 0) < 10:
        return plain(NUMBER_WORDS[first] + NUMBER_WORDS[rest[0]])
    number = NUMBER_WORDS.get(first) if first not in ("half", "single", "both", "pair") else None
    if number is not None and rest and rest[0] in _COUNTED:
        return plain(number)
    return None


def plain(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def stem(word: str) -> str:
    """One form for a word and its inflections ("kids" and "child": "kid")."""
    low = word.lower().strip("'-")
    if low.endswith("'s"):
        low = low[:-2]
    low = low.replace("-", "")
    low = _IRREGULAR.get(low, low)
    if len(low) > 5:  # British spellings as American: "colour", "apologise", "centre"
        for british, american in _BRITISH:
            low = british.sub(american, low)
    for suffix in _SUFFIXES:
        if suffix == "y" and low[-2:-1] in ("a", "e", "o", "u"):
            continue  # "play", "stay", "key": the y is the word's own
        if low.endswith(suffix) and len(low) - len(suffix) >= (5 if suffix == "ly" else 3):
            low = low[: -len(suffix)]
            break
    if len(low) > 3 and low[-1] == low[-2] and low[-1] not in "aeiouls":
        low = low[:-1]  # "running" -> "runn" -> "run"
    return low


_BRITISH = (
    (re.compile(r"our(s|ed|ing|ite|ites|able|ful)?$"), r"or\1"),
    (re.compile(r"is(e|es|ed|ing|ation|ations)$"), r"iz\1"),
    (re.compile(r"tre(s)?$"), r"ter\1"),
)


def same(a: str, b: str) -> bool:
    """Two stems name the same word: equal, or one begins the other and has 5+ letters
    ("educat" / "educ" no; "counsel" / "counselor" yes)."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 5 and long_.startswith(short)
