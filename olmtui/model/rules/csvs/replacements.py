"""Replacement chains on the cluster (R-CSV-R, R-CSV-R2, R-CSV-O): which CSV replaces
which in a namespace, which one OLM deletes next, ``spec.replaces`` loops, and which CSVs
share one chain.

``replaces`` maps each non-copied CSV of one namespace to its ``spec.replaces``. The
``spec.replaces`` edges between existing CSVs form a functional graph (each CSV points at
most at one other): trees hanging from CSVs that replace nothing existing, or from loops.
:class:`ReplacementIndex` indexes that graph once per namespace, so that every question a
CSV's findings ask of it costs constant time: a chain of thousands of CSVs is read in time
linear in its length, not walked again for each member.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from olmtui.model.records import findings
from olmtui.model.records.types import Finding


class ReplacementIndex:
    """One namespace's ``spec.replaces`` graph, indexed in one pass."""

    def __init__(self, replaces: Mapping[str, str | None]) -> None:
        self.replaces = replaces
        #: R-CSV-R2 "replacing": the existing CSV each one replaces (never itself).
        self._next = {
            name: target
            for name, target in replaces.items()
            if target and target != name and target in replaces
        }
        #: R-CSV-R2 "being replaced": the first CSV by name whose spec.replaces names it.
        self._successor: dict[str, str] = {}
        for name in sorted(replaces):
            target = replaces[name]
            if target and target != name:
                self._successor.setdefault(target, name)
        #: Each CSV on a loop: the loop in walking order and its place on it.
        self._loop: dict[str, tuple[tuple[str, ...], int]] = {}
        self._find_loops()
        #: The trees hanging from each root (a CSV replacing nothing existing, or on a
        #: loop), numbered depth first: ``a`` lies below ``b`` when b's span holds a's entry.
        self._root: dict[str, str] = {}
        self._span: dict[str, tuple[int, int]] = {}
        self._number_trees()
        #: The chains where some CSV is replaced by several (elsewhere a chain is one line or
        #: one loop, and every member's chain is all of it).
        counts: dict[str, int] = {}
        for target in self._next.values():
            counts[target] = counts.get(target, 0) + 1
        self.forked_chains = frozenset(self.chain_id(t) for t, n in counts.items() if n > 1)

    def _find_loops(self) -> None:
        done: set[str] = set()
        for start in self.replaces:
            path: dict[str, int] = {}
            current: str | None = start
            while current is not None and current not in done and current not in path:
                path[current] = len(path)
                current = self._next.get(current)
            if current is not None and current in path:  # a loop closed on this path
                walked = list(path)
                loop = tuple(walked[path[current] :])
                for place, name in enumerate(loop):
                    self._loop[name] = (loop, place)
            done.update(path)

    def _number_trees(self) -> None:
        below: dict[str, list[str]] = {}
        for name, target in self._next.items():
            if name not in self._loop:
                below.setdefault(target, []).append(name)
        clock = 0
        for root in self.replaces:
            if root in self._next and root not in self._loop:
                continue
            # Iterative depth-first numbering: a chain of thousands is deeper than Python's
            # recursion limit.
            stack: list[tuple[str, bool]] = [(root, False)]
            entered: dict[str, int] = {}
            while stack:
                name, leaving = stack.pop()
                if leaving:
                    self._span[name] = (entered[name], clock)
                    continue
                entered[name] = clock
                clock += 1
                self._root[name] = root
                stack.append((name, True))
                stack.extend((child, False) for child in below.get(name, ()))

    def replaced_by(self, name: str) -> str | None:
        """R-CSV-R2 "being replaced": a CSV other than this one whose ``spec.replaces`` names
        it (OLM takes the first it finds; here the first by name)."""
        return self._successor.get(name)

    def replaces_existing(self, name: str) -> str | None:
        """R-CSV-R2 "replacing": the CSV this one replaces, when it still exists."""
        return self._next.get(name)

    def cycle(self, name: str, most: int | None = None) -> tuple[str, ...]:
        """The loop of existing CSVs ``name`` sits on, following ``spec.replaces``, in walking
        order starting at ``name`` (its first ``most`` CSVs); empty when it is on none. OLM
        never garbage-collects such a chain because every member still replaces an existing
        CSV (R-CSV-R)."""
        if name not in self._loop:
            return ()
        loop, place = self._loop[name]
        rotated = loop[place:] + loop[:place] if most is None else loop[place : place + most]
        if most is not None and len(rotated) < most:
            rotated += loop[: min(place, most - len(rotated))]
        return rotated

    def loop_size(self, name: str) -> int:
        """How many CSVs the loop ``name`` sits on holds (0 when none)."""
        return len(self._loop[name][0]) if name in self._loop else 0

    def reaches(self, start: str, name: str) -> bool:
        """Whether following ``spec.replaces`` from ``start`` (itself included) meets
        ``name``."""
        if start not in self._root or name not in self._root:
            return False
        if name in self._loop:
            root = self._root[start]
            return root in self._loop and self._loop[root][0] is self._loop[name][0]
        first, end = self._span[name]
        return first <= self._span[start][0] < end

    def same_chain(self, name: str, other: str) -> bool:
        """R-CSV-O: ``other`` is linked to ``name`` by ``spec.replaces``, forward or backward
        (an ancestor or a descendant; a sibling is not)."""
        return self.reaches(name, other) or self.reaches(other, name)

    def chain_id(self, name: str) -> str | None:
        """The root ``name``'s chain hangs from (for a loop, its first CSV found): CSVs with
        different ids never share a chain."""
        root = self._root.get(name)
        return self._loop[root][0][0] if root in self._loop else root


def replacement_findings(
    namespace: str,
    name: str,
    index: ReplacementIndex,
    held: Collection[str] = (),
) -> list[Finding]:
    """R-CSV-R2 (a CSV another one is replacing) and R-CSV-R (a ``spec.replaces`` loop).
    While the successor is in ``held`` (Pending/OperatorConditionNotUpgradeable, R-CSV-P 1)
    nothing says this CSV is being replaced: the held-upgrade finding tells it."""
    found: list[Finding] = []
    successor = index.replaced_by(name)
    if successor and successor not in held:
        found.append(
            findings.being_replaced(namespace, name, successor, index.replaces_existing(name))
        )
    # A finding names at most LOOP_SHOWN CSVs of a loop: one of thousands listed whole by each
    # member would cost memory quadratic in its length.
    size = index.loop_size(name)
    if size:
        shown = index.cycle(name, findings.LOOP_SHOWN)
        found.append(findings.replacement_cycle(namespace, name, shown, size))
    return found
