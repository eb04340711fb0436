"""Limits on what one input file may make olmtui do, checked before the work is done.

Snapshots and catalogs come from anywhere (a ticket attachment, a download), so a file must
not be able to hang, crash or exhaust the process that reads it:

- only regular files are read, and each one (or archive member) only up to
  :data:`MAX_FILE_BYTES`: a FIFO named ``*.yaml`` would block the read forever, a link to
  ``/dev/zero`` never ends, a sparse file claims any size;
- a document nested deeper than :data:`MAX_DEPTH` is refused before it is parsed: libyaml's
  composer recurses in C, and a document 100,000 levels deep overflows the C stack (SIGSEGV);
- YAML aliases may not expand a document past :data:`MAX_ALIAS_NODES` nodes it does not hold
  ("billion laughs"), nor make it contain itself: every later walk over it (the store, the
  report, the YAML screen) would take exponential time or never end.

Each refusal is a sentence for a finding that names the file (and line): the rest of the input
is still read. The checks run on every document of a multi-gigabyte must-gather, so the
common case costs only a few ``bytes.count``/``bytes.find`` scans (bench/README.md).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

#: Nesting (mappings and sequences, flow or block) refused beyond this many levels.
MAX_DEPTH = 1000
#: The largest file, archive member or document read, in bytes.
MAX_FILE_BYTES = 256 << 20
#: The YAML/JSON bytes one archive may hold in memory until they are parsed.
MAX_ARCHIVE_KEPT_BYTES = 1 << 30
#: An archive stops being read once it has expanded to more than this many bytes and more than
#: :data:`MAX_EXPANSION_RATIO` times its compressed size: a gzip bomb expands ~1,000 times,
#: must-gathers (YAML and logs) ~10 to 30 times.
EXPANSION_FLOOR_BYTES = 256 << 20
MAX_EXPANSION_RATIO = 100
#: How many more nodes than it holds a YAML document's aliases may make it stand for.
MAX_ALIAS_NODES = 1_000_000
#: A block collection nests only by indentation or by ``- ``/``? ``/``: `` indicators, so a line
#: whose leading run of blanks and indicators is shorter than this nests fewer block levels.
_BLOCK_RUN = 200
_BLOCK_CHARS = b" \t-?:"
#: Blanks and indicators to ``" "``, everything else to ``"x"``.
_BLOCK_TABLE = bytes(0x20 if b in _BLOCK_CHARS else 0x78 for b in range(256))
_COLLECTION_START = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_COLLECTION_END = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Refused(Exception):
    """An input olmtui will not read; the message says why, for a finding."""


def special_file(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is neither a regular file nor a directory:
    never opened, since reading a FIFO blocks until a writer comes (forever, here)."""
    for test, what in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return what
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "not a regular file"


def size_text(size: int) -> str:
    """A byte count as people read it: ``4.0 GiB``."""
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def too_large(size: int, limit: int = MAX_FILE_BYTES) -> str:
    return (
        f"{size_text(size)}, larger than the {size_text(limit)} olmtui reads of one file; not read"
    )


def read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``Refused`` for anything else.

    The file is opened without blocking and checked on the open descriptor, so a FIFO put in
    its place after a listing cannot hang the read; it is read only up to ``limit + 1`` bytes,
    whatever size it claims (``/proc`` files claim 0, a growing log more than it had)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as stream:
        status = os.fstat(descriptor)
        special = special_file(status.st_mode)
        if special is not None or stat.S_ISDIR(status.st_mode):
            raise Refused(f"{special or 'a directory'}, not read")
        if status.st_size > limit:
            raise Refused(too_large(status.st_size, limit))
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise Refused(too_large(len(data), limit))
    return data


def _deeper_than(levels: int) -> str:
    return (
        f"nested deeper than {levels:,} levels (at least {levels + 1:,}); not parsed, as "
        "no Kubernetes object nests like this"
    )


DEPTH_PROBLEM = _deeper_than(MAX_DEPTH)


def yaml_too_deep(chunk: bytes) -> int | None:
    """The 0-based line of ``chunk`` (one YAML document) where its nesting passes
    :data:`MAX_DEPTH`, or ``None`` when it does not.

    The nesting is bounded first from the bytes alone: flow collections nest at most once per
    ``[``/``{``, block ones at most once per leading blank or indicator of a line. Only a
    document that may pass the limit by that bound is counted exactly, from libyaml's event
    stream (which keeps its own stacks: no recursion)."""
    openers = chunk.count(b"[") + chunk.count(b"{")
    if openers + _BLOCK_RUN + 2 <= MAX_DEPTH and b" " * _BLOCK_RUN not in chunk.translate(
        _BLOCK_TABLE
    ):
        return None
    return _yaml_depth_line(chunk)


def _yaml_depth_line(chunk: bytes) -> int | None:
    depth = 0
    try:
        for event in yaml.parse(chunk, Loader=_Loader):
            if isinstance(event, _COLLECTION_START):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    return 0 if mark is None else int(mark.line)
            elif isinstance(event, _COLLECTION_END):
                depth -= 1
    except yaml.YAMLError:
        return None  # the parse proper reports it, with its line
    return None


def json_depth_guard(text: str) -> None:
    """Make room for a JSON text's nesting in the decoder.

    CPython's decoder recurses in C, counted against the recursion limit, and raises
    ``RecursionError`` (never crashes) past it. A text with fewer ``[``/``{`` than
    :data:`MAX_DEPTH` cannot nest that deep; for any other, the limit is raised (never lowered)
    so that :data:`MAX_DEPTH` levels fit above the caller, and deeper ones raise: the caller
    reports those with :data:`DEPTH_PROBLEM`."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    needed = depth + MAX_DEPTH + 50
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def alias_problem(value: Any, chunk: bytes) -> str | None:
    """Why a loaded YAML document's aliases make it unusable, or ``None``.

    libyaml builds an alias as a second reference to the anchored node, so a loaded "billion
    laughs" is small, but every walk over it visits each reference: it is refused when it
    stands for more than :data:`MAX_ALIAS_NODES` nodes beyond those it holds, or contains
    itself. Only documents with both ``&`` and ``*`` can have aliases; the others are not
    walked."""
    if b"*" not in chunk or b"&" not in chunk or not isinstance(value, dict | list):
        return None
    expanded: dict[int, int] = {}  # nodes each finished collection stands for
    unique = 0
    open_nodes: set[int] = set()
    stack: list[tuple[Any, Iterator[Any]]] = []
    totals: list[int] = []

    def enter(node: Any) -> None:
        nonlocal unique
        unique += 1
        open_nodes.add(id(node))
        stack.append((node, iter(node.values() if isinstance(node, dict) else node)))
        totals.append(1)

    enter(value)
    while stack:
        node, children = stack[-1]
        child = next(children, _END)
        if child is _END:
            stack.pop()
            open_nodes.discard(id(node))
            total = expanded[id(node)] = totals.pop()
            if total - unique > MAX_ALIAS_NODES:
                return (
                    f"its aliases expand it to more than {MAX_ALIAS_NODES:,} nodes it does not "
                    'hold (an alias bomb, "billion laughs"); not loaded'
                )
            if totals:
                totals[-1] += total
        elif not isinstance(child, dict | list):
            totals[-1] += 1
        elif id(child) in open_nodes:
            return "an alias makes it contain itself (a recursive alias); not loaded"
        elif id(child) in expanded:
            totals[-1] += expanded[id(child)]
        else:
            enter(child)
    return None


_END = object()


def integer_problem(error: ValueError) -> str | None:
    """The finding text for Python's refusal of an integer literal past its digit limit
    (``sys.int_max_str_digits``, 4,300 by default), else ``None``."""
    if "integer string conversion" not in str(error):
        return None
    return (
        f"an integer of more than {sys.get_int_max_str_digits():,} digits (the most Python "
        "converts); not loaded"
    )
