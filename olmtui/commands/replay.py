"""``olmtui replay``: the dashboard over saved snapshots (files, directories, must-gathers).

The same screens as live mode; the header names the snapshot instead of a context. Catalog
content given with ``--catalog`` draws full upgrade graphs; without it the snapshot's
PackageManifests give what they can (heads and skipRanges).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from olmtui.commands.catalog_option import (
    add_catalog_argument,
    add_global_namespace_argument,
    add_next_catalog_argument,
    load_next_catalogs,
)
from olmtui.commands.view_option import add_view_argument, initial_view
from olmtui.errors import UsageError, run_app
from olmtui.sources.catalog.handoff import LOADED_CATALOGS_FLAG
from olmtui.sources.recording.timeline import Timeline

NAME = "replay"
HELP = "Browse saved snapshots (YAML/JSON files, directories, must-gathers) in the dashboard."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="YAML/JSON files, directories, must-gather trees or .tar(.gz) archives",
    )
    add_catalog_argument(
        parser,
        "catalog content (FBC, bundle directories or package manifests) for upgrade graphs "
        "and resolution (the Resolution view, r); repeatable",
    )
    add_next_catalog_argument(parser)
    add_global_namespace_argument(parser)
    add_view_argument(parser)
    parser.add_argument(
        "--fleet",
        action="store_true",
        help="each PATH is a cluster (a folder of must-gathers: each one), shown in the Fleet "
        "view: a row each, Enter opens one, Esc comes back",
    )
    # serve's sessions: the content serve read once, instead of every --catalog again
    parser.add_argument(LOADED_CATALOGS_FLAG, metavar="FILE", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from olmtui.sources.recording.format import is_recording

    if args.fleet:
        from olmtui.commands.fleet_dashboard import run_replay_fleet

        return run_replay_fleet(args)

    if len(args.paths) == 1 and is_recording(args.paths[0]):
        from olmtui.sources.recording.reader import open_recording

        path = args.paths[0]
        timeline, history = open_recording(path), open_recording(path)
        # a recorder still writing it: followed, the cursor at the end staying there
        grow = timeline.read_on if timeline.writing else None
        worker_grow = history.read_on if timeline.writing else None
        return replay_recording(timeline, args, history=history, grow=grow, worker_grow=worker_grow)
    view = initial_view(args.view)
    from olmtui.pipeline.build import streaming_snapshot_session
    from olmtui.sources.catalog.handoff import read_catalogs
    from olmtui.ui.app import OlmApp

    handed = read_catalogs(args.loaded_catalogs) if args.loaded_catalogs else []
    next_catalogs = load_next_catalogs(args.next_catalogs)
    # the first screen opens at once; the files stream in behind it (pipeline/streaming.py)
    session = streaming_snapshot_session(
        args.paths, args.catalogs, global_namespace=args.global_namespace, loaded=handed
    )
    session.next_catalogs = next_catalogs
    run_app(OlmApp(session, initial_view=view))
    if session.loading is not None and session.loading.crash is not None:
        raise session.loading.crash  # a bug: one line and exit 3 (cli.py)
    if session.loading is not None and session.loading.error is not None:
        raise UsageError(session.loading.error)
    return 0


def replay_recording(
    timeline: Timeline,
    args: argparse.Namespace,
    *,
    history: Timeline | None = None,
    grow: Callable[[], bool] | None = None,
    worker_grow: Callable[[], object] | None = None,
) -> int:
    """``olmtui replay FILE`` on a recording: the dashboard at its end with a time cursor
    (``[`` ``]`` ``{`` ``}``, ``:at``). ``history``: a second reader of the same file, for
    the worker that works out when each finding appeared; ``grow``: reads what a recorder
    still writing appended (see ``pipeline.build.rewind_session``)."""
    from olmtui.pipeline.build import rewind_session
    from olmtui.ui.app import OlmApp

    session = rewind_session(
        timeline,
        args.catalogs,
        global_namespace=args.global_namespace,
        history=history,
        grow=grow,
        worker_grow=worker_grow,
    )
    session.next_catalogs = load_next_catalogs(args.next_catalogs)
    run_app(OlmApp(session, initial_view=initial_view(args.view)))
    return 0
