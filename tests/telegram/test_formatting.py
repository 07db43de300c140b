"""Markdown from the model rendered as Telegram HTML."""

from __future__ import annotations

from kit.channels.formatting import markdown_to_html


def test_bold_italic_code_and_links() -> None:
    text = "**Ana** likes *tea*, see `pip install kit` and [docs](https://example.com/a?b=1&c=2)"
    assert markdown_to_html(text) == (
        "<b>Ana</b> likes <i>tea</i>, see <code>pip install kit</code> and "
        '<a href="https://example.com/a?b=1&amp;c=2">docs</a>'
    )


def test_html_special_characters_are_escaped_outside_tags() -> None:
    assert markdown_to_html("if a < b && c > d") == "if a &lt; b &amp;&amp; c &gt; d"


def test_snake_case_and_arithmetic_are_left_alone() -> None:
    text = "use snake_case_names and 2*3*4"
    assert markdown_to_html(text) == text


def test_fenced_code_keeps_its_content_verbatim() -> None:
    text = "Run:\n```python\nprint(a**b < c)\n```\ndone"
    assert markdown_to_html(text) == (
        'Run:\n<pre><code class="language-python">print(a**b &lt; c)</code></pre>\ndone'
    )


def test_headings_and_bullets() -> None:
    text = "## Plan\n- first\n* second"
    assert markdown_to_html(text) == "<b>Plan</b>\n• first\n• second"


def test_unbalanced_markers_stay_literal() -> None:
    assert markdown_to_html("**not closed and `half") == "**not closed and `half"
