"""R-EVD-7: a Subscription whose installedCSV is a copy of its own namespace
(operator-lifecycle-manager#3866: OLM accepts it and deploys nothing)."""

from __future__ import annotations

from model_builders import copy_of, csv, subscription

from olmtui.model.rules.evidence.copied_installed import copied_installed_findings, csv_lookup

ORIGINAL = csv("openshift-operators", "etcd.v1")


def test_a_subscription_on_a_copy_is_a_warning_naming_where_the_operator_runs() -> None:
    sub = subscription("team-b", "etcd", package="etcd", installed="etcd.v1")
    (found,) = copied_installed_findings([sub], csv_lookup([ORIGINAL, copy_of(ORIGINAL, "team-b")]))
    assert (found.code, found.severity, found.rule) == ("InstalledCSVIsCopy", "warning", "R-EVD-7")
    assert "copy from namespace openshift-operators" in found.message
    assert {(r.namespace, r.name) for r in found.related} == {
        ("team-b", "etcd.v1"),
        ("openshift-operators", "etcd.v1"),
    }
    assert ("metadata.labels[olm.copiedFrom]", "openshift-operators") in {
        (e.field, e.value) for e in found.evidence
    }


def test_no_finding_on_an_original_a_missing_csv_or_another_namespace() -> None:
    lookup = csv_lookup([ORIGINAL, copy_of(ORIGINAL, "team-b")])
    own = subscription("openshift-operators", "etcd", package="etcd", installed="etcd.v1")
    missing = subscription("team-c", "etcd", package="etcd", installed="etcd.v1")
    none = subscription("team-b", "etcd", package="etcd")
    assert copied_installed_findings([own, missing, none], lookup) == []
