"""``olmtui serve``: the dashboard in a web browser, through textual-serve.

textual-serve runs one ``olmtui`` process per browser tab (the same process a terminal runs:
``olmtui replay PATH...``, ``olmtui demo`` or ``olmtui`` on the live cluster) and relays its
screen to xterm.js in the page. Nothing new is reachable through it: the dashboard stays
read-only, whoever opens the page sees what the user running ``serve`` may read.

Each ``--catalog`` is read once, before listening (an unusable one is refused, rc 2, rather
than in every session), and handed to the sessions as read
(``sources/catalog/handoff.py``): a session does not read the catalog again.

It listens on the loopback interface unless ``--host`` names another address; then it says so
on stderr, since anyone who reaches the port sees the cluster through the user's kubeconfig.
A browser's WebSocket is not bound by the same-origin policy, so a web page from elsewhere
could otherwise open a session on the loopback port and read the screens: the session socket
only accepts the origins the server is reached at.
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from olmtui.commands.catalog_option import add_catalog_argument
from olmtui.commands.view_option import add_view_argument, initial_view
from olmtui.errors import UsageError
from olmtui.sources.catalog.handoff import LOADED_CATALOGS_FLAG
from olmtui.sources.cluster.live_args import (
    CONNECTION_FLAGS,
    add_connection_arguments,
    connection_given,
)

if TYPE_CHECKING:
    from aiohttp import web
    from aiohttp.typedefs import Middleware

    from olmtui.model.records.catalog import Catalog

NAME = "serve"
HELP = (
    "Serve the dashboard to a web browser (textual-serve; loopback only unless --host says "
    "otherwise)."
)
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Loopback names a browser on this machine may use for the page.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="serve these snapshots (as `olmtui replay` does); without PATHs or --demo, the "
        "live cluster",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="serve the demo cluster (as `olmtui demo` does); every browser tab gets its own",
    )
    add_catalog_argument(
        parser,
        "catalog content for upgrade graphs, with PATHs; repeatable",
    )
    add_view_argument(parser)
    add_connection_arguments(parser)
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        metavar="ADDRESS",
        help=f"address to listen on (default {DEFAULT_HOST}, this machine only); any other "
        "address lets whoever reaches it see the dashboard",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, metavar="N", help=f"default {DEFAULT_PORT}"
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers open, when it differs from http://ADDRESS:PORT (behind a "
        "proxy; required with --host 0.0.0.0 or ::); only pages of this origin (and, on "
        "loopback, of localhost) may open a session",
    )


def dashboard_argv(args: argparse.Namespace, handed: Path | None = None) -> list[str]:
    """The ``olmtui`` command line each browser session runs: what a terminal would, but
    for the ``--catalog`` content, taken from ``handed`` when given (the file serve wrote
    it into, ``handoff.write_catalogs``)."""
    if args.demo and args.paths:
        raise UsageError("give PATHs or --demo, not both")
    live_flags = connection_given(args)
    if live_flags and (args.demo or args.paths):
        raise UsageError(
            "--context, --kubeconfig, --namespace and --request-timeout only apply to the live "
            "cluster"
        )
    if args.catalogs and not args.paths:
        raise UsageError("--catalog applies to PATHs")
    base = [sys.executable, "-m", "olmtui"]
    if args.demo:
        return [*base, "demo", "--view", args.view]
    if args.paths:
        catalogs = (
            [f"{LOADED_CATALOGS_FLAG}={handed}"]
            if handed is not None
            else [f"--catalog={spec}" for spec in args.catalogs]
        )
        return [*base, "replay", *args.paths, *catalogs, "--view", args.view]
    if args.view != "overview":
        raise UsageError("--view applies to PATHs or --demo; the live dashboard opens the overview")
    return [*base, *live_argv(args)]


def live_argv(args: argparse.Namespace) -> list[str]:
    """The connection options given, as flags again (every one of :data:`CONNECTION_FLAGS`,
    so a new option cannot be dropped from the browser sessions)."""
    argv: list[str] = []
    for flag, dest in CONNECTION_FLAGS.items():
        value = getattr(args, dest, None)
        for item in value if isinstance(value, list) else [value] if value else []:
            argv.append(f"{flag}={item}")
    return argv


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _unspecified(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def allowed_origins(public_url: str, port: int, loopback: bool) -> frozenset[str]:
    """The page origins whose scripts may open a session: the public URL's, and on loopback
    the other names of this machine."""
    parts = urlsplit(public_url)
    origins = {f"{parts.scheme}://{parts.netloc}"}
    if loopback:
        origins |= {f"http://{name}:{port}" for name in LOOPBACK_NAMES}
    return frozenset(origins)


def origin_guard(origins: frozenset[str]) -> Middleware:
    """An aiohttp middleware refusing a session socket opened from a page of another origin
    (a request without Origin comes from no browser page, and is let through)."""
    from aiohttp import web

    @web.middleware
    async def guard(
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin is not None and origin not in origins:
            raise web.HTTPForbidden(text="this dashboard only serves pages of its own origin\n")
        return await handler(request)

    return guard


def refuse_unusable_inputs(args: argparse.Namespace) -> list[Catalog]:
    """What ``olmtui replay`` refuses before its screen opens, refused before listening: a
    session started over an unusable path or ``--catalog`` exits at once, and the browser
    would show a blank page, forever, with the reason on no screen. The catalogs, read to
    be judged, are what the sessions are handed."""
    if not args.paths:
        return []
    from olmtui.sources.catalog.catalogs import load_catalog
    from olmtui.sources.snapshots.snapshot import list_snapshot

    list_snapshot(args.paths)
    return [load_catalog(spec) for spec in args.catalogs]


def run(args: argparse.Namespace) -> int:
    args.view = initial_view(args.view)
    dashboard_argv(args)  # its refusals first
    if not 0 < args.port < 65536:
        raise UsageError("--port must be between 1 and 65535")
    if args.public_url is None and _unspecified(args.host):
        raise UsageError(
            f"--host {args.host} listens on every address: give --public-url "
            f"http://NAME:{args.port}, the address browsers open"
        )
    catalogs = refuse_unusable_inputs(args)
    from textual_serve.server import Server

    from olmtui.sources.catalog.handoff import write_catalogs

    loopback = is_loopback(args.host)
    if not loopback:
        print(
            f"olmtui serve: listening on {args.host}, not loopback: anyone who reaches port "
            f"{args.port} sees the dashboard with your cluster access",
            file=sys.stderr,
        )
    host = f"[{args.host}]" if ":" in args.host and not args.host.startswith("[") else args.host
    public_url = args.public_url or f"http://{host}:{args.port}"
    guard = origin_guard(allowed_origins(public_url, args.port, loopback))

    class GuardedServer(Server):
        """textual-serve's server with the origin check in front of its routes."""

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(guard)
            return app

    with tempfile.TemporaryDirectory(prefix="olmtui-serve-") as private:
        handed = write_catalogs(catalogs, Path(private)) if catalogs else None
        del catalogs  # the sessions read them from the file: not kept while serving
        command = shlex.join(dashboard_argv(args, handed))
        GuardedServer(
            command, host=args.host, port=args.port, title="olmtui", public_url=public_url
        ).serve()
    return 0
