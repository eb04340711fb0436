"""``olmtui check --output markdown``: the pending upgrades are "none" only when catalog
content says so; without it, they are unknown and the note says how to give it."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from data_paths import DATA

from olmtui.cli import main

ETCD = DATA / "catalogs" / "community-operators-prod" / "operators" / "etcd"

# A Subscription at the head of its channel (etcdoperator.v0.9.4-clusterwide).
AT_HEAD = """\
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {namespace: db, name: etcd}
spec: {name: etcd, channel: clusterwide-alpha, source: community, sourceNamespace: olm}
status:
  installedCSV: etcdoperator.v0.9.4-clusterwide
  currentCSV: etcdoperator.v0.9.4-clusterwide
  state: AtLatestKnown
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {namespace: db, name: etcdoperator.v0.9.4-clusterwide}
spec: {version: 0.9.4-clusterwide, replaces: etcdoperator.v0.9.2-clusterwide}
"""


def pending_section(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", *argv, "--output", "markdown"])
    return out.getvalue().split("## Pending upgrades\n", 1)[1]


def test_without_catalog_content_pending_upgrades_are_unknown_not_none(tmp_path: Path) -> None:
    snapshot = tmp_path / "state.yaml"
    snapshot.write_text(AT_HEAD)
    section = pending_section(str(snapshot))
    assert "No Subscription has a next bundle" not in section
    assert "Pending upgrades are unknown" in section
    assert "1 installed Subscription" in section
    assert "`--catalog`" in section


def test_with_catalog_content_none_is_said(tmp_path: Path) -> None:
    snapshot = tmp_path / "state.yaml"
    snapshot.write_text(AT_HEAD)
    section = pending_section(str(snapshot), "--catalog", f"olm/community={ETCD}")
    assert "No Subscription has a next bundle other than its installed CSV." in section
    assert "unknown" not in section
