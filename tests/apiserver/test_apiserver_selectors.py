"""Label and field selectors as the apiserver parses and matches them."""

from __future__ import annotations

import pytest

from olmtui.apiserver.selectors import SelectorError, parse_field_selector, parse_selection


def _obj(labels: dict[str, str] | None = None, name: str = "n", namespace: str = "ns") -> dict:
    return {"metadata": {"name": name, "namespace": namespace, "labels": labels or {}}}


COPY = _obj({"olm.copiedFrom": "cfe-test-namespace"})
ORIGINAL = _obj({"operators.coreos.com/etcd.default": ""})


@pytest.mark.parametrize(
    ("selector", "copy", "original"),
    [
        ("!olm.copiedFrom", False, True),
        ("olm.copiedFrom", True, False),
        ("olm.copiedFrom=cfe-test-namespace", True, False),
        ("olm.copiedFrom==cfe-test-namespace", True, False),
        ("olm.copiedFrom!=cfe-test-namespace", False, True),
        ("olm.copiedFrom in (a,cfe-test-namespace)", True, False),
        ("olm.copiedFrom in (a, b)", False, False),
        ("olm.copiedFrom notin (cfe-test-namespace)", False, True),
        ("operators.coreos.com/etcd.default=", False, True),
        ("olm.copiedFrom,!operators.coreos.com/etcd.default", True, False),
        ("", True, True),
    ],
)
def test_label_selector_matches_like_kubernetes(selector: str, copy: bool, original: bool) -> None:
    selection = parse_selection(selector, None)
    assert (selection.matches(COPY), selection.matches(ORIGINAL)) == (copy, original)


def test_set_requirement_commas_do_not_split_requirements() -> None:
    selection = parse_selection("tier in (a,b),env notin (x,y)", None)
    assert selection.matches(_obj({"tier": "b", "env": "z"}))
    assert not selection.matches(_obj({"tier": "b", "env": "x"}))


def test_numeric_comparisons() -> None:
    assert parse_selection("n>3", None).matches(_obj({"n": "4"}))
    assert not parse_selection("n<3", None).matches(_obj({"n": "4"}))
    assert not parse_selection("n<3", None).matches(_obj())


@pytest.mark.parametrize("bad", ["a in (b", "a)", "in in in (", "a=b=c", "!", "n>x", "a=(b)"])
def test_malformed_label_selectors_are_refused(bad: str) -> None:
    with pytest.raises(SelectorError):
        parse_selection(bad, None)


def test_field_selector_on_name_and_namespace() -> None:
    selection = parse_field_selector("metadata.namespace=default,metadata.name!=skip")
    assert selection.matches(_obj(name="keep", namespace="default"))
    assert not selection.matches(_obj(name="skip", namespace="default"))
    assert not selection.matches(_obj(name="keep", namespace="other"))


def test_field_selector_on_other_fields_is_refused() -> None:
    with pytest.raises(SelectorError, match=r"field label not supported: status\.phase"):
        parse_field_selector("status.phase=Succeeded")
