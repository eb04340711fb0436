"""A must-gather's files of kinds olmtui does not keep (``core/configmaps.yaml``,
``core/secrets.yaml``, ``apps/replicasets.yaml``...) are known by their path and never read
(``must_gather_paths``): they cost nothing, and the load is the one without them. Pods,
Events and Jobs are kept (R-EVD-1): their files are read."""

from __future__ import annotations

import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from data_paths import ROOT

from olmtui.errors import UsageError
from olmtui.sources.snapshots import snapshot_objects
from olmtui.sources.snapshots.must_gather_paths import kind_by_path, unread_kind
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.sources.snapshots.snapshot_files import path_content
from olmtui.store import KINDS, Store

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Extras, Sizes, generate

SIZES = Sizes(namespaces=6, global_operators=2, single_operators=3, subscriptions=4)


def tree(path: str) -> tuple[str, ...]:
    return tuple(path.split("/"))


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("namespaces/ns/core/pods.yaml", "Pod"),
        ("namespaces/ns/core/events.yaml", "Event"),
        ("namespaces/ns/batch/jobs.yaml", "Job"),
        ("namespaces/ns/core/configmaps.yaml", "ConfigMap"),
        ("namespaces/ns/apps/deployments.yaml", "Deployment"),
        ("namespaces/ns/pods/web-1/web-1.yaml", "Pod"),
        ("namespaces/ns/pods/web-1/other.yaml", None),
        ("namespaces/ns/ns.yaml", None),
        ("namespaces/ns/operators.coreos.com/clusterserviceversions/a.v1.yaml", None),
        ("namespaces/ns/core/pods.yml", None),
        ("cluster-scoped-resources/core/pods.yaml", None),
    ],
)
def test_the_path_says_the_kind_only_where_oc_writes_one_kind(path: str, kind: str | None) -> None:
    assert kind_by_path(tree(path)) == kind


def test_only_kinds_not_kept_are_unread_and_a_kind_kept_is_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pods, Events, Jobs, Deployments and Services are kept (read); ConfigMaps are not,
    until a reader keeps them: then their files are read, with nothing else to change."""
    assert unread_kind(tree("namespaces/ns/core/configmaps.yaml")) == "ConfigMap"
    for kept in ("core/pods.yaml", "core/events.yaml", "batch/jobs.yaml", "apps/deployments.yaml"):
        assert unread_kind(tree(f"namespaces/ns/{kept}")) is None
    monkeypatch.setitem(snapshot_objects.KIND_GROUPS, "ConfigMap", "")
    assert unread_kind(tree("namespaces/ns/core/configmaps.yaml")) is None


@pytest.fixture(scope="module")
def gathered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same must-gather without and with Pods, Events and Jobs, the second with a broken
    ConfigMap List in every namespace."""
    bare = tmp_path_factory.mktemp("bare")
    generate(bare, SIZES, layout="must-gather")
    full = tmp_path_factory.mktemp("full")
    generate(full, SIZES, layout="must-gather", extras=Extras(pods=12, events=30, jobs=3))
    for pods in full.rglob("core/pods.yaml"):
        (pods.parent / "configmaps.yaml").write_text("metadata: {\n  broken: [")
    return bare, full


#: A namespace's CatalogSources in a must-gather.
CATALOGS = "operators.coreos.com/catalogsources"


def loaded(path: Path) -> tuple[dict[str, Any], Any]:
    store = Store()
    result = load_snapshot([path], store, workers=1)
    return {kind: list(store.slots(kind)) for kind in KINDS}, result


def test_configmap_files_are_not_opened_and_pods_events_jobs_are_read(
    gathered: tuple[Path, Path],
) -> None:
    """Broken YAML in an unread file says nothing; the OLM objects are those of the
    must-gather without the extra files; the unread files are counted by kind."""
    bare, full = gathered
    bare_objects, _ = loaded(bare)
    objects, result = loaded(full)
    namespaces = len(list(full.rglob("core/pods.yaml")))
    assert namespaces == 6
    evidence = {"Pod", "Event", "Job"}
    assert {k: v for k, v in objects.items() if k not in evidence} == {
        k: v for k, v in bare_objects.items() if k not in evidence
    }
    # R-EVD-1: the pods of the namespaces the evidence rules read (here the catalogs'), all
    # of them, and no pod of the others
    read = [p for p in full.rglob("core/pods.yaml") if (p.parent.parent / CATALOGS).is_dir()]
    listed = sum(len(yaml.safe_load(p.read_text())["items"]) for p in read)
    assert len(objects["Pod"]) == listed > 0 and len(objects["Job"]) == 3
    assert not [f for f in result.findings if "configmaps.yaml" in f.message]
    assert result.unread_kinds == {"ConfigMap": namespaces}
    listed = [f.name for f in path_content(full, "mg").files]
    assert not [name for name in listed if name.endswith("configmaps.yaml")]
    assert [name for name in listed if name.endswith("pods.yaml")]


def test_an_archive_keeps_no_bytes_of_them(gathered: tuple[Path, Path], tmp_path: Path) -> None:
    _, full = gathered
    archive = tmp_path / "mg.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(full, arcname="must-gather")
    content = path_content(archive, str(archive))
    files = list(content.files)
    assert not [f for f in files if f.name.endswith("configmaps.yaml")]
    assert content.unread == {"ConfigMap": 6}
    objects, result = loaded(archive)
    assert objects == loaded(full)[0]
    assert result.unread_kinds == {"ConfigMap": 6}


def test_a_must_gather_of_only_configmaps_and_secrets_says_no_olm_objects(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "namespaces/ns/core"
    folder.mkdir(parents=True)
    (folder / "configmaps.yaml").write_text("apiVersion: v1\nkind: ConfigMapList\nitems: []\n")
    (folder / "secrets.yaml").write_text("apiVersion: v1\nkind: SecretList\nitems: []\n")
    with pytest.raises(UsageError, match=r"no OLM objects \(only ConfigMap, Secret\)"):
        load_snapshot([tmp_path], Store())
