"""Generate a large synthetic OLM snapshot for the ``olmtui check`` bench.

The cluster: ``--namespaces`` namespaces; ``--global-operators`` AllNamespaces operators in
one global OperatorGroup (``openshift-operators/global-operators``), each copied into every
other namespace (so about 20,000 copied CSVs); ``--single-operators`` operators in their own
namespace with their own group; ``--subscriptions`` Subscriptions (one per installed operator,
the rest Manual ones waiting for approval of an InstallPlan next to them).

Every CSV is a real published CSV (etcd 0.9.4 from community-operators-prod, icon kept) with
its name and API group changed, and every copy is written as kubectl prints it: the full
spec and status of its parent, as copies carry on a cluster (R-COPY-4).

Two layouts of the same objects (``--layout``):

- ``namespace`` (the default): one YAML file per namespace, like
  ``kubectl get -n NS ... -o yaml`` dumps;
- ``must-gather``: as ``oc adm must-gather`` writes them, one object per file under an image
  directory (``must-gather.local.N/quay-io-...-sha256-<digest>/``) with the ``timestamp``
  file beside it: ``namespaces/NS/NS.yaml`` for the Namespace,
  ``namespaces/NS/operators.coreos.com/<plural>/NAME.yaml`` for OLM's objects, and in every
  namespace ``core/pods.yaml``, ``core/events.yaml`` and ``batch/jobs.yaml`` as List documents
  (``--pods``, ``--events``, ``--jobs`` objects in all, dealt out across the namespaces; empty
  Lists where none fall).

    python bench/gen_snapshot.py OUTDIR [--layout must-gather --pods 10000 --events 100000]
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
class Extras:
    """A must-gather's objects beside OLM's: Pods and Events dealt out over every
    namespace, Jobs in the catalog namespace."""

    pods: int = 0
    events: int = 0
    jobs: int = 0


@dataclass(frozen=True)
class Generated:
    files: list[Path]
    bytes: int
    csvs: int
    copies: int
    #: The must-gather's ``core/pods.yaml``, ``core/events.yaml`` and ``batch/jobs.yaml``.
    extra_files: list[Path]
    extra_bytes: int


def _uid(*parts: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)))


class _NoAliases(yaml.CSafeDumper):
    """As ``oc`` writes objects: Go's encoder writes no anchors or aliases, where PyYAML
    would alias a list two fields share (an OperatorGroup's target namespaces and its
    status's namespaces)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _dump(obj: Obj) -> str:
    return "---\n" + yaml.dump(obj, Dumper=_NoAliases, sort_keys=True, width=120)


class _GoStyle(_NoAliases):
    """As Go's encoder writes a must-gather's Lists: a text over several lines as a ``|-``
    block, long texts folded at 80 columns."""


def _literal(dumper: yaml.CSafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_GoStyle.add_representer(str, _literal)


def _dump_listed(obj: Obj) -> str:
    return "---\n" + yaml.dump(obj, Dumper=_GoStyle, sort_keys=True, width=80)


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


def generate(
    out: Path,
    sizes: Sizes = Sizes(),
    *,
    layout: str = "namespace",
    extras: Extras = Extras(),
) -> Generated:
    """Write the snapshot under ``out`` in ``layout`` (module docstring); ``extras``: the
    Pods, Events and Jobs of a must-gather."""
    global_template = yaml.load(GLOBAL_TEMPLATE.read_bytes(), Loader=yaml.CSafeLoader)
    single_template = yaml.load(SINGLE_TEMPLATE.read_bytes(), Loader=yaml.CSafeLoader)
    teams = [f"team-{i:04d}" for i in range(1, sizes.single_operators + 1)]
    apps = [f"app-{i:04d}" for i in range(1, sizes.namespaces - len(teams) - 1)]
    namespaces = [GLOBAL_NS, CATALOG_NS, *teams, *apps]
    team_set = set(teams)
    docs: dict[str, list[Written]] = {
        ns: [_written(_namespace(ns, [f"{ns}-og"] if ns in team_set else []))] for ns in namespaces
    }
    docs[CATALOG_NS].append(_written(_catalog_source()))

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
    docs[GLOBAL_NS].append(_written(_operator_group(GLOBAL_NS, "global-operators", None, all_apis)))
    subs_left = sizes.subscriptions
    for csv in global_csvs:
        name = csv["metadata"]["name"]
        package = name.split(".v", 1)[0]
        plan = f"install-{package}"
        docs[GLOBAL_NS] += [
            _written(csv),
            _written(_install_plan(GLOBAL_NS, plan, name, "Automatic", True)),
        ]
        if subs_left > 0:
            docs[GLOBAL_NS].append(
                _written(_subscription(GLOBAL_NS, package, name, plan, "Automatic", True))
            )
            subs_left -= 1
        template = _copy_template(csv)
        for ns in namespaces:
            if ns != GLOBAL_NS:
                text = template.replace("@NAMESPACE@", ns).replace("@UID@", _uid("copy", ns, name))
                docs[ns].append(Written(csv["kind"], name, text))

    for i, team in enumerate(teams, 1):
        csv = _operator_csv(
            single_template, f"team-op-{i:04d}", f"sop{i:04d}.example.com", team, f"{team}-og", team
        )
        name = csv["metadata"]["name"]
        package = name.split(".v", 1)[0]
        docs[team] += [
            _written(_operator_group(team, f"{team}-og", [team], _apis(csv))),
            _written(csv),
            _written(_install_plan(team, f"install-{package}", name, "Automatic", True)),
        ]
        if subs_left > 0:
            docs[team].append(
                _written(
                    _subscription(team, package, name, f"install-{package}", "Automatic", True)
                )
            )
            subs_left -= 1
    for i in range(subs_left):
        team = teams[i % len(teams)]
        package = f"addon-{i:04d}"
        csv = f"{package}.v1.0.0"
        docs[team] += [
            _written(_install_plan(team, f"install-{package}", csv, "Manual", False)),
            _written(_subscription(team, package, csv, f"install-{package}", "Manual", False)),
        ]

    out.mkdir(parents=True, exist_ok=True)
    copies = len(global_csvs) * (len(namespaces) - 1)
    if layout == "must-gather":
        files, extra = _write_must_gather(out, docs, extras)
    elif layout == "namespace":
        files, extra = _write_per_namespace(out, docs), []
    else:
        raise ValueError(f"unknown layout {layout!r}")
    total = sum(p.stat().st_size for p in files)
    extra_bytes = sum(p.stat().st_size for p in extra)
    return Generated(files, total, len(global_csvs) + len(teams), copies, extra, extra_bytes)


@dataclass(frozen=True)
class Written:
    """One object as YAML text (``---`` first), with the kind and name its file is named by."""

    kind: str
    name: str
    text: str


def _written(obj: Obj) -> Written:
    return Written(obj["kind"], obj["metadata"]["name"], _dump(obj))


def _write_per_namespace(out: Path, docs: dict[str, list[Written]]) -> list[Path]:
    """One file per namespace, its objects one document each."""
    files = []
    for ns, written in docs.items():
        path = out / f"{ns}.yaml"
        path.write_bytes("".join(w.text for w in written).encode())
        files.append(path)
    return files


#: The folder of each OLM kind under ``namespaces/NS/operators.coreos.com/``.
MUST_GATHER_FOLDERS = {
    "ClusterServiceVersion": "clusterserviceversions",
    "OperatorGroup": "operatorgroups",
    "Subscription": "subscriptions",
    "InstallPlan": "installplans",
    "CatalogSource": "catalogsources",
}
#: The image directory ``oc adm must-gather`` names after the gathering image.
IMAGE_DIRECTORY = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-" + "5c0ffee" * 9 + "0"
#: Gathering's start and finish, as ``oc`` writes them (Go's ``time.Time.String()``).
TIMESTAMP = (
    "2026-11-02 10:02:11.297713385 +0000 UTC m=+0.041939331\n"
    "2026-11-02 10:06:48.834219117 +0000 UTC m=+277.578445063\n"
)


def _write_must_gather(
    out: Path, docs: dict[str, list[Written]], extras: Extras
) -> tuple[list[Path], list[Path]]:
    """The must-gather layout: every file written, and the Pods/Events/Jobs files among them."""
    top = out / "must-gather.local.5290142512466513127"
    root = top / IMAGE_DIRECTORY
    root.mkdir(parents=True, exist_ok=True)
    (top / "timestamp").write_text(TIMESTAMP)
    files: list[Path] = []
    extra: list[Path] = []
    names = list(docs)
    pods = _dealt(extras.pods, names)
    events = _dealt(extras.events, names)
    jobs = _dealt(extras.jobs, [CATALOG_NS])
    for ns, written in docs.items():
        folder = root / "namespaces" / ns
        for w in written:
            if w.kind == "Namespace":
                path = folder / f"{ns}.yaml"
            else:
                path = (
                    folder / "operators.coreos.com" / MUST_GATHER_FOLDERS[w.kind] / f"{w.name}.yaml"
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(w.text)
            files.append(path)
        for relative, kind, items in (
            ("core/pods.yaml", "PodList", [_pod(ns, i) for i in range(pods.get(ns, 0))]),
            ("core/events.yaml", "EventList", [_event(ns, i) for i in range(events.get(ns, 0))]),
            ("batch/jobs.yaml", "JobList", [_job(ns, i) for i in range(jobs.get(ns, 0))]),
        ):
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            api_version = "batch/v1" if kind == "JobList" else "v1"
            listed = {"apiVersion": api_version, "items": items, "kind": kind, "metadata": {}}
            path.write_text(_dump_listed(listed))
            files.append(path)
            extra.append(path)
    return files, extra


def _dealt(count: int, namespaces: list[str]) -> dict[str, int]:
    """``count`` objects dealt out over the namespaces in turn: how many each gets."""
    base, rest = divmod(count, len(namespaces))
    return {ns: base + (i < rest) for i, ns in enumerate(namespaces)}


def _network_status(ip: str) -> str:
    """The CNI's network-status annotation, a JSON text over several lines."""
    return (
        '[{\n    "name": "openshift-sdn",\n    "interface": "eth0",\n    "ips": [\n'
        f'        "{ip}"\n    ],\n    "default": true,\n    "dns": {{}}\n}}]'
    )


def _pod(namespace: str, index: int) -> Obj:
    """A catalog pod as ``oc adm inspect`` writes it: the shape (fields, lengths) of
    ``openshift-marketplace/certified-operators-mj8cg`` in the must-gather-clean azure
    must-gather (OCP 4.8, September 2021), renamed per index."""
    catalog = f"catalog-{index:05d}"
    name = f"{catalog}-{_uid('pod', namespace, str(index))[:5]}"
    ip = f"10.{128 + index % 4}.{index % 250}.{index % 200 + 2}"
    node = f"ci-ln-k7vx6h2-002ac-w7gjh-worker-eastus2{index % 3 + 1}-gqtkz"
    image = "registry.redhat.io/redhat/certified-operator-index:v4.8"
    token = f"kube-api-access-{_uid('token', namespace, str(index))[:5]}"
    started = "2021-09-13T14:58:15Z"

    def probe(delay: int) -> Obj:
        return {
            "exec": {"command": ["grpc_health_probe", "-addr=:50051"]},
            "failureThreshold": 3,
            "initialDelaySeconds": delay,
            "periodSeconds": 10,
            "successThreshold": 1,
            "timeoutSeconds": 5,
        }

    def toleration(key: str, effect: str, seconds: int | None) -> Obj:
        found: Obj = {"effect": effect, "key": f"node.kubernetes.io/{key}", "operator": "Exists"}
        if seconds is not None:
            found["tolerationSeconds"] = seconds
        return found

    def configmap(key: str, configmap_name: str) -> Obj:
        return {"configMap": {"items": [{"key": key, "path": key}], "name": configmap_name}}

    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": _meta(
            "pod",
            name,
            namespace,
            creationTimestamp="2021-09-13T14:52:57Z",
            resourceVersion=str(19477 + index),
            generateName=f"{catalog}-",
            labels={"olm.catalogSource": catalog, "olm.pod-spec-hash": "79cd6f69c"},
            annotations={
                "k8s.v1.cni.cncf.io/network-status": _network_status(ip),
                "k8s.v1.cni.cncf.io/networks-status": _network_status(ip),
                "openshift.io/scc": "anyuid",
                "operatorframework.io/managed-by": "marketplace-operator",
                "operatorframework.io/priorityclass": "system-cluster-critical",
                "workload.openshift.io/warning": "only single-node clusters support workload "
                "partitioning",
            },
            ownerReferences=[
                {
                    "apiVersion": "operators.coreos.com/v1alpha1",
                    "blockOwnerDeletion": False,
                    "controller": False,
                    "kind": "CatalogSource",
                    "name": catalog,
                    "uid": _uid("catsrc", namespace, catalog),
                }
            ],
        ),
        "spec": {
            "containers": [
                {
                    "image": image,
                    "imagePullPolicy": "Always",
                    "livenessProbe": probe(10),
                    "name": "registry-server",
                    "ports": [{"containerPort": 50051, "name": "grpc", "protocol": "TCP"}],
                    "readinessProbe": probe(5),
                    "resources": {"requests": {"cpu": "10m", "memory": "50Mi"}},
                    "securityContext": {
                        "capabilities": {"drop": ["MKNOD"]},
                        "readOnlyRootFilesystem": False,
                    },
                    "terminationMessagePath": "/dev/termination-log",
                    "terminationMessagePolicy": "FallbackToLogsOnError",
                    "volumeMounts": [
                        {
                            "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                            "name": token,
                            "readOnly": True,
                        }
                    ],
                }
            ],
            "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": True,
            "nodeName": node,
            "nodeSelector": {"kubernetes.io/os": "linux"},
            "preemptionPolicy": "PreemptLowerPriority",
            "priority": 2000000000,
            "priorityClassName": "system-cluster-critical",
            "restartPolicy": "Always",
            "schedulerName": "default-scheduler",
            "securityContext": {"seLinuxOptions": {"level": "s0:c15,c0"}},
            "serviceAccount": catalog,
            "serviceAccountName": catalog,
            "terminationGracePeriodSeconds": 30,
            "tolerations": [
                toleration("not-ready", "NoExecute", 300),
                toleration("unreachable", "NoExecute", 300),
                toleration("memory-pressure", "NoSchedule", None),
            ],
            "volumes": [
                {
                    "name": token,
                    "projected": {
                        "defaultMode": 420,
                        "sources": [
                            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                            configmap("ca.crt", "kube-root-ca.crt"),
                            {
                                "downwardAPI": {
                                    "items": [
                                        {
                                            "fieldRef": {
                                                "apiVersion": "v1",
                                                "fieldPath": "metadata.namespace",
                                            },
                                            "path": "namespace",
                                        }
                                    ]
                                }
                            },
                            configmap("service-ca.crt", "openshift-service-ca.crt"),
                        ],
                    },
                }
            ],
        },
        "status": {
            "conditions": [
                {"lastProbeTime": None, "lastTransitionTime": started, "status": "True", "type": t}
                for t in ("Initialized", "Ready", "ContainersReady", "PodScheduled")
            ],
            "containerStatuses": [
                {
                    "containerID": "cri-o://"
                    + _uid("container", namespace, name).replace("-", "")
                    + "0bce81fdf8d84f91c68470a3e",
                    "image": image,
                    "imageID": "registry.redhat.io/redhat/certified-operator-index@sha256:"
                    + "43ceda1d7e63f81f39e74f3df315953f2126bf8abda958c39073895056e17cfc",
                    "lastState": {},
                    "name": "registry-server",
                    "ready": True,
                    "restartCount": index % 3,
                    "started": True,
                    "state": {"running": {"startedAt": "2021-09-13T14:58:42Z"}},
                }
            ],
            "hostIP": "10.0.32.4",
            "phase": "Running",
            "podIP": ip,
            "podIPs": [{"ip": ip}],
            "qosClass": "Burstable",
            "startTime": started,
        },
    }


def _event(namespace: str, index: int) -> Obj:
    """An Event about a pod of the namespace, as ``core/events.yaml`` lists them."""
    pod = f"operator-{index % 50:05d}-7d9f8b6c5d-abcde"
    reasons = ("Pulled", "Created", "Started", "BackOff", "Unhealthy")
    reason = reasons[index % len(reasons)]
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": _meta("event", f"{pod}.{index:016x}", namespace),
        "involvedObject": {
            "apiVersion": "v1",
            "fieldPath": "spec.containers{manager}",
            "kind": "Pod",
            "name": pod,
            "namespace": namespace,
            "resourceVersion": "48211",
            "uid": _uid("pod", namespace, pod),
        },
        "reason": reason,
        "message": f"{reason}: container manager in pod {pod} (event {index})",
        "source": {"component": "kubelet", "host": f"worker-{index % 6}.example.internal"},
        "firstTimestamp": CREATED,
        "lastTimestamp": CREATED,
        "count": 1 + index % 7,
        "type": "Warning" if reason in ("BackOff", "Unhealthy") else "Normal",
        "reportingComponent": "kubelet",
        "reportingInstance": f"worker-{index % 6}.example.internal",
    }


def _job(namespace: str, index: int) -> Obj:
    """A finished bundle unpack Job of the catalog namespace."""
    name = f"{_uid('job', namespace, str(index)).replace('-', '')[:63]}"
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": _meta(
            "job",
            name,
            namespace,
            labels={"operatorframework.io/bundle-unpack-ref": name, "controller-uid": name},
        ),
        "spec": {
            "activeDeadlineSeconds": 600,
            "backoffLimit": 3,
            "completions": 1,
            "parallelism": 1,
            "template": {
                "metadata": {"name": name},
                "spec": {
                    "containers": [
                        {
                            "name": "extract",
                            "image": "quay.io/operator-framework/olm@sha256:" + "ab" * 32,
                            "command": ["opm", "alpha", "bundle", "extract", "-m", "/bundle/"],
                        }
                    ],
                    "restartPolicy": "Never",
                },
            },
        },
        "status": {
            "completionTime": CREATED,
            "conditions": [{"status": "True", "type": "Complete", "lastTransitionTime": CREATED}],
            "startTime": CREATED,
            "succeeded": 1,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--namespaces", type=int, default=Sizes.namespaces)
    parser.add_argument("--global-operators", type=int, default=Sizes.global_operators)
    parser.add_argument("--single-operators", type=int, default=Sizes.single_operators)
    parser.add_argument("--subscriptions", type=int, default=Sizes.subscriptions)
    parser.add_argument("--layout", choices=("namespace", "must-gather"), default="namespace")
    parser.add_argument("--pods", type=int, default=0, help="must-gather: Pods in all")
    parser.add_argument("--events", type=int, default=0, help="must-gather: Events in all")
    parser.add_argument("--jobs", type=int, default=0, help="must-gather: unpack Jobs")
    args = parser.parse_args(argv)
    sizes = Sizes(args.namespaces, args.global_operators, args.single_operators, args.subscriptions)
    extras = Extras(args.pods, args.events, args.jobs)
    if args.layout != "must-gather" and extras != Extras():
        parser.error("--pods, --events and --jobs need --layout must-gather")
    result = generate(args.out, sizes, layout=args.layout, extras=extras)
    print(
        f"{len(result.files)} files, {result.bytes / 1e6:.1f} MB "
        f"(Pods/Events/Jobs files {result.extra_bytes / 1e6:.1f} MB), {result.csvs} CSVs, "
        f"{result.copies} copies"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
