"""What OLM would do next on a changed copy of the state: ``olmtui whatif`` and the proof of
a remedy before it is offered.

The session's own cache is never changed (the dashboard keeps showing what is observed).
A :class:`Simulator` keeps a copy of it (``Store.copy``: the objects shared) with a Model
and a HealthIndex of its own, built once per state of the session. A trial applies its
changes to the copy, then OLM's next reactions as ``model/diagnosis/reactions.py`` models
them, resolving again the namespaces they name; the copy's model and index follow the
change feed, so a trial costs in proportion to what it changed. The findings are read, and
the copy is put back as it was. A session read once and shown nowhere (``whatif``) may
be tried on in place (:class:`Simulator` ``in_place``): the same trials, put back the same
way, without the second model.
"""

from __future__ import annotations

import datetime as dt
from bisect import insort
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol

from olmtui.model.diagnosis.changes import ChangeError, applied
from olmtui.model.diagnosis.reactions import Reaction, react, resolved
from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import finding_order, without_model_duplicates
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.diagnosis import Change, FindingKey, Remedy, finding_key
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.operatorgroups.operatorgroups import uid_label
from olmtui.model.rules.resolution.resolution_outcome import resolution_outcome_findings
from olmtui.model.rules.resolution.resolve import (
    CatalogContent,
    NamespaceObjects,
    global_catalog_namespace,
    resolve_namespace,
)
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.model.rules.upgrades.upgrades import upgrade_hook
from olmtui.store import CLUSTER_SCOPED, Key, Malformed, Obj, Store
from olmtui.store import Change as StoreChange

#: Kinds whose change can move what every namespace resolves against (R-RES-3, R-RES-4):
#: then every namespace is resolved again, not only the changed ones.
_EVERY_NAMESPACE_KINDS = frozenset({"CatalogSource"})
#: Steps whose fix lies outside the objects olmtui holds: a remedy with one is not simulated.
_OUTSIDE_THE_STATE = frozenset({"upgrade-cluster", "contact-author"})
#: How many reactions may follow one another (a reaction's changes react in turn) before
#: the simulation stops: OLM's loop settles in fewer.
_MAX_ROUNDS = 4


class SimulationSource(Protocol):
    """What the simulation reads of its session (``pipeline/session.py``)."""

    @property
    def store(self) -> Store: ...
    @property
    def model(self) -> Model: ...
    @property
    def catalogs(self) -> Callable[[], list[Catalog]]: ...
    @property
    def load_findings(self) -> list[Finding]: ...
    @property
    def clock(self) -> Callable[[], dt.datetime] | None: ...
    @property
    def global_namespace(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """One trial: the findings and resolutions before and after, what OLM did next in
    words, and what the simulation could not model (``missing``, empty when it modelled
    all it needed)."""

    changes: tuple[Change, ...]
    before: tuple[Finding, ...]
    after: tuple[Finding, ...]
    before_resolution: tuple[NamespaceResolution, ...]
    after_resolution: tuple[NamespaceResolution, ...]
    next: tuple[str, ...]
    missing: tuple[str, ...]
    #: Findings before whose key no finding after holds, and the reverse.
    cleared: tuple[Finding, ...] = ()
    new: tuple[Finding, ...] = ()
    #: The keys of ``before`` (shared by every trial of one state).
    before_keys: frozenset[FindingKey] = field(default=frozenset(), repr=False, compare=False)

    def finding(self, key: FindingKey) -> Finding | None:
        """The finding after that ``key`` names, if any."""
        if key not in self.before_keys:
            return next((f for f in self.new if finding_key(f) == key), None)
        if any(finding_key(f) == key for f in self.cleared):
            return None
        return next((f for f in self.after if finding_key(f) == key), None)


def _diff(
    before: dict[int, Finding], after: Sequence[Finding]
) -> tuple[tuple[Finding, ...], tuple[Finding, ...], int]:
    """``(cleared, new)`` by key. The index keeps the findings of unchanged subjects as the
    same objects, so only those not shared by identity are keyed: a trial costs what it
    changed, not a pass keying every finding of the cluster. The third value counts the
    findings before not shared by identity."""
    after_by_id = dict(zip(map(id, after), after, strict=True))
    gone = [before[i] for i in before.keys() - after_by_id.keys()]
    came = [after_by_id[i] for i in after_by_id.keys() - before.keys()]
    gone_keys = {finding_key(f) for f in gone}
    came_keys = {finding_key(f) for f in came}
    cleared = sorted((f for f in gone if finding_key(f) not in came_keys), key=finding_order)
    new = sorted((f for f in came if finding_key(f) not in gone_keys), key=finding_order)
    return tuple(cleared), tuple(new), len(gone)


#: The kinds one namespace's resolution reads (R-RES-22), kept by namespace for the trials.
_RESOLUTION_KINDS = ("OperatorGroup", "Subscription", "ClusterServiceVersion", "CatalogSource")


class _ByNamespace:
    """The objects a resolution reads, by kind, namespace and name, kept from the copy's
    change feed: resolving the one namespace a trial changed must not pass over every
    copied CSV of the cluster (``resolve.cluster_objects`` does, once per call)."""

    def __init__(self, store: Store) -> None:
        self._held: dict[str, dict[str, dict[str, Obj]]] = {k: {} for k in _RESOLUTION_KINDS}
        for kind in _RESOLUTION_KINDS:
            held = self._held[kind]
            for (namespace, name), obj in store.slots(kind):
                held.setdefault(namespace, {})[name] = obj
        self._store = store
        store.subscribe(self._on_changes)

    def close(self) -> None:
        self._store.unsubscribe(self._on_changes)

    def _on_changes(self, changes: list[StoreChange]) -> None:
        for change in changes:
            held = self._held.get(change.key.kind)
            if held is None:
                continue
            key = change.key
            if change.new is not None:
                held.setdefault(key.namespace, {})[key.name] = change.new
                continue
            objs = held.get(key.namespace)
            if objs is not None:
                objs.pop(key.name, None)
                if not objs:
                    del held[key.namespace]

    def objects(self, kind: str, namespace: str) -> list[Obj]:
        """Sorted by name, as OLM lists them (R-RES-1)."""
        objs = self._held[kind].get(namespace, {})
        return [objs[name] for name in sorted(objs)]

    def held(self, kind: str) -> bool:
        return kind in self._held

    def in_namespace(self, kind: str, namespace: str) -> Iterator[Obj]:
        return iter(list(self._held[kind].get(namespace, {}).values()))

    def namespaces(self, kind: str) -> set[str]:
        return set(self._held[kind])

    def catalog_sources(self) -> dict[str, list[Obj]]:
        return {ns: list(objs.values()) for ns, objs in self._held["CatalogSource"].items()}


class _Reader:
    """What the reactions read (``reactions.StateReader``): the cache, with one namespace's
    Subscriptions or groups from the objects kept by namespace (``Store.list`` with a
    namespace passes over the whole kind)."""

    def __init__(self, store: Store, by_namespace: _ByNamespace) -> None:
        self._store = store
        self._by_namespace = by_namespace

    def get(self, kind: str, namespace: str, name: str) -> Obj | None:
        return self._store.get(kind, namespace, name)

    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]:
        if namespace is not None and self._by_namespace.held(kind):
            return self._by_namespace.in_namespace(kind, namespace)
        return self._store.list(kind, namespace)


class _Copy:
    """The session's state copied once: a cache, its model, health index and objects by
    namespace, and the resolutions and findings of the state at rest."""

    def __init__(self, source: SimulationSource, in_place: bool) -> None:
        catalogs = source.catalogs()
        self.catalogs = catalogs
        self.content = CatalogContent(catalogs)
        if in_place:
            self.store, self.model = source.store, source.model
        else:
            self.store = source.store.copy()
            self.model = Model(self.store, upgrades=upgrade_hook(catalogs))
        self.index = HealthIndex(
            self.store, self.model, lambda: catalogs, source.load_findings, clock=source.clock
        )
        self.by_namespace = _ByNamespace(self.store)
        self.reader = _Reader(self.store, self.by_namespace)
        self.global_namespace = source.global_namespace
        self.catalog_content = any(c.graph == "catalog" for c in catalogs)
        self.resolutions = {r.namespace: r for r in self.resolve(None)}
        self.resolutions_sorted = tuple(self.resolutions[n] for n in sorted(self.resolutions))
        self.predicted = self.predicted_findings(self.resolutions.values(), None)
        self.findings = self.all_findings(self.predicted)
        self.before_by_id = {id(f): f for f in self.findings}
        self.before_keys = frozenset(finding_key(f) for f in self.findings)
        #: How many findings at rest the last trial's index no longer held by identity.
        self.churn = 0
        #: Outcomes of the changes tried on this state (see ``Simulator._outcome``).
        self.outcomes: dict[tuple[Change, ...], Outcome] = {}

    def refresh(self) -> None:
        """After a trial is put back: when the subjects it recomputed hold findings equal
        to, but not the same objects as, those at rest, take the index's as the findings
        at rest again, so that the next trial's diff stays in proportion to its change."""
        if self.churn * 4 <= len(self.findings) + 64:
            return
        self.findings = self.all_findings(self.predicted)
        self.before_by_id = {id(f): f for f in self.findings}
        self.churn = 0

    def close(self) -> None:
        self.index.close()
        self.by_namespace.close()

    def subscription_namespaces(self) -> set[str]:
        return self.by_namespace.namespaces("Subscription")

    def resolve(self, only: Collection[str] | None) -> list[NamespaceResolution]:
        """What OLM's next sync decides in ``only`` (None: every namespace holding a
        Subscription, R-RES-1), as ``resolve.resolve_cluster`` reads the cache."""
        store, index = self.store, self.by_namespace
        global_ns = self.global_namespace or global_catalog_namespace(store)
        namespaces = self.subscription_namespaces()
        if only is not None:
            namespaces &= set(only)
        sources = index.catalog_sources()
        return [
            resolve_namespace(
                NamespaceObjects(
                    namespace=ns,
                    operator_groups=index.objects("OperatorGroup", ns),
                    subscriptions=index.objects("Subscription", ns),
                    csvs=index.objects("ClusterServiceVersion", ns),
                    catalog_sources=sources,
                    catalog_sources_read="CatalogSource" not in store.unreadable,
                    read_namespaces=store.read_namespaces,
                ),
                self.content,
                global_ns,
            )
            for ns in sorted(namespaces)
        ]

    def predicted_findings(
        self, resolutions: Iterable[NamespaceResolution], namespaces: set[str] | None
    ) -> dict[str, list[Finding]]:
        """The findings ``check`` draws from the resolutions (``Analysis.report``), by
        namespace; a namespace's depend on its resolution and its own Subscriptions'
        findings only. ``namespaces``: those to compute (None: all)."""
        held = self.index.findings()
        known = [f for f in held if namespaces is None or f.namespace in namespaces]
        found: dict[str, list[Finding]] = {}
        for finding in resolution_outcome_findings(
            resolutions, catalog_content=self.catalog_content, known=known
        ):
            # a namespace's own finding names it as its object (kind Namespace)
            where = finding.namespace or finding.name
            found.setdefault(where, []).append(finding)
        return found

    def all_findings(self, predicted: dict[str, list[Finding]]) -> tuple[Finding, ...]:
        """Every finding ``check`` reports for the copy now: the index's (loader, model,
        health, in order) and those drawn from the resolutions."""
        merged = list(self.index.findings())
        extra = [f for found in predicted.values() for f in found]
        for finding in without_model_duplicates(extra, self.model.findings()):
            insort(merged, finding, key=finding_order)
        return tuple(merged)


class Simulator:
    """Trials of changes on a copy of one session's state (see the module docstring).

    ``in_place``: the session is read once and shown nowhere (``whatif``, ``check``): the
    trials change its own cache and model, and put them back after each, rather than pay
    for a second model over a copy (a second of CPU at 20,000 copied CSVs). Never for a
    session a screen shows: the screens would draw the trial's state."""

    def __init__(self, source: SimulationSource, *, in_place: bool = False) -> None:
        self._source = source
        self._in_place = in_place
        self._copy: _Copy | None = None
        self._built_at: int | None = None

    @property
    def in_place(self) -> bool:
        return self._in_place

    def close(self) -> None:
        """Stop following the cache (the copy's, or the session's own in place)."""
        if self._copy is not None:
            self._copy.close()
            self._copy = None

    def _state(self) -> _Copy:
        """The copy, made again when the session's state moved since."""
        version = self._source.model.version
        if self._copy is None or self._built_at != version:
            if self._copy is not None:
                self._copy.close()
            self._copy = _Copy(self._source, self._in_place)
            self._built_at = version
        return self._copy

    @contextmanager
    def trial(self, changes: Sequence[Change]) -> Iterator[tuple[Outcome, Store]]:
        """Apply ``changes`` and OLM's next reactions to the copy; yield the outcome and
        the changed cache (to read, never to change), then put the copy back.
        ``ChangeError`` when a change cannot be applied (its object is not there...)."""
        state = self._state()
        journal: dict[Key, tuple[Obj | None, Malformed | None]] = {}
        try:
            yield self._run(state, changes, journal), state.store
        finally:
            _restore(state.store, journal)
            state.refresh()
            if self._in_place:  # put back as it was: the version moved, not the state
                self._built_at = self._source.model.version

    def run(self, changes: Sequence[Change]) -> Outcome:
        """The outcome of ``changes`` (the copy put back after)."""
        with self.trial(changes) as (outcome, _):
            return outcome

    def _run(
        self,
        state: _Copy,
        changes: Sequence[Change],
        journal: dict[Key, tuple[Obj | None, Malformed | None]],
    ) -> Outcome:
        store = state.store
        reaction = Reaction()
        touched: set[str] = set()
        every = False
        pending = list(changes)
        for round_ in range(_MAX_ROUNDS):
            followed = Reaction()
            # the round's changes first, then OLM's reactions to the state they leave: a
            # Subscription deleted before its CSV in one plan leaves no CSV behind
            done = [(change, *_apply(store, change, journal)) for change in pending]
            for change, old, new in done:
                touched.add(change.target.namespace)
                every |= _moves_every_namespace(change.target, state)
                followed.add(react(state.reader, change, old, new, made=round_ == 0))
            reaction.lines += followed.lines
            reaction.missing += followed.missing
            reaction.resolve |= followed.resolve
            pending = followed.changes
            if not pending:
                break
        reaction.lines += _sync_groups(state, journal)
        resolutions = dict(state.resolutions)
        # R-RES-1: OLM resolves a namespace again on a change there; what it writes back is
        # modelled where a reaction asked, or where the resolution failed before (the
        # change may have unblocked it), not where a resolved plan may already be under way
        again = set(reaction.resolve) | {
            namespace
            for namespace in touched
            if namespace in state.resolutions
            and state.resolutions[namespace].status in ("unsatisfiable", "failed")
        }
        # namespaces whose resolution stands after what it wrote back: a failure written
        # as conditions, or nothing to install, leaves every input of the resolver as it was
        settled: set[str] = set()
        if again:
            for found in state.resolve(again):
                resolutions[found.namespace] = found
                if not state.catalog_content:
                    settled.add(found.namespace)
                    continue
                if found.status != "resolved" or not found.changes:
                    settled.add(found.namespace)
                written = resolved(state.reader, found)
                reaction.lines += written.lines
                reaction.missing += written.missing
                for change in written.changes:
                    _apply(store, change, journal)
                    touched.add(change.target.namespace)
            if not state.catalog_content:
                reaction.missing.append(
                    "catalog content (--catalog) for the CatalogSources of "
                    + ", ".join(sorted(again))
                    + ": OLM resolves again there, and olmtui cannot say to what (R-RES-22)"
                )
        held = state.subscription_namespaces()
        scope = held if every else (touched | again) & held
        for found in state.resolve(scope - settled):
            resolutions[found.namespace] = found
        for namespace in set(resolutions) - held:
            del resolutions[namespace]
        # a namespace's predicted findings move with its resolution or its own findings
        moved = scope | touched
        predicted = {ns: found for ns, found in state.predicted.items() if ns not in moved}
        predicted.update(
            state.predicted_findings((resolutions[n] for n in moved if n in resolutions), moved)
        )
        after = state.all_findings(predicted)
        cleared, appeared, churn = _diff(state.before_by_id, after)
        state.churn = churn
        return Outcome(
            tuple(changes),
            state.findings,
            after,
            state.resolutions_sorted,
            tuple(resolutions[n] for n in sorted(resolutions)),
            tuple(reaction.lines),
            tuple(dict.fromkeys(reaction.missing)),
            cleared,
            appeared,
            state.before_keys,
        )

    def _outcome(self, changes: tuple[Change, ...]) -> Outcome:
        """:meth:`run`, kept per state for changes without a body: the findings of one
        incident often share a remedy (approve the one plan three findings name)."""
        state = self._state()
        if any(c.body is not None for c in changes):
            return self.run(changes)
        kept = state.outcomes.get(changes)
        if kept is None:
            kept = state.outcomes[changes] = self.run(changes)
        return kept

    def verify(self, remedy: Remedy, clears: Collection[FindingKey]) -> Remedy:
        """``remedy`` with ``verified``, ``outcome`` and ``missing`` set from a trial of its
        steps' changes: ``simulated`` when every finding of ``clears`` (the finding and
        those it causes) is gone after, with no new error; otherwise ``not-simulated``,
        with ``missing`` naming what the simulation lacked, or (refused: see
        :func:`refused`) ``missing`` ``None`` and ``outcome`` saying what would happen
        instead."""
        changes = [c for step in remedy.steps for c in step.changes]
        outside = [s for s in remedy.steps if not s.changes and s.action in _OUTSIDE_THE_STATE]
        if not changes or outside:
            what = "; ".join(s.text for s in outside) or "no step changes what olmtui holds"
            return replace(
                remedy,
                verified="not-simulated",
                outcome="",
                missing=f"not simulated: the fix lies outside the state olmtui holds ({what})",
            )
        try:
            outcome = self._outcome(tuple(changes))
        except ChangeError as exc:
            return replace(remedy, verified="not-simulated", outcome="", missing=str(exc))
        # a step that says to fix or check something olmtui does not hold (a webhook, an
        # image) is taken as done, and the outcome says so
        assumed = tuple(s.text for s in remedy.steps if not s.changes and s.action != "wait")
        return _judged(remedy, outcome, set(clears), assumed)


def refused(remedy: Remedy) -> bool:
    """Whether a trial ran and showed the remedy fails (not only that it could not run)."""
    return remedy.verified == "not-simulated" and remedy.missing is None and bool(remedy.outcome)


def _judged(
    remedy: Remedy, outcome: Outcome, clears: set[FindingKey], assumed: tuple[str, ...] = ()
) -> Remedy:
    did = "; ".join([*(f"taken as done: {text.rstrip('.')}" for text in assumed), *outcome.next])
    if outcome.missing:  # a reaction not modelled: neither proof nor refusal
        return replace(
            remedy,
            verified="not-simulated",
            outcome=did,
            missing="; ".join(outcome.missing),
        )
    stays = [f for k in sorted(clears) if (f := outcome.finding(k)) is not None]
    new_errors = [f for f in outcome.new if f.severity == "error"]
    if stays or new_errors:
        why = [f"{f.code} stays on {_what(f)}" for f in stays]
        why += [f"new error {f.code} on {_what(f)}: {f.message}" for f in new_errors]
        return replace(
            remedy,
            verified="not-simulated",
            outcome="; ".join(filter(None, [did, *why])),
            missing=None,
        )
    gone = sorted({code for code, *_ in clears if code})
    cleared = f"{', '.join(gone)} clear{'s' if len(gone) == 1 else ''}" if gone else ""
    return replace(
        remedy,
        verified="simulated",
        outcome="; ".join(filter(None, [did, cleared])),
        missing=None,
    )


def _what(finding: Finding) -> str:
    where = f"{finding.namespace}/" if finding.namespace else ""
    return f"{finding.kind} {where}{finding.name}"


def _moves_every_namespace(target: ObjectRef, state: _Copy) -> bool:
    """Whether a change of ``target`` can move the resolution of namespaces other than its
    own: a cluster-scoped object, a catalog of the global catalog namespace (R-RES-3)."""
    if target.kind in CLUSTER_SCOPED or not target.namespace:
        return True
    global_ns = state.global_namespace or global_catalog_namespace(state.store)
    return target.kind in _EVERY_NAMESPACE_KINDS and target.namespace == global_ns


def _sync_groups(
    state: _Copy, journal: dict[Key, tuple[Obj | None, Malformed | None]]
) -> list[str]:
    """OLM's sync of each OperatorGroup the trial created or changed the spec of: its
    computed targets written to ``status.namespaces`` (R-OG-2; not when an error keeps the
    status, or when there are none) and the uid label on its targets (R-OG-5). The targets
    are the model's (R-OG-1), so this runs once the changes are in."""
    lines: list[str] = []
    store = state.store
    for key, (old, _) in list(journal.items()):
        if key.kind != "OperatorGroup":
            continue
        obj = store.get(key.kind, key.namespace, key.name)
        if obj is None or (old is not None and old.get("spec") == obj.get("spec")):
            continue
        group = state.model.operator_group(key.namespace, key.name)
        if group is None or group.selection_errors or not group.target_namespaces:
            continue
        targets = group.target_namespaces
        if set(group.status_namespaces or ()) != set(targets):
            synced = {**obj, "status": {**(obj.get("status") or {}), "namespaces": list(targets)}}
            _apply(
                store,
                Change("patch", ObjectRef(key.kind, key.namespace, key.name), body=synced),
                journal,
            )
            lines.append(
                f"OLM writes OperatorGroup {key.namespace}/{key.name} status.namespaces: "
                f"{', '.join(t or '(all)' for t in targets)} (R-OG-2)"
            )
        label = uid_label(obj)
        if label is None or targets == ("",):
            continue
        for namespace in store.list("Namespace"):
            name = namespace["metadata"]["name"]
            labels = dict(namespace["metadata"].get("labels") or {})
            if (name in targets) == (label in labels):
                continue
            if name in targets:
                labels[label] = ""
            else:
                del labels[label]
            labelled = {**namespace, "metadata": {**namespace["metadata"], "labels": labels}}
            _apply(store, Change("patch", ObjectRef("Namespace", "", name), body=labelled), journal)
    return lines


def _apply(
    store: Store, change: Change, journal: dict[Key, tuple[Obj | None, Malformed | None]]
) -> tuple[Obj | None, Obj | None]:
    """Apply one change to ``store``, noting in ``journal`` what its object was first."""
    target = change.target
    key = Key(target.kind, target.namespace, target.name)
    old = store.get(target.kind, target.namespace, target.name)
    new = applied(old, change)
    if key not in journal:
        journal[key] = (old, store.malformed.get(key))
    if new is None:
        store.apply("DELETED", old or {})
    else:
        store.apply("MODIFIED" if old is not None else "ADDED", new)
    return old, store.get(target.kind, target.namespace, target.name)


def _restore(store: Store, journal: dict[Key, tuple[Obj | None, Malformed | None]]) -> None:
    """Put every object the journal noted back as it was (and its malformed record)."""
    for key, (old, malformed) in reversed(list(journal.items())):
        if old is None:
            current = store.get(key.kind, key.namespace, key.name)
            if current is not None:
                store.apply("DELETED", current)
        else:
            store.apply("MODIFIED", old)
        if malformed is None:
            store.malformed.pop(key, None)
        else:
            store.malformed[key] = malformed
