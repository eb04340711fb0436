"""load_snapshot: every source form reaches the store, bad input becomes findings, and only
an unusable path stops the load."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from data_paths import TESTS

from olmtui.errors import UsageError
from olmtui.sources.snapshots import snapshot
from olmtui.sources.snapshots.snapshot import INFERRED_ANNOTATION, LoadResult, load_snapshot
from olmtui.store import Change, Store

DATA = TESTS / "data" / "snapshots"
MUST_GATHER = DATA / "must-gather-mini"


#: An OLM object to add where a test is about something else: PATHs without one are refused.
OLM_CONFIG = (
    "---\napiVersion: operators.coreos.com/v1\nkind: OLMConfig\nmetadata: {name: cluster}\n"
)


def load(*paths: str | Path) -> tuple[Store, LoadResult]:
    store = Store()
    return store, load_snapshot(list(paths), store)


def keys(store: Store, kind: str) -> list[tuple[str, str]]:
    return sorted((k.namespace, k.name) for k, _ in store.items(kind))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_multi_document_yaml_loaded_and_other_kinds_counted() -> None:
    store, result = load(DATA / "multi.yaml")
    assert keys(store, "Namespace") == [
        ("", "openshift-marketplace"),
        ("", "openshift-operator-lifecycle-manager"),
    ]
    assert result.inferred_namespaces == ["openshift-operator-lifecycle-manager"]
    assert keys(store, "OperatorGroup") == [
        ("openshift-operator-lifecycle-manager", "olm-operators"),
    ]
    assert result.objects == 2
    assert result.ignored_kinds == {"ConfigMap": 1}
    assert result.skipped == 0
    assert result.paths == [str(DATA / "multi.yaml")]


def test_kubectl_list_items_loaded() -> None:
    store, result = load(DATA / "kubectl-list.yaml")
    assert keys(store, "OperatorGroup") == [("openshift-operators", "global-operators")]
    assert keys(store, "Subscription") == [
        ("cfe-test-namespace", "image-caching-operator-v0-0-1-sub"),
    ]
    assert result.objects == 2


def test_typed_list_items_take_kind_and_api_version_from_the_list() -> None:
    store, result = load(DATA / "csv-list.json")
    assert keys(store, "ClusterServiceVersion") == [
        ("kube-system", "image-caching-operator.v0.0.1"),
        ("kube-system", "projectrequestlimits.v0.0.1"),
    ]
    csv = store.get("ClusterServiceVersion", "kube-system", "projectrequestlimits.v0.0.1")
    assert csv is not None
    assert csv["apiVersion"] == "operators.coreos.com/v1alpha1"
    assert result.objects == 2


def test_json_stream_and_json_lines_loaded() -> None:
    store, result = load(DATA / "stream.json", DATA / "catalogsources.json")
    assert keys(store, "Namespace") == [("", "openshift-marketplace"), ("", "openshift-monitoring")]
    assert result.inferred_namespaces == ["openshift-marketplace"]
    assert keys(store, "OperatorGroup") == [
        ("openshift-monitoring", "openshift-cluster-monitoring"),
    ]
    assert keys(store, "CatalogSource") == [
        ("openshift-marketplace", n)
        for n in (
            "certified-operators",
            "community-operators",
            "redhat-marketplace",
            "redhat-operators",
        )
    ]
    assert result.objects == 6


def test_directory_read_recursively() -> None:
    store, result = load(DATA)
    assert store.count("CatalogSource") == 5  # 4 marketplace + 1 from the must-gather
    assert store.count("ClusterServiceVersion") == 3
    assert result.skipped == 0
    # the must-gather's rules.json and pod log are outside its resource trees: never read
    assert not any(f.code == "InvalidObject" for f in result.findings)


def test_must_gather_found_from_parent_folder() -> None:
    store, result = load(MUST_GATHER)
    assert keys(store, "OperatorGroup") == [
        ("cfe-test-namespace", "operator-sdk-og"),
        ("openshift-operators", "global-operators"),
    ]
    assert keys(store, "OperatorCondition") == [
        ("cfe-test-namespace", "image-caching-operator.v0.0.1"),
        ("cfe-test-namespace", "projectrequestlimits.v0.0.1"),
    ]
    assert store.count("ClusterServiceVersion") == 1
    assert store.count("Subscription") == 1
    assert store.count("CatalogSource") == 1
    assert result.ignored_kinds == {"Operator": 1}
    assert result.objects == 8
    assert result.skipped == 0


@pytest.mark.parametrize("suffix, mode", [(".tar", "w"), (".tgz", "w:gz"), (".tar.gz", "w:gz")])
def test_archive_of_must_gather_loads_like_the_tree(tmp_path: Path, suffix: str, mode: str) -> None:
    archive = tmp_path / f"must-gather{suffix}"
    with tarfile.open(archive, mode) as tar:
        tar.add(MUST_GATHER, arcname="must-gather.local.123")
    from_tree, tree_result = load(MUST_GATHER)
    from_tar, tar_result = load(archive)
    for kind in ("Namespace", "OperatorGroup", "ClusterServiceVersion", "OperatorCondition"):
        assert list(from_tar.items(kind)) == list(from_tree.items(kind))
    assert tar_result.objects == tree_result.objects
    assert tar_result.inferred_namespaces == tree_result.inferred_namespaces


def test_archive_of_plain_directory(tmp_path: Path) -> None:
    archive = tmp_path / "snap.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        for name in ("multi.yaml", "csv-list.json"):
            tar.add(DATA / name, arcname=f"snap/{name}")
    store, result = load(archive)
    assert store.count("ClusterServiceVersion") == 2
    assert store.count("OperatorGroup") == 1
    assert result.objects == 4


def test_broken_document_reported_with_file_and_line_rest_loaded(tmp_path: Path) -> None:
    write(
        tmp_path,
        "a.yaml",
        (
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: one}\n"
            "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: [two\n"
            "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: three}\n"
        ),
    )
    write(
        tmp_path, "b.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: four}\n" + OLM_CONFIG
    )
    store, result = load(tmp_path)
    assert keys(store, "Namespace") == [("", "four"), ("", "one"), ("", "three")]
    [finding] = result.findings
    assert (finding.severity, finding.code, finding.kind, finding.namespace, finding.name) == (
        "warning",
        "UnreadableDocument",
        "File",
        "",
        str(tmp_path / "a.yaml"),
    )
    assert "line 4" in finding.message
    assert "line 8, column 1" in finding.message
    assert result.skipped == 1
    assert result.objects == 4


def test_broken_member_inside_archive_named_archive_colon_member(tmp_path: Path) -> None:
    write(tmp_path, "src/ok.yaml", OLM_CONFIG)
    write(tmp_path, "src/bad.yaml", "---\nkind: Namespace\n  name: x\n")
    archive = tmp_path / "snap.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tmp_path / "src", arcname="inner")
    _, result = load(archive)
    [finding] = result.findings
    assert finding.name == f"{archive}:inner/bad.yaml"
    assert "line 1" in finding.message


def test_invalid_objects_skipped_with_line(tmp_path: Path) -> None:
    write(
        tmp_path,
        "x.yaml",
        (
            "apiVersion: v1\nkind: Namespace\nmetadata: {}\n"
            "---\nkind: Namespace\nmetadata: {name: noversion}\n"
            "---\n- a\n- list\n"
            "---\njust a scalar\n"
            "---\napiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n"
            "metadata: {name: c, namespace: n, labels: [x]}\n"
            "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: good}\n"
            "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: x, annotations: {1: one}}\n"
            + OLM_CONFIG
        ),
    )
    store, result = load(tmp_path / "x.yaml")
    assert keys(store, "Namespace") == [("", "good")]
    assert store.count("ClusterServiceVersion") == 0
    assert [f.code for f in result.findings] == ["InvalidObject"] * 6
    lines = [f.message.split("line ")[1].split(" ")[0] for f in result.findings]
    assert lines == ["1", "4", "7", "10", "12", "20"]
    assert "metadata.name" in result.findings[0].message
    assert "apiVersion" in result.findings[1].message
    assert "list" in result.findings[2].message
    assert "metadata.labels" in result.findings[4].message
    assert "metadata.annotations has a key that is not a string" in result.findings[5].message
    assert result.skipped == 6


def test_list_item_without_kind_in_plain_list_is_invalid(tmp_path: Path) -> None:
    write(
        tmp_path,
        "l.json",
        '{"apiVersion": "v1", "kind": "List", "items": ['
        '{"metadata": {"name": "nokind"}},'
        '{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ok"}}]}',
    )
    store, result = load(tmp_path / "l.json", write(tmp_path, "olmconfig.yaml", OLM_CONFIG))
    assert keys(store, "Namespace") == [("", "ok")]
    [finding] = result.findings
    assert finding.code == "InvalidObject"
    assert "item 0 of this List" in finding.message


def test_kept_kind_of_another_api_group_is_ignored(tmp_path: Path) -> None:
    write(
        tmp_path,
        "acm.yaml",
        (
            "apiVersion: apps.open-cluster-management.io/v1\nkind: Subscription\n"
            "metadata: {name: s, namespace: n}\n"
        ),
    )
    write(
        tmp_path,
        "olm.yaml",
        (
            "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\n"
            "metadata: {name: s, namespace: n}\n"
        ),
    )
    store, result = load(tmp_path)
    assert keys(store, "Subscription") == [("n", "s")]
    assert store.get("Subscription", "n", "s")["apiVersion"] == "operators.coreos.com/v1alpha1"
    assert result.ignored_kinds == {"Subscription (apps.open-cluster-management.io/v1)": 1}


def test_namespaces_inferred_once_sorted_without_labels() -> None:
    store, result = load(MUST_GATHER)
    assert result.inferred_namespaces == ["cfe-test-namespace", "openshift-operators"]
    namespace = store.get("Namespace", "", "openshift-operators")
    assert namespace is not None
    assert namespace["metadata"].get("labels") is None
    assert namespace["metadata"]["annotations"] == {INFERRED_ANNOTATION: "true"}
    assert namespace["status"] == {"phase": "Active"}
    assert store.get("Namespace", "", "default") is not None
    assert "olmtui.dev/inferred" not in (
        store.get("Namespace", "", "default")["metadata"].get("annotations") or {}
    )
    [finding] = [f for f in result.findings if f.code == "NamespacesInferred"]
    assert (finding.severity, finding.kind, finding.namespace, finding.name) == (
        "info",
        "Namespace",
        "",
        "",
    )
    assert "cfe-test-namespace, openshift-operators" in finding.message
    assert result.objects == 8  # synthesized namespaces are not counted


def test_no_namespace_inferred_when_all_present() -> None:
    _, result = load(DATA / "stream.json")
    assert result.inferred_namespaces == []
    assert not any(f.code == "NamespacesInferred" for f in result.findings)


def test_namespace_already_in_store_not_inferred() -> None:
    store = Store()
    load_snapshot([DATA / "multi.yaml"], store)
    result = load_snapshot([DATA / "csv-list.json", DATA / "catalogsources.json"], store)
    assert result.inferred_namespaces == ["kube-system"]


def test_store_fed_in_batches_as_a_change_feed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(snapshot, "BATCH_SIZE", 3)
    write(
        tmp_path,
        "many.yaml",
        "".join(
            f"---\napiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n"
            f"metadata: {{name: c{i}, namespace: n}}\n"
            for i in range(7)
        ),
    )
    store = Store()
    batches: list[list[Change]] = []
    store.subscribe(batches.append)
    result = load_snapshot([tmp_path / "many.yaml"], store)
    assert [len(b) for b in batches] == [3, 3, 1, 1]
    assert [c.key.name for c in batches[-1]] == ["n"]  # the inferred namespace comes last
    assert result.objects == 7


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such file or directory"):
        load(DATA / "multi.yaml", tmp_path / "nope.yaml")


def test_empty_directory_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, "readme.txt", "no yaml here\n")
    with pytest.raises(UsageError, match="no YAML or JSON files found"):
        load(tmp_path)


def test_empty_file_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, "empty.yaml", "")
    with pytest.raises(UsageError, match="no Kubernetes objects found"):
        load(tmp_path / "empty.yaml")


def test_binary_file_is_a_usage_error_naming_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "blob.yaml"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(UsageError, match=r"no Kubernetes objects found \(.*blob\.yaml: line 1"):
        load(path)


def test_paths_without_any_olm_object_are_a_usage_error_saying_what_they_hold(
    tmp_path: Path,
) -> None:
    """A report on them would say "all clear" about a cluster olmtui never saw."""
    none = write(tmp_path, "none.yaml", "apiVersion: v1\nkind: List\nitems: []\n")
    with pytest.raises(UsageError) as raised:
        load(none)
    assert str(raised.value).startswith(f"{none}: no OLM objects (nothing); expected ")
    app = write(
        tmp_path,
        "app/all.yaml",
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: app}\n---\n"
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: app}\n",
    )
    with pytest.raises(UsageError) as raised:
        load(app, none)
    assert str(raised.value).startswith(
        f"any of {app}, {none}: no OLM objects (only Deployment, Namespace); expected "
    )


def test_namespaces_with_one_olm_object_are_a_snapshot(tmp_path: Path) -> None:
    write(tmp_path, "ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    write(tmp_path, "olm/config.yaml", OLM_CONFIG)
    store, result = load(tmp_path / "ns.yaml", tmp_path / "olm")
    assert (store.count("Namespace"), store.count("OLMConfig"), result.objects) == (1, 1, 2)
