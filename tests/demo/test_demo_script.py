"""The demo script keeps the cluster consistent at every step, tells its three stories
(phases, an upgrade landing, a conflict coming and going) and ends each cycle where it began.

The steps run against the loopback server's own ClusterState, whose change feed drives a
Store and an incremental Model exactly as the watcher would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from olmtui.apiserver import ClusterState
from olmtui.demo import scenario as s
from olmtui.demo.script import SPEEDS, Step, cycle, parse_speed, run_script
from olmtui.model.incremental.engine import Model
from olmtui.model.rules.upgrades.graph import upgrade_hook
from olmtui.store import Store

NOW = "2026-11-21T22:00:00Z"
CSV = "ClusterServiceVersion"


@dataclass
class Run:
    state: ClusterState
    store: Store
    model: Model
    start: s.Scenario


@pytest.fixture
def demo() -> Run:
    return _fresh_run()


def _steps(run: Run) -> Iterator[tuple[int, Step]]:
    for number, step in enumerate(cycle(run.start)):
        step.change(run.state, NOW)
        yield number, step


def _without_versions(store: Store) -> dict:
    out = {}
    for kind in (
        "Namespace",
        "OperatorGroup",
        CSV,
        "Subscription",
        "InstallPlan",
        "CatalogSource",
        "PackageManifest",
    ):
        for key, obj in store.items(kind):
            meta = {
                k: v
                for k, v in obj["metadata"].items()
                if k not in ("resourceVersion", "generation")
            }
            out[key] = {**obj, "metadata": meta}
    return out


def _problems(run: Run) -> list[str]:
    """What would make the cluster inconsistent: copies out of step with their parents,
    group annotations that disagree with the members, Subscriptions pointing at nothing."""
    model, store = run.model, run.store
    problems = []
    copied = model.copied_csvs()
    problems += [f"missing copy {m.csv} in {m.namespace}" for m in copied.missing]
    problems += [f"stale copy {c.namespace}/{c.name}: {c.reason}" for c in copied.stale]
    for og in model.operator_groups():
        if og.provided_apis != og.expected_provided_apis:
            problems.append(
                f"{og.ref} olm.providedAPIs {og.provided_apis} != {og.expected_provided_apis}"
            )
    for sub in store.list("Subscription"):
        ns, status = sub["metadata"]["namespace"], sub.get("status") or {}
        installed = status.get("installedCSV")
        if installed and store.get(CSV, ns, installed) is None:
            problems.append(f"{ns}/{sub['metadata']['name']} installedCSV {installed} missing")
        plan = (status.get("installPlanRef") or {}).get("name")
        if plan and store.get("InstallPlan", ns, plan) is None:
            problems.append(f"{ns}/{sub['metadata']['name']} installPlanRef {plan} missing")
    return problems


def _conflicts(model: Model) -> list[str]:
    return [
        f"{f.namespace}/{f.name}"
        for f in model.findings()
        if f.code == "InterOperatorGroupOwnerConflict"
    ]


def test_every_step_keeps_the_cluster_consistent(demo: Run) -> None:
    assert _problems(demo) == []
    for number, step in _steps(demo):
        assert _problems(demo) == [], f"after step {number}: {step.title}"
    assert _without_versions(demo.store) == _without_versions(_fresh_store(demo.start))


def _fresh_store(start: s.Scenario) -> Store:
    state = ClusterState()
    state.load(start.objects)
    store = Store()
    store.apply_many(
        obj
        for kind in (
            "Namespace",
            "OperatorGroup",
            CSV,
            "Subscription",
            "InstallPlan",
            "CatalogSource",
            "PackageManifest",
        )
        for obj in state.list(kind)
    )
    return store


def test_r_csv_phases_new_csv_walks_to_succeeded_and_its_copy_follows() -> None:
    run = _fresh_run()
    phases, copy_phases = [], []
    for _, _step in _steps(run):
        csv = run.store.get(CSV, s.TEAM_A_OPERATORS, s.KEYCLOAK_NEXT)
        copy = run.store.get(CSV, s.TEAM_A, s.KEYCLOAK_NEXT)
        if csv is not None and (not phases or phases[-1] != csv["status"]["phase"]):
            phases.append(csv["status"]["phase"])
            assert copy is not None and copy["status"]["phase"] == csv["status"]["phase"]
            copy_phases.append(copy["status"]["reason"])
        if csv is not None and csv["status"]["phase"] == "Succeeded":
            break
    assert phases == ["Pending", "InstallReady", "Installing", "Succeeded"]
    assert set(copy_phases) == {"Copied"}


def test_r_csv_r_upgrade_lands_old_csv_replaced_then_deleted() -> None:
    run = _fresh_run()
    old_phases: list[str] = []
    for _, _step in _steps(run):
        old = run.store.get(CSV, s.TEAM_A_OPERATORS, s.KEYCLOAK_OLD)
        if old is None:
            break
        if not old_phases or old_phases[-1] != old["status"]["phase"]:
            old_phases.append(old["status"]["phase"])
    assert old_phases == ["Succeeded", "Replacing", "Deleting"]
    new = run.store.get(CSV, s.TEAM_A_OPERATORS, s.KEYCLOAK_NEXT)
    assert new["spec"]["replaces"] == s.KEYCLOAK_OLD
    assert run.store.get(CSV, s.TEAM_A, s.KEYCLOAK_OLD) is None, "the old copy is GC'd"
    sub = run.store.get("Subscription", s.TEAM_A_OPERATORS, s.KEYCLOAK_SUB)["status"]
    assert (sub["installedCSV"], sub["currentCSV"], sub["state"]) == (
        s.KEYCLOAK_NEXT,
        s.KEYCLOAK_NEXT,
        "AtLatestKnown",
    )
    assert not [c for c in sub["conditions"] if c["type"] == "InstallPlanPending"]
    plan = run.store.get("InstallPlan", s.TEAM_A_OPERATORS, s.PENDING_PLAN)
    assert (plan["spec"]["approved"], plan["status"]["phase"]) == (True, "Complete")
    state = next(
        x
        for x in run.model.subscriptions()
        if (x.namespace, x.name) == (s.TEAM_A_OPERATORS, s.KEYCLOAK_SUB)
    )
    assert state.upgrade.path == (
        "keycloak-operator.v26.6.4",
        "keycloak-operator.v26.7.0",
        "keycloak-operator.v26.7.1",
    )


def test_r_api_5_conflict_appears_then_is_resolved() -> None:
    run = _fresh_run()
    timeline = [(step.title, _conflicts(run.model)) for _, step in _steps(run)]
    ops = f"{s.OPS_NS}/{s.ETCD}"
    tenant = f"{s.TEAM_B_OPERATORS}/{s.ETCD}"
    with_ops = [title for title, found in timeline if ops in found]
    # The model judges the new CSV as soon as it exists, before OLM writes Failed.
    assert with_ops == [
        f"the InstallPlan creates {s.ETCD} in ops-tools",
        f"{s.ETCD} fails: InterOperatorGroupOwnerConflict",
    ]
    assert all(tenant in found for _, found in timeline)
    assert timeline[-1][1] == [tenant]
    assert run.model.csv(s.OPS_NS, s.ETCD) is None


def _fresh_run() -> Run:
    start = s.build_scenario(NOW)
    state = ClusterState()
    store = Store()
    state.subscribe(lambda event: store.apply(event.type, event.obj))
    state.load(start.objects)
    return Run(state, store, Model(store, upgrades=upgrade_hook([s.demo_catalog()])), start)


async def test_run_script_repeats_its_cycle() -> None:
    run = _fresh_run()
    titles: list[str] = []
    await run_script(
        run.state, run.start, 0.0, cycles=2, on_step=lambda st: titles.append(st.title)
    )
    steps = len(cycle(run.start))
    assert len(titles) == 2 * steps and titles[:steps] == titles[steps:]
    assert _without_versions(run.store) == _without_versions(_fresh_store(run.start))


def test_parse_speed_names_and_seconds() -> None:
    assert parse_speed("fast") == SPEEDS["fast"]
    assert parse_speed("2.5") == 2.5
    for bad in ("0", "-1", "soon", "nan"):
        with pytest.raises(ValueError):
            parse_speed(bad)
