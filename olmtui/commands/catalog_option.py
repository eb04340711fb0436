"""``--catalog [NAMESPACE/NAME=]PATH``, the catalog content the commands take for upgrade
graphs and resolution (``check``, ``explain``, ``replay``, ``graph``, ``serve``, the live
dashboard), and ``--global-catalog-namespace``: one definition each, so the flags' names,
destinations and metavars never drift apart; each command says what it does with the
content in its own help.

The dashboard (``olmtui`` without a sub-command) takes them before any sub-command, into
attributes of their own: argparse lets a sub-command's defaults overwrite what the top level
parsed, and :func:`refuse_leading_catalogs` says so rather than drop them silently."""

from __future__ import annotations

import argparse

from olmtui.errors import UsageError

#: Prefix of the attributes the top-level parser (the dashboard) stores these flags in.
DASHBOARD = "dashboard_"


def add_catalog_argument(
    parser: argparse.ArgumentParser, help_text: str, *, dashboard: bool = False
) -> None:
    parser.add_argument(
        "--catalog",
        action="append",
        default=[],
        dest=f"{DASHBOARD if dashboard else ''}catalogs",
        metavar="[NAMESPACE/NAME=]PATH",
        help=help_text,
    )


def add_global_namespace_argument(
    parser: argparse.ArgumentParser, *, dashboard: bool = False
) -> None:
    parser.add_argument(
        "--global-catalog-namespace",
        metavar="NS",
        dest=f"{DASHBOARD if dashboard else ''}global_namespace",
        help="the catalog operator's global catalog namespace, whose CatalogSources every "
        "namespace sees in resolution (its -namespace flag; default: openshift-marketplace "
        "when that Namespace exists, else olm)",
    )


def refuse_leading_catalogs(args: argparse.Namespace) -> None:
    """``UsageError`` when the dashboard's flags were given before a sub-command."""
    if getattr(args, "command", None) is None:
        return
    for flag, dest in (
        ("--catalog", "catalogs"),
        ("--global-catalog-namespace", "global_namespace"),
    ):
        if getattr(args, DASHBOARD + dest, None):
            raise UsageError(
                f"{flag} before `{args.command}` applies to the dashboard only; "
                f"give it after `{args.command}`"
            )
