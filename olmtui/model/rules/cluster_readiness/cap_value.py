"""An installed bundle's ``olm.maxOpenShiftVersion`` read as cluster-olm-operator reads it
(R-CUP-4), and whether a bundle's cap lets the cluster past its minor (R-CUP-3)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from olmtui.model.primitives import json_text
from olmtui.model.primitives.digits import UINT64_MAX, bounded
from olmtui.model.records.catalog import Bundle
from olmtui.model.rules.documented.cluster_upgrade import (
    MAX_OCP_PROPERTY,
    Minor,
    blocks_next_minor,
)

#: cluster-olm-operator's ``<major>.<minor>`` (no ``v``, no patch).
_MAJOR_MINOR = re.compile(r"^([1-9][0-9]*)\.(0|[1-9][0-9]*)$")
_TOLERANT = re.compile(r"^\s*0*(\d+)\.0*(\d+)(?:[-+][0-9A-Za-z.+-]*)?\s*$")


def read_cap(values: Sequence[str]) -> tuple[Minor | None, str | None]:
    """R-CUP-4: ``(major, minor)`` of a bundle's ``olm.maxOpenShiftVersion`` values (compact
    JSON text each), ``(None, None)`` without one, ``(None, why)`` when cluster-olm-operator
    cannot read it (more than one; a number not ``<major>.<minor>``; a string with a ``v`` or
    not one dot; any other type)."""
    if not values:
        return None, None
    if len(values) > 1:
        return None, f"more than one {MAX_OCP_PROPERTY} found in bundle"
    text = values[0]
    try:
        value: Any = json_text.loads(text)
    except ValueError:
        return None, f"{text[:64]!r} is not JSON"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        match = _MAJOR_MINOR.match(text)
        if match is None:
            return None, f"invalid semver format {text[:64]!r}: expected <major>.<minor>"
        return _minor(match, text)
    if not isinstance(value, str):
        return None, f"invalid type {type(value).__name__} for {MAX_OCP_PROPERTY}"
    tolerant = _TOLERANT.match(value)
    if value.startswith("v") or value.count(".") != 1 or tolerant is None:
        return None, f"{value[:64]!r} is not a <major>.<minor> version"
    # a pre-release or build suffix never changes the strict comparison with a release
    return _minor(tolerant, value)


def _minor(match: re.Match[str], text: str) -> tuple[Minor | None, str | None]:
    """``(major, minor)`` of a match, or why not: a number beyond uint64 fails Go's semver."""
    major, minor = bounded(match.group(1), UINT64_MAX), bounded(match.group(2), UINT64_MAX)
    if major is None or minor is None:
        return None, f"{text[:64]!r} holds a number beyond uint64"
    return (major, minor), None


def allows(bundle: Bundle, current: Minor) -> bool:
    """R-CUP-3/R-CUP-4: ``bundle``'s cap lets the cluster go past ``current`` (none, or a
    readable one that does not block)."""
    maximum, invalid = read_cap(bundle.max_openshift_versions)
    return invalid is None and (maximum is None or not blocks_next_minor(maximum, current))
