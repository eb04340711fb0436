"""The ``olmtui`` command line: one sub-command per module under ``olmtui/commands``.

Errors a user can fix (a missing path, a bad kubeconfig, an unreachable cluster) end with one
line on stderr and exit status 2, never a traceback. Any other exception is a bug in olmtui:
one line naming it and where to report it, exit status 3 (``olmtui.errors``), so that CI can
tell a crash from exit 1, "an error finding".
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from olmtui import __version__
from olmtui.commands.catalog_option import (
    add_catalog_argument,
    add_global_namespace_argument,
    add_next_catalog_argument,
    load_next_catalogs,
    refuse_leading_catalogs,
)
from olmtui.commands.check import moments_joined
from olmtui.commands.fleet_dashboard import (
    add_dashboard_fleet_arguments,
    refuse_misplaced,
    run_live_fleet,
)
from olmtui.errors import (
    EXIT_CRASH,
    UsageError,
    crash_line,
    debug_wanted,
    print_traceback,
    run_app,
)
from olmtui.safe_text import visible as safe
from olmtui.sources.cluster.live_args import add_connection_arguments, merge_leading_connection

#: Sub-command modules; each defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
#: ``run(args) -> int``.
COMMAND_MODULES: tuple[str, ...] = (
    "check",
    "whatif",
    "diff",
    "explain",
    "graph",
    "snapshot",
    "record",
    "replay",
    "demo",
    "serve",
    "mcp_server",
)
#: What each exit status means (``--help``'s epilog and ``--spec`` say it from here).
EXIT_MEANINGS: dict[int, str] = {
    0: "no error finding",
    1: "an error finding",
    2: "unusable input or usage",
    3: "a crash (a bug in olmtui; OLMTUI_DEBUG=1 prints its traceback)",
    4: "a target of check --fleet could not be read",
    130: "interrupted",
    141: "the output's reader went away",
}
EXIT_STATUSES = "exit status: " + ", ".join(f"{c} {m}" for c, m in EXIT_MEANINGS.items())
#: As a shell reports a process killed by SIGPIPE.
EXIT_CLOSED_PIPE = 141


class _PrintSpec(argparse.Action):
    """``--spec``: the whole command line as JSON (``commands/cli_spec.py``), then exit 0,
    as ``--version`` does."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        from olmtui.commands.cli_spec import spec_of
        from olmtui.report.json_report import dump_json

        sys.stdout.write(dump_json(spec_of(parser, EXIT_MEANINGS, __version__)))
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="olmtui",
        description=(
            "See what Operator Lifecycle Manager (OLM v0 and v1) decides on a cluster, and why."
        ),
        epilog=EXIT_STATUSES,
    )
    parser.add_argument("--version", action="version", version=f"olmtui {__version__}")
    parser.add_argument(
        "--spec",
        action=_PrintSpec,
        nargs=0,
        help="print the whole command line as JSON (commands, options with types, defaults "
        "and help, output formats, exit statuses, the report's schema) and exit",
    )
    add_connection_arguments(parser, leading=True, repeatable=True)
    add_catalog_argument(
        parser,
        "catalog content for the live dashboard's upgrade graphs and resolution (OLM's "
        "registry cannot be read with GET requests): FBC, bundle directories or package "
        "manifests, for one CatalogSource or, without NAMESPACE/NAME=, for all; repeatable",
        dashboard=True,
    )
    add_next_catalog_argument(parser, dashboard=True)
    add_global_namespace_argument(parser, dashboard=True)
    parser.add_argument(
        "--record",
        dest="dashboard_record",
        metavar="FILE",
        help="record the session the dashboard shows to FILE (as `olmtui record` does)",
    )
    add_dashboard_fleet_arguments(parser)
    parser.set_defaults(run=_run_dashboard)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        module = importlib.import_module(f"olmtui.commands.{module_name}")
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def _run_dashboard(args: argparse.Namespace) -> int:
    """``olmtui`` without a sub-command: the dashboard over the live cluster."""
    from olmtui.pipeline.build import live_session
    from olmtui.pipeline.recording import RecordTo
    from olmtui.sources.cluster.live_args import options_from_args
    from olmtui.ui.app import OlmApp

    if args.dashboard_fleet:
        return run_live_fleet(args)
    next_catalogs = load_next_catalogs(args.dashboard_next_catalogs)
    record = RecordTo(args.dashboard_record) if args.dashboard_record else None
    session = live_session(
        options_from_args(args),
        args.dashboard_catalogs,
        args.dashboard_global_namespace,
        next_catalogs,
        record=record,
    )
    return run_app(OlmApp(session))


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(moments_joined(sys.argv[1:] if argv is None else argv))
        merge_leading_connection(args)
        refuse_leading_catalogs(args)
        refuse_misplaced(args)
        if args.command is not None and args.dashboard_record:
            raise UsageError(f"--record before `{args.command}` applies to the dashboard only")
        return int(args.run(args))
    except UsageError as exc:
        # paths and names in the message come from the user and the snapshot: never obeyed
        print(f"olmtui: {safe(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``| head``): no crash, nothing to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return EXIT_CLOSED_PIPE
    except Exception as exc:  # every other exception is a crash: exit 3, never 1
        if debug_wanted():
            print_traceback(exc)
        print(f"olmtui: {safe(crash_line(exc))}", file=sys.stderr)
        return EXIT_CRASH
