"""The demo cluster at the start of each cycle: real operators, the situations OLM users
meet, and status written as OLM writes it.

* ``openshift-operators/global-operators`` (all namespaces) runs cert-manager,
  node-healthcheck-operator and the clusterwide etcd operator, copied into every other
  namespace (R-COPY-3).
* Two tenants follow the documented multitenant pattern (R-DOC-2): ``team-a-operators`` watches
  ``team-a``, ``team-b-operators`` watches ``team-b``, each with its own keycloak-operator instance.
  In team-a, keycloak's Subscription is Manual and several hops behind the ``fast`` head, its next
  InstallPlan waits for approval, and the Automatic rabbitmq topology operator beside it therefore
  works as Manual too (R-SUB-4).
* In team-b an etcd operator fails with InterOperatorGroupOwnerConflict: the global group
  already provides EtcdCluster where both groups reach (R-API-5).
* ``data-pipeline`` holds two OperatorGroups, so its CSV fails with TooManyOperatorGroups
  (R-MEM-2) and its Subscription stalls silently (R-SUB-9).
* ``ops-tools`` has an OperatorGroup and nothing installed yet: the script installs there.
* Two CatalogSources in ``openshift-marketplace``: one READY, one TRANSIENT_FAILURE, with the
  PackageManifests packageserver would serve for the demo's packages, and a registry pod
  each: the failing catalog's crash-loops (R-EVD-2).
* The Deployments OLM made for the installed CSVs, labelled as OLM labels them, so X-ray
  shows them (the script's new CSVs get none: X-ray says "not in the cache" there).
* The OperatorCondition OLM makes beside every original CSV, none in use
  (``olmtui.demo.operator_conditions``): the global group's operators are eligible to migrate
  to OLM v1 (R-MIG-12).
* OLM v1 beside it (``olmtui.demo.v1``): two ClusterCatalogs (one serving, one not) and three
  ClusterExtensions: one settled, one with an upgrade available, one failing to resolve.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from olmtui.demo import cluster_upgrade, v1
from olmtui.demo import objects as o
from olmtui.demo.bundles import CATALOG_PATH, fixture_csv
from olmtui.demo.operator_conditions import operator_conditions
from olmtui.frozen import frozen
from olmtui.kinds import PACKAGE_MANIFEST
from olmtui.model.primitives.version import ZERO, parse_version
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.upgrades.graph import channel_states
from olmtui.model.viewmodels.views import api_hash
from olmtui.sources.catalog.catalogs import load_catalog

Obj = o.Obj

MARKETPLACE = "openshift-marketplace"
CATALOG = "community-operators"
BROKEN_CATALOG = "certified-operators"
CATALOG_REF = f"{MARKETPLACE}/{CATALOG}"

GLOBAL_NS, GLOBAL_OG = "openshift-operators", "global-operators"
TEAM_A_OPERATORS, TEAM_A, TEAM_A_OG = "team-a-operators", "team-a", "team-a"
TEAM_B_OPERATORS, TEAM_B, TEAM_B_OG = "team-b-operators", "team-b", "team-b"
TWO_GROUPS_NS = "data-pipeline"
TWO_GROUPS = ("data-pipeline", "data-pipeline-2")
OPS_NS, OPS_OG = "ops-tools", "ops-tools"

CERT_MANAGER = "cert-manager.v1.16.5"
NODE_HEALTHCHECK = "node-healthcheck-operator.v0.12.0"
ETCD_CLUSTERWIDE = "etcdoperator.v0.9.4-clusterwide"
ETCD = "etcdoperator.v0.9.4"
KEYCLOAK_OLD = "keycloak-operator.v26.6.2"
KEYCLOAK_NEXT = "keycloak-operator.v26.6.3"
KEYCLOAK_HEAD = "keycloak-operator.v26.7.1"
RABBITMQ_TOPOLOGY = "rabbitmq-messaging-topology-operator.v1.19.3"

#: Subscription name == package name, as the console creates them.
KEYCLOAK_SUB = "keycloak-operator"
RABBITMQ_SUB = "rabbitmq-messaging-topology-operator"
ETCD_SUB = "etcd"
#: The InstallPlan waiting for approval in team-a-operators.
PENDING_PLAN = "install-kc263"

_SYSTEM = (
    GLOBAL_NS,
    MARKETPLACE,
    "openshift-operator-lifecycle-manager",
    "openshift-monitoring",
    "openshift-ingress",
    "openshift-console",
    "openshift-dns",
    "kube-system",
    "kube-public",
    "default",
)
_APPS = (
    "payments",
    "checkout",
    "catalog-api",
    "search",
    "inventory",
    "shipping",
    "billing",
    "identity",
    "analytics",
    "reporting",
    "frontend",
    "ml-training",
    "ml-serving",
    "logging",
)
NAMESPACES: tuple[str, ...] = (
    *_SYSTEM,
    TEAM_A_OPERATORS,
    TEAM_A,
    TEAM_B_OPERATORS,
    TEAM_B,
    TWO_GROUPS_NS,
    OPS_NS,
    *_APPS,
)

PACKAGE_CHANNELS: dict[str, tuple[str, str]] = {  # csv -> (package, channel)
    CERT_MANAGER: ("cert-manager", "stable"),
    NODE_HEALTHCHECK: ("node-healthcheck-operator", "stable"),
    ETCD_CLUSTERWIDE: ("etcd", "clusterwide-alpha"),
    ETCD: ("etcd", "singlenamespace-alpha"),
    KEYCLOAK_OLD: ("keycloak-operator", "fast"),
    KEYCLOAK_NEXT: ("keycloak-operator", "fast"),
    KEYCLOAK_HEAD: ("keycloak-operator", "fast"),
    RABBITMQ_TOPOLOGY: ("rabbitmq-messaging-topology-operator", "stable"),
}


def timestamp(when: dt.datetime | None = None) -> str:
    """RFC 3339 in UTC, as the API server writes times."""
    return (when or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")


@frozen
class Scenario:
    """The initial cluster: every object, in the order they are created."""

    objects: tuple[Obj, ...]


def demo_catalog() -> Catalog:
    """The shipped catalog content, standing for the READY CatalogSource."""
    return load_catalog(f"{CATALOG_REF}={CATALOG_PATH}")


def plan_name(namespace: str, sub: str, csv: str) -> str:
    """A stable name in OLM's ``install-xxxxx`` form (any stable hash does; OLM's FNV-1a of
    API labels is at hand)."""
    return "install-" + api_hash(f"{namespace}/{sub}/{csv}")[:5]


class _Builder:
    """Collects the objects of one scenario."""

    def __init__(self, now: str) -> None:
        self.now = now
        self.objects: list[Obj] = []
        self.catalogs = [
            o.catalog_source(
                MARKETPLACE,
                CATALOG,
                now,
                display="Community Operators",
                image="registry.redhat.io/redhat/community-operator-index:v4.16",
                state="READY",
            ),
            o.catalog_source(
                MARKETPLACE,
                BROKEN_CATALOG,
                now,
                display="Certified Operators",
                image="registry.redhat.io/redhat/certified-operator-index:v4.16",
                state="TRANSIENT_FAILURE",
            ),
        ]
        self.objects += self.catalogs
        # R-EVD-1: each catalog's registry pod; the failing catalog's crash-loops (R-EVD-2)
        self.objects += [
            o.catalog_pod(c, now, crash_looping=c["metadata"]["name"] == BROKEN_CATALOG)
            for c in self.catalogs
        ]

    def group(
        self,
        ns: str,
        name: str,
        targets: list[str] | None,
        csvs: Iterable[str],
        conditions: tuple[Obj, ...] = (),
    ) -> Obj:
        apis = {api for csv in csvs for api in o.provided_apis(fixture_csv(csv))}
        og = o.operator_group(ns, name, self.now, targets=targets, apis=apis, conditions=conditions)
        self.objects.append(og)
        return og

    def install(
        self, og: Obj, csv_name: str, *, approval: str = "Automatic", copies: bool = True
    ) -> Obj:
        """A CSV that installed and succeeded, its copies, its Subscription and the
        Complete InstallPlan that installed it."""
        package = PACKAGE_CHANNELS[csv_name][0]
        csv = o.succeeded_csv(fixture_csv(csv_name), og, package, self.now)
        self.objects += [csv, *o.csv_deployments(csv, self.now)]
        if copies:
            self.objects += [o.copy_of(csv, n) for n in o.copy_targets(og, NAMESPACES)]
        self.subscribe(og["metadata"]["namespace"], csv_name, installed=csv_name, approval=approval)
        return csv

    def subscribe(
        self, ns: str, csv_name: str, *, installed: str | None, approval: str, pending: bool = False
    ) -> Obj:
        package, channel = PACKAGE_CHANNELS[csv_name]
        sub_name = ETCD_SUB if package == "etcd" else package
        plan = o.install_plan(
            ns,
            PENDING_PLAN if pending else plan_name(ns, sub_name, csv_name),
            self.now,
            csvs=[fixture_csv(csv_name)],
            approval=approval,
            approved=not pending,
            phase="RequiresApproval" if pending else "Complete",
            generation=1,
            source=CATALOG,
            source_ns=MARKETPLACE,
        )
        sub = o.subscription(
            ns,
            sub_name,
            self.now,
            package=package,
            channel=channel,
            source=CATALOG,
            source_ns=MARKETPLACE,
            approval=approval,
            installed=installed,
            current=csv_name,
            plan=plan,
            catalogs=self.catalogs,
        )
        self.objects += [plan, sub]
        return sub


def build_scenario(now: str | None = None) -> Scenario:
    """Every object of the demo cluster at the start of a cycle (see the module docstring)."""
    now = now or timestamp()
    b = _Builder(now)
    global_og = b.group(
        GLOBAL_NS, GLOBAL_OG, None, (CERT_MANAGER, NODE_HEALTHCHECK, ETCD_CLUSTERWIDE)
    )
    for csv in (CERT_MANAGER, NODE_HEALTHCHECK, ETCD_CLUSTERWIDE):
        b.install(global_og, csv)

    # Tenant A: keycloak is Manual and behind; its next hop waits for approval (R-SUB-4).
    team_a = b.group(TEAM_A_OPERATORS, TEAM_A_OG, [TEAM_A], (KEYCLOAK_OLD, RABBITMQ_TOPOLOGY))
    b.install(team_a, RABBITMQ_TOPOLOGY)
    keycloak = o.succeeded_csv(fixture_csv(KEYCLOAK_OLD), team_a, "keycloak-operator", now)
    b.objects += [keycloak, o.copy_of(keycloak, TEAM_A), *o.csv_deployments(keycloak, now)]
    b.subscribe(
        TEAM_A_OPERATORS, KEYCLOAK_NEXT, installed=KEYCLOAK_OLD, approval="Manual", pending=True
    )
    b.objects.append(
        o.install_plan(
            TEAM_A_OPERATORS,
            plan_name(TEAM_A_OPERATORS, KEYCLOAK_SUB, KEYCLOAK_OLD),
            now,
            csvs=[fixture_csv(KEYCLOAK_OLD)],
            approval="Manual",
            approved=True,
            phase="Complete",
            generation=1,
            source=CATALOG,
            source_ns=MARKETPLACE,
        )
    )

    # Tenant B: keycloak at the head; etcd conflicts with the global group (R-API-5).
    team_b = b.group(TEAM_B_OPERATORS, TEAM_B_OG, [TEAM_B], (KEYCLOAK_HEAD,))
    b.install(team_b, KEYCLOAK_HEAD)
    etcd = o.member_csv(fixture_csv(ETCD), team_b, "etcd", now)
    etcd = o.with_phase(
        o.with_phase(etcd, "Pending", now),
        "Failed",
        now,
        reason="InterOperatorGroupOwnerConflict",
        message="intersecting operatorgroups provide the same apis",
    )
    b.objects.append(etcd)
    b.subscribe(TEAM_B_OPERATORS, ETCD, installed=ETCD, approval="Automatic")

    # data-pipeline: a second group appeared after the install (R-OG-6, R-MEM-2).
    multiple = (o.multiple_groups_condition(now),)
    first = b.group(TWO_GROUPS_NS, TWO_GROUPS[0], [TWO_GROUPS_NS], (RABBITMQ_TOPOLOGY,), multiple)
    second = b.group(TWO_GROUPS_NS, TWO_GROUPS[1], [TWO_GROUPS_NS], (), multiple)
    stuck = o.succeeded_csv(
        fixture_csv(RABBITMQ_TOPOLOGY), first, "rabbitmq-messaging-topology-operator", now
    )
    stuck = o.with_phase(
        stuck,
        "Failed",
        now,
        reason="TooManyOperatorGroups",
        message="csv created in namespace with multiple operatorgroups, can't pick one "
        "automatically",
    )
    # it had installed before the second group came: its Deployments run on (R-CSV-I)
    b.objects += [stuck, *o.csv_deployments(stuck, now)]
    b.subscribe(TWO_GROUPS_NS, RABBITMQ_TOPOLOGY, installed=RABBITMQ_TOPOLOGY, approval="Automatic")

    ops = b.group(OPS_NS, OPS_OG, [OPS_NS], ())

    # R-OG-5: each target namespace of a non-global group carries the group's uid label.
    labels: dict[str, dict[str, str]] = {}
    for og in (team_a, team_b, first, second, ops):
        for target in og["status"]["namespaces"]:
            labels.setdefault(target, {}).update(o.og_uid_label(og))
    namespaces = [o.namespace(n, now, labels.get(n)) for n in NAMESPACES]
    manifests = package_manifests(now)
    conditions = operator_conditions(b.objects, now)  # R-MIG-5: one per CSV, none in use
    upgrade = cluster_upgrade.cluster_upgrade_objects(now)  # R-CUP-*: a v1 operator capped
    objects = namespaces + b.objects + conditions + manifests + v1.v1_objects(now) + upgrade
    return Scenario(tuple(objects))


def package_manifests(now: str) -> list[Obj]:
    """What packageserver serves for the READY catalog (R-UPG-9): channels with their heads
    and entries sorted by version, newest first; no edges."""
    catalog = demo_catalog()
    heads = {(c.package, c.channel): c.head for c in channel_states([catalog])}
    out = []
    for package in catalog.packages.values():
        channels = []
        for channel in sorted(package.channels.values(), key=lambda c: c.name):
            head = heads.get((package.name, channel.name))
            if head is None:
                continue
            bundle = package.bundles[head]
            entries = sorted(
                (
                    {"name": e.name, "version": package.bundles[e.name].version or "0.0.0"}
                    for e in channel.entries
                ),
                key=lambda e: parse_version(e["version"]) or ZERO,
                reverse=True,
            )
            desc = _head_desc(bundle.version, bundle.install_modes)
            channels.append(
                {
                    "name": channel.name,
                    "currentCSV": head,
                    "currentCSVDesc": desc,
                    "entries": entries,
                }
            )
        out.append(
            {
                "apiVersion": "packages.operators.coreos.com/v1",
                "kind": PACKAGE_MANIFEST,
                "metadata": {
                    "name": package.name,
                    "namespace": MARKETPLACE,
                    "creationTimestamp": now,
                    "uid": o.uid_for(PACKAGE_MANIFEST, CATALOG, package.name),
                    "labels": {
                        "catalog": CATALOG,
                        "catalog-namespace": MARKETPLACE,
                        "operatorframework.io/arch.amd64": "supported",
                    },
                },
                "spec": {},
                "status": {
                    "catalogSource": CATALOG,
                    "catalogSourceNamespace": MARKETPLACE,
                    "catalogSourceDisplayName": "Community Operators",
                    "catalogSourcePublisher": "Red Hat",
                    "packageName": package.name,
                    "defaultChannel": package.default_channel,
                    "channels": channels,
                },
            }
        )
    return out


def _head_desc(version: str | None, modes: tuple[str, ...]) -> Obj:
    """``currentCSVDesc`` of a channel head: its version and install modes."""
    return {
        "version": version,
        "installModes": [
            {"type": t, "supported": t in modes}
            for t in ("OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces")
        ],
    }
