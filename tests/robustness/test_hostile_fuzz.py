"""Documents made of YAML and JSON fragments that break parsers (explicit tags on nothing,
aliases, brackets, surrogate escapes, huge numbers, bad bytes) never raise out of
``parse_documents``: each is a value or a document with a problem."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olmtui.sources.snapshots.snapshot_documents import parse_documents

FRAGMENTS = [
    *(b"a", b": ", b"- ", b"? ", b"[", b"]", b"{", b"}", b",", b"\n", b"  ", b"\t", b"#"),
    *(b"&x ", b"*x", b"<<: ", b"'", b'"', b"|", b">", b"---\n", b"%YAML 1.1\n", b"~"),
    *(b"!!binary ", b"!!int ", b"!!float ", b"!!timestamp ", b"!!set ", b"!!omap ", b"!!pairs "),
    *(b"!!merge ", b"!!str ", b"!!seq ", b"!!map ", b"%TAG ! tag:x,2000:\n", b"!x "),
    *(b"2021-13-45", b"0x1F", b"1e999", b".inf", b"9" * 4400, b"\\ud800", b"\\uDFFF"),
    *(b"\x00", b"\xff", b"\xef\xbb\xbf", b"\xed\xa0\x80"),
]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30), st.booleans())
def test_no_fragment_soup_raises(parts: list[bytes], json_format: bool) -> None:
    for document in parse_documents(b"".join(parts), json_format=json_format):
        assert document.problem is None or document.problem.startswith("line ")
