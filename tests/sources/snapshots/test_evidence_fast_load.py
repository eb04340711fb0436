"""R-EVD-1: a must-gather whose Pods, Events and Jobs are read by the fast path loads into
the cache exactly as with every document parsed in full (objects, wrong-typed fields,
skipped documents and counts), in one process or in the pool; and a pod held both by its
namespace's ``core/pods.yaml`` and by its own ``pods/POD/POD.yaml`` is read once, from the
List."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from model_builders import catalog_source, cluster_event, csv, job, pod

from olmtui.kinds import EVENT, JOB, POD
from olmtui.sources.snapshots import snapshot_documents
from olmtui.sources.snapshots.snapshot import LoadResult, load_snapshot
from olmtui.sources.snapshots.snapshot_files import select_files
from olmtui.store import Store

NS = "openshift-marketplace"


def _list(kind: str, api_version: str, items: list[dict[str, Any]]) -> str:
    document = {"apiVersion": api_version, "items": items, "kind": f"{kind}List", "metadata": {}}
    return "---\n" + yaml.safe_dump(document, width=80)


def must_gather(root: Path, namespaces: int = 3) -> Path:
    base = root / "must-gather" / "namespaces"
    for n in range(namespaces):
        ns = f"{NS}-{n}" if n else NS
        folder = base / ns
        (folder / "core").mkdir(parents=True)
        (folder / "batch").mkdir()
        catalogs = folder / "operators.coreos.com" / "catalogsources"
        catalogs.mkdir(parents=True)
        (catalogs / "cat.yaml").write_text(yaml.safe_dump(catalog_source(ns, "cat")))
        pods = [
            pod(ns, f"cat-{i}", labels={"olm.catalogSource": "cat"}, restarts=i, waiting="X")
            for i in range(5)
        ]
        pods[1]["metadata"]["labels"] = ["not", "a", "map"]  # wrong-typed: said as today
        pods[2]["status"]["containerStatuses"][0]["restartCount"] = "many"
        pods[3]["metadata"]["uid"] = 5  # a wrong-typed field the cache records (R-SRC-4)
        pods[4]["metadata"]["annotations"] = {"seen": ["a list"]}
        (folder / "core" / "pods.yaml").write_text(_list("Pod", "v1", pods))
        events = [
            cluster_event(ns, f"e{i}", kind=("Pod", "Secret")[i % 2], obj_name="p", reason="R")
            for i in range(30)
        ]
        events[4]["metadata"]["name"] = 7  # no name: skipped, with its line, as today
        (folder / "core" / "events.yaml").write_text(_list("Event", "v1", events))
        unpack = {"operatorframework.io/bundle-unpack-ref": "abc"}
        jobs = [job(ns, "abc", labels=unpack, failed="DeadlineExceeded")]
        (folder / "batch" / "jobs.yaml").write_text(_list("Job", "batch/v1", jobs))
    # a broken List: reported with its file and line either way
    (base / NS / "core" / "events.yaml").write_text(
        _list("Event", "v1", []) + "---\napiVersion: v1\nitems:\n- kind: [\nkind: EventList\n"
    )
    return root / "must-gather"


def loaded(path: Path, *, fast: bool, workers: int = 1) -> tuple[Store, LoadResult]:
    store = Store()
    return store, load_snapshot([path], store, fast=fast, workers=workers)


def cached(store: Store) -> dict[str, Any]:
    return {
        "objects": {kind: list(store.list(kind)) for kind in (POD, EVENT, JOB)},
        "malformed": {str(key): record for key, record in store.malformed.items()},
    }


def test_the_fast_path_loads_what_the_full_parse_loads(tmp_path: Path) -> None:
    path = must_gather(tmp_path)
    fast_store, fast = loaded(path, fast=True)
    full_store, full = loaded(path, fast=False)
    assert cached(fast_store) == cached(full_store)
    assert fast == full
    assert fast.skipped and fast_store.malformed  # the hostile items were there
    # the Secrets' left out, and one without a name, in the two namespaces not broken
    assert fast_store.count(EVENT) == 2 * (15 - 1)


def test_the_fast_path_is_taken_for_the_must_gather_lists(tmp_path: Path, monkeypatch: Any) -> None:
    taken: list[bool] = []
    real = snapshot_documents.evidence_list

    def spy(chunk: bytes, load: Any, **options: Any) -> Any:
        value = real(chunk, load, **options)
        taken.append(value is not None)
        return value

    monkeypatch.setattr(snapshot_documents, "evidence_list", spy)
    loaded(must_gather(tmp_path), fast=True)
    assert taken.count(True) >= 8  # every List but the broken one


def test_the_pool_loads_the_same(tmp_path: Path, monkeypatch: Any) -> None:
    from olmtui.sources.snapshots import parallel_load

    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 1)
    path = must_gather(tmp_path, namespaces=6)
    pool_store, pool = loaded(path, fast=True, workers=2)
    one_store, one = loaded(path, fast=False)
    assert cached(pool_store) == cached(one_store)
    assert pool == one


def test_a_pod_in_its_namespaces_list_is_not_read_again_from_its_own_file() -> None:
    listed = [
        "mg/namespaces/a/core/pods.yaml",
        "mg/namespaces/a/pods/p1/p1.yaml",
        "mg/namespaces/b/pods/p2/p2.yaml",
        "mg/namespaces/a/pods/p1/other.yaml",
    ]
    chosen = select_files(listed).files
    assert "mg/namespaces/a/pods/p1/p1.yaml" not in chosen  # the List holds it
    assert "mg/namespaces/b/pods/p2/p2.yaml" in chosen  # b has no List: its own file is read
    assert "mg/namespaces/a/core/pods.yaml" in chosen


def test_each_pod_reaches_the_cache_once_from_the_list(tmp_path: Path) -> None:
    path = must_gather(tmp_path, namespaces=1)
    own = path / "namespaces" / NS / "pods" / "cat-0"
    own.mkdir(parents=True)
    # its own file says otherwise: were it read, the cache would hold this one
    (own / "cat-0.yaml").write_text(yaml.safe_dump(pod(NS, "cat-0", phase="Failed")))
    store, result = loaded(path, fast=True)
    assert store.get(POD, NS, "cat-0")["status"]["phase"] == "Running"  # type: ignore[index]
    (own / "cat-0.yaml").unlink()
    _, listed_only = loaded(path, fast=True)
    assert result.objects == listed_only.objects


def scoped_must_gather(root: Path) -> Path:
    """R-EVD-1: a catalog namespace, a namespace whose CSV installs, and one holding only a
    Succeeded CSV: each with pods and Events about them and about its CSV."""
    base = root / "must-gather" / "namespaces"
    for ns, phase in (("catalogs", None), ("installing", "Installing"), ("quiet", "Succeeded")):
        folder = base / ns
        (folder / "core").mkdir(parents=True)
        olm = folder / "operators.coreos.com"
        if phase is None:
            (olm / "catalogsources").mkdir(parents=True)
            (olm / "catalogsources" / "cat.yaml").write_text(yaml.safe_dump(catalog_source(ns)))
        else:
            (olm / "clusterserviceversions").mkdir(parents=True)
            operator = csv(ns, "op.v1", phase=phase)
            (olm / "clusterserviceversions" / "op.v1.yaml").write_text(yaml.safe_dump(operator))
        pods = [pod(ns, f"p{i}", labels={"olm.catalogSource": "cat"}) for i in range(3)]
        (folder / "core" / "pods.yaml").write_text(_list("Pod", "v1", pods))
        events = [
            cluster_event(ns, f"e{i}", kind="Pod", obj_name=f"p{i % 3}", reason="BackOff")
            for i in range(6)
        ]
        events.append(
            cluster_event(ns, "csv", kind="ClusterServiceVersion", obj_name="op.v1", reason="R")
        )
        # about a pod of another namespace: not this namespace's to leave out
        away = cluster_event(ns, "away", kind="Pod", obj_name="p0", reason="X")
        away["involvedObject"]["namespace"] = "catalogs"
        events.append(away)
        (folder / "core" / "events.yaml").write_text(_list("Event", "v1", events))
    return root / "must-gather"


def test_the_pods_of_a_namespace_no_evidence_rule_reads_are_not_read(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Its pods are not read and its Events about them are left out, on the fast path (not
    built) as in the full parse and in the pool; its CSV's Events are kept; a catalog's
    namespace and one whose CSV installs are read whole."""
    from olmtui.sources.snapshots import parallel_load

    path = scoped_must_gather(tmp_path)
    fast_store, fast = loaded(path, fast=True)
    full_store, full = loaded(path, fast=False)
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 1)
    pool_store, pool = loaded(path, fast=True, workers=2)
    assert cached(fast_store) == cached(full_store) == cached(pool_store)
    assert fast == full == pool
    assert {p["metadata"]["namespace"] for p in fast_store.list(POD)} == {"catalogs", "installing"}
    kept = {(e["metadata"]["namespace"], e["metadata"]["name"]) for e in fast_store.list(EVENT)}
    assert ("quiet", "csv") in kept and ("quiet", "away") in kept
    assert not [name for ns, name in kept if ns == "quiet" and name.startswith("e")]
    assert {name for ns, name in kept if ns == "installing"} == {f"e{i}" for i in range(6)} | {
        "csv",
        "away",
    }


def test_pod_events_are_left_out_unbuilt_on_the_fast_path(tmp_path: Path, monkeypatch: Any) -> None:
    """The quiet namespace's six Events about its pods are never built (``event_item``)."""
    from olmtui.sources.snapshots import evidence_lists

    built: list[bytes] = []
    real = evidence_lists.event_item

    def spy(text: bytes) -> Any:
        built.append(text)
        return real(text)

    monkeypatch.setattr(evidence_lists, "event_item", spy)
    loaded(scoped_must_gather(tmp_path), fast=True)
    assert len(built) == 3 * 8 - 6
