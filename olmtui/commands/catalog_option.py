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
from olmtui.model.records.catalog import Catalog

#: Prefix of the attributes the top-level parser (the dashboard) stores these flags in.
DASHBOARD = "dashboard_"


def add_catalog_argument(
    parser: argparse.ArgumentParser, help_text: str, *, dashboard: bool = False
) -> None:
    _add_content_option(parser, "--catalog", "catalogs", help_text, dashboard)


def _add_content_option(
    parser: argparse.ArgumentParser, flag: str, dest: str, help_text: str, dashboard: bool
) -> None:
    """A repeatable ``[NAMESPACE/NAME=]PATH`` option of catalog content (``--catalog``,
    ``--next-catalog``); the dashboard keeps its own copy apart from the sub-command's."""
    parser.add_argument(
        flag,
        action="append",
        default=[],
        dest=f"{DASHBOARD if dashboard else ''}{dest}",
        metavar="[NAMESPACE/NAME=]PATH",
        help=help_text,
    )


#: R-NXT-6, as the help says it.
NEXT_CATALOG_HELP = (
    "the catalog the cluster will serve after an OpenShift upgrade (e.g. the next index "
    "image rendered with `opm render`), read like --catalog; every installed operator "
    "(Subscription with its installed CSV, ClusterExtension with its installed bundle) is "
    "checked against it: its package, its channel and an upgrade edge from the installed "
    "version, with the way out when one is missing. NAMESPACE/NAME= names the CatalogSource "
    "(OLM v0) and NAME= the ClusterCatalog (OLM v1) it replaces; without a name it applies "
    "to every installed operator whose package it holds; repeatable"
)


def add_next_catalog_argument(parser: argparse.ArgumentParser, *, dashboard: bool = False) -> None:
    _add_content_option(parser, "--next-catalog", "next_catalogs", NEXT_CATALOG_HELP, dashboard)


def load_next_catalogs(specs: list[str]) -> list[Catalog]:
    """Each ``--next-catalog`` read as ``--catalog`` reads its content; an unusable one is a
    ``UsageError`` naming this flag."""
    from olmtui.sources.catalog.catalogs import load_catalog

    loaded = []
    for spec in specs:
        try:
            loaded.append(load_catalog(spec))
        except UsageError as exc:
            raise UsageError(str(exc).replace("--catalog", "--next-catalog", 1)) from None
    return loaded


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
        ("--next-catalog", "next_catalogs"),
        ("--global-catalog-namespace", "global_namespace"),
    ):
        if getattr(args, DASHBOARD + dest, None):
            raise UsageError(
                f"{flag} before `{args.command}` applies to the dashboard only; "
                f"give it after `{args.command}`"
            )
