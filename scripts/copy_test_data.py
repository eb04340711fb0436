"""Copy the real OLM data the tests read into ``tests/data`` (see ``tests/data/SOURCES.md``).

Usage: ``python3 scripts/copy_test_data.py SOURCE`` where SOURCE is the data directory that
holds ``catalogs/``, ``must-gather/`` and ``cluster/`` (the upstream copies the SOURCES.md
names). Run it again to refresh the copy; it replaces the directories it writes.

Must-gather and cluster files are copied byte for byte. Catalog files are copied byte for
byte too, except CSVs and file-based catalogs, whose unread bulk (icons, deployments,
descriptions, CR examples, UI descriptors) is removed and the rest re-serialized: a real
catalog is mostly that bulk, and the repository must stay a few MB. Each trimmed package is
checked to load into exactly the catalog its original loads into, so no test sees a
difference in what olmtui reads.
"""

from __future__ import annotations

import base64
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

from olmtui.sources.catalog.catalogs import load_catalog

TARGET = Path(__file__).resolve().parent.parent / "tests" / "data"
#: Directories copied whole and unmodified, relative to SOURCE.
VERBATIM: tuple[str, ...] = (
    "must-gather/SOURCES.md",
    "must-gather/must-gather-clean/must-gather-aws",
    "must-gather/must-gather-clean/must-gather-azure",
    "must-gather/must-gather-clean/must-gather-metal",
    "must-gather/must-gather-clean/must-gather-vsphere",
    "cluster/openshift-console/frontend/packages/operator-lifecycle-manager/mocks.packagemanifests.yaml",
    "catalogs/operator-lifecycle-manager",
    "catalogs/SOURCES.md",
)
#: Catalog trees copied with their CSVs and FBCs trimmed.
TRIMMED: tuple[str, ...] = (
    "catalogs/cluster-kube-descheduler-operator/v4.16",
    "catalogs/cluster-kube-descheduler-operator/v4.20",
    "catalogs/community-operators-prod/operators/cert-manager",
    "catalogs/community-operators-prod/operators/etcd",
    "catalogs/community-operators-prod/operators/infinispan",
    "catalogs/community-operators-prod/operators/keycloak-operator",
    "catalogs/community-operators-prod/operators/node-healthcheck-operator",
    "catalogs/community-operators-prod/operators/oadp-operator",
    "catalogs/community-operators-prod/operators/percona-server-mongodb-operator",
    "catalogs/community-operators-prod/operators/rabbitmq-messaging-topology-operator",
    "catalogs/community-operators-prod/operators/skupper-operator",
    "catalogs/community-operators-prod/operators/strimzi-kafka-operator",
    "catalogs/community-operators-prod/catalogs/v4.20/infinispan",
    "catalogs/community-operators-prod/catalogs/v4.20/opendatahub-operator",
    "catalogs/community-operators-prod/catalogs/v4.20/rabbitmq-messaging-topology-operator",
    "catalogs/community-operators/upstream-community-operators/etcd",
    "catalogs/community-operators/upstream-community-operators/strimzi-kafka-operator",
)
#: CSVs kept whole: the demo's fixtures are compared with them, and the slim CSV reader is
#: tested on them (relative to community-operators-prod/operators).
WHOLE_CSVS: tuple[str, ...] = (
    "cert-manager/1.16.5",
    "node-healthcheck-operator/0.12.0",
    "etcd/0.9.4",
    "etcd/0.9.4-clusterwide",
    "keycloak-operator/26.6.2",
    "keycloak-operator/26.6.3",
    "keycloak-operator/26.7.1",
    "rabbitmq-messaging-topology-operator/1.19.3",
    "rabbitmq-messaging-topology-operator/1.19.1",
)
#: Unread CSV parts: spec keys, annotations, and keys of each owned/required CRD description.
CSV_SPEC_BULK = ("icon", "install", "description", "relatedImages")
ANNOTATION_BULK = ("alm-examples", "alm-examples-metadata", "description")
CRD_DESCRIPTION_BULK = (
    "description",
    "specDescriptors",
    "statusDescriptors",
    "actionDescriptors",
    "resources",
)


def _slim_crd_descriptions(crds: Any) -> None:
    if not isinstance(crds, dict):
        return
    for side in ("owned", "required"):
        for item in crds.get(side) or []:
            for key in CRD_DESCRIPTION_BULK:
                item.pop(key, None)


def slim_csv(csv: dict[str, Any]) -> None:
    """Remove, in place, what no olmtui reader looks at in a catalog CSV."""
    spec = csv.get("spec") or {}
    for key in CSV_SPEC_BULK:
        spec.pop(key, None)
    annotations = (csv.get("metadata") or {}).get("annotations") or {}
    for key in ANNOTATION_BULK:
        annotations.pop(key, None)
    _slim_crd_descriptions(spec.get("customresourcedefinitions"))


def slim_crd(crd: dict[str, Any]) -> None:
    """Remove, in place, a CRD's schemas and printer columns (olmtui reads its versions)."""
    for version in (crd.get("spec") or {}).get("versions") or []:
        version.pop("schema", None)
        version.pop("additionalPrinterColumns", None)
    (crd.get("spec") or {}).pop("validation", None)


def _slim_bundle_object(value: dict[str, Any]) -> None:
    manifest = json.loads(base64.b64decode(value["data"]))
    if manifest.get("kind") == "ClusterServiceVersion":
        slim_csv(manifest)
    elif manifest.get("kind") == "CustomResourceDefinition":
        slim_crd(manifest)
    value["data"] = base64.b64encode(json.dumps(manifest).encode()).decode()


def slim_fbc(document: dict[str, Any]) -> None:
    """Remove, in place, the icon, descriptions and CSV metadata bulk of one FBC object, and
    slim the manifests embedded as ``olm.bundle.object``."""
    document.pop("icon", None)
    document.pop("description", None)
    document.pop("relatedImages", None)
    for prop in document.get("properties") or []:
        if prop.get("type") == "olm.bundle.object":
            _slim_bundle_object(prop["value"])
        if prop.get("type") == "olm.csv.metadata":
            metadata = prop["value"]
            metadata.pop("description", None)
            metadata.pop("icon", None)
            for key in ANNOTATION_BULK:
                (metadata.get("annotations") or {}).pop(key, None)
            _slim_crd_descriptions(metadata.get("crdDescriptions"))


def _dump(documents: list[Any]) -> str:
    return yaml.dump_all(
        documents,
        Dumper=yaml.CSafeDumper,
        sort_keys=False,
        width=1 << 16,
        allow_unicode=True,
        explicit_start=len(documents) > 1,
    )


def _json_stream(text: str) -> list[Any]:
    """The objects of a stream of concatenated JSON documents (as opm renders catalogs)."""
    decoder, objects, at = json.JSONDecoder(), [], 0
    while (at := len(text) - len(text[at:].lstrip())) < len(text):
        value, at = decoder.raw_decode(text, at)
        objects.append(value)
    return objects


def _trim_file(path: Path, whole: bool) -> None:
    if whole:
        return
    if path.name == "catalog.json":
        documents = _json_stream(path.read_text(encoding="utf-8"))
        for document in documents:
            slim_fbc(document)
        path.write_text("".join(json.dumps(d, indent=4) + "\n" for d in documents))
        return
    if path.suffix != ".yaml":
        return
    documents = list(yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader))
    is_csv = path.name.endswith(".clusterserviceversion.yaml")
    if not (is_csv or path.name == "catalog.yaml"):
        return
    for document in documents:
        if isinstance(document, dict):
            (slim_csv if is_csv else slim_fbc)(document)
    path.write_text(_dump([d for d in documents if d is not None]), encoding="utf-8")


def _copy_trimmed(source: Path, target: Path, whole_dirs: set[Path]) -> None:
    shutil.copytree(source, target)
    for path in sorted(p for p in target.rglob("*") if p.suffix in (".yaml", ".json")):
        relative = path.relative_to(target)
        whole = any(target / w in path.parents for w in whole_dirs)
        _trim_file(target / relative, whole)
    before, after = load_catalog(str(source)), load_catalog(str(target))
    if before.packages != after.packages or len(before.findings) != len(after.findings):
        raise SystemExit(f"{target}: the trimmed copy loads differently from {source}")


def main(source: Path) -> None:
    for name in ("catalogs", "must-gather", "cluster"):
        shutil.rmtree(TARGET / name, ignore_errors=True)
    for relative in VERBATIM:
        target = TARGET / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        copy = shutil.copytree if (source / relative).is_dir() else shutil.copy2
        copy(source / relative, target)
    prod = Path("catalogs/community-operators-prod/operators")
    for relative in TRIMMED:
        whole = {
            Path(w).relative_to(Path(relative).relative_to(prod))
            for w in WHOLE_CSVS
            if Path(relative).is_relative_to(prod)
            and Path(w).is_relative_to(Path(relative).relative_to(prod))
        }
        (TARGET / relative).parent.mkdir(parents=True, exist_ok=True)
        _copy_trimmed(source / relative, TARGET / relative, whole)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
