"""``--catalog [NAMESPACE/NAME=]PATH``, the catalog content the commands that read snapshots
take for upgrade graphs (``check``, ``replay``, ``graph``, ``serve``): one definition, so
the flag's name, destination and metavar never drift apart; each command says what it does
with the content in its own help."""

from __future__ import annotations

import argparse


def add_catalog_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    parser.add_argument(
        "--catalog",
        action="append",
        default=[],
        dest="catalogs",
        metavar="[NAMESPACE/NAME=]PATH",
        help=help_text,
    )
