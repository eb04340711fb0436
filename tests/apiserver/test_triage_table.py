"""The triage table: one snapshot per failure state (``tests/data/triage/<case>/``),
each checked end to end as ``olmtui check`` reports it. ``expect.yaml`` beside each snapshot
says which findings must appear, which must not, and the exit status (format in
``tests/data/triage/README.md``). The three real must-gathers are rows too: they may warn
only about their real problems. A case with ``live_namespaces`` is served by the loopback API
server to a user who may not list across namespaces, and checked as ``check --live
--namespace ...``: what lives in a namespace not read is unknown, not absent (R-DOC-10)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from check_runs import UniqueKeyLoader, run_check
from data_paths import DATA

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.apiserver.resources import RESOURCES

TRIAGE = DATA / "triage"
CASES = sorted(p.parent.name for p in TRIAGE.glob("*/expect.yaml"))
#: Matcher keys compared for equality with the finding's JSON fields.
EQUAL_KEYS = ("code", "severity", "kind", "namespace", "name", "rule")


def expectations(case: str) -> dict[str, Any]:
    with open(TRIAGE / case / "expect.yaml", encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.load(handle, Loader=UniqueKeyLoader)
    return loaded


def input_of(case: str, expect: dict[str, Any]) -> Path:
    """The snapshot a case checks: its ``cluster.yaml``, or ``input`` (relative to tests/data)."""
    if "input" in expect:
        return DATA / expect["input"]
    return TRIAGE / case / "cluster.yaml"


def catalog_args(case: str, expect: dict[str, Any]) -> list[str]:
    """``--catalog`` options, their paths taken relative to the case's directory."""
    args: list[str] = []
    for spec in expect.get("catalogs", []):
        ref, _, path = spec.rpartition("=")
        resolved = str((TRIAGE / case / path).resolve())
        args += ["--catalog", f"{ref}={resolved}" if ref else resolved]
    return args


def matches(matcher: dict[str, Any], finding: dict[str, Any]) -> bool:
    for key in EQUAL_KEYS:
        if key in matcher and finding.get(key) != matcher[key]:
            return False
    if "severity_in" in matcher and finding["severity"] not in matcher["severity_in"]:
        return False
    if "text" in matcher:
        message = " ".join(finding["message"].split())
        if " ".join(str(matcher["text"]).split()) not in message:
            return False
    if "remedy" in matcher:
        steps = (finding.get("remedy") or {}).get("steps") or ()
        said = " | ".join(f"{s['action']} {s['text']} {s['command'] or ''}" for s in steps)
        if " ".join(str(matcher["remedy"]).split()) not in " ".join(said.split()):
            return False
    return True


def shown(findings: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"  {f['severity']} {f['code']} {f['kind']} {f['namespace']}/{f['name']}: "
        f"{f['message'][:160]}"
        for f in findings
    )


def run_live_check(
    snapshot: Path, namespaces: list[str], extra: list[str], tmp_path: Path
) -> tuple[int, dict[str, Any]]:
    """``check --live --namespace ...`` against ``snapshot`` served by the loopback API
    server, whose user may not list or watch any namespaced kind across namespaces (403 at
    the cluster scope), as an RBAC-limited user; namespaces themselves may be listed."""
    server = LoopbackAPIServer()
    with open(snapshot, encoding="utf-8") as handle:
        server.state.load(list(yaml.safe_load_all(handle)), skip_unknown=True)
    for resource in RESOURCES:
        if resource.namespaced:
            server.forbid(resource.plural, "", verbs=("list", "watch"))
    thread = run_in_thread(server)
    try:
        kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
        scope = [arg for ns in namespaces for arg in ("--namespace", ns)]
        return run_check(["--live", "--kubeconfig", str(kubeconfig), *scope, *extra])
    finally:
        thread.stop()


@pytest.mark.parametrize("case", CASES)
def test_triage_case(case: str, tmp_path: Path) -> None:
    expect = expectations(case)
    if "live_namespaces" in expect:
        status, report = run_live_check(
            input_of(case, expect), expect["live_namespaces"], catalog_args(case, expect), tmp_path
        )
        assert report["source"]["namespaces"] == sorted(expect["live_namespaces"])
    else:
        status, report = run_check([str(input_of(case, expect)), *catalog_args(case, expect)])
    findings = report["findings"]
    for matcher in expect.get("must", []):
        assert any(matches(matcher, f) for f in findings), (
            f"{case}: no finding matches {matcher}; findings:\n{shown(findings)}"
        )
    for matcher in expect.get("must_not", []):
        hits = [f for f in findings if matches(matcher, f)]
        assert not hits, f"{case}: {matcher} must not appear but:\n{shown(hits)}"
    if expect.get("only_listed"):
        loud = [f for f in findings if f["severity"] != "info"]
        stray = [f for f in loud if not any(matches(m, f) for m in expect.get("must", []))]
        assert not stray, f"{case}: warnings/errors not in `must`:\n{shown(stray)}"
    assert status == expect["exit"], f"{case}: exit {status}; findings:\n{shown(findings)}"


def test_the_table_holds_at_least_25_failure_states() -> None:
    """At least 25 distinct failure states besides the real must-gathers."""
    states = [c for c in CASES if "input" not in expectations(c)]
    assert len(states) >= 25, f"only {len(states)} triage cases"
