"""Go's ``%q`` is written once (``model/primitives/go_text.py``) and every OLM text quoted with it
quotes as Go's ``strconv.Quote`` does: printable text kept, the rest escaped Go's way."""

from __future__ import annotations

import pytest

from olmtui.model.primitives.go_text import go_quote
from olmtui.model.primitives.semver_range import RangeError, parse_range
from olmtui.model.primitives.version import parse_version_strict
from olmtui.model.records.catalog import Channel, ChannelEntry
from olmtui.model.rules.resolution.channel_order import ResolutionError, sort_channel
from olmtui.model.rules.resolution.entries import CatalogKey, Entry
from olmtui.model.rules.upgrades.graph import channel_order
from olmtui.model.rules.v1.versions import ConstraintError, parse_constraint


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("alpha", '"alpha"'),
        ("", '""'),
        ('say "hi" \\ bye', '"say \\"hi\\" \\\\ bye"'),
        # strconv.Quote's own example: printable non-ASCII is kept, a tab is escaped
        ("☺\t", '"☺\\t"'),
        ("café 😀", '"café 😀"'),
        ("\a\b\f\n\r\v", '"\\a\\b\\f\\n\\r\\v"'),
        ("\x1b[2J\x00\x7f", '"\\x1b[2J\\x00\\x7f"'),
        ("\u2028\u00ad\ufeff", '"\\u2028\\u00ad\\ufeff"'),
        ("\U000e0001", '"\\U000e0001"'),
    ],
)
def test_go_quote_is_strconv_quote(text: str, quoted: str) -> None:
    assert go_quote(text) == quoted


def test_every_olm_text_quotes_a_control_character_as_go_does() -> None:
    """Each former copy (upgrade graphs, resolver, blang, Masterminds) now says ``\\x1b``
    where JSON's quoting said ``\\u001b``."""
    channel = Channel("p", "s\x1b", (ChannelEntry("a", "b"), ChannelEntry("b", "a")))
    _, errors = channel_order(channel)
    assert errors[0].endswith('found in channel "s\\x1b" of package "p"')
    catalog = CatalogKey("c", "olm")
    with pytest.raises(ResolutionError, match=r'in channel "s\\x1b" of package "p"'):
        sort_channel(
            [
                Entry(e.name, "p", "s\x1b", catalog, replaces=e.replaces or "")
                for e in channel.entries
            ]
        )
    with pytest.raises(ValueError, match=r'found in patch number "\\x1b"'):
        parse_version_strict("1.2.\x1b")
    with pytest.raises(RangeError, match=r'Could not get version from string: "<\\x1b"'):
        parse_range("<\x1b")
    with pytest.raises(ConstraintError, match=r'improper constraint: "\\x1b"'):
        parse_constraint("\x1b")
