"""The command-line flags every live command shares (the dashboard, ``check --live``,
``snapshot``), and how the ones given before a sub-command reach it.

Kept apart from the live source so that building the CLI parser does not import the
Kubernetes client.

The flags are accepted both before the sub-command (``olmtui --context prod check --live``)
and after it. argparse lets a sub-command's defaults overwrite what the top level parsed, so
the two places store into different attributes and :func:`merge_leading_connection` joins
them: a value given in one place applies; the same flag given twice with different values,
or given to a sub-command that reads no cluster, is a usage error. Never silently dropped:
that read the current context's cluster when the user named another.
"""

from __future__ import annotations

import argparse
from typing import Any

from olmtui.errors import UsageError
from olmtui.sources.cluster.live_options import LiveOptions

#: Flag -> the attribute a sub-command's parser stores it in.
CONNECTION_FLAGS: dict[str, str] = {
    "--context": "context",
    "--kubeconfig": "kubeconfig",
    "--namespace": "namespaces",
    "--request-timeout": "request_timeout",
}
#: Prefix of the attributes the top-level parser stores the flags in.
LEADING = "leading_"


def connection_given(args: argparse.Namespace) -> bool:
    """Whether any connection option (:data:`CONNECTION_FLAGS`) was given: commands that
    read no cluster refuse them."""
    return any(getattr(args, dest, None) for dest in CONNECTION_FLAGS.values())


class _EveryValue(argparse.Action):
    """A flag that may repeat (``check --fleet``'s ``--context`` and ``--kubeconfig``): the
    first value in its own attribute, as a single read uses it, every value in ``every``."""

    def __init__(self, *args: Any, every: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.every = every

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.every, [*(getattr(namespace, self.every, None) or ()), values])
        if getattr(namespace, self.dest, None) is None:
            setattr(namespace, self.dest, values)


def add_connection_arguments(
    parser: argparse.ArgumentParser,
    *,
    leading: bool = False,
    once: bool = False,
    repeatable: bool = False,
) -> None:
    """The connection flags; ``leading`` for the top-level parser (before the sub-command);
    ``once`` for the commands that read the cluster once (``check``, ``explain``,
    ``snapshot``), whose ``--request-timeout`` bounds the whole read; the dashboard's (and
    ``serve``'s, passed on to each session) bounds its start. ``repeatable``: ``--context``
    and ``--kubeconfig`` may repeat (``check --fleet``), every value kept in ``contexts``
    and ``kubeconfigs``."""
    prefix = LEADING if leading else ""
    every: dict[str, Any] = {}
    if repeatable:
        parser.set_defaults(**{f"{prefix}contexts": None, f"{prefix}kubeconfigs": None})
        every = {"action": _EveryValue}
    what = "answered everything" if once else "answered connecting (the dashboard's start)"
    parser.add_argument(
        "--request-timeout",
        dest=f"{prefix}request_timeout",
        type=duration,
        default=None,
        metavar="DURATION",
        help=f"give up when the cluster has not {what} within DURATION (seconds, or with a "
        "unit: 30s, 2m; default 30s)",
    )
    parser.add_argument(
        "--context",
        dest=f"{prefix}context",
        metavar="NAME",
        help="kubeconfig context to use" + (" (repeatable with --fleet)" if repeatable else ""),
        **({**every, "every": f"{prefix}contexts"} if repeatable else {}),
    )
    parser.add_argument(
        "--kubeconfig",
        dest=f"{prefix}kubeconfig",
        metavar="FILE",
        help="kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)"
        + ("; repeatable with --fleet" if repeatable else ""),
        **({**every, "every": f"{prefix}kubeconfigs"} if repeatable else {}),
    )
    parser.add_argument(
        "--namespace",
        action="append",
        default=[],
        dest=f"{prefix}namespaces",
        metavar="NS",
        help="read namespaced kinds only in NS (repeatable), for users who may not list "
        "cluster-wide",
    )


def merge_leading_connection(args: argparse.Namespace) -> None:
    """Move the flags given before the sub-command into the attributes it reads.

    ``--namespace`` is repeatable, so both places add up. ``UsageError`` when a sub-command
    that takes no connection flags got one, or when ``--context``/``--kubeconfig`` were given
    in both places with different values.
    """
    command = getattr(args, "command", None)
    _merge_repeated(args, command)
    for flag, dest in CONNECTION_FLAGS.items():
        leading = getattr(args, LEADING + dest)
        delattr(args, LEADING + dest)
        if command is None:  # the dashboard: only the top level exists
            setattr(args, dest, leading)
            continue
        if not leading:
            continue
        if not hasattr(args, dest):
            raise UsageError(f"{flag} does not apply to `olmtui {command}` (it reads no cluster)")
        given = getattr(args, dest)
        if dest == "namespaces":
            setattr(args, dest, list(dict.fromkeys([*leading, *given])))
        elif given is None:
            setattr(args, dest, leading)
        elif given != leading:
            raise UsageError(
                f"{flag} given twice: {leading} before `{command}` and {given} after it; give one"
            )


def _merge_repeated(args: argparse.Namespace, command: str | None) -> None:
    """Every ``--context``/``--kubeconfig`` given before the sub-command (the Fleet
    dashboard's, ``olmtui --fleet``): the dashboard's own; added to a command's that repeats
    them (``check --fleet``); refused by one that reads a single cluster."""
    for flag, dest in (("--context", "contexts"), ("--kubeconfig", "kubeconfigs")):
        leading = getattr(args, LEADING + dest, None)
        if hasattr(args, LEADING + dest):
            delattr(args, LEADING + dest)
        if command is None:
            setattr(args, dest, leading)
        elif leading and len(leading) > 1:
            if not hasattr(args, dest):
                raise UsageError(f"several {flag} apply to `olmtui {command}` only with --fleet")
            given = getattr(args, dest) or []
            setattr(args, dest, list(dict.fromkeys([*leading, *given])))


def options_from_args(args: argparse.Namespace) -> LiveOptions:
    options = LiveOptions(
        kubeconfig=args.kubeconfig, context=args.context, namespaces=list(args.namespaces)
    )
    timeout = getattr(args, "request_timeout", None)
    if timeout is not None:  # it bounds the whole read, credentials included
        options.request_timeout = timeout
        options.exec_timeout = min(options.exec_timeout, timeout)
    return options


#: Seconds per unit of a ``--request-timeout`` value, as kubectl writes them.
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def duration(text: str) -> float:
    """``--request-timeout``'s value in seconds: ``30``, ``30s``, ``1.5m``, ``500ms`` (> 0)."""
    raw = text.strip()
    unit = next((u for u in ("ms", "s", "m", "h") if raw.endswith(u)), "")
    try:
        seconds = float(raw[: len(raw) - len(unit)]) * _UNITS.get(unit, 1.0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (e.g. 30s, 2m)") from None
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"not a positive duration: {text!r}")
    return seconds
