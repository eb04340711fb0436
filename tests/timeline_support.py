"""Recordings for the tests, in memory: the demo's objects listed at 10:00:00Z, then a
scripted story (a CSV failing and recovering, a Subscription's upgrade (its InstallPlan
approved, the new CSV installing, then the old one gone), a catalog going
TRANSIENT_FAILURE and back, an OperatorGroup's targets changing, a kind unreadable for a
while). A ``ChangeListTimeline`` is the reference every recording reader agrees with.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable, Iterable

from olmtui.demo import scenario
from olmtui.objects import Obj
from olmtui.sources.recording.timeline import ChangeListTimeline, TimedChange
from olmtui.store import ACCESS, ChangeType, Key, key_of

#: When the demo's objects are listed: the recording begins five seconds before.
T0 = dt.datetime(2026, 11, 28, 10, 0, tzinfo=dt.UTC).timestamp()
STARTED = T0 - 5
#: The demo's catalog content, as ``--catalog`` gives it.
CATALOG_SPEC = f"{scenario.CATALOG_REF}={scenario.CATALOG_PATH}"
TEAM_A = "team-a-operators"
KEYCLOAK_OLD = "keycloak-operator.v26.6.2"
KEYCLOAK_NEW = "keycloak-operator.v26.6.3"
#: The seconds after T0 at which the story's steps happen.
CSV_FAILS, CSV_RECOVERS, UPGRADE, UPGRADED = 60, 90, 120, 150
CATALOG_FAILS, TARGETS_CHANGE, NO_ACCESS, ACCESS_BACK, CATALOG_BACK = 192, 240, 300, 330, 460
#: The namespaces the small timeline keeps (the property test builds many sessions).
SMALL_NAMESPACES = frozenset(
    {TEAM_A, "team-a", "team-b-operators", "team-b", "openshift-marketplace"}
)


def _change(when: float, obj: Obj, kind: ChangeType = "MODIFIED") -> TimedChange:
    return TimedChange(T0 + when, kind, key_of(obj), None if kind == "DELETED" else obj)


def _find(objects: Iterable[Obj], kind: str, namespace: str, name: str) -> Obj:
    for obj in objects:
        meta = obj["metadata"]
        if obj["kind"] == kind and meta.get("namespace", "") == namespace and meta["name"] == name:
            return obj
    raise LookupError(f"{kind} {namespace}/{name}")


def _with(obj: Obj, **status: object) -> Obj:
    changed = copy.deepcopy(obj)
    changed.setdefault("status", {}).update(status)
    return changed


def story(objects: list[Obj]) -> list[TimedChange]:
    """The scripted changes after the first list, in time order."""
    old = _find(objects, "ClusterServiceVersion", TEAM_A, KEYCLOAK_OLD)
    sub = _find(objects, "Subscription", TEAM_A, "keycloak-operator")
    catalog = _find(objects, "CatalogSource", "openshift-marketplace", "community-operators")
    group = _find(objects, "OperatorGroup", "team-b-operators", "team-b")
    plan = _find(objects, "InstallPlan", TEAM_A, "install-kc263")
    approved = _with(plan, phase="Complete")
    approved["spec"]["approved"] = True
    new = copy.deepcopy(old)
    new["metadata"]["name"] = KEYCLOAK_NEW
    new["spec"]["version"] = "26.6.3"
    new["spec"]["replaces"] = KEYCLOAK_OLD
    installing = _with(new, phase="Installing", reason="InstallWaiting", message="waiting")
    upgraded_sub = _with(
        sub,
        state="AtLatestKnown",
        installedCSV=KEYCLOAK_NEW,
        conditions=[c for c in sub["status"]["conditions"] if c["type"] != "InstallPlanPending"],
    )
    targets = copy.deepcopy(group)
    targets["spec"]["targetNamespaces"] = ["team-b", "team-a"]
    targets.setdefault("status", {})["namespaces"] = ["team-a", "team-b"]  # OLM synced it
    failing = catalog["status"]["connectionState"] | {"lastObservedState": "TRANSIENT_FAILURE"}
    unreadable = {"resource": "subscriptions", "reason": "forbidden", "since": T0 + NO_ACCESS}
    access = Key(ACCESS, "", "Subscription")
    return [
        _change(CSV_FAILS, _with(old, phase="Failed", reason="ComponentUnhealthy", message="x")),
        _change(CSV_RECOVERS, old),
        _change(UPGRADE, approved),
        _change(UPGRADE, installing, "ADDED"),
        _change(UPGRADE, _with(old, phase="Replacing", reason="BeingReplaced")),
        _change(UPGRADE, upgraded_sub),
        _change(UPGRADED, _with(new, phase="Succeeded", reason="InstallSucceeded")),
        _change(UPGRADED + 1, old, "DELETED"),
        _change(CATALOG_FAILS, _with(catalog, connectionState=failing)),
        _change(TARGETS_CHANGE, targets),
        TimedChange(T0 + NO_ACCESS, "ADDED", access, unreadable),
        TimedChange(T0 + ACCESS_BACK, "DELETED", access, None),
        _change(CATALOG_BACK, catalog),
    ]


def demo_objects(namespaces: frozenset[str] | None = None) -> list[Obj]:
    """The demo's objects at 10:00:00Z (those of ``namespaces`` and the cluster-scoped ones
    when given)."""
    objects = scenario.build_scenario("2026-11-28T10:00:00Z").objects
    if namespaces is None:
        return objects
    return [o for o in objects if o["metadata"].get("namespace", "") in namespaces | {""}]


def demo_timeline(namespaces: frozenset[str] | None = None) -> ChangeListTimeline:
    """The demo listed at T0 (a tenth of a second apart, as a recorder lists kinds), then
    :func:`story`."""
    objects = demo_objects(namespaces)
    listed = [TimedChange(T0 + i / 1000, "ADDED", key_of(o), o) for i, o in enumerate(objects)]
    return ChangeListTimeline([*listed, *story(objects)], STARTED, context="demo-cluster")


def small_timeline() -> ChangeListTimeline:
    """The same story over a few namespaces: cheap to build a session at every position."""
    return demo_timeline(SMALL_NAMESPACES)


class ImmediateHost:
    """A worker host that runs the work at once, on this thread (the app's runs it in a
    thread and hands the result back to the UI loop)."""

    def __init__(self) -> None:
        self.runs = 0

    def run_worker(
        self, work: Callable[[], object], *, group: str, exit_on_error: bool, thread: bool
    ) -> object:
        assert thread, "the history is never worked out on the UI loop"
        self.runs += 1
        return work()

    def call_from_thread(self, callback: Callable[..., None], *args: object) -> object:
        callback(*args)
        return None
