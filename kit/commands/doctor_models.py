"""`kit doctor`'s model checks: each role's key and endpoint (chat, background), and the last
day's rejected background work (curation passes, daily summaries, REM runs) with its reasons.

A server that takes the connection but answers slowly is busy, not unreachable: a local model
working through a curation pass answers the doctor minutes late. The first try waits
`REACH_SECONDS`; a busy server gets `BUSY_SECONDS` more, and its line says how long it took."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from kit.app_models import NO_KEY, REACH_SECONDS, reach_role, role_key
from kit.clock import to_iso
from kit.config import Settings
from kit.jobs.attempts import DAILY_SUMMARY, REM_CONDENSE, REM_REVIEW
from kit.model_settings import ModelRole, model_role
from kit.providers import PROVIDERS, provider
from kit.reach import Reach
from kit.store.db import Database

BUSY_SECONDS = 60.0  # more time for a server that took the connection but had not answered
SLOW_SECONDS = 5.0  # an answer slower than this is reported as busy
SHOWN_REASONS = 3  # reasons quoted per kind of rejected work
REASON_CHARS = 160


class Lines(Protocol):
    def ok(self, what: str, detail: str) -> None: ...
    def bad(self, what: str, detail: str) -> None: ...
    def warn(self, what: str, detail: str) -> None: ...


def roles(settings: Settings) -> list[ModelRole]:
    return [model_role(settings.llm, r) for r in ("chat", "background")]


def _label(what: str, role: ModelRole, settings: Settings) -> str:
    """ "model API" while both roles share one endpoint; else named per role."""
    chat, background = roles(settings)
    shared = (chat.provider, chat.where, chat.key_env) == (
        background.provider,
        background.where,
        background.key_env,
    )
    return what if shared else f"{what} ({role.role})"


def check_keys(report: Lines, settings: Settings) -> list[ModelRole]:
    """Each role's key; returns the roles that have one to try (or need none)."""
    ready: list[ModelRole] = []
    seen: set[tuple[str, str, str]] = set()
    for role in roles(settings):
        key, problem = role_key(role)
        spec = provider(role.provider)
        ident = (role.provider, role.where, role.key_env)
        if ident in seen:
            if key is not None:
                ready.append(role)
            continue
        seen.add(ident)
        label = _label("API key", role, settings)
        if key is None:
            report.bad(label, problem or f"{role.key_env} is not set")
            continue
        ready.append(role)
        if key == NO_KEY and not role.key_goes_here:
            report.ok(
                label,
                f"none is sent to {role.where}: a key goes only where key_env is set beside "
                "base_url (or to the provider's own API)",
            )
        elif key == NO_KEY:
            report.ok(label, f"{role.key_env} is not set; {role.where} is a server of your own")
        elif spec.key_prefix and role.hosted_by_provider and not key.startswith(spec.key_prefix):
            report.warn(label, f"{role.key_env} is set but does not look like {spec.key_name}")
        else:
            report.ok(label, f"{role.key_env} is set")
    return ready


async def check_endpoints(report: Lines, settings: Settings, ready: Sequence[ModelRole]) -> None:
    """One free, bounded request per role's model: the key taken, the server there and not
    stuck, the model known. Each answer with the one thing to change."""
    config = settings.config_path or "config.toml"
    dead: set[tuple[str, str]] = set()
    for role in ready:
        if (role.provider, role.where) in dead:
            continue  # the other role would only say the same
        reach, seconds = await reach_role(role, within=REACH_SECONDS)
        if reach.outcome == "busy":
            reach, more = await reach_role(role, within=BUSY_SECONDS)
            seconds += more
        _say(report, settings, role, reach, seconds, str(config))
        if reach.outcome in ("refused", "unreachable"):
            dead.add((role.provider, role.where))


def _say(
    report: Lines, settings: Settings, role: ModelRole, reach: Reach, seconds: float, config: str
) -> None:
    where, model = role.where, role.model
    label = _label("model API", role, settings)
    setting = (
        role.setting("model")
        if getattr(settings.llm, role.role).model
        else ("llm.chat_model" if role.role == "chat" else "llm.small_model")
    )
    via = f" ({role.role}: {role.provider})"
    custom = bool(role.base_url)
    if reach.ok and seconds > SLOW_SECONDS:
        report.warn(
            label,
            f"{where} is busy: answered in {seconds:.0f} s for {model}{via}; a local server "
            f"may be working on another request (raise {role.setting('timeout_seconds')} if "
            "replies time out)",
        )
    elif reach.ok:
        report.ok(label, f"{where} takes the key and knows {model}{via}")
    elif reach.outcome == "busy":
        report.warn(
            label,
            f"{where} is busy: it took the connection but gave no answer in {seconds:.0f} s "
            f"({model}{via}); a local server may be working on a long request. Try again "
            f"later, or raise {role.setting('timeout_seconds')}",
        )
    elif reach.outcome == "refused":
        fix = provider(role.provider).key_help or f"export the key {where} expects"
        if not role.key_goes_here:
            report.bad(
                label,
                f"{where} wants a key ({reach.detail}); set {role.setting('key_env')} (or "
                "llm.key_env, beside base_url) to the variable that holds it: Kit sends a key "
                "only where it is named",
            )
            return
        report.bad(
            label,
            f"{where} refused {role.key_env} ({reach.detail}); {fix}"
            + (", or check llm.base_url" if custom else ""),
        )
    elif reach.outcome == "unreachable":
        report.bad(
            label,
            f"cannot reach {where} ({reach.detail}); check the network"
            + (f", or llm.base_url in {config}" if custom else "")
            + (" (is the server running?)" if custom and not role.hosted_by_provider else ""),
        )
    elif reach.outcome == "not_found":
        other = " or ".join(p.speaks for p in PROVIDERS if p.name != role.provider)
        report.bad(
            label,
            f"{where} does not know the model {model!r} ({setting}); set {setting} in "
            f"{config} to a current model name"
            + (f" (or llm.base_url is {other} API: check llm.provider)" if custom else ""),
        )
    else:
        report.bad(label, f"{where}, asked about {model}{via}: {reach.detail}")


async def check_rejections(report: Lines, db: Database, now: datetime) -> None:
    """Background work the model's answers failed in the last day, with the reasons."""
    since = to_iso(now - timedelta(days=1))
    found = False
    passes = await db.fetchall(
        "SELECT category, status, reason FROM passes WHERE kind = 'curate'"
        " AND status IN ('rejected', 'failed') AND finished_at >= ? ORDER BY id DESC",
        (since,),
    )
    if passes:
        found = True
        report.warn(
            "last day",
            f"{len(passes)} curation pass(es) rejected or failed: "
            + _reasons(f"{r[0]}: {r[2]}" for r in passes)
            + "; `kit facts passes` lists them",
        )
    failures = await db.fetchall(
        "SELECT kind, item, last_error FROM work_attempts WHERE last_at >= ?"
        " AND kind IN (?, ?, ?) ORDER BY last_at DESC",
        (since, DAILY_SUMMARY, REM_CONDENSE, REM_REVIEW),
    )
    summaries = [f"{r[1]}: {r[2]}" for r in failures if r[0] == DAILY_SUMMARY]
    if summaries:
        found = True
        report.warn(
            "last day",
            f"{len(summaries)} daily summary(ies) rejected: {_reasons(summaries)}; "
            "`kit summarize --date DAY` tries one again and says why",
        )
    rem = await _rem_trouble(db, since)
    if rem:
        found = True
        report.warn(
            "last day",
            f"{len(rem)} REM problem(s): {_reasons(rem)}; `kit rem` runs it now step by step",
        )
    if not found:
        report.ok("last day", "no curation pass, daily summary or REM run was rejected")


async def _rem_trouble(db: Database, since: str) -> list[str]:
    found: list[str] = []
    for (text,) in await db.fetchall(
        "SELECT report_json FROM rem_reports WHERE started_at >= ? ORDER BY id DESC", (since,)
    ):
        try:
            report: dict[str, Any] = json.loads(text)
        except json.JSONDecodeError:
            continue
        found += [str(r) for r in report.get("rejected", [])]
        found += [
            f"{s.get('step')} {s.get('status')}: {s.get('detail')}"
            for s in report.get("steps", [])
            if s.get("status") == "failed"
        ]
    return found


def _reasons(items: Any) -> str:
    listed = list(items)
    shown = [r if len(r) <= REASON_CHARS else r[: REASON_CHARS - 1] + "…" for r in listed]
    more = f" (+{len(listed) - SHOWN_REASONS} more)" if len(listed) > SHOWN_REASONS else ""
    return "; ".join(shown[:SHOWN_REASONS]) + more
