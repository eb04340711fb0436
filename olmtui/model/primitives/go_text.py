"""Go's ``%q`` (``strconv.Quote``), the one way OLM's, opm's, operator-controller's and their
libraries' error texts quote a value (blang/semver, Masterminds/semver, label selectors):
the messages olmtui reproduces byte for byte use this, and nothing else.
"""

from __future__ import annotations

#: ``strconv.Quote``'s short escapes.
_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def _escaped(ch: str) -> str:
    short = _ESCAPES.get(ch)
    if short is not None:
        return short
    if ch.isprintable():  # Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols
        return ch
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def go_quote(text: str) -> str:
    """Go's ``%q`` of ``text``: double quotes; backslashes and quotes escaped; printable
    characters (non-ASCII letters included) kept; anything else escaped as Go escapes it
    (``\\n``, ``\\x1b``, ``\\u2028``), so a quoted value can never act on a terminal."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return '"' + "".join(map(_escaped, text)) + '"'
