"""Token estimates for budgets and benchmarks.

Claude's tokenizer is not public; ~4 characters per token is its documented rule of thumb
for English, and a budget only needs to be right to within a few percent.
"""

from __future__ import annotations

import json
import math

from kit.llm.base import LLMRequest, TextBlock, ToolResult, ToolUse


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4) if text else 0


def estimate_request(request: LLMRequest) -> int:
    """What a model call may cost at most, before it is made: everything it sends (system,
    messages, tool schemas) plus all the tokens it may write (`max_tokens`)."""
    parts = [block.text for block in request.system]
    for message in request.messages:
        for block in message.content:
            if isinstance(block, TextBlock):
                parts.append(block.text)
            elif isinstance(block, ToolUse):
                parts.append(json.dumps(dict(block.input), default=str))
            elif isinstance(block, ToolResult):
                parts.append(block.content)
    for tool in request.tools:
        parts += [tool.name, tool.description, json.dumps(dict(tool.input_schema), default=str)]
    return sum(estimate_tokens(part) for part in parts) + request.max_tokens
