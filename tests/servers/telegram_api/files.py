"""The files users sent (documents, voice messages), as the bot fetches them: getFile names a
file's path, and the file URL (``base_file_url + token + "/" + file_path``) hands over its
bytes; like Telegram's cloud API, nothing over 20 MB."""

from __future__ import annotations

from tests.servers.telegram_api.core import Core
from tests.servers.telegram_api.http import ApiError

MAX_DOWNLOAD = 20 * 1024 * 1024  # getFile refuses bigger files, as Telegram's cloud API does


class Files(Core):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.downloads: list[str] = []  # file paths downloaded, in order

    def _get_file(self, p: dict) -> dict:
        file_id = str(p.get("file_id") or "")
        with self._cond:
            content = self._files.get(file_id)
        if content is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        if len(content) > MAX_DOWNLOAD:
            raise ApiError(400, "Bad Request: file is too big")
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(content),
            "file_path": f"documents/{file_id}",
        }

    def download(self, token: str, path: str) -> tuple[int, bytes]:
        """A file URL: its bytes, or 404."""
        with self._cond:
            self._calls.append(("download", {"path": path}))
            if token != self.token:
                return 401, b""
            content = self._files.get(path.removeprefix("documents/"))
            if content is None:
                return 404, b""
            self.downloads.append(path)
            return 200, content
