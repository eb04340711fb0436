"""The readable ``olmtui check`` output, rendered from the JSON report."""

from __future__ import annotations

from dataclasses import replace

from report_records import build_model, build_report, model_findings

from olmtui.model.records.types import Finding
from olmtui.report import render_text


def test_text_groups_findings_by_severity_errors_first() -> None:
    text = render_text(build_report())
    errors, warnings, info = (text.index(h) for h in ("ERRORS (2)", "WARNINGS (3)", "INFO (1)"))
    assert errors < warnings < info
    assert text.index("InterOperatorGroupOwnerConflict  ClusterServiceVersion team-a/") > errors


def test_text_header_has_the_counts() -> None:
    head = render_text(build_report()).splitlines()[:5]
    assert head == [
        "olmtui check: snapshot of 2 paths, no time in its objects; gather time unknown, "
        "OpenShift version unknown, OLM version unknown",
        "42 objects read, 1 skipped",
        "1 document could not be read — the snapshot is incomplete, findings may be missing or "
        "wrong",
        "5 namespaces, 3 OperatorGroups, 3 CSVs (+3 copied), 2 Subscriptions, 2 InstallPlans, "
        "1 CatalogSource",
        "Findings: 2 errors, 3 warnings, 1 info",
    ]


def test_text_has_no_colour_unless_asked() -> None:
    assert "\x1b" not in render_text(build_report())
    assert "\x1b[1;31mERRORS (2)\x1b[0m" in render_text(build_report(), colour=True)


def test_text_operator_group_block_shows_targets_members_and_conflicts() -> None:
    text = render_text(build_report())
    block = text[text.index("  team-a/team-a-og") : text.index("  team-b/team-b-og")]
    assert "targets: team-a" in block
    assert "etcdoperator.v0.9.4 0.9.4  Failed/InterOperatorGroupOwnerConflict\n" in block
    assert (
        "conflicts with openshift-operators/global-operators on "
        "EtcdBackup.v1beta2.etcd.database.coreos.com, "
    ) in " ".join(block.split())
    global_block = text[text.index("  openshift-operators/global-operators") :]
    assert "targets: all namespaces" in global_block
    assert "status.namespaces: absent" in global_block


def test_text_copied_csv_status_and_effective_approval() -> None:
    text = render_text(build_report())
    assert "3 present, 2 missing, 2 stale" in text
    assert "missing: openshift-operators/etcdoperator.v0.9.4-clusterwide in default, team-b" in text
    assert (
        "approval Automatic (effective Manual: another Subscription in the namespace is Manual)"
    ) in text


def test_untrusted_text_cannot_inject_terminal_escapes() -> None:
    evil = Finding(
        "error",
        "OwnerConflict",
        "ClusterServiceVersion",
        "ns",
        "csv\x1b]0;pwned\x07",
        "conflicting \x1b[2J CRD owner\r\nin namespace",
    )
    text = render_text(build_report(build_model([evil])))
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert "csv\\x1b]0;pwned\\x07" in text


def test_untrusted_markup_is_printed_literally() -> None:
    note = Finding("info", "Note", "", "", "x", "[bold red]not markup[/]")
    assert "[bold red]not markup[/]" in render_text(build_report(build_model([note])))


def test_long_runs_of_one_code_are_cut_with_a_count() -> None:
    many = [
        Finding(
            "warning",
            "MissingCopiedCSV",
            "ClusterServiceVersion",
            f"ns-{i:03d}",
            "etcd",
            "copy missing",
        )
        for i in range(12)
    ]
    text = render_text(build_report(build_model([*many, *model_findings()])))
    assert text.count("MissingCopiedCSV  ClusterServiceVersion") == 5
    assert "... and 9 more MissingCopiedCSV" in text


def test_same_report_renders_the_same_text() -> None:
    assert render_text(build_report()) == render_text(build_report())


def test_text_shows_the_verdict_when_the_next_sync_changes_the_phase() -> None:
    model = build_model()
    conflicted = model.csv_states[0]
    model.csv_states[0] = replace(conflicted, phase="Succeeded", reason="InstallSucceeded")
    text = render_text(build_report(model))
    assert (
        "etcdoperator.v0.9.4 0.9.4  Succeeded/InstallSucceeded -> next sync: "
        "Failed/InterOperatorGroupOwnerConflict"
    ) in text


def test_r_mem_1_csv_outside_every_group_is_listed_on_its_own() -> None:
    text = render_text(build_report())
    section = text[text.index("CSVs IN NO OPERATORGROUP") : text.index("COPIED CSVs")]
    assert "default/broken.v0.0.1  no status" in section
    assert "etcdoperator" not in section


def test_r_upg_5_subscription_line_shows_next_bundle_and_hops_to_head() -> None:
    text = render_text(build_report())
    assert "next etcdoperator.v0.9.2 (2 hops to etcdoperator.v0.9.4)" in " ".join(text.split())


def test_r_upg_1_unorderable_channel_says_there_is_no_next() -> None:
    """A channel OLM cannot order has no head: the line says no next, not a guess."""
    report = build_report()
    sub = next(s for s in report["subscriptions"] if s["installedCSV"])
    sub["upgrade"] = {"graph": "catalog", "head": None, "next": None, "path": [], "edges": []}
    text = " ".join(render_text(report).split())
    assert "no next: OLM cannot order the channel (see ChannelGraphError)" in text
