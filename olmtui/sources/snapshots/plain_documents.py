"""The fast path for the other documents of a must-gather: read line by line, as the full parse
reads them.

Past the copies (``fast_yaml``) and the Lists of Pods, Events and Jobs (``evidence_lists``),
a must-gather's documents are its CSVs, Subscriptions, InstallPlans, OperatorGroups and
Namespaces, one per file, each written by Go's YAML encoder in the block forms
``block_lines`` reads. libyaml composes their nodes in C, but as Python objects, asking
Python for each scalar's tag: 190 us for a Subscription of 50 nodes, 2.2 ms for a CSV of 350
lines, the largest part of what a must-gather's own objects cost ``check``. Read line by line
(one regular expression a line) they cost a third of that and two thirds.

Such a document is read here as :func:`block_lines.read_mapping` reads a mapping at column 0;
any value it does not read (a comment, a tag, a flow collection, a literal block with an
empty line, a float) is parsed alone by the full parse's own ``load``, once libyaml's parser
has found the whole document valid (``block_lines.Checked``). A document this cannot read so
(an anchor, a carriage return or byte-order mark, a line at column 0 that is no plain key: a
comment, a directive, ``...``; a key twice; no key at all) returns ``None``: the caller
parses it in full, which gives the value or the error it always gave.
"""

from __future__ import annotations

from typing import Any

from olmtui.sources.snapshots.block_lines import (
    Checked,
    Unreadable,
    has_anchor,
    lines_of,
    read_mapping,
)
from olmtui.sources.snapshots.fast_yaml import Load

#: A carriage return (CRLF files) and a byte-order mark: the full parse, to be plain.
_ODD = (b"\r", b"\xef\xbb\xbf")


def plain_document(chunk: bytes, load: Load) -> dict[str, Any] | None:
    """The document (a mapping, perhaps after a ``---`` line) as the full parse gives it,
    or ``None``: parse it in full. ``load`` must be the full parse's own, with its limits;
    the caller has found the document's nesting bounded and free of aliases."""
    body = chunk[4:] if chunk.startswith(b"---\n") else chunk
    if any(odd in body for odd in _ODD) or has_anchor(body):
        return None
    try:
        value = read_mapping(lines_of(body), 0, Checked(body).loading(load))
    except (Unreadable, RecursionError):
        return None
    return value or None  # no line at all: an empty document, which the full parse says
