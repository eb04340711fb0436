"""What the tests share: the one way to wait for something to happen.

A test never sleeps a fixed time hoping a screen, a watch or a server has caught up: on a loaded
machine (two cores, the suite under ``pytest -n auto``) any fixed pause is either too long (the
suite crawls) or too short (the test flakes). It waits for the condition it is about to assert,
through :func:`wait_for` (on an event loop, optionally driving a Textual pilot) or
:func:`wait_for_sync` (in plain threads and subprocess tests), which fail with what was awaited.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any

# How often a condition is looked at: short, since the wait ends on the first look that holds.
POLL = 0.02


async def wait_for(
    condition: Callable[[], object] | Callable[[], Awaitable[object]],
    what: str = "condition",
    timeout: float = 30.0,
    pilot: Any = None,
    poll: float = POLL,
) -> None:
    """Poll ``condition`` on the running event loop until it holds, else fail after ``timeout``.

    With a Textual ``pilot``, each look first lets the app process its pending messages (a
    screen switched, a table refreshed), so a condition on the screen sees its latest state.
    The condition may be a coroutine function (it asks a browser or a server).
    """

    async def holds() -> object:
        seen = condition()
        return await seen if inspect.isawaitable(seen) else seen

    deadline = time.monotonic() + timeout
    if pilot is not None:
        await pilot.pause(0)
    while not await holds():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        if pilot is not None:
            await pilot.pause(poll)
        else:
            await asyncio.sleep(poll)


def wait_for_sync(
    condition: Callable[[], object],
    what: str = "condition",
    timeout: float = 30.0,
    poll: float = POLL,
) -> None:
    """:func:`wait_for` for code that runs no event loop (threads, subprocesses, sockets)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(poll)
