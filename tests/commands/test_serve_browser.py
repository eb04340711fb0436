"""``olmtui serve`` in a real browser: Debian's headless chromium opens the page, a key typed
into it reaches the dashboard, and the screen xterm.js draws shows the result.

The browser is driven through the Chrome DevTools Protocol over a WebSocket (aiohttp, already
a dependency): no browser-automation package. textual-serve's page draws into a canvas and
keeps its xterm.js Terminal in a closure; a script run before the page's own catches the
object that owns it when its constructor sets ``fitAddon``, and the test reads the screen
through xterm.js's public buffer API (``terminal.buffer.active.getLine(y)``).

Skipped only when chromium is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
from conftest import wait_for
from processes import SAMPLE, free_port, started, wait_for_http

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"
)

#: Run before textual-serve's script: keep the object whose constructor sets ``fitAddon``
#: (textual.js's terminal session, which holds the xterm.js Terminal as ``.terminal``).
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    window.__olmtuiSession = this;
    Object.defineProperty(this, "fitAddon", {value, writable: true, configurable: true});
  },
});
"""
SCREEN_TEXT = """
(() => {
  const session = window.__olmtuiSession;
  if (!session || !session.terminal) return "";
  const buffer = session.terminal.buffer.active;
  const lines = [];
  for (let y = 0; y < session.terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines.join("\\n");
})()
"""


class Page:
    """One browser tab over the DevTools Protocol: send a command, await its result."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        call_id = next(self.ids)
        await self.ws.send_str(json.dumps({"id": call_id, "method": method, "params": params}))
        async for message in self.ws:
            data = json.loads(message.data)
            if data.get("id") == call_id:
                if "error" in data:
                    raise AssertionError(f"{method}: {data['error']}")
                return dict(data.get("result") or {})
        raise AssertionError("the browser closed the DevTools connection")

    async def open(self, url: str) -> None:
        """Load textual-serve's page with the terminal catcher in place. The page asks for
        a web font from fonts.googleapis.com; that request is blocked, since the terminal
        only connects on the window's load event, which a request hanging where there is
        no network would hold back (the font falls back to a local monospace one)."""
        await self.send("Network.enable")
        await self.send("Network.setBlockedURLs", urls=["*://fonts.googleapis.com/*"])
        await self.send("Page.enable")
        await self.send("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
        await self.send("Page.navigate", url=url)

    async def screen(self) -> str:
        result = await self.send("Runtime.evaluate", expression=SCREEN_TEXT, returnByValue=True)
        return str(result["result"].get("value") or "")

    async def showing(self, text: str, timeout: float = 30) -> str:
        """The screen's text once it holds ``text``."""
        return await self.showing_where(lambda shown: text in shown, repr(text), timeout)

    async def showing_where(
        self, holds: Callable[[str], object], what: str, timeout: float = 30
    ) -> str:
        """The screen's text once ``holds`` it. A test asserts on the screen it waited for,
        never on one read in the middle of a redraw: xterm.js draws a frame as its pieces
        arrive, so one look can catch the new body under the old header (a flake under load)."""
        shown = [""]

        async def look() -> bool:
            shown[0] = await self.screen()
            return bool(holds(shown[0]))

        try:
            await wait_for(look, f"{what} on the screen", timeout, poll=0.1)
        except AssertionError as timed_out:
            raise AssertionError(f"{timed_out}; the screen:\n{shown[0]}") from None
        return shown[0]

    async def changed_from(self, before: str, timeout: float = 30) -> str:
        """The screen's text once it differs from ``before``."""
        shown = [before]

        async def differs() -> bool:
            shown[0] = await self.screen()
            return shown[0] != before

        await wait_for(differs, f"the screen to change from:\n{before}", timeout, poll=0.1)
        return shown[0]

    async def type(self, text: str) -> None:
        """Key presses as a user's, one ``keyDown``/``keyUp`` pair per character."""
        for ch in text:
            key = {"\r": "Enter"}.get(ch, ch)
            extra = {"windowsVirtualKeyCode": 13, "code": "Enter"} if ch == "\r" else {}
            await self.send("Input.dispatchKeyEvent", type="keyDown", key=key, text=ch, **extra)
            await self.send("Input.dispatchKeyEvent", type="keyUp", key=key, **extra)


@contextlib.asynccontextmanager
async def browser_page(profile: str) -> AsyncIterator[Page]:
    assert CHROMIUM is not None
    port = free_port()
    argv = [
        CHROMIUM,
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={profile}",
        f"--remote-debugging-port={port}",
        "--window-size=1400,900",
        "about:blank",
    ]
    with started(argv) as proc:
        wait_for_http(f"http://127.0.0.1:{port}/json/version", proc)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/json/list") as response:
                targets = await response.json()
            tab = next(t for t in targets if t["type"] == "page")
            async with http.ws_connect(tab["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                yield Page(ws)


async def test_serve_shows_the_dashboard_and_takes_keys_in_a_browser() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    serve = [sys.executable, "-m", "olmtui", "serve", str(SAMPLE), "--port", str(port)]
    with started(serve) as server, tempfile.TemporaryDirectory() as profile:
        wait_for_http(url, server)
        async with browser_page(profile) as page:
            await page.open(url)
            # replay streams the snapshot in: the findings come once every file is read
            overview = await page.showing_where(
                lambda shown: "InstallPlanFailed" in shown and "snapshot" in shown,
                "the overview's findings under the snapshot's header",
                timeout=60,
            )
            assert "PHASE" not in overview
            await page.send(
                "Runtime.evaluate", expression="window.__olmtuiSession.terminal.focus()"
            )
            await page.type(":")
            prompt = await page.changed_from(overview)  # the `:` prompt opened
            await page.type("csv")
            await page.changed_from(prompt)
            await page.type("\r")
            failed = re.compile(r"keycloak-operator\S*\s+15\.0\.2\s+✖ Failed")
            csvs = await page.showing_where(
                lambda shown: "PHASE" in shown and failed.search(shown), "the failed keycloak CSV"
            )
            assert failed.search(csvs), csvs


async def test_serve_demo_shows_the_live_demo_cluster_in_a_browser() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    serve = [sys.executable, "-m", "olmtui", "serve", "--demo", "--port", str(port)]
    with started(serve) as server, tempfile.TemporaryDirectory() as profile:
        wait_for_http(url, server)
        async with browser_page(profile) as page:
            await page.open(url)
            await page.showing("demo cluster", timeout=90)

            def header_live(shown: str) -> bool:
                first = shown.splitlines()[0] if shown else ""
                return all(word in first for word in ("Overview", "demo cluster", "live"))

            header = (await page.showing_where(header_live, "the live header", 60)).splitlines()[0]
            assert "Overview" in header and "demo cluster" in header
