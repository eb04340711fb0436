"""The resolver's outcome where users see it: ``check``'s ``resolution[]`` section, its text
and Markdown sections, the findings drawn from it, ``--global-catalog-namespace`` and
``olmtui explain``. The resolver itself is replaced by a fake returning fixed outcomes (one
namespace per status), so these tests pin the wiring and the wording around it, not the
solving (``test_resolution_cases.py`` does that end to end)."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from data_paths import DATA
from report_records import validate_report
from snapshot_files import yaml_documents

from olmtui.cli import main
from olmtui.model.records.catalog import Catalog
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.resolution.outcome_findings import (
    explanation_objects,
    resolution_outcome_findings,
)
from olmtui.model.rules.resolution.result import (
    ExplainedConstraint,
    NamespaceResolution,
    ResolvedOperator,
)
from olmtui.pipeline import resolution_inputs
from olmtui.report import load_schema
from olmtui.store import Store

#: Catalog content for ``--catalog``: any will do, the fake resolver does not read it.
CATALOG = DATA / "triage/catalog-two-contents-one-source/alpha"
ORPHAN = "clusterserviceversion old.v1 exists and is not referenced by a subscription"
ONE_PROVIDER = "there can be only one provider of EtcdCluster.v1.etcd.database.coreos.com"
OUTCOMES = (
    NamespaceResolution(
        "a",
        "resolved",
        operators=(
            ResolvedOperator(
                "etcd.v2", "etcd", "stable", "olm/community", "etcd.v1", "Subscription a/etcd"
            ),
            ResolvedOperator(
                "dep.v1", "dep", "stable", "olm/community", None, "dependency of etcd.v2"
            ),
            ResolvedOperator("other.v3", "other", "stable", "@existing", None, "existing"),
        ),
        changes=("etcd.v2", "dep.v1"),
    ),
    NamespaceResolution(
        "b",
        "unsatisfiable",
        explanation=(
            ExplainedConstraint(
                ORPHAN,
                ("ClusterServiceVersion b/old.v1",),
                "delete ClusterServiceVersion b/old.v1 or create a Subscription whose status "
                "will reference it",
            ),
            ExplainedConstraint(
                ONE_PROVIDER,
                ("ClusterServiceVersion b/old.v1", "bundle etcd.v2 (catalog olm/community)"),
                "remove the other provider of EtcdCluster (etcd.database.coreos.com/v1) from "
                "namespace b",
            ),
            ExplainedConstraint(
                "subscription etcd requires at least one of olm/community/stable/etcd.v2",
                ("Subscription b/etcd", "bundle etcd.v2 (catalog olm/community)"),
                "",
            ),
        ),
    ),
    NamespaceResolution("c", "failed", "expected 1 OperatorGroup in the namespace, found 2"),
    NamespaceResolution("d", "not-evaluated", "no catalog content for CatalogSource olm/other"),
    NamespaceResolution("e", "resolved"),
)


def snapshot(tmp_path: Path) -> Path:
    """Namespaces a-e, each with one OperatorGroup and a Subscription ``etcd``."""
    docs: list[dict[str, Any]] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "olm"}},
        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "CatalogSource",
            "metadata": {"name": "community", "namespace": "olm"},
            "spec": {"sourceType": "grpc", "image": "quay.io/example/community:latest"},
            "status": {"connectionState": {"lastObservedState": "READY"}},
        },
    ]
    for ns in "abcde":
        docs += [
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}},
            {
                "apiVersion": "operators.coreos.com/v1",
                "kind": "OperatorGroup",
                "metadata": {"name": ns, "namespace": ns},
                "spec": {},
                "status": {"namespaces": [""]},
            },
            {
                "apiVersion": "operators.coreos.com/v1alpha1",
                "kind": "Subscription",
                "metadata": {"name": "etcd", "namespace": ns},
                "spec": {
                    "name": "etcd",
                    "channel": "stable",
                    "source": "community",
                    "sourceNamespace": "olm",
                },
            },
        ]
    path = tmp_path / "cluster.yaml"
    path.write_text(yaml_documents(docs))
    return path


class FakeResolver:
    """Stands for ``resolve_cluster``: returns ``outcomes`` and records how it was called."""

    def __init__(self, outcomes: Sequence[NamespaceResolution] = OUTCOMES) -> None:
        self.outcomes = list(outcomes)
        self.calls: list[tuple[int, str | None]] = []

    def __call__(
        self,
        store: Store,
        catalogs: Sequence[Catalog],
        global_namespace: str | None = None,
        only: Collection[str] | None = None,
    ) -> list[NamespaceResolution]:
        self.calls.append((len(catalogs), global_namespace))
        return [o for o in self.outcomes if only is None or o.namespace in only]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeResolver:
    resolver = FakeResolver()
    monkeypatch.setattr(resolution_inputs, "resolve_cluster", resolver)
    return resolver


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def check_json(*argv: str) -> tuple[int, dict[str, Any]]:
    status, out, _ = run("check", *argv, "--output", "json")
    report = json.loads(out)
    validate_report(report)
    return status, report


def with_catalog(path: Path) -> list[str]:
    return [str(path), "--catalog", f"olm/community={CATALOG}"]


# -- the JSON report ----------------------------------------------------------------------


def test_resolution_section_holds_one_entry_per_namespace_as_the_format_says(
    fake: FakeResolver, tmp_path: Path
) -> None:
    _, report = check_json(*with_catalog(snapshot(tmp_path)))
    entries = report["resolution"]
    assert [e["namespace"] for e in entries] == ["a", "b", "c", "d", "e"]
    assert all(
        list(e) == ["namespace", "status", "reason", "operators", "changes", "explanation"]
        for e in entries
    )
    a, b, c, d, _ = entries
    # operators sorted by name, with "for" from ResolvedOperator.reason; changes sorted
    assert a["operators"] == [
        {"name": "dep.v1", "package": "dep", "channel": "stable", "catalog": "olm/community",
         "replaces": None, "for": "dependency of etcd.v2"},
        {"name": "etcd.v2", "package": "etcd", "channel": "stable", "catalog": "olm/community",
         "replaces": "etcd.v1", "for": "Subscription a/etcd"},
        {"name": "other.v3", "package": "other", "channel": "stable", "catalog": "@existing",
         "replaces": None, "for": "existing"},
    ]  # fmt: skip
    assert a["changes"] == ["dep.v1", "etcd.v2"] and a["reason"] is None
    # the explanation keeps its causes-first order
    assert [x["constraint"] for x in b["explanation"]][:2] == [ORPHAN, ONE_PROVIDER]
    assert b["explanation"][0]["objects"] == ["ClusterServiceVersion b/old.v1"]
    assert (c["status"], c["reason"]) == ("failed", OUTCOMES[2].reason)
    assert (d["status"], d["operators"], d["explanation"]) == ("not-evaluated", [], [])
    assert report["source"]["catalogContent"] is True


def test_the_schema_holds_the_entries_to_their_status() -> None:
    schema = load_schema()
    base = {"format": 1}  # only the resolution entries are checked here
    del base["format"]
    entry = {
        "namespace": "a",
        "status": "resolved",
        "reason": None,
        "operators": [],
        "changes": [],
        "explanation": [],
    }
    validator = jsonschema.Draft202012Validator(
        {"$ref": "#/$defs/resolution", "$defs": schema["$defs"]}
    )
    assert validator.is_valid(entry)
    assert not validator.is_valid({**entry, "reason": "a reason"})  # resolved: reason null
    assert not validator.is_valid({**entry, "status": "failed"})  # failed: reason required
    assert not validator.is_valid(
        {**entry, "explanation": [{"constraint": "x", "objects": [], "fix": ""}]}
    )
    assert not validator.is_valid({**entry, "status": "solved"})
    operator = {"name": "x", "package": "p", "channel": "c", "catalog": "@existing",
                "replaces": None, "for": "because"}  # fmt: skip
    assert not validator.is_valid({**entry, "operators": [operator]})


def test_global_catalog_namespace_reaches_the_resolver(fake: FakeResolver, tmp_path: Path) -> None:
    path = snapshot(tmp_path)
    check_json(str(path))
    check_json(str(path), "--global-catalog-namespace", "operators")
    run("explain", "a", *with_catalog(path), "--global-catalog-namespace", "olm")
    assert [ns for _, ns in fake.calls] == [None, "operators", "olm"]
    # catalogs: none given, then the --catalog content (PackageManifests add nothing here)
    assert [n for n, _ in fake.calls] == [0, 0, 1]


def test_the_resolver_runs_once_per_check(fake: FakeResolver, tmp_path: Path) -> None:
    run("check", *with_catalog(snapshot(tmp_path)))
    assert len(fake.calls) == 1


# -- findings -----------------------------------------------------------------------------


def codes(report: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    return {
        f["code"]: (f["severity"], f["kind"], f["name"])
        for f in report["findings"]
        if f["rule"] in ("R-RES-18", "R-RES-19", "R-RES-22")
    }


def test_findings_carry_the_outcomes_that_matter(fake: FakeResolver, tmp_path: Path) -> None:
    _, report = check_json(*with_catalog(snapshot(tmp_path)))
    assert codes(report) == {
        "ResolutionWouldFail": ("warning", "Namespace", "b"),
        "ResolutionWouldStop": ("warning", "Namespace", "c"),
        "ResolutionNotEvaluated": ("info", "Namespace", "d"),
    }
    by_code = {f["code"]: f for f in report["findings"]}
    fail = by_code["ResolutionWouldFail"]
    assert "From the objects and catalog content given" in fail["message"]
    assert ORPHAN in fail["message"] and "delete ClusterServiceVersion b/old.v1" in fail["message"]
    # the Kubernetes objects of the explanation, not the catalog bundles
    assert fail["related"] == [
        {"kind": "ClusterServiceVersion", "namespace": "b", "name": "old.v1"},
        {"kind": "Subscription", "namespace": "b", "name": "etcd"},
    ]
    assert OUTCOMES[2].reason in by_code["ResolutionWouldStop"]["message"]
    assert "olm/other" in by_code["ResolutionNotEvaluated"]["message"]


def test_without_catalog_content_nothing_not_evaluated_is_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    unevaluated = [NamespaceResolution(ns, "not-evaluated", "no catalog content") for ns in "abcde"]
    monkeypatch.setattr(resolution_inputs, "resolve_cluster", FakeResolver(unevaluated))
    path = snapshot(tmp_path)
    _, report = check_json(str(path))
    assert codes(report) == {} and report["source"]["catalogContent"] is False
    # the findings are warnings and info: check's exit status is that of the other findings
    status_with, _ = check_json(*with_catalog(path))
    monkeypatch.setattr(resolution_inputs, "resolve_cluster", FakeResolver(OUTCOMES))
    status_without, _ = check_json(*with_catalog(path))
    assert status_with == status_without


def test_a_failure_olm_already_reports_is_not_predicted_again() -> None:
    observed = Finding(
        "error",
        "ConstraintsNotSatisfiable",
        "Subscription",
        "b",
        "etcd",
        "OLM cannot ...",
        "R-SUB-7",
    )
    stalled = Finding(
        "error", "SubscriptionStalled", "Subscription", "c", "etcd", "2 groups", "R-SUB-9"
    )
    found = resolution_outcome_findings(OUTCOMES, catalog_content=True, known=[observed, stalled])
    assert [f.code for f in found] == ["ResolutionNotEvaluated"]
    # an observed warning (or a finding in another namespace) does not count
    other = Finding("error", "ConstraintsNotSatisfiable", "Subscription", "x", "y", "m", "R-SUB-7")
    found = resolution_outcome_findings(OUTCOMES, catalog_content=False, known=[other])
    assert [f.code for f in found] == ["ResolutionWouldFail", "ResolutionWouldStop"]


def test_explanation_objects_are_the_kubernetes_objects_once_each() -> None:
    assert explanation_objects(OUTCOMES[1].explanation) == (
        ObjectRef("ClusterServiceVersion", "b", "old.v1"),
        ObjectRef("Subscription", "b", "etcd"),
    )


# -- text and Markdown --------------------------------------------------------------------


def section(text: str, title: str) -> str:
    return text.split(f"\n{title}\n", 1)[1].split("\n\n", 1)[0]


def test_text_section_tells_each_outcome(fake: FakeResolver, tmp_path: Path) -> None:
    _, out, _ = run("check", *with_catalog(snapshot(tmp_path)))
    text = out.split("\nRESOLUTION\n", 1)[1]
    lines = [line.rstrip() for line in text.splitlines()]
    assert lines[:5] == [
        "  what OLM's next sync would decide, from the objects and catalog content given",
        "  a  resolved: the next InstallPlan installs 2 bundles",
        "    dep.v1 (package dep, channel stable, catalog olm/community; a dependency of etcd.v2)",
        "    etcd.v2 replaces etcd.v1 (package etcd, channel stable, catalog olm/community; for "
        "Subscription",
        "        a/etcd)",
    ]
    assert "  b  unsatisfiable: these constraints cannot all hold" in text
    assert f"    1. {ORPHAN}" in lines
    assert "       objects: ClusterServiceVersion b/old.v1" in lines
    assert (
        "  c  failed: OLM stops with: expected 1 OperatorGroup in the namespace, found 2" in lines
    )
    assert "  d  not evaluated: no catalog content for CatalogSource olm/other" in lines
    assert "  e  resolved: nothing to install" in lines


def test_text_section_is_one_line_without_catalog_content(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    unevaluated = [NamespaceResolution(ns, "not-evaluated", "no catalog content") for ns in "abcde"]
    monkeypatch.setattr(resolution_inputs, "resolve_cluster", FakeResolver(unevaluated))
    _, out, _ = run("check", str(snapshot(tmp_path)))
    assert out.endswith(
        "\nRESOLUTION\n  not evaluated in 5 namespaces with Subscriptions: resolution needs "
        "--catalog content\n"
    )
    _, note, _ = run("check", str(snapshot(tmp_path)), "--output", "markdown")
    assert (
        "## Resolution\n\nNot evaluated in 5 namespaces with Subscriptions: resolution needs "
        "`--catalog` content.\n" in note
    )


def test_markdown_section_escapes_and_tells_each_outcome(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tricky = NamespaceResolution("e", "failed", "csv <b>x</b> in phase `Failed`")
    monkeypatch.setattr(resolution_inputs, "resolve_cluster", FakeResolver([*OUTCOMES[:4], tricky]))
    _, note, _ = run("check", *with_catalog(snapshot(tmp_path)), "--output", "markdown")
    resolution = note.split("## Resolution\n", 1)[1].split("\n## ", 1)[0]
    assert "### Namespace a\n\nResolved: the next InstallPlan installs 2 bundles:" in resolution
    assert "- etcd\\_v2" not in resolution and "- etcd.v2 replaces etcd.v1" in resolution
    assert f"1. {ORPHAN}\n   Objects: ClusterServiceVersion b/old.v1\n   Fix: delete" in resolution
    assert "Failed: OLM stops with: expected 1 OperatorGroup" in resolution
    assert "Not evaluated: no catalog content for CatalogSource olm/other" in resolution
    assert "csv \\<b\\>x\\</b\\> in phase \\`Failed\\`" in resolution
    assert note.index("## Resolution") < note.index("## Pending upgrades")


# -- olmtui explain -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("namespace", "status"), [("a", 0), ("b", 1), ("c", 1), ("d", 2), ("e", 0)]
)
def test_explain_exit_status(
    fake: FakeResolver, tmp_path: Path, namespace: str, status: int
) -> None:
    assert run("explain", namespace, *with_catalog(snapshot(tmp_path)))[0] == status


def test_explain_json_is_the_report_entry(fake: FakeResolver, tmp_path: Path) -> None:
    path = snapshot(tmp_path)
    _, report = check_json(*with_catalog(path))
    for entry in report["resolution"]:
        _, out, _ = run("explain", entry["namespace"], *with_catalog(path), "--output", "json")
        assert json.loads(out) == entry
    # with /SUBSCRIPTION the entry stays whole: OLM resolves the namespace as a whole
    _, out, _ = run("explain", "b/etcd", *with_catalog(path), "--output", "json")
    assert json.loads(out) == report["resolution"][1]


def test_explain_text_puts_the_cause_first(fake: FakeResolver, tmp_path: Path) -> None:
    _, out, _ = run("explain", "b", *with_catalog(snapshot(tmp_path)))
    lines = out.splitlines()
    assert lines[0].startswith("olmtui explain namespace b: OLM's next resolution fails")
    assert all(len(line) <= 100 for line in lines)
    lines = lines[lines.index("(a prediction from the objects and catalog content given)") :]
    assert lines[2].startswith("b  unsatisfiable: these constraints cannot all hold")
    assert lines[4] == f"  1. {ORPHAN}"
    assert lines[5] == "     objects: ClusterServiceVersion b/old.v1"
    assert lines[6].startswith("     fix: delete ClusterServiceVersion b/old.v1")
    _, out, _ = run("explain", "a", *with_catalog(snapshot(tmp_path)))
    assert "the next InstallPlan installs 2 bundles" in out
    assert (
        "operators of the solution:" in out
        and "other.v3 (catalog @existing; installed, kept)" in out
    )
    _, out, _ = run("explain", "c", *with_catalog(snapshot(tmp_path)))
    assert "c  failed: OLM stops with: expected 1 OperatorGroup in the namespace, found 2" in out


def test_explain_a_subscription_keeps_what_concerns_it(fake: FakeResolver, tmp_path: Path) -> None:
    path = snapshot(tmp_path)
    _, out, _ = run("explain", "b/etcd", *with_catalog(path))
    out = " ".join(out.split(" \n"))  # the last paragraph, unwrapped
    out = out.replace("\n", " ")
    assert out.startswith("olmtui explain Subscription b/etcd: OLM's next resolution fails")
    assert "subscription etcd requires" in out and ORPHAN not in out
    assert "2 more constraints do not name this Subscription" in out
    assert "OLM resolves namespace b as a whole" in out
    _, out, _ = run("explain", "a/etcd", *with_catalog(path))
    # its bundle and the dependency of it; not the operator another Subscription keeps
    assert "etcd.v2 replaces etcd.v1" in out and "dep.v1" in out and "other.v3" not in out


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("nosuch", "namespace nosuch holds no Subscription"),
        ("a/nosuch", "no Subscription a/nosuch"),
    ],
)
def test_explain_unknown_target_is_one_line_and_exit_2(
    fake: FakeResolver, tmp_path: Path, target: str, words: str
) -> None:
    status, out, err = run("explain", target, *with_catalog(snapshot(tmp_path)))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_explain_help_documents_the_exit_status() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["explain", "--help"])
    text = " ".join(out.getvalue().split())
    assert "exit status: 0 when the namespace resolves, 1 when" in text
    assert "--global-catalog-namespace NS" in text


def test_finding_messages_say_it_is_a_prediction_and_leave_out_an_empty_fix() -> None:
    no_fix = NamespaceResolution(
        "b", "unsatisfiable", explanation=(ExplainedConstraint("subscription s exists", (), ""),)
    )
    (fail,) = resolution_outcome_findings([no_fix], catalog_content=True)
    assert fail.message == (
        "From the objects and catalog content given, OLM's next resolution of namespace b "
        "cannot succeed: no set of operators satisfies every constraint, so OLM would set "
        "ResolutionFailed (ConstraintsNotSatisfiable) on every Subscription there and install "
        "or upgrade nothing in it. The cause: subscription s exists. `olmtui explain b` shows "
        "the whole explanation."
    )
    assert (fail.severity, fail.rule, fail.related) == ("warning", "R-RES-18", ())
    (stop,) = resolution_outcome_findings([OUTCOMES[2]], catalog_content=True)
    assert (stop.severity, stop.rule) == ("warning", "R-RES-19")
    (unknown,) = resolution_outcome_findings([OUTCOMES[3]], catalog_content=True)
    assert (unknown.severity, unknown.rule) == ("info", "R-RES-22")
    assert "says nothing about whether OLM succeeds there" in unknown.message
    resolved = resolution_outcome_findings([OUTCOMES[0], OUTCOMES[4]], catalog_content=True)
    assert resolved == []


def test_check_help_offers_the_global_catalog_namespace() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "--global-catalog-namespace NS" in out.getvalue()


def test_without_catalog_content_decided_namespaces_show_and_the_rest_share_a_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A failure OLM meets before any catalog is read (R-RES-2) is decided without catalog
    content; the namespaces that needed it are counted on one line."""
    outcomes = [OUTCOMES[2], *(NamespaceResolution(ns, "not-evaluated", "x") for ns in "abde")]
    monkeypatch.setattr(resolution_inputs, "resolve_cluster", FakeResolver(outcomes))
    _, out, _ = run("check", str(snapshot(tmp_path)))
    assert out.split("\nRESOLUTION\n", 1)[1] == (
        "  what OLM's next sync would decide, from the objects and catalog content given\n"
        "  c  failed: OLM stops with: expected 1 OperatorGroup in the namespace, found 2\n"
        "  not evaluated in 4 more namespaces with Subscriptions: resolution needs --catalog "
        "content\n"
    )
    _, note, _ = run("check", str(snapshot(tmp_path)), "--output", "markdown")
    assert (
        "### Namespace c\n\nFailed: OLM stops with: expected 1 OperatorGroup in the namespace, "
        "found 2\n\nNot evaluated in 4 more namespaces with Subscriptions" in note
    )
