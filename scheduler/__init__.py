"""Kit's scheduler: APScheduler jobs (daily summary, REM, curation sweep, embedding backfill) and
the catch-up of missed runs. Imports `kit`; `kit` never imports this package."""

from scheduler.service import JobResult, KitScheduler

__all__ = ["JobResult", "KitScheduler"]
