"""Where the project's shared reference data is: ``../shared`` beside the repository (as in
CI's fresh clone), else the workplace's ``/work/shared``."""

from __future__ import annotations

from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent
SHARED = next(
    (p for p in (_REPO.parent / "shared", Path("/work/shared")) if (p / "data").is_dir()),
    _REPO.parent / "shared",
)
