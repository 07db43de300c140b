"""`kit doctor`: check what Kit needs and say exactly what to fix: the config, the data
directory, each model role's key and endpoint (one free, bounded request per model; busy told
from unreachable), Telegram (getMe, when a token is set), the prompts, the database (integrity,
its schema against Kit's own, failed jobs, parked curation, the background budget, the last
day's rejected background work) and the embedding model. `--offline` skips the two network
checks and opens no connection at all: an embedding model not downloaded yet is not fetched."""

from __future__ import annotations

import argparse
import os
import stat
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from kit.clock import Clock, SystemClock, resolve_timezone
from kit.daemon.paths import log_path
from kit.errors import KitError
from kit.files import check_private_dir

# The checks load the core only when they run (kit/cli.py imports this module for --help).
if TYPE_CHECKING:
    from kit.config import Settings
    from kit.jobs.attempts import Attempt
    from kit.jobs.runs import JobTrouble
    from kit.store.db import Database


# What the owner runs to redo each scheduled job by hand (and see why it fails).
_RERUN = {
    "rem": "`kit rem` runs it now and shows each step",
    "daily_summary": "`kit summarize` writes the missing days now",
    "curation_sweep": "`kit curate` curates now and prints each pass",
    "embedding_backfill": "restart `kit run` once the embeddings line above is ok",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "doctor",
        help="check that Kit is set up correctly, and what to fix",
        description="Checks the config, the data directory, the API key against the model API "
        "(a free token count per model), Telegram's getMe when TELEGRAM_BOT_TOKEN is set, the "
        "prompts, the database (integrity, its schema against Kit's own, failed jobs, parked "
        "curation, background budget) and "
        "the embedding model. Exit status 1 when something needs fixing.",
    )
    cmd.add_argument("--offline", action="store_true", help="skip the checks that use the network")
    cmd.set_defaults(func=run)


class Report:
    def __init__(self) -> None:
        self.problems = 0
        self.warnings = 0

    def ok(self, what: str, detail: str) -> None:
        print(f"  ok    {what}: {detail}")

    def bad(self, what: str, detail: str) -> None:
        self.problems += 1
        print(f"  FIX   {what}: {detail}")

    def warn(self, what: str, detail: str) -> None:
        self.warnings += 1
        print(f"  warn  {what}: {detail}")

    def skip(self, what: str, detail: str) -> None:
        print(f"  skip  {what}: {detail}")


async def run(args: argparse.Namespace) -> int:
    from kit.commands.doctor_models import check_endpoints, check_keys
    from kit.commands.doctor_speech import check_speech
    from kit.config import load_settings

    report = Report()
    print("Kit doctor")
    try:
        settings = load_settings(args.config, args.data_dir, check_data_dir=False)
    except KitError as exc:
        report.bad("config", str(exc))
        print(f"\n{report.problems} problem(s) found.")
        return 1
    source = settings.config_path or "built-in defaults (no config file found)"
    report.ok("config", str(source))
    if not _check_data_dir(report, settings):
        print(f"\n{report.problems} problem(s) found.")
        return 1  # nothing below should open files in a directory others can write to
    ready = check_keys(report, settings)  # per role (kit/commands/doctor_models.py)
    if args.offline:
        report.skip("network", "the model API, Telegram and Matrix are not tried (--offline)")
    else:
        await check_endpoints(report, settings, ready)
    await _check_channels(report, settings, offline=args.offline)
    check_speech(report, settings)
    _check_prompts(report)
    await _check_database(report, settings)
    await _check_embeddings(report, settings, offline=args.offline)
    if report.problems:
        print(f"\n{report.problems} problem(s) found.")
        return 1
    print(
        f"\nNo problems; {report.warnings} warning(s) above." if report.warnings else "\nAll good."
    )
    return 0


def _check_data_dir(report: Report, settings: Settings) -> bool:
    """The data directory must be ours alone to write; being readable by others, or a
    database or model folder others can read, is worth a warning. False: stop here."""
    folder = settings.data_dir
    try:
        check_private_dir(folder)
    except KitError as exc:
        report.bad("data directory", str(exc))
        return False
    if not folder.exists():
        report.ok("data directory", f"{folder} (created owner-only when Kit first runs)")
        return True
    loose = [
        (path, fix)
        for path, fix in (
            (folder, 700),
            (settings.database_path, 600),
            (folder / "models", 700),
        )
        if path.exists() and stat.S_IMODE(path.stat().st_mode) & 0o077
    ]
    for path, fix in loose:
        mode = stat.S_IMODE(path.stat().st_mode)
        report.warn(
            "data directory",
            f"{path} can be read by other users of this machine (mode {mode:o}); "
            f"`chmod {fix} {path}`",
        )
    if not loose:
        report.ok("data directory", f"{folder} (yours alone)")
    return True


async def _check_channels(report: Report, settings: Settings, *, offline: bool) -> None:
    """Each channel of kit/channels/registry.py: off, or its settings and (online) whether its
    service takes the token."""
    from kit.channels.registry import CHANNELS

    for record in CHANNELS:
        token = record.token(os.environ)
        if token is None:
            report.ok(record.name.capitalize(), f"off ({record.token_env} is not set)")
            continue
        for status, what, detail in await record.doctor(settings, token, offline):
            (report.ok if status == "ok" else report.bad)(what, detail)


def _check_prompts(report: Report) -> None:
    from kit.prompts import Prompts

    try:
        Prompts().check()
    except KitError as exc:
        report.bad("prompts", str(exc))
    else:
        report.ok("prompts", "all present, variables match")


async def _check_database(report: Report, settings: Settings) -> None:
    from kit.commands.doctor_models import check_rejections
    from kit.store.engines import open_database
    from kit.store.migrate import migrate, migrations_for

    try:
        async with open_database(settings) as db:
            applied = await migrate(db, SystemClock())
            await db.check_pages()
            note = f", applied {len(applied)} migration(s) now" if applied else ""
            schema = len(migrations_for(db))
            report.ok("database", f"{db.where}: {db.about} (schema {schema}{note})")
            await _check_schema(report, db, settings)
            await _check_jobs(report, db, settings)
            await _check_curation(report, db)
            await _check_background(report, db, settings)
            await check_rejections(report, db, SystemClock().now())
    except KitError as exc:
        report.bad("database", str(exc))


async def _check_schema(report: Report, db: Database, settings: Settings) -> None:
    """The live schema against a fresh one Kit's migrations make: anything else (a trigger
    that rewrites facts, a table keeping what `kit forget` erases, a view where a table
    should be, a column gone) is a problem (kit/store/schema_check.py)."""
    from kit.store.schema_check import check_postgres, check_sqlite

    if db.engine == "postgres":
        fix = (
            "drop what you did not add yourself (psql: DROP TRIGGER name ON table, DROP "
            "VIEW, DROP TABLE), or restore each owner's `kit export` into a new database"
        )
    else:
        fix = (
            "stop Kit, `kit backup FILE`, then `kit restore FILE`: a restore rebuilds the "
            "database with Kit's own schema and names what it leaves behind"
        )
    try:
        if db.engine == "postgres":
            diff = await check_postgres(db)
        else:
            diff = await check_sqlite(settings.database_path, SystemClock())
    except KitError as exc:
        report.bad("schema", str(exc))
        return
    if diff.same:
        report.ok("schema", "the tables, columns, triggers, views and indexes Kit makes, no other")
        return
    for line in diff.lines():
        report.bad("schema", f"{line}; {fix}")


async def _check_curation(report: Report, db: Database) -> None:
    """Curation that keeps failing is retried with backoff, then parked: say so here."""
    parked = await db.fetchall(
        "SELECT user_id, COUNT(*), SUM(last_message_id - first_message_id + 1), MAX(parked_at),"
        " (SELECT reason FROM curation_parked q WHERE q.user_id = p.user_id"
        "  AND q.resolved_at IS NULL ORDER BY q.id DESC LIMIT 1)"
        " FROM curation_parked p WHERE resolved_at IS NULL GROUP BY user_id ORDER BY user_id"
    )
    for user_id, batches, span, last_at, reason in parked:
        report.warn(
            "curation",
            f"{batches} batch(es) of {user_id!r} (up to {span} messages) parked after repeated "
            f"failures, last {last_at[:16].replace('T', ' ')} UTC ({reason}); "
            f"`kit --user {user_id} curate --retry-parked` tries them again",
        )
    row = await db.fetchone(
        "SELECT COUNT(*), (SELECT last_error FROM curation_state WHERE attempts > 0"
        " ORDER BY updated_at DESC LIMIT 1) FROM curation_state WHERE attempts > 0"
    )
    retrying, latest = (0, None) if row is None else (int(row[0]), row[1])
    if retrying:
        report.warn(
            "curation",
            f"{retrying} pass(es) failed and will be retried with backoff (latest: {latest}); "
            "`kit curate` retries now and prints each pass",
        )
    if not parked and not retrying:
        report.ok("curation", "nothing parked or waiting for a retry")


async def _check_background(report: Report, db: Database, settings: Settings) -> None:
    """The background budget (spent today? how often lately?) and work given up on."""
    from kit.jobs.attempts import MAX_ATTEMPTS, Attempts
    from kit.jobs.runs import JobRuns
    from kit.llm.budget import ALL_USERS, Budget
    from kit.llm.usage import UsageLog

    clock: Clock = SystemClock()
    tz = resolve_timezone(settings.schedule.timezone)
    budget = Budget(db, UsageLog(db, clock), settings.budget, clock, tz)
    state = await budget.state(settings.owner.user_id)
    pauses = await budget.recent_pauses(7)
    days_paused = len({p.day for p in pauses})
    often = f"; it ran out on {days_paused} of the last 7 days" if days_paused > 1 else ""
    today = [p for p in pauses if p.day == state.day]
    for pause in today:
        key = "budget.daily_tokens" if pause.scope == ALL_USERS else "budget.user_daily_tokens"
        who = "all users" if pause.scope == ALL_USERS else repr(pause.scope)
        used = state.spent
        if pause.scope != ALL_USERS:
            used = (await budget.state(pause.scope)).user_spent
        report.warn(
            "background budget",
            f"{used:,} of {pause.budget:,} tokens used today by {who}; since "
            f"{pause.paused_at.astimezone(tz):%H:%M}, {pause.refused} call(s) did not fit in "
            f"what was left and wait for midnight (curation, summaries, REM){often}. "
            f"Raise {key} in config.toml to allow more",
        )
    if not today:
        report.ok(
            "background budget",
            f"{state.spent:,} of {state.daily_tokens:,} tokens used today{often}",
        )
    for attempt in await Attempts(db, clock).held():
        report.warn("background work", _held_line(attempt))
    runs = JobRuns(db, clock, tz)
    for job, fire, failures in await runs.held_fire_times(
        clock.now() - timedelta(days=8), MAX_ATTEMPTS
    ):
        report.warn(
            "scheduled jobs",
            f"the {job} run for {fire.astimezone(tz):%Y-%m-%d %H:%M} failed {failures} times "
            "and is not retried; it runs again at its next time (the log says why it failed)",
        )


def _held_line(attempt: Attempt) -> str:
    from kit.jobs.attempts import DAILY_SUMMARY, REM_CONDENSE, REM_REVIEW

    user, item = attempt.user_id, attempt.item
    what, retry = {
        DAILY_SUMMARY: (
            f"the daily summary of {item}",
            f"kit --user {user} summarize --date {item}",
        ),
        REM_CONDENSE: (f"condensing {item}", f"kit --user {user} rem --date {item}"),
        REM_REVIEW: (f"the REM review of {item} facts", f"kit --user {user} rem"),
    }.get(attempt.kind, (f"the window summary of conversation {item}", ""))
    then = f"`{retry}` tries again" if retry else "it is tried again tomorrow"
    return (
        f"{what} for {user!r} was given up after {attempt.attempts} failed attempts "
        f"({attempt.last_error}); {then}"
    )


async def _check_jobs(report: Report, db: Database, settings: Settings) -> None:
    """A scheduled job that failed or crashed since its last success is a problem to fix."""
    from kit.jobs.runs import JobRuns

    troubles = await JobRuns(db, SystemClock(), UTC).troubles()
    for trouble in troubles:
        report.bad(f"job {trouble.job}", _trouble(trouble, settings))
    if not troubles:
        report.ok("jobs", "none failed since its last success")


def _trouble(trouble: JobTrouble, settings: Settings) -> str:
    since = "never" if trouble.last_success is None else _utc(trouble.last_success)
    latest = trouble.latest
    if trouble.crashed:
        state = "never finished (its process died)"
    else:
        state = f"failed: {latest.detail or 'no detail'}"
    fix = _RERUN.get(trouble.job, "restart `kit run` once fixed")
    return (
        f"{trouble.failures} run(s) went wrong since the last success ({since}); the latest, "
        f"started {_utc(latest.started_at)}, {state}. Details in {log_path(settings.data_dir)}; "
        f"{fix}"
    )


def _utc(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


async def _check_embeddings(report: Report, settings: Settings, *, offline: bool) -> None:
    from kit.retrieval.embedding_model import load_embedder

    embedder, problem = await load_embedder(settings, offline=offline)
    if embedder is None:
        report.bad("embeddings", f"{problem}. Until fixed, Kit uses lexical search only")
        return
    path = settings.embedding.model_path
    where = f", from {path}" if path else ""
    report.ok("embeddings", f"{embedder.model_id} loaded (dimension {embedder.dim}{where})")
    try:
        await _check_vectors(report, settings, embedder.model_id)
    except KitError as exc:
        report.bad("vectors", str(exc))


async def _check_vectors(report: Report, settings: Settings, model_id: str) -> None:
    """Which model's vectors searches use, and how far a re-embedding toward the configured
    model got (kit/retrieval/model_state.py)."""
    from kit.retrieval.engines import vector_store
    from kit.retrieval.model_state import VectorModels
    from kit.retrieval.vectors import VectorIndex
    from kit.store.engines import open_database
    from kit.store.migrate import migrate

    clock = SystemClock()
    async with open_database(settings) as db:
        await migrate(db, clock)
        state = await VectorModels(db, clock).read()
        index = VectorIndex(
            db, None, store=vector_store(db, None), passages=settings.embedding.passages
        )
        total = await index.row_count()
        pending = await index.pending_count(model_id)
    if state is None or (state.serving == model_id and not state.reindexing):
        waiting = f"; {pending:,} wait for theirs (the daemon embeds them)" if pending else ""
        report.ok(
            "vectors", f"{total - pending:,} of {total:,} items embedded with {model_id}{waiting}"
        )
        return
    tz = resolve_timezone(settings.schedule.timezone)
    since = "" if state.since is None else f" since {state.since.astimezone(tz):%Y-%m-%d %H:%M}"
    meanwhile = (
        f"searches use {state.serving} until it ends"
        if state.serving_spec is not None
        else f"searches use words alone until it ends ({state.serving} cannot be loaded)"
    )
    report.warn(
        "vectors",
        f"re-embedding with {model_id}{since}: {total - pending:,} of {total:,} items done; "
        f"{meanwhile}. The daemon does it in the background; `kit reindex` does it now",
    )
