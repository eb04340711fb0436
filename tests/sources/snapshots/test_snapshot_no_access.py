"""R-SRC-3: ``olmtui snapshot`` of a cluster where a kind is forbidden says so on
stderr and records it in the snapshot (a SnapshotAccess document), so that ``check`` of the
saved file says "no access: subscriptions", never "0 Subscriptions" (R-SRC-3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from conftest import redrawn
from live_support import must_gather_objects

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.cli import main
from olmtui.pipeline.build import snapshot_session
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.sources.snapshots.snapshot_access import FILE_NAME, KIND
from olmtui.store import Store
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.overview import metrics_text
from olmtui.ui.widgets.virtual_table import VirtualTable


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Path]:
    """The Azure must-gather on a loopback server that forbids subscriptions."""
    server = LoopbackAPIServer()
    server.forbid("subscriptions")
    handle = run_in_thread(server)
    handle.load(must_gather_objects(), skip_unknown=True)
    try:
        yield handle.write_kubeconfig(tmp_path / "kubeconfig")
    finally:
        handle.stop()


def check(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["check", *args])
    return capsys.readouterr().out


@pytest.mark.parametrize("target", ["snapshot.yaml", "snapshot-dir"])
def test_a_forbidden_kind_travels_in_the_snapshot_as_no_access(
    cluster: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    live = json.loads(check(capsys, "--live", "--kubeconfig", str(cluster), "--output", "json"))
    out = tmp_path / target
    assert main(["snapshot", "-o", str(out), "--kubeconfig", str(cluster)]) == 0
    err = capsys.readouterr().err
    assert "no access to subscriptions" in err and "not saved" in err

    saved = json.loads(check(capsys, str(out), "--output", "json"))
    no_access = [f for f in saved["findings"] if f["code"] == "LiveNoAccess"]
    assert [(f["kind"], f["name"]) for f in no_access] == [("Subscription", "subscriptions")]
    assert saved["summary"]["metrics"]["subscription_count"] is None
    live.pop("source")
    saved.pop("source")
    assert saved == live, "the snapshot reads back as the live check saw the cluster"

    text = check(capsys, str(out))
    assert "Subscriptions (no access)" in text and "0 Subscriptions" not in text
    assert "no access to subscriptions" in check(capsys, str(out), "--output", "markdown")


def test_the_access_document_is_plain_yaml_in_its_own_file(cluster: Path, tmp_path: Path) -> None:
    out = tmp_path / "dir"
    assert main(["snapshot", "-o", str(out), "--kubeconfig", str(cluster)]) == 0
    (document,) = yaml.safe_load_all((out / FILE_NAME).read_text())
    assert document["apiVersion"] == "olmtui.dev/v1" and document["kind"] == KIND
    assert [(r["kind"], r["resource"]) for r in document["refused"]] == [
        ("Subscription", "subscriptions")
    ]
    assert not (out / "subscriptions.yaml").exists()


def test_a_snapshot_without_refusals_has_no_access_document(tmp_path: Path) -> None:
    handle = run_in_thread(LoopbackAPIServer())
    handle.load(must_gather_objects(), skip_unknown=True)
    out = tmp_path / "dir"
    out.mkdir()
    (out / FILE_NAME).write_text("stale: from an earlier snapshot\n")
    try:
        kubeconfig = handle.write_kubeconfig(tmp_path / "kubeconfig")
        assert main(["snapshot", "-o", str(out), "--kubeconfig", str(kubeconfig)]) == 0
    finally:
        handle.stop()
    assert not (out / FILE_NAME).exists()
    store = Store()
    load_snapshot([out], store)
    assert not store.unreadable and store.count("Subscription") == 2


def test_a_broken_refused_entry_is_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\n"
        "metadata: {name: og, namespace: ns}\n---\n"
        f"apiVersion: olmtui.dev/v1\nkind: {KIND}\nmetadata: {{name: olmtui-snapshot}}\n"
        "refused:\n- {kind: InstallPlan, resource: installplans, namespaces: [b, a]}\n"
        "- {kind: NoSuchKind}\n- 7\n"
    )
    store = Store()
    result = load_snapshot([path], store)
    assert store.unreadable["InstallPlan"].scope == "installplans in a, b"
    skipped = [f for f in result.findings if f.code == "InvalidObject"]
    assert len(skipped) == 2 and all(f.name == str(path) for f in skipped), skipped


async def test_the_dashboard_on_such_a_snapshot_says_no_access(tmp_path: Path) -> None:
    """Replay: the Subscriptions view of the saved snapshot says "no access", not "no
    Subscriptions", and the Overview counts them as unknown, not 0."""
    path = tmp_path / "s.yaml"
    path.write_text(
        "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\n"
        "metadata: {name: og, namespace: ns}\n---\n"
        f"apiVersion: olmtui.dev/v1\nkind: {KIND}\nmetadata: {{name: olmtui-snapshot}}\n"
        "refused:\n- {kind: Subscription, resource: subscriptions, reason: 403 Forbidden}\n"
    )
    app = OlmApp(snapshot_session([str(path)], [], label="test"), initial_view="sub")
    async with app.run_test(size=(200, 40)) as pilot:
        await redrawn(pilot)
        table = app.screen.query_one("#table", VirtualTable)
        assert table.row_count == 0
        assert table.empty_text.startswith("no access to subscriptions (RBAC)")
    assert "? subscriptions" in metrics_text(app.session).plain.lower()
