"""The composition root: the one place that builds the real things and wires them together.

Everything else receives what it needs; nothing else constructs a client, a model or a
database connection.
"""

from __future__ import annotations

import asyncio
import logging
import os
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from kit.access.tokens import AccessTokens
from kit.agent import Agent
from kit.app_models import NO_KEY, real_llm
from kit.background import Background
from kit.channel_settings import SpeechSettings
from kit.clock import Clock, SystemClock, resolve_timezone
from kit.config import Settings
from kit.context.sandwich import ContextBuilder
from kit.context.window import WindowKeeper
from kit.curator.copies import CopySweep
from kit.curator.expiry import Expiry
from kit.curator.owner import OwnerFacts
from kit.curator.passes import Curator
from kit.curator.questions import InboxStore
from kit.curator.rem import Rem
from kit.curator.review import StaleReview
from kit.curator.summaries import DaySummarizer
from kit.curator.unsaid import unsaid
from kit.dates.text import DateOrder, order_from_locale
from kit.delivery.callbacks import Callbacks
from kit.delivery.outbox import Outbox
from kit.digest import actions as digest_actions
from kit.digest.build import DigestBuilder
from kit.digest.service import DigestService
from kit.embed.base import Embedder
from kit.embed.spec import spec_of
from kit.followups.offers import FollowupOffers
from kit.followups.service import Followups
from kit.forget.ledger import Ledger
from kit.inbox.service import Inbox
from kit.jobs.attempts import Attempts
from kit.jobs.leases import Leases
from kit.jobs.runs import JobRuns
from kit.llm.base import LLM
from kit.llm.budget import Budget
from kit.llm.deferred import DeferredLLM
from kit.llm.metered import MeteredLLM
from kit.llm.usage import UsageLog
from kit.memory.days import Days
from kit.memory.fact_times import FactTimes
from kit.memory.facts import Facts
from kit.memory.history import FactHistory
from kit.memory.messages import Messages
from kit.memory.versions import MemoryVersions
from kit.model_settings import model_role, tool_set
from kit.notes.store import Notes
from kit.notes.tools import NoteTools
from kit.prompts import Prompts
from kit.reminders.delivery import Dispatcher
from kit.reminders.service import Reminders
from kit.reminders.store import ReminderStore
from kit.reminders.tools import ReminderTools
from kit.retrieval.embedding_model import lazy_embedder, serving_model
from kit.retrieval.engines import lexical_search, vector_store
from kit.retrieval.filter import FilteredSearch, ModelFilter
from kit.retrieval.links import Links
from kit.retrieval.liveness import LiveFacts
from kit.retrieval.model_state import VectorModels
from kit.retrieval.ranking import RankingParams
from kit.retrieval.reindex import Reindex
from kit.retrieval.search import MemorySearch
from kit.retrieval.serving import lacking
from kit.retrieval.vectors import VectorIndex
from kit.speech.service import Speech, Transcriber
from kit.store.db import Database
from kit.store.engines import open_database
from kit.store.migrate import migrate
from kit.tools import Tools, chat_tools

log = logging.getLogger(__name__)


def _set_event() -> asyncio.Event:
    event = asyncio.Event()
    event.set()
    return event


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
    leases: Leases  # what one worker does for all on a shared database (docs/daemon.md)
    summarizer: DaySummarizer
    rem: Rem
    budget: Budget
    attempts: Attempts
    reminders: Reminders
    notes: Notes
    owner_facts: OwnerFacts
    inbox: Inbox  # the questions passes set aside for the owner (kit/inbox/)
    fact_times: FactTimes  # facts as of a moment in the past (kit/memory/fact_times.py)
    callbacks: Callbacks  # buttons Kit sends: owner-checked, once-only, expiring
    outbox: Outbox  # messages Kit starts itself to a memory's owner (live channels register)
    digest: DigestService  # the daily memory digest (kit/digest/)
    followups: Followups  # reminders offered for plans the owner mentions (kit/followups/)
    # Every forget receipt with its secret, outside the database (kit/forget/ledger.py).
    forget_ledger: Ledger
    access: AccessTokens  # the tokens remote MCP clients show, and their audit log (kit/access/)
    # Each role's model client, made on first use (`DeferredLLM`): a daemon prepares them
    # in the background once it is ready (kit/daemon/warm.py).
    llm_clients: tuple[DeferredLLM, ...] = ()
    # Voice messages (kit/speech/): transcribed when [speech] names a server, else refused.
    speech: Speech = field(default_factory=lambda: Speech(None))
    # Set once a daemon's warm-up is done (kit/daemon/warm.py); the scheduler's queued runs
    # and the vectors' load wait for it. Set from the start anywhere else.
    warmed_up: asyncio.Event = field(default_factory=_set_event)
    # When a daemon's search by meaning began to serve: the model and the vectors are in
    # (kit/daemon/warm.py `announce_serving`; None: not yet, or not a daemon)
    vector_search_since: datetime | None = None
    # The re-embedding toward the configured embedding model while the one before serves
    # (kit/retrieval/reindex.py; None: the configured model serves): `kit reindex`, a
    # daemon's background run (kit/daemon/reindex.py) and `kit status` drive and read it.
    reindex: Reindex | None = None
    extras: dict[str, object] = field(default_factory=dict)

    @property
    def embedding_problem(self) -> str | None:
        """Why embeddings are off (None: they are on, or their model has not been tried)."""
        return self.vectors.problem


async def build(
    settings: Settings,
    stack: AsyncExitStack,
    *,
    llm: LLM | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    with_embedder: bool = True,
    model_later: bool = False,
    record_model: bool = True,
) -> Services:
    """Open the database, migrate it, and wire every service. Resources close with `stack`.
    Without `record_model` the configured embedding model is not recorded (an open that must
    write nothing: `kit mcp --read-only`).

    The embedding model is loaded before this returns, unless `model_later` (a daemon: it
    loads in the background when something needs it, kit/retrieval/vectors.py)."""
    clock = clock or SystemClock()
    tz = resolve_timezone(settings.schedule.timezone)
    prompts = Prompts()
    prompts.check()
    db = await stack.enter_async_context(open_database(settings))
    await migrate(db, clock)

    problem = None
    lazy = None
    if embedder is None and with_embedder:
        lazy, problem = lazy_embedder(settings)
        embedder = lazy
        if problem:
            log.warning("embeddings are off, using lexical search only: %s", problem)

    clients: list[DeferredLLM] = []
    if llm is None:
        llm = real_llm(settings, stack, clients)
    small = model_role(settings.llm, "background")  # the background role's model and limits
    usage = UsageLog(db, clock)
    budget = Budget(db, usage, settings.budget, clock, tz)
    metered = MeteredLLM(llm, usage, budget)
    attempts = Attempts(db, clock)

    messages = Messages(db, clock, tz)
    facts = Facts(db, clock)
    days = Days(db, clock)
    # HNSW graphs of big matrices are saved beside the database (derived state, rebuildable).
    # Which model's vectors searches use: the configured one, or until a re-embedding toward
    # it ends the one before (kit/retrieval/model_state.py).
    models = VectorModels(db, clock)
    serving, state, spec = embedder, None, None
    if embedder is not None:
        spec = spec_of(settings.embedding) if lazy is not None else None
        serving, state = await serving_model(settings, models, embedder, spec, record=record_model)
    store = vector_store(db, serving, settings.data_dir / "graphs")
    vectors = VectorIndex(
        db,
        serving,
        settings.embedding.batch_size,
        store=store,
        passages=settings.embedding.passages,
    )
    vectors.problem = problem
    reindex = None  # the configured model serves
    if embedder is not None and state is not None and state.reindexing:
        reindex = Reindex(vectors, models, embedder, spec, state.serving)
        vectors.switch = reindex  # backfill adopts the new model once another worker switched
    memory = settings.memory
    params = RankingParams(
        threshold=memory.similarity_threshold,
        # the model's own floor for messages if it declares one (embedding.message_floor)
        message_threshold=settings.embedding.message_floor or memory.message_similarity_threshold,
        recency_boost=memory.recency_boost,
        recency_days=float(memory.recency_days),
        # the model's own reading of its cosines (embedding.cosine_quantile; 0: from zero)
        vector_floor=settings.embedding.cosine_quantile or None,
    )
    notes = Notes(db, clock)
    versions = MemoryVersions(db)
    fact_times = FactTimes(db)
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
        fact_times=fact_times,
    )
    model_filter = None
    if memory.filter == "model":
        model_filter = ModelFilter(metered, prompts, small, memory, tz)
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
    window = WindowKeeper(messages, metered, prompts, memory, small, tz, attempts)
    reminder_store = ReminderStore(db, messages, clock)
    tools = Tools(
        facts,
        days,
        messages,
        search,
        tz,
        notes=NoteTools(notes, tz),
        unsaid=unsaid(settings.owner.name, vectors.loaded),
    )
    background = Background(window, vectors)
    followups = Followups(FollowupOffers(db), prompts, settings.followups, tz)
    agent = Agent(
        messages,
        facts,
        context,
        tools,
        metered,
        model_role(settings.llm, "chat"),
        clock,
        after_turn=background.notify,
        user_lock=db.user_lock,
        max_tool_rounds=settings.llm.max_tool_rounds,
        tool_specs=chat_tools(tool_set(settings.llm)),
        turn_notes=followups,
        vector_search=lambda: lacking(vectors),
    )
    reminders = Reminders(
        reminder_store, Dispatcher(reminder_store, agent, prompts, clock, tz), clock, tz
    )
    tools.reminders = ReminderTools(reminders, messages, followups)
    lease_ttl = timedelta(seconds=settings.workers.lease_seconds)
    job_runs = JobRuns(db, clock, tz, lease_ttl=lease_ttl)
    summarizer = DaySummarizer(
        db, messages, days, metered, prompts, small, settings.owner, tz, job_runs, attempts
    )
    stale_days = settings.rem.stale_days
    review = StaleReview(
        db,
        facts,
        metered,
        prompts,
        small,
        settings.owner,
        stale_days,
        clock,
        tz,
        max_fraction=settings.curation.max_deactivate_fraction,
    )
    inbox_store = InboxStore(db)
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
        inbox=inbox_store,
    )
    rem = Rem(
        db,
        days,
        facts,
        metered,
        prompts,
        small,
        review,
        clock,
        tz,
        job_runs,
        applier=curator,  # REM's fact review applies through the curator's guard
        attempts=attempts,
        expiry=Expiry(db, facts, settings.curation.max_deactivate_fraction, clock),
        copies=CopySweep(facts, clock),
    )
    owner_facts = OwnerFacts(db, facts, curator.passes, clock, tz)
    callbacks = Callbacks(db, clock, tz)
    digest_actions.register(callbacks, curator, owner_facts)  # its buttons: the owner's actions
    outbox = Outbox()
    digest_builder = DigestBuilder(
        curator.passes, FactHistory(db), facts, messages, inbox_store, settings.digest, clock, tz
    )
    services = Services(
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
        owner_facts=owner_facts,
        callbacks=callbacks,
        outbox=outbox,
        digest=DigestService(db, digest_builder, callbacks, outbox, settings.digest, clock, tz),
        followups=followups,
        inbox=Inbox(
            db, inbox_store, facts, curator.passes, clock, tz, callbacks=callbacks, outbox=outbox
        ),
        fact_times=fact_times,
        forget_ledger=Ledger(settings.data_dir),
        access=AccessTokens(db, clock, per_minute=settings.mcp_http.rate_per_minute),
        llm_clients=tuple(clients),
        speech=Speech(_transcriber(settings.speech, stack)),
        reindex=reindex,
    )
    if lazy is not None and not model_later:
        await vectors.loaded()  # a failure is logged (kit/retrieval/vectors.py): lexical only
    return services


def _transcriber(speech: SpeechSettings, stack: AsyncExitStack) -> Transcriber | None:
    """The speech server's client when [speech] names one (the SDK loads only then)."""
    url = speech.url.strip()
    if not url:
        return None
    from kit.llm.openai import OpenAITranscriber

    transcriber = OpenAITranscriber(
        api_key=os.environ.get(speech.key_env, "").strip() or NO_KEY,
        base_url=url,
        model=speech.model,
        language=speech.language,
        timeout=speech.timeout_seconds,
        key_env=speech.key_env,
    )
    stack.push_async_callback(transcriber.aclose)
    return transcriber


def _date_order(configured: str) -> DateOrder:
    """memory.date_order, or this machine's locale's when it is empty."""
    if configured == "mdy":
        return "mdy"
    if configured == "dmy":
        return "dmy"
    return order_from_locale(os.environ)
