"""Go's ``%q``, as operator-controller's and its libraries' error texts quote a value."""

from __future__ import annotations

import json


def go_quote(text: str) -> str:
    """Go's ``%q`` for printable text (what names, ranges and selectors hold): double
    quotes, with backslashes and quotes escaped and non-ASCII letters kept as they are."""
    return json.dumps(text, ensure_ascii=False)
