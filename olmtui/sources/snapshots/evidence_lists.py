"""The fast path for a must-gather's Pods, Events and Jobs: a ``PodList``, ``EventList`` or
``JobList`` document read at the cost of its bytes, not of its nodes (R-EVD-1).

``oc adm inspect`` writes every namespace's ``core/pods.yaml``, ``core/events.yaml`` and
``batch/jobs.yaml``: at 10,000 pods and 100,000 events, parsing them in full cost nine
times all the rest of ``check``, and the cache keeps a few fields of each
(``store_evidence``). Here such a document is:

1. cut at its top-level keys (``apiVersion``, ``items``, ``kind``, ``metadata``, each once,
   nothing else at column 0), and its items cut at their ``- `` lines;
2. each Event read with one regular expression when it has the shape ``oc`` writes
   (``event_items``: only what the cache reads of it is built, every value checked);
3. any other item read line by line (``block_lines``: the plain forms Go's encoder writes,
   any other value parsed alone by PyYAML), but a Pod's or Job's ``spec``, which the cache
   drops: it reads as an empty mapping (a mapping it is, its first line is a key), when its
   text holds nothing the full parse could fail on after parsing (a tag, an anchor or
   alias, a complex or flow key, a date, a long number, an ``=``, a ``0b``/``0x``
   number) and libyaml's own parser, in C, building nothing (``raw_parse``), parses it
   alone: such a spec is read too;
4. an Event whose involved object is of no kind the cache keeps events for
   (``store_evidence.EVENT_SUBJECT_KINDS``) left as its ``apiVersion``, ``kind`` and
   ``metadata`` (what the loader checks and counts; the cache drops it as before).

What 2., 3. and the head's one-line entries read line by line are complete YAML lines of
plain forms at the indentation their place demands, valid on their own, and a skipped spec
is valid alone and closes all it opens: the document is then valid YAML. Only a value
parsed alone by PyYAML (which may be valid alone and not in its place) needs the whole
document checked by ``raw_parse`` first: a document that is not valid YAML goes to the
full parse, which reports it with its line. That check costs a fifth of reading the Events
it would check, so it is made only for a document that needs it.

Everything the cache reads of the objects (``store_evidence.trim_*``, the shape checks of
``shape.ENVELOPE``, the loader's ``object_problem``) is read exactly as the full parse reads
it; anything this path does not recognise (CRLF, a byte-order mark, an empty line, an anchor,
a value PyYAML fails on) returns ``None`` and the document is parsed in full, as before.
"""

from __future__ import annotations

import re
from typing import Any

from yaml._yaml import CParser

from olmtui.kinds import EVENT, JOB, POD
from olmtui.sources.snapshots.block_lines import (
    Checked,
    Unreadable,
    has_anchor,
    lines_of,
    read_mapping,
    scalar,
    simple_block,
)
from olmtui.sources.snapshots.event_items import event_item, left_out_pod_event
from olmtui.sources.snapshots.fast_yaml import Load
from olmtui.store_evidence import keeps_event

#: The List kinds read here, as their ``kind:`` line writes them.
_LIST_KINDS = (b"\nkind: PodList\n", b"\nkind: EventList\n", b"\nkind: JobList\n")
#: A top-level key's line (items' ``- `` lines are not).
_TOP_LINE = re.compile(rb"\n[^ \n-]")
_TOP_KEYS = frozenset({b"apiVersion", b"items", b"kind", b"metadata"})
#: What a skipped ``spec`` may not hold: the full parse could fail on it after parsing.
#: Bytes found at ``memchr`` speed: a tag, an anchor, an alias, a complex key, a merge key,
#: a ``0b``/``0o``/``0x`` number...
_UNSAFE_BYTES = (b"!", b"&", b"*", b"?", b"<<", b"0b", b"0o", b"0x")
#: ...and patterns: a flow collection as a key, a date, a long number, ``=`` alone.
_UNSAFE_FLOW_KEY = re.compile(rb"[\]}] *:")
#: The number patterns, found in the spec's digits and dashes (each digit written ``0``,
#: anything else ``x``): ``bytes.translate`` and ``in`` read it eight times faster than a
#: regular expression ``[0-9]{4}(?:-[0-9]|[0-9]{96})``.
_DIGITS = bytes(
    ord("0") if byte in b"0123456789" else byte if byte == ord("-") else ord("x")
    for byte in range(256)
)
_UNSAFE_DIGITS = (b"0000-0", b"0" * 100)
_UNSAFE_EQUALS = re.compile(rb"[ \[{,]=(?:[\n ,\]}]|\Z)")
#: What :data:`_UNSAFE_EQUALS` starts with.
_EQUALS_AFTER = (b" =", b"[=", b"{=", b",=")
#: What the fast path leaves to the full parse at once: a carriage return (CRLF), a
#: byte-order mark, an empty line (kept by a ``|+`` block across an item's end).
_ODD = (b"\r", b"\xef\xbb\xbf", b"\n\n")
#: A Pod's or Job's ``spec`` line, its block's first line (a key, deeper), and the line
#: after its block (indented 2 or less).
_SPEC = b"\n  spec:\n"
_SPEC_BODY = re.compile(rb"    [A-Za-z0-9_][A-Za-z0-9_./-]*:[ \n]")
_SHALLOW = re.compile(rb"\n(?!   )")
#: Where an items section's first ``- `` is.
_ITEMS_AT = len(b"items:\n")
#: The kinds whose ``spec`` the cache drops (``store_evidence``).
_SPEC_DROPPED = frozenset({POD, JOB})
#: The item keys of an Event kept when it is left out.
_EVENT_STUB = ("apiVersion", "kind", "metadata", "spec", "status")


def evidence_list(
    chunk: bytes, load: Load, *, pod_events_of: str | None = None
) -> dict[str, Any] | None:
    """The ``PodList``/``EventList``/``JobList`` document as the full parse gives it, but
    for what the cache drops, or ``None``: parse it in full. ``pod_events_of``: a namespace
    whose Pods' Events the loader leaves out (R-EVD-1): those of ``oc``'s shape are left
    out here unread (``event_items.left_out_pod_event``)."""
    body = chunk[4:] if chunk.startswith(b"---\n") else chunk
    if not any(hint in body for hint in _LIST_KINDS):
        return None
    if any(odd in body for odd in _ODD) or has_anchor(body):
        return None
    sections = _top_sections(body)
    if sections is None:
        return None
    try:
        return _read(sections, load, Checked(body), pod_events_of)
    except Unreadable:
        return None


def _top_sections(body: bytes) -> dict[bytes, bytes] | None:
    """The document cut at its top-level keys, or ``None`` when it is not a List's."""
    starts = [0, *(m.start() + 1 for m in _TOP_LINE.finditer(body))]
    sections: dict[bytes, bytes] = {}
    for begin, end in zip(starts, [*starts[1:], len(body)], strict=True):
        key = body[begin : body.find(b":", begin, end)]
        if key not in _TOP_KEYS or key in sections:
            return None
        sections[key] = body[begin:end]
    return sections if b"items" in sections else None


def _read(
    sections: dict[bytes, bytes], load: Load, checked: Checked, pod_events_of: str | None
) -> dict[str, Any]:
    items_text = sections[b"items"]
    value = _head(sections, load, checked)
    if items_text.startswith(b"items:\n- "):
        list_kind = value.get("kind")
        item_kind = list_kind.removesuffix("List") if isinstance(list_kind, str) else ""
        texts = items_text[_ITEMS_AT:].split(b"\n- ")
        checked_load = checked.loading(load)
        if item_kind == EVENT:
            items = _events(texts, checked_load, pod_events_of)
        else:
            items = [_item(text, checked_load, item_kind) for text in texts]
    else:
        checked.require()
        items = read_mapping(lines_of(items_text), 0, load)["items"]
    return _ordered(sections, value, items)


#: A top-level key and its one-line value, or its block of one-line entries at 2 spaces.
_HEAD_LINE = re.compile(rb"([A-Za-z]+): ([^\n]*)\n")
_HEAD_BLOCK = re.compile(rb"([A-Za-z]+):\n((?:  [^\n]*\n)+)")


def _head(sections: dict[bytes, bytes], load: Load, checked: Checked) -> dict[str, Any]:
    """The List's keys but ``items``: each a one-line value or a block of one-line entries
    (read here), else read line by line once the document is checked."""
    head: dict[str, Any] = {}
    try:
        for key, text in sections.items():
            if key == b"items":
                continue
            if (line := _HEAD_LINE.fullmatch(text)) is not None:
                head[key.decode()] = scalar(line.group(2))
            elif (block := _HEAD_BLOCK.fullmatch(text)) is not None:
                head[key.decode()] = simple_block(block.group(2), 2)
            else:
                raise Unreadable(text[:80])
        return head
    except Unreadable:
        checked.require()
        head_text = b"".join(t for k, t in sections.items() if k != b"items")
        return read_mapping(lines_of(head_text), 0, load)


def _events(texts: list[bytes], load: Load, pod_events_of: str | None) -> list[Any]:
    """The items of an ``EventList`` (:func:`_event`), but those about a Pod of
    ``pod_events_of`` that may be left out unread."""
    items = []
    for text in texts:
        item = b"  " + text.removeprefix(b"- ") + (b"" if text.endswith(b"\n") else b"\n")
        if pod_events_of is None or not left_out_pod_event(item, pod_events_of):
            items.append(_event(item, text, load))
    return items


def _event(item: bytes, text: bytes, load: Load) -> Any:
    """One item of an ``EventList`` (``text`` without the ``- `` of its first line, ``item``
    its first line indented as the others): read with ``event_items`` when it is an Event
    of the shape ``oc`` writes, else line by line (``load``: a value parsed alone, once the
    document is checked)."""
    obj = event_item(item)
    if obj is None or obj.get("kind", EVENT) != EVENT:
        return _item(text, load, EVENT)
    if not keeps_event(obj):
        return {key: obj[key] for key in _EVENT_STUB if key in obj}
    return obj


def _ordered(sections: dict[bytes, bytes], head: dict[str, Any], items: Any) -> dict[str, Any]:
    """The document's keys in its own order, as the full parse gives them."""
    return {key.decode(): items if key == b"items" else head[key.decode()] for key in sections}


def _item(text: bytes, load: Load, item_kind: str) -> Any:
    """One item of a List of ``item_kind`` (its text without the ``- `` of its first line).
    An item of another kind is read in full (a CatalogSource's spec is read)."""
    short = _without_spec(text) if item_kind in _SPEC_DROPPED else text
    obj = _item_mapping(short, load)
    kind = obj.get("kind") or item_kind  # a typed List's item may leave its kind out
    if short is not text and kind != item_kind:
        obj = _item_mapping(text, load)
    if kind == EVENT == item_kind and not keeps_event(obj):
        return {key: obj[key] for key in _EVENT_STUB if key in obj}
    return obj


def _item_mapping(text: bytes, load: Load) -> dict[str, Any]:
    lines = lines_of(text)
    lines[0] = b"  " + lines[0].removeprefix(b"- ")
    return read_mapping(lines, 2, load)


def _without_spec(item: bytes) -> bytes:
    """The item with its ``spec`` block written ``spec: {}`` when it may be, else as it is:
    a mapping whose text holds nothing the full parse could fail on after parsing, and that
    libyaml parses alone, from its ``spec:`` line to the first line as shallow (a quoted
    text or flow collection it opens and does not close would run on past that line, at any
    indentation, swallowing the keys after it)."""
    start = item.find(_SPEC)
    if start < 0:
        return item
    body = start + len(_SPEC)
    if not _SPEC_BODY.match(item, body):
        return item
    below = _SHALLOW.search(item, body)
    end = len(item) if below is None else below.start()
    spec = item[body:end]
    if any(mark in spec for mark in _UNSAFE_BYTES):
        return item
    digits = spec.translate(_DIGITS)
    if any(pattern in digits for pattern in _UNSAFE_DIGITS):
        return item
    if (b"]" in spec or b"}" in spec) and _UNSAFE_FLOW_KEY.search(spec):
        return item
    if any(mark in spec for mark in _EQUALS_AFTER) and _UNSAFE_EQUALS.search(spec):
        return item
    try:
        CParser(item[start + 1 : end]).raw_parse()
    except Exception:  # anything at all: the spec is read, and says what
        return item
    return item[:start] + b"\n  spec: {}" + item[end:]
