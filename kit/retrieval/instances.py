"""Kinds of things a question may name, and the words that name one of them.

"Which country is she from?" is answered by "my home country, Sweden" or by "back in
Sweden": the turn names an instance, the question the kind, and neither words nor a small
embedding model join the two reliably (MiniLM puts "country" nearer to other questions about
countries than to "Sweden"). So a question that names a kind (a trigger word below) weighs up
the items that name an instance of it, as a "when" question weighs up the turns that place
something in time (kit/retrieval/search.py, `RankingParams.instance_weight`).

A small vocabulary of kinds that come up in anyone's life, in English, written from general
knowledge: countries and nationalities, cities, US states, pets, instruments, sports, martial
arts, languages, jobs, foods, apps. It is not every instance there is; a miss costs nothing
(the item keeps its own relevance).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from kit.retrieval.lexical import words_of


@dataclass(frozen=True)
class KindOfThing:
    name: str
    triggers: frozenset[str]  # words of a question that name the kind
    instances: tuple[str, ...]  # lower-case words or phrases that name one


def _kind(name: str, triggers: str, instances: str) -> KindOfThing:
    phrases = tuple(p.strip() for p in instances.split(",") if p.strip())
    return KindOfThing(name, frozenset(triggers.split()), phrases)


KINDS_OF_THINGS: tuple[KindOfThing, ...] = (
    _kind(
        "country",
        "country countries nation nations nationality homeland abroad",
        """usa, america, united states, canada, mexico, brazil, argentina, chile, peru,
        colombia, venezuela, cuba, jamaica, uk, britain, england, scotland, wales, ireland,
        france, germany, spain, portugal, italy, greece, netherlands, holland, belgium,
        switzerland, austria, sweden, norway, denmark, finland, iceland, poland, czechia,
        hungary, romania, russia, ukraine, turkey, egypt, morocco, nigeria, ghana, kenya,
        ethiopia, south africa, israel, lebanon, iran, iraq, saudi arabia, india, pakistan,
        bangladesh, nepal, china, japan, korea, vietnam, thailand, cambodia, indonesia,
        philippines, malaysia, singapore, australia, new zealand, american, canadian,
        mexican, brazilian, british, english, scottish, irish, french, german, spanish,
        portuguese, italian, greek, dutch, swiss, swedish, norwegian, danish, finnish,
        polish, russian, ukrainian, turkish, egyptian, nigerian, kenyan, indian,
        pakistani, chinese, japanese, korean, vietnamese, thai, filipino, australian""",
    ),
    _kind(
        "city",
        "city cities town towns capital capitals",
        """london, paris, rome, berlin, madrid, barcelona, lisbon, amsterdam, brussels,
        vienna, prague, budapest, warsaw, dublin, edinburgh, athens, istanbul, moscow,
        stockholm, oslo, copenhagen, helsinki, new york, los angeles, chicago, boston,
        seattle, san francisco, miami, houston, dallas, austin, denver, atlanta, las vegas,
        portland, philadelphia, washington, toronto, vancouver, montreal, mexico city, rio,
        sao paulo, buenos aires, tokyo, kyoto, osaka, beijing, shanghai, hong kong, seoul,
        bangkok, singapore, mumbai, delhi, dubai, cairo, cape town, nairobi, sydney,
        melbourne""",
    ),
    _kind(
        "state",
        "state states",
        """alabama, alaska, arizona, arkansas, california, colorado, connecticut, delaware,
        florida, georgia, hawaii, idaho, illinois, indiana, iowa, kansas, kentucky,
        louisiana, maine, maryland, massachusetts, michigan, minnesota, mississippi,
        missouri, montana, nebraska, nevada, new hampshire, new jersey, new mexico, new
        york, north carolina, north dakota, ohio, oklahoma, oregon, pennsylvania, rhode
        island, south carolina, south dakota, tennessee, texas, utah, vermont, virginia,
        washington, west virginia, wisconsin, wyoming""",
    ),
    _kind(
        "pet",
        "pet pets animal animals",
        """dog, dogs, puppy, puppies, pup, cat, cats, kitten, kittens, kitty, hamster, guinea
        pig, rabbit, bunny, parrot, budgie, bird, fish, goldfish, turtle, tortoise, snake,
        lizard, gecko, horse, pony, ferret, mouse, rat, gerbil, chicken, chickens, goat""",
    ),
    _kind(
        "instrument",
        "instrument instruments",
        """guitar, piano, violin, viola, cello, bass, clarinet, flute, saxophone, sax,
        trumpet, trombone, drums, drum, ukulele, harp, keyboard, oboe, harmonica, banjo,
        accordion, mandolin, synth, bagpipes""",
    ),
    _kind(
        "sport",
        "sport sports",
        """football, soccer, basketball, baseball, tennis, golf, hockey, rugby, cricket,
        volleyball, badminton, swimming, running, cycling, skiing, snowboarding, surfing,
        skateboarding, boxing, kickboxing, karate, judo, taekwondo, wrestling, climbing,
        yoga, rowing, kayaking, hiking, marathon""",
    ),
    _kind(
        "martial art",
        "martial",
        """karate, judo, taekwondo, kickboxing, boxing, kung fu, aikido, jiu jitsu, jujitsu,
        muay thai, capoeira, krav maga, wing chun""",
    ),
    _kind(
        "language",
        "language languages",
        """english, spanish, french, german, italian, portuguese, dutch, swedish, russian,
        polish, greek, turkish, arabic, hebrew, hindi, urdu, bengali, chinese, mandarin,
        cantonese, japanese, korean, vietnamese, thai, swahili""",
    ),
    _kind(
        "job",
        "job jobs profession occupation career",
        """teacher, nurse, doctor, engineer, banker, lawyer, manager, accountant, chef, cook,
        designer, developer, programmer, artist, writer, musician, counselor, counsellor,
        therapist, mechanic, firefighter, police, pilot, scientist, farmer, entrepreneur,
        cashier, waiter, waitress, driver, electrician, plumber, carpenter, architect,
        pharmacist, dentist, vet, librarian, journalist, photographer""",
    ),
    _kind(
        "food",
        "food foods dish dishes meal meals dessert desserts snack snacks cuisine",
        """pizza, pasta, spaghetti, lasagna, burger, burgers, sushi, tacos, burrito, curry,
        salad, salads, sandwich, sandwiches, soup, stew, steak, chicken, rice, noodles,
        ramen, dumplings, bread, cake, pie, cookies, brownies, cobbler, sundae, ice cream,
        chocolate, pancakes, waffles, muffins, cupcakes, barbecue, bbq, chili""",
    ),
    _kind(
        "app",
        "app apps platform platforms",
        """instagram, tiktok, facebook, twitter, youtube, snapchat, linkedin, reddit,
        pinterest, whatsapp, telegram, discord, spotify, netflix""",
    ),
)


def kinds_named(query: str) -> tuple[KindOfThing, ...]:
    """The kinds of things the query names."""
    words = set(words_of(query))
    return tuple(kind for kind in KINDS_OF_THINGS if not kind.triggers.isdisjoint(words))


@cache
def _pattern(kind: KindOfThing) -> re.Pattern[str]:
    phrases = sorted(kind.instances, key=len, reverse=True)
    alternatives = "|".join(r"\s+".join(map(re.escape, p.split())) for p in phrases)
    return re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])")


def names_an_instance(text: str, kinds: Collection[KindOfThing]) -> bool:
    """Whether the text names an instance of any of the kinds."""
    lowered = text.lower()
    return any(_pattern(kind).search(lowered) for kind in kinds)
