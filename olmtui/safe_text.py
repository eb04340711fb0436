"""Untrusted text made inert for a terminal: the one sanitiser of every output.

Names, reasons and messages come from the cluster, a snapshot or a catalog, and anyone who
can write a status can put terminal controls in them: ``ESC ]0;...BEL`` retitles the
terminal, ``ESC [2J`` blanks it, OSC 8 makes links and OSC 52 writes the clipboard, and the
bidi controls (U+202E and kin) make the text shown read otherwise than the text held. The
reports and the dashboard both pass such text through :func:`visible`, which shows each of
these characters as its escape (``\\x1b``, ``\\u202e``): what the input held is readable, and
nothing in it is obeyed. JSON keeps its strings' values: :func:`json_inert` writes the same
characters as JSON escapes.
"""

from __future__ import annotations

import re

#: What a terminal may obey or that changes how the text around it reads: the C0 controls
#: (TAB and LF included: a cell or a report line is one line), DEL, the C1 controls (CSI is
#: U+009B), the bidi marks, embeddings, overrides and isolates, the Unicode line and paragraph
#: separators, and lone surrogates (a JSON input may hold one; it cannot even be printed).
_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
UNSAFE = re.compile(f"[\x00-\x1f{_OTHERS}]")
#: The same but the line feed, where a line break is meant (a multi-line message in a pane).
UNSAFE_BUT_NEWLINE = re.compile(f"[\x00-\x09\x0b-\x1f{_OTHERS}]")
#: What :func:`json_inert` escapes: ``json.dumps`` already escapes the C0 controls.
_JSON_UNSAFE = re.compile(f"[{_OTHERS}]")


def escape_of(char: str) -> str:
    """How one unsafe character is shown: ``\\x1b`` below U+0100, else ``\\u202e``."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escaped(found: re.Match[str]) -> str:
    return escape_of(found.group())


def visible(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every unsafe character shown as its escape, never obeyed; a line break
    kept when ``keep_newlines``. Text with nothing to escape is returned as it is (no copy)."""
    if text.isprintable():  # the common case, in C: no control, format or separator char
        return text
    pattern = UNSAFE_BUT_NEWLINE if keep_newlines else UNSAFE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escaped, text)


def json_inert(json_text: str) -> str:
    """JSON text with the unsafe characters ``json.dumps(ensure_ascii=False)`` leaves raw
    (DEL, C1, bidi, separators, lone surrogates) as ``\\uXXXX``: the same document for a
    parser, and inert on a terminal. Such characters can only stand inside a JSON string."""
    if json_text.isascii() and "\x7f" not in json_text:
        return json_text  # of these only DEL is ASCII; ``isascii`` costs nothing on a str
    if _JSON_UNSAFE.search(json_text) is None:
        return json_text
    return _JSON_UNSAFE.sub(lambda found: f"\\u{ord(found.group()):04x}", json_text)
