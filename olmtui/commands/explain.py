"""``olmtui explain NAMESPACE[/SUBSCRIPTION]``: what OLM's next resolution of a namespace
decides, cause first.

The same resolver ``check`` runs, over the same inputs (``check``'s PATHs, ``--sample`` or
``--live``, ``--catalog`` and ``--global-catalog-namespace``), told for one namespace: the
minimal set of constraints that cannot all hold with their objects and fixes, or what the
next InstallPlan installs and why, or why resolution stops or cannot be predicted.

Exit status: 0 when the namespace resolves, 1 when its resolution would fail (unsatisfiable,
or stopped by an error), 2 when it cannot be predicted (an input such as catalog content is
missing) or the input cannot be used at all (a namespace without Subscriptions included;
``UsageError``, one line on stderr).
"""

from __future__ import annotations

import argparse
import sys

from olmtui.commands.check import add_input_arguments, session_of
from olmtui.errors import UsageError
from olmtui.kinds import SUBSCRIPTION

NAME = "explain"
HELP = (
    "Explain what OLM's next resolution of a namespace decides: what the next InstallPlan "
    "installs and why, or exactly why nothing can be installed."
)
#: Exit status per resolution status (the module docstring says why).
EXIT_STATUS = {"resolved": 0, "unsatisfiable": 1, "failed": 1, "not-evaluated": 2}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "exit status: 0 when the namespace resolves, 1 when its resolution would fail "
        "(unsatisfiable, or stopped by an error), 2 when it cannot be predicted (an input is "
        "missing, e.g. catalog content), the namespace holds no Subscription, or the input "
        "cannot be used"
    )
    parser.add_argument(
        "target",
        metavar="NAMESPACE[/SUBSCRIPTION]",
        help="the namespace to explain; with /SUBSCRIPTION, keep what concerns that "
        "Subscription (OLM still resolves the namespace as a whole)",
    )
    add_input_arguments(
        parser,
        "catalog content (FBC, bundle directories or package manifests) for one "
        "CatalogSource or, without NAMESPACE/NAME=, for all; repeatable. Resolution needs "
        "content for every CatalogSource the namespace sees",
    )
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text (the explanation, cause first; the default) or json (the namespace's "
        "resolution[] entry of the check report, whole even with /SUBSCRIPTION)",
    )


def run(args: argparse.Namespace) -> int:
    from olmtui.model.viewmodels.timeline_objects import namespace_timeline
    from olmtui.report.explain_text import EXPLAIN_TIMELINE_ENTRIES, render_explain
    from olmtui.report.json_report import dump_json, resolution_json

    namespace, _, subscription = str(args.target).partition("/")
    if not namespace:
        raise UsageError(f"explain: {args.target!r} names no namespace")
    session = session_of(args)
    read = session.store.read_namespaces
    if read is not None and namespace not in read:
        raise UsageError(f"explain: namespace {namespace} was not read (see --namespace)")
    if subscription and session.store.get(SUBSCRIPTION, namespace, subscription) is None:
        raise UsageError(f"explain: no Subscription {namespace}/{subscription} in the input")
    entries = session.analysis.resolutions([namespace])
    if not entries:
        raise UsageError(
            f"explain: namespace {namespace} holds no Subscription: nothing to resolve"
        )
    entry = resolution_json(entries[0])
    if args.output == "json":
        sys.stdout.write(dump_json(entry))
    else:
        # R-RES-17: why a Subscription's next bundle is not its channel head, as check says
        decided = session.analysis.decided_subscriptions(entries)
        not_head = [
            (s.name, s.upgrade.not_head_because)
            for s in decided
            if s.namespace == namespace
            and s.upgrade.decided_by == "resolver"
            and s.upgrade.not_head_because
        ]
        # R-EVD-11: the text ends with what happened in the namespace, in order
        timeline = namespace_timeline(
            session.store, namespace, EXPLAIN_TIMELINE_ENTRIES, indexes=session.analysis.model
        )
        reference = session.clock() if session.clock is not None else None
        live = session.kind != "snapshot"
        sys.stdout.write(
            render_explain(entry, subscription or None, not_head, timeline, reference, live)
        )
    return EXIT_STATUS[entry["status"]]
