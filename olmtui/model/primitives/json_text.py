"""JSON held as text inside an object's field: the ``operatorframework.io/properties``
annotation, an InstallPlan step's manifest, a bundle property's value.

Such text is read where it is used, after the object passed the checks at the input, and
``json.loads`` raises ``RecursionError`` (not ``ValueError``) on a text nested deeper than
Python's recursion limit: every reader here treats it as any other unreadable text.
"""

from __future__ import annotations

import json
from typing import Any


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; a text nested too deep to decode raises ``ValueError`` too."""
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise ValueError("nested too deep to read") from exc
