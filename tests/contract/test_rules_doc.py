"""The rules the findings cite ship with the project: every rule id a finding carries, and every
id the source cites, has its entry in docs/rules.md; and the repository stands alone (nothing
refers to data outside it)."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from data_paths import DATA, ROOT

from olmtui.cli import main

REPO = ROOT
RULE_ID = re.compile(r"\bR-[A-Z0-9]+-[A-Z0-9]+[a-z]?\b")
DOCUMENTED = set(
    re.findall(r"^### (R-[A-Z0-9]+-[A-Z0-9]+[a-z]?):", (REPO / "docs/rules.md").read_text(), re.M)
)
MUST_GATHERS = sorted((DATA / "must-gather/must-gather-clean").iterdir())
KEYCLOAK = DATA / "catalogs/community-operators-prod/operators/keycloak-operator"
DEPRECATIONS = DATA / "catalogs/operator-lifecycle-manager/test/e2e/testdata/subscription"
#: Small snapshots made for single tests: each a cluster (or part of one) that `check` reads.
SMALL_SNAPSHOTS = sorted(
    p
    for folder in ("model", "model/qa", "health", "snapshots", "store")
    for p in (DATA / folder).iterdir()
    # a CRD alone is no cluster: check refuses it (exit 2, no OLM object)
    if p.suffix in (".yaml", ".json") and p.name != "etcdclusters-crd.yaml"
)
#: Citations of documents the repository does not ship (the design notes and issue threads the
#: code was written from): comments cite a rule id of docs/rules.md, or say the fact in words.
UNSHIPPED_CITATION = re.compile(
    r"\u00a7|\bseeds? \d{3}|\b[Ii]ssues? \d|olm-rules\.md|report-format\.md|tech[-]notes"
)
#: Dated lab notes, which may say which round of work a measurement belongs to.
LAB_NOTES = ("bench/README.md",)
#: What a repository that stands alone never mentions: the workspace's data beside it.
OUTSIDE = ("../" + "shared", "/work/" + "shared")


def rules_in(report: Any) -> Iterator[str]:
    """Every ``rule`` value anywhere in a JSON report (findings and CSV verdicts)."""
    if isinstance(report, dict):
        for key, value in report.items():
            if key == "rule":
                yield value
            else:
                yield from rules_in(value)
    elif isinstance(report, list):
        for item in report:
            yield from rules_in(item)


def check_rules(*argv: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", *argv, "--output", "json"])
    return list(rules_in(json.loads(out.getvalue())))


def test_docs_rules_has_every_id_of_the_olm_rule_families() -> None:
    numbered = {
        **{"NS": 5, "OG": 9, "MEM": 9, "API": 9, "COPY": 9, "UPG": 9, "SEM": 7, "SUB": 12},
        "RES": 23,
        "V1": 28,
        "DIAG": 12,
        "EVD": 12,
        "MIG": 14,
        "LCY": 6,
        "CUP": 7,
        "NXT": 6,
        "REC": 8,
        "FLT": 6,
    }
    for family, count in numbered.items():
        start = 0 if family == "MEM" else 1
        assert {f"R-{family}-{n}" for n in range(start, start + count)} <= DOCUMENTED, family
    csv_phases = {"N", "P", "IR", "I", "S", "F", "R", "D", "R2", "O", "H"}
    assert {f"R-CSV-{phase}" for phase in csv_phases} <= DOCUMENTED
    # The 85 rules read from OLM's code, then R-DOC-1..8, 10, 14..18, R-SRC-1..3, the
    # resolver's R-RES-1..23, OLM v1's R-V1-1..28, the diagnosis's R-DIAG-1..12, 20..27,
    # 28..30 and 32..37, the evidence's R-EVD-1..12, the migration's R-MIG-1..14, the support
    # lifecycle's R-LCY-1..6, the cluster upgrade's R-CUP-1..7, the next catalog's R-NXT-1..6,
    # the recordings' R-REC-1..8 (record, rewind, diff) and the fleet's R-FLT-1..6.
    assert len(DOCUMENTED) == (
        85 + 8 + 1 + 2 + 3 + 3 + 23 + 28 + 1 + 12 + 8 + 3 + 12 + 6 + 14 + 6 + 7 + 6 + 8 + 6
    )
    assert "R-EVD-12" in DOCUMENTED


def test_every_rule_id_the_source_cites_is_documented() -> None:
    cited = {m for p in (REPO / "olmtui").rglob("*.py") for m in RULE_ID.findall(p.read_text())}
    assert cited, "the source cites rule ids"
    assert cited - DOCUMENTED == set()


def test_every_finding_constructed_in_the_source_names_a_rule() -> None:
    """A ``Finding(...)`` without its seventh argument or ``rule=`` would report ``rule: ""``."""
    missing = []
    for path in sorted((REPO / "olmtui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            is_finding = isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Finding"
            if (
                is_finding
                and len(node.args) < 7
                and not any(k.arg == "rule" for k in node.keywords)
            ):
                missing.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert missing == []


@pytest.mark.parametrize(
    "argv",
    [
        *([str(p)] for p in MUST_GATHERS),
        [str(MUST_GATHERS[1]), "--catalog", f"openshift-marketplace/nope={KEYCLOAK}"],
        ["--sample", "--catalog", str(KEYCLOAK)],
        ["--sample", "--catalog", str(DEPRECATIONS)],
        *([str(p)] for p in SMALL_SNAPSHOTS),
    ],
    ids=lambda argv: " ".join(argv).replace(f"{DATA}/", ""),
)
def test_every_rule_a_report_names_is_documented(argv: list[str]) -> None:
    assert {r for r in check_rules(*argv) if r not in DOCUMENTED} == set()


def test_the_reports_cover_the_documentation_and_the_input_rules() -> None:
    """The runs above are not vacuous: together they name rules of many families."""
    named = {
        rule
        for argv in ([str(p)] for p in (*MUST_GATHERS, *SMALL_SNAPSHOTS))
        for rule in check_rules(*argv)
    }
    families = {rule.split("-")[1] for rule in named}
    assert {"MEM", "COPY", "SUB", "SRC"} <= families


def test_nothing_in_the_repository_refers_to_data_outside_it() -> None:
    offenders = [
        str(path.relative_to(REPO))
        for folder in ("olmtui", "tests", "bench", "scripts")
        for path in sorted((REPO / folder).rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and any(word.encode() in path.read_bytes() for word in OUTSIDE)
    ]
    assert offenders == []


def test_comments_cite_rule_ids_not_documents_the_repository_does_not_ship() -> None:
    offenders = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for folder in ("olmtui", "tests", "bench", "scripts")
        for path in sorted((REPO / folder).rglob("*"))
        if path.suffix in (".py", ".md", ".json")
        and str(path.relative_to(REPO)) not in LAB_NOTES
        and not any(part.startswith(".") or part == "__pycache__" for part in path.parts)
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if UNSHIPPED_CITATION.search(line)
    ]
    assert offenders == []
