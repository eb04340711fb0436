"""Table tests for blang/semver v4.0.0 ranges as OLM uses them (R-SEM-1..7)."""

from __future__ import annotations

import itertools

import pytest

from olmtui.model.primitives.semver_range import RangeError, parse_range
from olmtui.model.primitives.version import Version, parse_version, version_key


def matches(range_text: str, version: str) -> bool:
    return parse_range(range_text)(version)


def assert_range_error(range_text: str) -> None:
    with pytest.raises(RangeError):
        parse_range(range_text)


# --- R-SEM-1 strict versions -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1.2.3",
        "0.0.0",
        "1.0.0-rc.1",
        "1.0.0-0.3.7",
        "1.0.0+build.5",
        "1.0.0-alpha+001",
        "4.13.0-202309181427",
        "1.0.0-x-y-z.--",
        "18446744073709551615.0.0",
    ],
)
def test_r_sem_1_strict_versions_parse(text: str) -> None:
    assert parse_version(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "v1.2.3",
        "1.2",
        "1",
        "1.2.3.4",
        "01.2.3",
        "1.02.3",
        "1.2.03",
        "1.2.3-01",
        "1.2.3-",
        "1.2.3+",
        "1.2.3-a..b",
        "1.2.3+a..b",
        "1.2.3-a_b",
        "",
        " 1.2.3",
        "1.2.3 ",
        "1..3",
        "18446744073709551616.0.0",
        "1.2.x",
        "1.2.3-ä",
    ],
)
def test_r_sem_1_non_strict_versions_do_not_parse(text: str) -> None:
    assert parse_version(text) is None


@pytest.mark.parametrize("range_text", [">v0.1.0", ">1.00.1", ">=1.2", "=1", "<1.2.3.4"])
def test_r_sem_1_a_non_strict_version_fails_the_whole_range(range_text: str) -> None:
    assert_range_error(range_text)


def test_r_sem_1_version_str_round_trips() -> None:
    assert str(parse_version("1.0.0-rc.1+build.7")) == "1.0.0-rc.1+build.7"


# --- R-SEM-2 tokenizing ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spaced", "glued"),
    [
        (">= 1.2.3", ">=1.2.3"),
        ("<    1.2.3", "<1.2.3"),
        ("= 1.2.3", "=1.2.3"),
        ("!= 1.2.3", "!=1.2.3"),
        ("  >=   1.2.3   <=  1.2.4   ", ">=1.2.3 <=1.2.4"),
        ("1.2.3    ||    2.0.0", "1.2.3 || 2.0.0"),
    ],
)
def test_r_sem_2_space_after_operator_is_glued(spaced: str, glued: str) -> None:
    assert str(parse_range(spaced)) == str(parse_range(glued))


def test_r_sem_2_lone_bang_is_dropped_so_negation_becomes_equality() -> None:
    # "! 1.2.3": the space after "!" splits, the 1-character "!" token is discarded.
    assert matches("! 1.2.3", "1.2.3")
    assert not matches("! 1.2.3", "1.2.4")
    assert not matches("!1.2.3", "1.2.3")


def test_r_sem_2_trailing_single_character_token_disappears() -> None:
    assert str(parse_range(">=1.2.3 !")) == ">=1.2.3"
    assert str(parse_range("<2.0.0 a")) == "<2.0.0"


def test_r_sem_2_single_character_tokens_mid_string_disappear() -> None:
    assert str(parse_range(">=1.0.0 ! <2.0.0")) == ">=1.0.0 <2.0.0"


def test_r_sem_2_two_character_token_is_kept() -> None:
    assert_range_error(">=1.0.0 !!")


def test_r_sem_2_a_multibyte_single_character_is_two_bytes_and_kept() -> None:
    # blang counts bytes: "é" is two bytes long, so it survives and has no version.
    assert_range_error(">=1.0.0 é")


def test_r_sem_2_only_single_character_tokens_is_an_empty_range() -> None:
    assert_range_error("a b c")


# --- R-SEM-3 AND / OR ------------------------------------------------------------------------


def test_r_sem_3_space_separated_terms_are_anded() -> None:
    assert [matches(">1.2.2 <1.2.4", v) for v in ("1.2.2", "1.2.3", "1.2.4")] == [
        False,
        True,
        False,
    ]


def test_r_sem_3_or_groups() -> None:
    assert [matches("<1.2.2 || >1.2.4", v) for v in ("1.2.1", "1.2.3", "1.2.5")] == [
        True,
        False,
        True,
    ]


def test_r_sem_3_and_binds_tighter_than_or() -> None:
    r = ">1.2.2 <1.2.4 || >=2.0.0 <3.0.0"
    assert [matches(r, v) for v in ("1.2.2", "1.2.3", "1.2.4", "2.0.0", "2.9.9", "3.0.0")] == [
        False,
        True,
        False,
        True,
        True,
        False,
    ]


@pytest.mark.parametrize("range_text", ["|| 1.0.0", "1.0.0 ||", "||", "", "   "])
def test_r_sem_3_or_first_or_last_or_empty_is_an_error(range_text: str) -> None:
    assert_range_error(range_text)


def test_r_sem_3_or_glued_to_a_version_is_not_an_or() -> None:
    assert_range_error("1.0.0||2.0.0")


def test_r_sem_3_empty_or_group_is_an_error() -> None:
    # blang accepts it and then panics on evaluation; olmtui treats it as unparsable.
    assert_range_error("1.0.0 || || 2.0.0")


# --- R-SEM-4 operators -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "below", "equal", "above"),
    [
        ("<", True, False, False),
        ("<=", True, True, False),
        (">", False, False, True),
        (">=", False, True, True),
        ("=", False, True, False),
        ("==", False, True, False),
        ("", False, True, False),
        ("!", True, False, True),
        ("!=", True, False, True),
    ],
)
def test_r_sem_4_operators(op: str, below: bool, equal: bool, above: bool) -> None:
    r = parse_range(f"{op}1.2.3")
    assert (r("1.2.2"), r("1.2.3"), r("1.2.4")) == (below, equal, above)


@pytest.mark.parametrize(
    "range_text",
    [
        ">>1.2.3",
        "<==1.2.3",
        "<<1.2.3",
        "~1.2.3",
        "^1.2.3",
        "-1.2.3",
        "=>1.2.3",
        "string",
    ],
)
def test_r_sem_4_unknown_operators_are_errors(range_text: str) -> None:
    assert_range_error(range_text)


def test_r_sem_4_error_message_names_the_comparator() -> None:
    with pytest.raises(RangeError, match='Could not parse comparator ">>"'):
        parse_range(">>1.2.3")


# --- R-SEM-5 wildcards -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wildcard", "expanded"),
    [
        (">=1.2.x", ">=1.2.0"),
        ("<=1.2.x", "<1.3.0"),
        (">1.2.x", ">=1.3.0"),
        ("<1.2.x", "<1.2.0"),
        ("1.2.x", ">=1.2.0 <1.3.0"),
        ("=1.2.x", ">=1.2.0 <1.3.0"),
        ("==1.2.x", ">=1.2.0 <1.3.0"),
        ("!=1.2.x", "<1.2.0 >=1.3.0"),
        ("!1.2.x", "<1.2.0 >=1.3.0"),
        (">=1.x", ">=1.0.0"),
        ("<=1.x", "<2.0.0"),
        (">1.x", ">=2.0.0"),
        ("<1.x", "<1.0.0"),
        ("1.x", ">=1.0.0 <2.0.0"),
        ("!=1.x", "<1.0.0 >=2.0.0"),
        ("1.x.x", ">=1.0.0 <1.1.0"),
        (">=2.1.x <2.2.1", ">=2.1.0 <2.2.1"),
    ],
)
def test_r_sem_5_wildcard_expansion_table(wildcard: str, expanded: str) -> None:
    assert str(parse_range(wildcard)) == expanded


@pytest.mark.parametrize("version", ["0.9.9", "1.0.0", "1.2.0", "1.2.5", "1.3.0", "2.0.0"])
def test_r_sem_5_not_equal_wildcard_matches_nothing(version: str) -> None:
    assert not matches("!=1.2.x", version)
    assert not matches("!=1.x", version)


def test_r_sem_5_patch_wildcard_matches_the_minor_series() -> None:
    assert [matches("1.2.x", v) for v in ("1.1.9", "1.2.0", "1.2.99", "1.3.0")] == [
        False,
        True,
        True,
        False,
    ]


def test_r_sem_5_x_x_quirk_is_a_patch_wildcard_of_x_0() -> None:
    assert matches("1.x.x", "1.0.5")
    assert not matches("1.x.x", "1.1.0")


@pytest.mark.parametrize("range_text", ["*", "X", "x", "1.2.X", "1.2.*", ">=*"])
def test_r_sem_5_unsupported_wildcards_are_errors(range_text: str) -> None:
    assert_range_error(range_text)


@pytest.mark.parametrize(
    ("range_text", "inside", "outside"),
    [
        (">=1.0.0-next", "1.0.0-rc", "1.0.0-alpha"),
        ("<1.0.0-next", "1.0.0-alpha", "1.0.0"),
    ],
)
def test_r_sem_5_prerelease_with_x_survives_with_ge_and_lt(
    range_text: str, inside: str, outside: str
) -> None:
    assert matches(range_text, inside)
    assert not matches(range_text, outside)


@pytest.mark.parametrize(
    "range_text",
    [
        ">1.0.0-next",
        "<=1.0.0-next",
        "=1.0.0-next",
        "1.0.0-next",
        "!=1.0.0-next",
        ">=1.0.0 >1.0.0-next",
    ],
)
def test_r_sem_5_prerelease_with_x_fails_with_other_operators(range_text: str) -> None:
    assert_range_error(range_text)


def test_r_sem_5_unknown_operator_on_a_wildcard_falls_out_as_equality() -> None:
    # blang's expander has no case for "~", so it writes the flat version with no operator.
    assert str(parse_range("~1.2.x")) == "=1.2.0"
    assert not matches("~1.2.x", "1.2.1")


def test_r_sem_5_bump_parses_the_part_like_go_atoi_sign_included() -> None:
    # "1.-1.x" bumps its minor with strconv.Atoi, which accepts the sign: -1 + 1 = 0.
    assert str(parse_range(">1.-1.x")) == ">=1.0.0"
    assert_range_error("1.-1.x")  # the unbumped lower bound "1.-1.0" is not a version


def test_r_sem_5_major_bump_wraps_like_go_int64() -> None:
    assert str(parse_range(">=9223372036854775807.x")) == ">=9223372036854775807.0.0"
    assert_range_error(">9223372036854775807.x")  # bumped to a negative major


def test_r_sem_5_no_digit_in_a_wildcard_token_is_an_error() -> None:
    with pytest.raises(RangeError, match="Could not get version from string"):
        parse_range("foox")


# --- R-SEM-6 comparison ----------------------------------------------------------------------


def test_r_sem_6_precedence_chain_from_the_semver_spec() -> None:
    chain = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
        "1.0.1",
        "1.1.0",
        "2.0.0",
    ]
    versions = [parse_version(v) for v in chain]
    assert all(a < b for a, b in itertools.pairwise(versions))


def test_r_sem_6_numeric_identifiers_compare_by_value_and_below_alphanumerics() -> None:
    assert parse_version("1.0.0-2") < parse_version("1.0.0-10")
    assert parse_version("1.0.0-10") < parse_version("1.0.0-a")
    assert parse_version("1.0.0-B") < parse_version("1.0.0-a")  # byte order


def test_r_sem_6_build_metadata_is_ignored() -> None:
    assert parse_version("1.0.0+a") == parse_version("1.0.0+b")
    assert matches("=1.0.0", "1.0.0+build.1")


def test_r_sem_6_prereleases_are_not_excluded_from_ranges() -> None:
    assert matches("<1.0.0", "1.0.0-rc.1")
    assert not matches(">=1.0.0", "1.0.0-rc.1")
    assert matches(">=4.1.0 <4.1.2", "4.1.1-rc.1")


def test_r_sem_6_version_key_sorts_unparsable_as_zero() -> None:
    ordered = sorted(["1.0.0", "v2.0.0", "0.1.0", "1.0.0-rc.1", None], key=version_key)
    assert ordered[2:] == ["0.1.0", "1.0.0-rc.1", "1.0.0"]
    assert version_key("v2.0.0") == version_key("0.0.0")


def test_r_sem_6_versions_hash_like_they_compare() -> None:
    assert len({parse_version("1.0.0+a"), parse_version("1.0.0+b"), Version(1, 0, 0)}) == 1


# --- R-SEM-7 unparsable input --------------------------------------------------------------


def test_r_sem_7_a_non_semver_version_is_in_no_range() -> None:
    assert not matches(">=0.0.0", "v1.0.0")


# --- real skipRanges from tests/data/catalogs ----------------------------------------


@pytest.mark.parametrize(
    ("range_text", "inside", "outside"),
    [
        # infinispan: a wildcard on the lower bound only
        (">=2.1.x <2.2.1", ["2.1.0", "2.1.7", "2.2.0"], ["2.0.9", "2.2.1"]),
        # descheduler: upper bound with a build-timestamp pre-release
        (
            ">=4.11.0 <4.14.0-202310201027",
            ["4.11.0", "4.13.0-202309181427", "4.14.0-202310191200"],
            ["4.10.9", "4.14.0-202310201027", "4.14.0"],
        ),
        # oadp: from zero
        (">=0.0.0 <0.4.0", ["0.0.0", "0.3.9", "0.4.0-rc.1"], ["0.4.0", "1.0.0"]),
        # cert-manager: rc pre-release bound
        (">=1.10.0 <1.10.2-rc1", ["1.10.0", "1.10.1", "1.10.2-rc0"], ["1.10.2-rc1", "1.10.2"]),
        # skupper: exclusive lower bound
        (">1.8.4 <1.9.0", ["1.8.5", "1.9.0-rc1"], ["1.8.4", "1.9.0"]),
        # rabbitmq-style single comparator
        ("<1.18.0", ["1.17.9"], ["1.18.0"]),
    ],
)
def test_real_catalog_skip_ranges(range_text: str, inside: list[str], outside: list[str]) -> None:
    r = parse_range(range_text)
    assert [r(v) for v in inside] == [True] * len(inside)
    assert [r(v) for v in outside] == [False] * len(outside)
