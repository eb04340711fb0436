"""Support lifecycle of an operator package, as a catalog's
``io.openshift.operators.lifecycles.v1alpha1`` document carries it (R-LCY-1).

One document per package: per operator minor (``versions[].name``, ``MAJOR.MINOR``), its
support phases with their inclusive start and end dates, and the OpenShift minors it is
compatible with. The catalog readers parse it (``olmtui/model/rules/lifecycle/blob.py``) and
keep it on the package (``Package.lifecycles``); the lifecycle rules read it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import field

from olmtui.frozen import frozen

#: The FBC schema of a lifecycle document.
LIFECYCLE_SCHEMA = "io.openshift.operators.lifecycles.v1alpha1"
Minor = tuple[int, int]


@frozen
class SupportPhase:
    name: str
    #: Both inclusive (the schema's wording).
    start: dt.date
    end: dt.date


@frozen
class LifecycleVersion:
    """One operator minor's entry. ``minor`` is ``name`` read as a version (``None`` when it
    is none); ``openshift`` the ``openshift`` platform's versions, ``None`` when the entry
    gives no compatibility for it (unknown, not "compatible with nothing")."""

    name: str
    minor: Minor | None
    phases: tuple[SupportPhase, ...]
    openshift: tuple[str, ...] | None


@frozen
class Lifecycle:
    """One package's lifecycle document; ``where`` says the file and line it came from (two
    equal documents are one, wherever they are: ``opm`` stores them by content)."""

    package: str
    versions: tuple[LifecycleVersion, ...]
    where: str = field(compare=False)
