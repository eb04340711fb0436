"""The demo's timed changes: what OLM would write, step by step, in a loop.

One cycle tells three stories through the server's Python API, so the watcher sees them
as ordinary watch events:

1. the Manual keycloak upgrade in team-a is approved and lands (R-IP-2, R-IP-3): the new
   CSV appears with ``spec.replaces`` (R-UPG-4), walks Pending -> InstallReady -> Installing
   -> Succeeded (R-CSV-*) while the old one goes Replacing -> Deleting and disappears (R-CSV-S,
   R-CSV-R, R-CSV-D); the Subscription moves (R-SUB-2) and the copies follow (R-COPY-4,
   R-COPY-6);
2. someone installs the single-namespace etcd operator in ops-tools: its CSV fails with
   InterOperatorGroupOwnerConflict, because the global group already provides EtcdCluster
   (R-API-5, R-API-6);
3. the conflict is resolved by removing that install; then the demo rewinds to the
   scenario's start and the cycle begins again.

Each step is a plain function over a :class:`Cluster` (the loopback server's
``ClusterState`` is one), so tests can run the steps without any server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from olmtui.demo import objects as o
from olmtui.demo import scenario as s
from olmtui.demo.bundles import fixture_csv
from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, CSV, INSTALL_PLAN, NAMESPACE, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.rules.apis.reconcile import format_provided_apis, group_provided_apis
from olmtui.model.rules.membership.checks import is_copiable
from olmtui.store import COPIED_FROM_LABEL, WATCHED_KINDS, is_copied_csv, key_of

Obj = dict[str, Any]
IP = INSTALL_PLAN

#: ``--speed`` names: seconds between two steps.
SPEEDS: dict[str, float] = {"slow": 6.0, "normal": 3.0, "fast": 0.3}


class Cluster(Protocol):
    """What the script needs from a cluster: the loopback server's ``ClusterState``."""

    def get(self, kind: str, namespace: str | None, name: str) -> Obj | None: ...
    def list(self, kind: str, namespace: str | None = None) -> list[Obj]: ...
    def apply(self, obj: Obj) -> Obj: ...
    def delete(self, kind: str, namespace: str | None, name: str) -> Obj: ...


@frozen
class Step:
    """One change to the cluster: what a person would see happen, and how it is made."""

    title: str
    change: Callable[[Cluster, str], None]


def parse_speed(text: str) -> float:
    """``--speed``: a name from :data:`SPEEDS` or a number of seconds (> 0)."""
    if text in SPEEDS:
        return SPEEDS[text]
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ValueError(f"--speed must be {', '.join(SPEEDS)} or seconds > 0, not {text!r}")
    return seconds


# -- what OLM writes, as small operations -----------------------------------------------------


def _get(cluster: Cluster, kind: str, ns: str, name: str) -> Obj:
    found = cluster.get(kind, ns, name)
    if found is None:
        raise LookupError(f"{kind} {ns}/{name} is missing from the demo cluster")
    return found


def _group_of(cluster: Cluster, csv: Obj) -> Obj:
    annotations = csv["metadata"].get("annotations") or {}
    return _get(
        cluster, OPERATOR_GROUP, csv["metadata"]["namespace"], annotations[o.GROUP_ANNOTATION]
    )


def _namespaces(cluster: Cluster) -> list[str]:
    return [n["metadata"]["name"] for n in cluster.list(NAMESPACE)]


def write_csv(cluster: Cluster, csv: Obj) -> None:
    """Write a CSV and keep its copies in step with it (R-COPY-2/3/4): copies exist while
    it is copiable, and mirror its status."""
    cluster.apply(csv)
    status = csv.get("status") or {}
    targets = o.copy_targets(_group_of(cluster, csv), _namespaces(cluster))
    name = csv["metadata"]["name"]
    for target in targets:
        if is_copiable(status.get("phase") or "", status.get("reason")):
            cluster.apply(o.copy_of(csv, target))
        elif cluster.get(CSV, target, name) is not None:
            cluster.delete(CSV, target, name)


def delete_csv(cluster: Cluster, ns: str, name: str) -> None:
    """R-CSV-D, then R-COPY-6: a copy whose parent is gone is garbage-collected."""
    csv = _get(cluster, CSV, ns, name)
    cluster.delete(CSV, ns, name)
    for copy in cluster.list(CSV):
        meta = copy["metadata"]
        if (
            meta["name"] == name
            and is_copied_csv(copy)
            and (meta.get("labels") or {}).get(COPIED_FROM_LABEL) == ns
        ):
            cluster.delete(CSV, meta["namespace"], name)
    sync_provided_apis(cluster, _group_of(cluster, csv))


def move_csv(cluster: Cluster, ns: str, name: str, phase: str, now: str, **status: str) -> None:
    write_csv(cluster, o.with_phase(_get(cluster, CSV, ns, name), phase, now, **status))


def sync_provided_apis(cluster: Cluster, og: Obj) -> None:
    """R-API-6/R-API-8: the group's ``olm.providedAPIs`` is the union of its members' APIs,
    leaving out members that failed on a conflict (their APIs never got in)."""
    ns = og["metadata"]["namespace"]
    apis = {
        api
        for csv in cluster.list(CSV, ns)
        if not is_copied_csv(csv)
        and (csv.get("status") or {}).get("reason") != "InterOperatorGroupOwnerConflict"
        for api in o.provided_apis(csv)
    }
    annotations = dict(og["metadata"].get("annotations") or {})
    annotations[o.PROVIDED_APIS_ANNOTATION] = format_provided_apis(apis)
    cluster.apply({**og, "metadata": {**og["metadata"], "annotations": annotations}})


def set_plan(cluster: Cluster, ns: str, name: str, phase: str, now: str) -> None:
    """R-IP-2 (approved -> Installing) and R-IP-3 (Complete, ``Installed`` True)."""
    plan = _get(cluster, IP, ns, name)
    plan["spec"]["approved"] = True
    status = plan["status"]
    status["phase"] = phase
    if phase == "Complete":
        for step in status["plan"]:
            step["status"] = "Created" if step["resource"]["kind"] == CSV else "Present"
        status["conditions"] = [
            {
                "type": "Installed",
                "status": "True",
                "lastTransitionTime": now,
                "lastUpdateTime": now,
            }
        ]
    cluster.apply(plan)
    for sub in cluster.list(SUBSCRIPTION, ns):
        if (sub.get("status") or {}).get("installPlanRef", {}).get("name") == name:
            _plan_condition(cluster, sub, phase, now)


def _plan_condition(cluster: Cluster, sub: Obj, phase: str, now: str) -> None:
    """R-SUB-5: a pending plan's phase is the reason of ``InstallPlanPending``; a Complete
    plan leaves no plan condition."""
    conditions = [
        c
        for c in sub["status"].get("conditions") or []
        if c["type"] not in ("InstallPlanPending", "InstallPlanMissing", "InstallPlanFailed")
    ]
    if phase in ("Planning", "Installing", "RequiresApproval"):
        conditions.append(
            {
                "type": "InstallPlanPending",
                "status": "True",
                "reason": phase,
                "lastTransitionTime": now,
            }
        )
    sub["status"]["conditions"] = conditions
    sub["status"]["lastUpdated"] = now
    cluster.apply(sub)


def installed(cluster: Cluster, ns: str, sub_name: str, now: str) -> None:
    """R-SUB-2: the current CSV exists, so it is the installed one: AtLatestKnown."""
    sub = _get(cluster, SUBSCRIPTION, ns, sub_name)
    sub["status"].update(
        installedCSV=sub["status"]["currentCSV"], state="AtLatestKnown", lastUpdated=now
    )
    cluster.apply(sub)


# -- the stories ------------------------------------------------------------------------------


def _approve(cluster: Cluster, now: str) -> None:
    set_plan(cluster, s.TEAM_A_OPERATORS, s.PENDING_PLAN, "Installing", now)


def _create_next_keycloak(cluster: Cluster, now: str) -> None:
    og = _get(cluster, OPERATOR_GROUP, s.TEAM_A_OPERATORS, s.TEAM_A_OG)
    csv = o.member_csv(fixture_csv(s.KEYCLOAK_NEXT), og, "keycloak-operator", now)
    # R-UPG-4: the step's replaces names the CSV this upgrade actually replaces.
    csv["spec"]["replaces"] = s.KEYCLOAK_OLD
    # R-API-6: APIs the group does not claim yet are added to its annotation first.
    _, claimed = group_provided_apis(og)
    write_csv(cluster, o.with_phase(csv, "Pending", now))
    if not o.provided_apis(csv) <= claimed:
        sync_provided_apis(cluster, og)
    installed(cluster, s.TEAM_A_OPERATORS, s.KEYCLOAK_SUB, now)


def _old_keycloak_replacing(cluster: Cluster, now: str) -> None:
    move_csv(
        cluster,
        s.TEAM_A_OPERATORS,
        s.KEYCLOAK_OLD,
        "Replacing",
        now,
        reason="BeingReplaced",
        message=f"being replaced by csv: {s.KEYCLOAK_NEXT}",
    )


def _next_keycloak(phase: str) -> Callable[[Cluster, str], None]:
    def change(cluster: Cluster, now: str) -> None:
        move_csv(cluster, s.TEAM_A_OPERATORS, s.KEYCLOAK_NEXT, phase, now)
        if phase == "Succeeded":
            set_plan(cluster, s.TEAM_A_OPERATORS, s.PENDING_PLAN, "Complete", now)

    return change


def _old_keycloak_deleting(cluster: Cluster, now: str) -> None:
    move_csv(cluster, s.TEAM_A_OPERATORS, s.KEYCLOAK_OLD, "Deleting", now)


def _old_keycloak_gone(cluster: Cluster, now: str) -> None:
    delete_csv(cluster, s.TEAM_A_OPERATORS, s.KEYCLOAK_OLD)


_OPS_PLAN = s.plan_name(s.OPS_NS, s.ETCD_SUB, s.ETCD)


def _subscribe_etcd(cluster: Cluster, now: str) -> None:
    """R-SUB-3/R-SUB-4: resolution creates an Automatic plan, the Subscription waits on it."""
    package, channel = s.PACKAGE_CHANNELS[s.ETCD]
    plan = o.install_plan(
        s.OPS_NS,
        _OPS_PLAN,
        now,
        csvs=[fixture_csv(s.ETCD)],
        approval="Automatic",
        approved=True,
        phase="Installing",
        generation=1,
        source=s.CATALOG,
        source_ns=s.MARKETPLACE,
    )
    catalogs = cluster.list(CATALOG_SOURCE, s.MARKETPLACE)
    sub = o.subscription(
        s.OPS_NS,
        s.ETCD_SUB,
        now,
        package=package,
        channel=channel,
        source=s.CATALOG,
        source_ns=s.MARKETPLACE,
        approval="Automatic",
        installed=None,
        current=s.ETCD,
        plan=plan,
        catalogs=catalogs,
    )
    cluster.apply(plan)
    cluster.apply(sub)


def _create_etcd(cluster: Cluster, now: str) -> None:
    """The plan creates the CSV; OLM has not judged it yet (phase "")."""
    og = _get(cluster, OPERATOR_GROUP, s.OPS_NS, s.OPS_OG)
    cluster.apply(o.member_csv(fixture_csv(s.ETCD), og, "etcd", now))
    set_plan(cluster, s.OPS_NS, _OPS_PLAN, "Complete", now)
    installed(cluster, s.OPS_NS, s.ETCD_SUB, now)


def _etcd_conflicts(cluster: Cluster, now: str) -> None:
    # R-API-5/R-API-6: global-operators already claims EtcdCluster in every namespace.
    move_csv(
        cluster,
        s.OPS_NS,
        s.ETCD,
        "Failed",
        now,
        reason="InterOperatorGroupOwnerConflict",
        message="intersecting operatorgroups provide the same apis",
    )


def _remove_etcd(cluster: Cluster, now: str) -> None:
    for kind, name in ((SUBSCRIPTION, s.ETCD_SUB), (IP, _OPS_PLAN)):
        cluster.delete(kind, s.OPS_NS, name)
    delete_csv(cluster, s.OPS_NS, s.ETCD)


def rewind(cluster: Cluster, start: s.Scenario) -> None:
    """Make the cluster equal the scenario again: objects the cycle added go, changed ones
    are restored (an update that changes nothing is no event at all)."""
    wanted = {key_of(obj): obj for obj in start.objects}
    for kind in WATCHED_KINDS:
        for obj in cluster.list(kind):
            if key_of(obj) not in wanted:
                cluster.delete(kind, obj["metadata"].get("namespace"), obj["metadata"]["name"])
    for obj in start.objects:
        cluster.apply(obj)


def cycle(start: s.Scenario) -> list[Step]:
    """The steps of one cycle, ending where ``start`` begins."""
    kc_next = s.KEYCLOAK_NEXT
    return [
        Step(f"team-a approves InstallPlan {s.PENDING_PLAN} ({kc_next})", _approve),
        Step(f"the InstallPlan creates {kc_next}: Pending", _create_next_keycloak),
        Step(f"{s.KEYCLOAK_OLD} is being replaced", _old_keycloak_replacing),
        Step(f"{kc_next}: InstallReady", _next_keycloak("InstallReady")),
        Step(f"{kc_next}: Installing", _next_keycloak("Installing")),
        Step(f"{kc_next}: Succeeded; the InstallPlan is Complete", _next_keycloak("Succeeded")),
        Step(f"{s.KEYCLOAK_OLD}: Deleting", _old_keycloak_deleting),
        Step(f"{s.KEYCLOAK_OLD} and its copy are gone", _old_keycloak_gone),
        Step(f"ops-tools subscribes to etcd ({s.ETCD})", _subscribe_etcd),
        Step(f"the InstallPlan creates {s.ETCD} in ops-tools", _create_etcd),
        Step(f"{s.ETCD} fails: InterOperatorGroupOwnerConflict", _etcd_conflicts),
        Step("ops-tools removes etcd: the conflict is gone", _remove_etcd),
        Step("the demo rewinds to the start", lambda cluster, _now: rewind(cluster, start)),
    ]


async def run_script(
    cluster: Cluster,
    start: s.Scenario,
    interval: float,
    *,
    cycles: int | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> None:
    """Apply the cycle's steps every ``interval`` seconds, ``cycles`` times (None: forever)."""
    done = 0
    while cycles is None or done < cycles:
        for step in cycle(start):
            await asyncio.sleep(interval)
            step.change(cluster, s.timestamp())
            if on_step is not None:
                on_step(step)
        done += 1
