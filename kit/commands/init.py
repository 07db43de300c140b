"""`kit init`: the first hour's set-up. Writes the commented config (config.toml, every setting
with its default) where Kit looks for it, and asks only what it must: where the Anthropic key
comes from, and optionally the Telegram bot token and your Telegram id.

Secrets never go into config.toml (Kit reads them only from the environment): with
`--key-source file` they go into ~/.config/kit/env, readable by you alone, which the systemd
unit (`kit service install`) loads; with `--key-source env` (the default) you export them
yourself. Nothing that exists is replaced without asking (or --force, for scripts).

Non-interactive (scripts, CI): every answer has a flag, and a secret for the env file is taken
from the environment variable of the same name, never from the command line.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from kit.errors import InputError

KEY_ENV, TOKEN_ENV = "ANTHROPIC_API_KEY", "TELEGRAM_BOT_TOKEN"
_ID = re.compile(r"[0-9]{1,18}")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "init",
        help="first set-up: write the commented config, say where the key comes from",
        description="Writes config.toml (to --config, $KIT_CONFIG or ~/.config/kit/) with "
        "every setting and its default, and asks where the Anthropic key comes from and, "
        "optionally, for Telegram. Secrets never go into config.toml: with --key-source file "
        "they go into ~/.config/kit/env (mode 600, loaded by `kit service install`'s unit). "
        "Asks before replacing anything; without a terminal it never asks (use the flags).",
    )
    cmd.add_argument(
        "--key-source",
        choices=("env", "file"),
        help="env: you export ANTHROPIC_API_KEY yourself (default); file: keep it in "
        "~/.config/kit/env (taken from $ANTHROPIC_API_KEY, or asked for)",
    )
    cmd.add_argument(
        "--telegram-id",
        metavar="ID",
        help="your numeric Telegram user id (message @userinfobot), allowed as the owner",
    )
    cmd.add_argument("--no-telegram", action="store_true", help="do not ask about Telegram")
    cmd.add_argument("--force", action="store_true", help="replace existing files, no questions")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    return init(args, interactive=sys.stdin.isatty())


def init(args: argparse.Namespace, *, interactive: bool) -> int:
    from kit.config import default_config_path

    explicit = args.config or os.environ.get("KIT_CONFIG")
    config = Path(explicit).expanduser() if explicit else default_config_path()
    ask = _Asker(interactive)
    source = args.key_source or ask.choice(
        "Where does your Anthropic API key come from?\n"
        "  env  - I export ANTHROPIC_API_KEY myself (shell profile, a secrets manager)\n"
        "  file - keep it in ~/.config/kit/env, readable by me alone (for the systemd service)",
        ("env", "file"),
        default="env",
    )
    telegram_id = args.telegram_id
    if telegram_id is None and not args.no_telegram:
        telegram_id = ask.text(
            "Your Telegram user id, to talk to Kit from Telegram (message @userinfobot to "
            "learn it; empty: no Telegram for now)"
        )
    telegram_id = (telegram_id or "").strip() or None
    if telegram_id is not None and not _ID.fullmatch(telegram_id):
        raise InputError(f"--telegram-id {telegram_id!r}: a Telegram id is plain digits 0-9")

    secrets: dict[str, str] = {}
    if source == "file":
        secrets[KEY_ENV] = _secret(KEY_ENV, "Your Anthropic API key (sk-ant-...)", ask)
        if telegram_id is not None:
            secrets[TOKEN_ENV] = _secret(TOKEN_ENV, "Your bot's token from @BotFather", ask)

    env_file = Path.home() / ".config" / "kit" / "env"
    _check_free(config, args.force, ask)
    if secrets:
        _check_free(env_file, args.force, ask)
    _write(config, config_text(telegram_id), mode=0o600)
    print(f"Wrote {config} (every setting with its default; edit it as you like).")
    if secrets:
        _write(env_file, "".join(f"{k}={v}\n" for k, v in secrets.items()), mode=0o600)
        print(f"Wrote {env_file} (mode 600): {', '.join(secrets)}.")
    print("Next:")
    if source == "env":
        print(f"  export {KEY_ENV}=sk-ant-...          # in your shell profile")
        if telegram_id is not None:
            print(f"  export {TOKEN_ENV}=123456:ABC...   # from @BotFather")
    else:
        print(f"  set -a; . {env_file}; set +a         # the key, for kit run in this shell")
    print("  kit doctor                  # checks the config, the key, the model, Telegram")
    print("  kit run                     # the daemon (or: kit service install, for systemd)")
    print("  kit chat    or    kit tui   # talk to it from another terminal")
    return 0


def config_text(telegram_id: str | None) -> str:
    """The shipped config.toml (every default, commented), with the owner's Telegram id."""
    text = (Path(__file__).resolve().parents[1] / "default_config.toml").read_text("utf-8")
    if telegram_id is not None:
        text, found = re.subn(
            r"^allowed_user_ids = \{\}",
            f'allowed_user_ids = {{ "{telegram_id}" = "owner" }}',
            text,
            count=1,
            flags=re.M,
        )
        assert found == 1, "config.toml lost its allowed_user_ids line"
    return text


class _Asker:
    """Questions on a terminal; without one, the defaults (and no secrets)."""

    def __init__(self, interactive: bool) -> None:
        self.interactive = interactive

    def choice(self, question: str, options: tuple[str, ...], *, default: str) -> str:
        if not self.interactive:
            return default
        while True:
            answer = input(f"{question}\n[{'/'.join(options)}, default {default}] ").strip()
            if not answer:
                return default
            if answer in options:
                return answer
            print(f"Please answer {' or '.join(options)}.")

    def text(self, question: str) -> str | None:
        return input(f"{question}: ").strip() if self.interactive else None

    def secret(self, question: str) -> str | None:
        if not self.interactive:
            return None
        import getpass

        return getpass.getpass(f"{question} (not shown): ").strip() or None

    def confirm(self, question: str) -> bool:
        return self.interactive and input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def _secret(name: str, question: str, ask: _Asker) -> str:
    value = os.environ.get(name, "").strip() or ask.secret(question)
    if not value:
        raise InputError(
            f"--key-source file keeps {name} in ~/.config/kit/env: set {name} in the "
            "environment for this command (or run it on a terminal to be asked); nothing written"
        )
    if "\n" in value or "\r" in value:
        raise InputError(f"{name} holds a line break; nothing written")
    return value


def _check_free(path: Path, force: bool, ask: _Asker) -> None:
    if path.is_symlink():  # even with --force: writing through it would change its target
        raise InputError(
            f"{path} is a symbolic link (to {os.readlink(path)}); kit init does not write "
            "through it, nor replace it. Point --config at the file itself, or remove the "
            "link first (nothing was written)"
        )
    if not path.exists() or force:
        return
    if ask.confirm(f"{path} exists. Replace it?"):
        return
    raise InputError(
        f"{path} exists and was left as it is; edit it, or run kit init --force to replace it "
        "(nothing was written)"
    )


def _write(path: Path, text: str, *, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    # O_NOFOLLOW: a link made since `_check_free` is refused too (ELOOP), never written through.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
    with open(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.chmod(path, mode)  # an existing file keeps its old mode through O_CREAT
