"""What is said about a note besides its text, screened like the text: its description, the
file name it came from (which also names it when no name is given), where it came from
(`note_history.source`) and a name given to it. All of it reaches the memory index sent with
every prompt, the note's history and `kit export`, so a password in a file name or a
description is withheld there as in the text (kit/secrets/); a name given with --name that
holds one is refused, since a name cannot hold "[secret withheld]"."""

from __future__ import annotations

from pathlib import PurePath

from kit.errors import InputError
from kit.secrets import WITHHELD, find_secret, withhold_secrets


def screened_text(text: str) -> str:
    """A description or a source with any secret value withheld in place."""
    return withhold_secrets(text)


def screened_file_name(file_name: str) -> str:
    """The file name with a secret in its stem withheld ("password=[secret withheld].txt"),
    its extension kept."""
    if not file_name:
        return file_name
    path = PurePath(file_name.replace("\\", "/"))
    stem = withhold_secrets(path.stem)
    if stem == path.stem:
        return file_name
    return stem + path.suffix


def name_source(file_name: str) -> str:
    """A screened file name as the source of a note's name: a withheld value reads "withheld"
    there (a name holds letters, digits, '-', '_' and '.')."""
    return file_name.replace(WITHHELD, "withheld")


def check_name(name: str) -> None:
    """An InputError if a name given to a note looks like it holds a secret."""
    kind = find_secret(name.replace("-", " ").replace("_", " "))
    if kind is not None:
        raise InputError(
            f"the note name looks like it holds {kind}, and a note's name is shown with every "
            "prompt and kept in its history; choose another name with --name"
        )
