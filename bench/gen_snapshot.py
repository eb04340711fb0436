"""Generate a large synthetic OLM snapshot for the ``olmtui check`` bench.

The cluster: ``--namespaces`` namespaces; ``--global-operators`` AllNamespaces operators in
one global OperatorGroup (``openshift-operators/global-operators``), each copied into every
other namespace (so about 20,000 copied CSVs); ``--single-operators`` operators in their own
namespace with their own group; ``--subscriptions`` Subscriptions (one per installed operator,
the rest Manual ones waiting for approval of an InstallPlan next to them).

Every CSV is a real published CSV (etcd 0.9.4 from community-operators-prod, icon kept) with
its name and API group changed, and every copy is written as kubectl prints it: the full
spec and status of its parent, as copies carry on a cluster (R-COPY-4). One YAML file per
namespace, like ``kubectl get -n NS ... -o yaml`` dumps.

    python bench/gen_snapshot.py OUTDIR
"""

from __future__ import annotations

import argparse
import copy
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
CATALOG = REPO / "tests/data/catalogs/community-operators-prod/operators/etcd"
GLOBAL_TEMPLATE = (
    CATALOG
    / "0.9.4-clusterwide/manifests"
    / "etcdoperator.v0.9.4-clusterwide.clusterserviceversion.yaml"
)
SINGLE_TEMPLATE = CATALOG / "0.9.4/manifests/etcdoperator.v0.9.4.clusterserviceversion.yaml"
GLOBAL_NS = "openshift-operators"
CATALOG_NS = "openshift-marketplace"
CREATED = "2026-11-02T09:14:03Z"
Obj = dict[str, Any]


@dataclass(frozen=True)
class Sizes:
    namespaces: int = 1000
    global_operators: int = 20
    single_operators: int = 300
    subscriptions: int = 500


@dataclass(frozen=True)
class Generated:
    files: list[Path]
    bytes: int
    csvs: int
    copies: int


def _uid(*parts: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)))


def _dump(obj: Obj) -> str:
    return "---\n" + yaml.dump(obj, Dumper=yaml.CSafeDumper, sort_keys=True, width=120)


def _meta(kind_name: str, name: str, namespace: str | None, **extra: Any) -> Obj:
    meta: Obj = {
        "name": name,
        "uid": _uid(kind_name, namespace or "", name),
        "resourceVersion": "1",
        "creationTimestamp": CREATED,
        **extra,
    }
    if namespace is not None:
        meta["namespace"] = namespace
    return meta


def _apis(csv: Obj) -> list[str]:
    return sorted(
        f"{c['kind']}.{c['version']}.{c['name'].split('.', 1)[1]}"
        for c in csv["spec"]["customresourcedefinitions"]["owned"]
    )


def _operator_csv(
    template: Obj, name: str, group: str, namespace: str, og: str, targets: str
) -> Obj:
    """The template CSV installed by OLM: renamed, its CRDs moved to ``group``, Succeeded."""
    csv = copy.deepcopy(template)
    spec = csv["spec"]
    for crd in spec["customresourcedefinitions"]["owned"]:
        crd["name"] = f"{crd['name'].split('.', 1)[0]}.{group}"
    spec["displayName"] = name
    spec.pop("replaces", None)
    annotations = dict(csv["metadata"].get("annotations") or {})
    annotations.update(
        {
            "olm.operatorGroup": og,
            "olm.operatorNamespace": namespace,
            "olm.targetNamespaces": targets,
        }
    )
    labels = {f"operators.coreos.com/{name}.{namespace}": ""}
    csv["metadata"] = _meta(
        "csv", f"{name}.v0.9.4", namespace, generation=1, annotations=annotations, labels=labels
    )
    history = [
        ("Pending", "RequirementsUnknown", "requirements not yet checked"),
        ("InstallReady", "AllRequirementsMet", "all requirements found, attempting install"),
        ("Installing", "InstallSucceeded", "waiting for install components to report healthy"),
        ("Succeeded", "InstallSucceeded", "install strategy completed with no errors"),
    ]
    csv["status"] = {
        "conditions": [
            {
                "lastTransitionTime": CREATED,
                "lastUpdateTime": CREATED,
                "phase": p,
                "reason": r,
                "message": m,
            }
            for p, r, m in history
        ],
        "lastTransitionTime": CREATED,
        "lastUpdateTime": CREATED,
        "phase": "Succeeded",
        "reason": "InstallSucceeded",
        "message": "install strategy completed with no errors",
        "requirementStatus": [
            {
                "group": "apiextensions.k8s.io",
                "kind": "CustomResourceDefinition",
                "message": "CRD is present and Established condition is true",
                "name": crd["name"],
                "status": "Present",
                "version": "v1",
            }
            for crd in spec["customresourcedefinitions"]["owned"]
        ],
    }
    return csv


def _copy_template(csv: Obj) -> str:
    """The copy of ``csv`` as YAML text, with the namespace and uid left as placeholders."""
    copied = copy.deepcopy(csv)
    meta = copied["metadata"]
    meta["annotations"] = {
        k: v for k, v in meta["annotations"].items() if k != "olm.targetNamespaces"
    }
    meta["labels"] = {"olm.copiedFrom": meta["namespace"]}
    meta["namespace"] = "@NAMESPACE@"
    meta["uid"] = "@UID@"
    copied["status"]["reason"] = "Copied"
    copied["status"]["message"] = (
        f"The operator is running in {csv['metadata']['namespace']} but is managing this namespace"
    )
    return _dump(copied)


def _operator_group(namespace: str, name: str, targets: list[str] | None, apis: list[str]) -> Obj:
    return {
        "apiVersion": "operators.coreos.com/v1",
        "kind": "OperatorGroup",
        "metadata": _meta(
            "og",
            name,
            namespace,
            generation=1,
            annotations={"olm.providedAPIs": ",".join(sorted(apis))},
        ),
        "spec": {} if targets is None else {"targetNamespaces": targets},
        "status": {"lastUpdated": CREATED, "namespaces": targets or [""]},
    }


def _install_plan(namespace: str, name: str, csv: str, approval: str, done: bool) -> Obj:
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "InstallPlan",
        "metadata": _meta("ip", name, namespace, generation=1, generateName="install-"),
        "spec": {
            "approval": approval,
            "approved": done,
            "clusterServiceVersionNames": [csv],
            "generation": 1,
        },
        "status": {
            "phase": "Complete" if done else "RequiresApproval",
            "catalogSources": [],
            "bundleLookups": [
                {
                    "identifier": csv,
                    "replaces": "",
                    "path": f"quay.io/example/{csv}:bundle",
                    "catalogSourceRef": {"name": "community-operators", "namespace": CATALOG_NS},
                }
            ],
        },
    }


def _subscription(
    namespace: str, name: str, csv: str, plan: str, approval: str, installed: bool
) -> Obj:
    status: Obj = {
        "currentCSV": csv,
        "state": "AtLatestKnown" if installed else "UpgradePending",
        "installPlanRef": {"kind": "InstallPlan", "name": plan, "namespace": namespace},
        "lastUpdated": CREATED,
    }
    if installed:
        status["installedCSV"] = csv
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "Subscription",
        "metadata": _meta("sub", name, namespace, generation=1),
        "spec": {
            "channel": "alpha",
            "name": name,
            "source": "community-operators",
            "sourceNamespace": CATALOG_NS,
            "installPlanApproval": approval,
        },
        "status": status,
    }


def _namespace(name: str, groups: list[str]) -> Obj:
    """A Namespace with the uid labels OLM puts on the targets of non-global groups (R-OG-5)."""
    labels = {"kubernetes.io/metadata.name": name}
    labels.update({f"olm.operatorgroup.uid/{_uid('og', name, og)}": "" for og in groups})
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": _meta("ns", name, None, labels=labels),
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"},
    }


def _catalog_source() -> Obj:
    return {
        "apiVersion": "operators.coreos.com/v1alpha1",
        "kind": "CatalogSource",
        "metadata": _meta("catsrc", "community-operators", CATALOG_NS),
        "spec": {
            "displayName": "Community Operators",
            "sourceType": "grpc",
            "image": "registry.redhat.io/redhat/community-operator-index:v4.20",
        },
        "status": {"connectionState": {"lastObservedState": "READY"}},
    }


def generate(out: Path, sizes: Sizes = Sizes()) -> Generated:
    """Write the snapshot under ``out`` (one YAML file per namespace)."""
    global_template = yaml.load(GLOBAL_TEMPLATE.read_bytes(), Loader=yaml.CSafeLoader)
    single_template = yaml.load(SINGLE_TEMPLATE.read_bytes(), Loader=yaml.CSafeLoader)
    teams = [f"team-{i:04d}" for i in range(1, sizes.single_operators + 1)]
    apps = [f"app-{i:04d}" for i in range(1, sizes.namespaces - len(teams) - 1)]
    namespaces = [GLOBAL_NS, CATALOG_NS, *teams, *apps]
    team_set = set(teams)
    docs: dict[str, list[str]] = {
        ns: [_dump(_namespace(ns, [f"{ns}-og"] if ns in team_set else []))] for ns in namespaces
    }
    docs[CATALOG_NS].append(_dump(_catalog_source()))

    global_csvs = [
        _operator_csv(
            global_template,
            f"global-op-{i:02d}",
            f"gop{i:02d}.example.com",
            GLOBAL_NS,
            "global-operators",
            "",
        )
        for i in range(1, sizes.global_operators + 1)
    ]
    all_apis = [api for csv in global_csvs for api in _apis(csv)]
    docs[GLOBAL_NS].append(_dump(_operator_group(GLOBAL_NS, "global-operators", None, all_apis)))
    subs_left = sizes.subscriptions
    for csv in global_csvs:
        name = csv["metadata"]["name"]
        package = name.split(".v", 1)[0]
        plan = f"install-{package}"
        docs[GLOBAL_NS] += [
            _dump(csv),
            _dump(_install_plan(GLOBAL_NS, plan, name, "Automatic", True)),
        ]
        if subs_left > 0:
            docs[GLOBAL_NS].append(
                _dump(_subscription(GLOBAL_NS, package, name, plan, "Automatic", True))
            )
            subs_left -= 1
        template = _copy_template(csv)
        for ns in namespaces:
            if ns != GLOBAL_NS:
                docs[ns].append(
                    template.replace("@NAMESPACE@", ns).replace("@UID@", _uid("copy", ns, name))
                )

    for i, team in enumerate(teams, 1):
        csv = _operator_csv(
            single_template, f"team-op-{i:04d}", f"sop{i:04d}.example.com", team, f"{team}-og", team
        )
        name = csv["metadata"]["name"]
        package = name.split(".v", 1)[0]
        docs[team] += [
            _dump(_operator_group(team, f"{team}-og", [team], _apis(csv))),
            _dump(csv),
            _dump(_install_plan(team, f"install-{package}", name, "Automatic", True)),
        ]
        if subs_left > 0:
            docs[team].append(
                _dump(_subscription(team, package, name, f"install-{package}", "Automatic", True))
            )
            subs_left -= 1
    for i in range(subs_left):
        team = teams[i % len(teams)]
        package = f"addon-{i:04d}"
        csv = f"{package}.v1.0.0"
        docs[team] += [
            _dump(_install_plan(team, f"install-{package}", csv, "Manual", False)),
            _dump(_subscription(team, package, csv, f"install-{package}", "Manual", False)),
        ]

    out.mkdir(parents=True, exist_ok=True)
    files, total = [], 0
    for ns, texts in docs.items():
        path = out / f"{ns}.yaml"
        data = "".join(texts).encode()
        path.write_bytes(data)
        files.append(path)
        total += len(data)
    copies = len(global_csvs) * (len(namespaces) - 1)
    return Generated(files, total, len(global_csvs) + len(teams), copies)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    parser.add_argument("--global-operators", type=int, default=Sizes.global_operators)
    parser.add_argument("--single-operators", type=int, default=Sizes.single_operators)
    parser.add_argument("--subscriptions", type=int, default=Sizes.subscriptions)
    args = parser.parse_args(argv)
    sizes = Sizes(args.namespaces, args.global_operators, args.single_operators, args.subscriptions)
    result = generate(args.out, sizes)
    print(
        f"{len(result.files)} files, {result.bytes / 1e6:.1f} MB, {result.csvs} CSVs, "
        f"{result.copies} copies"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
