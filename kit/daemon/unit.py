"""The systemd user unit that runs `kit run` (`kit service install`), from one template:
contrib/kit.service is this template rendered with the paths of a `pip install --user`
(a test keeps the two the same).

The unit names the real paths: the `kit` that is running now (a virtual environment's
script included), the config file and the data directory, so the service runs the Kit you
installed on the memory you use, whatever systemd's working directory and PATH are.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

UNIT_NAME = "kit.service"
ENV_FILE = "%h/.config/kit/env"  # secrets, owner-only; never in config.toml

_TEMPLATE = """\
# Kit as a systemd user service.{note}
#
#   {secrets}
#   systemctl --user daemon-reload
#   systemctl --user enable --now kit
#   journalctl --user -u kit -f        # or <data_dir>/logs/kit.log
#   loginctl enable-linger "$USER"     # keep Kit running while you are logged out

[Unit]
Description=Kit, a memory-first personal assistant
After=network-online.target
Wants=network-online.target

[Service]
# Kit sends READY=1 once its control socket listens, so `start` returns when it can be used.
Type=notify
NotifyAccess=main
ExecStart={exec_start}
# Secrets live in an owner-only env file, never in config.toml.
EnvironmentFile={env_file}
# SIGTERM: replies in flight get 10 s (kit run --shutdown-grace), every later step is bounded.
KillSignal=SIGTERM
TimeoutStopSec=45
Restart=on-failure
RestartSec=5
# Exit 2 is a configuration error (missing key, bad config.toml): restarting will not fix it.
RestartPreventExitStatus=2
UMask=0077

[Install]
WantedBy=default.target
"""

# Appends: the file may already hold what `kit init` wrote (the Telegram token); a later line
# of the same name wins in systemd's EnvironmentFile. umask 077: a new file is the owner's only.
SECRETS_HINT = (
    "mkdir -p ~/.config/kit && (umask 077 && printf 'ANTHROPIC_API_KEY=sk-ant-...\\n' "
    ">> ~/.config/kit/env)"
)


@dataclass(frozen=True)
class UnitPaths:
    command: tuple[str, ...]  # how to start `kit` (its script, or python -m kit.cli)
    config: Path | None  # the config file, when there is one
    data_dir: Path | None


def render(paths: UnitPaths, *, note: str = "") -> str:
    args = [*paths.command]
    if paths.config is not None:
        args += ["--config", str(paths.config)]
    if paths.data_dir is not None:
        args += ["--data-dir", str(paths.data_dir)]
    return _TEMPLATE.format(
        note=note,
        secrets=SECRETS_HINT,
        exec_start=" ".join(_quoted(a) for a in [*args, "run"]),
        env_file=ENV_FILE,
    )


def _quoted(arg: str) -> str:
    """An ExecStart word, by systemd's rules (systemd.syntax(7), systemd.service(5)): it
    splits on spaces, honours double quotes and C escapes in them, expands `%` specifiers
    and `$` variables. A line break in a path would otherwise end the line and start another
    setting of the unit."""
    if arg and not any(
        c.isspace() or not c.isprintable() or c in "\"'\\;$%" for c in arg.replace("%h", "")
    ):
        return arg
    return '"' + "".join(_escaped(c) for c in arg) + '"'


_ESCAPES = {"\\": "\\\\", '"': '\\"', "%": "%%", "$": "$$", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if not char.isprintable() and ord(char) < 0x100:
        return f"\\x{ord(char):02x}"
    if not char.isprintable():  # a line or paragraph separator, a format character
        return f"\\u{ord(char):04x}" if ord(char) < 0x10000 else f"\\U{ord(char):08x}"
    return char


def contrib() -> str:
    """contrib/kit.service: the template with the paths of a `pip install --user` (`kit` in
    ~/.local/bin, the default config and data directory)."""
    return render(
        UnitPaths(("%h/.local/bin/kit",), None, None),
        note="\n# `kit service install` writes this with the real paths of your Kit (a virtual\n"
        "# environment's `kit`, your config and data directory); this copy assumes `kit` is\n"
        "# in ~/.local/bin (pip install --user, pipx) and the default folders.",
    )


def running_kit() -> tuple[str, ...]:
    """How this `kit` was started, as absolute paths: its console script, or failing that
    (`python -m kit.cli`) this interpreter running the module."""
    script = Path(sys.argv[0])
    if script.name == "kit" and script.is_file():
        return (str(script.absolute()),)
    beside = Path(sys.executable).parent / "kit"  # a virtual environment's script
    if beside.is_file() and os.access(beside, os.X_OK):
        return (str(beside),)
    return (sys.executable, "-m", "kit.cli")


def unit_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "systemd" / "user" / UNIT_NAME


def enabled_link(unit: Path) -> Path:
    """Where `systemctl --user enable` links the unit (its WantedBy target)."""
    return unit.parent / "default.target.wants" / UNIT_NAME


def describe(command: tuple[str, ...]) -> str:
    return shlex.join(command)
