"""``olmtui check``: print once what the model derives, for scripts, runbooks and CI.

Exit status (report-format.md): 0 when no finding is an error, 1 when some is, 2 when the
input cannot be used at all (the CLI turns ``UsageError`` into one line on stderr).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from importlib.resources import as_file, files
from typing import TYPE_CHECKING

from olmtui.errors import UsageError
from olmtui.sources.live_args import add_connection_arguments

if TYPE_CHECKING:
    from olmtui.model.engine import Model
    from olmtui.report import Report
    from olmtui.report.json_report import LoadSummary
    from olmtui.store import Store

NAME = "check"
HELP = "Check a snapshot (or the live cluster) once and print the findings (text or JSON)."

#: The cluster dump shipped in the package, for ``olmtui check --sample``.
SAMPLE = "cluster.yaml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "exit status: 0 when no finding is an error, 1 when one is, 2 when the input cannot be used"
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="YAML/JSON files, directories, must-gather trees or .tar(.gz) archives",
    )
    parser.add_argument(
        "--sample",
        action="store_true",
        help="check the small example cluster shipped with olmtui instead of PATHs",
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="read the cluster of the current kubeconfig context instead of PATHs",
    )
    add_connection_arguments(parser)
    parser.add_argument(
        "--catalog",
        action="append",
        default=[],
        dest="catalogs",
        metavar="[NAMESPACE/NAME=]PATH",
        help="catalog content (FBC, bundle directories or package manifests) for upgrade "
        "graphs, for one CatalogSource or, without NAMESPACE/NAME=, for all; repeatable",
    )
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text (a readable summary, the default) or json (report format 1)",
    )


def _check_inputs(args: argparse.Namespace) -> None:
    given = [bool(args.paths), args.sample, args.live]
    if sum(given) > 1:
        raise UsageError("give PATHs, --sample or --live, not several of them")
    if not any(given):
        raise UsageError("nothing to check: give snapshot PATHs, --sample or --live")
    if (args.context or args.kubeconfig or args.namespaces) and not args.live:
        raise UsageError("--context, --kubeconfig and --namespace only apply with --live")


def _colour_wanted() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


@dataclass(frozen=True)
class Checked:
    """One check: the cache as read, the model over it, and the report built from both."""

    store: Store
    model: Model
    report: Report


def check(args: argparse.Namespace) -> Checked:
    """Read what ``args`` names (PATHs, the sample or the live cluster, plus ``--catalog``
    content), derive, and build the report: everything ``run`` does but printing."""
    _check_inputs(args)
    from olmtui.model.engine import Model
    from olmtui.model.health import health_findings
    from olmtui.model.upgrades import channel_states, upgrade_hook
    from olmtui.report import report_json
    from olmtui.sources.catalogs import catalog_from_packagemanifests, load_catalog
    from olmtui.sources.snapshot import load_snapshot
    from olmtui.store import Store

    store = Store()
    load_result: LoadSummary
    if args.live:
        from olmtui.sources.live_args import options_from_args
        from olmtui.sources.live_once import read_cluster_once

        load_result = read_cluster_once(options_from_args(args), store)
    elif args.sample:
        with as_file(files("olmtui").joinpath("samples", SAMPLE)) as sample_path:
            load_result = load_snapshot([str(sample_path)], store)
    else:
        load_result = load_snapshot(args.paths, store)
    # --catalog content first: it beats PackageManifests for the same CatalogSource.
    catalogs = [
        *(load_catalog(spec) for spec in args.catalogs),
        *catalog_from_packagemanifests(store.list("PackageManifest")),
    ]
    model = Model(store, upgrades=upgrade_hook(catalogs))
    report = report_json(
        "live" if args.live else "snapshot",
        model,
        store,
        load_result,
        channels=channel_states(catalogs),
        health=health_findings(store, catalogs, model.subscriptions()),
    )
    return Checked(store, model, report)


def run(args: argparse.Namespace) -> int:
    from olmtui.report import dumps, has_errors, render_text

    report = check(args).report
    if args.output == "json":
        sys.stdout.write(dumps(report))
    else:
        sys.stdout.write(render_text(report, colour=_colour_wanted()))
    return 1 if has_errors(report) else 0
