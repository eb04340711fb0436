"""The fast path for copied CSVs: parse only the parts of a YAML document the store keeps.

OLM copies every AllNamespaces CSV into every namespace, spec and all (R-COPY-4), so copies
are nearly all of a large snapshot's bytes, and the store keeps only their metadata and
status phase/reason/message (``store.trim``). Building the Python objects of a copy's spec
(thousands of nodes) is where a full parse spends its time, only for the store to drop them.

Exactness comes from cutting a document at its top-level keys, where YAML itself cuts it.
A document qualifies when every line at column 0 is a known top-level key (``apiVersion``,
``kind``, ``metadata``, ``spec``, ``status``, each at most once), so that no column-0 line
is a comment, directive, document marker, sequence entry or unusual key; nothing in it is an
carriage return or byte-order mark. Each such section is then a YAML
document of its own, and it is parsed as one (by the full parse's own ``load``)
and must come out as exactly its one key: a quoted or flow scalar running across a section
line, an alias to another section's anchor, a tag, bad UTF-8 or any other oddity makes some
section fail alone, and the document goes to the full parse. When every section parses
alone into its one key, the full parse of the document is the union of the sections.

The spec of a copy is only checked (a mapping or null, as ``object_problem`` wants), and a
copy's status gives only the fields the store keeps; both are remembered by their exact
bytes, since a copy's spec and status are those of its parent, identical text in every
namespace. A section whose bytes were seen and parsed alone before needs no parse again:
the same bytes parse the same way. So a copy costs the parse of its metadata.

Anything else (a CSV that turns out not to be a copy, a section that fails, a spec that is
not a mapping) returns ``None`` and the caller parses the document in full, which gives the
value or the error it gives today.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from olmtui.store import COPIED_FROM_LABEL, is_copied_csv

#: How a YAML document is parsed: the caller's own (``snapshot_documents``), so that every
#: limit it puts on a parse holds for the sections too.
Load = Callable[[bytes], Any]

#: The top-level keys a copied CSV document may have (any other key: the full parse).
_SECTION_KEYS = (b"apiVersion", b"kind", b"metadata", b"spec", b"status")
#: A line at column 0 (after the first): a line feed then anything but a space or a feed.
_COLUMN_ZERO = re.compile(rb"\n[^ \n]")
#: A section start: one of the keys, its colon, then a blank or the line end.
_SECTION_START = re.compile(rb"(apiVersion|kind|metadata|spec|status):(?=[ \n])")
#: A carriage return (CRLF files) and a byte-order mark: the full parse, to be plain. The
#: other line breaks libyaml honours (NEL, LS, PS) stay inside a section, parse there as in
#: the whole document, and a key they would start comes out as a second key of the section.
_ODD = (b"\r", b"\xef\xbb\xbf")
#: The status fields a copy keeps (``store.trim``).
_COPY_STATUS = ("phase", "reason", "message")
#: The hint that a document may be a copy, before anything is parsed.
_COPY_HINT = COPIED_FROM_LABEL.encode()
_CSV_HINT = b"\nkind: ClusterServiceVersion\n"
#: How many bytes of section text the remembered sections may hold (per process).
_REMEMBERED_BYTES = 64 * 1024 * 1024
_IMMUTABLE = (str, int, float, bool, type(None))


class _Remembered:
    """Sections parsed alone before, by their exact bytes: a spec that was a mapping or
    null (``True``), a status as the fields a copy keeps (a dict of immutable values)."""

    def __init__(self) -> None:
        self.specs: dict[bytes, bool] = {}
        self.statuses: dict[bytes, dict[str, Any]] = {}
        self.size = 0

    def _room(self, more: int) -> None:
        if self.size + more > _REMEMBERED_BYTES:
            self.specs.clear()
            self.statuses.clear()
            self.size = 0
        self.size += more

    def spec_ok(self, text: bytes, load: Load) -> bool:
        if text in self.specs:
            return True
        value = _alone(text, "spec", load)
        if value is _FAILED or not (value is None or isinstance(value, dict)):
            return False
        self._room(len(text))
        self.specs[text] = True
        return True

    def status(self, text: bytes, load: Load) -> dict[str, Any] | None:
        kept = self.statuses.get(text)
        if kept is not None:
            return dict(kept)
        value = _alone(text, "status", load)
        if value is _FAILED or not (value is None or isinstance(value, dict)):
            return None
        kept = {k: value[k] for k in _COPY_STATUS if k in value} if value else {}
        if all(isinstance(v, _IMMUTABLE) for v in kept.values()):
            self._room(len(text))
            self.statuses[text] = kept
            return dict(kept)
        return kept


_FAILED = object()
_remembered = _Remembered()


def _alone(text: bytes, key: str, load: Load) -> Any:
    """The value of a section parsed as a document of its own, or ``_FAILED`` when it does
    not parse or is not exactly the one mapping key it should be."""
    try:
        parsed = load(text)
    except Exception:  # anything at all: the full parse gives today's value or error
        return _FAILED
    if type(parsed) is not dict or len(parsed) != 1 or key not in parsed:
        return _FAILED
    return parsed[key]


def _sections(chunk: bytes) -> dict[str, bytes] | None:
    """The document cut at its top-level keys, or ``None`` when it does not qualify."""
    body = chunk
    if body.startswith(b"---"):
        if not body.startswith(b"---\n"):
            return None
        body = body[4:]
    if _ODD[0] in body or _ODD[1] in body:
        return None
    starts = [0, *(m.start() + 1 for m in _COLUMN_ZERO.finditer(body))]
    sections: dict[str, bytes] = {}
    for begin, end in zip(starts, [*starts[1:], len(body)], strict=True):
        match = _SECTION_START.match(body, begin)
        if match is None:
            return None
        key = match.group(1).decode()
        if key in sections:
            return None
        sections[key] = body[begin:end]
    return sections


def copied_csv(chunk: bytes, load: Load) -> dict[str, Any] | None:
    """A copied CSV document as the store will keep it (metadata in full, the status
    fields a copy keeps, no spec), or ``None``: parse this document in full. ``load``
    parses one YAML document, as the full parse does."""
    if _COPY_HINT not in chunk or _CSV_HINT not in chunk:
        return None
    sections = _sections(chunk)
    if sections is None or "spec" not in sections or "metadata" not in sections:
        return None
    obj: dict[str, Any] = {}
    for key in ("apiVersion", "kind", "metadata"):
        if key in sections:
            value = _alone(sections[key], key, load)
            if value is _FAILED:
                return None
            obj[key] = value
    if "status" in sections:
        status = _remembered.status(sections["status"], load)
        if status is None:
            return None
        obj["status"] = status
    if obj.get("kind") != "ClusterServiceVersion" or not _is_copy(obj):
        return None
    if not _remembered.spec_ok(sections["spec"], load):
        return None
    return obj


def _is_copy(obj: dict[str, Any]) -> bool:
    """R-COPY-1 as the store decides it, on a metadata shaped as the store expects."""
    metadata = obj["metadata"]
    if not isinstance(metadata, dict):
        return False
    if not all(isinstance(metadata.get(f), dict | None) for f in ("labels", "annotations")):
        return False
    return is_copied_csv(obj)
