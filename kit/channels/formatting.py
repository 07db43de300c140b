"""The model writes Markdown; Telegram understands a small HTML subset. Convert between them.

Everything is HTML-escaped first and only recognised constructs become tags, so stray
underscores or asterisks (snake_case, 2*3) stay as they are instead of being eaten the way
Telegram's legacy Markdown mode would. If Telegram still rejects the result, the channel
resends the chunk as plain text.
"""

from __future__ import annotations

import html
import re

_FENCE = re.compile(r"```([\w+-]*)[ \t]*\n?(.*?)```", re.S)
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_BULLET = re.compile(r"^([ \t]*)[*+-][ \t]+", re.M)
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.S)
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_ITALIC_UNDERSCORE = re.compile(r"(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_SLOT = re.compile(r"\x00(\d+)\x00")


def markdown_to_html(text: str) -> str:
    """Telegram-flavoured HTML (parse_mode="HTML") for a Markdown reply."""
    slots: list[str] = []

    def keep(fragment: str) -> str:
        slots.append(fragment)
        return f"\x00{len(slots) - 1}\x00"

    def fence(match: re.Match[str]) -> str:
        language, body = match.group(1), _escape(match.group(2).rstrip("\n"))
        if language:
            return keep(f'<pre><code class="language-{language}">{body}</code></pre>')
        return keep(f"<pre>{body}</pre>")

    out = text.replace("\x00", "")
    # Code first: nothing inside it is Markdown.
    out = _FENCE.sub(fence, out)
    out = _INLINE_CODE.sub(lambda m: keep(f"<code>{_escape(m.group(1))}</code>"), out)
    out = _escape(out)
    out = _LINK.sub(lambda m: keep(_link(m.group(1), m.group(2))), out)
    out = _HEADING.sub(r"<b>\1</b>", out)
    out = _BULLET.sub(r"\1• ", out)
    out = _BOLD.sub(r"<b>\2</b>", out)
    out = _STRIKE.sub(r"<s>\1</s>", out)
    out = _ITALIC_STAR.sub(r"<i>\1</i>", out)
    out = _ITALIC_UNDERSCORE.sub(r"<i>\1</i>", out)
    # Links may hold a slot (inline code in their text): restore until none are left.
    while _SLOT.search(out):
        out = _SLOT.sub(lambda m: slots[int(m.group(1))], out)
    return out


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def _link(label: str, url: str) -> str:
    # Both are already HTML-escaped (they came from escaped text); only quotes remain.
    return f'<a href="{url.replace(chr(34), "&quot;")}">{label}</a>'
