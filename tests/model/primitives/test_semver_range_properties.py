"""Property tests for blang-compatible ranges (R-SEM-2, R-SEM-3, R-SEM-4, R-SEM-6)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from olmtui.model.primitives.semver_range import RangeError, parse_range
from olmtui.model.primitives.version import Version, parse_version

numbers = st.integers(min_value=0, max_value=30)
identifiers = st.one_of(
    st.integers(min_value=0, max_value=300).map(str),
    st.text(alphabet="abcxyzABC-", min_size=1, max_size=5),
    st.text(alphabet="abc019-", min_size=2, max_size=6).filter(lambda s: not s.isdigit()),
)


@st.composite
def versions(draw: st.DrawFn) -> str:
    text = f"{draw(numbers)}.{draw(numbers)}.{draw(numbers)}"
    pre = draw(st.lists(identifiers, max_size=3))
    if pre:
        text += "-" + ".".join(pre)
    if draw(st.booleans()):
        text += "+" + draw(st.text(alphabet="abc0123", min_size=1, max_size=4))
    return text


#: Versions whose text has no letter "x", so no token built from them is a wildcard token.
plain_versions = versions().filter(lambda v: "x" not in v)


def v(text: str) -> Version:
    parsed = parse_version(text)
    assert parsed is not None, text
    return parsed


@given(plain_versions, plain_versions, versions())
def test_r_sem_3_half_open_interval(low: str, high: str, probe: str) -> None:
    assert parse_range(f">={low} <{high}")(probe) == (v(low) <= v(probe) < v(high))


@given(plain_versions, plain_versions, versions())
def test_r_sem_3_or_is_either_side(a: str, b: str, probe: str) -> None:
    either = parse_range(f">={a} || <{b}")(probe)
    assert either == (parse_range(f">={a}")(probe) or parse_range(f"<{b}")(probe))


@given(
    st.sampled_from(["<", "<=", ">", ">=", "=", "==", "!="]),
    plain_versions,
    st.integers(min_value=1, max_value=4),
    versions(),
)
def test_r_sem_2_whitespace_after_operator_is_irrelevant(
    op: str, bound: str, spaces: int, probe: str
) -> None:
    spaced = parse_range(f"{op}{' ' * spaces}{bound}")
    assert spaced(probe) == parse_range(f"{op}{bound}")(probe)


@given(plain_versions, versions())
def test_r_sem_4_not_equal_is_the_negation_of_equal(bound: str, probe: str) -> None:
    assert parse_range(f"!={bound}")(probe) == (not parse_range(f"={bound}")(probe))


@given(plain_versions, versions())
def test_r_sem_4_bare_version_is_equality(bound: str, probe: str) -> None:
    assert parse_range(bound)(probe) == (v(bound) == v(probe))


@given(versions(), versions(), versions())
def test_r_sem_6_ordering_is_a_total_preorder(a: str, b: str, c: str) -> None:
    va, vb, vc = v(a), v(b), v(c)
    assert (va < vb) + (va == vb) + (va > vb) == 1
    if va <= vb and vb <= vc:
        assert va <= vc


@given(st.integers(0, 9), st.integers(0, 9), versions())
def test_r_sem_5_patch_wildcard_is_the_minor_series(major: int, minor: int, probe: str) -> None:
    p = v(probe)
    assert parse_range(f"{major}.{minor}.x")(probe) == (
        v(f"{major}.{minor}.0") <= p < v(f"{major}.{minor + 1}.0")
    )


range_alphabet = st.sampled_from([*list("0123456789.xX-+<>=!| abv~^*\t"), "||", "é"])


@given(st.lists(range_alphabet, max_size=25).map("".join), versions())
def test_r_sem_random_range_text_never_crashes(text: str, probe: str) -> None:
    try:
        r = parse_range(text)
    except RangeError:
        return
    assert isinstance(r(probe), bool)


@given(st.text(max_size=20))
def test_r_sem_random_unicode_never_crashes(text: str) -> None:
    try:
        r = parse_range(text)
    except RangeError:
        return
    assert isinstance(r("1.0.0"), bool)


@given(st.text(max_size=20))
def test_r_sem_1_parse_version_returns_none_or_a_version(text: str) -> None:
    parsed = parse_version(text)
    assert parsed is None or str(parsed) == text
