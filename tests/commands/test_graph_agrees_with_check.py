"""``olmtui graph`` and ``olmtui check`` read the same input the same way: for every
Subscription, the channel and head ``check`` reports are those ``graph`` draws, with and
without ``--catalog`` (both build their session through ``pipeline/build.py``).

The input is a real must-gather, the console's PackageManifests and two Subscriptions written
here (the must-gather's own Subscriptions come from catalogs nothing in ``tests/data`` holds):
``amq-streams`` is served only by the PackageManifests, ``etcd`` by both them and the
community catalog's bundle directories.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA

from olmtui.cli import main

MUST_GATHER = DATA / "must-gather" / "must-gather-clean" / "must-gather-azure"
MANIFESTS = (
    DATA
    / "cluster"
    / "openshift-console"
    / "frontend"
    / "packages"
    / "operator-lifecycle-manager"
    / "mocks.packagemanifests.yaml"
)
ETCD = DATA / "catalogs" / "community-operators-prod" / "operators" / "etcd"
SOURCE = "openshift-operator-lifecycle-manager/rh-operators"

SUBSCRIPTIONS = """\
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {namespace: streams, name: amq-streams}
spec:
  name: amq-streams
  channel: preview
  source: rh-operators
  sourceNamespace: openshift-operator-lifecycle-manager
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {namespace: db, name: etcd}
spec:
  name: etcd
  channel: alpha
  source: rh-operators
  sourceNamespace: openshift-operator-lifecycle-manager
"""

CATALOG_ARGS = {
    "no --catalog": [],
    "--catalog bound to the Subscriptions' source": ["--catalog", f"{SOURCE}={ETCD}"],
    "--catalog unbound": ["--catalog", str(ETCD)],
}


def _check(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[dict[str, Any]]:
    main(["check", "--output", "json", *argv])
    report = json.loads(capsys.readouterr().out)
    subscriptions: list[dict[str, Any]] = report["subscriptions"]
    return subscriptions


def _graph(
    capsys: pytest.CaptureFixture[str], package: str, argv: list[str]
) -> tuple[int, str, str]:
    code = main(["graph", package, *argv, "--format", "text"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("catalogs", list(CATALOG_ARGS.values()), ids=list(CATALOG_ARGS))
def test_graph_draws_the_channel_and_head_check_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], catalogs: list[str]
) -> None:
    subscriptions = tmp_path / "subscriptions.yaml"
    subscriptions.write_text(SUBSCRIPTIONS)
    argv = [str(MUST_GATHER), str(MANIFESTS), str(subscriptions), *catalogs]
    reported = _check(capsys, argv)
    assert {s["package"] for s in reported} >= {"amq-streams", "etcd"}
    for sub in reported:
        code, out, err = _graph(capsys, sub["package"], argv)
        head = sub["upgrade"]["head"]
        if head is None:
            # The must-gather's own Subscriptions: no catalog content serves them anywhere.
            assert (code, out) == (2, ""), sub["package"]
            assert "is not in the catalog content given" in err
            continue
        assert (code, err) == (0, ""), sub["package"]
        first = out.splitlines()[0]
        assert first == f"package {sub['package']}, channel {sub['channel']}, head {head}"


def test_catalog_content_does_not_hide_the_snapshots_packagemanifests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The case that disagreed: with ``--catalog``, graph dropped the PackageManifests and
    said ``amq-streams`` was not in the catalog content while check reported its head."""
    subscriptions = tmp_path / "subscriptions.yaml"
    subscriptions.write_text(SUBSCRIPTIONS)
    argv = [str(MUST_GATHER), str(MANIFESTS), str(subscriptions), "--catalog", str(ETCD)]
    (streams,) = [s for s in _check(capsys, argv) if s["package"] == "amq-streams"]
    assert streams["upgrade"]["head"] == "amqstreams.v1.0.0.beta"
    code, out, err = _graph(capsys, "amq-streams", argv)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        "package amq-streams, channel preview, head amqstreams.v1.0.0.beta"
    )
