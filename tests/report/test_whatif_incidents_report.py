"""``whatif``'s incidents: an incident record written as ``check`` writes ``incidents[]``,
and one line per incident in the text (root, severity, how many findings follow)."""

from __future__ import annotations

from importlib.resources import files

from olmtui.model.records.diagnosis import Incident
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.report.diagnosis_json import incident_json, incident_record_json
from olmtui.report.whatif_report import incident_line

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))


def test_an_incident_record_is_written_as_checks_incidents_entry() -> None:
    diagnosis = snapshot_session([SAMPLE], []).analysis.diagnosis()
    roots = list(diagnosis.roots())
    assert any(diagnosis.consequences(r) for r in roots)  # the sample folds some findings
    for root in roots:
        assert incident_record_json(diagnosis.incident(root)) == incident_json(diagnosis, root)


def test_an_incident_line_names_its_root_severity_and_consequences() -> None:
    catalog = Incident(
        id="CatalogSourceNotReady:CatalogSource/openshift-marketplace/certified",
        severity="error",
        root=("CatalogSourceNotReady", "CatalogSource", "openshift-marketplace", "certified"),
        consequences=(("CatalogSourcesUnhealthy", "Subscription", "team", "etcd"),) * 2,
        affected=(ObjectRef("CatalogSource", "openshift-marketplace", "certified"),),
        summary="catalog down",
    )
    assert incident_line(catalog) == (
        "error CatalogSourceNotReady CatalogSource openshift-marketplace/certified (2 consequences)"
    )
    cluster = Incident(
        id="X:ClusterExtension/ce",
        severity="warning",
        root=("X", "ClusterExtension", "", "ce"),
        consequences=(("Y", "ClusterCatalog", "", "cc"),),
        affected=(),
        summary="x",
    )
    assert incident_line(cluster) == "warning X ClusterExtension ce (1 consequence)"
