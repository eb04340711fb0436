"""R-EVD-4 and R-EVD-5: CRDs OLM installed that no CSV owns, and stored versions no longer
served; no finding where the input does not show it (unknown is not absent)."""

from __future__ import annotations

from typing import Any

import pytest
from model_builders import copy_of, crd, csv

from olmtui.model.incremental.health import merged_findings
from olmtui.model.rules.evidence.crd_owners import crd_findings, olm_label
from olmtui.store import trim

LABEL = {"operators.coreos.com/etcd.team-a": ""}
NAME = "etcdclusters.etcd.io"
BOTH = [{"name": "v1beta1", "served": False}, {"name": "v1", "served": True, "storage": True}]


def owner(version: str = "v1", ns: str = "team-a") -> dict[str, Any]:
    return csv(ns, "etcd.v1", owned=(("EtcdCluster", version, NAME),))


def codes(crds: list[dict[str, Any]], csvs: list[dict[str, Any]]) -> list[str]:
    return [f.code for f in crd_findings(crds, csvs)]


@pytest.mark.parametrize(
    ("crds", "csvs", "expected"),
    [
        ([crd(NAME, labels=LABEL)], [], ["CRDOwnerGone"]),
        ([crd(NAME, labels={"olm.managed": "true"})], [], ["CRDOwnerGone"]),
        ([crd(NAME, labels=LABEL)], [owner()], []),
        ([crd(NAME, labels=LABEL)], [owner(ns="elsewhere")], []),  # any CSV owning it counts
        ([crd(NAME)], [], []),  # not OLM's: a CRD someone applied
        ([crd(NAME, labels={"olm.managed": "false"})], [], []),
        ([crd(NAME, labels={"operators.coreos.com/etcd": ""})], [], []),  # no .<namespace>
        (
            [crd(NAME, labels=LABEL, versions=BOTH, stored=["v1beta1", "v1"])],
            [owner()],
            ["CRDStoredVersionNotServed"],
        ),
        ([crd(NAME, labels=LABEL, versions=BOTH, stored=["v1"])], [owner()], []),
        (
            [crd(NAME, labels=LABEL, versions=BOTH, stored=["v1beta1", "v1"])],
            [owner("v1beta1")],
            [],
        ),
        ([crd(NAME, versions=BOTH, stored=["v1beta1", "v1"])], [], []),  # no owner: not shown
        ([crd(NAME, labels=LABEL, stored=["v1beta1", "v1"])], [owner()], []),  # versions unread
    ],
)
def test_crd_findings_claim_only_what_the_input_shows(
    crds: list[dict[str, Any]], csvs: list[dict[str, Any]], expected: list[str]
) -> None:
    assert codes(crds, csvs) == expected


def test_a_copy_owns_nothing() -> None:
    """R-COPY-1: a copied CSV is not an owner; the CRD of an operator whose original is gone
    and whose copies linger is left all the same."""
    copy = copy_of(owner(ns="ops"), "team-a")
    assert codes([crd(NAME, labels=LABEL)], [copy]) == ["CRDOwnerGone"]


def test_the_finding_says_package_and_namespace_and_rests_on_the_label() -> None:
    (found,) = crd_findings([crd(NAME, labels=LABEL, stored=["v1"])], [])
    assert "for package etcd in namespace team-a" in found.message
    assert found.rule == "R-EVD-4" and found.severity == "info"
    assert [e.field for e in found.evidence] == [
        "metadata.labels[operators.coreos.com/etcd.team-a]",
        "status.storedVersions",
    ]


def test_a_stored_version_finding_names_its_owner_and_the_fields() -> None:
    crds = [crd(NAME, labels=LABEL, versions=BOTH, stored=["v1beta1", "v1"])]
    (found,) = crd_findings(crds, [owner()])
    assert found.related[0].name == "etcd.v1"
    fields = {e.field: e.value for e in found.evidence}
    assert fields["spec.versions[v1beta1].served"] == "false"
    assert fields["status.storedVersions"] == "v1beta1, v1"


def test_olm_label_prefers_the_operator_label() -> None:
    both = crd(NAME, labels={"olm.managed": "true", **LABEL})
    assert olm_label(both) == ("operators.coreos.com/etcd.team-a", "")


def test_the_cache_keeps_no_schema_and_no_ca_bundle() -> None:
    obj = crd(NAME, conversion="Webhook", webhook={"namespace": "ops", "name": "svc"})
    obj["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"] = "Q" * 4096
    obj["spec"]["versions"] = [
        {
            "name": "v1",
            "served": True,
            "storage": True,
            "schema": {"openAPIV3Schema": {"type": "object"}},
            "additionalPrinterColumns": [{"name": "Age", "type": "date"}],
            "subresources": {"status": {}},
        }
    ]
    obj["status"] = {
        "storedVersions": ["v1"],
        "conditions": [{"type": "Established", "status": "True"}],
    }
    kept = trim(obj)
    assert kept["spec"]["versions"] == [{"name": "v1", "served": True, "storage": True}]
    assert kept["spec"]["conversion"]["webhook"]["clientConfig"] == {
        "service": {"namespace": "ops", "name": "svc"}
    }
    assert kept["status"]["storedVersions"] == ["v1"]
    assert kept["status"]["conditions"] == [{"type": "Established", "status": "True"}]


def test_a_namespace_scoped_session_holds_the_left_crd_back() -> None:
    """R-DOC-10: the owner may be a CSV of a namespace not read."""
    left = crd_findings([crd(NAME, labels=LABEL)], [])
    assert [f.code for f in merged_findings(health=left)] == ["CRDOwnerGone"]
    scoped = merged_findings(health=left, read_namespaces=frozenset({"team-a"}))
    assert "CRDOwnerGone" not in {f.code for f in scoped}
