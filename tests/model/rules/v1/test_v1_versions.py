"""R-V1-12: ``spec.source.catalog.version`` as Masterminds/semver v3 reads it (its own test
tables, copied to tests/data/v1-resolution/masterminds-constraints.json), and R-V1-11: a
bundle's version and release and their order."""

from __future__ import annotations

import json
import re
import time

import pytest
from data_paths import DATA

from olmtui.model.primitives.version import Version, parse_version
from olmtui.model.rules.v1.versions import (
    ConstraintError,
    VersionRelease,
    bundle_version_release,
    legacy_version_release,
    package_version,
    parse_constraint,
)

TABLES = json.loads((DATA / "v1-resolution" / "masterminds-constraints.json").read_text())
_LAX = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?\Z")


def mm(text: str) -> Version:
    """Masterminds ``NewVersion`` for the tables' versions (``1.4`` is 1.4.0)."""
    m = _LAX.match(text)
    assert m, text
    return Version(int(m[1]), int(m[2] or 0), int(m[3] or 0), m[4], m[5])


@pytest.mark.parametrize(("constraint", "version", "expected"), TABLES["term_check"])
def test_r_v1_12_masterminds_term_check(constraint: str, version: str, expected: bool) -> None:
    """Masterminds TestConstraintCheck: one term each."""
    assert parse_constraint(constraint).check(mm(version)) is expected


@pytest.mark.parametrize(("constraint", "version", "expected"), TABLES["constraints_check"])
def test_r_v1_12_masterminds_constraints_check(
    constraint: str, version: str, expected: bool
) -> None:
    """Masterminds TestConstraintsCheck: AND (space, comma), OR, hyphen ranges, pre-releases."""
    assert parse_constraint(constraint).check(mm(version)) is expected


@pytest.mark.parametrize(("text", "ors", "ands", "error"), TABLES["new_constraint"])
def test_r_v1_12_masterminds_new_constraint(text: str, ors: int, ands: int, error: bool) -> None:
    """Masterminds TestNewConstraint: which texts parse, into how many groups and terms."""
    if error:
        with pytest.raises(ConstraintError):
            parse_constraint(text)
        return
    parsed = parse_constraint(text)
    assert (len(parsed.groups), len(parsed.groups[0])) == (ors, ands)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("foobar", 'improper constraint: "foobar"'),
        (">= bar", 'improper constraint: ">= bar"'),
        ("1.0.0 ||", 'improper constraint: ""'),
        (">=1.0 || garbage", 'improper constraint: " garbage"'),
        ("12.3.4.1234", 'improper constraint: "12.3.4.1234"'),
        ("v1.2.3-beta.01", "constraint parser error"),
    ],
)
def test_r_v1_12_parse_errors_are_masterminds_texts(text: str, message: str) -> None:
    with pytest.raises(ConstraintError) as error:
        parse_constraint(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("constraint", "inside", "outside"),
    [
        # The API doc's equivalences (R-V1-12).
        ("1.2.x", ["1.2.0", "1.2.99"], ["1.3.0", "1.1.9"]),
        (">= 1.2.x", ["1.2.0", "7.0.0"], ["1.1.9"]),
        ("<= 2.x", ["2.99.0", "0.1.0"], ["3.0.0"]),
        ("*", ["0.0.0", "9.9.9"], ["1.0.0-rc.1"]),
        ("~1.2.3", ["1.2.3", "1.2.9"], ["1.3.0", "1.2.2"]),
        ("~1", ["1.0.0", "1.9.9"], ["2.0.0"]),
        ("~2.3", ["2.3.0", "2.3.9"], ["2.4.0"]),
        ("^1.2.3", ["1.2.3", "1.99.0"], ["2.0.0", "1.2.2"]),
        ("^2.3", ["2.3.0", "2.9.0"], ["3.0.0", "2.2.0"]),
        ("^0.2.3", ["0.2.3", "0.2.9"], ["0.3.0"]),
        ("^0.0.3", ["0.0.3"], ["0.0.4"]),
        ("^0.0", ["0.0.0", "0.0.9"], ["0.1.0"]),
        ("^0", ["0.0.0", "0.9.0"], ["1.0.0"]),
        ("1.2.3", ["1.2.3"], ["1.2.4"]),
        ("v1.2.3", ["1.2.3"], ["1.2.4"]),
        ("1.2 - 1.4.5", ["1.2.0", "1.4.5"], ["1.4.6", "1.1.9"]),
        # compare_test.go TestNewVersionRange: build metadata ignored on both sides.
        ("1.0.0+1", ["1.0.0", "1.0.0+1", "1.0.0+2"], []),
        ("1.0.0", ["1.0.0+1"], []),
        (">=2.0.0", [], ["1.0.0"]),
        # A pre-release only where the AND group names one.
        (">=1.0.0", [], ["1.1.0-alpha"]),
        (">=1.0.0-0", ["1.1.0-alpha"], []),
        (">=1.0.0-0 || >=3.0.0", ["1.1.0-alpha"], []),
    ],
)
def test_r_v1_12_matching_bundle_versions(
    constraint: str, inside: list[str], outside: list[str]
) -> None:
    """As operator-controller checks them: a blang bundle version handed to Masterminds."""
    parsed = parse_constraint(constraint)
    for text in inside:
        version = parse_version(text)
        assert version is not None and parsed.contains(version), (constraint, text)
    for text in outside:
        version = parse_version(text)
        assert version is not None and not parsed.contains(version), (constraint, text)


def test_r_v1_12_long_garbage_fails_fast() -> None:
    """The validating expression is written not to backtrack exponentially."""
    start = time.perf_counter()
    with pytest.raises(ConstraintError):
        parse_constraint("1.2 " * 60 + "!")
    assert time.perf_counter() - start < 1


def test_r_v1_11_legacy_release() -> None:
    """bundle_test.go ParseLegacyVersionRelease: build metadata that is a release becomes it."""
    assert legacy_version_release("1.0.0+2").release == (2,)
    assert legacy_version_release("1.0.0+2").version.build is None
    no_release = legacy_version_release("1.0.0+001")
    assert (no_release.release, no_release.version.build) == ((), "001")
    with pytest.raises(ValueError, match=r"No Major\.Minor\.Patch elements found"):
        legacy_version_release("v1")


def test_r_v1_11_order() -> None:
    """compare_test.go TestByVersionAndRelease and the release rules, highest first."""
    texts = ["1.0.0", "1.0.0-alpha+2", "1.0.0-alpha+1", "0.0.1", "1.0.0+2", "1.0.0+1.a"]
    parsed = {t: bundle_version_release(t) for t in texts}
    keyed = {t: v.key for t, v in parsed.items() if isinstance(v, VersionRelease)}
    ordered = sorted(texts, key=lambda t: keyed[t], reverse=True)
    assert ordered == ["1.0.0+2", "1.0.0+1.a", "1.0.0", "1.0.0-alpha+2", "1.0.0-alpha+1", "0.0.1"]
    assert bundle_version_release("v1.0.0") is None
    assert bundle_version_release(None) is None


def test_r_v1_11_first_olm_package_property() -> None:
    props = (
        ("olm.gvk", "{}"),
        ("olm.package", '{"packageName":"a","version":"1.0.0","release":"3"}'),
        ("olm.package", '{"packageName":"a","version":"2.0.0"}'),
    )
    assert package_version(props) == "1.0.0"
    assert package_version((("olm.package", '{"packageName":"a"}'),)) == ""
    assert package_version(()) is None
