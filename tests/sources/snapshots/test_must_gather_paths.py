"""A must-gather's files of kinds olmtui does not keep (``core/pods.yaml``,
``core/events.yaml``, ``batch/jobs.yaml``...) are known by their path and never read
(``must_gather_paths``): they cost nothing, and the load is the one without them."""

from __future__ import annotations

import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
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
    """Deployments and Services are kept (read); Pods are not, until a reader keeps them:
    then their files are read, with nothing else to change."""
    assert unread_kind(tree("namespaces/ns/core/pods.yaml")) == "Pod"
    assert unread_kind(tree("namespaces/ns/apps/deployments.yaml")) is None
    assert unread_kind(tree("namespaces/ns/core/services.yaml")) is None
    monkeypatch.setitem(snapshot_objects.KIND_GROUPS, "Pod", "")
    assert unread_kind(tree("namespaces/ns/core/pods.yaml")) is None


@pytest.fixture(scope="module")
def gathered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same must-gather without and with Pods, Events and Jobs."""
    bare = tmp_path_factory.mktemp("bare")
    generate(bare, SIZES, layout="must-gather")
    full = tmp_path_factory.mktemp("full")
    generate(full, SIZES, layout="must-gather", extras=Extras(pods=12, events=30, jobs=3))
    return bare, full


def loaded(path: Path) -> tuple[dict[str, Any], Any]:
    store = Store()
    result = load_snapshot([path], store, workers=1)
    return {kind: list(store.slots(kind)) for kind in KINDS}, result


def test_pods_events_and_jobs_files_are_not_opened_and_change_nothing_loaded(
    gathered: tuple[Path, Path],
) -> None:
    """Broken YAML in them says nothing (they are not read); the store and the findings are
    those of the must-gather without them; they are counted by kind."""
    bare, full = gathered
    broken = next(full.rglob("core/events.yaml"))
    text = broken.read_text()
    broken.write_text("metadata: {\n  broken: [")
    try:
        bare_objects, bare_result = loaded(bare)
        objects, result = loaded(full)
    finally:
        broken.write_text(text)
    namespaces = len(list(full.rglob("core/pods.yaml")))
    assert namespaces == 6
    assert objects == bare_objects
    assert result.findings == bare_result.findings
    assert result.ignored_kinds == {}
    assert result.unread_kinds == {"Pod": namespaces, "Event": namespaces, "Job": namespaces}
    listed = [f.name for f in path_content(full, "mg").files]
    assert not [name for name in listed if name.endswith(("pods.yaml", "events.yaml"))]


def test_an_archive_keeps_no_bytes_of_them(gathered: tuple[Path, Path], tmp_path: Path) -> None:
    _, full = gathered
    archive = tmp_path / "mg.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(full, arcname="must-gather")
    content = path_content(archive, str(archive))
    files = list(content.files)
    assert not [f for f in files if f.name.endswith(("pods.yaml", "events.yaml", "jobs.yaml"))]
    assert content.unread == {"Pod": 6, "Event": 6, "Job": 6}
    objects, result = loaded(archive)
    assert objects == loaded(full)[0]
    assert result.unread_kinds == {"Pod": 6, "Event": 6, "Job": 6}


def test_a_must_gather_of_only_pods_and_events_says_no_olm_objects(tmp_path: Path) -> None:
    folder = tmp_path / "namespaces/ns/core"
    folder.mkdir(parents=True)
    (folder / "pods.yaml").write_text("apiVersion: v1\nkind: PodList\nitems: []\n")
    (folder / "events.yaml").write_text("apiVersion: v1\nkind: EventList\nitems: []\n")
    with pytest.raises(UsageError, match=r"no OLM objects \(only Event, Pod\)"):
        load_snapshot([tmp_path], Store())
