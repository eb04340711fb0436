"""An MCP client for the tests: the official SDK's own client (``mcp.client.stdio``)
launching ``python -m olmtui mcp ARGS`` as a child and speaking MCP over its stdio, as Claude
Desktop or VS Code would.

The client runs on its own event loop in a thread, so that one server can serve a whole
test module (a module-scoped fixture) while each test calls it synchronously: the SDK's
task groups must be entered and left by the same task, which a fixture shared across tests
cannot promise on pytest's loops.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from data_paths import ROOT
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import CallToolResult, Tool

#: Seconds a call may take (a server on a loaded machine builds its first report slowly).
CALL_TIMEOUT = 180.0

Job = Callable[[ClientSession], Awaitable[Any]]


class McpClient:
    """``olmtui mcp ARGS`` run in ``cwd`` (the repository: relative PATHs read as in a
    checkout) and its client; a context manager that starts and ends both."""

    def __init__(self, args: Sequence[str], *, cwd: Path = ROOT) -> None:
        self._args = ["-m", "olmtui", "mcp", *args]
        self._cwd = cwd
        self._errlog = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed by __exit__)
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._jobs: asyncio.Queue[tuple[Job, concurrent.futures.Future[Any]] | None] | None = None
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=self._args,
            cwd=self._cwd,
            env={"PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
        )
        try:
            async with (
                stdio_client(params, errlog=self._errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                self._loop = asyncio.get_running_loop()
                self._jobs = asyncio.Queue()
                self._ready.set()
                while (job := await self._jobs.get()) is not None:
                    work, future = job
                    try:
                        future.set_result(await work(session))
                    except Exception as exc:
                        future.set_exception(exc)
        except BaseException as exc:
            self._failed = exc
        finally:
            self._ready.set()

    def __enter__(self) -> McpClient:
        self._thread.start()
        if not self._ready.wait(CALL_TIMEOUT) or self._failed is not None:
            raise AssertionError(f"olmtui mcp did not start: {self._failed!r}\n{self.stderr()}")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._jobs is not None:
            self._loop.call_soon_threadsafe(self._jobs.put_nowait, None)
        self._thread.join(60)
        self._errlog.close()

    def stderr(self) -> str:
        """What the server printed on stderr so far."""
        self._errlog.seek(0)
        return self._errlog.read()

    def _run(self, work: Job) -> Any:
        assert self._loop is not None and self._jobs is not None, "the client is not running"
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._loop.call_soon_threadsafe(self._jobs.put_nowait, (work, future))
        return future.result(CALL_TIMEOUT)

    def tools(self) -> list[Tool]:
        return list(self._run(lambda s: s.list_tools()).tools)

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        result: CallToolResult = self._run(lambda s: s.call_tool(name, arguments or {}))
        return result

    def answer(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON a tool answers (its text, parsed; it equals the structured content);
        fails when the call is a tool error."""
        result = self.call(name, arguments)
        text = result.content[0].text  # type: ignore[union-attr]
        assert not result.is_error, text
        value: dict[str, Any] = json.loads(text)
        assert value == result.structured_content
        return value

    def error(self, name: str, arguments: dict[str, Any] | None = None) -> str:
        """The one line of a tool error (fails when the call succeeds)."""
        result = self.call(name, arguments)
        text: str = result.content[0].text  # type: ignore[union-attr]
        assert result.is_error, f"{name} {arguments} answered: {text[:200]}"
        assert "\n" not in text and "Traceback" not in text
        return text
