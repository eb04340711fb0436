"""``olmtui demo``: the dashboard on a live loopback cluster that a script keeps changing.

The cluster is made of real operators (see ``olmtui/demo``) and is read exactly as a real
one is, through kubernetes-asyncio. ``--print`` shows the ``check`` text report instead of
the screens, again after every change (at most once a second); ``--cycles`` ends the demo
after that many cycles of the script. Ctrl-C ends it cleanly; the server stops with it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import signal
import sys
from typing import TYPE_CHECKING, TextIO

from olmtui.commands.view_option import add_view_argument, initial_view
from olmtui.errors import UsageError

if TYPE_CHECKING:
    from olmtui.demo.cluster import DemoCluster
    from olmtui.ui.session import ConnectionState

NAME = "demo"
HELP = (
    "Watch a demo cluster of real operators change live (a loopback API server, "
    "nothing to install)."
)

#: ``--print``: at most one report per this many seconds.
REPORT_PERIOD = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--speed",
        default="normal",
        metavar="SPEED",
        help="time between two changes: slow, normal (the default), fast, or seconds",
    )
    parser.add_argument(
        "--cycles",
        type=int,
        metavar="N",
        help="stop after N cycles of the script (default: run until stopped)",
    )
    parser.add_argument(
        "--print",
        action="store_true",
        dest="print_reports",
        help="print the text report on every change instead of opening the dashboard",
    )
    add_view_argument(parser)


def run(args: argparse.Namespace) -> int:
    from olmtui.demo.cluster import DemoCluster
    from olmtui.demo.script import parse_speed

    view = initial_view(args.view)
    try:
        interval = parse_speed(args.speed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.cycles is not None and args.cycles < 1:
        raise UsageError("--cycles must be at least 1")
    with DemoCluster(interval, cycles=args.cycles) as cluster:
        if args.print_reports:
            _exit_on_hangup()
            asyncio.run(print_reports(cluster, sys.stdout))
        else:
            _dashboard(cluster, view)
    return 0


def _exit_on_hangup() -> None:
    """Closing the terminal (SIGHUP) or ``kill`` (SIGTERM) ends ``--print`` the way Ctrl-C
    does, exit status 128 + the signal: the server stops and the temporary kubeconfig goes.
    (The dashboard takes these signals over itself.)"""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for signum in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, stop)


def _dashboard(cluster: DemoCluster, view: str) -> None:
    from olmtui.ui.app import OlmApp
    from olmtui.ui.session import Session

    session = Session(
        cluster.store,
        cluster.model,
        "demo",
        cluster.label,
        catalogs=[cluster.catalog],
        runner=cluster.run,
        status=lambda: connection_state(cluster),
        upgrade_count=lambda: cluster.upgrade_count,
    )
    OlmApp(session, initial_view=view).run()


def connection_state(cluster: DemoCluster) -> ConnectionState:
    """The header line: the watcher's state, and the script's latest step as the detail."""
    from olmtui.ui.session import ConnectionState

    source = cluster.source
    live = source.status if source is not None else None
    if cluster.finished:
        state = "stopped"
    elif live is None or not live.connected:
        state = "reconnecting" if live is not None and live.reconnecting_since else "connecting"
    else:
        state = "live" if all(s.state == "live" for s in live.streams.values()) else "syncing"
    detail = (
        f"step {cluster.steps_done}: {cluster.last_step}"
        if cluster.steps_done
        else "the script starts soon"
    )
    no_access = (
        ()
        if live is None
        else tuple(sorted(n for n, s in live.streams.items() if s.state == "no access"))
    )
    return ConnectionState(state, detail, cluster.last_event_age(), no_access)


async def print_reports(cluster: DemoCluster, out: TextIO) -> None:
    """Run the demo and print the report whenever the model changed, at most once per
    :data:`REPORT_PERIOD`."""
    from olmtui.model.health import health_findings
    from olmtui.model.upgrades import channel_states
    from olmtui.report import render_text, report_json

    catalogs = [cluster.catalog]
    channels = channel_states(catalogs)
    printed = -1

    def report_if_changed() -> None:
        nonlocal printed
        if cluster.model.version == printed or not cluster.store.count("Namespace"):
            return
        printed = cluster.model.version
        step = (
            f"step {cluster.steps_done}/{cluster.steps_per_cycle * (cluster.cycles or 0)}"
            if cluster.cycles
            else f"step {cluster.steps_done}"
        )
        when = dt.datetime.now().strftime("%H:%M:%S")
        out.write(f"=== {cluster.label} · {step}: {cluster.last_step or 'start'} · {when}\n")
        report = report_json(
            "live",
            cluster.model,
            cluster.store,
            channels=channels,
            upgrade_count=cluster.upgrade_count,
            health=health_findings(cluster.store, catalogs, cluster.model.subscriptions()),
        )
        out.write(render_text(report))
        out.flush()

    running = asyncio.ensure_future(cluster.run())
    synced = asyncio.ensure_future(cluster.synced.wait())
    try:
        await asyncio.wait({running, synced}, return_when=asyncio.FIRST_COMPLETED)
        report_if_changed()
        while not running.done():
            await asyncio.wait({running}, timeout=REPORT_PERIOD)
            report_if_changed()
        running.result()
    finally:
        for task in (synced, running):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
