"""Incidents: the findings folded by their root cause (R-DIAG-8, R-DIAG-9).

Every finding belongs to exactly one incident: the one whose root it reaches by following
its causes (:mod:`olmtui.model.diagnosis.causes`); a finding nothing causes is a root. An
incident's severity is the worst of its findings; ``affected`` names its blast radius: the
objects its findings are about and, for a catalog that cannot serve, every Subscription whose
namespace resolves against it (R-RES-5).

Most findings are roots with no consequence (400,000 ``TargetsNotSynced`` on a hostile
input), so a :class:`Diagnosis` keeps nothing per finding: only the links, the roots that
have consequences, and, once asked, the order of the incidents (one array of indices). A
lone root's incident is made when it is read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from olmtui.kinds import CATALOG_SOURCE
from olmtui.model.diagnosis.causes import BROKEN_CATALOG, cause_links
from olmtui.model.diagnosis.relations import Objects, Relations
from olmtui.model.records.diagnosis import FindingKey, Incident, finding_key
from olmtui.model.records.types import SEVERITY_ORDER, Finding, ObjectRef, Severity

_SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
#: An incident's one-line summary is cut here.
_SUMMARY = 200


def incident_id(finding: Finding) -> str:
    """A readable id derived from the root: ``CODE:Kind/namespace/name`` (parts left out
    when empty). The same input gives the same ids."""
    where = "/".join(p for p in (finding.kind, finding.namespace, finding.name) if p)
    return f"{finding.code}:{where}" if where else finding.code


def _first_sentence(message: str) -> str:
    line = message.split("\n", 1)[0]
    end = line.find(". ")
    text = line if end < 0 else line[: end + 1]
    return text if len(text) <= _SUMMARY else text[: _SUMMARY - 1] + "…"


def _object_of(finding: Finding) -> ObjectRef | None:
    return ObjectRef(finding.kind, finding.namespace, finding.name) if finding.name else None


class _Prepended(Sequence[ObjectRef]):
    """``first`` then ``rest``, without copying ``rest`` (a finding's related objects)."""

    __slots__ = ("_first", "_rest")

    def __init__(self, first: ObjectRef, rest: Sequence[ObjectRef]) -> None:
        self._first = first
        self._rest = rest

    def __len__(self) -> int:
        return 1 + len(self._rest)

    @overload
    def __getitem__(self, index: int) -> ObjectRef: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[ObjectRef]: ...
    def __getitem__(self, index: int | slice) -> ObjectRef | Sequence[ObjectRef]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index == 0:
            return self._first
        if not 0 < index < len(self):
            raise IndexError(index)
        return self._rest[index - 1]


class Diagnosis:
    """The incidents of a list of findings (sorted as the report sorts them)."""

    def __init__(
        self,
        findings: Sequence[Finding],
        links: dict[int, int],
        blocked: dict[int, tuple[ObjectRef, ...]] | None = None,
    ) -> None:
        self.findings = findings
        self._cause = links
        #: consequence -> root, and root -> its consequences in the findings' order
        self._root: dict[int, int] = {}
        self._consequences: dict[int, list[int]] = {}
        for index in sorted(links):
            root = index
            while root in links:
                root = links[root]
            self._root[index] = root
            self._consequences.setdefault(root, []).append(index)
        #: roots whose blast radius reaches objects without a finding (R-RES-5)
        self._blocked = blocked or {}
        self._order: Sequence[int] | None = None
        self._suffix: dict[int, str] = {}

    # -- one finding -----------------------------------------------------------------------

    def cause(self, index: int) -> FindingKey | None:
        """The key of the finding that causes finding ``index``; ``None`` for a root."""
        found = self._cause.get(index)
        return None if found is None else finding_key(self.findings[found])

    def root(self, index: int) -> int:
        """The index of the root of finding ``index``'s incident (itself for a root)."""
        return self._root.get(index, index)

    def incident_of(self, index: int) -> str:
        """The id of the incident finding ``index`` belongs to."""
        root = self.root(index)
        self._ordered()
        return incident_id(self.findings[root]) + self._suffix.get(root, "")

    def consequences(self, root: int) -> list[int]:
        """The findings (indices) that follow from root ``root``, in the findings' order."""
        return self._consequences.get(root, [])

    def is_root(self, index: int) -> bool:
        return index not in self._cause

    def caused(self, index: int) -> list[int]:
        """The findings (indices) that follow from finding ``index``, directly or through
        others, in the findings' order: a root's consequences, or the part of its incident
        below a consequence. What a remedy of ``index`` must clear besides it (R-DIAG-9)."""
        if self.is_root(index):
            return self.consequences(index)
        out = []
        for other in self.consequences(self.root(index)):
            cause = self._cause.get(other)
            while cause is not None and cause != index:
                cause = self._cause.get(cause)
            if cause == index:
                out.append(other)
        return out

    # -- the incidents ---------------------------------------------------------------------

    def severity(self, root: int) -> Severity:
        """The worst severity of the incident rooted at ``root``."""
        worst = self.findings[root].severity
        for index in self._consequences.get(root, ()):
            severity = self.findings[index].severity
            if SEVERITY_ORDER[severity] < SEVERITY_ORDER[worst]:
                worst = severity
        return worst

    def _ordered(self) -> Sequence[int]:
        """The roots sorted by severity, then id; ids that repeat get ``#2``, ``#3``...
        (the same code twice on one object). Made once, as an array of indices."""
        if self._order is None:
            findings = self.findings
            if not self._cause and self._in_order(range(len(findings))):
                self._order = range(len(findings))  # every finding a lone root, in order
                return self._order
            roots = array("l", (i for i in range(len(findings)) if i not in self._cause))
            if self._in_order(roots):
                self._order = roots  # the findings' own order: no key list, no sort
                return roots
            by_id = sorted(roots, key=lambda i: incident_id(findings[i]))
            previous, repeat = None, 1
            for index in by_id:
                current = incident_id(findings[index])
                repeat = repeat + 1 if current == previous else 1
                if repeat > 1:
                    self._suffix[index] = f"#{repeat}"
                previous = current
            by_id.sort(key=lambda i: SEVERITY_ORDER[self.severity(i)])
            self._order = array("l", by_id)
        return self._order

    def _in_order(self, roots: Sequence[int]) -> bool:
        """Whether ``roots`` are already by severity then id, each id once: the common case
        (findings come sorted by severity, code, namespace, name), checked holding two ids."""
        previous: tuple[int, str] | None = None
        for index in roots:
            current = (SEVERITY_ORDER[self.severity(index)], incident_id(self.findings[index]))
            if previous is not None and current <= previous:
                return False
            previous = current
        return True

    def roots(self) -> Sequence[int]:
        """The incidents' roots (finding indices), in the incidents' order."""
        return self._ordered()

    def __len__(self) -> int:
        return len(self.findings) - len(self._cause)

    def affected(self, root: int) -> Sequence[ObjectRef]:
        """The blast radius of the incident rooted at ``root``: the objects its findings are
        about, the root's related objects, and what it blocks (R-RES-5), sorted, once each."""
        finding = self.findings[root]
        own = _object_of(finding)
        if root not in self._consequences and root not in self._blocked:
            # a lone root: its object and related as they are (a finding may name 400,000)
            return finding.related if own is None else _Prepended(own, finding.related)
        refs: dict[ObjectRef, None] = {}
        if own is not None:
            refs[own] = None
        refs.update(dict.fromkeys(finding.related))
        for index in self._consequences.get(root, ()):
            if (other := _object_of(self.findings[index])) is not None:
                refs[other] = None
        refs.update(dict.fromkeys(self._blocked.get(root, ())))
        return sorted(refs, key=lambda r: (r.kind, r.namespace, r.name))

    def summary(self, root: int) -> str:
        """One line: the root's first sentence, then how much follows from it."""
        finding = self.findings[root]
        text = _first_sentence(finding.message) or finding.code
        follows = len(self._consequences.get(root, ()))
        blocked = len(self._blocked.get(root, ()))
        tail = []
        if follows:
            tail.append(
                "1 more finding follows from it"
                if follows == 1
                else f"{follows} more findings follow from it"
            )
        if blocked:
            tail.append(
                f"{blocked} Subscription{'s' if blocked != 1 else ''} cannot resolve (R-RES-5)"
            )
        return f"{text} ({'; '.join(tail)})" if tail else text

    def incident(self, root: int) -> Incident:
        """The incident rooted at finding ``root``."""
        self._ordered()
        return Incident(
            id=incident_id(self.findings[root]) + self._suffix.get(root, ""),
            severity=self.severity(root),
            root=finding_key(self.findings[root]),
            consequences=tuple(
                finding_key(self.findings[i]) for i in self._consequences.get(root, ())
            ),
            affected=tuple(self.affected(root)),
            summary=self.summary(root),
        )

    def incidents(self) -> Iterator[Incident]:
        """Every incident, by severity then id, each made as it is read."""
        return map(self.incident, self._ordered())

    def counts(self) -> dict[str, int]:
        """How many incidents of each severity (``summary.incidents``)."""
        counts: dict[str, int] = dict.fromkeys(_SEVERITIES, 0)
        for index in range(len(self.findings)):
            if index not in self._cause:
                counts[self.severity(index)] += 1
        return counts


def diagnose(findings: Sequence[Finding], objects: Objects, global_namespace: str) -> Diagnosis:
    """The diagnosis of ``findings`` (sorted as the report sorts them) over the objects read,
    with ``global_namespace`` the global catalog namespace (R-RES-3)."""
    relations = Relations(objects, global_namespace)
    links = cause_links(findings, relations)
    blocked = {
        index: tuple(relations.blocked_subscriptions(ObjectRef(f.kind, f.namespace, f.name)))
        for index, f in enumerate(findings)
        if f.kind == CATALOG_SOURCE and f.code in BROKEN_CATALOG and index not in links
    }
    return Diagnosis(findings, links, {k: v for k, v in blocked.items() if v})
