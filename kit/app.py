"""The composition root: the one place that builds the real things and wires them together.

Everything else receives what it needs; nothing else constructs a client, a model or a
database connection.
"""

from __future__ import annotations

import logging
import os
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import timedelta, tzinfo

from kit.agent import Agent
from kit.background import Background
from kit.clock import Clock, SystemClock, resolve_timezone
from kit.config import Settings
from kit.curator.expiry import Expiry
from kit.curator.owner import OwnerFacts
from kit.curator.passes import Curator
from kit.curator.rem import Rem
from kit.curator.review import StaleReview
from kit.curator.summaries import DaySummarizer
from kit.embed.base import Embedder
from kit.errors import KitError, LLMUnavailable
from kit.files import private_dir
from kit.llm.base import LLM, LLMReply, LLMRequest, TextSink
from kit.llm.metered import MeteredLLM
from kit.memory.attempts import Attempts
from kit.memory.budget import Budget
from kit.memory.context import ContextBuilder
from kit.memory.dates import DateOrder, order_from_locale
from kit.memory.days import Days
from kit.memory.db import Database
from kit.memory.facts import Facts
from kit.memory.filter import FilteredSearch, ModelFilter
from kit.memory.job_runs import JobRuns
from kit.memory.leases import Leases
from kit.memory.links import Links
from kit.memory.liveness import LiveFacts
from kit.memory.messages import Messages
from kit.memory.migrate import migrate
from kit.memory.search import MemorySearch, RankingParams
from kit.memory.store import lexical_search, open_database, vector_store
from kit.memory.usage import UsageLog
from kit.memory.vectors import VectorIndex
from kit.memory.versions import MemoryVersions
from kit.memory.window import WindowKeeper
from kit.notes.store import Notes
from kit.notes.tools import NoteTools
from kit.prompts import Prompts
from kit.reach import Reach
from kit.reminders.delivery import Dispatcher
from kit.reminders.service import Reminders
from kit.reminders.store import ReminderStore
from kit.reminders.tools import ReminderTools
from kit.tools import Tools

log = logging.getLogger(__name__)

API_KEY_ENV = "ANTHROPIC_API_KEY"
REACH_SECONDS = 10.0  # how long `kit doctor` waits for the model API (no retries)


class UnconfiguredLLM:
    """Stands in when there is no API key: every call says exactly how to fix it."""

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        raise LLMUnavailable(
            f"{API_KEY_ENV} is not set; export your Anthropic API key and restart Kit"
        )


@dataclass
class Services:
    settings: Settings
    clock: Clock
    tz: tzinfo
    db: Database
    prompts: Prompts
    llm: LLM
    usage: UsageLog
    messages: Messages
    facts: Facts
    days: Days
    vectors: VectorIndex
    search: MemorySearch
    recall: FilteredSearch  # what the sandwich searches with: `search`, filtered when on
    context: ContextBuilder
    window: WindowKeeper
    tools: Tools
    agent: Agent
    background: Background
    curator: Curator
    job_runs: JobRuns
    leases: Leases  # what one worker does for all on a shared database (README: workers)
    summarizer: DaySummarizer
    rem: Rem
    budget: Budget
    attempts: Attempts
    reminders: Reminders
    notes: Notes
    owner_facts: OwnerFacts
    embedding_problem: str | None = None
    extras: dict[str, object] = field(default_factory=dict)


async def load_embedder(settings: Settings) -> tuple[Embedder | None, str | None]:
    """The configured model, or (None, why) so Kit can run on lexical search alone."""
    from kit.embed.fastembed import FastEmbedder

    cfg = settings.embedding
    try:
        models = private_dir(settings.data_dir / "models")  # fastembed would make it 0755
        embedder = await FastEmbedder.load(cfg.model, cfg.model_path, models)
        return embedder, None
    except KitError as exc:
        return None, str(exc)


async def build(
    settings: Settings,
    stack: AsyncExitStack,
    *,
    llm: LLM | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    with_embedder: bool = True,
) -> Services:
    """Open the database, migrate it, and wire every service. Resources close with `stack`."""
    clock = clock or SystemClock()
    tz = resolve_timezone(settings.schedule.timezone)
    prompts = Prompts()
    prompts.check()
    db = await stack.enter_async_context(open_database(settings))
    await migrate(db, clock)

    problem = None
    if embedder is None and with_embedder:
        embedder, problem = await load_embedder(settings)
        if problem:
            log.warning("embeddings are off, using lexical search only: %s", problem)

    if llm is None:
        llm = _real_llm(settings, stack)
    usage = UsageLog(db, clock)
    budget = Budget(db, usage, settings.budget, clock, tz)
    metered = MeteredLLM(llm, usage, budget)
    attempts = Attempts(db, clock)

    messages = Messages(db, clock, tz)
    facts = Facts(db, clock)
    days = Days(db, clock)
    # HNSW graphs of big matrices are saved beside the database (derived state, rebuildable).
    store = vector_store(db, embedder, settings.data_dir / "graphs")
    vectors = VectorIndex(db, embedder, settings.embedding.batch_size, store=store)
    memory = settings.memory
    params = RankingParams(
        threshold=memory.similarity_threshold,
        recency_boost=memory.recency_boost,
        recency_days=float(memory.recency_days),
    )
    notes = Notes(db, clock)
    versions = MemoryVersions(db)
    search = MemorySearch(
        facts,
        days,
        messages,
        vectors,
        lexical_search(db),
        params,
        tz,
        notes,
        live_facts=LiveFacts(facts, versions),
        links=Links(db),
        date_order=_date_order(memory.date_order),
    )
    model_filter = None
    if memory.filter == "model":
        model_filter = ModelFilter(metered, prompts, settings.llm, memory, tz)
    recall = FilteredSearch(search, model_filter, memory)
    context = ContextBuilder(
        prompts,
        facts,
        days,
        recall,
        memory,
        tz,
        settings.owner.name,
        versions=versions,
        notes=notes,
    )
    window = WindowKeeper(messages, metered, prompts, memory, settings.llm, tz, attempts)
    reminder_store = ReminderStore(db, messages, clock)
    tools = Tools(facts, days, messages, search, tz, notes=NoteTools(notes, tz))
    background = Background(window, vectors)
    agent = Agent(
        messages,
        facts,
        context,
        tools,
        metered,
        settings.llm,
        clock,
        after_turn=background.notify,
        user_lock=db.user_lock,
    )
    reminders = Reminders(
        reminder_store, Dispatcher(reminder_store, agent, prompts, clock, tz), clock, tz
    )
    tools.reminders = ReminderTools(reminders, messages)
    lease_ttl = timedelta(seconds=settings.workers.lease_seconds)
    job_runs = JobRuns(db, clock, tz, lease_ttl=lease_ttl)
    summarizer = DaySummarizer(
        db, messages, days, metered, prompts, settings.llm, settings.owner, tz, job_runs, attempts
    )
    stale_days = settings.rem.stale_days
    review = StaleReview(
        db, facts, metered, prompts, settings.llm, settings.owner, stale_days, clock, tz
    )
    curator = Curator(
        db=db,
        facts=facts,
        messages=messages,
        search=search,
        llm=metered,
        prompts=prompts,
        settings=settings,
        clock=clock,
        tz=tz,
    )
    rem = Rem(
        db,
        days,
        facts,
        metered,
        prompts,
        settings.llm,
        review,
        clock,
        tz,
        job_runs,
        applier=curator,  # REM's fact review applies through the curator's guard
        attempts=attempts,
        expiry=Expiry(db, facts, settings.curation.max_deactivate_fraction, clock),
    )
    return Services(
        settings=settings,
        clock=clock,
        tz=tz,
        db=db,
        prompts=prompts,
        llm=metered,
        usage=usage,
        messages=messages,
        facts=facts,
        days=days,
        vectors=vectors,
        search=search,
        recall=recall,
        context=context,
        window=window,
        tools=tools,
        agent=agent,
        background=background,
        curator=curator,
        job_runs=job_runs,
        leases=Leases(db, clock, ttl=lease_ttl),
        summarizer=summarizer,
        rem=rem,
        budget=budget,
        attempts=attempts,
        reminders=reminders,
        notes=notes,
        owner_facts=OwnerFacts(db, facts, curator.passes, clock, tz),
        embedding_problem=problem,
    )


async def reach_models(
    settings: Settings, *, within: float = REACH_SECONDS
) -> list[tuple[str, Reach]]:
    """Each configured model tried once with the key from the environment (`kit doctor`):
    free token counts, no retries, `within` seconds each. Empty without a key."""
    key = os.environ.get(API_KEY_ENV, "")
    if not key:
        return []
    from kit.llm.anthropic import AnthropicLLM

    client = AnthropicLLM(
        api_key=key, base_url=settings.llm.base_url or None, max_retries=0, timeout=within
    )
    found: list[tuple[str, Reach]] = []
    try:
        for model in dict.fromkeys((settings.llm.chat_model, settings.llm.small_model)):
            reach = await client.reach(model)
            found.append((model, reach))
            if reach.outcome in ("refused", "unreachable"):
                break  # the other model would only say the same
    finally:
        await client.aclose()
    return found


def _date_order(configured: str) -> DateOrder:
    """memory.date_order, or this machine's locale's when it is empty."""
    if configured == "mdy":
        return "mdy"
    if configured == "dmy":
        return "dmy"
    return order_from_locale(os.environ)


def _real_llm(settings: Settings, stack: AsyncExitStack) -> LLM:
    key = os.environ.get(API_KEY_ENV, "")
    if not key:
        return UnconfiguredLLM()
    from kit.llm.anthropic import AnthropicLLM

    client = AnthropicLLM(
        api_key=key,
        base_url=settings.llm.base_url or None,
        max_retries=settings.llm.max_retries,
        timeout=settings.llm.timeout_seconds,
    )
    stack.push_async_callback(client.aclose)
    return client
