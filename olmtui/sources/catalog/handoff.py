"""Catalog content read once and handed to another olmtui process.

``olmtui serve`` reads each ``--catalog`` before it listens (an unusable one is refused
there, rc 2, rather than in every browser session) and each browser session, an ``olmtui
replay`` process of its own, takes that content instead of reading the catalogs again
(``replay --loaded-catalogs FILE``, an option only serve gives).

The content travels as a pickle (the records of ``model/records/catalog.py``, shallow, as
they loaded) in a directory only the user can read, made and removed by serve. A session
reads the file its own command line names: the same user's process, trusting nothing the
user could not run anyway.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from pathlib import Path

from olmtui.errors import UsageError
from olmtui.model.records.catalog import Catalog

#: The option serve gives its sessions, hidden from ``--help``.
LOADED_CATALOGS_FLAG = "--loaded-catalogs"
HANDOFF_FILE = "catalogs.pickle"


def write_catalogs(catalogs: Sequence[Catalog], directory: Path) -> Path:
    """Write ``catalogs`` into ``directory`` (made by the caller, private to the user)."""
    path = directory / HANDOFF_FILE
    with path.open("xb") as out:
        pickle.dump(list(catalogs), out, protocol=pickle.HIGHEST_PROTOCOL)
    return path


def read_catalogs(path: str) -> list[Catalog]:
    """The catalogs :func:`write_catalogs` wrote; ``UsageError`` (one line, rc 2) when the
    file is gone (serve stopped) or holds anything else."""
    try:
        with open(path, "rb") as handed:
            loaded = pickle.load(handed)
    except OSError as exc:
        raise UsageError(f"{LOADED_CATALOGS_FLAG} {path}: {exc.strerror}") from None
    except Exception:  # a damaged pickle raises any of a dozen types
        loaded = None
    if not isinstance(loaded, list) or not all(isinstance(c, Catalog) for c in loaded):
        raise UsageError(
            f"{LOADED_CATALOGS_FLAG} {path}: not the catalog content olmtui serve writes"
        )
    return loaded
