"""R-LCY-2, R-LCY-5, R-LCY-6: which entry speaks for an installed version, its phase on a day,
its compatibility with an OpenShift minor, and the way out. The cases are the console's own
(``operator-lifecycle-status.spec.tsx``, tests/data/lifecycle/SOURCES) and the enhancement's
example."""

from __future__ import annotations

import datetime as dt

import pytest
from data_paths import DATA

from olmtui.model.records.lifecycle import Lifecycle, LifecycleVersion, SupportPhase
from olmtui.model.rules.lifecycle.blob import minor_of
from olmtui.model.rules.lifecycle.support import (
    SELF_SUPPORT,
    compatible,
    compatible_text,
    entry_for,
    next_release,
    support_of,
    way_out,
)
from olmtui.sources.catalog.catalogs import load_catalog

LIFECYCLE = DATA / "lifecycle"


def _lifecycle(name: str, package: str) -> Lifecycle:
    (doc,) = load_catalog(str(LIFECYCLE / name)).packages[package].lifecycles
    return doc


CONSOLE = _lifecycle("test-operator.lifecycle.json", "test-operator")
EFS = _lifecycle("aws-efs-csi-driver-operator.lifecycle.yaml", "aws-efs-csi-driver-operator")
# The console's compatibility fixture, whose phases the schema refuses, as records.
_PHASE = (SupportPhase("Full support", dt.date(2024, 1, 1), dt.date(2030, 1, 1)),)
COMPAT = Lifecycle(
    "test-operator",
    (
        LifecycleVersion("1.0", (1, 0), _PHASE, ("4.14", "4.15", "4.16")),
        LifecycleVersion("2.0", (2, 0), _PHASE, ("4.16", "4.17")),
    ),
    "console",
)


@pytest.mark.parametrize(
    ("version", "cluster", "expected"),
    [
        ("1.0", (4, 15), True),  # compatible when cluster version is in the list
        ("1.0", (4, 17), False),  # incompatible when not
        ("2.0", (4, 17), True),  # checks compatibility for specific version
        ("2.0", (4, 14), False),
        ("1.0.3", (4, 15), True),  # matches by minor when exact match fails
        ("2.0.1", (4, 17), True),
        ("2.0.1", (4, 14), False),
    ],
)
def test_compatibility_as_the_console_decides_it(
    version: str, cluster: tuple[int, int], expected: bool
) -> None:
    entry = entry_for(COMPAT, version)
    assert entry is not None
    assert compatible(entry, cluster) is expected


def test_an_invalid_version_or_no_compatibility_is_no_data() -> None:
    assert entry_for(COMPAT, "latest") is None  # "returns no data for an invalid version"
    unknown = LifecycleVersion("1.0", (1, 0), _PHASE, None)
    assert compatible(unknown, (4, 15)) is None  # platformCompatibility not defined


@pytest.mark.parametrize(
    ("version", "day", "phase", "end"),
    [
        ("1.0", dt.date(2024, 3, 15), "Maintenance support", dt.date(2024, 6, 30)),
        ("1.0", dt.date(2025, 1, 15), "Extended life cycle support", dt.date(2025, 6, 30)),
        ("1.0.5", dt.date(2024, 3, 15), "Maintenance support", dt.date(2024, 6, 30)),
        ("1.0", dt.date(2026, 1, 1), SELF_SUPPORT, dt.date(2025, 6, 30)),
        # both ends of a phase are inclusive
        ("1.0", dt.date(2024, 6, 30), "Maintenance support", dt.date(2024, 6, 30)),
        ("1.0", dt.date(2025, 6, 30), "Extended life cycle support", dt.date(2025, 6, 30)),
        ("1.0", dt.date(2025, 7, 1), SELF_SUPPORT, dt.date(2025, 6, 30)),
        # before the first phase: not yet in support (the console's newer revision agrees)
        ("1.0", dt.date(2023, 6, 1), None, None),
        ("latest", dt.date(2024, 3, 15), None, None),
    ],
)
def test_the_phase_on_a_day(
    version: str, day: dt.date, phase: str | None, end: dt.date | None
) -> None:
    support = support_of(CONSOLE, None, version, day)
    assert (support.phase, support.end) == (phase, end)


def test_without_a_day_the_phase_is_unknown_but_the_end_of_support_is_not() -> None:
    support = support_of(EFS, None, "4.12.0-202401", None)
    assert support.phase is None
    assert support.ends == dt.date(2027, 1, 17)


@pytest.mark.parametrize(
    ("current", "expected"),
    [((4, 21), (4, 22)), ((4, 22), (5, 0)), ((4, 23), (5, 1)), ((5, 0), (5, 1))],
)
def test_the_next_minor_treats_4_23_and_5_0_as_one_release(
    current: tuple[int, int], expected: tuple[int, int]
) -> None:
    assert next_release(current) == expected


def test_an_entry_listing_4_23_or_5_0_is_compatible_with_either() -> None:
    for listed in ("4.23", "5.0"):
        entry = LifecycleVersion("1.0", (1, 0), _PHASE, (listed,))
        assert compatible(entry, next_release((4, 22))) is True
        assert compatible(entry, (4, 23)) is True


def test_consecutive_minors_are_shown_as_a_range() -> None:
    assert compatible_text(["4.20", "4.21", "4.22"]) == "4.20\u20134.22"
    assert compatible_text(["4.12"]) == "4.12"
    assert compatible_text(["4.12", "4.14"]) == "4.12, 4.14"
    # 4.23 is 5.0: after 4.22 comes 5.0 (R-LCY-5)
    assert compatible_text(["4.21", "4.22", "5.0"]) == "4.21\u20135.0"


def test_the_way_out_is_the_newest_newer_minor_in_support_and_compatible() -> None:
    efs_412 = support_of(EFS, None, "4.12.3", dt.date(2025, 6, 1))
    target = way_out(efs_412, None)
    assert target is not None and target.name == "4.17"
    assert way_out(efs_412, (4, 12)) is None, "4.17 is not compatible with 4.12"
    later = support_of(EFS, None, "4.12.3", dt.date(2026, 6, 1))
    assert way_out(later, None) is None, "4.17's support ended on 2026-04-01"
    assert minor_of("v4.17.0-202501") == (4, 17)
