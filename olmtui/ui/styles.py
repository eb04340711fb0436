"""Where the ``.tcss`` files are: inside the installed package, or ``styles/`` in a checkout.

The wheel carries the top-level ``styles/`` folder as ``olmtui/styles`` (see pyproject), so a
plain ``pip install .`` finds them next to the package; an editable install finds the
repository's own folder.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def styles_dir() -> Path:
    for candidate in (_PACKAGE / "styles", _PACKAGE.parent / "styles"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("olmtui styles folder not found (broken installation)")


def stylesheet(name: str) -> Path:
    return styles_dir() / name
