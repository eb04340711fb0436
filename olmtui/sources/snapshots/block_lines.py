"""A block-style YAML mapping read line by line, exactly as PyYAML reads it, for the plain
forms ``kubectl``/``oc`` write; anything else is left to the parser.

A must-gather's Pods and Events are written by Go's YAML encoder: block mappings and
sequences (sequences not indented below their key), one scalar per line in a few plain
forms, ``|-`` literal blocks, long plain strings folded over several lines. PyYAML's
constructor spends several times more on each of their lines than a regular-expression
match, which is what reading them here costs.

What is read here, and how PyYAML reads it:

- a mapping of plain keys (a letter, digit or ``_`` first, then ``A-Za-z0-9_./-``; each
  resolving to a string, each once) at one indentation;
- a sequence of ``- `` entries at one indentation (an entry's mapping starts on its line);
- a key's value on its line: ``{}``, ``[]``, a single-quoted text without a quote, a
  double-quoted text of printable ASCII and PyYAML's escapes, folded over more indented
  lines (a line break a space, or nothing after a ``\\``; no empty line, no line ending
  in a blank), a plain scalar of printable ASCII (without ``: ``, `` #``, a trailing
  ``:``) resolving to a string, a decimal integer, a boolean, null or a timestamp
  (PyYAML's own implicit resolvers say which, its constructor builds the timestamp),
  folded over more indented plain lines; a single-quoted text without a quote folded
  over more indented lines; a ``|``/``|-`` literal block of printable ASCII lines without
  an empty one;
- a key without a value on its line: the more indented block below it, an unindented
  sequence, or null.

Any other line (comments, blank lines, tags, anchors, flow collections, other scalars, a
non-ASCII byte) makes the value it is in ``Unreadable``: the caller parses that value's
lines with PyYAML instead (``Reader``'s ``fallback``). The document must be valid YAML
before it is read here (the caller checks it with libyaml): the forms above then mean the
same in it as alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from yaml import SafeLoader
from yaml._yaml import CParser
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from olmtui.sources.snapshots.fast_yaml import Load

#: A plain key of at most 1,000 characters: libyaml refuses a key whose ``:`` comes 1,024 or
#: more characters after its start ("could not find expected ':'").
_KEY = rb"[A-Za-z0-9_][A-Za-z0-9_./-]{0,999}"
#: A line that is a mapping entry, at any indentation: its indentation, key and value text.
_LINE_ENTRY = re.compile(rb"( *)(" + _KEY + rb"):(?: (.*))?")
#: A sequence entry's line that starts a mapping: ``- `` at its indentation, then an entry.
_ITEM_ENTRY = re.compile(rb"( *)- (" + _KEY + rb"):(?: (.*))?")
_SINGLE = re.compile(rb"'([\x20-\x26\x28-\x7e]*)'")
_DOUBLE = re.compile(rb'"([\x20\x21\x23-\x5b\x5d-\x7e]*)"')
#: The one-character escapes PyYAML reads in a double-quoted text (``yaml.reader``'s table; a
#: tab is no printable ASCII), and the hex ones (``\\x``, ``\\u``, ``\\U``).
_ESCAPED = {key: value for key, value in SafeLoader.ESCAPE_REPLACEMENTS.items() if key != "\t"}
_HEX_ESCAPES = "|".join(
    f"{code}[0-9A-Fa-f]{{{size}}}" for code, size in SafeLoader.ESCAPE_CODES.items()
)
#: A double-quoted text's line: printable ASCII but a quote or backslash, and the escapes.
#: Runs of plain characters and escapes, each taken whole and never given back (possessive:
#: a backslash starts no run and one escape form only, so that is the one way to read a
#: line, found in runs, not a character at a time).
_DOUBLE_LINE = re.compile(
    rb"(?:[\x20\x21\x23-\x5b\x5d-\x7e]++|\\(?:["
    + re.escape("".join(_ESCAPED)).encode()
    + rb"]|"
    + _HEX_ESCAPES.encode()
    + rb"))*+"
)
_DOUBLE_ESCAPE = re.compile(r"\\(" + _HEX_ESCAPES + r"|.)")
#: A backslash before a character JSON's escapes do not share with YAML's (``\\u``
#: excluded: JSON joins a surrogate pair, PyYAML keeps both); an escaped backslash before
#: one also matches, which only sends the text the slower way.
_NOT_JSON_ESCAPE = re.compile(r'\\[^"\\/bfnrt]')
#: A plain scalar's line: printable ASCII, a first character that starts no other form.
_PLAIN = re.compile(rb"(?:[A-Za-z0-9_/.(]|-(?=[^ ]))[\x20-\x7e]*")
#: A folded plain scalar's next line (its indentation stripped).
_PLAIN_MORE = re.compile(rb"[A-Za-z0-9_/.(][\x20-\x7e]*")
#: A folded single-quoted text's characters.
_QUOTED_TEXT = re.compile(rb"[\x20-\x7e]*")
#: A literal block's line.
_LITERAL = re.compile(rb"[\x20-\x7e]*")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
#: A plain scalar's line that PyYAML reads as a string whatever follows its first character:
#: a first character no implicit resolver starts with (not a digit, sign, dot, ``~``, ``<``,
#: ``=``, nor the first letter of a boolean or null), then printable ASCII without ``: ``,
#: `` #`` or a trailing ``:`` or blank (``_plain_line``).
_TEXT = re.compile(
    rb"[A-EG-MP-SU-XZa-eg-mp-su-xz_/(]"
    rb"(?:[\x21-\x39\x3b-\x7e]|:(?=[\x21-\x7e])| (?=[\x20-\x22\x24-\x7e]))*"
)
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
#: Builds a timestamp as the full parse does (a ``datetime``, its errors included).
_CONSTRUCTOR = SafeConstructor()
_RESOLVERS = Resolver.yaml_implicit_resolvers
_TRUE = frozenset({"yes", "true", "on"})


class Unreadable(Exception):
    """A line this reader does not read."""


def _tag(text: str) -> str:
    """The tag PyYAML's resolver gives a plain scalar (not empty)."""
    for tag, pattern in _RESOLVERS.get(text[0], ()):
        if pattern.match(text):
            return str(tag)
    return _STR


def _plain_value(text: str) -> Any:
    tag = _tag(text)
    if tag == _STR:
        return text
    if tag == _INT and _DECIMAL.fullmatch(text):
        return int(text)
    if tag == _BOOL:
        return text.lower() in _TRUE
    if tag == _NULL:
        return None
    if tag == _TIMESTAMP:
        try:
            return _CONSTRUCTOR.construct_yaml_timestamp(ScalarNode(tag, text))
        except Exception as exc:  # a date that is none (2021-13-45): the full parse says so
            raise Unreadable(text) from exc
    raise Unreadable(text)


def _unescaped(match: re.Match[str]) -> str:
    escape = match.group(1)
    if len(escape) > 1:  # \xXX, \uXXXX, \UXXXXXXXX
        return chr(int(escape[1:], 16))
    return _ESCAPED[escape]


def _closed_double(content: bytes) -> str | None:
    """The text of a double-quoted text's last line, or ``None`` when ``content`` (the line
    after the opening quote, or a later line without its leading blanks) does not end it
    with the closing quote."""
    if content.endswith(b'"') and _DOUBLE_LINE.fullmatch(content, 0, len(content) - 1):
        return _double_quoted_text(content[:-1])
    return None


def _double_quoted_text(content: bytes) -> str:
    """The text of a double-quoted line's content (its escapes read as PyYAML reads them;
    one past Unicode is ``Unreadable``: the full parse says what)."""
    text = content.decode()
    if "\\" not in text:
        return text
    if _NOT_JSON_ESCAPE.search(text) is None:
        # only escapes JSON reads as YAML does: decoded in C, not one call per escape (an
        # alm-examples annotation is a line of a hundred \" and \n)
        return str(json.loads(f'"{text}"'))
    try:
        return _DOUBLE_ESCAPE.sub(_unescaped, text)
    except ValueError as exc:
        raise Unreadable(content) from exc


def _plain_line(text: bytes) -> bool:
    return (
        b": " not in text
        and b" #" not in text
        and not text.endswith((b":", b" "))
        and _PLAIN.fullmatch(text) is not None
    )


#: A one-line scalar's value by its text: the same few texts ("True", "Pod", null, 0) fill
#: most lines (read inline by the hot loops, ``MISSING`` when not there). Immutable values
#: only; cleared past :data:`_REMEMBERED`.
SCALARS: dict[bytes, Any] = {}
_REMEMBERED = 1 << 16
#: Keys by their text: ``None`` for a key read elsewhere (not a plain string).
_keys: dict[bytes, str | None] = {}
MISSING = object()


def scalar(text: bytes) -> Any:
    """The value of a scalar written alone on its line (nothing deeper below it)."""
    value = SCALARS.get(text, MISSING)
    if value is not MISSING:
        return value
    if text == b"{}":
        return {}
    if text == b"[]":
        return []
    quoted = _SINGLE.fullmatch(text) or _DOUBLE.fullmatch(text)
    if quoted is not None:
        value = quoted.group(1).decode()
    elif text.startswith(b'"') and (closed := _closed_double(text[1:])) is not None:
        value = closed
    elif _TEXT.fullmatch(text) is not None:
        value = text.decode()
    elif _plain_line(text):
        value = _plain_value(text.decode())
    else:
        raise Unreadable(text)
    if len(SCALARS) >= _REMEMBERED:
        SCALARS.clear()
    SCALARS[text] = value
    return value


def key_of(text: bytes) -> str:
    """A plain key's text as the string it is (raises ``Unreadable`` for a key that resolves
    to no string: a boolean, a number, null)."""
    key = _keys.get(text, MISSING)
    if key is MISSING:
        decoded = text.decode()
        key = decoded if _tag(decoded) == _STR else None
        if len(_keys) >= _REMEMBERED:
            _keys.clear()
        _keys[text] = key
    if key is None:
        raise Unreadable(text)
    return key  # type: ignore[return-value]


def _simple_patterns(indent: int) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    pad = b" " * indent
    return (
        re.compile(rb"(?:" + pad + _KEY + rb": [^\n]*\n)+"),
        re.compile(pad + rb"(" + _KEY + rb"): ([^\n]*)\n"),
    )


_SIMPLE = {indent: _simple_patterns(indent) for indent in (2, 4)}


#: Blocks read before, by their text (an Event's involved object and source repeat from
#: one Event to the next): immutable values only, each handed out as a copy.
_blocks: dict[bytes, dict[str, Any]] = {}
_BLOCKS_REMEMBERED = 1 << 12


def simple_block(text: bytes, indent: int, *, remember: bool = False) -> dict[str, Any]:
    """A block every line of which is a key and a one-line scalar at ``indent`` (2 or 4)
    spaces, each line ending in a line feed, as a mapping; raises ``Unreadable`` for any
    other block (a key twice included). Each line is then a complete YAML line.
    ``remember``: the block is likely to come again."""
    if remember:
        known = _blocks.get(text)
        if known is not None:
            return known.copy()
    whole, entry = _SIMPLE[indent]
    if whole.fullmatch(text) is None:
        raise Unreadable(text[:80])
    keys, scalars, missing = _keys, SCALARS, MISSING
    entries = entry.findall(text)
    mapping: dict[str, Any] = {}
    for key_text, value_text in entries:
        key = keys.get(key_text, missing)
        if type(key) is not str:
            key = key_of(key_text)
        value = scalars.get(value_text, missing)
        mapping[key] = scalar(value_text) if value is missing else value
    if len(mapping) != len(entries):
        raise Unreadable(text[:80])
    if remember and not any(type(value) in (dict, list) for value in mapping.values()):
        if len(_blocks) >= _BLOCKS_REMEMBERED:
            _blocks.clear()
        _blocks[text] = mapping.copy()
    return mapping


#: Parses the lines of one value (from its key's line) with PyYAML: ``(key, value)``.
Fallback = Callable[[list[bytes]], tuple[str, Any]]


class Reader:
    """The lines of one document (without their line feeds), read from the top. Each
    line's indentation and whether it is a mapping entry are found once, whatever value
    reads it (a CSV is some 90 nested mappings and 50 sequences in 350 lines)."""

    def __init__(self, lines: list[bytes], fallback: Fallback) -> None:
        self.lines = lines
        self.fallback = fallback
        self.entries = entries = [_LINE_ENTRY.fullmatch(line) for line in lines]
        # an entry's indentation is its first group's end: only other lines are stripped
        self.indents = [
            len(line) - len(line.lstrip(b" ")) if entry is None else entry.end(1)
            for line, entry in zip(lines, entries, strict=True)
        ]

    def mapping(
        self, at: int, indent: int, first: re.Match[bytes] | None = None
    ) -> tuple[dict[str, Any], int]:
        """The mapping whose keys are at ``indent`` from line ``at``, and the line after;
        ``first``: line ``at``'s entry as it reads after its sequence entry's ``- ``."""
        lines, indents, entries = self.lines, self.indents, self.entries
        count = len(lines)
        result: dict[str, Any] = {}
        # the memos of key_of and scalar read inline: a call each per line was a fifth of it
        keys, scalars, missing = _keys, SCALARS, MISSING
        while at < count:
            entry = entries[at] if first is None else first
            if entry is None or (first is None and indents[at] != indent):
                found = indents[at]
                if found < indent or (found == indent and lines[at].startswith(b"- ", found)):
                    break
                raise Unreadable(lines[at])
            line = lines[at] if first is None else b" " * indent + lines[at][indent:]
            first = None
            key_text, text = entry.group(2, 3)
            remembered = keys.get(key_text, missing)
            key = remembered if type(remembered) is str else key_of(key_text)
            if key in result:
                raise Unreadable(line)
            try:
                if text is not None and not (at + 1 < count and indents[at + 1] > indent):
                    value = scalars.get(text, missing)
                    if value is missing:
                        value = scalar(text)
                    after = at + 1
                else:
                    value, after = self._value(text, at, indent)
            except Unreadable:
                after = self._end(at + 1, indent)
                parsed_key, value = self.fallback([line, *lines[at + 1 : after]])
                if parsed_key != key:
                    raise
            result[key] = value
            at = after
        return result, at

    def _end(self, at: int, indent: int) -> int:
        """The line after a value whose key is at ``indent`` (its lines: deeper ones, an
        unindented sequence's entries, and empty ones, which a ``|+`` block keeps)."""
        lines, indents = self.lines, self.indents
        while at < len(lines):
            line = lines[at]
            found = indents[at]
            if line and (found < indent or (found == indent and not line.startswith(b"- ", found))):
                break
            at += 1
        return at

    def _value(self, text: bytes | None, at: int, indent: int) -> tuple[Any, int]:
        """A key's value: on its line (``text``) or below it."""
        if text is not None:
            return self.inline(text, at + 1, indent)
        lines = self.lines
        below = at + 1
        if below >= len(lines):
            return None, below
        line = lines[below]
        found = self.indents[below]
        if found > indent:
            if line.startswith(b"- ", found):
                return self.sequence(below, found)
            return self.mapping(below, found)
        if found == indent and line.startswith(b"- ", found):
            return self.sequence(below, indent)
        return None, below

    def sequence(self, at: int, indent: int) -> tuple[list[Any], int]:
        """The sequence whose ``- `` are at ``indent`` from line ``at``, and the line after."""
        lines, indents = self.lines, self.indents
        count = len(lines)
        content = indent + 2
        items: list[Any] = []
        while at < count:
            line = lines[at]
            if indents[at] != indent or not line.startswith(b"- ", indent):
                if indents[at] > indent:
                    raise Unreadable(line)
                break
            entry = _ITEM_ENTRY.fullmatch(line)
            if entry is not None:  # its indentation is the line's: ``indent``
                value, at = self.mapping(at, content, entry)
            else:
                rest = line[content:]
                if rest.startswith(b"- ") or rest in (b"", b"-", b"|", b"|-"):
                    raise Unreadable(line)
                value, at = self.inline(rest, at + 1, indent)
            items.append(value)
        return items, at

    def inline(self, text: bytes, below: int, indent: int) -> tuple[Any, int]:
        """A value written on its line (``text``), perhaps continued on deeper lines from
        ``below``; ``indent``: its key's or entry's indentation."""
        lines, indents = self.lines, self.indents
        more = below < len(lines) and indents[below] > indent
        if text in (b"|", b"|-"):
            return self._literal(below, indent, keep=text == b"|")
        if not more:
            if text == b"{}":
                return {}, below
            if text == b"[]":
                return [], below
            quoted = _SINGLE.fullmatch(text) or _DOUBLE.fullmatch(text)
            if quoted is not None:
                return quoted.group(1).decode(), below
        if more and text.startswith(b"'"):
            return self._single_quoted(text, below, indent)
        if text.startswith(b'"'):
            return self._double_quoted(text, below, indent)
        if not _plain_line(text):
            raise Unreadable(text)
        if not more:
            return _plain_value(text.decode()), below
        parts = [text]
        while below < len(lines) and indents[below] > indent:
            part = lines[below].lstrip(b" ")
            if not (_plain_line(part) and _PLAIN_MORE.match(part)):
                raise Unreadable(part)
            parts.append(part)
            below += 1
        folded = b" ".join(parts).decode()
        if _tag(folded) != _STR:
            raise Unreadable(folded)
        return folded, below

    def _single_quoted(self, text: bytes, below: int, indent: int) -> tuple[str, int]:
        """A single-quoted text folded over deeper lines: each line break a space, the
        blanks around it dropped (without a quote inside: no ``''``; without a line of
        blanks, which YAML reads as a line break kept)."""
        lines = self.lines
        parts = [text[1:].rstrip(b" ")]
        while True:
            if below >= len(lines) or self.indents[below] <= indent:
                raise Unreadable(text)
            part = lines[below].strip(b" ")
            below += 1
            if not part:
                raise Unreadable(text)
            if part.endswith(b"'"):
                parts.append(part[:-1])
                break
            parts.append(part)
        folded = b" ".join(parts)
        if b"'" in folded or not part or not _QUOTED_TEXT.fullmatch(folded):
            raise Unreadable(text)
        return folded.decode(), below

    def _double_quoted(self, text: bytes, below: int, indent: int) -> tuple[str, int]:
        """A double-quoted text, on its line or folded over deeper lines: each line break a
        space, or nothing after an escaping ``\\``; a deeper line's leading blanks dropped
        (without an empty line, which YAML reads as a line break kept, nor a line ending in
        a blank, which YAML drops unless escaped)."""
        lines = self.lines
        content = text[1:]
        pieces: list[str] = []
        while True:
            closed = _closed_double(content)
            if closed is not None:
                return "".join(pieces) + closed, below
            if not content or content.endswith(b" "):
                raise Unreadable(text)
            if _DOUBLE_LINE.fullmatch(content):
                pieces.append(_double_quoted_text(content) + " ")
            elif content.endswith(b"\\") and _DOUBLE_LINE.fullmatch(content, 0, len(content) - 1):
                pieces.append(_double_quoted_text(content[:-1]))
            else:
                raise Unreadable(text)
            if below >= len(lines) or self.indents[below] <= indent:
                raise Unreadable(text)
            content = lines[below].lstrip(b" ")
            below += 1

    def _literal(self, at: int, indent: int, *, keep: bool) -> tuple[str, int]:
        """A ``|`` (``keep``: its last line feed kept) or ``|-`` block from line ``at``."""
        lines, indents = self.lines, self.indents
        if at >= len(lines):
            raise Unreadable(b"|")
        block = indents[at]
        if block <= indent:
            raise Unreadable(lines[at])
        texts: list[bytes] = []
        while at < len(lines):
            line = lines[at]
            found = indents[at]
            if found == len(line):  # empty, or blanks only: a line break the chomping may drop
                raise Unreadable(line)
            if found < block:
                if found > indent:
                    raise Unreadable(line)
                break
            if not _LITERAL.fullmatch(line):
                raise Unreadable(line)
            texts.append(line[block:])
            at += 1
        return b"\n".join(texts).decode() + ("\n" if keep else ""), at


def lines_of(text: bytes) -> list[bytes]:
    """The lines of a text, without their line feeds (nor an empty line after the last)."""
    lines = text.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def read_mapping(lines: list[bytes], indent: int, load: Load) -> dict[str, Any]:
    """The block mapping the lines hold at ``indent``, all of them read; a value this
    reader does not read is parsed alone by ``load`` (which must give exactly its key)."""

    def fallback(part: list[bytes]) -> tuple[str, Any]:
        try:
            parsed = load(b"\n".join(part) + b"\n")
        except Exception as exc:  # anything at all: the full parse says what
            raise Unreadable(part[0]) from exc
        if type(parsed) is not dict or len(parsed) != 1:
            raise Unreadable(part[0])
        ((key, value),) = parsed.items()
        return key, value

    reader = Reader(lines, fallback)
    value, end = reader.mapping(0, indent)
    if end != len(lines):
        raise Unreadable(lines[end])
    return value


#: An anchor's ``&``: a document with one goes to the full parse (a duplicate anchor fails
#: it, and no part read alone would know).
_ANCHOR = re.compile(rb"(?:^|[ \[{,])&[^ \n]", re.MULTILINE)


def has_anchor(text: bytes) -> bool:
    """Whether the text may define an anchor (checked at ``memchr`` speed first)."""
    return b"&" in text and _ANCHOR.search(text) is not None


class Checked:
    """Whether a document is valid YAML, asked of libyaml's parser (in C, building nothing)
    once, when a part of it is read in a way that needs it: a value parsed alone by PyYAML
    may be valid alone and not in its place, while the lines this reader reads are complete
    YAML lines of plain forms at the indentation their place demands, valid on their own."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.valid: bool | None = None

    def require(self) -> None:
        """Return when the document is valid YAML; raise ``Unreadable`` when it is not."""
        if self.valid is None:
            try:
                CParser(self.body).raw_parse()
                self.valid = True
            except Exception:  # anything at all: the full parse says what
                self.valid = False
        if not self.valid:
            raise Unreadable(b"")

    def loading(self, load: Load) -> Load:
        """``load`` for a value parsed alone: only once the document is checked."""

        def checked_load(chunk: bytes) -> Any:
            self.require()
            return load(chunk)

        return checked_load
