"""Limits on what one input file may make olmtui do, checked before the work is done.

Snapshots and catalogs come from anywhere (a ticket attachment, a download), so a file must
not be able to hang, crash or exhaust the process that reads it:

- only regular files are read, and each one (or archive member) only up to
  :data:`MAX_FILE_BYTES`: a FIFO named ``*.yaml`` would block the read forever, a link to
  ``/dev/zero`` never ends, a sparse file claims any size;
- a document nested deeper than :data:`MAX_DEPTH` is refused before it is parsed: libyaml's
  composer recurses in C, and a document 100,000 levels deep overflows the C stack (SIGSEGV);
- YAML aliases may not expand a document past :data:`MAX_ALIAS_NODES` nodes it does not hold
  ("billion laughs"), nor past :data:`MAX_ALIAS_TEXT` characters of text beyond its own size
  (one long string aliased thousands of times), nor make it contain itself: every later walk
  over it (the store, the report, the YAML screen) would take exponential time or memory, or
  never end.

Each refusal is a sentence for a finding that names the file (and line): the rest of the input
is still read. The checks run on every document of a multi-gigabyte must-gather, so the
common case costs only a few ``bytes.count``/``bytes.find`` scans (bench/README.md).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from olmtui.frozen import frozen

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
#: How many more characters of text (keys and strings) than its own bytes a YAML document's
#: aliases may make it stand for: 3,000 aliases of a 1 MiB string are 3,000 nodes, but 3 GiB
#: for every dump of the object (the YAML screen's ``y``).
MAX_ALIAS_TEXT = 16 << 20
#: Documents that may nest deeper than :data:`MAX_DEPTH` but not this deep are loaded, then
#: measured: libyaml's composer recurses in C, 200-400 bytes of stack a level (it loads 2,500
#: levels on a 1 MiB thread stack, and crashes at 5,000). Deeper ones are counted from the
#: event stream before they are loaded.
SAFE_LOAD_DEPTH = 2500
#: A block collection nests only by indentation or by ``- ``/``? ``/``: `` indicators, so a line
#: whose leading run of blanks and indicators is shorter than N nests at most N + 2 levels.
_BLOCK_RUNS = (200, 1000)
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
    if stat.S_ISREG(mode):
        return None  # nearly every file: one test, not five
    for test, what in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return what
    if stat.S_ISDIR(mode):
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


def read_regular(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``Refused`` for anything else.

    The file is opened without blocking and checked on the open descriptor, so a FIFO put in
    its place after a listing cannot hang the read; it is read only up to ``limit + 1`` bytes,
    whatever size it claims (``/proc`` files claim 0, a growing log more than it had).

    Read with ``os.read`` on the descriptor, no buffered file object: a must-gather is
    thousands of small files, and building a reader for each cost three times the reads."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(descriptor)
        special = special_file(status.st_mode)
        if special is not None or stat.S_ISDIR(status.st_mode):
            raise Refused(f"{special or 'a directory'}, not read")
        if status.st_size > limit:
            raise Refused(too_large(status.st_size, limit))
        # never ``limit``; as many bytes as it says it holds are all of it
        data = _read_up_to(descriptor, min(status.st_size, limit) + 1, status.st_size)
        if len(data) > status.st_size:  # it holds more than it claims
            data += _read_up_to(descriptor, limit + 1 - len(data))
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise Refused(f"holds more than the {size_text(limit)} olmtui reads of one file; not read")
    return data


def _read_up_to(descriptor: int, size: int, whole: int = -1) -> bytes:
    """At most ``size`` bytes from the descriptor: fewer only at its end (a read may return
    less than asked before that), or once ``whole`` bytes came (the size ``fstat`` gave):
    the read that would only find the end is not made, one system call of each of a
    must-gather's thousands of files. A file grown since gives more than ``whole``."""
    first = os.read(descriptor, size)
    if len(first) == size or not first or len(first) == whole:
        return first
    pieces = [first]
    left = size - len(first)
    while left > 0:
        piece = os.read(descriptor, left)
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


DEPTH_PROBLEM = f"nested deeper than {MAX_DEPTH:,} levels (no Kubernetes object nests that deep)"


@frozen
class Nesting:
    """What the bytes of one YAML document say of its nesting, before it is loaded."""

    #: The 0-based line of the document where it passes :data:`MAX_DEPTH`: not to be loaded.
    too_deep_at: int | None = None
    #: It may pass :data:`MAX_DEPTH` (but loads safely): measure the loaded value.
    measure: bool = False


def yaml_nesting(chunk: bytes) -> Nesting:
    """How deep one YAML document may nest, bounded from its bytes alone.

    Flow collections nest at most once per ``[``/``{``, block ones at most once per leading
    blank or indicator of a line. Nearly every document is shallower than :data:`MAX_DEPTH`
    by that bound. One whose bound passes :data:`SAFE_LOAD_DEPTH` (brackets in long strings,
    or a hostile document) is counted exactly from libyaml's event stream, which keeps its own
    stacks (no recursion), before it is loaded; one in between is loaded and measured."""
    return nesting_of(chunk, nesting_bound(chunk))


def nesting_bound(text: bytes) -> int:
    """The bound :func:`yaml_nesting` puts on a document from its bytes. For a document cut
    at line starts into parts it is the sum of the parts' bracket counts plus the largest
    of their block bounds (a run of blanks never spans a line feed)."""
    return text.count(b"[") + text.count(b"{") + block_bound(text)


def nesting_of(chunk: bytes, bound: int) -> Nesting:
    """:func:`yaml_nesting` of ``chunk`` given its bound (from :func:`nesting_bound`)."""
    if bound <= MAX_DEPTH:
        return _SHALLOW
    if bound <= SAFE_LOAD_DEPTH:
        return _MEASURE
    line = _yaml_depth_line(chunk)
    return _SHALLOW if line is None else Nesting(too_deep_at=line)


def block_bound(chunk: bytes) -> int:
    """At most how many block collections the document nests: one per leading blank or
    indicator (``-``, ``?``, ``:``) of a line, found as a long run of such characters."""
    blanks = chunk.translate(_BLOCK_TABLE)
    for run in _BLOCK_RUNS:
        if b" " * run not in blanks:
            return run + 2
    return SAFE_LOAD_DEPTH + 1


_SHALLOW = Nesting()
_MEASURE = Nesting(measure=True)


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
    except yaml.YAMLError as exc:
        return libyaml_too_deep(exc)  # else the parse proper reports it, with its line
    return None


#: What libyaml itself says past its own nesting limit (PyYAML 6.0.4 and later: 1,000 levels,
#: a block collection at exactly 1,000 included).
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


def libyaml_too_deep(error: yaml.YAMLError) -> int | None:
    """The line (0-based, in the document) where libyaml stopped for nesting too deep, when
    that is the error: the same refusal as :data:`DEPTH_PROBLEM`, said the same way."""
    if getattr(error, "problem", None) != _LIBYAML_TOO_DEEP:
        return None
    mark = getattr(error, "problem_mark", None)
    return 0 if mark is None else int(mark.line)


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


def whole_value_check(chunk: bytes, nesting: Nesting) -> Callable[[Any], str | None] | None:
    """The check a loaded YAML document needs, or ``None`` when its bytes show it needs none:
    why the value is unusable, or ``None``. It is unusable when nested deeper than
    :data:`MAX_DEPTH` (measured only when its bytes allowed it), or when aliases make it
    contain itself or stand for more than :data:`MAX_ALIAS_NODES` nodes beyond those it holds
    or :data:`MAX_ALIAS_TEXT` characters of keys and strings beyond its own bytes (a string's
    characters never outnumber the bytes that write it, so aliases alone pass that bound).

    libyaml builds an alias as a second reference to the anchored node, so a loaded "billion
    laughs" is small, but every later walk over it visits each reference. Only documents with
    both ``&`` and ``*`` can have aliases. The walk visits each node once, whatever refers to
    it, and keeps its own stack."""
    aliased = b"*" in chunk and b"&" in chunk
    if not (aliased or nesting.measure):
        return None
    return partial(_value_problem, held=len(chunk))


def _value_problem(value: Any, held: int) -> str | None:
    return _Walk(held).problem(value) if isinstance(value, dict | list) else None


class _Walk:
    """One post-order walk over a loaded document, each collection visited once."""

    def __init__(self, held: int) -> None:
        #: the document's own bytes: no more text than this without aliases
        self.held = held
        #: per finished collection: (nodes it stands for, levels it nests, characters)
        self.done: dict[int, tuple[int, int, int]] = {}
        self.unique = 0
        self.open: set[int] = set()
        self.stack: list[tuple[Any, Iterator[Any]]] = []
        #: per open collection: [nodes so far, levels of its deepest child, characters]
        self.sizes: list[list[int]] = []

    def enter(self, node: Any) -> str | None:
        if len(self.stack) >= MAX_DEPTH:
            return DEPTH_PROBLEM
        self.unique += 1
        self.open.add(id(node))
        keys = sum(map(_text_size, node)) if isinstance(node, dict) else 0
        self.stack.append((node, iter(node.values() if isinstance(node, dict) else node)))
        self.sizes.append([1, 0, keys])
        return None

    def problem(self, value: Any) -> str | None:
        problem = self.enter(value)
        while self.stack and problem is None:
            node, children = self.stack[-1]
            child = next(children, _END)
            if child is _END:
                problem = self.leave(node)
            elif not isinstance(child, dict | list):
                self.sizes[-1][0] += 1
                self.sizes[-1][2] += _text_size(child)
            elif id(child) in self.open:
                problem = "an alias makes it contain itself (a recursive alias)"
            elif id(child) in self.done:
                problem = self.add(*self.done[id(child)])
            else:
                problem = self.enter(child)
        return problem

    def add(self, nodes: int, levels: int, text: int) -> str | None:
        """A finished child into the open collection above it."""
        size = self.sizes[-1]
        size[0] += nodes
        size[1] = max(size[1], levels)
        size[2] += text
        if len(self.stack) + levels > MAX_DEPTH:
            return DEPTH_PROBLEM
        return None

    def leave(self, node: Any) -> str | None:
        self.stack.pop()
        self.open.discard(id(node))
        nodes, child_levels, text = self.sizes.pop()
        self.done[id(node)] = (nodes, child_levels + 1, text)
        if nodes - self.unique > MAX_ALIAS_NODES:
            return (
                f"its aliases expand it to more than {MAX_ALIAS_NODES:,} nodes it does not hold "
                '(an alias bomb, "billion laughs")'
            )
        if text - self.held > MAX_ALIAS_TEXT:
            return (
                f"its aliases expand it to more than {size_text(MAX_ALIAS_TEXT)} of text beyond "
                f"its own {size_text(self.held)} (an alias bomb)"
            )
        return self.add(nodes, child_levels + 1, text) if self.sizes else None


def _text_size(value: Any) -> int:
    """The characters a key or scalar writes as text (strings and binary; others: none)."""
    return len(value) if isinstance(value, str | bytes) else 0


_END = object()


def integer_problem(error: ValueError) -> str | None:
    """The finding text for Python's refusal of an integer literal past its digit limit
    (``sys.int_max_str_digits``, 4,300 by default), else ``None``."""
    if "integer string conversion" not in str(error):
        return None
    return (
        f"an integer of more than {sys.get_int_max_str_digits():,} digits (the most Python "
        "converts)"
    )


#: A lone UTF-16 surrogate: JSON may write one as an escape (``"\ud800"``), no text holds it.
_SURROGATE = re.compile("[\ud800-\udfff]")


def may_hold_surrogates(text: str, start: int, end: int) -> bool:
    """Whether the JSON text between ``start`` and ``end`` may decode to a lone surrogate:
    only a ``\\uD800``-``\\uDFFF`` escape does (a pair decodes to one character)."""
    return text.find("\\ud", start, end) >= 0 or text.find("\\uD", start, end) >= 0


def replace_surrogates(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (keys too) replaced by U+FFFD, as the
    API server's JSON decoder (Go's ``encoding/json``) reads it: such an object on a cluster
    holds U+FFFD. A lone surrogate has no UTF-8 form, so every ``str.encode`` over it (the
    resolver's byte order, the report, the browser dashboard) would fail."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if not isinstance(value, dict | list):
        return value
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            for index, item in enumerate(node):
                if isinstance(item, str):
                    node[index] = _SURROGATE.sub("\ufffd", item)
                elif isinstance(item, dict | list):
                    stack.append(item)
            continue
        items = [(_SURROGATE.sub("\ufffd", k), v) for k, v in node.items()]
        node.clear()
        for key, item in items:
            node[key] = _SURROGATE.sub("\ufffd", item) if isinstance(item, str) else item
            if isinstance(item, dict | list):
                stack.append(item)
    return value
