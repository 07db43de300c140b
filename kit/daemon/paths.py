"""Where the daemon keeps its files inside the data directory."""

from __future__ import annotations

from pathlib import Path

from kit.errors import ConfigError

# Linux's sockaddr_un holds 108 bytes including the final NUL.
_MAX_SOCKET_PATH = 107


def socket_path(data_dir: Path) -> Path:
    path = data_dir / "kit.sock"
    if len(str(path).encode()) > _MAX_SOCKET_PATH:
        raise ConfigError(
            f"{data_dir}: the data directory's path is too long for a Unix socket "
            f"(the control socket path may have at most {_MAX_SOCKET_PATH} bytes); "
            "choose a shorter --data-dir or KIT_DATA_DIR"
        )
    return path


def log_path(data_dir: Path) -> Path:
    return data_dir / "logs" / "kit.log"
