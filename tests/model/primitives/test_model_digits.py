"""Numbers of thousands of digits in versions: Python's ``int()`` refuses over
4,300 digits with a ``ValueError``; the model reads such a number as Go does (out of range),
never with an exception the caller does not expect."""

from __future__ import annotations

import pytest

from olmtui.model.primitives.digits import INT64_MAX, UINT64_MAX, bounded
from olmtui.model.primitives.semver_range import RangeError, parse_range
from olmtui.model.primitives.version import parse_version_strict
from olmtui.model.rules.documented.cluster_upgrade import cluster_version, max_openshift_version
from olmtui.model.rules.v1.versions import _coerce as coerce
from olmtui.model.rules.v1.versions import compare, legacy_version_release, parse_constraint

HUGE = "4" * 4400


def test_bounded_reads_up_to_the_limit_and_never_converts_a_longer_text() -> None:
    assert bounded("18446744073709551615", UINT64_MAX) == UINT64_MAX
    assert bounded("18446744073709551616", UINT64_MAX) is None
    assert bounded("000000000000000000000000042", INT64_MAX) == 42
    assert bounded(HUGE, UINT64_MAX) is None


def test_blang_versions_of_thousands_of_digits_are_out_of_range() -> None:
    with pytest.raises(ValueError, match=r"strconv\.ParseUint"):
        parse_version_strict(f"{HUGE}.0.0")
    with pytest.raises(ValueError, match="value out of range"):
        parse_version_strict(f"1.0.0-{HUGE}")
    with pytest.raises(ValueError, match=r"strconv\.ParseUint"):
        legacy_version_release(f"{HUGE}.0.0")


@pytest.mark.parametrize("text", [f">{HUGE}.x", f"<={HUGE}.x", f">=1.0.0-{HUGE}", f"~{HUGE}.1"])
def test_blang_ranges_of_thousands_of_digits_are_range_errors(text: str) -> None:
    with pytest.raises(RangeError):
        parse_range(text)


def test_masterminds_reads_a_prerelease_beyond_uint64_as_text() -> None:
    """Masterminds' comparePrePart: a part strconv.ParseUint cannot read is text, and a
    number sorts before text."""
    assert compare(coerce(f"1.0.0-{HUGE}"), coerce("1.0.0-1")) == 1
    assert compare(coerce("1.0.0-1"), coerce(f"1.0.0-{HUGE}")) == -1
    with pytest.raises(ValueError):
        coerce(f"{HUGE}.0.0")
    assert parse_constraint(f">= 1.0.0-{HUGE}").check(coerce("1.0.0")) is True


def test_a_cluster_version_of_thousands_of_digits_is_unreadable() -> None:
    def cv(version: str) -> dict[str, object]:
        return {"metadata": {"name": "version"}, "status": {"desired": {"version": version}}}

    assert cluster_version([cv(f"{HUGE}.1.0")]) is None
    assert cluster_version([cv(f"4.{HUGE}")]) is None
    assert cluster_version([cv("4.14.3")]) == (4, 14)


def test_a_max_openshift_version_of_thousands_of_digits_is_not_a_version() -> None:
    def csv(value: str) -> dict[str, object]:
        props = f'[{{"type": "olm.maxOpenShiftVersion", "value": "{value}"}}]'
        return {"metadata": {"annotations": {"operatorframework.io/properties": props}}}

    maximum, why = max_openshift_version(csv(f"4.{HUGE}"))
    assert maximum is None and why is not None
    assert why.endswith("is not a version") and len(why) < 100
    assert max_openshift_version(csv(f"4.15.{'0' * 4400}")) == ((4, 15), None)
    shown = f"'4.15.{'4' * 25}...{'4' * 30}'"
    assert max_openshift_version(csv(f"4.15.{HUGE}"))[1] == f"{shown} must be only <major>.<minor>"
