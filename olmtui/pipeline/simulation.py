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

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from olmtui.kinds import CLUSTER_EXTENSION
from olmtui.model.diagnosis.changes import ChangeError, applied
from olmtui.model.diagnosis.reactions import Reaction, react, resolved
from olmtui.model.diagnosis.remedies.steps import NOT_SIMULATED
from olmtui.model.diagnosis.v1_reactions import extension_changed
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.model.records.diagnosis import Change, FindingKey, Remedy
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.operatorgroups.targets import uid_label
from olmtui.model.rules.resolution.result import NamespaceResolution
from olmtui.pipeline.resolution_inputs import default_global_namespace
from olmtui.pipeline.simulated_state import SimulatedState, SimulationSource
from olmtui.pipeline.simulation_outcome import Outcome, diff, judged
from olmtui.pipeline.simulation_outcome import refused as refused  # re-exported
from olmtui.store import CLUSTER_SCOPED, HeldFeed, Key, Malformed, Obj, Store

#: Kinds whose change can move what every namespace resolves against (R-RES-3, R-RES-4):
#: then every namespace is resolved again, not only the changed ones.
_EVERY_NAMESPACE_KINDS = frozenset({"CatalogSource"})
#: Steps whose fix lies outside the objects olmtui holds: a remedy with one is not simulated.
_OUTSIDE_THE_STATE = frozenset({"upgrade-cluster", "contact-author"})
#: How many reactions may follow one another (a reaction's changes react in turn) before
#: the simulation stops: OLM's loop settles in fewer.
_MAX_ROUNDS = 4


class Simulator:
    """Trials of changes on a copy of one session's state (see the module docstring).

    ``in_place``: the session is read once and shown nowhere (``whatif``): the
    trials change its own cache and model, and put them back after each, rather than pay
    for a second model over a copy (a second of CPU at 20,000 copied CSVs). Never for a
    session a screen shows: the screens would draw the trial's state. ``index``: in place,
    the session's own health index, which the trials then share (``SimulatedState``).
    ``at_rest``: in place, every namespace's resolution of the state as it is, when the
    session has it (``None`` when not, or when the state moved since it was made)."""

    def __init__(
        self,
        source: SimulationSource,
        *,
        in_place: bool = False,
        index: Callable[[], HealthIndex] | None = None,
        at_rest: Callable[[], list[NamespaceResolution] | None] | None = None,
    ) -> None:
        self._source = source
        self._in_place = in_place
        self._index = index
        self._at_rest = at_rest
        self._copy: SimulatedState | None = None
        self._built_at: int | None = None

    @property
    def in_place(self) -> bool:
        return self._in_place

    def close(self) -> None:
        """Stop following the cache (the copy's, or the session's own in place)."""
        if self._copy is not None:
            self._copy.close()
            self._copy = None

    def _state(self) -> SimulatedState:
        """The copy, made again when the session's state moved since."""
        version = self._source.model.version
        if self._copy is None or self._built_at != version:
            if self._copy is not None:
                self._copy.close()
            index = self._index() if self._in_place and self._index is not None else None
            at_rest = self._at_rest() if self._in_place and self._at_rest is not None else None
            self._copy = SimulatedState(self._source, self._in_place, index, at_rest)
            self._built_at = version
        return self._copy

    @contextmanager
    def trial(
        self, changes: Sequence[Change], *, proof: bool = False
    ) -> Iterator[tuple[Outcome, Store]]:
        """Apply ``changes`` and OLM's next reactions to the copy; yield the outcome and
        the changed cache (to read, never to change), then put the copy back.
        ``ChangeError`` when a change cannot be applied (its object is not there...).
        ``proof``: only the verdict of :meth:`verify` is wanted: a reaction olmtui does not
        model ends the trial there (the outcome's findings after are those before)."""
        state = self._state()
        journal: dict[Key, tuple[Obj | None, Malformed | None]] = {}
        # the reactions read the cache and the objects kept by namespace, never the model:
        # the model and the index follow only once the trial goes past the reactions
        feed = state.store.hold_feed(state.by_namespace.follow)
        try:
            yield self._run(state, changes, journal, feed, proof), state.store
        finally:
            _restore(state.store, journal)
            feed.close()  # put back as the model last saw it, when it was never released
            state.refresh()
            if self._in_place:  # put back as it was: the version moved, not the state
                self._built_at = self._source.model.version

    def run(self, changes: Sequence[Change]) -> Outcome:
        """The outcome of ``changes`` (the copy put back after)."""
        with self.trial(changes) as (outcome, _):
            return outcome

    def _run(
        self,
        state: SimulatedState,
        changes: Sequence[Change],
        journal: dict[Key, tuple[Obj | None, Malformed | None]],
        feed: HeldFeed,
        proof: bool = False,
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
                followed.add(_reaction(state, change, old, new, made=round_ == 0))
            reaction.lines += followed.lines
            reaction.missing += followed.missing
            reaction.resolve |= followed.resolve
            pending = followed.changes
            if not pending:
                break
        if proof and reaction.missing:
            # not simulated whatever follows (``judged``): the model following the change,
            # the resolution and the findings after, most of a trial's cost, are left out
            # (approving a plan whose manifests olmtui lacks, in every namespace of a cluster)
            before = state.findings
            resolutions_before = state.resolutions_sorted
            return Outcome(
                tuple(changes),
                before,
                before,
                resolutions_before,
                resolutions_before,
                tuple(reaction.lines),
                tuple(dict.fromkeys(reaction.missing)),
                before_keys=state.before_keys,
            )
        feed.release()
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
        after = state.all_findings(predicted, resolutions)
        cleared, appeared, churn = diff(state.before_by_id, after)
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
        """A proof's trial (:meth:`trial` with ``proof``), kept per state for changes
        without a body: the findings of one incident often share a remedy (approve the one
        plan three findings name)."""
        state = self._state()
        if any(c.body is not None for c in changes):
            with self.trial(changes, proof=True) as (outcome, _):
                return outcome
        kept = state.outcomes.get(changes)
        if kept is None:
            with self.trial(changes, proof=True) as (outcome, _):
                kept = state.outcomes[changes] = outcome
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
            # the plan's own word on what it lacks, where it says one, is the more precise
            said = remedy.missing if remedy.missing not in (None, NOT_SIMULATED) else None
            return replace(
                remedy,
                verified="not-simulated",
                outcome="",
                missing=said
                or f"not simulated: the fix lies outside the state olmtui holds ({what})",
            )
        try:
            outcome = self._outcome(tuple(changes))
        except ChangeError as exc:
            return replace(remedy, verified="not-simulated", outcome="", missing=str(exc))
        # a step that says to fix or check something olmtui does not hold (a webhook, an
        # image) is taken as done, and the outcome says so
        assumed = tuple(s.text for s in remedy.steps if not s.changes and s.action != "wait")
        return judged(remedy, outcome, set(clears), assumed)


def _reaction(
    state: SimulatedState, change: Change, old: Obj | None, new: Obj | None, *, made: bool
) -> Reaction:
    """OLM's next reactions to one applied change: OLM v1's to a ClusterExtension, read
    with the catalog content (R-CUP-7), OLM v0's to the rest."""
    if change.target.kind == CLUSTER_EXTENSION:
        return extension_changed(state.reader, change, old, new, state.catalogs)
    return react(state.reader, change, old, new, made=made)


def _moves_every_namespace(target: ObjectRef, state: SimulatedState) -> bool:
    """Whether a change of ``target`` can move the resolution of namespaces other than its
    own: a cluster-scoped object, a catalog of the global catalog namespace (R-RES-3)."""
    if target.kind in CLUSTER_SCOPED or not target.namespace:
        return True
    global_ns = state.global_namespace or default_global_namespace(state.store)
    return target.kind in _EVERY_NAMESPACE_KINDS and target.namespace == global_ns


def _sync_groups(
    state: SimulatedState, journal: dict[Key, tuple[Obj | None, Malformed | None]]
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
    """Apply one change to ``store``, noting in ``journal`` what its object was first. The
    wrong-typed fields the change leaves alone stay recorded (R-SRC-4): the cluster's object
    still holds them."""
    target = change.target
    key = Key(target.kind, target.namespace, target.name)
    old = store.get(target.kind, target.namespace, target.name)
    new = applied(old, change)
    before = store.malformed.get(key)
    if key not in journal:
        journal[key] = (old, before)
    store.put_back(key, new, None if new is None else _left_wrong(before, change))
    return old, store.get(target.kind, target.namespace, target.name)


def _left_wrong(before: Malformed | None, change: Change) -> Malformed | None:
    """The wrong-typed fields of ``before`` that ``change`` does not write."""
    if before is None or change.action in ("delete", "create"):
        return None
    field = "spec.approved" if change.action == "approve" else change.field
    if field is None:  # a whole object written back by a reaction: every field kept
        return before
    kept = tuple(
        p
        for p in before.problems
        if not (
            p.path == field
            or p.path.startswith((field + ".", field + "["))
            or field.startswith((p.path + ".", p.path + "["))
        )
    )
    return Malformed(before.origin, kept) if kept else None


def _restore(store: Store, journal: dict[Key, tuple[Obj | None, Malformed | None]]) -> None:
    """Put every object the journal noted back as it was, with its malformed record."""
    for key, (old, malformed) in reversed(list(journal.items())):
        store.put_back(key, old, malformed)
