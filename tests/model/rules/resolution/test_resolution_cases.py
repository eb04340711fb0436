"""The resolution table (R-RES-*): one snapshot plus catalog content per case
(``tests/data/resolution/<case>/``), checked end to end as ``olmtui check --output json``
reports the namespace's ``resolution[]`` entry. Most cases are OLM's own resolver tests
translated (same catalogs, Subscriptions and installed operators; the same chosen operators or
the same failure), named after the Go test; the others are the failures users meet. The format
of ``expect.yaml`` is in ``tests/data/resolution/README.md``. An explanation is a *minimal*
unsatisfiable set (R-RES-18): compared as a set only where that set is unique, otherwise only
the constraints every minimal set holds are required."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from check_runs import UniqueKeyLoader, run_check
from data_paths import DATA

RESOLUTION = DATA / "resolution"
CASES = sorted(p.parent.name for p in RESOLUTION.glob("*/expect.yaml"))
#: The fields of a ``resolution[]`` entry compared for equality when ``expect.yaml`` gives them.
EQUAL_FIELDS = ("status", "reason", "operators", "changes")
#: Go test files of operator-lifecycle-manager's pkg/controller/registry/resolver the cases cite.
GO_TEST_FILES = ("resolver_test.go", "step_resolver_test.go")


def expectations(case: str) -> dict[str, Any]:
    with open(RESOLUTION / case / "expect.yaml", encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.load(handle, Loader=UniqueKeyLoader)
    return loaded


def check_case(case: str) -> tuple[int, dict[str, Any]]:
    """``olmtui check cluster.yaml --catalog NS/NAME=PATH ... --output json`` for one case."""
    argv = [str(RESOLUTION / case / "cluster.yaml")]
    for spec in expectations(case)["catalogs"]:
        ref, _, path = spec.partition("=")
        argv += ["--catalog", f"{ref}={(RESOLUTION / case / path).resolve()}"]
    return run_check(argv)


def namespace_entry(report: dict[str, Any], namespace: str) -> dict[str, Any]:
    assert "resolution" in report, "the report has no resolution[] section"
    entries = [e for e in report["resolution"] if e["namespace"] == namespace]
    assert len(entries) == 1, f"{len(entries)} resolution entries for namespace {namespace}"
    return entries[0]


def unrelated(report: dict[str, Any], allowed: list[str]) -> list[str]:
    """Warnings and errors that are neither the resolver's own (``R-RES-*``) nor listed in
    ``allowed_findings``: a case's input must not raise alarms beside its point."""
    return [
        f"{f['severity']} {f['code']} {f['namespace']}/{f['name']}: {f['message'][:120]}"
        for f in report["findings"]
        if f["severity"] != "info"
        and not str(f.get("rule", "")).startswith("R-RES-")
        and f["code"] not in allowed
    ]


@pytest.mark.parametrize("case", CASES)
def test_case_input_raises_no_unrelated_findings(case: str) -> None:
    expect = expectations(case)
    _, report = check_case(case)
    assert unrelated(report, expect.get("allowed_findings", [])) == []
    # Every finding the case allows is one its input really raises: the list stays honest.
    codes = {f["code"] for f in report["findings"]}
    assert set(expect.get("allowed_findings", [])) <= codes


def compare_explanation(entry: dict[str, Any], expect: dict[str, Any]) -> None:
    got = {e["constraint"]: e for e in entry["explanation"]}
    assert all(set(e) == {"constraint", "objects", "fix"} for e in entry["explanation"])
    if "explanation" in expect:
        # The minimal set is unique: exactly these constraints.
        assert set(got) == {e["constraint"] for e in expect["explanation"]}
        for wanted in expect["explanation"]:
            for key in ("objects", "fix"):
                if key in wanted:
                    assert got[wanted["constraint"]][key] == wanted[key], (wanted, key)
    for text in expect.get("explanation_includes", []):
        assert text in got, f"{text!r} not in {sorted(got)}"
    if entry["status"] != "unsatisfiable":
        assert entry["explanation"] == []


@pytest.mark.parametrize("case", CASES)
def test_resolution_case(case: str) -> None:
    expect = expectations(case)
    _, report = check_case(case)
    entry = namespace_entry(report, expect["namespace"])
    wanted = expect["resolution"]
    for field in EQUAL_FIELDS:
        if field in wanted:
            assert entry[field] == wanted[field], f"{case}: {field}"
    if "reason_contains" in wanted:
        assert wanted["reason_contains"] in (entry["reason"] or "")
    compare_explanation(entry, expect)


def test_the_table_translates_olm_tests_and_holds_the_famous_failures() -> None:
    translated = [c for c in CASES if c.startswith("Test")]
    for case in translated:
        about = expectations(case)["about"]
        assert case.split("-")[0] in about and any(f in about for f in GO_TEST_FILES), case
    assert len(translated) >= 20
    famous = {
        "orphaned-csv-blocks-package",
        "two-catalogs-one-package-priority",
        "required-gvk-nothing-provides",
        "package-range-unsatisfied",
        "dependency-from-other-catalog",
        "deprecated-starting-csv",
    }
    assert famous <= set(CASES)
    statuses = {expectations(c)["resolution"]["status"] for c in CASES}
    assert statuses == {"resolved", "unsatisfiable", "failed", "not-evaluated"}


@pytest.mark.parametrize("case", ["orphaned-csv-blocks-package", "upgrade-replaces-skiprange"])
def test_the_same_input_gives_the_same_bytes_in_any_process(case: str) -> None:
    """Stable output: two processes with different hash seeds (set and dict
    orders of strings differ between them) print the same explanation, byte for byte."""
    import os
    import subprocess
    import sys

    argv = [sys.executable, "-m", "olmtui", "explain", expectations(case)["namespace"]]
    argv.append(str(RESOLUTION / case / "cluster.yaml"))
    for spec in expectations(case)["catalogs"]:
        ref, _, path = spec.partition("=")
        argv += ["--catalog", f"{ref}={(RESOLUTION / case / path).resolve()}"]
    outputs = set()
    for seed in ("1", "2"):
        for output in ("text", "json"):
            env = {**os.environ, "PYTHONHASHSEED": seed}
            run = subprocess.run(
                [*argv, "--output", output], capture_output=True, env=env, check=False
            )
            outputs.add((output, run.returncode, run.stdout))
    assert len(outputs) == 2  # one text, one JSON, whatever the seed
