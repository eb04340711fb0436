"""The report's context: ``catalogSources[]`` says what each catalog is, ``installPlans[]``
where each plan stands, and the ``source`` block when and what the input is."""

from __future__ import annotations

import datetime as dt

from model_builders import catalog_source, install_plan, model_of

from olmtui.model.records.source_context import SourceContext
from olmtui.report import report_json
from olmtui.report.context_json import context_fields, install_plan_json
from olmtui.report.context_line import context_words


def test_source_context_fields_are_null_when_unknown_and_rfc3339_when_known():
    assert context_fields(None) == {
        "gatheredAt": None,
        "newestObjectTime": None,
        "openshiftVersion": None,
        "olmVersion": None,
        "complete": True,
        "incompleteBecause": [],
    }
    gathered = dt.datetime(2026, 5, 2, 14, 3, 7, tzinfo=dt.UTC)
    fields = context_fields(
        SourceContext(gathered, None, "4.16.3", "0.28.0", ("the archive ends early",))
    )
    assert fields["gatheredAt"] == "2026-05-02T14:03:07Z"
    assert (fields["complete"], fields["incompleteBecause"]) == (
        False,
        ["the archive ends early"],
    )


def test_line_one_words():
    source = context_fields(
        SourceContext(None, dt.datetime(2026, 5, 2, 13, 58, tzinfo=dt.UTC), None, "0.28.0")
    )
    source["kind"] = "snapshot"
    assert context_words(source) == [
        "newest object 2026-05-02 13:58 UTC; gather time unknown",
        "OpenShift version unknown",
        "OLM 0.28.0",
    ]
    source.update(kind="live", complete=False, incompleteBecause=["a", "b"])
    assert context_words(source) == [
        "OpenShift version unknown",
        "OLM 0.28.0",
        "input incomplete: a; b",
    ]


def test_an_install_plan_entry_counts_its_steps():
    plan = install_plan(
        "team-a",
        "install-1",
        "Failed",
        csvs=[("op.v2", "op.v1")],
        owner="op",
        status={
            "message": "role failed",
            "plan": [
                {"resolving": "op.v2", "status": "Created", "resource": {"kind": "CSV"}},
                {"resolving": "op.v2", "status": "NotCreated", "resource": {"kind": "Role"}},
                {"resolving": "op.v2", "status": "Unknown", "resource": {"kind": "Service"}},
            ],
        },
    )
    entry = install_plan_json(plan)
    assert entry["steps"] == {"total": 3, "created": 1, "failed": 2, "unknown": 0}
    assert (entry["phase"], entry["approval"], entry["approved"]) == ("Failed", "Manual", False)
    assert entry["csvNames"] == ["op.v2"] and entry["subscriptions"] == ["op"]
    assert entry["bundleLookups"][0]["catalog"] == "olm/cat"
    assert entry["message"] == "role failed"


def test_the_report_lists_catalogs_and_plans_sorted():
    model, store = model_of(
        catalog_source("olm", "b"),
        catalog_source("olm", "a", spec={"image": None, "address": "reg:50051"}),
        install_plan("team-a", "install-2"),
        install_plan("team-a", "install-1"),
    )
    report = report_json("snapshot", model, store)
    assert [(c["name"], c["kind"]) for c in report["catalogSources"]] == [
        ("a", "grpc address"),
        ("b", "grpc image"),
    ]
    assert report["catalogSources"][0]["pods"] == []
    assert [p["name"] for p in report["installPlans"]] == ["install-1", "install-2"]
