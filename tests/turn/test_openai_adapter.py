"""The OpenAI chat-completions adapter with the real openai SDK against a local server that
speaks the API (as Ollama, llama.cpp and vLLM do): text, tools, a forced tool, JSON-schema
output, streaming, usage with cached tokens, and every failure as Kit's own error."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from kit.errors import LLMBusy, LLMTimeout, LLMUnavailable
from kit.llm.base import (
    ChatMessage,
    LLMRequest,
    SystemBlock,
    ToolResult,
    ToolSpec,
    ToolUse,
)
from kit.llm.openai import OpenAILLM
from tests.servers.openai_api import FakeOpenAIServer

SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
TOOLS = (ToolSpec("search_memory", "search", SCHEMA), ToolSpec("remember", "store", SCHEMA))


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer() as running:
        yield running


def _request(**changes: object) -> LLMRequest:
    base: dict[str, object] = dict(
        model="qwen-test",
        system=(SystemBlock("stable part", cache=True), SystemBlock("per turn")),
        messages=(ChatMessage.text("user", "hello"),),
        max_tokens=100,
    )
    base.update(changes)
    return LLMRequest(**base)  # type: ignore[arg-type]


async def _complete(
    server: FakeOpenAIServer, request: LLMRequest, *, on_text: object = None, **kw: object
) -> object:
    llm = OpenAILLM(api_key="test-key", base_url=server.url, **{"max_retries": 0, **kw})  # type: ignore[arg-type]
    try:
        return await llm.complete(request, on_text)  # type: ignore[arg-type]
    finally:
        await llm.aclose()


async def test_text_reply_with_usage_where_cached_tokens_are_split_out(
    server: FakeOpenAIServer,
) -> None:
    """OpenAI counts cached tokens inside prompt_tokens; Kit keeps them apart, as Anthropic's."""
    server.queue_text("Hi there", prompt_tokens=120, completion_tokens=7, cached_tokens=100)
    reply = await _complete(server, _request())
    assert reply.text == "Hi there" and reply.stop_reason == "end_turn"  # type: ignore[attr-defined]
    usage = reply.usage  # type: ignore[attr-defined]
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (20, 100, 7)
    sent = server.completions()[-1]
    # One system message, the cached block first: the same leading bytes on every call.
    assert sent["messages"][0] == {"role": "system", "content": "stable part\n\nper turn"}
    assert sent["messages"][1] == {"role": "user", "content": "hello"}
    assert sent["max_tokens"] == 100 and "max_completion_tokens" not in sent


async def test_openais_own_api_is_sent_max_completion_tokens() -> None:
    """api.openai.com wants max_completion_tokens (newer models refuse max_tokens); servers
    that copy the API (checked above) know max_tokens."""
    llm = OpenAILLM(api_key="k", base_url="https://api.openai.com/v1")
    try:
        assert "max_completion_tokens" in llm._params(_request())
    finally:
        await llm.aclose()


async def test_tools_and_tool_results_round_trip(server: FakeOpenAIServer) -> None:
    server.queue_tool_call("search_memory", {"query": "Ana"}, call_id="call_1")
    server.queue_text("Found it")
    first = await _complete(server, _request(tools=TOOLS))
    assert first.tool_uses == (ToolUse("call_1", "search_memory", {"query": "Ana"}),)  # type: ignore[attr-defined]
    assert first.stop_reason == "tool_use"  # type: ignore[attr-defined]
    follow_up = (
        ChatMessage.text("user", "hello"),
        ChatMessage("assistant", first.content),  # type: ignore[attr-defined]
        ChatMessage("user", (ToolResult("call_1", "Ana likes tea"), ToolResult("x", "no", True))),
    )
    second = await _complete(server, _request(tools=TOOLS, messages=follow_up))
    assert second.text == "Found it"  # type: ignore[attr-defined]
    sent = server.completions()[-1]
    assert [t["function"]["name"] for t in sent["tools"]] == ["search_memory", "remember"]
    assert "tool_choice" not in sent
    assert sent["messages"][2]["tool_calls"][0]["function"] == {
        "name": "search_memory",
        "arguments": '{"query": "Ana"}',
    }
    assert sent["messages"][3] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "Ana likes tea",
    }
    assert sent["messages"][4]["content"] == "Error: no"


async def test_a_tool_call_goes_back_with_text_content_llama_cpp_python_accepts() -> None:
    """llama-cpp-python's server refuses an assistant message whose content is null beside its
    tool calls (a 500 on every turn after a tool call, issue 29's 1.5B run): the content is
    sent as a string, which every server takes."""
    async with FakeOpenAIServer(dialect="llama-cpp-python") as server:
        server.queue_tool_call("remember", {"query": "Ana teaches maths"}, call_id="call_0")
        server.queue_text("Noted")
        first = await _complete(server, _request(tools=TOOLS))
        follow_up = (
            ChatMessage.text("user", "hello"),
            ChatMessage("assistant", first.content),  # type: ignore[attr-defined]
            ChatMessage("user", (ToolResult("call_0", "stored"),)),
        )
        second = await _complete(server, _request(tools=TOOLS, messages=follow_up))
        assert second.text == "Noted"  # type: ignore[attr-defined]
        assert server.completions()[-1]["messages"][2]["content"] == ""


async def test_a_forced_tool_is_a_forced_tool_choice(server: FakeOpenAIServer) -> None:
    """OpenAI ends a forced call with finish_reason "stop": it is still a tool use."""
    server.queue_tool_call("remember", {"query": "x"}, finish_reason="stop")
    reply = await _complete(server, _request(tools=TOOLS, tool_choice="remember"))
    assert reply.stop_reason == "tool_use" and reply.tool_uses[0].name == "remember"  # type: ignore[attr-defined]
    assert server.completions()[-1]["tool_choice"] == {
        "type": "function",
        "function": {"name": "remember"},
    }


async def test_json_structured_output_answers_as_the_forced_tool(
    server: FakeOpenAIServer,
) -> None:
    """structured_output = "json": the tool's schema goes as a JSON-schema response format
    (no tools), and the JSON answer comes back as that tool's call; text that is not a JSON
    object stays text, for the reader to reject with its reason."""
    server.queue_text('{"query": "tea"}')
    server.queue_text("I think the answer is tea")
    request = _request(tools=TOOLS, tool_choice="remember")
    reply = await _complete(server, request, structured_output="json")
    assert reply.tool_uses == (ToolUse("call_remember", "remember", {"query": "tea"}),)  # type: ignore[attr-defined]
    sent = server.completions()[-1]
    assert "tools" not in sent and "tool_choice" not in sent
    assert sent["response_format"]["json_schema"]["schema"] == SCHEMA
    assert "the input of remember" in sent["messages"][0]["content"]
    prose = await _complete(server, request, structured_output="json")
    assert prose.tool_uses == () and prose.text.startswith("I think")  # type: ignore[attr-defined]


async def test_streaming_delivers_text_in_pieces_and_usage_at_the_end(
    server: FakeOpenAIServer,
) -> None:
    server.queue_text(
        "A fairly long answer that arrives in pieces.", prompt_tokens=50, cached_tokens=30
    )
    chunks: list[str] = []

    async def sink(chunk: str) -> None:
        chunks.append(chunk)

    reply = await _complete(server, _request(), on_text=sink)
    assert "".join(chunks) == reply.text == "A fairly long answer that arrives in pieces."  # type: ignore[attr-defined]
    assert len(chunks) > 1
    assert (reply.usage.input_tokens, reply.usage.cache_read_tokens) == (20, 30)  # type: ignore[attr-defined]
    sent = server.completions()[-1]
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}


async def test_streamed_tool_calls_are_assembled(server: FakeOpenAIServer) -> None:
    server.queue_tool_call("search_memory", {"query": "Ana's birthday"}, call_id="call_9")

    async def sink(chunk: str) -> None:
        pass

    reply = await _complete(server, _request(tools=TOOLS), on_text=sink)
    assert reply.tool_uses == (ToolUse("call_9", "search_memory", {"query": "Ana's birthday"}),)  # type: ignore[attr-defined]


async def test_a_server_without_usage_is_estimated_so_budgets_still_count(
    server: FakeOpenAIServer,
) -> None:
    server.queue_text("x" * 400, usage=False)
    reply = await _complete(server, _request())
    assert reply.usage.input_tokens > 0 and reply.usage.output_tokens == 100  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [('{"query": "Ana"', {}), ('["not", "an", "object"]', {}), ("", {})],
    ids=["cut JSON", "a list", "nothing"],
)
async def test_bad_call_arguments_become_an_empty_input_not_a_crash(
    server: FakeOpenAIServer, arguments: str, expected: dict[str, object]
) -> None:
    server.queue_tool_call("search_memory", arguments)
    reply = await _complete(server, _request(tools=TOOLS))
    assert reply.tool_uses[0].input == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize("streaming", [False, True])
async def test_finish_reason_length_is_max_tokens(
    server: FakeOpenAIServer, streaming: bool
) -> None:
    """A model looping to the output limit: its answer is marked cut, for the reader."""
    server.queue_tool_call("remember", '{"query": "aaaaaaa', finish_reason="length")

    async def sink(chunk: str) -> None:
        pass

    reply = await _complete(server, _request(tools=TOOLS), on_text=sink if streaming else None)
    assert reply.stop_reason == "max_tokens"  # type: ignore[attr-defined]


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_passing_errors_are_retried_then_become_llm_busy(
    server: FakeOpenAIServer, status: int
) -> None:
    for _ in range(3):
        server.queue_error(status, retry_after=0.01)
    with pytest.raises(LLMBusy) as caught:
        await _complete(server, _request(), max_retries=2)
    assert len(server.completions()) == 3  # one try plus two bounded retries
    assert "test-key" not in str(caught.value)
    assert caught.value.retry_after == pytest.approx(0.01)


async def test_a_refused_key_names_the_variable_never_the_key(server: FakeOpenAIServer) -> None:
    server.queue_error(401)
    with pytest.raises(LLMUnavailable) as caught:
        await _complete(server, _request(), key_env="LOCAL_LLM_KEY")
    assert not isinstance(caught.value, LLMBusy)
    assert "check LOCAL_LLM_KEY" in str(caught.value) and "test-key" not in str(caught.value)


async def test_a_stalled_server_is_a_timeout(server: FakeOpenAIServer) -> None:
    server.queue_stall(2.0)
    with pytest.raises(LLMTimeout, match="did not answer in time"):
        await _complete(server, _request(), timeout=0.3)


async def test_a_stream_cut_midway_is_llm_unavailable(server: FakeOpenAIServer) -> None:
    """Cut twice: a broken stream is asked once more (tests/turn/test_bounded_replies.py)."""
    server.queue_cut_stream("The answer is")
    server.queue_cut_stream("The answer is")

    async def sink(chunk: str) -> None:
        pass

    with pytest.raises(LLMUnavailable, match=r"broke off|cannot reach"):
        await _complete(server, _request(), on_text=sink)


async def test_empty_content_is_an_empty_reply_not_a_crash(server: FakeOpenAIServer) -> None:
    server.queue_text("")
    reply = await _complete(server, _request())
    assert reply.text == "" and reply.content == ()  # type: ignore[attr-defined]


async def test_reach_reads_the_model_list(server: FakeOpenAIServer) -> None:
    llm = OpenAILLM(api_key="test-key", base_url=server.url, max_retries=0)
    try:
        assert (await llm.reach("fake-model")).ok
        # llama.cpp lists the one model it loaded and answers to any name: not an error.
        assert (await llm.reach("whatever")).ok
        server.listed = ("a", "b")
        missing = await llm.reach("c")
    finally:
        await llm.aclose()
    assert missing.outcome == "not_found" and "it serves a, b" in missing.detail
    assert {r.method for r in server.requests} == {"GET"}  # free: nothing generated


async def test_json_object_dialect_sends_the_schema_as_llama_cpp_python_takes_it(
    server: FakeOpenAIServer,
) -> None:
    """structured_output = "json_object": `{"type": "json_object", "schema": ...}`, the
    dialect of llama-cpp-python's server (a `json_schema` format is a 500 there)."""
    server.queue_text('{"query": "tea"}')
    request = _request(tools=TOOLS, tool_choice="remember")
    reply = await _complete(server, request, structured_output="json_object")
    assert reply.tool_uses == (ToolUse("call_remember", "remember", {"query": "tea"}),)  # type: ignore[attr-defined]
    assert server.completions()[-1]["response_format"] == {"type": "json_object", "schema": SCHEMA}


async def test_a_temperature_is_sent_only_when_set(server: FakeOpenAIServer) -> None:
    await _complete(server, _request())
    await _complete(server, _request(temperature=0.0))
    first, second = server.completions()
    assert "temperature" not in first and second["temperature"] == 0.0


async def test_a_roles_temperature_goes_with_each_of_its_calls(server: FakeOpenAIServer) -> None:
    """`[llm.background] temperature = 0`: every background call carries it, unless the call
    sets its own."""
    from contextlib import AsyncExitStack

    from kit.app_models import role_llm
    from kit.model_settings import LLMSettings, RoleSettings, model_role

    settings = LLMSettings(
        provider="openai", base_url=server.url, background=RoleSettings(temperature=0.0)
    )
    async with AsyncExitStack() as stack:
        llm = role_llm(model_role(settings, "background"), stack, [])
        await llm.complete(_request())
        await llm.complete(_request(temperature=0.7))
    first, second = server.completions()
    assert (first["temperature"], second["temperature"]) == (0.0, 0.7)


@pytest.mark.parametrize(
    "written",
    [
        '{"name": "search_memory", "arguments": {"query": "Leeds, nurse"}}',
        '<tool_call>\n{"name": "search_memory", "arguments": {"query": "Leeds, nurse"}}\n'
        "</tool_call>",
        '```json\n{"name": "search_memory", "arguments": "{\\"query\\": \\"Leeds, nurse\\"}"}\n```',
    ],
)
async def test_a_tool_call_written_as_text_is_a_tool_call(
    server: FakeOpenAIServer, written: str
) -> None:
    """A local model (Qwen2.5 on llama-cpp-python's server, issue 29's run) writes its call as
    the reply's text; Kit stored that JSON as what it said to the owner."""
    server.queue_text(written)
    reply = await _complete(server, _request(tools=TOOLS))
    assert reply.tool_uses == (ToolUse("call_0", "search_memory", {"query": "Leeds, nurse"}),)  # type: ignore[attr-defined]
    assert reply.text == "" and reply.stop_reason == "tool_use"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "written",
    [
        '{"name": "search_memory", "arguments": {"query": "Leeds, nurse"}}',
        '<tool_call>\n{"name": "search_memory", "arguments": {"query": "Leeds, nurse"}}\n'
        "</tool_call>",
    ],
)
async def test_a_streamed_tool_call_written_as_text_is_never_shown(
    server: FakeOpenAIServer, written: str
) -> None:
    """The 0.5B run: `kit chat` printed the call's JSON as it streamed, before Kit turned it
    into a call. Text that may still be a call is held until the reply ends."""
    server.queue_text(written)
    shown: list[str] = []

    async def sink(chunk: str) -> None:
        shown.append(chunk)

    reply = await _complete(server, _request(tools=TOOLS), on_text=sink)
    assert reply.tool_uses == (ToolUse("call_0", "search_memory", {"query": "Leeds, nurse"}),)  # type: ignore[attr-defined]
    assert shown == []


@pytest.mark.parametrize(
    "text",
    [
        "A fairly long answer that arrives in pieces.",  # shown as it comes
        '{"name": "delete_everything", "arguments": {}}',  # held, then shown: not a call
        "```python\nprint('hi')\n```",  # a code block: held, then shown whole
    ],
)
async def test_streamed_text_that_is_no_call_is_all_shown(
    server: FakeOpenAIServer, text: str
) -> None:
    server.queue_text(text)
    shown: list[str] = []

    async def sink(chunk: str) -> None:
        shown.append(chunk)

    reply = await _complete(server, _request(tools=TOOLS), on_text=sink)
    assert "".join(shown) == reply.text == text  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("written", "tools"),
    [
        ('{"name": "search_memory", "arguments": {"query": "x"}}', ()),  # no tool offered
        ('{"name": "delete_everything", "arguments": {}}', TOOLS),  # not one of the request's
        ('Sure: {"name": "search_memory", "arguments": {"query": "x"}} is what I would call.',
         TOOLS),  # prose around it: a reply about a call, not a call
    ],
)  # fmt: skip
async def test_text_that_is_not_a_whole_call_of_an_offered_tool_stays_text(
    server: FakeOpenAIServer, written: str, tools: tuple[ToolSpec, ...]
) -> None:
    server.queue_text(written)
    reply = await _complete(server, _request(tools=tools))
    assert reply.tool_uses == () and reply.text == written  # type: ignore[attr-defined]
