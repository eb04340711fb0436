"""``olmtui record``: record a live cluster headless (under systemd, in a tmux pane, in a pod)
to a file that ``check --at``, ``replay`` and ``diff FILE@TIME`` read at any moment.

It reads as the dashboard does (GET only, the same list+watch informers) and writes what the
cache holds, each change with its time (``docs/recording-format.md``). SIGTERM and Ctrl-C
close the file cleanly; a SIGKILL loses at most the last second (R-REC-3). stderr says what
is recorded and where, then one line per reconnect and per change of what may be read.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import signal
import sys

from olmtui.sources.cluster.live_args import add_connection_arguments, options_from_args

NAME = "record"
HELP = (
    "Record the live cluster's OLM state to a file (compressed, rotated by age and size), "
    "for check --at, replay and diff."
)

#: Seconds per unit of a ``--max-age``.
_AGE_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 7 * 86400.0}
#: Bytes per unit of a ``--max-size`` (SI and binary prefixes, as people write them).
_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 10**3,
    "kb": 10**3,
    "m": 10**6,
    "mb": 10**6,
    "g": 10**9,
    "gb": 10**9,
    "t": 10**12,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}
_AMOUNT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*")


def age(text: str) -> float:
    """``--max-age``: ``7d``, ``12h``, ``90m``, ``1w``; seconds without a unit."""
    match = _AMOUNT.fullmatch(text)
    unit = match[2].lower() if match else ""
    if match is None or unit not in {*_AGE_UNITS, ""} or float(match[1]) <= 0:
        raise argparse.ArgumentTypeError(f"not an age: {text!r} (e.g. 7d, 12h, 90m)")
    return float(match[1]) * _AGE_UNITS.get(unit, 1.0)


def size(text: str) -> int:
    """``--max-size``: ``1GB``, ``500MB``, ``2GiB``; bytes without a unit."""
    match = _AMOUNT.fullmatch(text)
    unit = match[2].lower() if match else ""
    if match is None or unit not in _SIZE_UNITS or float(match[1]) <= 0:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 1GB, 500MB)")
    return int(float(match[1]) * _SIZE_UNITS[unit])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "FILE is the newest part; older parts are FILE.1, FILE.2, ... (oldest removed first). "
        "An existing recording at FILE becomes FILE.1. Stop with SIGTERM or Ctrl-C."
    )
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the recording")
    add_connection_arguments(parser)
    parser.add_argument(
        "--max-age",
        type=age,
        default=age("7d"),
        metavar="AGE",
        help="remove the parts last written longer ago than AGE (default 7d)",
    )
    parser.add_argument(
        "--max-size",
        type=size,
        default=size("1GB"),
        metavar="SIZE",
        help="keep all parts together under SIZE (default 1GB)",
    )


def run(args: argparse.Namespace) -> int:
    from olmtui.pipeline.build import live_recorder
    from olmtui.pipeline.recording import RecordTo
    from olmtui.sources.recording.rotation import Rotation

    options = options_from_args(args)
    target = RecordTo(args.output, Rotation(max_age=args.max_age, max_size=args.max_size), say=_say)
    runner = live_recorder(options, target)
    scope = f" in {', '.join(options.namespaces)}" if options.namespaces else ""
    _say(
        f"recording {options.context or 'the current context'}{scope} to {args.output} "
        f"(parts rotated at {_size_text(args.max_size // 8)}, all under "
        f"{_size_text(args.max_size)}, none older than {_age_text(args.max_age)}); "
        "SIGTERM or Ctrl-C stops"
    )
    import asyncio  # here: every command's parser is built, and check needs no event loop

    asyncio.run(_until_signalled(runner))
    _say(f"stopped; {args.output} closed")
    return 0


async def _until_signalled(runner: object) -> None:
    """Run the recorder until SIGTERM or SIGINT, which cancel it (the file is closed by the
    runner's own cleanup)."""
    import asyncio

    task = asyncio.ensure_future(runner())  # type: ignore[operator]
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, task.cancel)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)


def _say(line: str) -> None:
    from olmtui.report.text_report import safe  # names come from the cluster: made inert

    print(f"olmtui record: {safe(line)}", file=sys.stderr, flush=True)


def _size_text(amount: int) -> str:
    for unit, factor in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if amount >= factor:
            return f"{amount / factor:g}{unit}"
    return f"{amount}B"


def _age_text(seconds: float) -> str:
    for unit, factor in (("d", 86400.0), ("h", 3600.0), ("m", 60.0)):
        if seconds >= factor:
            return f"{seconds / factor:g}{unit}"
    return f"{seconds:g}s"
