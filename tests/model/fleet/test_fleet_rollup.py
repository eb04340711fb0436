"""What only a fleet view shows (R-FLT-2..6), over small report dicts: a rule and an incident
on many clusters, package and catalog skew, the clusters blocked for the next minor and their
migration states; none depends on the order the reports come in."""

from __future__ import annotations

from typing import Any

from olmtui.model.fleet.by_rule import by_rule
from olmtui.model.fleet.catalog_skew import catalog_skew
from olmtui.model.fleet.incidents import shared_incidents
from olmtui.model.fleet.inputs import rollup_input
from olmtui.model.fleet.readiness import blocked_for_next_minor, migration, upgrade_blockers
from olmtui.model.fleet.rollup import rollup
from olmtui.model.fleet.skew import skew

#: The kind findings and incidents here refer to (references in a report, not objects).
SUBJECT = "Subscription"


def _finding(rule: str, severity: str, name: str = "sub", code: str = "X") -> dict[str, Any]:
    return {
        "rule": rule,
        "severity": severity,
        "code": code,
        "kind": SUBJECT,
        "namespace": "ops",
        "name": name,
    }


def _incident(code: str, name: str, severity: str) -> dict[str, Any]:
    root = {"code": code, "kind": SUBJECT, "namespace": "ops", "name": name}
    return {"id": f"{code}:{name}", "severity": severity, "root": root, "summary": f"{code} {name}"}


def _installed(
    package: str, version: str | None, channel: str | None = "stable", ns: str = "ops"
) -> dict[str, Any]:
    """A report with one Subscription of ``package``, its CSV at ``version`` (None: nothing
    installed)."""
    name = f"{package}.v{version}"
    sub = {
        "namespace": ns,
        "name": package,
        "package": package,
        "channel": channel,
        "installedCSV": name if version else None,
    }
    csvs = [{"namespace": ns, "name": name, "version": version}] if version else []
    return {"subscriptions": [sub], "csvs": csvs}


def test_a_rule_on_many_clusters_at_its_worst_severity() -> None:
    reports = {
        "b": {"findings": [_finding("R-SUB-5", "warning"), _finding("R-SUB-5", "error", "x")]},
        "a": {"findings": [_finding("R-SUB-5", "info"), _finding("R-OG-6", "error")]},
        "c": {"findings": []},
    }
    assert by_rule(reports) == {
        "R-OG-6": {"severity": "error", "targets": ["a"], "findings": 1},
        "R-SUB-5": {"severity": "error", "targets": ["a", "b"], "findings": 3},
    }


def test_skew_is_several_versions_or_channels_over_several_clusters() -> None:
    reports = {
        "a": _installed("etcd", "0.9.4"),
        "b": _installed("etcd", "0.9.2", "clusterwide"),
        "c": _installed("etcd", None),  # nothing installed: no version, not a version of its own
        "d": _installed("lonely", "1.0.0"),
    }
    assert skew(reports) == [
        {
            "package": "etcd",
            "versions": {"0.9.2": ["b"], "0.9.4": ["a"]},
            "channels": {"clusterwide": ["b"], "stable": ["a", "c"]},
        }
    ]


def test_two_installs_in_one_cluster_are_not_skew() -> None:
    one = _installed("etcd", "0.9.4")
    other = _installed("etcd", "0.9.2", ns="team")
    both = {
        "subscriptions": one["subscriptions"] + other["subscriptions"],
        "csvs": one["csvs"] + other["csvs"],
    }
    assert skew({"a": both, "b": {"subscriptions": [], "csvs": []}}) == []


def test_cluster_extensions_count_with_subscriptions() -> None:
    ext = {"package": "argocd", "channels": ["stable"], "installed": {"version": "2.0.0"}}
    reports = {"v0": _installed("argocd", "1.0.0"), "v1": {"clusterExtensions": [ext]}}
    assert skew(reports)[0]["versions"] == {"1.0.0": ["v0"], "2.0.0": ["v1"]}


def test_catalog_skew_compares_what_the_reports_show() -> None:
    def report(image: str | None, digest: str | None) -> dict[str, Any]:
        return {
            "catalogSources": [{"namespace": "mkt", "name": "redhat", "image": image}],
            "clusterCatalogs": [{"name": "operatorhubio", "resolvedRef": digest}],
        }

    reports = {
        "a": report("idx:v4.16", "q@sha256:1"),
        "b": report("idx:v4.17", "q@sha256:2"),
        "c": report(None, None),  # address only, not unpacked: not compared
    }
    assert catalog_skew(reports) == [
        {
            "kind": "CatalogSource",
            "name": "mkt/redhat",
            "refs": {"idx:v4.16": ["a"], "idx:v4.17": ["b"]},
        },
        {
            "kind": "ClusterCatalog",
            "name": "operatorhubio",
            "refs": {"q@sha256:1": ["a"], "q@sha256:2": ["b"]},
        },
    ]


def test_clusters_blocked_for_the_next_minor_v0_and_v1_together() -> None:
    def upgrade(*sources: str) -> dict[str, Any]:
        blockers = [{"source": s, "object": {}, "message": "m"} for s in sources]
        return {"clusterUpgrade": {"nextMinor": "4.17", "blockers": blockers}}

    reports = {"b": upgrade("v1"), "a": upgrade("v0", "v0", "clusteroperator"), "c": upgrade()}
    assert blocked_for_next_minor(reports) == ["a", "b"]
    assert upgrade_blockers(reports)["a"] == {
        "nextMinor": "4.17",
        "v0": 2,
        "v1": 0,
        "clusteroperator": 1,
    }


def test_migration_states_per_cluster() -> None:
    reports = {
        "a": {"migration": [{"state": "Eligible"}, {"state": "Ineligible"}, {"state": "Eligible"}]},
        "b": {"migration": []},
    }
    assert migration(reports) == {
        "a": {"Eligible": 2, "Ineligible": 1, "AlreadyMigrated": 0, "Conflict": 0}
    }


def test_the_same_incident_on_many_clusters() -> None:
    def report(*incidents: dict[str, Any]) -> dict[str, Any]:
        findings = [
            _finding("R-SUB-5", i["severity"], i["root"]["name"], i["root"]["code"])
            for i in incidents
        ]
        return {"incidents": list(incidents), "findings": findings}

    failed = _incident("InstallPlanFailed", "sub", "error")
    reports = {
        "c": report(failed),
        "a": report(failed, _incident("Other", "x", "warning")),
        "b": report(_incident("InstallPlanFailed", "sub", "warning")),
    }
    shared = shared_incidents(reports)
    assert shared == [
        {
            "rule": "R-SUB-5",
            "code": "InstallPlanFailed",
            "object": {"kind": "Subscription", "namespace": "ops", "name": "sub"},
            "severity": "error",
            "summary": shared[0]["summary"],
            "targets": ["a", "b", "c"],
        }
    ]


def test_the_rollup_does_not_depend_on_the_order_of_the_reports() -> None:
    reports = {
        "a": {**_installed("etcd", "1"), "findings": [_finding("R-SUB-5", "error")]},
        "b": {**_installed("etcd", "2"), "findings": [_finding("R-SUB-5", "info")]},
    }
    statuses = {"a": "ok", "b": "ok", "z": "timeout"}
    forward = rollup(reports, statuses)
    backward = rollup(dict(reversed(reports.items())), dict(reversed(statuses.items())))
    assert forward == backward
    assert forward["statuses"]["timeout"] == 1 and forward["targets"] == 3


def test_the_rollup_of_cut_down_reports_is_the_rollup_of_whole_ones() -> None:
    whole = {
        "a": {
            **_installed("etcd", "1"),
            "catalogSources": [{"namespace": "m", "name": "c", "image": "i:1", "pods": [1, 2]}],
            "migration": [{"state": "Eligible", "rules": ["long"]}],
        },
        "b": {
            **_installed("etcd", "2"),
            "catalogSources": [{"namespace": "m", "name": "c", "image": "i:2"}],
        },
    }
    statuses = {"a": "ok", "b": "ok"}
    cut = {name: rollup_input(report) for name, report in whole.items()}
    assert "pods" not in cut["a"]["catalogSources"][0]
    assert rollup(cut, statuses) == rollup(whole, statuses)
