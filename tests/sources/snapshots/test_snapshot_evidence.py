"""R-EVD-1: a must-gather's core/pods.yaml, core/events.yaml and batch/jobs.yaml (typed List
documents) and plain YAML dumps feed Pods, Jobs and Events to the cache, trimmed; Events
about other kinds are left out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from model_builders import catalog_source, cluster_event, job, pod
from snapshot_files import yaml_documents

from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.store import Store

NS = "openshift-marketplace"
UNPACK = {"operatorframework.io/bundle-unpack-ref": "abc123"}


def typed_list(kind: str, api_version: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    """What ``oc adm inspect`` writes: a typed List whose items lack kind and apiVersion."""
    bare = [{k: v for k, v in i.items() if k not in ("kind", "apiVersion")} for i in items]
    return {"apiVersion": api_version, "kind": f"{kind}List", "items": bare}


def must_gather(root: Path) -> Path:
    base = root / "must-gather" / "namespaces" / NS
    (base / "core").mkdir(parents=True)
    (base / "batch").mkdir()
    catalogs = base / "operators.coreos.com" / "catalogsources"
    catalogs.mkdir(parents=True)
    (catalogs / "cat.yaml").write_text(yaml.safe_dump(catalog_source(NS, "cat")))
    pods = [
        pod(NS, "cat-x", labels={"olm.catalogSource": "cat"}, waiting="CrashLoopBackOff"),
        pod(NS, "other"),
    ]
    (base / "core" / "pods.yaml").write_text(yaml.safe_dump(typed_list("Pod", "v1", pods)))
    events = [
        cluster_event(NS, "e1", kind="Pod", obj_name="cat-x", reason="BackOff", count=42),
        cluster_event(NS, "e2", kind="Secret", obj_name="s", reason="Created"),
    ]
    (base / "core" / "events.yaml").write_text(yaml.safe_dump(typed_list("Event", "v1", events)))
    jobs = [job(NS, "abc123", labels=UNPACK, failed="Job has reached the specified backoff limit")]
    (base / "batch" / "jobs.yaml").write_text(yaml.safe_dump(typed_list("Job", "batch/v1", jobs)))
    return root / "must-gather"


def test_a_must_gather_gives_pods_events_and_jobs_trimmed(tmp_path: Path) -> None:
    store = Store()
    result = load_snapshot([must_gather(tmp_path)], store)
    assert result.skipped == 0
    assert sorted(p["metadata"]["name"] for p in store.list("Pod")) == ["cat-x", "other"]
    crashing = store.get("Pod", NS, "cat-x")
    assert crashing is not None and "spec" not in crashing
    waiting = crashing["status"]["containerStatuses"][0]["state"]["waiting"]
    assert waiting == {"reason": "CrashLoopBackOff"}
    assert [e["metadata"]["name"] for e in store.list("Event")] == ["e1"]
    assert store.get("Event", NS, "e1")["count"] == 42  # type: ignore[index]
    unpack = store.get("Job", NS, "abc123")
    assert unpack is not None and unpack["metadata"]["labels"] == UNPACK


def test_a_plain_yaml_dump_gives_them_too(tmp_path: Path) -> None:
    path = tmp_path / "dump.yaml"
    objects = [
        catalog_source(NS, "cat"),
        pod(NS, "cat-x", labels={"olm.catalogSource": "cat"}, waiting="ErrImagePull"),
        cluster_event(
            NS, "e1", kind="CatalogSource", obj_name="cat", reason="BuildServingPodFailed"
        ),
        job(NS, "abc123", labels=UNPACK),
    ]
    path.write_text(yaml_documents(objects))
    store = Store()
    load_snapshot([path], store)
    assert (store.count("Pod"), store.count("Event"), store.count("Job")) == (1, 1, 1)
