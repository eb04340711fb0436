"""Where the ``.tcss`` files are, as the installed distribution records them.

The stylesheets live in the top-level ``styles/`` folder of the repository. The wheel carries
that folder as ``olmtui/styles`` (``force-include`` in pyproject). ``importlib.resources`` on
the package cannot find them in an editable install: hatch copies the forced files into
site-packages at install time, but ``import olmtui`` resolves to the checkout's own package,
which holds no ``styles``; and a copy taken at install time would go stale as soon as someone
edits ``styles/``. So the one way is the distribution's own metadata (``importlib.metadata``):
an editable install says where its project is (PEP 610 ``direct_url.json``) and the styles are
that project's ``styles/``, read live; any other install holds them where its ``RECORD`` put
them, ``olmtui/styles`` beside the package. Nothing is probed: a folder that happens to be
called ``styles`` somewhere near the package is never picked up.
"""

from __future__ import annotations

import json
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

#: The distribution whose files these are (``[project] name`` in pyproject).
DISTRIBUTION = "olmtui"
#: The styles folder, relative to the project (the checkout) ...
PROJECT_STYLES = "styles"
#: ... and as the wheel installs it (``force-include`` in pyproject), relative to site-packages.
INSTALLED_STYLES = "olmtui/styles"


def editable_project(dist: Distribution) -> Path | None:
    """The checkout an editable install points at (PEP 610), or None for any other install."""
    text = dist.read_text("direct_url.json")
    if not text:
        return None
    info = json.loads(text)
    if not isinstance(info, dict) or not (info.get("dir_info") or {}).get("editable"):
        return None
    url = urlparse(str(info.get("url", "")))
    if url.scheme != "file":
        return None
    project = Path(url2pathname(url.path))
    subdirectory = info.get("subdirectory")
    return project / subdirectory if isinstance(subdirectory, str) else project


def styles_dir() -> Path:
    """The folder of the ``.tcss`` files of the olmtui that is installed."""
    try:
        dist = distribution(DISTRIBUTION)
    except PackageNotFoundError:
        raise FileNotFoundError(
            "olmtui is not installed, so its styles cannot be found: pip install . (or -e .)"
        ) from None
    project = editable_project(dist)
    found = (
        project / PROJECT_STYLES
        if project is not None
        else Path(str(dist.locate_file(INSTALLED_STYLES)))
    )
    if not found.is_dir():
        raise FileNotFoundError(f"olmtui styles folder {found} not found (broken installation)")
    return found


def stylesheet(name: str) -> Path:
    """The stylesheet ``name`` (e.g. ``app.tcss``) of the installed olmtui."""
    return styles_dir() / name
