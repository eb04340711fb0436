"""The health rule declarations (``olmtui.model.rules.health_rules.FAMILIES``) are well formed: one
family per subject tag, rule ids that docs/rules.md defines, kinds the cache keeps, and each
family's ``marks`` naming only its own subjects. That the from-scratch pass and the
incremental index built from them agree is ``test_health_index``'s property test."""

from __future__ import annotations

import re

import pytest
from data_paths import ROOT

from olmtui.model.rules.health_rules import FAMILIES
from olmtui.model.rules.rule_family import (
    ANY_KIND,
    CATALOGS,
    CLOCK,
    CONTENT,
    HealthInputs,
    RuleFamily,
    Seen,
)
from olmtui.store import CLUSTER_SCOPED, KINDS, Key, Store

RULES_DOC = ROOT / "docs" / "rules.md"
DEFINED = set(re.findall(r"^### (R-[A-Z0-9]+-[A-Z0-9]+):", RULES_DOC.read_text(), re.M))


def test_each_subject_tag_belongs_to_one_family() -> None:
    tags = [tag for family in FAMILIES for tag in family.tags]
    assert len(tags) == len(set(tags))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.tag)
def test_a_family_cites_rules_that_docs_rules_md_defines(family: RuleFamily) -> None:
    cited = [rule.strip() for rule in family.rules.split(",")]
    for rule in cited:
        prefix = rule.removesuffix("*")
        assert any(d == rule or (rule.endswith("*") and d.startswith(prefix)) for d in DEFINED), (
            rule
        )


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.tag)
def test_a_family_reads_kinds_the_cache_keeps_and_follows_known_events(family: RuleFamily) -> None:
    assert family.reads and family.reads <= {*KINDS, ANY_KIND}
    assert family.follows <= {CONTENT, CATALOGS, CLOCK}


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.tag)
def test_a_change_of_a_read_kind_marks_only_the_familys_own_subjects(family: RuleFamily) -> None:
    store = Store()
    inputs = HealthInputs(store, subs={"a": {}}, plans={"a": {}}, installed={"a": {}})
    for kind in sorted(family.reads - {ANY_KIND}) or ["Namespace"]:
        key = Key(kind, "" if kind in CLUSTER_SCOPED else "a", "x")
        obj = {"kind": kind, "metadata": {"name": "x", "namespace": key.namespace}}
        for old, new in ((None, obj), (obj, obj), (obj, None)):
            seen = Seen(key, old, new, inputs, {}, ("a",), True, True)
            assert {subject[0] for subject in family.marks(seen)} <= set(family.tags)
