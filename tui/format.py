"""Plain-text renderings shared by the panes: times in the owner's zone, fact lines, REM reports."""

from __future__ import annotations

from datetime import date, datetime, tzinfo

from kit.clock import local_minute
from kit.curator.records import PassRecord
from kit.curator.reports import RemReport
from kit.memory.fact_rows import Fact, HistoryEntry
from kit.text import plural


def when(moment: datetime | None, tz: tzinfo, *, empty: str = "—") -> str:
    """A moment as the owner reads it: local date and minute."""
    if moment is None:
        return empty
    return local_minute(moment, tz)


def on_day(moment: datetime | None, tz: tzinfo, *, empty: str = "never") -> str:
    if moment is None:
        return empty
    return moment.astimezone(tz).date().isoformat()


def day_title(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def clip(text: str, width: int) -> str:
    """One line of at most `width` characters, with an ellipsis when cut."""
    line = " ".join(text.split())
    if width <= 0:
        return ""
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


def pass_line(record: PassRecord, tz: tzinfo) -> str:
    """One curation pass, as chosen from a list: number, when, what, how much."""
    what = f"{record.kind} {record.category}" if record.category else record.kind
    # An owner's pass is one change to one fact: its reason names both ("edit #12").
    done = record.reason if record.kind == "owner" else plural(record.change_count, "change")
    return f"pass {record.id:<4} {when(record.started_at, tz)}  {what:<18} {done}"


def fact_line(fact: Fact) -> str:
    return f"{fact.subject}: {fact.content}" if fact.subject else fact.content


def fact_details(fact: Fact, tz: tzinfo) -> str:
    state = "active" if fact.active else "inactive"
    if fact.pinned:
        state += ", pinned"
    elif fact.owner_written:
        state += ", written by you"
    if fact.replaced_by is not None:
        state += f", replaced by #{fact.replaced_by}"
    return "\n".join(
        (
            f"#{fact.id} [{fact.category}] {fact_line(fact)}",
            f"{state} · confidence {fact.confidence:.2f} · expires {when(fact.expires_at, tz)}",
            f"created {when(fact.created_at, tz)} · changed {when(fact.updated_at, tz)}"
            f" · used {fact.access_count}× (last {when(fact.last_accessed_at, tz, empty='never')})",
        )
    )


def history_source(entry: HistoryEntry) -> str:
    """Which pass or messages a change came from."""
    parts = []
    if entry.pass_id is not None:
        parts.append(f"pass {entry.pass_id}")
    if entry.source_message_ids:
        ids = ", ".join(str(i) for i in entry.source_message_ids[:4])
        more = "…" if len(entry.source_message_ids) > 4 else ""
        parts.append(f"{'batch msg' if entry.sources_are_batch else 'msg'} {ids}{more}")
    return "; ".join(parts) or "—"


def history_change(entry: HistoryEntry) -> str:
    """What a history row changed, field by field (before → after)."""
    before, after = entry.before or {}, entry.after or {}
    if not before:
        return f"created: {after.get('content', '')}"
    lines = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old != new:
            lines.append(f"{key}: {old} → {new}")
    return "\n".join(lines) or "no field changed"


def report_markdown(report: RemReport, tz: tzinfo, title: str) -> str:
    """A REM report as Markdown for the consolidation pane."""
    kind = "dry run: nothing was changed" if report.dry_run else "applied"
    lines = [
        f"## {title}",
        "",
        f"{when(report.started_at, tz)} → {when(report.finished_at, tz)} ({kind}) · "
        f"{report.input_tokens + report.output_tokens:,} tokens",
        "",
    ]
    condensed = ", ".join(d.isoformat() for d in report.condensed_days) or "none"
    expired = ", ".join(f"#{i}" for i in report.expired_fact_ids) or "none"
    lines += [
        f"- **Condensed days:** {condensed}",
        f"- **Facts reviewed:** {report.reviewed_facts}",
        f"- **Expired facts:** {expired}",
    ]
    for step in report.steps:
        if step.status != "done":  # the steps above the report show the rest
            detail = f": {step.detail}" if step.detail else ""
            lines.append(f"- **Step {step.step} {step.status}**{detail}")
    heading = "Planned changes" if report.dry_run else "Changes"
    lines += ["", f"### {heading}", ""]
    lines += [f"- {c}" for c in report.changes] or ["- none"]
    if report.rejected:
        lines += ["", "### Rejected", ""]
        lines += [f"- {r}" for r in report.rejected]
    return "\n".join(lines)
