"""``--view``, the view the dashboard opens first (``replay`` and ``demo``).

Checked before anything is loaded or started: a misspelt view used to open the overview
without a word, after the user had waited for a large snapshot to load.
"""

from __future__ import annotations

import argparse

from olmtui.errors import UsageError


def add_view_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--view",
        default="overview",
        metavar="VIEW",
        help="the view to open first (overview, ns, og, csv, sub, graph, findings, ...)",
    )


def initial_view(word: str) -> str:
    """The view ``word`` names (a name, an alias or an unambiguous prefix); ``UsageError``
    listing the views when it names none."""
    from olmtui.ui import views

    name = views.resolve(word)
    if name is None:
        names = ", ".join(spec.name for spec in views.VIEWS)
        raise UsageError(
            f"no view {word!r} (an unknown name or an ambiguous prefix); views: {names}"
        )
    return name
