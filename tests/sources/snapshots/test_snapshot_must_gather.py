"""The four real must-gathers in tests/data load with the counts their SOURCES.md table gives."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.errors import UsageError
from olmtui.sources.snapshots.snapshot import INFERRED_ANNOTATION, load_snapshot
from olmtui.store import Store, is_copied_csv

MUST_GATHERS = DATA / "must-gather/must-gather-clean"

# From tests/data/must-gather/SOURCES.md: CSV (copies included), copied
# CSV, Sub, IP, OG, CatSrc, OpCond, Operator (v1, a kind olmtui ignores), Namespace objects.
TABLE = {
    "aws": (1, 0, 0, 0, 3, 4, 1, 0, 56),
    "azure": (131, 128, 2, 2, 4, 6, 3, 2, 56),
    "metal": (135, 132, 2, 2, 4, 6, 3, 2, 58),
    "vsphere": (131, 128, 2, 2, 4, 6, 3, 2, 56),
}


def present_namespaces(store: Store) -> int:
    """Namespace objects that came from the dump, not synthesized ones."""
    return sum(
        1
        for ns in store.list("Namespace")
        if INFERRED_ANNOTATION not in (ns["metadata"].get("annotations") or {})
    )


@pytest.mark.parametrize("dump", sorted(TABLE))
def test_real_must_gather_counts_match_sources_table(dump: str) -> None:
    csv, copied, sub, ip, og, catsrc, opcond, operator, namespaces = TABLE[dump]
    store = Store()
    result = load_snapshot([MUST_GATHERS / f"must-gather-{dump}"], store)
    assert store.count("ClusterServiceVersion") == csv
    assert sum(map(is_copied_csv, store.list("ClusterServiceVersion"))) == copied
    assert store.count("Subscription") == sub
    assert store.count("InstallPlan") == ip
    assert store.count("OperatorGroup") == og
    assert store.count("CatalogSource") == catsrc
    assert store.count("OperatorCondition") == opcond
    assert result.ignored_kinds == ({"Operator": operator} if operator else {})
    assert present_namespaces(store) == namespaces
    assert result.objects == csv + sub + ip + og + catsrc + opcond + namespaces
    assert result.skipped == 0
    assert "openshift-operators" in result.inferred_namespaces
    assert store.count("Namespace") == namespaces + len(result.inferred_namespaces)
    assert [f.code for f in result.findings] == ["NamespacesInferred"]


def test_real_must_gather_inferred_namespaces_are_those_holding_objects_only() -> None:
    store = Store()
    result = load_snapshot([MUST_GATHERS / "must-gather-azure"], store)
    # every namespace holding a copy exists on the cluster; the dump lacks these objects
    assert result.inferred_namespaces == [
        "cfe-test-namespace",
        "kube-node-lease",
        "kube-public",
        "openshift-console-user-settings",
        "openshift-infra",
        "openshift-kubevirt-infra",
        "openshift-must-gather-xxl29",
        "openshift-node",
        "openshift-operators",
    ]


def test_real_must_gather_tar_xz_as_originally_shipped(tmp_path: Path) -> None:
    archive = tmp_path / "must-gather-aws.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(MUST_GATHERS / "must-gather-aws", arcname="must-gather-aws")
    from_dir, from_tar = Store(), Store()
    dir_result = load_snapshot([MUST_GATHERS / "must-gather-aws"], from_dir)
    tar_result = load_snapshot([archive], from_tar)
    assert tar_result.objects == dir_result.objects == 65
    assert tar_result.inferred_namespaces == dir_result.inferred_namespaces
    for kind in ("ClusterServiceVersion", "OperatorGroup", "Namespace", "CatalogSource"):
        assert dict(from_tar.items(kind)) == dict(from_dir.items(kind))


def test_the_dumps_common_parent_is_four_clusters_refused_by_name() -> None:
    """Read together they made one cluster that never existed (CSVs of three clusters)."""
    with pytest.raises(UsageError) as raised:
        load_snapshot([MUST_GATHERS], Store())
    dumps = ", ".join(str(MUST_GATHERS / f"must-gather-{d}") for d in sorted(TABLE))
    n = len(TABLE)
    assert str(raised.value) == (
        f"{MUST_GATHERS} holds {n} must-gathers ({dumps}), that is {n} clusters: give one"
    )
