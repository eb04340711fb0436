"""Typed decoding of an ``olm.bundle`` line of catalogd's ``all`` stream.

A bundle line is mostly bulk the index never reads (``olm.csv.metadata``'s description and
annotations, related images, base64 manifests): decoding it whole into dicts and strings
was half the cost of indexing. msgspec decodes it into the few fields read instead, each
property's value kept as its raw JSON text (``msgspec.Raw``), decoded only when it is read.

The result must be what ``json.loads`` of the line would give, or nothing (the caller then
decodes the line the usual way, with today's value or today's error). msgspec refuses what
``json.loads`` refuses, and more (NaN, Infinity, a property that is not an object,
``properties`` that is not a list: all left to the usual way), except in the parts it skips:
there it checks neither UTF-8 (so only ASCII lines are taken) nor the digit limit of
Python's integers (so a line that may hold a run of more digits than the limit is left).
Duplicate keys: the last one wins, as in ``json.loads``.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import msgspec

from olmtui.sources import fast_json

#: An absent ``value``: ``dict.get`` gives None, the value of JSON ``null``.
_NULL = msgspec.Raw(b"null")
_TWO_DIGITS = re.compile(rb"[0-9][0-9]")


class Prop(msgspec.Struct):
    """One property: its type, and its value's JSON text."""

    type: Any = None
    value: msgspec.Raw = _NULL


class BundleLine(msgspec.Struct):
    """The fields of an FBC document the bundle reading looks at."""

    schema: Any = None
    name: Any = None
    package: Any = None
    properties: list[Prop] = []


class _Metadata(msgspec.Struct):
    """Of an ``olm.csv.metadata`` value, the one field the index keeps."""

    installModes: msgspec.Raw = _NULL


_BUNDLE = msgspec.json.Decoder(BundleLine)
_METADATA = msgspec.json.Decoder(_Metadata)


def _long_digits(line: bytes) -> bool:
    """Whether ``line`` may hold a run of more digits than ``json.loads`` turns into an
    integer. Such a run covers two consecutive bytes of every ``limit // 2``-th one, so only
    those few bytes are looked at (a regular expression over every line cost a third of the
    indexing); a false alarm only sends the line the usual way."""
    limit = sys.get_int_max_str_digits()
    if not limit or len(line) <= limit:
        return False
    return _TWO_DIGITS.search(line[:: limit // 2]) is not None


def bundle_line(line: bytes) -> BundleLine | None:
    """The ``olm.bundle`` document of one line, or None: not a bundle, or a line to decode
    the usual way."""
    if not line.isascii() or _long_digits(line):
        return None
    try:
        doc = _BUNDLE.decode(line)
    except (ValueError, RecursionError):  # msgspec.DecodeError, ValidationError
        return None
    return doc if doc.schema == "olm.bundle" else None


def value(raw: msgspec.Raw) -> Any:
    """A property's value, as ``json.loads`` of the line gave it; ``ValueError`` if that
    is not sure (then the line goes the usual way)."""
    found = fast_json.strict(raw)
    return json.loads(bytes(raw)) if found is fast_json.REFUSED else found


def install_modes(raw: msgspec.Raw) -> msgspec.Raw:
    """The ``installModes`` raw JSON text of an ``olm.csv.metadata`` value (``null`` when
    absent); ``ValueError`` when the value is not an object."""
    return _METADATA.decode(raw).installModes
