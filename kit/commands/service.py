"""`kit service install [--print] [--force]` / `kit service uninstall`: run Kit as a systemd
user service with the real paths of this Kit (kit/daemon/unit.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from kit.errors import InputError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "service",
        help="run Kit as a systemd user service: install (or --print) the unit, uninstall it",
        description="install writes ~/.config/systemd/user/kit.service naming this `kit`, "
        "your config file and data directory (the global --config and --data-dir choose "
        "them), and says how to enable it; --print shows the unit without writing it. "
        "uninstall removes it once it is disabled.",
    )
    actions = cmd.add_subparsers(dest="service_command", required=True, metavar="ACTION")
    install = actions.add_parser("install", help="write the unit (or --print it)")
    install.add_argument("--print", action="store_true", help="print the unit; write nothing")
    install.add_argument("--force", action="store_true", help="replace a unit that differs")
    install.set_defaults(func=run_install)
    uninstall = actions.add_parser("uninstall", help="remove the unit (disable it first)")
    uninstall.set_defaults(func=run_uninstall)


async def run_install(args: argparse.Namespace) -> int:
    return install(args)  # a few small files: no need to leave the event loop's thread


async def run_uninstall(args: argparse.Namespace) -> int:
    return uninstall()


def install(args: argparse.Namespace) -> int:
    from kit.config import load_settings
    from kit.daemon.unit import ENV_FILE, SECRETS_HINT, UnitPaths, render, running_kit, unit_path

    settings = load_settings(args.config, args.data_dir)
    config = settings.config_path.resolve() if settings.config_path is not None else None
    paths = UnitPaths(running_kit(), config, settings.data_dir.absolute())
    text = render(paths)
    if args.print:
        print(text, end="")
        return 0
    unit = unit_path()
    if unit.exists() and unit.read_text(encoding="utf-8") != text and not args.force:
        raise InputError(
            f"{unit} exists and says something else; `kit service install --print` shows "
            "what this one would write, --force replaces it"
        )
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(text, encoding="utf-8")
    env_file = Path(ENV_FILE.replace("%h", str(Path.home())))
    print(f"Wrote {unit}:")
    print(f"  runs    {' '.join(paths.command)} run")
    print(f"  config  {config or 'none (the built-in defaults)'}")
    print(f"  data    {paths.data_dir}")
    print(f"  secrets {env_file}" + ("" if env_file.exists() else " (not there yet)"))
    print("Next:")
    if not env_file.exists():
        print(f"  {SECRETS_HINT}")
    print("  systemctl --user daemon-reload")
    print("  systemctl --user enable --now kit     # start now and at every login")
    print("  journalctl --user -u kit -f           # what it says")
    print('  loginctl enable-linger "$USER"        # keep it running while you are logged out')
    return 0


def uninstall() -> int:
    from kit.daemon.unit import enabled_link, unit_path

    unit = unit_path()
    if not unit.exists():
        print(f"No Kit service installed ({unit} is not there).")
        return 0
    if enabled_link(unit).is_symlink() or enabled_link(unit).exists():
        raise InputError(
            "the Kit service is still enabled; run `systemctl --user disable --now kit` "
            "first, then `kit service uninstall` again"
        )
    unit.unlink()
    print(f"Removed {unit}. `systemctl --user daemon-reload` makes systemd forget it.")
    return 0
