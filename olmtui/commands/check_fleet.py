"""``olmtui check --fleet``: many clusters in one run, one roll-up (R-FLT-1..6).

Each target is read exactly as a single ``check`` reads it (``pipeline/fleet.py``) in a
bounded pool (``pipeline/fleet_runner.py``); a target that cannot be read is a status, and
the run always prints its report. Progress goes to stderr: on a terminal one counter line
redrawn in place, else one line per target as it finishes. ``--output jsonl`` writes each
target's line as it finishes (its order is the finishing order; every line names its target),
then one ``{"rollup": ...}`` line. Exit status: 4 when any target could not be read, else 1
when a target read has an error finding, else 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import TYPE_CHECKING, TextIO

from olmtui.commands.catalog_option import load_next_catalogs
from olmtui.commands.progress_line import bar
from olmtui.errors import UsageError
from olmtui.sources.cluster.live_args import duration

if TYPE_CHECKING:
    from olmtui.pipeline.fleet import TargetResult

#: Seconds connecting to one live target may take, unless ``--connect-timeout`` says.
CONNECT_TIMEOUT = 10.0
_ERASE = "\r\x1b[K"


def add_fleet_arguments(parser: argparse.ArgumentParser) -> None:
    """``check``'s fleet flags (``--context`` and ``--kubeconfig`` repeat with ``--fleet``)."""
    group = parser.add_argument_group(
        "fleet",
        "--fleet reads many clusters, each as a single check reads it: every --context, "
        "--all-contexts, every --kubeconfig file's current context, every PATH (a folder of "
        "must-gathers: each one; a tarball), --targets FILE; exit status 4 when a target "
        "could not be read",
    )
    group.add_argument("--fleet", action="store_true", help="check many clusters in one run")
    group.add_argument(
        "--all-contexts",
        action="store_true",
        help="with --fleet: every context of the kubeconfig (of each --kubeconfig file)",
    )
    group.add_argument(
        "--targets",
        metavar="FILE",
        help="with --fleet: one target a line: context:NAME, kubeconfig:PATH[#CONTEXT] or a "
        "snapshot path; # starts a comment",
    )
    group.add_argument(
        "--jobs",
        type=_positive_int,
        metavar="N",
        help="with --fleet: targets read at once (default: one process per core for "
        "snapshots, 16 threads for live clusters)",
    )
    group.add_argument(
        "--connect-timeout",
        type=duration,
        default=CONNECT_TIMEOUT,
        metavar="DURATION",
        help="with --fleet: give up on a live target not connected within DURATION "
        "(default 10s): its status is timeout",
    )
    group.add_argument(
        "--deadline",
        type=duration,
        metavar="DURATION",
        help="with --fleet: report the targets not read within DURATION as timeout and end",
    )
    group.add_argument(
        "--prometheus",
        metavar="FILE",
        help="with --fleet: also write a node-exporter textfile of olmtui_findings and "
        "olmtui_target_up (replaced atomically)",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a positive number: {text!r}")
    return value


FLEET_ONLY = ("all_contexts", "targets", "jobs", "deadline", "prometheus")


def refuse_fleet_flags(args: argparse.Namespace) -> None:
    """A single check refuses the fleet's flags, and a second --context or --kubeconfig."""
    given = [f"--{a.replace('_', '-')}" for a in FLEET_ONLY if getattr(args, a, None)]
    if args.connect_timeout != CONNECT_TIMEOUT:
        given.append("--connect-timeout")
    if args.output == "jsonl":
        given.append("--output jsonl")
    refuse_unless_fleet(args, given)


def refuse_unless_fleet(args: argparse.Namespace, given: list[str]) -> None:
    """Refuse the fleet's flags ``given``, and a second --context or --kubeconfig, where only
    one target is read (``check``, the dashboard without --fleet)."""
    for flag, dest in (("--context", "contexts"), ("--kubeconfig", "kubeconfigs")):
        if len(getattr(args, dest, None) or ()) > 1:
            given.append(f"several {flag}")
    if given:
        raise UsageError(f"{', '.join(given)} only apply with --fleet")


def run_fleet_check(args: argparse.Namespace) -> int:
    """Read every target, print the fleet report, write ``--prometheus``; the exit status."""
    from olmtui.pipeline.fleet import FleetSettings
    from olmtui.pipeline.fleet_runner import run_fleet
    from olmtui.pipeline.fleet_targets import TargetSpec, fleet_targets
    from olmtui.report.fleet_json import (
        fleet_exit,
        fleet_json,
        fleet_rollup,
        json_line,
        target_json,
    )
    from olmtui.report.fleet_prometheus import prometheus_text
    from olmtui.report.fleet_text import fleet_markdown, fleet_text

    if args.sample or args.live:
        raise UsageError(
            "--fleet reads its targets: give contexts, kubeconfigs or PATHs, not --sample or --live"
        )
    # a --context or --kubeconfig given before ``check`` reaches only the single attribute
    contexts = args.contexts or ([args.context] if args.context else [])
    kubeconfigs = args.kubeconfigs or ([args.kubeconfig] if args.kubeconfig else [])
    spec = TargetSpec(
        contexts=tuple(contexts),
        all_contexts=args.all_contexts,
        kubeconfigs=tuple(kubeconfigs),
        paths=tuple(args.paths),
        targets_file=args.targets,
    )
    targets = fleet_targets(spec)
    settings = FleetSettings(
        catalog_specs=tuple(args.catalogs),
        global_namespace=args.global_namespace,
        next_catalogs=tuple(load_next_catalogs(args.next_catalogs)),
        namespaces=tuple(args.namespaces),
        connect_timeout=args.connect_timeout,
        request_timeout=args.request_timeout,
    )
    if args.prometheus:
        _check_writable(args.prometheus)
    progress = _Progress(sys.stderr, len(targets))
    streaming = args.output == "jsonl"

    def finished(result: TargetResult) -> None:
        progress.finished(result)
        if streaming:
            sys.stdout.write(json_line(target_json(result)))
            sys.stdout.flush()

    try:
        results = run_fleet(
            targets, settings, jobs=args.jobs, deadline=args.deadline, on_result=finished
        )
    finally:
        progress.close()
    document = fleet_json(results)
    if args.prometheus:
        write_atomically(args.prometheus, prometheus_text(document["targets"]))
    if streaming:
        sys.stdout.write(json_line({"rollup": fleet_rollup(results)}))
    elif args.output == "json":
        from olmtui.report.json_report import dumps

        sys.stdout.write(dumps(document))
    elif args.output == "markdown":
        sys.stdout.write(fleet_markdown(document))
    else:
        sys.stdout.write(fleet_text(document))
    return fleet_exit(results)


def _check_writable(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--prometheus {path}: cannot write in {folder}")


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it over ``path``: the
    textfile collector never reads half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(prefix=".olmtui-", suffix=".prom", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise UsageError(f"--prometheus {path}: {exc.strerror or exc}") from None


class _Progress:
    """The fleet's progress on stderr: a counter redrawn in place on a terminal, else one
    line per target as it finishes."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
        try:
            self.terminal = stream.isatty()
        except (AttributeError, ValueError):
            self.terminal = False

    def finished(self, result: TargetResult) -> None:
        self.done += 1
        from olmtui.report.fleet_text import finished_text

        said = finished_text(result.name, result.status, result.seconds)
        if self.terminal:
            line = f"fleet {bar(self.done / max(self.total, 1))} {self.done}/{self.total} {said}"
            self.stream.write(_ERASE + line)
        else:
            self.stream.write(f"olmtui: fleet [{self.done}/{self.total}] {said}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.terminal and self.done:
            self.stream.write(_ERASE)
            self.stream.flush()
