"""``olmtui mcp``: olmtui as an MCP server over stdio, for AI assistants and automation.

The input is ``check``'s (PATHs, ``--sample`` or ``--live`` with its connection options,
``--catalog``, ``--next-catalog``, ``--global-catalog-namespace``), built once through the
composition root before the server speaks; ``--live`` follows the cluster (one watcher, GET
requests only) for the server's lifetime, as the dashboard does. The tools
(``olmtui/mcp/tools.py``) only read; ``whatif`` changes a copy.

The server needs the official MCP SDK, an optional extra: without it the command exits 2
with one line saying ``pip install 'olmtui[mcp]'``. An input that cannot be used exits 2
before the server starts, as ``check`` does.
"""

from __future__ import annotations

import argparse
import importlib.util

from olmtui.commands.catalog_option import (
    add_catalog_argument,
    add_global_namespace_argument,
    add_next_catalog_argument,
    load_next_catalogs,
)
from olmtui.errors import UsageError
from olmtui.sources.cluster.live_args import add_connection_arguments, connection_given

NAME = "mcp"
HELP = (
    "Serve the findings, incidents, explanations, upgrade graphs and what-ifs of one input "
    "to an AI assistant as an MCP server over stdio (read-only; needs olmtui[mcp])."
)
#: What to install when the SDK is missing.
INSTALL_HINT = "pip install 'olmtui[mcp]'"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "The client (Claude Desktop, VS Code, ...) starts this command and speaks MCP on its "
        "stdin and stdout. exit status: 0 when the client closes the session, 2 when the "
        "input cannot be used or the mcp extra is not installed"
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="YAML/JSON files, directories, must-gather trees or .tar(.gz) archives, read once",
    )
    parser.add_argument(
        "--sample",
        action="store_true",
        help="serve the small example cluster shipped with olmtui instead of PATHs",
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help="follow the cluster of the current kubeconfig context (GET requests only) for "
        "the server's lifetime instead of PATHs",
    )
    add_connection_arguments(parser)
    add_catalog_argument(
        parser,
        "catalog content (FBC, bundle directories or package manifests) for upgrade graphs "
        "and resolution, for one CatalogSource or, without NAMESPACE/NAME=, for all; repeatable",
    )
    add_next_catalog_argument(parser)
    add_global_namespace_argument(parser)


def _check_inputs(args: argparse.Namespace) -> None:
    given = [bool(args.paths), args.sample, args.live]
    if sum(given) > 1:
        raise UsageError("give PATHs, --sample or --live, not several of them")
    if not any(given):
        raise UsageError("nothing to serve: give snapshot PATHs, --sample or --live")
    if connection_given(args) and not args.live:
        raise UsageError("--context, --kubeconfig and --namespace only apply with --live")


def sdk_missing() -> bool:
    """Whether the MCP SDK (the ``mcp`` extra) cannot be imported."""
    try:
        return importlib.util.find_spec("mcp.server") is None
    except (ImportError, ValueError):  # ``mcp`` itself missing, or a broken stand-in
        return True


def run(args: argparse.Namespace) -> int:
    if sdk_missing():
        raise UsageError(f"olmtui mcp needs the MCP SDK: {INSTALL_HINT}")
    _check_inputs(args)
    from olmtui.mcp.server import serve
    from olmtui.pipeline.build import live_session, sample_session, snapshot_session

    next_catalogs = load_next_catalogs(args.next_catalogs)
    if args.live:
        from olmtui.sources.cluster.live_args import options_from_args

        # connects first: a bad kubeconfig or an unreachable cluster is one line, exit 2
        session = live_session(options_from_args(args), args.catalogs, args.global_namespace)
    elif args.sample:
        session = sample_session(args.catalogs, args.global_namespace)
    else:
        session = snapshot_session(
            args.paths, args.catalogs, global_namespace=args.global_namespace
        )
    session.next_catalogs = next_catalogs
    return serve(
        session, live=args.live, catalogs=args.catalogs, global_namespace=args.global_namespace
    )
