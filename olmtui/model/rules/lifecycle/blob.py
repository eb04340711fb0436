"""Reading one ``io.openshift.operators.lifecycles.v1alpha1`` document (R-LCY-1).

The schema (``package``, ``versions[]`` of ``name``, ``phases[]`` of ``name``/``startDate``/
``endDate``, optional ``platformCompatibility[]`` of ``name``/``versions``) is checked as
its JSON schema says: required fields present and of their type, at least one version and one
phase each, dates as ``YYYY-MM-DD`` with each end strictly after its start. A document that
fails is refused whole (the caller reports it with its file and line): half a lifecycle would
show a phase or a compatibility the catalog does not state. Fields the schema does not know
are ignored, as the console ignores them.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from olmtui.model.records.lifecycle import Lifecycle, LifecycleVersion, Minor, SupportPhase

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: The console reads a version's minor as semver's ``coerce`` does: the first
#: ``MAJOR[.MINOR]`` in the text.
_MINOR = re.compile(r"(\d{1,9})(?:\.(\d{1,9}))?")
OPENSHIFT = "openshift"


class LifecycleError(ValueError):
    """Why a lifecycle document was refused."""


def minor_of(version: str | None) -> Minor | None:
    """``(major, minor)`` of a version text as the console matches them (``2.16.0`` and
    ``2.16`` are one minor; a missing minor is 0); ``None`` when it holds no number."""
    match = _MINOR.search(version or "")
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise LifecycleError(f"{what} is not a non-empty string")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise LifecycleError(f"{what} is not a non-empty list")
    return value


def _date(value: Any, what: str) -> dt.date:
    if type(value) is dt.date:  # unquoted in YAML: the same text opm reads as a string
        return value
    text = _text(value, what)
    if not _DATE.match(text):
        raise LifecycleError(f"{what} {text!r} is not a YYYY-MM-DD date")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise LifecycleError(f"{what} {text!r} is not a date") from None


def _phase(raw: Any, where: str) -> SupportPhase:
    if not isinstance(raw, dict):
        raise LifecycleError(f"{where} is not a mapping")
    name = _text(raw.get("name"), f"{where}.name")
    start = _date(raw.get("startDate"), f"{where}.startDate")
    end = _date(raw.get("endDate"), f"{where}.endDate")
    if end <= start:
        raise LifecycleError(f"{where} ({name}) ends on or before it starts")
    return SupportPhase(name, start, end)


def _openshift(raw: Any, where: str) -> tuple[str, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise LifecycleError(f"{where}.platformCompatibility is not a list")
    found: tuple[str, ...] | None = None
    for n, platform in enumerate(raw):
        at = f"{where}.platformCompatibility[{n}]"
        if not isinstance(platform, dict):
            raise LifecycleError(f"{at} is not a mapping")
        name = _text(platform.get("name"), f"{at}.name")
        versions = [_text(v, f"{at}.versions[]") for v in _list(platform.get("versions"), at)]
        if name == OPENSHIFT:
            found = (*(found or ()), *versions)
    return found


def _version(raw: Any, where: str) -> LifecycleVersion:
    if not isinstance(raw, dict):
        raise LifecycleError(f"{where} is not a mapping")
    name = _text(raw.get("name"), f"{where}.name")
    phases = [
        _phase(p, f"{where}.phases[{n}]")
        for n, p in enumerate(_list(raw.get("phases"), f"{where}.phases"))
    ]
    phases.sort(key=lambda p: (p.start, p.end))
    return LifecycleVersion(
        name, minor_of(name), tuple(phases), _openshift(raw.get("platformCompatibility"), where)
    )


def parse_lifecycle(doc: dict[str, Any], where: str) -> Lifecycle:
    """The lifecycle ``doc`` states; :class:`LifecycleError` when it breaks the schema."""
    package = _text(doc.get("package"), "package")
    versions = _list(doc.get("versions"), "versions")
    return Lifecycle(
        package,
        tuple(_version(v, f"versions[{n}]") for n, v in enumerate(versions)),
        where,
    )
