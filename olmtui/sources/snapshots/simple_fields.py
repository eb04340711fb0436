"""One-line mapping entries read without a YAML parser, exactly as PyYAML reads them.

A copied CSV's own metadata fields are one line each (``name: x``, ``uid: '…'``,
``creationTimestamp: "…"``, ``generation: 1``). Starting PyYAML for each copy's few lines
costs more than the lines. Only forms whose value is plain to see are read here: the
rest (``None``) goes to the parser.

- a single-quoted value of printable ASCII without a quote: its text (no escapes exist
  there but ``''``, excluded);
- a double-quoted value of printable ASCII without a quote or backslash: its text (no
  escape in it);
- a plain value of letters, digits and ``_./-`` (first a letter, digit or ``_``): PyYAML's
  own implicit resolvers say what it is, as the loader does; a string is its text, a
  decimal integer without a leading zero its ``int``; anything else (a boolean, null,
  float, timestamp, octal or ``_``-grouped number) is left to the parser.

The key must be plain and resolve to a string in the same way.
"""

from __future__ import annotations

import re
from typing import Any

from yaml.resolver import Resolver

#: The whole line: indentation, a plain key, ``: ``, one value form, the line feed.
_LINE = re.compile(
    rb" *([A-Za-z0-9_][A-Za-z0-9_./-]*): "
    rb"(?:'([\x20-\x26\x28-\x7e]*)'|\"([\x20\x21\x23-\x5b\x5d-\x7e]*)\"|([A-Za-z0-9_][A-Za-z0-9_./-]*))"
    rb"\n"
)
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"0|[1-9][0-9]*")
_RESOLVERS = Resolver.yaml_implicit_resolvers


def _plain_tag(text: str) -> str:
    """The tag PyYAML's resolver gives a plain scalar (non-empty): the first implicit
    resolver for its first character whose pattern matches, else a string."""
    for tag, pattern in _RESOLVERS.get(text[0], ()):
        if pattern.match(text):
            return str(tag)
    return _STR


#: Lines read before and what they read as (a copy's ``generation: 1``, its CSV's name, its
#: namespace's: most lines come again); immutable values only, cleared past a size.
_READ: dict[bytes, tuple[str, Any] | None] = {}
_REMEMBERED = 1 << 16
_MISSING = object()


def simple_field(line: bytes) -> tuple[str, Any] | None:
    """The key and value of a one-line mapping entry, or ``None``: let the parser read it."""
    known = _READ.get(line, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[return-value]
    read = _read(line)
    if len(_READ) >= _REMEMBERED:
        _READ.clear()
    _READ[line] = read
    return read


def _read(line: bytes) -> tuple[str, Any] | None:
    match = _LINE.fullmatch(line)
    if match is None:
        return None
    key = match.group(1).decode()
    if _plain_tag(key) != _STR:
        return None
    single, double, plain = match.group(2, 3, 4)
    if plain is None:
        return key, (single if double is None else double).decode()
    text = plain.decode()
    tag = _plain_tag(text)
    if tag == _STR:
        return key, text
    if tag == _INT and _DECIMAL.fullmatch(text):
        return key, int(text)
    return None
