"""An Event of a must-gather's ``core/events.yaml`` read with one regular expression, in the
shape ``oc`` writes it, building only what the cache reads of it (R-EVD-1).

A must-gather holds up to a hundred thousand Events, each some 25 lines: read line by line
(``block_lines``), they cost four times the parse of everything else in ``check``. ``oc``
writes each the same way: its keys sorted, at two spaces, each a one-line value or a block
of one-line entries at four spaces (``involvedObject``, ``metadata``, ``source``), the
message perhaps folded over more deeply indented lines. One match of :data:`_ITEM` says
whether an item has this shape and cuts it at its entries; anything else (another key, a
key twice or out of order, a list, a deeper block, a comment) makes the caller read the
item line by line, as before.

Every value is read by ``block_lines``' own forms (``scalar``, and ``Reader`` for a folded
message), the values the cache drops too (``source``, ``reporting*``, the involved object's
``uid``...): they are checked, not kept, so that a value the full parse would fail on
(``2021-13-45``) fails here too. Each line of such an item is then a complete YAML line of
one of those plain forms at the indentation its place demands, so the item is valid YAML
on its own: its List needs libyaml's check (``raw_parse``) only when an item is read
otherwise.
"""

from __future__ import annotations

import re
from typing import Any

from olmtui.sources.snapshots.block_lines import (
    MISSING,
    SCALARS,
    Fallback,
    Reader,
    Unreadable,
    scalar,
    simple_block,
)

#: The top-level entries an item may have, in ``oc``'s (sorted) order: a one-line value
#: (``line``), a one-line value perhaps folded over deeper lines (``folded``), or a block of
#: lines at four spaces or more (``block``); and whether the cache reads it.
_ENTRIES: tuple[tuple[str, str, bool], ...] = (
    ("action", "line", False),
    ("apiVersion", "line", True),
    ("count", "line", True),
    ("eventTime", "line", True),
    ("firstTimestamp", "line", True),
    ("involvedObject", "block", True),
    ("kind", "line", True),
    ("lastTimestamp", "line", True),
    ("message", "folded", True),
    ("metadata", "block", True),
    ("reason", "line", True),
    ("related", "block", False),
    ("reportingComponent", "line", False),
    ("reportingInstance", "line", False),
    ("series", "block", False),
    ("source", "block", False),
    ("type", "line", True),
)
_FORMS = {
    "line": rb"(?:  %s: ([^\n]*)\n)?",
    "folded": rb"(?:  %s: ([^\n]*(?:\n   [^\n]*)*)\n)?",
    "block": rb"(?:  %s:\n((?:    [^\n]*\n)+))?",
}
#: An item (its first line's ``- `` written as two spaces, every line ending in a line
#: feed) of the shape above, a group per entry.
_ITEM = re.compile(b"".join(_FORMS[form] % key.encode() for key, form, _ in _ENTRIES))
#: Per entry: its key, and how it is read (a ``_LINE``, ``_FOLDED`` or ``_BLOCK`` value the
#: cache reads; ``_CHECKED``: a one-line or block value it drops, only checked).
_LINE, _FOLDED, _BLOCK, _CHECKED = range(4)
_HOW = tuple(
    (key, {"line": _LINE, "folded": _FOLDED, "block": _BLOCK}[form] if kept else _CHECKED)
    for key, form, kept in _ENTRIES
)


def event_item(text: bytes) -> dict[str, Any] | None:
    """The Event ``text`` holds (its ``- `` written as two spaces, each line ending in a
    line feed) with the entries the cache reads, or ``None``: read it otherwise."""
    match = _ITEM.fullmatch(text)
    if match is None or not text:
        return None
    try:
        return _read(match.groups())
    except Unreadable:
        return None


def _read(groups: tuple[bytes | None, ...]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    scalars, missing = SCALARS, MISSING
    for (key, how), found in zip(_HOW, groups, strict=True):
        if found is None:
            continue
        if how == _LINE:
            value = scalars.get(found, missing)
            obj[key] = scalar(found) if value is missing else value
        elif how == _BLOCK:
            obj[key] = simple_block(found, 4) if key == "metadata" else _involved(found)
        elif how == _FOLDED:
            obj[key] = _folded(found) if b"\n" in found else scalar(found)
        elif found.startswith(b"    "):
            simple_block(found, 4, remember=True)
        elif scalars.get(found, missing) is missing:
            scalar(found)
    return obj


#: What the cache reads of an Event's involved object (``store_evidence.event_subject``).
_SUBJECT = ("kind", "name", "namespace")
#: Involved objects read before, by their text: an object's Events follow one another.
_subjects: dict[bytes, dict[str, Any]] = {}
_SUBJECTS_REMEMBERED = 1 << 12


def _involved(text: bytes) -> dict[str, Any]:
    """The involved object's kind, name and namespace (its other entries checked only)."""
    known = _subjects.get(text)
    if known is None:
        block = simple_block(text, 4)
        known = {key: block[key] for key in _SUBJECT if key in block}
        if any(type(value) in (dict, list) for value in known.values()):
            return known
        if len(_subjects) >= _SUBJECTS_REMEMBERED:
            _subjects.clear()
        _subjects[text] = known
    return known.copy()


def _refused(part: list[bytes]) -> tuple[str, Any]:
    raise Unreadable(part[0])


_NO_FALLBACK: Fallback = _refused


#: A single-quoted text folded over deeper lines, as Go's encoder folds a long message:
#: printable ASCII without a quote, each line after the first starting with a character.
_FOLDED_QUOTED = re.compile(
    rb"'[\x20-\x26\x28-\x7e]*(?:\n +[\x21-\x26\x28-\x7e][\x20-\x26\x28-\x7e]*)+'"
)


def _folded(text: bytes) -> Any:
    """A value on its key's line continued on deeper lines (a folded plain or quoted text,
    a literal block), read as ``block_lines`` reads it: a folded single-quoted text here
    (each line break and the blanks around it one space), any other with ``Reader``."""
    lines = text.split(b"\n")
    if _FOLDED_QUOTED.fullmatch(text) is not None:
        last = len(lines) - 1
        parts = [lines[0][1:].rstrip(b" ")]
        parts.extend(line.strip(b" ") for line in lines[1:last])
        parts.append(lines[last].lstrip(b" ")[:-1])
        return b" ".join(parts).decode()
    value, end = Reader(lines, _NO_FALLBACK).inline(lines[0], 1, 2)
    if end != len(lines):
        raise Unreadable(lines[end])
    return value


#: A value an Event left out is written with (``left_out_pod_event``): a single- or double-
#: quoted text without a quote or backslash, a plain text starting with a letter, ``_``,
#: ``/`` or ``(`` (PyYAML reads it as a string, a boolean or null, never fails), a plain
#: text starting with a digit, without ``.``, ``:`` or ``_`` and not four digits and ``-``
#: (no float, sexagesimal, date or ``0b_``: an integer or a string), ``{}`` or ``[]``.
_VALUE = (
    rb"(?:'[\x20-\x26\x28-\x7e]*'"
    rb'|"[\x20\x21\x23-\x5b\x5d-\x7e]*"'
    rb"|[A-Za-z_/(][\x21-\x39\x3b-\x7e]*"
    rb"(?:(?: |:+)[\x21\x22\x24-\x39\x3b-\x7e][\x21-\x39\x3b-\x7e]*)*"
    rb"|[0-9](?![0-9]{3}-)[\x21-\x2d\x2f-\x39\x3b-\x5e\x60-\x7e]*|\{\}|\[\])"
)
#: A message: a value, or a single-quoted text folded over lines indented three spaces or
#: more (as Go's encoder folds a long one).
_MESSAGE = (
    rb"(?:" + _VALUE + rb"|'[\x20-\x26\x28-\x7e]*"
    rb"(?:\n   +[\x21-\x26\x28-\x7e][\x20-\x26\x28-\x7e]*)+')"
)


def _line(key: bytes, indent: bytes = b"  ", value: bytes = _VALUE) -> bytes:
    return rb"(?:" + indent + key + rb": " + value + rb"\n)?"


def _block(key: bytes, subkeys: tuple[bytes, ...]) -> bytes:
    return rb"(?:  " + key + rb":\n" + b"".join(_line(k, b"    ") for k in subkeys) + rb")?"


_OBJECT_KEYS = (
    b"apiVersion",
    b"fieldPath",
    b"kind",
    b"name",
    b"namespace",
    b"resourceVersion",
    b"uid",
)
#: An Event of ``oc``'s shape about a Pod (its keys sorted, each once; every value of a form
#: in :data:`_VALUE`), as ``event_item`` is given it: the involved object's name and
#: namespace and the Event's own name and namespace captured.
_POD_EVENT = re.compile(
    _line(b"action")
    + rb"  apiVersion: v1\n"
    + b"".join(_line(k) for k in (b"count", b"eventTime", b"firstTimestamp"))
    + rb"  involvedObject:\n"
    + b"".join(_line(k, b"    ") for k in (b"apiVersion", b"fieldPath"))
    + rb"    kind: Pod\n    name: ("
    + _VALUE
    + rb")\n    namespace: ("
    + _VALUE
    + rb")\n"
    + b"".join(_line(k, b"    ") for k in (b"resourceVersion", b"uid"))
    + rb"  kind: Event\n"
    + _line(b"lastTimestamp")
    + _line(b"message", value=_MESSAGE)
    + rb"  metadata:\n"
    + _line(b"creationTimestamp", b"    ")
    + rb"    name: ("
    + _VALUE
    + rb")\n(?:    namespace: ("
    + _VALUE
    + rb")\n)?"
    + b"".join(_line(k, b"    ") for k in (b"resourceVersion", b"selfLink", b"uid"))
    + _line(b"reason")
    + _block(b"related", _OBJECT_KEYS)
    + _line(b"reportingComponent")
    + _line(b"reportingInstance")
    + _block(b"series", (b"count", b"lastObservedTime"))
    + _block(b"source", (b"component", b"host"))
    + _line(b"type")
)


def left_out_pod_event(text: bytes, namespace: str) -> bool:
    """Whether the item ``text`` (as :func:`event_item` is given it) is an Event about a Pod
    in ``namespace`` that the loader would leave out (R-EVD-1, ``evidence_scope``), and may
    be left out unread: of ``oc``'s shape with every value of a plain form PyYAML reads
    without failing, so that it is valid YAML on its own and builds into a well-formed
    object (``apiVersion`` v1, ``kind`` Event, a name) whose involved object is that Pod."""
    match = _POD_EVENT.fullmatch(text)
    if match is None:
        return False
    try:
        pod, pod_namespace, name, own_namespace = (
            None if found is None else scalar(found) for found in match.groups()
        )
    except Unreadable:
        return False
    return (
        pod_namespace == namespace
        and type(pod) is str
        and type(name) is str
        and name != ""
        and (own_namespace is None or type(own_namespace) is str)
    )
