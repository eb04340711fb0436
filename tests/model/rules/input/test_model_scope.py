"""R-DOC-10: which findings a ``--namespace`` session holds back (olmtui.model.rules.input.scope),
and the engine's own scope-aware rules (expected copies, label drift)."""

from __future__ import annotations

from model_builders import namespace, operator_group

from olmtui.model.incremental.engine import Model
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.model.rules.input.scope import out_of_scope, scope_findings, scoped_findings
from olmtui.store import Store

READ = frozenset({"team-a"})


def finding(code: str, namespace: str = "team-a", *related: ObjectRef, severity: str = "warning"):
    return Finding(severity, code, "X", namespace, "n", "m", "R-X", tuple(related))


def test_a_catalog_source_is_judged_only_where_it_was_read():
    outside = finding("CatalogSourceMissing", "team-a", ObjectRef("CatalogSource", "mkt", "c"))
    inside = finding("CatalogSourceMissing", "team-a", ObjectRef("CatalogSource", "team-a", "c"))
    assert out_of_scope(outside, READ) and not out_of_scope(inside, READ)
    assert not out_of_scope(outside, None)  # everything read: nothing held back
    assert scoped_findings([outside, inside], READ) == [inside]


def test_a_copy_is_stale_for_a_missing_parent_only_where_the_parent_was_read():
    parent_elsewhere = finding("StaleCopiedCSV", "team-a", ObjectRef("CSV", "ops", "p"))
    parent_here = finding("StaleCopiedCSV", "team-a", ObjectRef("CSV", "team-a", "p"))
    assert out_of_scope(parent_elsewhere, READ) and not out_of_scope(parent_here, READ)


def test_required_apis_rest_on_the_crds_read_or_on_every_operator():
    assert not out_of_scope(finding("RequiredAPIMissing", severity="error"), READ)
    assert out_of_scope(finding("RequiredAPIMissing", severity="warning"), READ)
    assert out_of_scope(finding("CopiedCSVsConditionStale", ""), READ)
    assert out_of_scope(finding("TargetNamespaceMissing"), READ)  # namespaces got by name
    assert not out_of_scope(finding("CSVFailed"), READ)


def test_the_scope_is_said_once_as_info():
    assert scope_findings(None) == []
    (said,) = scope_findings(frozenset({"b", "a"}))
    assert (said.severity, said.code, said.rule) == ("info", "NamespacesNotRead", "R-DOC-10")
    assert said.message.startswith("read: namespaces a, b only")


def _drift(read: frozenset[str] | None) -> set[str]:
    store = Store()
    store.read_namespaces = read
    ns = namespace("team-a", labels={"olm.operatorgroup.uid/other": ""})
    group = operator_group("team-a", "og", targets=["team-a"], status=["team-a"])
    store.apply_many([ns, group])
    model = Model(store)
    return {f.message for f in model.findings() if f.code == "NamespaceLabelDrift"}


def test_label_drift_outside_the_scope_is_not_judged_but_a_missing_label_is():
    everywhere = _drift(None)
    assert any("carries olm.operatorgroup.uid/other" in m for m in everywhere)
    scoped = _drift(READ)
    assert not any("carries" in m for m in scoped)
    # the group read names team-a: the label it should have put there is still missing
    assert any("lacks olm.operatorgroup.uid/og-team-a-og" in m for m in scoped)
