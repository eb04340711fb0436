"""The order the incremental model recomputes in, and the dirty sets that enforce it.

A batch of changes first marks subjects dirty (the groups, CSVs, copies, Subscriptions and
namespaces it can affect); then each stage recomputes its dirty subjects in turn, reading
only what earlier stages have settled. A stage may mark later stages dirty (a group whose
targets moved re-evaluates its CSVs), never itself or an earlier one: that subject would be
recomputed from results that no longer hold, or not at all. :class:`DirtySet` closes each
stage's set when the stage starts, so a backwards mark raises instead of going unnoticed.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NoReturn

#: (namespace, name) of a namespaced object.
NSKey = tuple[str, str]


class Stage(IntEnum):
    """Recomputation stages, in order: each reads only what the ones before it produced."""

    #: Each OperatorGroup's target namespaces (R-OG-2, R-OG-3).
    TARGETS = 1
    #: Each group's whole view of the groups it meets and the APIs they claim (R-API-4).
    LINKS = 2
    #: One other group changed: its entry in a group's view, replaced (R-API-4).
    LINK_PATCHES = 3
    #: Each non-copied CSV: membership, API reconciliation, where it is copied (R-MEM-*,
    #: R-API-*, R-COPY-*).
    CSVS = 4
    #: Each source CSV's copy context and missing copies (R-COPY-2/3/6/7).
    SOURCES = 5
    #: Each copied CSV's staleness (R-COPY-4..7).
    COPIES = 6
    #: The Subscriptions of a namespace (R-SUB-4, R-SUB-9; the channel head's install
    #: modes, R-IM-1).
    SUBSCRIPTIONS = 7
    #: Namespace findings: several groups, uid label drift (R-OG-1, R-OG-5).
    NAMESPACES = 8


class StageOrderError(RuntimeError):
    """A stage marked itself or an earlier stage dirty."""


class _ClosedSet(set[Any]):
    """Stands in for a stage's dirty set once the stage has started: any mark raises."""

    __slots__ = ("_owner", "_stage")

    def __init__(self, owner: DirtySet, stage: Stage) -> None:
        super().__init__()
        self._owner = owner
        self._stage = stage

    def _refuse(self, *_: object) -> NoReturn:
        running = self._owner.running
        raise StageOrderError(
            f"{self._stage.name} marked dirty while {running.name if running else '?'} runs: "
            "a stage may only mark later stages"
        )

    add = update = _refuse

    def __ior__(self, _: object) -> NoReturn:
        self._refuse()


class _ClosedDict(dict[Any, Any]):
    """The same, for the one stage whose dirty subjects carry data (sources)."""

    __slots__ = ("_closed",)

    def __init__(self, closed: _ClosedSet) -> None:
        super().__init__()
        self._closed = closed

    def setdefault(self, *_: object) -> NoReturn:
        self._closed.add(None)

    def __setitem__(self, *_: object) -> NoReturn:
        self._closed.add(None)


#: The DirtySet attribute holding each stage's subjects.
_ATTRIBUTE = {stage: stage.name.lower() for stage in Stage}


class DirtySet:
    """What one batch of changes made dirty, per stage.

    Marking is a plain set (or dict) operation on the stage's attribute, so the hot paths
    (one mark per changed copy) pay nothing for the check. :meth:`take` hands a stage its
    subjects and puts a closed stand-in in their place; :meth:`reset` empties the subjects
    handed out and puts them back, open, for the next batch (the model keeps no reference to
    them past its recomputation).
    """

    __slots__ = (
        "_closed",
        "_taken",
        "copies",
        "csvs",
        "link_patches",
        "links",
        "namespaces",
        "running",
        "sources",
        "subscriptions",
        "targets",
    )

    def __init__(self) -> None:
        self.running: Stage | None = None
        self.targets: set[NSKey] = set()
        self.links: set[NSKey] = set()
        #: (group, other group whose entry in the group's view changed)
        self.link_patches: set[tuple[NSKey, NSKey]] = set()
        self.csvs: set[NSKey] = set()
        #: Source CSV -> the namespaces where one of its copies came or went in this batch
        #: (empty when only its copy context may have changed).
        self.sources: dict[NSKey, set[str]] = {}
        self.copies: set[NSKey] = set()
        self.subscriptions: set[str] = set()
        self.namespaces: set[str] = set()
        self._closed: dict[Stage, _ClosedSet | _ClosedDict] = {}
        for stage in Stage:
            closed = _ClosedSet(self, stage)
            is_dict = isinstance(getattr(self, _ATTRIBUTE[stage]), dict)
            self._closed[stage] = _ClosedDict(closed) if is_dict else closed
        self._taken: list[tuple[str, Any]] = []

    def take(self, stage: Stage) -> Any:
        """Start ``stage``: return its dirty subjects and refuse further marks on it.

        Stages must be taken in order; the ones before ``stage`` are closed already.
        """
        running = self.running
        if running is not None and stage <= running:
            raise StageOrderError(f"{stage.name} started after {running.name}")
        self.running = stage
        attribute = _ATTRIBUTE[stage]
        subjects = getattr(self, attribute)
        setattr(self, attribute, self._closed[stage])
        self._taken.append((attribute, subjects))
        return subjects

    def reset(self, *, keep_marks: bool = False) -> None:
        """Open every stage, empty, for the next batch; with ``keep_marks`` (a recomputation
        that failed) the subjects stay marked, so the next batch retries them."""
        for attribute, subjects in self._taken:
            if not keep_marks:
                subjects.clear()
            setattr(self, attribute, subjects)
        self._taken.clear()
        self.running = None
