"""``olmtui graph``: draw one channel's upgrade graph as Mermaid (for tickets) or text, or
print it as JSON (``--format json``, for scripts and the MCP server).

The input is read through the composition root every mode uses (``pipeline/build.py``), so
the catalogs are those ``check`` reads on the same input: ``--catalog`` content first, then
the snapshot's PackageManifests (from those only the head and its skipRange are known), and a
Subscription's catalog is chosen as ``check`` chooses it (R-UPG-2). With a snapshot holding a
Subscription for the package, its installed CSV is marked and its channel is the one drawn.
Names come from catalogs and clusters, so control characters in them are printed escaped,
never obeyed.

Exit status as for ``check``: 1 when the channel has errors (OLM cannot order it, or ``opm
validate`` rejects it; the drawing carries them), 2 when the input cannot be used.
"""

from __future__ import annotations

import argparse
import sys

from olmtui.commands.catalog_option import add_catalog_argument

NAME = "graph"
HELP = "Draw a package channel's upgrade graph (replaces, skips, skipRange) as Mermaid or text."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "exit status: 0 for a channel without errors, 1 when it has some, 2 when the input "
        "cannot be used"
    )
    parser.add_argument("package", metavar="PACKAGE", help="the package to draw")
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="snapshot files, directories, must-gathers or archives: their Subscription for "
        "PACKAGE marks the installed CSV, their PackageManifests serve without --catalog",
    )
    parser.add_argument(
        "--channel",
        metavar="CHANNEL",
        help="the channel to draw (default: the Subscription's channel, else the package's "
        "default channel)",
    )
    add_catalog_argument(
        parser,
        "catalog content (FBC, bundle directories or package manifests); repeatable",
    )
    parser.add_argument(
        "--format",
        choices=("mermaid", "text", "json"),
        default="mermaid",
        dest="output_format",
        help="mermaid (a flowchart to paste into a ticket, the default), text, or json (the "
        "channel's entries, edges and errors as data, format 1)",
    )


def run(args: argparse.Namespace) -> int:
    from olmtui.model.viewmodels.graph_render import render_mermaid, render_text
    from olmtui.pipeline.build import catalog_session, snapshot_session
    from olmtui.pipeline.channel_graph import channel_graph
    from olmtui.report.graph_json import graph_json
    from olmtui.report.json_report import dump_json
    from olmtui.report.text_report import safe

    # The same wiring and catalog merge as check's (R-DOC-8): --catalog content beats the
    # PackageManifests of the same CatalogSource, and never hides another source's.
    session = (
        snapshot_session(args.paths, args.catalogs)
        if args.paths
        else catalog_session(args.catalogs)
    )
    drawn = channel_graph(session, args.package, args.channel)
    view = drawn.view
    if args.output_format == "json":
        sys.stdout.write(dump_json(graph_json(view, drawn.catalog)))
        return 1 if view.errors else 0
    render = render_mermaid if args.output_format == "mermaid" else render_text
    sys.stdout.write("\n".join(safe(line) for line in render(view).split("\n")))
    return 1 if view.errors else 0
