"""``olmtui demo``: the dashboard on a live loopback cluster that a script keeps changing.

The cluster is made of real operators (see ``olmtui/demo``) and is read exactly as a real
one is, through kubernetes-asyncio. ``--print`` shows the ``check`` text report instead of
the screens, again after every change (at most once a second); ``--cycles`` ends the demo
after that many cycles of the script. Ctrl-C ends it cleanly; the server stops with it.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from olmtui.commands.catalog_option import load_next_catalogs
from olmtui.commands.view_option import add_view_argument, initial_view
from olmtui.errors import UsageError, run_app
from olmtui.kinds import NAMESPACE

if TYPE_CHECKING:
    from olmtui.demo.cluster import DemoCluster
    from olmtui.model.records.catalog import Catalog

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
    parser.add_argument(
        "--next-catalog",
        action="append",
        nargs="?",
        const="",
        default=[],
        dest="next_catalogs",
        metavar="[NAMESPACE/NAME=]PATH",
        help="check every installed operator against the catalog the cluster will serve "
        "after its OpenShift upgrade (R-NXT); without PATH, the demo's own next release "
        "(for its CatalogSource and its ClusterCatalog); repeatable",
    )
    add_view_argument(parser)


def next_catalogs(specs: list[str]) -> list[Catalog]:
    """``--next-catalog`` as the demo reads it: a bare flag is the demo's next release."""
    from olmtui.demo.next_release import next_release_specs

    expanded: list[str] = []
    for spec in specs:
        expanded += [spec] if spec else next_release_specs()
    return load_next_catalogs(expanded)


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
    upgrade = next_catalogs(args.next_catalogs)
    with DemoCluster(interval, cycles=args.cycles) as cluster:
        if args.print_reports:
            _exit_on_hangup()
            import asyncio  # here: every command's parser is built, check needs no loop

            asyncio.run(print_reports(cluster, sys.stdout, upgrade))
        else:
            _dashboard(cluster, view, upgrade)
    return 0


def _exit_on_hangup() -> None:
    """Closing the terminal (SIGHUP) or ``kill`` (SIGTERM) ends ``--print`` the way Ctrl-C
    does, exit status 128 + the signal: the server stops and the temporary kubeconfig goes.
    (The dashboard takes these signals over itself.)"""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for signum in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, stop)


def _dashboard(cluster: DemoCluster, view: str, upgrade: list[Catalog]) -> None:
    from olmtui.pipeline.build import demo_session
    from olmtui.ui.app import OlmApp

    session = demo_session(cluster)
    session.next_catalogs = upgrade
    run_app(OlmApp(session, initial_view=view))


async def print_reports(cluster: DemoCluster, out: TextIO, upgrade: Sequence[Catalog] = ()) -> None:
    """Run the demo and print the report whenever the model changed, at most once per
    :data:`REPORT_PERIOD`; ``upgrade``: the ``--next-catalog`` content."""
    import asyncio

    from olmtui.pipeline.build import demo_session
    from olmtui.report import render_text

    session = demo_session(cluster)
    session.next_catalogs = list(upgrade)
    printed = -1

    def report_if_changed() -> None:
        nonlocal printed
        if session.model.version == printed or not session.store.count(NAMESPACE):
            return
        printed = session.model.version
        step = (
            f"step {cluster.steps_done}/{cluster.steps_per_cycle * (cluster.cycles or 0)}"
            if cluster.cycles
            else f"step {cluster.steps_done}"
        )
        when = dt.datetime.now().strftime("%H:%M:%S")
        out.write(f"=== {cluster.label} · {step}: {cluster.last_step or 'start'} · {when}\n")
        out.write(render_text(session.analysis.report()))
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
