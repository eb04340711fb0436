"""OLM's ``constraints not satisfiable`` message read back into clauses (R-SUB-7): each fixed
template of the resolver, lists of ids that hold ``", "`` themselves, and any other text kept
verbatim without an error. The message texts follow the resolver's templates."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from olmtui.model.rules.resolution.clauses import (
    catalog_of,
    parse_id,
    parse_message,
    split_clauses,
)

MESSAGE = (
    "constraints not satisfiable: @existing/ns//a.v1, catsrc/ns/alpha/a.v3 and "
    "catsrc/ns/alpha/b.v1 provide k (g/v), bundle catsrc/ns/alpha/a.v2 is deprecated, "
    "clusterserviceversion x.v1 exists and is not referenced by a subscription, subscription a "
    "exists, subscription a requires at least one of catsrc/ns/alpha/a.v2, "
    "catsrc/ns/alpha/a.v1 or @existing/ns//a.v0, @existing/ns//x.v1 and catsrc/ns/alpha/x.v2 "
    "originate from package x, bundle a.v2 requires an operator with package: b, "
    "catsrc/ns/alpha/c.v1 has a dependency without any candidates to satisfy it, no operators "
    "found from catalog cat in namespace mp referenced by subscription s, no operators found "
    "matching the criteria of subscription t, something new"
)


def test_every_template_is_read() -> None:
    clauses = parse_message(MESSAGE)
    assert [c.kind for c in clauses] == [
        "same-api",
        "deprecated",
        "orphan-csv",
        "subscription-exists",
        "subscription-requires",
        "same-package",
        "bundle-requires",
        "no-candidates",
        "no-operators",
        "subscription-no-candidates",
        "unknown",
    ]
    api, _, orphan, _, requires, package, needs, _, catalog, _, unknown = clauses
    assert api.ids == ("@existing/ns//a.v1", "catsrc/ns/alpha/a.v3", "catsrc/ns/alpha/b.v1")
    assert api.detail == "k (g/v)"
    assert orphan.subject == "x.v1"
    assert requires.ids == ("catsrc/ns/alpha/a.v2", "catsrc/ns/alpha/a.v1", "@existing/ns//a.v0")
    assert (package.ids, package.detail) == (("@existing/ns//x.v1", "catsrc/ns/alpha/x.v2"), "x")
    assert (needs.subject, needs.detail) == ("a.v2", "with package: b")
    assert catalog_of(catalog) == ("mp", "cat")
    assert unknown.text == "something new"


def test_ids() -> None:
    installed = parse_id("@existing/ns//a.v1")
    assert installed is not None and installed.installed and installed.name == "a.v1"
    bundle = parse_id("catsrc/ns/alpha/a.v2")
    assert bundle is not None and not bundle.installed and bundle.channel == "alpha"
    assert parse_id("a") is None and parse_id("a/b/c") is None


def test_a_single_required_id() -> None:
    (clause,) = parse_message("constraints not satisfiable: subscription a requires cat/ns/s/a.v1")
    assert clause.ids == ("cat/ns/s/a.v1",)


@given(st.text(max_size=200))
def test_any_text_is_kept_and_never_fails(text: str) -> None:
    clauses = parse_message(text)
    joined = ", ".join(c.text for c in clauses)
    body = text.strip()
    assert joined in body  # verbatim: nothing invented, only the prefix dropped
    assert split_clauses(text) == [c.text for c in clauses]


@given(st.lists(st.sampled_from(MESSAGE.split(", ")), max_size=12))
def test_pieces_of_real_clauses_never_fail(pieces: list[str]) -> None:
    for clause in parse_message(", ".join(pieces)):
        assert clause.kind and clause.text
        catalog_of(clause)
