"""Helpers for the hostile-text tests: a snapshot whose every string carries terminal
escape sequences and bidi overrides, and what a terminal would receive from the dashboard.

(It holds no tests itself.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from data_paths import DATA
from rich.segment import Segment
from textual.app import App

#: What an attacker writes into a status: retitle the terminal (OSC 0), blank it (ED 2), paint
#: red, make a link (OSC 8), write the clipboard (OSC 52), reverse the text (U+202E), and an
#: 8-bit CSI (U+009B).
HOSTILE = (
    "\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED"
    "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\"
    "\x1b]52;c;UFdORUQ=\x07\u202eLTR\x9b2J"
)
#: How the dashboard shows the start of it.
SHOWN = "\\x1b]0;PWNED\\x07\\x1b[2J"
#: What must never reach a terminal from the data.
INJECTED = ("\x1b]0;PWNED", "\x1b[2J", "\x1b]8;", "\x1b]52;", "\x1b[31mRED", "\x07", "\u202e")
#: The sample with every kind olmtui keeps (tests/data/malformed/README.md).
SAMPLE = DATA / "malformed" / "cluster.yaml"
#: Fields whose string is the object's type: spoiled, the object would not be read at all.
_KEPT = frozenset({"kind", "apiVersion"})
#: Textual's own sequences in what it writes: the mouse pointer's shape (OSC 22), and CSI
#: ones (colours, cursor moves, modes, synchronised output).
_TEXTUAL_OSC = re.compile(r"\x1b\]22;[a-z-]*\x07")
_TEXTUAL_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
#: What no data may put in a segment's text (``olmtui.safe_text``, line feed included).
_RAW = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def spoiled(value: Any, key: str | None = None) -> Any:
    """``value`` with :data:`HOSTILE` after every string but an object's kind and apiVersion
    (names, namespaces and references alike, so they still match each other), and a label
    whose key is hostile too."""
    if isinstance(value, dict):
        out = {k: spoiled(v, k) for k, v in value.items()}
        if key == "metadata":
            out["labels"] = {**(out.get("labels") or {}), f"evil{HOSTILE}": HOSTILE}
        return out
    if isinstance(value, list):
        return [spoiled(item, key) for item in value]
    if isinstance(value, str) and key not in _KEPT:
        return value + HOSTILE
    return value


def hostile_objects() -> list[dict[str, Any]]:
    with SAMPLE.open() as handle:
        docs = [d for d in yaml.safe_load_all(handle) if isinstance(d, dict)]
    return [spoiled(json.loads(json.dumps(d, default=str)), None) for d in docs]


def write_hostile_snapshot(path: Path) -> Path:
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": hostile_objects()}))
    return path


class TerminalTap:
    """Everything the app would write to a terminal on each repaint, headless or not: the
    compositor's updates rendered as the driver would write them."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.written: list[str] = []
        display = app._display

        def tapped(screen: Any, renderable: Any) -> None:
            if renderable is not None and hasattr(renderable, "render_segments"):
                self.written.append(renderable.render_segments(app.console))
            display(screen, renderable)

        app._display = tapped  # type: ignore[method-assign]

    def screen_lines(self) -> list[str]:
        """The current screen, line by line, as plain text."""
        return [strip.text for strip in self.app.screen._compositor.render_strips()]

    def screen_segments(self) -> list[Segment]:
        return [s for strip in self.app.screen._compositor.render_strips() for s in strip]


def injected_in(written: str) -> list[str]:
    """The data's sequences found in terminal output: :data:`INJECTED` itself, and any
    escape, control or bidi character left once Textual's own CSI sequences are taken out."""
    written = _TEXTUAL_OSC.sub("", written)
    found = [s for s in INJECTED if s in written]
    rest = _TEXTUAL_CSI.sub("", written).replace("\n", "").replace("\r", "")
    found += sorted({repr(c) for c in _RAW.findall(rest)})
    return found


def raw_in_segments(segments: list[Segment]) -> list[str]:
    """Control or bidi characters in the text of any (non-control) segment."""
    return [repr(s.text) for s in segments if s.control is None and _RAW.search(s.text) is not None]


def namespaces_yaml(count: int) -> bytes:
    """``count`` Namespaces as one YAML stream: a large input of many small documents."""
    return b"".join(
        b"---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-%07d\n" % index
        for index in range(count)
    )
