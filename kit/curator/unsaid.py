"""The grounding guard for one fact outside a curation pass: what the chat model would
`remember` is held against the owner's message that asked, like a curator's INSERT citing it
(kit/curator/grounding.py), so a hypothetical, another person's trait or a detail the owner
never said is not stored by the chat's shortcut either."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from kit.curator.grounding import Grounding
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.curator.related import tagged
from kit.curator.wording import tokens
from kit.embed.base import Embedder
from kit.memory.messages import Message


def unsaid(
    owner_name: str, embedder: Callable[[], Awaitable[Embedder | None]] | None = None
) -> Callable[[Message, str, str], Awaitable[str | None]]:
    """Why `content` (about `subject`) is not said in `message`, or None when it is. Only a
    fully supported fact passes: a partly supported one waits for the night's curation, which
    reads the same message again. `embedder`: the search's model, for the guard's meaning
    check (kit/curator/meaning.py); without it, words only."""

    async def check(message: Message, content: str, subject: str) -> str | None:
        claim = Insert(content, 1.0, subject=_named(subject), sources=(message.id,))
        meanings = Meanings.calibrated(await embedder()) if embedder is not None else None
        # the owner asked Kit to remember it: what the rules hold up is not doubted again
        grounding = Grounding([message], [message.id], owner_name, meanings, doubts=False)
        await grounding.weigh([claim], {})
        verdict = grounding.check(claim, {})
        return None if verdict.status == "supported" else verdict.reason

    return check


def _named(subject: str) -> str:
    """The subject as the guard reads it: the chat model's own label ("personal", "Diet",
    "work preferences": common words, each seen in use in WordNet's concordance) is no claim
    the owner must have made; a subject that names someone ("Ana", "Ana's job") is, like a
    curator's."""
    words = [t.group() for t in tokens(subject)]
    return "" if words and all(tagged(w) for w in words) else subject
