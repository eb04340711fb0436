"""``olmtui mcp``'s server: the tools of ``tools.py`` over stdio, with the official MCP
Python SDK (the optional extra ``olmtui[mcp]``; ``sdk_missing`` says how to install it).

The session is built once, by the command, through the composition root; a live session's
runner (its one watcher, GET requests only) runs in the server's event loop for the
server's lifetime, so every call is answered from the cache as it is then. A bad argument is
a tool error the client can correct; a bug in olmtui is a tool error too (one line, the
traceback on stderr with ``OLMTUI_DEBUG=1``), and the server keeps serving.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp.server.stdio import stdio_server

from olmtui import __version__
from olmtui.errors import crash_line, debug_wanted, print_traceback
from olmtui.mcp.answers import Answers, ToolInputError
from olmtui.mcp.tools import INSTRUCTIONS, TOOLS
from olmtui.pipeline.session import Session
from olmtui.report.json_report import dump_json
from olmtui.safe_text import visible

Context = ServerRequestContext[Any, Any]
#: Tools that read other clusters or files only (never this server's cache): answered in a
#: thread, so a fleet read of a minute does not stop this server's own watcher.
OFF_LOOP = frozenset({"fleet"})


def _listed() -> list[types.Tool]:
    return [
        types.Tool(
            name=tool.name,
            title=tool.title,
            description=tool.description,
            input_schema=tool.input_schema,
            # read-only by construction: the hint says so to the client
            annotations=types.ToolAnnotations(
                title=tool.title,
                read_only_hint=True,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )
        for tool in TOOLS
    ]


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=visible(text))], is_error=True)


def build_server(answers: Answers) -> Server[Any]:
    """The MCP server answering from ``answers``."""

    async def list_tools(
        ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=_listed())

    async def call_tool(ctx: Context, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            if params.name in OFF_LOOP:
                # reads other inputs only, never the cache: the watcher goes on meanwhile
                result = await anyio.to_thread.run_sync(answers.call, params.name, params.arguments)
            else:
                result = answers.call(params.name, params.arguments)
        except ToolInputError as exc:
            return _error(str(exc))
        except Exception as exc:  # a bug in olmtui: said in one line, the server goes on
            if debug_wanted():
                print_traceback(exc)
            return _error(crash_line(exc))
        # the text is the JSON the CLI prints (terminal controls escaped); the structured
        # content the same value
        return types.CallToolResult(
            content=[types.TextContent(text=dump_json(result))],
            structured_content=json.loads(dump_json(result)),
        )

    return Server(
        "olmtui",
        version=__version__,
        title="olmtui: what OLM decides, and why",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def _serve(session: Session, answers: Answers) -> None:
    server = build_server(answers)
    async with anyio.create_task_group() as tasks:
        runner = session.runner
        if runner is not None:
            tasks.start_soon(_watch, runner)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
        tasks.cancel_scope.cancel()  # the client went away: so does the watcher


async def _watch(runner: Any) -> None:
    """The session's watcher, for the server's lifetime; if it ends in an error, the
    answers say the input is incomplete (its streams failed) and the server goes on."""
    try:
        await runner()
    except Exception as exc:
        print(f"olmtui mcp: the watcher stopped: {visible(crash_line(exc))}", file=sys.stderr)


def serve(
    session: Session,
    *,
    live: bool,
    catalogs: Sequence[str] = (),
    global_namespace: str | None = None,
) -> int:
    """Serve ``session`` over stdio until the client closes it; exit status 0. ``diff`` and
    ``fleet`` read their other inputs with ``catalogs`` and ``global_namespace``."""
    answers = Answers(session, live=live, catalogs=catalogs, global_namespace=global_namespace)
    anyio.run(_serve, session, answers, backend="asyncio")
    return 0
