"""The command-line flags every live command shares (``check --live``, ``snapshot``).

Kept apart from the live source so that building the CLI parser does not import the
Kubernetes client.
"""

from __future__ import annotations

import argparse

from olmtui.sources.live_options import LiveOptions


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--context", metavar="NAME", help="kubeconfig context to use")
    parser.add_argument(
        "--kubeconfig",
        metavar="FILE",
        help="kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)",
    )
    parser.add_argument(
        "--namespace",
        action="append",
        default=[],
        dest="namespaces",
        metavar="NS",
        help="read namespaced kinds only in NS (repeatable), for users who may not list "
        "cluster-wide",
    )


def options_from_args(args: argparse.Namespace) -> LiveOptions:
    return LiveOptions(
        kubeconfig=args.kubeconfig, context=args.context, namespaces=list(args.namespaces)
    )
