"""The copied CSVs the model has seen, by source, and what it has concluded about them.

A cluster may hold a hundred thousand copies (one per namespace for each global operator),
so nothing here rescans them: a copy that comes or goes touches its own source's entry, a
source whose copy context changes rechecks only the copies it may affect, and the findings
of a source are rebuilt once when next read, not once per batch that brought one of its
copies. The rules themselves (what is expected where, why a copy is stale) are
``olmtui.model.rules.copies.placement``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from olmtui.model.incremental.stages import NSKey
from olmtui.model.records.types import CopiedCSVState, Finding, MissingCopy, StaleCopy, ref
from olmtui.model.rules.copies.placement import (
    CopySource,
    copy_findings,
    copy_source,
    expected_copy_namespaces,
    has_operator_namespace,
    stale_reason,
)
from olmtui.objects import Obj

_NO_SOURCE = CopySource()


class CopyTracker:
    """Copies by source and by namespace, their sources' contexts, the expected copies each
    source lacks (R-COPY-3) and the copies OLM does not expect (R-COPY-4..7).

    ``visible`` are the namespaces whose copies were read (``Store.read_namespaces``,
    ``None`` for all): a copy expected elsewhere may well be there, so it is not missing."""

    def __init__(self, visible: frozenset[str] | None = None) -> None:
        self._visible = visible
        #: Source CSV -> namespace -> its copy there.
        self._held: dict[NSKey, dict[str, Obj]] = {}
        #: Copy -> its source CSV.
        self._source_of: dict[NSKey, NSKey] = {}
        #: Namespace -> names of the copies in it.
        self._in_namespace: dict[str, set[str]] = {}
        self._contexts: dict[NSKey, CopySource] = {}
        #: Expected copy namespaces without a copy, per source (kept up to date in place:
        #: a global operator expects a copy in every namespace).
        self._missing: dict[NSKey, set[str]] = {}
        self._stale: dict[NSKey, str] = {}
        self._stale_by_source: dict[NSKey, dict[str, str]] = {}
        #: Sources whose findings are rebuilt when findings are next read.
        self.pending_findings: set[NSKey] = set()
        self.findings: dict[NSKey, tuple[Finding, ...]] = {}
        #: Expected copy namespaces per (group namespace, status, copies disabled), shared by
        #: the CSVs of one group and dropped whenever a namespace comes or goes.
        self._expected: dict[tuple[str, tuple[str, ...] | None, bool], frozenset[str]] = {}
        self._expected_sorted: dict[frozenset[str], tuple[str, ...]] = {}

    # -- reading ----------------------------------------------------------------------------
    def source_of(self, key: NSKey) -> NSKey | None:
        return self._source_of.get(key)

    def held(self, source: NSKey) -> dict[str, Obj]:
        """Namespace -> copy, of one source (empty when it has none)."""
        return self._held.get(source) or {}

    def count(self, source: NSKey) -> int:
        return len(self._held.get(source) or ())

    def in_namespace(self, namespace: str) -> set[str]:
        return self._in_namespace.get(namespace) or set()

    def copied(self) -> CopiedCSVState:
        missing = sorted(
            (MissingCopy(ref(*src), ns) for src, nss in self._missing.items() for ns in nss),
            key=lambda m: (m.csv, m.namespace),
        )
        stale = [
            StaleCopy(namespace, name, self._source_of[(namespace, name)][0], reason)
            for (namespace, name), reason in self._stale.items()
        ]
        stale.sort(key=lambda s: (s.namespace, s.name))
        return CopiedCSVState(len(self._source_of), tuple(missing), tuple(stale))

    # -- the change feed --------------------------------------------------------------------
    def add(self, key: NSKey, copy: Obj) -> NSKey:
        """Index a new copy; returns its source."""
        source = copy_source(copy)
        self._source_of[key] = source
        self._held.setdefault(source, {})[key[0]] = copy
        self._in_namespace.setdefault(key[0], set()).add(key[1])
        return source

    def refresh(self, key: NSKey, copy: Obj) -> bool:
        """A copy changed without changing its source: keep the new one. ``False`` when its
        source changed (then it is removed and added again)."""
        source = self._source_of.get(key)
        if source is None or copy_source(copy) != source:
            return False
        self._held[source][key[0]] = copy
        return True

    def remove(self, key: NSKey) -> NSKey | None:
        """Forget a copy; returns its source (``None`` when it was not indexed)."""
        source = self._source_of.pop(key, None)
        if source is None:
            return None
        held = self._held.get(source, {})
        held.pop(key[0], None)
        if not held:
            self._held.pop(source, None)
        self._in_namespace.get(key[0], set()).discard(key[1])
        if self._stale.pop(key, None) is not None:
            self._stale_by_source.get(source, {}).pop(key[0], None)
            self.pending_findings.add(source)
        return source

    # -- expected copies (R-COPY-3) -----------------------------------------------------------
    def expected(
        self,
        og_namespace: str,
        status: tuple[str, ...] | None,
        namespaces: Iterable[str],
        disabled: bool,
    ) -> frozenset[str]:
        slot = (og_namespace, status, disabled)
        found = self._expected.get(slot)
        if found is None:
            found = expected_copy_namespaces(og_namespace, status, namespaces, disabled)
            self._expected[slot] = found
        return found

    def expected_sorted(self, expected: frozenset[str]) -> tuple[str, ...]:
        """Sorted expected copies, one sort per expected set: the CSVs of a group share it."""
        found = self._expected_sorted.get(expected)
        if found is None:
            found = self._expected_sorted[expected] = tuple(sorted(expected))
        return found

    def namespaces_changed(self) -> None:
        """A namespace came or went: every expected set may change."""
        self._expected.clear()
        self._expected_sorted.clear()

    # -- recomputation ------------------------------------------------------------------------
    def recompute_source(
        self, source: NSKey, context: CopySource, keep: bool, moved: set[str] | None
    ) -> set[NSKey]:
        """A source CSV's copy context may have changed, or copies came and went in
        ``moved``. Returns the copies to recheck; marks the source's findings stale when what
        they show (missing copies, group) changed. ``keep`` says whether the context is kept
        even without copies (the source CSV exists)."""
        held = self._held.get(source) or {}
        old = self._contexts.get(source)
        if old == context:
            if moved and self._move_missing(source, context.expected, held, moved):
                self.pending_findings.add(source)
            return set()
        if held or keep:
            self._contexts[source] = context
        else:
            self._contexts.pop(source, None)
        if (
            old is not None
            and old.group == context.group
            and (old.gc_reason, old.parent_targets, old.not_copied)
            == (context.gc_reason, context.parent_targets, context.not_copied)
        ):
            # Only the expected namespaces moved (a namespace came or went): recheck the
            # copies there, not all of them.
            recheck = {(ns, source[1]) for ns in old.expected ^ context.expected if ns in held}
        else:
            recheck = {(ns, source[1]) for ns in held}
        missing = context.expected.difference(held)
        if self._visible is not None:
            missing &= self._visible
        if missing:
            self._missing[source] = set(missing)
        else:
            self._missing.pop(source, None)
        self.pending_findings.add(source)
        return recheck

    def _move_missing(
        self, source: NSKey, expected: frozenset[str], held: dict[str, Obj], moved: set[str]
    ) -> bool:
        """R-COPY-3 again, when only copies came or went (in ``moved``): a global operator
        expects a copy in every namespace, so a relist of its copies must not rescan them."""
        missing = self._missing.get(source)
        changed = False
        for namespace in moved:
            wanted = namespace in expected and namespace not in held and self._seen(namespace)
            if wanted == (missing is not None and namespace in missing):
                continue
            changed = True
            if wanted:
                missing = self._missing.setdefault(source, set())
                missing.add(namespace)
            elif missing is not None:
                missing.discard(namespace)
        if missing is not None and not missing:
            del self._missing[source]
        return changed

    def _seen(self, namespace: str) -> bool:
        """Whether the copies of ``namespace`` were read, so that none there means none."""
        return self._visible is None or namespace in self._visible

    def recompute_copy(self, key: NSKey) -> None:
        """R-COPY-4..7: whether OLM expects this copy where it is."""
        source = self._source_of.get(key)
        if source is None:
            return
        copy = self._held[source][key[0]]
        context = self._contexts.get(source) or _NO_SOURCE
        reason = stale_reason(key[0], has_operator_namespace(copy), context)
        if reason == self._stale.get(key):
            return
        by_source = self._stale_by_source.setdefault(source, {})
        if reason is None:
            self._stale.pop(key, None)
            by_source.pop(key[0], None)
        else:
            self._stale[key] = reason
            by_source[key[0]] = reason
        if not by_source:
            self._stale_by_source.pop(source, None)
        self.pending_findings.add(source)

    def settle_findings(self, parent_exists: Callable[[NSKey], bool]) -> None:
        """Rebuild the findings of the sources marked since the last read; ``parent_exists``
        says whether a source CSV exists."""
        for source in self.pending_findings:
            found = copy_findings(
                source,
                self._missing.get(source),
                self._contexts.get(source),
                self._stale_by_source.get(source),
                parent_exists(source),
            )
            if found:
                self.findings[source] = found
            else:
                self.findings.pop(source, None)
        self.pending_findings.clear()
