"""The MCP server's answers in-process (the SDK's in-memory client, no child): a bug in a
tool is a one-line tool error and the server goes on; the report follows the cache as it
moves; pages stop near the size a client takes, and a cursor is only good for the report it
came from."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client
from model_builders import subscription

from olmtui.mcp.answers import Answers, ToolInputError
from olmtui.mcp.paging import CursorError, page
from olmtui.mcp.server import build_server
from olmtui.mcp.tools import PAGE_CHARS
from olmtui.pipeline.build import sample_session


def _text(result: Any) -> str:
    text: str = result.content[0].text
    return text


async def test_a_bug_in_a_tool_is_one_line_and_the_server_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = Answers(sample_session(), live=False)

    def broken(args: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("boom\nat line two")

    monkeypatch.setattr(answers, "_findings", broken)
    async with Client(build_server(answers)) as client:
        failed = await client.call_tool("findings", {})
        assert failed.is_error
        assert _text(failed).startswith("internal error: RuntimeError: boom at line two")
        assert "\n" not in _text(failed)
        after = await client.call_tool("report_summary", {})
        assert not after.is_error and json.loads(_text(after))["format"] == 1


def test_the_report_follows_the_cache_and_cursors_are_for_one_report() -> None:
    session = sample_session()
    answers = Answers(session, live=True)
    first = answers.call("findings", {"limit": 1})
    assert first["nextCursor"] is not None
    assert answers.call("findings", {"limit": 1}) == first  # kept while nothing moved
    orphan = subscription("lonely", "orphan", package="nowhere")
    session.store.apply("ADDED", orphan)
    moved = answers.call("findings", {"namespace": "lonely"})
    assert moved["total"] > 0 and {f["name"] for f in moved["findings"]} >= {"orphan"}
    with pytest.raises(ToolInputError, match="earlier state"):
        answers.call("findings", {"limit": 1, "cursor": first["nextCursor"]})


def test_a_page_stops_near_the_size_a_client_takes() -> None:
    items = [{"message": "x" * (PAGE_CHARS // 3)} for _ in range(10)]
    first = page(items, 50, None, "list")
    assert len(first.items) == 2 and first.next_cursor is not None
    walked = list(first.items)
    cursor = first.next_cursor
    while cursor is not None:
        more = page(items, 50, cursor, "list")
        walked += more.items
        cursor = more.next_cursor
    assert walked == items
    one = page([{"message": "y" * (PAGE_CHARS * 2)}], 50, None, "list")
    assert len(one.items) == 1 and one.next_cursor is None  # never an empty page
    with pytest.raises(CursorError, match="another list"):
        page(items, 50, first.next_cursor, "another")
