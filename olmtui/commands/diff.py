"""``olmtui diff A B``: what OLM state changed from A to B, in OLM's terms (R-REC-6..8).

A and B are anything ``check`` reads (snapshot files and directories, must-gathers,
``.tar(.gz)`` archives), a recording at a moment (``FILE@TIME``) or, with ``--live``, the
cluster now (then the one input given is the "before"). ``--catalog`` applies to both.

Exit status, as diff(1): 0 when no OLM state changed, 1 when something did, 2 when an input
cannot be used (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from olmtui.commands.catalog_option import add_catalog_argument, add_global_namespace_argument
from olmtui.errors import UsageError
from olmtui.sources.cluster.live_args import add_connection_arguments, connection_given

if TYPE_CHECKING:  # the parser is built without the pipeline (``test_cli_imports``)
    from olmtui.pipeline.diff_sides import IsTimeline, OpenTimeline, Side

NAME = "diff"
HELP = (
    "Compare two states (snapshots, must-gathers, a recording at two moments FILE@TIME, or "
    "--live against a snapshot): what OLM state changed, and which findings and incidents "
    "are new or resolved."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "TIME (after FILE@): an RFC 3339 time (2026-11-28T10:05:00Z), -DURATION back from the "
        "recording's end (-15m) or HH:MM (UTC); a recording without @TIME stands for its end. "
        "Heartbeat times, resourceVersion, generation and managedFields are not changes. "
        "exit status (as diff): 0 no OLM state changed, 1 something changed, 2 an input "
        "cannot be used"
    )
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="A (before) and B (after): a YAML/JSON file, a directory, a must-gather tree, a "
        ".tar(.gz) archive, or a recording FILE@TIME; with --live, only A",
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="compare INPUT (before) with the cluster of the current kubeconfig context, "
        "read once now (after)",
    )
    add_connection_arguments(parser, once=True)
    add_catalog_argument(
        parser,
        "catalog content for upgrade graphs and resolution, on both sides, for one "
        "CatalogSource or, without NAMESPACE/NAME=, for all; repeatable",
    )
    add_global_namespace_argument(parser)
    parser.add_argument(
        "--output",
        choices=("text", "json", "markdown"),
        default="text",
        help="text (the default: operators, findings, incidents, then objects by kind), json "
        "(format 1) or markdown (a ticket's before / after)",
    )


def sides(
    args: argparse.Namespace, is_timeline: IsTimeline, open_timeline: OpenTimeline
) -> tuple[Side, Side]:
    """The two inputs ``args`` name, before and after, read (``UsageError`` when they are
    not two, or one cannot be used)."""
    from olmtui.pipeline.diff_sides import live_side, read_side

    inputs = list(args.inputs)
    if args.live and len(inputs) != 1:
        raise UsageError("diff --live takes one INPUT: the state to compare the cluster with")
    if not args.live and len(inputs) != 2:
        raise UsageError("diff takes two INPUTs, A (before) and B (after), or --live and one")
    if connection_given(args) and not args.live:
        raise UsageError("--context, --kubeconfig and --namespace only apply with --live")

    def read(text: str) -> Side:
        return read_side(text, args.catalogs, args.global_namespace, is_timeline, open_timeline)

    before = read(inputs[0])
    if args.live:
        from olmtui.pipeline.build import cluster_once_session
        from olmtui.sources.cluster.live_args import options_from_args

        options = options_from_args(args)
        return before, live_side(
            cluster_once_session(options, args.catalogs, args.global_namespace)
        )
    return before, read(inputs[1])


def recording_readers() -> tuple[IsTimeline, OpenTimeline]:
    """How a recording is recognised and opened (a test gives others)."""
    from olmtui.pipeline import diff_sides

    return diff_sides.recording_readers()


def run(args: argparse.Namespace) -> int:
    from olmtui.pipeline.compare import compare_sessions
    from olmtui.pipeline.diff_sides import source_of
    from olmtui.report.diff_report import diff_json, diff_markdown, side_words, write_diff_text
    from olmtui.report.json_report import dump_json

    before, after = sides(args, *recording_readers())
    diff, old, new = compare_sessions(before.session, after.session)
    old_source = source_of(before, dict(old.report["source"]))
    new_source = source_of(after, dict(new.report["source"]))
    if args.output == "json":
        sys.stdout.write(dump_json(diff_json(diff, old_source, new_source)))
    else:
        words = (side_words(old_source, before.label), side_words(new_source, after.label))
        if args.output == "markdown":
            sys.stdout.write(diff_markdown(diff, *words))
        else:
            write_diff_text(diff, *words, sys.stdout)
    return 0 if diff.empty else 1
