"""config.toml -> typed, validated settings. Secrets come from the environment only."""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kit.channel_settings import (
    MatrixSettings,
    SpeechSettings,
    TelegramSettings,
    check_matrix,
    check_speech,
    check_telegram,
)
from kit.choices import CATEGORIES as CATEGORIES  # re-exported: where settings find them
from kit.choices import FILTERS as FILTERS
from kit.embedding_settings import EmbeddingSettings, check_embedding
from kit.errors import ConfigError
from kit.files import check_private_dir
from kit.model_settings import (
    LLMSettings,
    RoleSettings,
    check_llm_settings,
    check_role_settings,
)
from kit.storage_url import POSTGRES_SCHEMES, check_storage_url

DATE_ORDERS = ("", "dmy", "mdy")


@dataclass(frozen=True)
class OwnerSettings:
    user_id: str = "owner"
    name: str = ""


@dataclass(frozen=True)
class MemorySettings:
    window_max: int = 50
    window_keep: int = 20
    similarity_threshold: float = 0.3
    message_similarity_threshold: float = 0.2
    top_k: int = 15
    summary_days: int = 2
    # Caps of the context's parts (kit/context/sandwich.py), then one budget for all memory.
    index_tokens: int = 600
    core_tokens: int = 400
    recent_days_tokens: int = 300
    context_day_hits: int = 3
    context_budget_tokens: int = 1200
    recency_days: int = 7
    recency_boost: float = 0.1
    # "model": the small model keeps the relevant ones among the best candidates before
    # they enter the sandwich (kit/retrieval/filter.py); "none": Kit's ranking alone.
    filter: str = "none"
    filter_candidates: int = 50
    filter_max_input_tokens: int = 6000
    filter_max_output_tokens: int = 300
    filter_timeout_seconds: float = 8.0
    # How the owner writes a numeric date both of whose numbers could be the month: "dmy"
    # (03/05 is 3 May), "mdy" (5 March), or "" to follow this machine's locale (month first
    # for en_US and the like, day first otherwise). Unambiguous ones (13/05) read either way.
    date_order: str = ""


@dataclass(frozen=True)
class CurationSettings:
    idle_minutes: int = 30
    max_deactivate_fraction: float = 0.5
    max_attempts: int = 3
    # A category whose fact list passes this many tokens is shown only the facts related to
    # the batch (kit/curator/shown.py; measured in bench/curation_context.py).
    facts_budget_tokens: int = 4000
    # How the model answers (kit/curator/extract.py): "operations" (INSERT/UPDATE/REPLACE/
    # DEACTIVATE per category), "extract" (a flat list of facts with their message, for small
    # local models), "" = the preset's ("extract" for llm.preset = "local").
    style: str = ""


CURATION_STYLES = ("operations", "extract")


@dataclass(frozen=True)
class InboxSettings:
    """The contradiction inbox (kit/inbox/): what a pass asks the owner about first."""

    # A fact the curator or REM wrote, held with at least this confidence, is rewritten or
    # retired only after asking (the owner's own and pinned facts always are).
    protect_confidence: float = 0.9
    # An unanswered question expires after this many days: the old facts stay as they are.
    expire_days: int = 14


@dataclass(frozen=True)
class ScheduleSettings:
    timezone: str = ""
    daily_summary: str = "23:55"
    rem: str = "03:00"


@dataclass(frozen=True)
class RemSettings:
    stale_days: int = 60


@dataclass(frozen=True)
class BudgetSettings:
    """Tokens per local day for background model work (curation, window and daily summaries,
    REM). Chat replies are never paused by it. See kit/llm/budget.py."""

    daily_tokens: int = 500_000  # all users together: bounds the owner's bill
    user_daily_tokens: int = 0  # per memory namespace; 0 = no separate per-user cap


@dataclass(frozen=True)
class DigestSettings:
    """The daily memory digest (kit/digest/): what Kit learned, changed, merged, expired and
    refused, sent on Telegram at `time` (local) when something changed, at most once a day.
    `undo_days` is the undo window of a pass's one-tap buttons (Undo pass, Pin, Forget):
    they stop working this many days after the pass; `kit facts undo` is not limited by it."""

    enabled: bool = True
    time: str = "21:00"
    undo_days: int = 7


@dataclass(frozen=True)
class FollowupSettings:
    """Offering a reminder when the owner mentions a plan with a time (kit/followups/): never
    created unasked, at most `per_day` offers a local day, off unless enabled."""

    enabled: bool = False
    per_day: int = 3


MAX_UNDO_DAYS = 365
MAX_FOLLOWUPS_PER_DAY = 50

MIN_FACTS_BUDGET_TOKENS = 500  # room for a dozen facts: fewer would hide what a pass needs
MIN_BUDGET_TOKENS = 50_000  # one curation pass over a full batch can take ~15k tokens


@dataclass(frozen=True)
class StorageSettings:
    """Where memory lives (kit/store/engines.py): "" or "sqlite:///path" (one file, the default:
    kit.db in the data directory), or "postgresql://user@host:port/db" (a PostgreSQL server
    with pgvector; the password comes from PGPASSWORD, never from this file)."""

    url: str = ""


@dataclass(frozen=True)
class WorkersSettings:
    """Several `kit run` workers on one PostgreSQL database (docs/daemon.md: Several workers).
    A lease (a scheduled job, Telegram polling) lasts `lease_seconds` unless its worker renews
    it (every third of that): a worker that dies is taken over within about that long."""

    lease_seconds: float = 60.0


@dataclass(frozen=True)
class McpHttpSettings:
    """Kit's memory over MCP's HTTP transport (kit/mcp/http.py), as a part of `kit run` when
    `enabled`, for clients that show a token the owner issued (`kit tokens create`). Bound to
    127.0.0.1 unless `host` says otherwise; `tls_cert` and `tls_key` (PEM files) make it
    HTTPS. `rate_per_minute`: the calls one token may make a minute."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8765
    tls_cert: str = ""
    tls_key: str = ""
    rate_per_minute: int = 120


MAX_RATE_PER_MINUTE = 100_000


@dataclass(frozen=True)
class Settings:
    owner: OwnerSettings = field(default_factory=OwnerSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    curation: CurationSettings = field(default_factory=CurationSettings)
    inbox: InboxSettings = field(default_factory=InboxSettings)
    schedule: ScheduleSettings = field(default_factory=ScheduleSettings)
    rem: RemSettings = field(default_factory=RemSettings)
    digest: DigestSettings = field(default_factory=DigestSettings)
    followups: FollowupSettings = field(default_factory=FollowupSettings)
    budget: BudgetSettings = field(default_factory=BudgetSettings)
    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    matrix: MatrixSettings = field(default_factory=MatrixSettings)
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    storage: StorageSettings = field(default_factory=StorageSettings)
    workers: WorkersSettings = field(default_factory=WorkersSettings)
    mcp_http: McpHttpSettings = field(default_factory=McpHttpSettings)
    data_dir: Path = field(default_factory=lambda: default_data_dir())
    config_path: Path | None = None

    @property
    def database_path(self) -> Path:
        """The SQLite file (`storage.url` "sqlite:///path", or kit.db in the data directory)."""
        prefix = "sqlite://"
        if self.storage.url.startswith(prefix):
            return Path(self.storage.url[len(prefix) :]).expanduser()
        return self.data_dir / "kit.db"

    @property
    def on_postgres(self) -> bool:
        return self.storage.url.startswith(POSTGRES_SCHEMES)


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kit"


def default_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "kit" / "config.toml"


def load_settings(
    config: Path | str | None = None,
    data_dir: Path | str | None = None,
    *,
    check_data_dir: bool = True,
) -> Settings:
    """Read settings. Precedence: explicit arguments, then KIT_CONFIG / KIT_DATA_DIR, then XDG.

    An explicitly named config file must exist; the XDG one is optional. The data directory
    is checked too (`kit doctor` checks it on its own, to report it on its own line).
    """
    explicit = config or os.environ.get("KIT_CONFIG")
    path = Path(explicit).expanduser() if explicit else default_config_path()
    raw: dict[str, Any] = {}
    if path.exists():
        raw = _read_toml(path)
    elif explicit:
        raise ConfigError(f"{path}: config file not found; check the path or drop --config")
    chosen_dir = data_dir or os.environ.get("KIT_DATA_DIR")
    settings = parse_settings(raw, source=str(path))
    if raw:
        settings = _relative_to(settings, path.resolve().parent)
    folder = Path(chosen_dir).expanduser() if chosen_dir else settings.data_dir
    if check_data_dir:
        check_private_dir(folder)  # every command reads its settings first: one rule for all
    return dataclasses.replace(
        settings, data_dir=folder, config_path=path if path.exists() else None
    )


def _relative_to(settings: Settings, folder: Path) -> Settings:
    """A relative embedding.model_path is read against the file's folder, not wherever Kit
    was started (a systemd unit starts it in /). (storage.url's SQLite path is absolute.)"""
    model_path = settings.embedding.model_path
    if not model_path or Path(model_path).expanduser().is_absolute():
        return settings
    embedding = dataclasses.replace(settings.embedding, model_path=str(folder / model_path))
    return dataclasses.replace(settings, embedding=embedding)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text; save the config file as UTF-8") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix the syntax there") from exc
    except RecursionError as exc:  # tomllib recurses once per level of nested arrays/tables
        raise ConfigError(
            f"{path}: nested too deeply to read; Kit's settings are flat tables of values"
        ) from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror})") from exc


def parse_settings(raw: dict[str, Any], *, source: str = "config.toml") -> Settings:
    """Validate a parsed TOML document section by section; unknown keys are errors (typos)."""
    sections: dict[str, Any] = {}
    hints = get_type_hints(Settings)
    section_names = [f.name for f in dataclasses.fields(Settings) if f.name not in _NOT_IN_FILE]
    for key, value in raw.items():
        if key not in section_names:
            raise ConfigError(
                f"{source}: unknown section [{key}]; known sections: {', '.join(section_names)}"
            )
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{key}] must be a table of settings")
        sections[key] = _parse_section(hints[key], key, value, source)
    return Settings(**sections)


_NOT_IN_FILE = {"data_dir", "config_path"}


def _parse_section(cls: type[Any], name: str, values: dict[str, Any], source: str) -> Any:
    hints = get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    parsed: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise ConfigError(
                f"{source}: unknown setting {name}.{key}; known: {', '.join(sorted(known))}"
            )
        parsed[key] = _coerce(hints[key], value, f"{name}.{key}", source)
    result = cls(**parsed)
    _check_ranges(name, result, source)
    return result


def _coerce(hint: Any, value: Any, where: str, source: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return _coerce(next(a for a in get_args(hint) if a is not type(None)), value, where, source)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(f"{source}: {where} must be true or false (got {value!r})")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) >= 2**63:  # SQLite and the SDKs take 64-bit integers at most
                raise ConfigError(f"{source}: {where} is far too large (got {value})")
            return value
        raise ConfigError(f"{source}: {where} must be an integer (got {value!r})")
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(f"{source}: {where} must be a number (got {value!r})")
    if hint is str:
        if isinstance(value, str):
            return value
        raise ConfigError(f"{source}: {where} must be a string (got {value!r})")
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):  # a nested table: [llm.chat]
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{where}] must be a table of settings")
        return _parse_section(hint, where, value, source)
    if origin is dict:
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ConfigError(
                f'{source}: {where} must be a table like {{ "123456789" = "owner" }} '
                f"(got {value!r})"
            )
        return {str(k): v for k, v in value.items()}
    raise ConfigError(f"{source}: {where} has an unsupported type")  # pragma: no cover


def _check_ranges(name: str, section: Any, source: str) -> None:
    def bad(key: str, rule: str) -> ConfigError:
        return ConfigError(f"{source}: {name}.{key} {rule} (got {getattr(section, key)!r})")

    def at_least(minimum: int, *keys: str) -> None:
        for key in keys:
            if getattr(section, key) < minimum:
                raise bad(key, f"must be at least {minimum}")

    def fraction(*keys: str) -> None:
        for key in keys:
            if not 0.0 <= getattr(section, key) <= 1.0:  # also refuses nan
                raise bad(key, "must be between 0 and 1")

    if isinstance(section, OwnerSettings) and not section.user_id.strip():
        raise bad("user_id", "must not be empty: it names the owner's memory namespace")
    if isinstance(section, MemorySettings):
        if section.window_keep < 1 or section.window_keep >= section.window_max:
            raise bad("window_keep", "must be at least 1 and smaller than memory.window_max")
        fraction("similarity_threshold", "message_similarity_threshold", "recency_boost")
        at_least(1, "top_k", "context_budget_tokens", "filter_candidates")
        at_least(1, "filter_max_input_tokens", "filter_max_output_tokens")
        if section.filter not in FILTERS:
            raise bad("filter", f"must be one of {', '.join(map(repr, FILTERS))}")
        if section.date_order not in DATE_ORDERS:
            raise bad("date_order", "must be 'dmy', 'mdy' or '' (from this machine's locale)")
        if section.filter_candidates > 200:
            raise bad("filter_candidates", "must be at most 200 (one model call reads them all)")
        if not 0.0 < section.filter_timeout_seconds < math.inf:
            raise bad("filter_timeout_seconds", "must be a positive number of seconds")
        at_least(0, "summary_days", "recency_days", "index_tokens", "core_tokens")
        at_least(0, "recent_days_tokens", "context_day_hits")
    if isinstance(section, EmbeddingSettings):
        at_least(1, "batch_size")
        check_embedding(section, bad)
    if isinstance(section, CurationSettings):
        fraction("max_deactivate_fraction")
        at_least(1, "idle_minutes", "max_attempts")
        at_least(MIN_FACTS_BUDGET_TOKENS, "facts_budget_tokens")
        if section.style not in ("", *CURATION_STYLES):
            raise bad("style", "must be 'operations', 'extract' or '' (the preset's)")
    if isinstance(section, InboxSettings):
        fraction("protect_confidence")
        at_least(1, "expire_days")
        if section.expire_days > 3650:
            raise bad("expire_days", "must be at most 3650 (ten years)")
    if isinstance(section, ScheduleSettings):
        for key in ("daily_summary", "rem"):
            parse_hhmm(getattr(section, key), f"{source}: schedule.{key}")
        if section.timezone and not _known_zone(section.timezone):
            raise bad(
                "timezone",
                "is not a known IANA zone; use a name like 'Europe/Berlin' or leave it empty "
                "for this machine's zone",
            )
    if isinstance(section, LLMSettings):  # kit/model_settings.py
        check_llm_settings(section, bad, source)
    if isinstance(section, RoleSettings):
        check_role_settings(section, bad, name, source)
    if isinstance(section, RemSettings):
        at_least(1, "stale_days")
    if isinstance(section, McpHttpSettings):
        if not 1 <= section.port <= 65535:
            raise bad("port", "must be a TCP port, 1 to 65535")
        if not section.host.strip():
            raise bad("host", "must name an address to listen on, e.g. '127.0.0.1'")
        if not 1 <= section.rate_per_minute <= MAX_RATE_PER_MINUTE:
            raise bad("rate_per_minute", f"must be from 1 to {MAX_RATE_PER_MINUTE}")
        if bool(section.tls_cert) != bool(section.tls_key):
            raise bad("tls_cert", "and mcp_http.tls_key go together: set both or neither")
    if isinstance(section, DigestSettings):
        parse_hhmm(section.time, f"{source}: digest.time")
        if not 1 <= section.undo_days <= MAX_UNDO_DAYS:
            raise bad("undo_days", f"must be a number of days from 1 to {MAX_UNDO_DAYS}")
    if isinstance(section, FollowupSettings) and not (
        1 <= section.per_day <= MAX_FOLLOWUPS_PER_DAY
    ):
        raise bad(
            "per_day",
            f"must be from 1 to {MAX_FOLLOWUPS_PER_DAY} (followups.enabled = false turns "
            "offers off)",
        )
    if isinstance(section, BudgetSettings):
        at_least(MIN_BUDGET_TOKENS, "daily_tokens")
        if section.user_daily_tokens and not (
            MIN_BUDGET_TOKENS <= section.user_daily_tokens <= section.daily_tokens
        ):
            raise bad(
                "user_daily_tokens",
                f"must be 0 (no per-user cap) or from {MIN_BUDGET_TOKENS:,} up to "
                "budget.daily_tokens",
            )
    if isinstance(section, StorageSettings):
        check_storage_url(section.url, f"{source}: storage.url")
    if isinstance(section, WorkersSettings) and not 1.0 <= section.lease_seconds < math.inf:
        raise bad("lease_seconds", "must be a number of seconds, at least 1")
    if isinstance(section, TelegramSettings):
        check_telegram(section, source)
    if isinstance(section, MatrixSettings):
        check_matrix(section, source)
    if isinstance(section, SpeechSettings):
        check_speech(section, source)


def _known_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def parse_hhmm(text: str, where: str) -> tuple[int, int]:
    try:
        hours, minutes = (int(part) for part in text.split(":"))
    except ValueError:
        hours = minutes = -1
    if not (0 <= hours < 24 and 0 <= minutes < 60):
        raise ConfigError(f"{where} must be a time like '03:00' (got {text!r})")
    return hours, minutes
