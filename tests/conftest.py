"""What the tests share: the one way to wait for something to happen, and the fixtures more
than one module uses.

A test never sleeps a fixed time hoping a screen, a watch or a server has caught up: on a loaded
machine (two cores, the suite under ``pytest -n auto``) any fixed pause is either too long (the
suite crawls) or too short (the test flakes). It waits for the condition it is about to assert,
through :func:`wait_for` (on an event loop, optionally driving a Textual pilot) or
:func:`wait_for_sync` (in plain threads and subprocess tests), which fail with what was awaited.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from olmtui.ui.app import OlmApp

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
    The condition may be a coroutine function (it asks a browser or a server). A look that
    raises (a widget not mounted yet) counts as "not yet", its error shown if the wait fails;
    an AssertionError from it ends the wait at once (a server that exited will not answer).
    """

    failed: list[Exception] = []

    async def holds() -> object:
        try:
            seen = condition()
            return await seen if inspect.isawaitable(seen) else seen
        except AssertionError:  # the condition's own verdict: no use waiting on
            raise
        except Exception as error:  # e.g. a widget not mounted yet: not so far
            failed[:] = [error]
            return False

    deadline = time.monotonic() + timeout
    if pilot is not None:
        await pilot.pause(0)
    while not await holds():
        if time.monotonic() > deadline:
            _timed_out(what, timeout, failed)
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
    failed: list[Exception] = []

    def holds() -> object:
        try:
            return condition()
        except AssertionError:
            raise
        except Exception as error:
            failed[:] = [error]
            return False

    deadline = time.monotonic() + timeout
    while not holds():
        if time.monotonic() > deadline:
            _timed_out(what, timeout, failed)
        time.sleep(poll)


async def settle(pilot: Any, rounds: int = 10) -> None:
    """Let the app, its screen and every widget of it through their message queues until
    none holds a message, the screen laid out and painted after each round as
    ``Pilot.pause`` does it, without ``Pilot.pause()``'s idle wait.

    ``Pilot.pause()`` and ``Pilot.press`` end with Textual's ``wait_for_idle``: at least
    20 ms of sleeping until the process looks idle, longer while anything else runs (the
    app's tick, a resolver worker); a walk through every screen spends most of its wall
    time there. What they wait for is the messages a key or a call posted (a key handed on
    to the focused widget, its action, a screen pushed, a callback after the refresh): each
    round here is ``Pilot.pause(0)`` (every queue as it was at its start processed, then the
    screen updated), and the rounds go on while a queue still holds one. Not a timer's or a
    worker's result: those a test waits for with :func:`wait_for`.
    """
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause(0)
        pumps = [app, *app.screen.walk_children(with_self=True)]
        if not any(pump.message_queue_size for pump in pumps):
            return


async def redrawn(pilot: Any) -> None:
    """Wait for the app's ticker to have redrawn the screen for the analysis as it is now
    (the model, the predicted findings' generation, the load and the input's partiality:
    ``shown_stamp``), then :func:`settle` its repaint: what a pause of a tick or two hoped
    for, without the guess."""
    app = pilot.app
    await wait_for(
        lambda: app._seen_version == app.session.analysis.shown_stamp(),
        "the ticker's redraw of what the analysis holds now",
        pilot=pilot,
    )
    await settle(pilot)


def key_event(key: str) -> Any:
    """The ``Key`` event ``Pilot.press`` makes of ``key`` (a name, or one character)."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char: str | None = unicodedata.lookup(
            _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        )
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def press(pilot: Any, *keys: str) -> None:
    """Keys as ``Pilot.press`` sends them, each handled (:func:`settle`) before the next:
    for walks of many keys, without ``Pilot.press``'s two idle waits a key."""
    app = pilot.app
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
        await settle(pilot)


def _timed_out(what: str, timeout: float, failed: list[Exception]) -> NoReturn:
    """The failure of a wait: what was awaited, and the error its last look raised, if any."""
    last = f" (its last look raised {failed[0]!r})" if failed else ""
    raise AssertionError(f"timed out after {timeout}s waiting for {what}{last}") from (
        failed[0] if failed else None
    )


# -- workers ---------------------------------------------------------------------------------


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: half again as many workers as cores (three on two). A third of a worker's
    time is spent waiting, not computing (a loopback server's answer, a subprocess, a
    watch's timeout, a screen's timer); a worker more than the cores runs while another
    waits."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cores or 1) * 3 // 2)


# -- fixtures more than one module uses ---------------------------------------------------

#: The packaged sample cluster and the keycloak catalog the UI tests browse.
SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
KEYCLOAK = str(Path(__file__).parent / "data" / "ui" / "keycloak-catalog")


@pytest.fixture
def app() -> OlmApp:
    """The dashboard on the sample cluster with the keycloak catalog (not yet running)."""
    from olmtui.pipeline.build import snapshot_session
    from olmtui.ui.app import OlmApp

    return OlmApp(snapshot_session([SAMPLE], [KEYCLOAK], label="sample cluster"))


@pytest.fixture(scope="module")
def hostile_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A snapshot whose every string carries escape sequences (``hostile_text``)."""
    from hostile_text import write_hostile_snapshot

    return write_hostile_snapshot(tmp_path_factory.mktemp("hostile") / "cluster.json")


@pytest.fixture(scope="module")
def small_must_gather(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated must-gather (``bench/gen_snapshot.py``, one object per file) of six
    namespaces whose plans wait for approval: what a remedy proof's trials are made on."""
    import sys

    from data_paths import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    from gen_snapshot import Sizes, generate

    root = tmp_path_factory.mktemp("must-gather")
    sizes = Sizes(namespaces=6, global_operators=2, single_operators=3, subscriptions=6)
    generate(root, sizes, layout="must-gather")
    return root


@pytest.fixture(scope="session", autouse=True)
def _keys_without_idle_waits() -> Iterator[None]:
    """``Pilot.press`` is :func:`press` in every test: the same ``Key`` events, each
    handled before the next, without two ``wait_for_idle`` a key (at least 40 ms of
    sleeping for every key). A test that needs a worker's or a timer's result after a key
    waits for it with :func:`wait_for`, as it had to already: the idle wait never promised
    it (it gives up after a second)."""
    from textual.pilot import Pilot

    original = Pilot.press

    async def press_settled(self: Pilot[Any], *keys: str) -> None:
        await press(self, *keys)

    Pilot.press = press_settled  # type: ignore[method-assign]
    yield
    Pilot.press = original  # type: ignore[method-assign]
