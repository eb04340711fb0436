"""``olmtui graph``: the command line over real catalogs, snapshots and PackageManifests."""

from __future__ import annotations

from pathlib import Path

import pytest
from data_paths import DATA

from olmtui.cli import main

ETCD = DATA / "catalogs" / "community-operators-prod" / "operators" / "etcd"
MOCK_MANIFESTS = (
    DATA
    / "cluster"
    / "openshift-console"
    / "frontend"
    / "packages"
    / "operator-lifecycle-manager"
    / "mocks.packagemanifests.yaml"
)

SNAPSHOT = """\
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {namespace: db, name: etcd}
spec: {name: etcd, channel: clusterwide-alpha, source: community, sourceNamespace: olm}
status: {installedCSV: etcdoperator.v0.9.2-clusterwide, currentCSV: etcdoperator.v0.9.2-clusterwide}
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {namespace: db, name: etcdoperator.v0.9.2-clusterwide}
spec: {version: 0.9.2-clusterwide, replaces: etcdoperator.v0.9.0}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["graph", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_graph_defaults_to_the_packages_default_channel_as_mermaid(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "etcd", "--catalog", str(ETCD))
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == [
        "flowchart BT",
        "  %% package etcd, channel singlenamespace-alpha",
    ]
    assert '  n0["0.9.4<br/>etcdoperator.v0.9.4"]' in out
    assert "  n1 -->|replaced by| n0" in out and "  n2 -->|replaced by| n1" in out
    assert out.rstrip().endswith("class n0 head")


def test_graph_marks_the_installed_csv_of_the_snapshots_subscription(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text(SNAPSHOT)
    code, out, _ = run(
        capsys, "etcd", str(snapshot), "--catalog", f"olm/community={ETCD}", "--format", "text"
    )
    assert code == 0
    assert out.splitlines() == [
        "package etcd, channel clusterwide-alpha, head etcdoperator.v0.9.4-clusterwide",
        "etcdoperator.v0.9.4-clusterwide  0.9.4-clusterwide [head]  "
        "<- replaces etcdoperator.v0.9.2-clusterwide",
        "etcdoperator.v0.9.2-clusterwide  0.9.2-clusterwide [installed]  "
        "<- replaces etcdoperator.v0.9.0",
        "etcdoperator.v0.9.0              0.9.0",
    ]
    code, out, _ = run(
        capsys, "etcd", str(snapshot), "--catalog", str(ETCD), "--channel", "singlenamespace-alpha"
    )
    # Another channel: the installed CSV is drawn apart, and no entry there admits it.
    assert code == 0
    assert (
        '  n3["0.9.2-clusterwide<br/>etcdoperator.v0.9.2-clusterwide<br/>installed, not in '
        'this channel"]'
    ) in out
    assert "  class n3 installed" in out and " n3 -" not in out


def test_graph_from_packagemanifests_says_what_is_unknown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "etcd", str(MOCK_MANIFESTS), "--format", "text")
    assert code == 0
    assert out.splitlines()[0] == "package etcd, channel alpha, head etcdoperator.v0.9.2"
    assert out.splitlines()[1].startswith("note: from a PackageManifest")


@pytest.mark.parametrize("output_format", ["text", "mermaid"])
def test_graph_prints_control_characters_in_catalog_names_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(
        "schema: olm.package\nname: evil\ndefaultChannel: stable\n---\n"
        "schema: olm.channel\npackage: evil\nname: stable\n"
        'entries:\n- name: "evil.v2\\e[2J"\n  replaces: evil.v1\n- name: evil.v1\n'
    )
    code, out, _ = run(capsys, "evil", "--catalog", str(catalog), "--format", output_format)
    assert code == 0
    assert "\x1b" not in out
    assert "evil.v2\\x1b[2J" in out
    assert out.endswith("\n") and not out.endswith("\n\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["nope", "--catalog", str(ETCD)],
            "olmtui: package nope is not in the catalog content given (packages: etcd)\n",
        ),
        (
            ["etcd", "--catalog", str(ETCD), "--channel", "beta"],
            "olmtui: package etcd has no channel beta (channels: alpha, clusterwide-alpha, "
            "singlenamespace-alpha)\n",
        ),
        (
            ["etcd"],
            "olmtui: no catalog content: give --catalog PATH, or a snapshot PATH that holds "
            "PackageManifests\n",
        ),
    ],
)
def test_graph_usage_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", message)


TWO_CHAINS = """\
schema: olm.package
name: p
defaultChannel: stable
---
schema: olm.channel
package: p
name: stable
entries:
- {name: p.v3, replaces: p.v2}
- {name: p.v1}
"""


@pytest.mark.parametrize("output_format", ["mermaid", "text"])
def test_graph_of_a_channel_with_errors_exits_1_and_shows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(TWO_CHAINS)
    code, out, err = run(capsys, "p", "--catalog", str(catalog), "--format", output_format)
    assert (code, err) == (1, "")
    if output_format == "mermaid":
        assert "  %% error: multiple channel heads found in graph: p.v1, p.v3" in out
        assert out.endswith("  class nohead nohead\n  class n0,n1 competing\n")
    else:
        assert "error: multiple channel heads found in graph: p.v1, p.v3" in out
        assert "p.v3  - [competing head]  <- replaces p.v2 (not in channel)" in out


def test_graph_of_a_clean_channel_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog.yaml"
    catalog.write_text(TWO_CHAINS.replace("{name: p.v1}", "{name: p.v2, replaces: p.v1}"))
    code, out, err = run(capsys, "p", "--catalog", str(catalog))
    assert (code, err) == (0, "")
    assert "  n1 -->|replaced by| n0" in out and "%% error" not in out
