"""``olmtui check``: print once what the model derives, for scripts, runbooks and CI.

Exit status: 0 when no finding is an error, 1 when some is, 2 when the
input cannot be used at all (the CLI turns ``UsageError`` into one line on stderr).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from olmtui.commands.catalog_option import (
    add_catalog_argument,
    add_global_namespace_argument,
    add_next_catalog_argument,
    load_next_catalogs,
)
from olmtui.errors import UsageError
from olmtui.sources.cluster.live_args import CONNECTION_FLAGS, add_connection_arguments

if TYPE_CHECKING:
    from olmtui.model.incremental.engine import Model
    from olmtui.pipeline.session import Session
    from olmtui.report import Report
    from olmtui.store import Store

NAME = "check"
HELP = (
    "Check a snapshot (or the live cluster) once and print the findings (text, JSON, or a "
    "Markdown incident note)."
)


def add_input_arguments(
    parser: argparse.ArgumentParser, catalog_help: str, *, fleet: bool = False
) -> None:
    """What to read: PATHs, ``--sample`` or ``--live`` (with its connection options),
    ``--catalog`` content and ``--global-catalog-namespace``; ``check`` and ``explain``
    share them, and :func:`session_of` reads them back. ``fleet``: ``--context`` and
    ``--kubeconfig`` may repeat (``check --fleet``)."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="YAML/JSON files, directories, must-gather trees or .tar(.gz) archives",
    )
    parser.add_argument(
        "--sample",
        action="store_true",
        help="read the small example cluster shipped with olmtui instead of PATHs",
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="read the cluster of the current kubeconfig context instead of PATHs",
    )
    add_connection_arguments(parser, once=True, repeatable=fleet)
    add_catalog_argument(parser, catalog_help)
    add_next_catalog_argument(parser)
    add_global_namespace_argument(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "exit status: 0 when no finding is an error, 1 when one is, 2 when the input cannot be "
        "used; with --fleet, 4 when any target could not be read"
    )
    add_input_arguments(
        parser,
        "catalog content (FBC, bundle directories or package manifests) for upgrade "
        "graphs and resolution, for one CatalogSource or, without NAMESPACE/NAME=, for all; "
        "repeatable (several for one CatalogSource are merged into one catalog). Content "
        "given is never taken as the whole catalog: a package missing from it is 'not in the "
        "catalog content given' (info); only the source's PackageManifests listed live "
        "(whole) or OLM's ResolutionFailed condition make it an error",
        fleet=True,
    )
    parser.add_argument(
        "--at",
        metavar="TIME",
        help="with a recording as PATH: the report as of TIME, an RFC 3339 time, -DURATION "
        "back from its end (-15m) or HH:MM (UTC); without it, as of its end",
    )
    parser.add_argument(
        "--output",
        choices=("text", "json", "markdown", "jsonl"),
        default="text",
        help="text (a readable summary, the default), json (report format 1) or markdown (an "
        "incident note for a ticket: summary, findings by object with their remedies, "
        "Mermaid graphs of pending upgrades); with --fleet also jsonl (one target a line as "
        "each finishes, then one rollup line)",
    )
    parser.add_argument(
        "--schema",
        action="store_true",
        help="print the JSON Schema (draft 2020-12) of the json output, report format 1, as "
        "shipped in olmtui/report/schema.json, and exit 0; reads no input",
    )
    from olmtui.commands.check_fleet import add_fleet_arguments

    add_fleet_arguments(parser)


def moments_joined(argv: Sequence[str]) -> list[str]:
    """``--at -15m`` as ``--at=-15m``: argparse takes a value that starts with ``-`` for a
    flag, and a moment back from a recording's end is written so (``check --at -15m``)."""
    joined: list[str] = []
    values = iter(argv)
    for arg in values:
        if arg == "--at":
            value = next(values, None)
            if value is not None and value.startswith("-") and value[1:2].isdigit():
                joined.append(f"--at={value}")
                continue
            joined.append(arg)
            if value is not None:
                joined.append(value)
            continue
        joined.append(arg)
    return joined


def _check_inputs(args: argparse.Namespace) -> None:
    given = [bool(args.paths), args.sample, args.live]
    if sum(given) > 1:
        raise UsageError("give PATHs, --sample or --live, not several of them")
    if not any(given):
        raise UsageError("nothing to check: give snapshot PATHs, --sample or --live")
    if args.live:
        return
    given = [
        f
        for f, dest in CONNECTION_FLAGS.items()
        if dest != "namespaces" and getattr(args, dest, None)
    ]
    if given:
        verb = "applies" if len(given) == 1 else "apply"
        raise UsageError(f"{', '.join(given)} only {verb} with --live")
    if args.namespaces and not args.paths:
        raise UsageError("--namespace scopes --live or snapshot PATHs")


def _colour_wanted() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _terminal_width() -> int | None:
    """The terminal's columns when stdout is one (evidence lines are cut to it); ``None``
    when piped or redirected: then nothing is cut."""
    if not sys.stdout.isatty():
        return None
    columns = shutil.get_terminal_size().columns
    return columns if columns > 0 else None  # a terminal that says no size: cut nothing


@dataclass(frozen=True)
class Checked:
    """One check: the cache as read, the model over it, and the report built from both
    (``session`` holds the rest: catalogs, the source's label)."""

    store: Store
    model: Model
    report: Report
    session: Session


def session_of(args: argparse.Namespace) -> Session:
    """The session of what :func:`add_input_arguments` read: PATHs, the sample or the live
    cluster read once, with ``--catalog`` content, the global catalog namespace and the
    ``--next-catalog`` content."""
    next_catalogs = load_next_catalogs(args.next_catalogs)
    session = _session_of(args)
    session.next_catalogs = next_catalogs
    return session


def _session_of(args: argparse.Namespace) -> Session:
    _check_inputs(args)
    from olmtui.pipeline.build import cluster_once_session, sample_session, snapshot_session

    if args.live:
        from olmtui.sources.cluster.live_args import options_from_args

        return cluster_once_session(options_from_args(args), args.catalogs, args.global_namespace)
    if args.sample:
        return sample_session(args.catalogs, args.global_namespace)
    recording = _recording_session(args)
    if recording is not None:
        return recording
    from olmtui.commands.progress_line import terminal_progress

    # a line on stderr, only on a terminal and only for a load over a second
    with terminal_progress(sys.stderr) as progress:
        return snapshot_session(
            args.paths,
            args.catalogs,
            global_namespace=args.global_namespace,
            progress=progress,
            namespaces=args.namespaces,
        )


def _recording_session(args: argparse.Namespace) -> Session | None:
    """A recording as PATH, as of ``--at`` (its end without it); ``None`` for other PATHs
    (``--at`` is refused with them)."""
    from olmtui.sources.recording.format import is_recording

    at = getattr(args, "at", None)
    recordings = [p for p in args.paths if is_recording(p)]
    if not recordings:
        if at is not None:
            raise UsageError("--at needs a recording as PATH (made by `olmtui record`)")
        return None
    if len(args.paths) > 1:
        raise UsageError("a recording is read alone: give one recording PATH, nothing else")
    if args.namespaces:
        raise UsageError(
            "--namespace does not apply to a recording: it holds the namespaces its recorder read"
        )
    from olmtui.pipeline.build import recording_session
    from olmtui.sources.recording.moments import parse_moment
    from olmtui.sources.recording.reader import open_recording

    timeline = open_recording(recordings[0])
    when = timeline.ended if at is None else parse_moment(at, timeline.started, timeline.ended)
    count = timeline.count_at(when)
    return recording_session(timeline, count, args.catalogs, args.global_namespace, when)


def check(args: argparse.Namespace) -> Checked:
    """Read what ``args`` names (PATHs, the sample or the live cluster, plus ``--catalog``
    content), derive, and build the report: everything ``run`` does but printing."""
    session = session_of(args)
    # read once and shown nowhere: each remedy is tried on the session's own state
    report = session.analysis.report(verify_remedies=True)
    return Checked(session.store, session.model, report, session)


def markdown(checked: Checked) -> str:
    """The Markdown incident note of a check; a snapshot is dated by its report's context
    (the gather time, else the newest time its objects record), a live read by the clock."""
    from olmtui.report.incident_timelines import incident_timelines
    from olmtui.report.markdown_report import OBJECT_LIMIT, pending_graphs, render_markdown

    session = checked.session
    when = None
    if session.kind != "snapshot":
        when = session.clock() if session.clock is not None else dt.datetime.now(dt.UTC)

    def csv_version(namespace: str, name: str) -> str | None:
        csv = checked.model.csv(namespace, name)
        return csv.version if csv else None

    graphs = pending_graphs(
        checked.store, session.catalogs(), session.analysis.reported_subscriptions(), csv_version
    )
    # R-EVD-11: each incident's timeline, relative to the gather time (a snapshot whose
    # must-gather says it) or to the moment of the live read
    incidents = list(checked.report.get("incidents") or ())[:OBJECT_LIMIT]
    reference = session.clock() if session.clock is not None else when
    return render_markdown(
        checked.report,
        label=session.label,
        when=when,
        graphs=graphs,
        timelines=incident_timelines(checked.store, incidents),
        timeline_reference=reference,
    )


def _print_schema(args: argparse.Namespace) -> int:
    """``--schema``: the shipped schema's text as it is; no input is read."""
    from importlib.resources import files

    if args.paths or args.sample or args.live:
        raise UsageError("--schema prints the report's schema and reads no input: give no PATH")
    sys.stdout.write(files("olmtui.report").joinpath("schema.json").read_text("utf-8"))
    return 0


def run(args: argparse.Namespace) -> int:
    from olmtui.commands.check_fleet import refuse_fleet_flags, run_fleet_check
    from olmtui.report import has_errors, write_json, write_text

    if args.schema:
        return _print_schema(args)

    if args.fleet:
        return run_fleet_check(args)
    refuse_fleet_flags(args)
    if args.output == "markdown":
        checked = check(args)
        sys.stdout.write(markdown(checked))
        return 1 if has_errors(checked.report) else 0
    # the long lists are built entry by entry as they are written, the output written in
    # pieces: neither is ever held whole
    report = session_of(args).analysis.report(streamed=True, verify_remedies=True)
    colour = _colour_wanted()
    with _spool() as spool:
        try:
            if args.output == "json":
                write_json(report, spool)
            else:
                write_text(report, spool, colour=colour, width=_terminal_width())
        except OSError as exc:  # the spool's temporary file: TMPDIR missing, read-only, full
            raise UsageError(
                f"cannot keep the report in a temporary file ({tempfile.gettempdir()}): "
                f"{exc.strerror or exc}; set TMPDIR to a writable directory"
            ) from exc
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout, _COPY_CHUNK)
    return 1 if has_errors(report) else 0


#: Output kept in memory before the spool moves to a temporary file.
_SPOOL_MEMORY = 32 << 20
#: Characters copied from the spool to stdout at a time.
_COPY_CHUNK = 1 << 16


def _spool() -> IO[str]:
    """Where the report is written before stdout: a report that fails while it is written
    prints nothing, never half a document, yet a large one is never held whole (in memory
    up to ``_SPOOL_MEMORY``, then in a temporary file). Every character the writers emit
    has a UTF-8 encoding (lone surrogates come escaped)."""
    return tempfile.SpooledTemporaryFile(
        max_size=_SPOOL_MEMORY, mode="w+", encoding="utf-8", newline=""
    )
