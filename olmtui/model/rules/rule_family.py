"""What a health rule family declares, and the objects it reads: the one shape from which both
the from-scratch pass (``olmtui.model.incremental.health.health_findings``) and the incremental
index (``olmtui.model.incremental.health_index.HealthIndex``) are built.

A family's findings are kept per *subject* (a tuple whose first element is the family's
``tag``, e.g. ``("ns", "team-a")``). The family says:

* ``subjects``: every subject it has over the objects read now. The from-scratch pass
  computes each of them; the index recomputes them all when an event the family follows
  (``follows``) happens, and at construction.
* ``compute``: the findings of one subject, reading only :class:`HealthInputs`.
* ``reads`` and ``marks``: the kinds whose changes can move it, and for one such change the
  subjects it moves. The index asks only the families that read the changed kind.
* ``whole``: for a family whose subjects come from an index of its own (the cluster-wide
  partitions of ``olmtui.model.incremental.cluster_index``), its findings over every subject at
  once.

:class:`HealthInputs` holds the objects by the keys the rules read them by; the from-scratch
pass fills it in one pass over the Store, the index keeps it from the change feed and reads
the Subscriptions and non-copied CSVs from the Model's indexes. Kinds the
rules read whole or by name (CatalogSources, CRDs, cluster-scoped kinds) are read from the
Store itself (``objects``), never copied into a second index.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import (
    Callable,
    Collection,
    Container,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Protocol

from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding, SubscriptionState
from olmtui.objects import Obj
from olmtui.store import Key, Malformed

Subject = tuple[str, ...]
ByNamespace = dict[str, dict[str, Obj]]
#: Objects by namespace and name, as the rules read them (the incremental index hands the
#: Model's own indexes, which only the Model changes).
ReadByNamespace = Mapping[str, Mapping[str, Obj]]
#: The kind a family reads when every change may move it (the malformed-object rule).
ANY_KIND = "*"
#: The events beyond object changes a family may follow (every subject moves with them).
CONTENT = "content"  # the catalog content's graphs (``Catalog.graph == "catalog"``) moved
CATALOGS = "catalogs"  # the catalog content was read again (``--catalog``, PackageManifests)
CLOCK = "clock"  # a live session's wall clock moved on


class ObjectReader(Protocol):
    """What the rules read of the cache directly (``olmtui.store.Store`` is one)."""

    malformed: dict[Key, Malformed]

    def get(self, kind: str, namespace: str, name: str) -> Obj | None: ...

    def list(self, kind: str, namespace: str | None = None) -> Iterator[Obj]: ...

    def slots(self, kind: str) -> Iterable[tuple[tuple[str, str], Obj]]: ...

    def count(self, kind: str) -> int: ...

    def events_in_order(self, kind: str, namespace: str, name: str) -> tuple[Obj, ...]: ...


class Partitions(Protocol):
    """A family's own index of subjects
    (``olmtui.model.incremental.cluster_index.ClusterRules``)."""

    def compute(self, subject: Subject) -> list[Finding]: ...


class SlotsOf(Collection[tuple[str, str]]):
    """The ``(namespace, name)`` of every cached object of one kind, read from the cache
    (which CatalogSources exist, R-SUB-7) without a copy of its keys."""

    def __init__(self, objects: ObjectReader, kind: str) -> None:
        self._objects = objects
        self._kind = kind

    def __contains__(self, slot: object) -> bool:
        if not (isinstance(slot, tuple) and len(slot) == 2):
            return False
        return self._objects.get(self._kind, slot[0], slot[1]) is not None

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return (slot for slot, _ in self._objects.slots(self._kind))

    def __len__(self) -> int:
        return self._objects.count(self._kind)


@dataclass
class HealthInputs:
    """Every input of the health rules, by the keys they read it by.

    Namespaced kinds the rules read per namespace are held here by namespace and name (a
    Store scans a whole kind to list one namespace); ``installed`` holds the non-copied CSVs
    only (R-COPY-1). A namespace with nothing left is dropped, so ``bool(subs)`` says whether
    any Subscription is known. ``subs`` and ``installed`` are the Model's own indexes in the
    incremental index (``Model.subscriptions_by_namespace``,
    ``Model.installed_csvs_by_namespace``), not a second copy.
    """

    objects: ObjectReader
    subs: ReadByNamespace = field(default_factory=dict)
    plans: ByNamespace = field(default_factory=dict)
    installed: ReadByNamespace = field(default_factory=dict)
    deployments: ByNamespace = field(default_factory=dict)
    conditions: ByNamespace = field(default_factory=dict)
    #: OperatorGroups per namespace (R-SUB-9 reads only how many).
    groups: Counter[str] = field(default_factory=Counter)
    #: Service names by namespace (R-DOC-17 reads only which exist).
    services: dict[str, set[str]] = field(default_factory=dict)
    #: Every catalog content known (``--catalog``, PackageManifests, ClusterCatalog content).
    catalogs: Sequence[Catalog] = ()
    #: The content with upgrade edges (``graph == "catalog"``): what the upgrade rules read.
    content: Sequence[Catalog] = ()
    #: A live session's wall clock (CSV ages); snapshots have none.
    now: dt.datetime | None = None
    #: The engine's Subscription records (their next bundle, R-UPG-2).
    subscription_states: Callable[[], Iterable[SubscriptionState]] = tuple
    #: The cluster-wide partitions, kept by the index only (the from-scratch pass uses each
    #: family's ``whole``).
    partitions: Partitions | None = None


@dataclass(slots=True)
class Seen:
    """One change of the cache as the index saw it, after taking it into ``inputs``.

    For a CSV, ``old`` and ``new`` are the installed (non-copied) states only; ``users`` are,
    for a CatalogSource, the namespaces whose Subscriptions target it; the two ``*_moved``
    flags say whether any Subscription / InstallPlan is known changed with this one; ``held``
    are the subjects that hold findings now.
    """

    key: Key
    old: Obj | None
    new: Obj | None
    inputs: HealthInputs
    held: Container[Subject]
    users: Collection[str] = ()
    subs_known_moved: bool = False
    plans_known_moved: bool = False

    @property
    def added_or_removed(self) -> bool:
        return (self.old is None) != (self.new is None)


@dataclass(frozen=True)
class RuleFamily:
    """One family of health findings, declared once (see the module docstring)."""

    #: The first element of each of its subjects.
    tag: str
    #: The ``docs/rules.md`` ids of the rules it applies.
    rules: str
    #: The kinds whose changes can move it (``ANY_KIND``: every change).
    reads: frozenset[str]
    subjects: Callable[[HealthInputs], Iterable[Subject]]
    compute: Callable[[HealthInputs, Subject], list[Finding]]
    marks: Callable[[Seen], Iterable[Subject]]
    #: The events (``CONTENT``, ``CATALOGS``, ``CLOCK``) that move every subject.
    follows: frozenset[str] = frozenset()
    whole: Callable[[HealthInputs], list[Finding]] | None = None
    #: The tags of its subjects when they are not ``tag`` (a family with partitions).
    subject_tags: tuple[str, ...] = ()

    @property
    def tags(self) -> tuple[str, ...]:
        return self.subject_tags or (self.tag,)


def scratch_findings(families: Iterable[RuleFamily], inputs: HealthInputs) -> list[Finding]:
    """Every finding of the families over the inputs, subject by subject."""
    found: list[Finding] = []
    for family in families:
        if family.whole is not None:
            found += family.whole(inputs)
            continue
        for subject in family.subjects(inputs):
            found += family.compute(inputs, subject)
    return found


def malformed_record(
    objects: ObjectReader, kind: str, namespace: str, name: str
) -> Malformed | None:
    """The cache's record of one object's wrong-typed fields (R-SRC-4), if it has one."""
    return objects.malformed.get(Key(kind, namespace, name))


def single(
    tag: str,
    rules: str,
    reads: Iterable[str],
    judge: Callable[[HealthInputs], list[Finding]],
    *,
    moves: Callable[[Seen], bool] | None = None,
    follows: Iterable[str] = (),
) -> RuleFamily:
    """A family with one subject, ``(tag,)``, judged over the inputs whole: every change of
    a kind it reads moves it, or those for which ``moves`` says so."""
    subject: Subject = (tag,)

    def marks(seen: Seen) -> list[Subject]:
        return [subject] if moves is None or moves(seen) else []

    return RuleFamily(
        tag,
        rules,
        frozenset(reads),
        lambda inputs: [subject],
        lambda inputs, _: judge(inputs),
        marks,
        frozenset(follows),
    )


def per_object(
    tag: str, rules: str, kind: str, judge: Callable[[Obj], list[Finding]]
) -> RuleFamily:
    """A family with one subject per cached object of ``kind``, ``(tag, namespace, name)``,
    that reads that object alone."""

    def subjects(inputs: HealthInputs) -> Iterable[Subject]:
        return ((tag, ns, name) for (ns, name), _ in inputs.objects.slots(kind))

    def compute(inputs: HealthInputs, subject: Subject) -> list[Finding]:
        obj = inputs.objects.get(kind, subject[1], subject[2])
        return [] if obj is None else judge(obj)

    def marks(seen: Seen) -> list[Subject]:
        return [(tag, seen.key.namespace, seen.key.name)]

    return RuleFamily(tag, rules, frozenset({kind}), subjects, compute, marks)
