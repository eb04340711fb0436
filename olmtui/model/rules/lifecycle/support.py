"""Where an installed operator stands in its support lifecycle (R-LCY-2, R-LCY-6).

The entry of the installed minor is the one whose ``name`` has the minor of the installed
version (``2.16.0`` reads entry ``2.16``, as the console matches them). Its phase is the one
whose inclusive dates hold the input's day (UTC); after the last phase ends the version is
self-supported (the console's "Self-support"). The OpenShift minors compare as releases:
4.23 and 5.0 are one (R-DOC-16, OLM's ``normalizeOCPVersion``).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable

from olmtui.frozen import frozen
from olmtui.model.records.lifecycle import Lifecycle, LifecycleVersion, Minor
from olmtui.model.rules.lifecycle.blob import minor_of

#: What the console shows once every phase of a version has ended.
SELF_SUPPORT = "Self-support"


def release(version: Minor) -> Minor:
    """R-DOC-16: 4.23 and 5.0 are one release."""
    return (5, 0) if version == (4, 23) else version


def next_release(current: Minor) -> Minor:
    """The OpenShift minor after ``current`` (after 4.22 comes 4.23, which is 5.0)."""
    major, minor = release(current)
    return release((major, minor + 1))


def shown(version: Minor) -> str:
    return f"{version[0]}.{version[1]}"


def compatible(entry: LifecycleVersion, openshift: Minor) -> bool | None:
    """Whether ``entry`` lists ``openshift`` among its OpenShift versions; ``None`` when it
    lists none (unknown)."""
    if entry.openshift is None:
        return None
    target = release(openshift)
    return any((m := minor_of(v)) is not None and release(m) == target for v in entry.openshift)


def compatible_text(versions: Iterable[str]) -> str:
    """``4.20–4.22`` when the minors follow one another as releases do (4.22, 4.23 or 5.0,
    5.1), else the list as given."""
    given = list(versions)
    minors = [minor_of(v) for v in given]
    if len(given) > 1 and all(m is not None for m in minors):
        ordered = sorted(release(m) for m in minors if m is not None)
        if all(next_release(a) == b for a, b in itertools.pairwise(ordered)):
            return (
                f"{given[minors.index(min(minors, key=_release_key))]}\u2013"
                + (given[minors.index(max(minors, key=_release_key))])
            )
    return ", ".join(given)


def _release_key(version: Minor | None) -> Minor:
    return release(version) if version is not None else (0, 0)


@frozen
class Support:
    """One installed operator's place in its package's lifecycle at ``day``.

    ``entry`` is ``None`` when the document lists no entry for the installed minor; ``phase``
    is the current phase's name, :data:`SELF_SUPPORT` after the last one, ``None`` before the
    first or when the day is not known; ``end`` the current phase's end (the last one's when
    self-supported); ``ends`` the last phase's end, when support ends."""

    lifecycle: Lifecycle
    catalog: str | None
    entry: LifecycleVersion | None
    day: dt.date | None
    phase: str | None
    end: dt.date | None
    ends: dt.date | None

    @property
    def out_of_support(self) -> bool:
        return self.phase == SELF_SUPPORT


def entry_for(lifecycle: Lifecycle, version: str | None) -> LifecycleVersion | None:
    """R-LCY-2: the entry of ``version``'s minor."""
    minor = minor_of(version)
    if minor is None:
        return None
    return next((v for v in lifecycle.versions if v.minor == minor), None)


def support_of(
    lifecycle: Lifecycle, catalog: str | None, version: str | None, day: dt.date | None
) -> Support:
    """R-LCY-2: the installed ``version``'s entry and phase on ``day``."""
    entry = entry_for(lifecycle, version)
    if entry is None:
        return Support(lifecycle, catalog, None, day, None, None, None)
    last = entry.phases[-1]
    if day is None:
        return Support(lifecycle, catalog, entry, None, None, None, last.end)
    if day > last.end:
        return Support(lifecycle, catalog, entry, day, SELF_SUPPORT, last.end, last.end)
    current = next((p for p in entry.phases if p.start <= day <= p.end), None)
    if current is None:  # before the first phase, or in a gap the schema forbids
        return Support(lifecycle, catalog, entry, day, None, None, last.end)
    return Support(lifecycle, catalog, entry, day, current.name, current.end, last.end)


def way_out(
    support: Support, openshift: Minor | None, available: Iterable[str] = ()
) -> LifecycleVersion | None:
    """R-LCY-6: the newest entry of a newer minor than the installed one that is in support
    on the day (its last phase not ended) and, when ``openshift`` is given, compatible with
    it; among those, one whose minor the catalog serves a bundle of (``available``: the
    package's bundle versions) when the catalog shows any."""
    entry = support.entry
    if entry is None or entry.minor is None:
        return None
    day = support.day
    newer = [
        v
        for v in support.lifecycle.versions
        if v.minor is not None
        and v.minor > entry.minor
        and (day is None or v.phases[-1].end >= day)
        and (openshift is None or compatible(v, openshift) is not False)
    ]
    served = {m for m in map(minor_of, available) if m is not None}
    if served:
        newer = [v for v in newer if v.minor in served] or newer
    return max(newer, key=lambda v: v.minor or (0, 0), default=None)
