"""The Fleet dashboard's command line: ``olmtui --fleet`` (live contexts, kubeconfigs, a
targets file) and ``olmtui replay --fleet PATH...`` (snapshots, each PATH one cluster or a
folder of them). The targets are named as ``check --fleet`` names them
(``pipeline/fleet_targets.py``, the same flags); each is read as the single dashboard reads
it, and kept (``pipeline/fleet_sessions.py``); the app is ``ui/fleet_app.py``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from olmtui.commands.catalog_option import load_next_catalogs
from olmtui.commands.check_fleet import CONNECT_TIMEOUT, _positive_int, refuse_unless_fleet
from olmtui.errors import UsageError, run_app
from olmtui.sources.cluster.live_args import duration

if TYPE_CHECKING:
    from olmtui.pipeline.fleet_sessions import FleetEntry
    from olmtui.pipeline.fleet_targets import Target

#: The dashboard's fleet flags, as ``args`` holds them (before a sub-command: refused).
_FLAGS = {
    "--fleet": "dashboard_fleet",
    "--all-contexts": "dashboard_all_contexts",
    "--targets": "dashboard_targets",
    "--jobs": "dashboard_jobs",
}


def add_dashboard_fleet_arguments(parser: argparse.ArgumentParser) -> None:
    """``olmtui --fleet`` and the target flags ``check --fleet`` has (``--context`` and
    ``--kubeconfig`` repeat, as there)."""
    group = parser.add_argument_group(
        "fleet dashboard",
        "--fleet opens the Fleet view over many clusters, a row each (Enter opens one, Esc "
        "comes back): every --context, --all-contexts, every --kubeconfig file's current "
        "context, --targets FILE; snapshots: olmtui replay --fleet PATH...",
    )
    group.add_argument(
        "--fleet", dest="dashboard_fleet", action="store_true", help="open the Fleet view"
    )
    group.add_argument(
        "--all-contexts",
        dest="dashboard_all_contexts",
        action="store_true",
        help="with --fleet: every context of the kubeconfig (of each --kubeconfig file)",
    )
    group.add_argument(
        "--targets",
        dest="dashboard_targets",
        metavar="FILE",
        help="with --fleet: one target a line: context:NAME, kubeconfig:PATH[#CONTEXT] or a "
        "snapshot path; # starts a comment",
    )
    group.add_argument(
        "--jobs",
        dest="dashboard_jobs",
        type=_positive_int,
        metavar="N",
        help="with --fleet: live targets connected at once (default 16)",
    )
    group.add_argument(
        "--connect-timeout",
        dest="dashboard_connect_timeout",
        type=duration,
        default=CONNECT_TIMEOUT,
        metavar="DURATION",
        help="with --fleet: a live target not connected within DURATION (default 10s) is a "
        "row with status timeout",
    )


def refuse_misplaced(args: argparse.Namespace) -> None:
    """The dashboard's fleet flags before a sub-command, or without ``--fleet``, are refused;
    so are several ``--context``/``--kubeconfig`` without it."""
    given = [flag for flag, dest in _FLAGS.items() if getattr(args, dest, None)]
    if args.dashboard_connect_timeout != CONNECT_TIMEOUT:
        given.append("--connect-timeout")
    if args.command is not None:
        if given:
            raise UsageError(
                f"{', '.join(given)} before `{args.command}` applies to the dashboard only"
            )
        return
    if not args.dashboard_fleet:
        refuse_unless_fleet(args, given)


def run_live_fleet(args: argparse.Namespace) -> int:
    """``olmtui --fleet``: the Fleet view over the targets the flags name."""
    from olmtui.pipeline.fleet_targets import TargetSpec, fleet_targets

    if args.dashboard_record:
        raise UsageError("--record records one cluster: it does not apply with --fleet")
    spec = TargetSpec(
        contexts=tuple(args.contexts or ()),
        all_contexts=args.dashboard_all_contexts,
        kubeconfigs=tuple(args.kubeconfigs or ()),
        targets_file=args.dashboard_targets,
    )
    return open_fleet_view(
        fleet_targets(spec),
        catalogs=args.dashboard_catalogs,
        next_catalogs=args.dashboard_next_catalogs,
        global_namespace=args.dashboard_global_namespace,
        namespaces=args.namespaces,
        connect_timeout=args.dashboard_connect_timeout,
        request_timeout=args.request_timeout,
        jobs=args.dashboard_jobs,
    )


def run_replay_fleet(args: argparse.Namespace) -> int:
    """``olmtui replay --fleet PATH...``: each PATH a cluster (a folder of must-gathers:
    each one), as ``check --fleet PATH...`` reads them."""
    from olmtui.pipeline.fleet_targets import TargetSpec, fleet_targets

    spec = TargetSpec(paths=tuple(args.paths))
    return open_fleet_view(
        fleet_targets(spec),
        catalogs=args.catalogs,
        next_catalogs=args.next_catalogs,
        global_namespace=args.global_namespace,
    )


def open_fleet_view(
    targets: Sequence[Target],
    *,
    catalogs: Sequence[str],
    next_catalogs: Sequence[str],
    global_namespace: str | None,
    namespaces: Sequence[str] = (),
    connect_timeout: float = CONNECT_TIMEOUT,
    request_timeout: float | None = None,
    jobs: int | None = None,
) -> int:
    """Read every target, then run the Fleet dashboard; 0 when it closes."""
    from olmtui.pipeline.build import catalog_session
    from olmtui.pipeline.fleet import FleetSettings
    from olmtui.pipeline.fleet_sessions import open_fleet
    from olmtui.report.fleet_text import finished_text
    from olmtui.ui.fleet_app import FleetApp

    settings = FleetSettings(
        catalog_specs=tuple(catalogs),
        global_namespace=global_namespace,
        next_catalogs=tuple(load_next_catalogs(list(next_catalogs))),
        namespaces=tuple(namespaces),
        connect_timeout=connect_timeout,
        request_timeout=request_timeout,
        parse_workers=None,
    )
    done: list[str] = []

    def progress(entry: FleetEntry, seconds: float) -> None:
        done.append(entry.name)
        said = finished_text(entry.name, entry.status()[0], seconds)
        print(f"olmtui: fleet [{len(done)}/{len(targets)}] {said}", file=sys.stderr, flush=True)

    fleet = open_fleet(targets, settings, jobs, progress)
    sessions = fleet.sessions()
    first = sessions[0] if sessions else catalog_session(())
    return run_app(FleetApp(fleet, first))
