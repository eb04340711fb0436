"""The moments users type: RFC 3339, -DURATION from the end, HH:MM; outside is refused."""

import datetime as dt

import pytest

from olmtui.errors import UsageError
from olmtui.sources.recording.moments import parse_moment, utc_text

START = dt.datetime(2026, 11, 27, 23, 50, tzinfo=dt.UTC).timestamp()
END = dt.datetime(2026, 11, 28, 10, 30, tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-28T10:05:00Z", "2026-11-28T10:05:00Z"),
        ("2026-11-28T11:05:00+01:00", "2026-11-28T10:05:00Z"),
        ("-15m", "2026-11-28T10:15:00Z"),
        ("-1h30m", "2026-11-28T09:00:00Z"),
        ("-90s", "2026-11-28T10:28:30Z"),
        ("10:05", "2026-11-28T10:05:00Z"),
        ("23:55", "2026-11-27T23:55:00Z"),
        ("10:30:00", "2026-11-28T10:30:00Z"),
    ],
)
def test_each_form_names_its_moment(text: str, expected: str) -> None:
    assert utc_text(parse_moment(text, START, END)) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("yesterday", "is not a moment"),
        ("2026-11-28T10:05:00", "is not a moment"),
        ("25:00", "is not a moment"),
        ("-", "is not a moment"),
        ("-2d", "outside the recording, which runs from 2026-11-27T23:50:00Z"),
        ("23:45", "outside the recording"),
    ],
)
def test_a_bad_or_outside_moment_is_one_line(text: str, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        parse_moment(text, START, END)
