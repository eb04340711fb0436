"""How complete a session's input is (R-SRC-1): a live sync not finished withholds what
rests on the absence of the kinds still listing, on the screens and in the report."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from model_builders import namespace, operator_group
from snapshot_files import yaml_documents

from olmtui.pipeline.build import live_partial, snapshot_session
from olmtui.pipeline.input_state import scope_reasons, snapshot_partial, syncing_partial
from olmtui.sources.cluster.live_status import LiveStatus
from olmtui.sources.snapshots.must_gather_paths import kind_of_file
from olmtui.store import Unreadable


def _drifting(tmp_path: Path) -> Path:
    """Namespace ``a`` carries the label of a group that is not read: NamespaceLabelDrift."""
    path = tmp_path / "cluster.yaml"
    objs = [
        namespace("a", {"olm.operatorgroup.uid/gone": ""}),
        namespace("n"),
        operator_group("n", "g", targets=["n"], status=["n"]),
    ]
    path.write_text(yaml_documents(objs))
    return path


def test_a_sync_in_progress_withholds_absence_findings_on_screens_and_in_the_report(
    tmp_path: Path,
):
    session = snapshot_session([str(_drifting(tmp_path))])
    analysis = session.analysis
    assert "NamespaceLabelDrift" in {f.code for f in analysis.all_findings()}
    session.partial = lambda: syncing_partial(["OperatorGroup", "Namespace"])
    shown = {f.code for f in analysis.all_findings()}
    assert "NamespaceLabelDrift" not in shown and "InputIncomplete" in shown
    assert sum(analysis.severity_counts().values()) == len(analysis.all_findings())
    report = analysis.report()
    assert "NamespaceLabelDrift" not in {f["code"] for f in report["findings"]}
    assert report["source"]["complete"] is False
    assert report["source"]["incompleteBecause"] == [
        "live sync not finished (Namespace, OperatorGroup)"
    ]
    session.partial = lambda: syncing_partial([])  # the sync finished
    assert "NamespaceLabelDrift" in {f.code for f in analysis.all_findings()}


def test_a_live_session_is_partial_until_every_stream_listed():
    status = LiveStatus()
    source = SimpleNamespace(status=status)
    assert live_partial(source).kinds is None  # nothing listed yet: any kind
    status.stream("OperatorGroup").state = "live"
    status.stream("ClusterServiceVersion (copies)")  # syncing
    partial = live_partial(source)
    assert partial.kinds == frozenset({"ClusterServiceVersion"})
    assert partial.reasons == ("live sync not finished (ClusterServiceVersion)",)
    status.stream("ClusterServiceVersion (copies)").state = "no access"  # settled
    assert not live_partial(source).partial


def test_the_kind_of_a_skipped_file_comes_from_its_must_gather_path():
    base = "mg/quay-io-x/namespaces/team-a/operators.coreos.com"
    assert kind_of_file(f"{base}/operatorgroups/og.yaml") == "OperatorGroup"
    assert kind_of_file(f"{base}/clusterserviceversions/x.yaml") == "ClusterServiceVersion"
    assert kind_of_file("mg/namespaces/team-a/core/services.yaml") == "Service"
    assert kind_of_file("mg/cluster-scoped-resources/core/namespaces/a.yaml") == "Namespace"
    assert kind_of_file("mg/namespaces/team-a/team-a.yaml") is None
    assert kind_of_file("mg/namespaces/team-a/core/events.yaml") == "Event"
    assert kind_of_file("mg/namespaces/team-a/pods/p-1/p-1.yaml") == "Pod"
    assert kind_of_file("cluster.yaml") is None
    told = snapshot_partial(False, 2, [f"{base}/operatorgroups/og.yaml"], kind_of_file)
    assert told.kinds == frozenset({"OperatorGroup"})
    unknown = snapshot_partial(False, 1, ["cluster.yaml"], kind_of_file)
    assert unknown.kinds is None
    assert unknown.reasons == ("1 unreadable document(s) skipped in 1 file(s)",)


def test_scope_and_access_are_reasons_too():
    unreadable = {"Subscription": Unreadable("subscriptions", "forbidden", 0.0)}
    assert scope_reasons(frozenset({"b", "a"}), unreadable) == [
        "--namespace scope: only a, b read",
        "kinds not readable (403): subscriptions",
    ]
