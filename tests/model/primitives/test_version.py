"""The one version type (``model/primitives/version.py``): a ``semver.Version`` whose cached
precedence key orders as ``semver.Version.compare`` does (R-SEM-6), read by a grammar that accepts
what blang's ``Parse`` accepts, refusing the rest with blang's reason (R-SEM-1), and shared by the
blang ranges (OLM v0) and the Masterminds constraints (OLM v1)."""

from __future__ import annotations

import semver
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.model.primitives import version as version_module
from olmtui.model.primitives.semver_range import parse_range
from olmtui.model.primitives.version import (
    Version,
    identifiers,
    parse_version,
    parse_version_strict,
)
from olmtui.model.rules.v1.versions import parse_constraint

NUMBER = st.integers(min_value=0, max_value=2**64 - 1).map(str) | st.sampled_from(["0", "1", "10"])
ALNUM = st.text("abzAZ-09", min_size=1, max_size=4).filter(lambda t: not t.isdigit())
IDENTIFIER = NUMBER | ALNUM
VERSIONS = st.builds(
    lambda major, minor, patch, pre, build: (
        f"{major}.{minor}.{patch}"
        + (f"-{'.'.join(pre)}" if pre else "")
        + (f"+{'.'.join(build)}" if build else "")
    ),
    NUMBER,
    NUMBER,
    NUMBER,
    st.lists(IDENTIFIER, max_size=3),
    st.lists(st.text("az09-", min_size=1, max_size=3), max_size=2),
)


def test_a_version_is_a_semver_version() -> None:
    version = parse_version_strict("1.2.3-rc.1+build.5")
    assert isinstance(version, semver.Version)
    assert (version.major, version.minor, version.patch) == (1, 2, 3)
    assert (version.prerelease, version.build, version.pre) == ("rc.1", "build.5", ("rc", 1))
    assert str(version) == "1.2.3-rc.1+build.5"


@settings(max_examples=200, deadline=None)
@given(VERSIONS, VERSIONS)
def test_the_cached_key_orders_as_semver_compare(a_text: str, b_text: str) -> None:
    a, b = parse_version_strict(a_text), parse_version_strict(b_text)
    by_key = (a.key > b.key) - (a.key < b.key)
    assert by_key == semver.Version.compare(a, b)
    assert (a < b, a == b, a > b) == (by_key < 0, by_key == 0, by_key > 0)
    assert (hash(a) == hash(b)) or a != b


TEXT = st.text("0123456789.-+aZx \n١", max_size=14) | VERSIONS | VERSIONS.map(lambda t: t + "\n")


@settings(max_examples=600, deadline=None)
@given(TEXT)
def test_the_grammar_accepts_what_blangs_steps_accept(text: str) -> None:
    """The fast grammar and the step-by-step reading (which gives blang's reasons) agree on
    every text: a refused text gets blang's reason, an accepted one has none."""
    try:
        reason: str | None = str(version_module._refusal(text))
    except AssertionError:
        reason = None
    parsed = parse_version(text)
    assert (parsed is None) == (reason is not None), (text, reason)


def test_numbers_beyond_uint64_are_refused_with_blangs_reason() -> None:
    big = str(2**64)
    for text, reason in [
        (f"{big}.0.0", f'strconv.ParseUint: parsing "{big}": invalid syntax'),
        (f"1.0.0-{big}", f'strconv.ParseUint: parsing "{big}": value out of range'),
    ]:
        try:
            parse_version_strict(text)
        except ValueError as exc:
            assert str(exc) == reason
        else:
            raise AssertionError(text)
    assert parse_version(f"{2**64 - 1}.0.0-{2**64 - 1}") is not None


def test_identifiers_beyond_uint64_are_text_as_masterminds_reads_them() -> None:
    assert identifiers(f"1.a.{2**64}") == (1, "a", str(2**64))
    assert Version(1, 0, 0, str(2**64)) > Version(1, 0, 0, "1")


def test_one_version_serves_both_range_grammars() -> None:
    version = parse_version_strict("1.4.2-rc.1")
    assert parse_range(">=1.4.0 <1.5.0").contains(version)
    assert not parse_constraint(">=1.4.0 <1.5.0").contains(version)  # R-V1-12: pre-release
    assert parse_constraint(">=1.4.0-0 <1.5.0").contains(version)
